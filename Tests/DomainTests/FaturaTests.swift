import Domain
import Foundation
import Testing

private func instant(_ text: String) -> Date { try! Date(text, strategy: .iso8601) }
private func uuid(_ n: Int) -> UUID { UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", n))! }

@Suite("Fatura decider (a unit's invoice book)")
struct FaturaTests {
    let unidade = Unidade.ID(uuid(900))
    let fuso = TimeZone(identifier: "America/Sao_Paulo")!
    let now = instant("2026-11-23T23:30:00-03:00")
    var decider: Decider<Fatura.Command, Fatura.State, Fatura.Event, Fatura.Failure> { Fatura.decider(unidade: unidade) }
    var scenario: Fatura.Scenario { Scenario(decider) }

    func pagamento(_ n: Int, _ valor: Money = .reais(100), unidade: Unidade.ID? = nil) -> Fatura.Pagamento {
        Fatura.Pagamento(
            pagamentoId: uuid(n), reservaId: uuid(n), usuarioId: "u\(n)", unidadeId: unidade ?? self.unidade, espacoId: uuid(500),
            tipoDeEspaco: "sala_reuniao", metodo: "pix", valor: valor, pagoEm: now.addingTimeInterval(-5))
    }

    func emitir(_ n: Int, _ valor: Money = .reais(100), aliquota: Int64 = 500, em: Date? = nil) -> Fatura.Command {
        .emitir(
            pagamento(n, valor), faturaId: Fatura.ID(uuid(100 + n)), lancamentoId: uuid(200 + n), aliquotaISSBP: aliquota, fuso: fuso, em: em ?? now)
    }

    func reembolsar(_ n: Int, reembolso: Int, _ valor: Money, em: Date? = nil) -> Fatura.Command {
        .emitirNotaDeCredito(
            Fatura.Reembolso(reembolsoId: uuid(300 + reembolso), pagamentoId: uuid(n), unidadeId: unidade, valor: valor, reembolsadoEm: now),
            notaId: Fatura.NotaDeCredito.ID(uuid(400 + reembolso)), lancamentoId: uuid(600 + reembolso), fuso: fuso, em: em ?? now)
    }

    func ciclo(_ n: Int, itens: [Int64] = [40_000, 10_000], unidade: Unidade.ID? = nil) -> Fatura.CicloPago {
        Fatura.CicloPago(
            assinaturaId: uuid(700), titular: "u7", unidadeId: unidade ?? self.unidade, ciclo: n,
            plano: Plano.Referencia(planoId: uuid(800), nome: "Flex", versao: 1), inicio: DataLocal("2026-11-10")!,
            fim: DataLocal("2026-12-01")!, metodo: "cartao",
            itens: itens.enumerated().map { Reserva.LinhaDePreco(codigo: "l\($0.offset)", descricao: "linha", valor: Money(centavos: $0.element)) },
            valor: Money(centavos: itens.reduce(0, +)), pagoEm: now.addingTimeInterval(-5))
    }

    func faturarCiclo(_ n: Int, _ ciclo: Fatura.CicloPago? = nil, aliquota: Int64 = 500) -> Fatura.Command {
        .faturarCiclo(
            ciclo ?? self.ciclo(n), faturaId: Fatura.ID(uuid(1_000 + n)), lancamentoId: uuid(1_100 + n), aliquotaISSBP: aliquota, fuso: fuso,
            em: now)
    }

    func pacote(_ n: Int, unidade: Unidade.ID? = nil) -> Fatura.PacotePago {
        Fatura.PacotePago(
            compraId: uuid(1_200 + n), titular: "u7", unidadeId: unidade ?? self.unidade, pacoteId: uuid(1_300),
            pacote: Pacote.Oferta(
                nome: "10 horas", medida: .minutos, quantidade: 600, tipos: [.salaReuniao], validadeDias: 30, precoCentavos: 25_000),
            metodo: "pix", valor: .reais(250), pagoEm: now.addingTimeInterval(-5))
    }

    func faturarPacote(_ n: Int, _ pago: Fatura.PacotePago? = nil) -> Fatura.Command {
        .faturarPacote(
            pago ?? pacote(n), faturaId: Fatura.ID(uuid(1_400 + n)), lancamentoId: uuid(1_500 + n), aliquotaISSBP: 500, fuso: fuso, em: now)
    }

    /// The events of running `commands` one after the other on an empty book.
    func history(_ commands: Fatura.Command...) throws -> [Fatura.Event] {
        var events: [Fatura.Event] = []
        for command in commands { events += try decider.run(given: events, command) }
        return events
    }

    func emitidas(_ events: [Fatura.Event]) -> [Fatura.Emitida] {
        events.compactMap { if case .emitida(let e) = $0 { e } else { nil } }
    }

    func notas(_ events: [Fatura.Event]) -> [Fatura.NotaDeCreditoEmitida] {
        events.compactMap { if case .notaDeCreditoEmitida(let e) = $0 { e } else { nil } }
    }

    func lancamentos(_ events: [Fatura.Event]) -> [Razao.Lancamento] {
        events.compactMap { if case .contabilizado(let e) = $0 { e } else { nil } }
    }

    @Test func a_paid_booking_is_invoiced_paid_and_booked_in_one_decision() throws {
        let fatura = Fatura.Emitida(
            faturaId: Fatura.ID(uuid(101)), unidadeId: unidade, numero: 1, reservaId: uuid(1), pagamentoId: uuid(1), usuarioId: "u1",
            espacoId: uuid(500), tipoDeEspaco: "sala_reuniao", metodo: "pix", valor: .reais(100), aliquotaISSBP: 500,
            iss: .reais(5), data: DataLocal("2026-11-23")!, em: now)
        let lancamento = try Razao.lancamento(de: fatura, id: uuid(201), sequencia: 1)
        #expect(
            scenario.when(emitir(1)).outcome
                == .events([.emitida(fatura), .paga(Fatura.Paga(fatura, pagoEm: now.addingTimeInterval(-5))), .contabilizado(lancamento)]))
        #expect(
            lancamento.partidas == [
                .debito(.caixa, .reais(100)), .credito(.receitaDeServicos, .reais(95)), .credito(.issARecolher, .reais(5)),
            ])
    }

    @Test func invoices_are_numbered_1_2_3_per_unit_and_so_are_ledger_entries() throws {
        let events = try history(emitir(1), emitir(2), emitir(3))
        #expect(emitidas(events).map(\.numero) == [1, 2, 3])
        #expect(lancamentos(events).map(\.sequencia) == [1, 2, 3])
        let fourth = try history(emitir(1), emitir(2), emitir(3), reembolsar(2, reembolso: 1, .reais(10)), emitir(4))
        #expect(emitidas(fourth).map(\.numero) == [1, 2, 3, 4])
        #expect(lancamentos(fourth).map(\.sequencia) == [1, 2, 3, 4, 5])
    }

    @Test func the_local_date_is_the_units_day_not_utc() throws {
        // 23:30 in São Paulo is already the 24th in UTC.
        #expect(emitidas(try history(emitir(1))).first?.data == DataLocal("2026-11-23"))
    }

    @Test func invoicing_the_same_payment_again_emits_nothing() throws {
        let events = try history(emitir(1))
        #expect(Scenario(decider).given(events).when(emitir(1)).outcome == .events([]))
        #expect(Scenario(decider).given(events).when(emitir(1, .reais(7))).outcome == .events([]))
    }

    @Test func iss_is_the_units_rate_rounded_half_up() throws {
        #expect(Fatura.iss(de: Money(centavos: 1_010), aliquotaISSBP: 500) == Money(centavos: 51))  // 50.5 → 51
        #expect(Fatura.iss(de: Money(centavos: 1_009), aliquotaISSBP: 500) == Money(centavos: 50))  // 50.45 → 50
        #expect(Fatura.iss(de: Money(centavos: 1_030), aliquotaISSBP: 250) == Money(centavos: 26))  // 25.75 → 26
        #expect(Fatura.iss(de: Money(centavos: 10), aliquotaISSBP: 500) == Money(centavos: 1))  // 0.5 → 1
        #expect(Fatura.iss(de: Money(centavos: 9), aliquotaISSBP: 500) == Money(centavos: 0))  // 0.45 → 0
        let fatura = try #require(emitidas(try history(emitir(1, Money(centavos: 1_010), aliquota: 500))).first)
        #expect(fatura.iss == Money(centavos: 51))
        #expect(fatura.aliquotaISSBP == 500)
    }

    @Test func a_zero_rate_books_no_iss_line_and_a_full_rate_no_revenue_line() throws {
        let free = try history(emitir(1, .reais(10), aliquota: 0))
        #expect(lancamentos(free).first?.partidas == [.debito(.caixa, .reais(10)), .credito(.receitaDeServicos, .reais(10))])
        let all = try history(emitir(1, .reais(10), aliquota: 10_000))
        #expect(lancamentos(all).first?.partidas == [.debito(.caixa, .reais(10)), .credito(.issARecolher, .reais(10))])
    }

    @Test func bad_payments_and_rates_are_refused() {
        #expect(scenario.when(emitir(1, .zero)).outcome == .failure(.valorInvalido(.zero)))
        #expect(scenario.when(emitir(1, Money(centavos: -1))).outcome == .failure(.valorInvalido(Money(centavos: -1))))
        #expect(scenario.when(emitir(1, aliquota: 10_001)).outcome == .failure(.aliquotaInvalida(10_001)))
        #expect(scenario.when(emitir(1, aliquota: -1)).outcome == .failure(.aliquotaInvalida(-1)))
        let outra = Unidade.ID(uuid(901))
        #expect(
            scenario.when(
                .emitir(
                    pagamento(1, unidade: outra), faturaId: Fatura.ID(uuid(101)), lancamentoId: uuid(201), aliquotaISSBP: 500, fuso: fuso, em: now)
            ).outcome
                == .failure(.outraUnidade(outra)))
    }

    @Test func a_partial_refund_gets_a_credit_note_with_its_share_of_the_iss() throws {
        let given = try history(emitir(1))
        let events = try decider.run(given: given, reembolsar(1, reembolso: 1, .reais(40)))
        let nota = try #require(notas(events).first)
        #expect(nota.numero == 1)
        #expect(nota.numeroDaFatura == 1)
        #expect(nota.valor == .reais(40))
        #expect(nota.iss == .reais(2))
        #expect(nota.saldoDaFatura == .reais(60))
        #expect(
            lancamentos(events).first?.partidas == [
                .debito(.reembolsos, .reais(38)), .debito(.issARecolher, .reais(2)), .credito(.caixa, .reais(40)),
            ])
        #expect(lancamentos(events).first?.origem.codigo == "NC-1")
    }

    @Test func a_full_refund_reverts_exactly_the_iss_charged() throws {
        // 33.33 at 5 % is 1.67 ISS; three refunds of 11.11 revert 0.56 + 0.55 + 0.56 = 1.67.
        var events = try history(emitir(1, Money(centavos: 3_333)))
        for n in 1...3 { events += try decider.run(given: events, reembolsar(1, reembolso: n, Money(centavos: 1_111))) }
        #expect(notas(events).map(\.iss) == [Money(centavos: 56), Money(centavos: 55), Money(centavos: 56)])
        #expect(notas(events).map(\.numero) == [1, 2, 3])
        #expect(notas(events).last?.saldoDaFatura == .zero)
        let saldos = Razao.saldos(lancamentos(events))
        #expect(saldos[.caixa]?.saldo == .zero)
        #expect(saldos[.issARecolher]?.saldo == .zero)
        #expect(saldos[.receitaDeServicos]?.saldo == saldos[.reembolsos]?.saldo)
    }

    @Test func a_refund_in_one_go_is_a_full_credit_note() throws {
        let events = try history(emitir(1), reembolsar(1, reembolso: 1, .reais(100)))
        #expect(notas(events).first?.iss == .reais(5))
        #expect(notas(events).first?.saldoDaFatura == .zero)
    }

    @Test func refunds_beyond_the_invoice_total_are_refused() throws {
        #expect(
            Scenario(decider).given(try history(emitir(1))).when(reembolsar(1, reembolso: 1, Money(centavos: 10_001))).outcome
                == .failure(.reembolsoExcedeFatura(disponivel: .reais(100))))
        let partial = try history(emitir(1), reembolsar(1, reembolso: 1, .reais(40)))
        #expect(
            Scenario(decider).given(partial).when(reembolsar(1, reembolso: 2, Money(centavos: 6_001))).outcome
                == .failure(.reembolsoExcedeFatura(disponivel: .reais(60))))
        let full = try history(emitir(1), reembolsar(1, reembolso: 1, .reais(100)))
        #expect(
            Scenario(decider).given(full).when(reembolsar(1, reembolso: 2, Money(centavos: 1))).outcome
                == .failure(.reembolsoExcedeFatura(disponivel: .zero)))
    }

    @Test func the_same_refund_again_emits_nothing() throws {
        let events = try history(emitir(1), reembolsar(1, reembolso: 1, .reais(40)))
        #expect(Scenario(decider).given(events).when(reembolsar(1, reembolso: 1, .reais(40))).outcome == .events([]))
    }

    @Test func refunds_without_an_invoice_or_of_nothing_are_refused() throws {
        #expect(scenario.when(reembolsar(1, reembolso: 1, .reais(1))).outcome == .failure(.faturaNaoEncontrada(pagamentoId: uuid(1))))
        #expect(
            Scenario(decider).given(try history(emitir(1))).when(reembolsar(1, reembolso: 1, .zero)).outcome
                == .failure(.valorInvalido(.zero)))
    }

    @Test func a_document_is_never_dated_before_the_previous_one() throws {
        let events = try history(
            emitir(1), emitir(2, em: now.addingTimeInterval(-3_600)), reembolsar(1, reembolso: 1, .reais(1), em: now.addingTimeInterval(-60)))
        #expect(emitidas(events).map(\.em) == [now, now])
        #expect(notas(events).map(\.em) == [now])
    }

    @Test func a_paid_subscription_cycle_is_invoiced_in_the_same_sequence_with_its_lines_and_entry() throws {
        let events = try history(emitir(1), faturarCiclo(1), emitir(2))
        #expect(emitidas(events).map(\.numero) == [1, 3])
        let faturas = events.compactMap { if case .assinaturaFaturada(let e) = $0 { e } else { nil } }
        let fatura = try #require(faturas.first)
        #expect(faturas.count == 1)
        #expect(fatura.numero == 2 && fatura.usuarioId == "u7" && fatura.ciclo == 1 && fatura.plano.nome == "Flex")
        #expect(fatura.valor == .reais(500) && fatura.iss == .reais(25) && fatura.itens.count == 2)
        #expect(fatura.inicio == DataLocal("2026-11-10")! && fatura.fim == DataLocal("2026-12-01")!)
        let lancamento = try #require(lancamentos(events).first { $0.origem.documentoId == fatura.faturaId.rawValue })
        #expect(lancamento.sequencia == 2)
        #expect(lancamento.partidas == Razao.partidas(deFatura: .reais(500), iss: .reais(25)))
        #expect(lancamento.historico.contains("plano Flex, ciclo 1 (2026-11-10 a 2026-11-30)"))
        #expect(lancamentos(events).map(\.sequencia) == [1, 2, 3])
    }

    @Test func a_cycle_is_invoiced_once_and_bad_cycles_are_refused() throws {
        let events = try history(faturarCiclo(1))
        #expect(Scenario(decider).given(events).when(faturarCiclo(1)).outcome == .events([]))
        #expect(Scenario(decider).given(events).when(faturarCiclo(2)).outcome != .events([]))
        #expect(scenario.when(faturarCiclo(1, ciclo(1, itens: []))).outcome == .failure(.valorInvalido(.zero)))
        // Lines that do not add up to the value are a bug upstream, never invoiced.
        let torto = Fatura.CicloPago(
            assinaturaId: uuid(700), titular: "u7", unidadeId: unidade, ciclo: 1,
            plano: Plano.Referencia(planoId: uuid(800), nome: "Flex", versao: 1),
            inicio: DataLocal("2026-11-10")!, fim: DataLocal("2026-12-01")!, metodo: "cartao",
            itens: [Reserva.LinhaDePreco(codigo: "mensalidade", descricao: "x", valor: .reais(1))], valor: .reais(2), pagoEm: now)
        #expect(scenario.when(faturarCiclo(1, torto)).outcome == .failure(.valorInvalido(.reais(2))))
        #expect(scenario.when(faturarCiclo(1, ciclo(1, unidade: Unidade.ID(uuid(901))))).outcome == .failure(.outraUnidade(Unidade.ID(uuid(901)))))
        #expect(scenario.when(faturarCiclo(1, aliquota: 10_001)).outcome == .failure(.aliquotaInvalida(10_001)))
    }

    @Test func a_paid_bundle_is_invoiced_once_in_the_same_sequence_with_its_entry() throws {
        let events = try history(emitir(1), faturarPacote(1), faturarCiclo(1))
        let faturas = events.compactMap { if case .pacoteFaturado(let e) = $0 { e } else { nil } }
        let fatura = try #require(faturas.first)
        #expect(faturas.count == 1 && fatura.numero == 2 && emitidas(events).map(\.numero) == [1])
        #expect(fatura.valor == .reais(250) && fatura.iss == Money(centavos: 1_250) && fatura.pacote.nome == "10 horas")
        let lancamento = try #require(lancamentos(events).first { $0.origem.documentoId == fatura.faturaId.rawValue })
        #expect(lancamento.partidas == Razao.partidas(deFatura: .reais(250), iss: Money(centavos: 1_250)))
        #expect(lancamento.historico.contains("pacote 10 horas"))
        #expect(lancamentos(events).map(\.sequencia) == [1, 2, 3])
        // Again (a redelivered payment): nothing more; another unit's, or nothing paid: refused.
        #expect(Scenario(decider).given(events).when(faturarPacote(1)).outcome == .events([]))
        #expect(scenario.when(faturarPacote(1, pacote(1, unidade: Unidade.ID(uuid(901))))).outcome == .failure(.outraUnidade(Unidade.ID(uuid(901)))))
    }

    @Test func every_event_round_trips_through_its_stored_form() throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let events = try history(emitir(1), reembolsar(1, reembolso: 1, .reais(40)), faturarCiclo(1), faturarPacote(1))
        #expect(Set(events.map(\.eventType)) == Fatura.Event.tipos)
        for event in events {
            #expect(try Fatura.Event.decode(type: event.eventType, data: encoder.encode(event), using: decoder) == event)
        }
        let json = try #require(String(data: encoder.encode(events[0]), encoding: .utf8))
        #expect(json.contains("\"valor\":10000"))
    }
}

