import Domain
import Foundation
import TestSupport
import Testing

/// What one random history did, tracked independently of the ledger.
private struct Modelo {
    var pago = Money.zero
    var reembolsado = Money.zero
    var iss = Money.zero
    var issDevolvido = Money.zero
}

@Suite("Razão: properties over random histories")
struct RazaoPropertyTests {
    static let historias = 400
    let fuso = TimeZone(identifier: "America/Sao_Paulo")!
    let inicio = Date(timeIntervalSince1970: 1_795_000_000)

    @Test func ledger_balances_and_numbering_stay_gapless_after_any_history() throws {
        var total = Cobertura()
        for seed in 0..<Self.historias {
            let cobertura = try historia(seed: UInt64(seed))
            total.faturas += cobertura.faturas
            total.notasParciais += cobertura.notasParciais
            total.notasQueZeram += cobertura.notasQueZeram
            total.recusas += cobertura.recusas
            total.repeticoes += cobertura.repeticoes
        }
        // The generator really produced every kind of step.
        #expect(total.faturas > 1_000 && total.notasParciais > 100 && total.notasQueZeram > 100)
        #expect(total.recusas > 100 && total.repeticoes > 100)
    }

    struct Cobertura {
        var faturas = 0
        var notasParciais = 0
        var notasQueZeram = 0
        var recusas = 0
        var repeticoes = 0
    }

    /// One random history: payments (some redelivered), partial and full refunds (some
    /// redelivered, some beyond what is left) across 1–4 units with random ISS rates, with a
    /// clock that sometimes runs behind; then every property is checked.
    func historia(seed: UInt64) throws -> Cobertura {
        var cobertura = Cobertura()
        var rng = SplitMix64(seed: seed &* 0x2545_F491_4F6C_DD1D &+ 1)
        var ids = 0
        func novoId() -> UUID {
            ids += 1
            return UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", ids))!
        }
        let unidades = (0..<Int.random(in: 1...4, using: &rng)).map { _ in Unidade.ID(novoId()) }
        let comuns: [Int64] = [0, 1, 200, 250, 333, 500, 999, 5_000, 9_999, 10_000]
        var aliquota: [Unidade.ID: Int64] = [:]
        for unidade in unidades {
            aliquota[unidade] = Bool.random(using: &rng) ? comuns.randomElement(using: &rng) : Int64.random(in: 0...10_000, using: &rng)
        }
        var historico: [Unidade.ID: [Fatura.Event]] = [:]
        var estados: [Unidade.ID: Fatura.State] = [:]
        var pagamentos: [Fatura.Pagamento] = []
        var reembolsos: [Fatura.Reembolso] = []
        var modelo = Modelo()
        var relogio = inicio

        for _ in 0..<Int.random(in: 1...60, using: &rng) {
            relogio = relogio.addingTimeInterval(Double(Int.random(in: -600...7_200, using: &rng)))
            let unidade = unidades.randomElement(using: &rng) ?? unidades[0]
            let decider = Fatura.decider(unidade: unidade)
            let state = estados[unidade] ?? decider.initialState
            let command: Fatura.Command
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<4:
                let pequeno = Bool.random(using: &rng)
                let valor = Money(centavos: Int64.random(in: 1...(pequeno ? 20 : 2_000_000), using: &rng))
                let id = novoId()
                let pagamento = Fatura.Pagamento(
                    pagamentoId: id, reservaId: id, usuarioId: "u", unidadeId: unidade, espacoId: novoId(),
                    tipoDeEspaco: "sala_reuniao", metodo: "pix", valor: valor, pagoEm: relogio)
                pagamentos.append(pagamento)
                command = .emitir(
                    pagamento, faturaId: Fatura.ID(novoId()), lancamentoId: novoId(), aliquotaISSBP: aliquota[unidade] ?? 500,
                    fuso: fuso, em: relogio)
            case 4 where !pagamentos.isEmpty:
                // A redelivered payment emits nothing.
                let pagamento = pagamentos.randomElement(using: &rng) ?? pagamentos[0]
                let events = try Fatura.decider(unidade: pagamento.unidadeId).decide(
                    .emitir(pagamento, faturaId: Fatura.ID(novoId()), lancamentoId: novoId(), aliquotaISSBP: 1, fuso: fuso, em: relogio),
                    estados[pagamento.unidadeId] ?? Fatura.State())
                #expect(events.isEmpty, "seed \(seed)")
                cobertura.repeticoes += 1
                continue
            case 5 where !reembolsos.isEmpty:
                // A redelivered refund emits nothing.
                let reembolso = reembolsos.randomElement(using: &rng) ?? reembolsos[0]
                let events = try Fatura.decider(unidade: reembolso.unidadeId).decide(
                    .emitirNotaDeCredito(reembolso, notaId: Fatura.NotaDeCredito.ID(novoId()), lancamentoId: novoId(), fuso: fuso, em: relogio),
                    estados[reembolso.unidadeId] ?? Fatura.State())
                #expect(events.isEmpty, "seed \(seed)")
                cobertura.repeticoes += 1
                continue
            default:
                guard let pagamento = pagamentos.filter({ $0.unidadeId == unidade }).randomElement(using: &rng),
                    let resumo = state.porPagamento[pagamento.pagamentoId]
                else { continue }
                let valor =
                    switch Int.random(in: 0..<4, using: &rng) {
                    case 0: resumo.disponivel  // the rest, in one go
                    case 1: resumo.disponivel + Money(centavos: Int64.random(in: 1...1_000, using: &rng))  // too much
                    default: Money(centavos: Int64.random(in: 1...max(1, resumo.disponivel.centavos), using: &rng))
                    }
                let reembolso = Fatura.Reembolso(
                    reembolsoId: novoId(), pagamentoId: pagamento.pagamentoId, unidadeId: unidade, valor: valor, reembolsadoEm: relogio)
                command = .emitirNotaDeCredito(reembolso, notaId: Fatura.NotaDeCredito.ID(novoId()), lancamentoId: novoId(), fuso: fuso, em: relogio)
                guard valor > .zero, valor <= resumo.disponivel else {
                    let esperado: Fatura.Failure = valor > .zero ? .reembolsoExcedeFatura(disponivel: resumo.disponivel) : .valorInvalido(valor)
                    #expect(Scenario(decider).given(historico[unidade] ?? []).when(command).outcome == .failure(esperado), "seed \(seed)")
                    cobertura.recusas += 1
                    continue
                }
                reembolsos.append(reembolso)
            }
            let events = try decider.decide(command, state)
            for event in events {
                switch event {
                case .emitida(let e):
                    modelo.pago = modelo.pago + e.valor
                    modelo.iss = modelo.iss + e.iss
                    cobertura.faturas += 1
                case .notaDeCreditoEmitida(let e):
                    modelo.reembolsado = modelo.reembolsado + e.valor
                    modelo.issDevolvido = modelo.issDevolvido + e.iss
                    if e.saldoDaFatura == .zero { cobertura.notasQueZeram += 1 } else { cobertura.notasParciais += 1 }
                default: break
                }
            }
            historico[unidade, default: []] += events
            estados[unidade] = events.reduce(state, decider.evolve)
        }