@Suite("Razão: lançamentos")
struct LancamentoTests {
    let unidade = Unidade.ID(uuid(900))
    let origem = Razao.Origem(tipo: .fatura, documentoId: uuid(1), numero: 1)
    let hoje = DataLocal("2026-11-23")!
    let now = instant("2026-11-23T10:00:00-03:00")

    func lancamento(_ partidas: [Razao.Partida]) throws(Razao.Falha) -> Razao.Lancamento {
        try Razao.Lancamento(id: uuid(1), unidadeId: unidade, sequencia: 1, origem: origem, historico: "x", partidas: partidas, data: hoje, em: now)
    }

    @Test func only_balanced_entries_with_one_sided_non_negative_lines_exist() throws {
        #expect(throws: Razao.Falha.semPartidas) { try lancamento([]) }
        #expect(throws: Razao.Falha.desbalanceado(debitos: .reais(10), creditos: .reais(9))) {
            try lancamento([.debito(.caixa, .reais(10)), .credito(.receitaDeServicos, .reais(9))])
        }
        #expect(throws: Razao.Falha.partidaInvalida(conta: .caixa)) {
            try lancamento([.debito(.caixa, Money(centavos: -1)), .credito(.receitaDeServicos, Money(centavos: -1))])
        }
        #expect(throws: Razao.Falha.partidaInvalida(conta: .caixa)) {
            try lancamento([Razao.Partida(conta: .caixa, debito: .reais(1), credito: .reais(1))])
        }
        #expect(throws: Razao.Falha.partidaInvalida(conta: .caixa)) { try lancamento([.debito(.caixa, .zero)]) }
        let ok = try lancamento([.debito(.caixa, .reais(10)), .credito(.receitaDeServicos, .reais(10))])
        #expect(ok.debitos == ok.creditos)
    }

    @Test func an_unbalanced_stored_entry_does_not_decode() throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let ok = try lancamento([.debito(.caixa, .reais(10)), .credito(.receitaDeServicos, .reais(10))])
        let text = try #require(String(data: encoder.encode(ok), encoding: .utf8))
        #expect(try decoder.decode(Razao.Lancamento.self, from: encoder.encode(ok)) == ok)
        let broken = text.replacingOccurrences(of: "\"credito\":1000", with: "\"credito\":999")
        #expect(broken != text)
        #expect(throws: DecodingError.self) { try decoder.decode(Razao.Lancamento.self, from: Data(broken.utf8)) }
    }

    @Test func balances_take_each_accounts_natural_side() throws {
        let venda = try lancamento(Razao.partidas(deFatura: .reais(100), iss: .reais(5)))
        let estorno = try lancamento(Razao.partidas(deNota: .reais(40), issDevolvido: .reais(2)))
        let saldos = Razao.saldos([venda, estorno])
        #expect(saldos[.caixa]?.saldo == .reais(60))
        #expect(saldos[.receitaDeServicos]?.saldo == .reais(95))
        #expect(saldos[.reembolsos]?.saldo == .reais(38))
        #expect(saldos[.issARecolher]?.saldo == .reais(3))
    }
}

extension Fatura {
    typealias Scenario = DomainTests.Scenario<Fatura.Command, Fatura.State, Fatura.Event, Fatura.Failure>
}