        let lancamentos = historico.values.flatMap { $0 }.compactMap { if case .contabilizado(let l) = $0 { l } else { nil } }
        for lancamento in lancamentos {
            #expect(lancamento.debitos == lancamento.creditos, "seed \(seed): \(lancamento.historico)")
            #expect(lancamento.partidas.allSatisfy { !$0.debito.isNegative && !$0.credito.isNegative }, "seed \(seed)")
        }
        let saldos = Razao.saldos(lancamentos)
        func saldo(_ conta: Razao.Conta) -> Money { saldos[conta]?.saldo ?? .zero }
        #expect(saldos.values.reduce(Money.zero) { $0 + $1.debitos } == saldos.values.reduce(Money.zero) { $0 + $1.creditos }, "seed \(seed)")
        #expect(saldo(.caixa) == modelo.pago - modelo.reembolsado, "seed \(seed)")
        #expect(saldo(.issARecolher) == modelo.iss - modelo.issDevolvido, "seed \(seed)")
        #expect(saldo(.caixa) == saldo(.receitaDeServicos) - saldo(.reembolsos) + saldo(.issARecolher), "seed \(seed)")

        for (unidade, events) in historico {
            let faturas = events.compactMap { if case .emitida(let e) = $0 { e } else { nil } }
            let notas = events.compactMap { if case .notaDeCreditoEmitida(let e) = $0 { e } else { nil } }
            let entradas = events.compactMap { if case .contabilizado(let l) = $0 { l } else { nil } }
            #expect(faturas.map(\.numero) == (0..<faturas.count).map { $0 + 1 }, "seed \(seed): invoice numbers are 1…n")
            #expect(notas.map(\.numero) == (0..<notas.count).map { $0 + 1 }, "seed \(seed): credit note numbers are 1…n")
            #expect(entradas.map(\.sequencia) == (0..<entradas.count).map { $0 + 1 }, "seed \(seed): ledger entries are 1…n")
            #expect(entradas.count == faturas.count + notas.count, "seed \(seed)")
            #expect(entradas.allSatisfy { $0.unidadeId == unidade }, "seed \(seed)")
            #expect((Razao.saldos(entradas)[.issARecolher]?.saldo ?? .zero) >= .zero, "seed \(seed): ISS a recolher never negative")
            let instantes = events.compactMap { event -> Date? in
                switch event {
                case .emitida(let e): e.em
                case .notaDeCreditoEmitida(let e): e.em
                default: nil
                }
            }
            #expect(instantes == instantes.sorted(), "seed \(seed): number order is time order")
            for resumo in (estados[unidade] ?? Fatura.State()).porPagamento.values {
                #expect(resumo.reembolsado <= resumo.valor, "seed \(seed)")
                #expect(resumo.issDevolvido >= .zero && resumo.issDevolvido <= resumo.iss, "seed \(seed)")
                if resumo.reembolsado == resumo.valor { #expect(resumo.issDevolvido == resumo.iss, "seed \(seed)") }
            }
        }
        return cobertura
    }

    /// The reverted ISS of any split of a refund adds up to the invoice's ISS, and no note
    /// reverts more ISS than its own amount.
    @Test func proportional_iss_never_drifts() {
        var rng = SplitMix64(seed: 42)
        for _ in 0..<2_000 {
            let valor = Money(centavos: Int64.random(in: 1...5_000_000, using: &rng))
            let aliquota = Int64.random(in: 0...10_000, using: &rng)
            var resumo = Fatura.Resumo(
                faturaId: Fatura.ID(UUID()), numero: 1, reservaId: UUID(), usuarioId: "u", espacoId: UUID(), tipoDeEspaco: "auditorio",
                valor: valor, aliquotaISSBP: aliquota, iss: Fatura.iss(de: valor, aliquotaISSBP: aliquota), paga: true,
                reembolsado: .zero, issDevolvido: .zero)
            while resumo.disponivel > .zero {
                let parte = Money(centavos: Int64.random(in: 1...resumo.disponivel.centavos, using: &rng))
                let iss = Fatura.issDevolvido(resumo, reembolso: parte)
                #expect(iss >= .zero && iss <= parte)
                resumo.reembolsado = resumo.reembolsado + parte
                resumo.issDevolvido = resumo.issDevolvido + iss
                #expect(resumo.issDevolvido <= resumo.iss)
            }
            #expect(resumo.issDevolvido == resumo.iss)
        }
    }
}
