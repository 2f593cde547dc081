import Domain
import Foundation
import TestSupport
import Testing

@Suite("Carteira decider: credits granted, spent, given back, expired, adjusted")
struct CarteiraTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    let unidade = UUID()
    let outraUnidade = UUID()
    let reservaA = UUID()
    let reservaB = UUID()
    let titular = "membro-1"
    var scenario: Scenario<Carteira.Command, Carteira.State, Carteira.Event, Carteira.Failure> { Scenario(Carteira.decider) }

    func lote(
        _ medida: Carteira.Medida = .minutos, quantidade: Int64, tipos: [Espaco.Tipo] = [], unidade: UUID? = nil,
        vence: TimeInterval? = nil, origem: Carteira.Origem = .plano
    ) -> Carteira.Lote {
        Carteira.Lote(
            loteId: UUID(), medida: medida, quantidade: quantidade, tipos: tipos, unidadeId: unidade,
            validoAte: vence.map { t0.addingTimeInterval($0) },
            origem: origem, descricao: "Plano Flex")
    }

    func concedidos(_ lote: Carteira.Lote) -> Carteira.Event { .concedidos(Carteira.Concedidos(titular: titular, lote: lote, por: "system", em: t0)) }

    func parte(_ lote: Carteira.Lote, _ quantidade: Int64) -> Carteira.Parte {
        Carteira.Parte(loteId: lote.loteId, medida: lote.medida, quantidade: quantidade)
    }

    func consumir(
        _ reserva: UUID, minutos: Int64 = 0, centavos: Int64 = 0, tipo: Espaco.Tipo = .salaReuniao, unidade: UUID? = nil, em: TimeInterval = 60
    )
        -> Carteira.Command
    {
        .consumir(
            titular: titular, reserva: reserva, minutos: minutos, centavos: centavos, tipo: tipo, unidade: unidade ?? self.unidade,
            em: t0.addingTimeInterval(em))
    }

    func consumidos(_ reserva: UUID, _ partes: [Carteira.Parte], em: TimeInterval = 60) -> Carteira.Event {
        .consumidos(Carteira.Consumidos(titular: titular, reservaId: reserva, partes: partes, em: t0.addingTimeInterval(em)))
    }

    @Test func a_grant_is_recorded_once_and_its_terms_are_checked() {
        let plano = lote(quantidade: 600, vence: 30 * 86_400)
        #expect(scenario.when(.conceder(titular: titular, lote: plano, por: "system", em: t0)).outcome == .events([concedidos(plano)]))
        // The same lot again (a redelivered cycle) changes nothing; other terms under its id are refused.
        #expect(scenario.given(concedidos(plano)).when(.conceder(titular: titular, lote: plano, por: "system", em: t0)).outcome == .events([]))
        let outro = Carteira.Lote(
            loteId: plano.loteId, medida: .minutos, quantidade: 60, validoAte: nil, origem: .plano, descricao: "Plano Flex")
        #expect(
            scenario.given(concedidos(plano)).when(.conceder(titular: titular, lote: outro, por: "system", em: t0)).outcome
                == .failure(.loteJaExiste))
        for quantidade: Int64 in [0, -1, Carteira.maximo(.minutos) + 1] {
            #expect(
                scenario.when(.conceder(titular: titular, lote: lote(quantidade: quantidade), por: "system", em: t0)).outcome
                    == .failure(.quantidadeInvalida(medida: .minutos)))
        }
        #expect(
            scenario.when(.conceder(titular: titular, lote: lote(quantidade: 60, vence: 0), por: "system", em: t0)).outcome
                == .failure(.validadeNoPassado))
        let semNome = Carteira.Lote(loteId: UUID(), medida: .centavos, quantidade: 100, origem: .pacote, descricao: "  ")
        #expect(scenario.when(.conceder(titular: titular, lote: semNome, por: "system", em: t0)).outcome == .failure(.descricaoInvalida))
    }

    @Test func a_booking_spends_the_lots_that_expire_first_and_never_more_than_there_is() throws {
        let longo = lote(quantidade: 120, vence: 60 * 86_400)
        let curto = lote(quantidade: 60, vence: 10 * 86_400)
        let eterno = lote(quantidade: 600)
        let given = scenario.given(concedidos(eterno), concedidos(longo), concedidos(curto))
        #expect(
            given.when(consumir(reservaA, minutos: 150)).outcome
                == .events([consumidos(reservaA, [parte(curto, 60), parte(longo, 90)])]))
        #expect(given.when(consumir(reservaA, minutos: 790)).outcome == .failure(.insuficiente(medida: .minutos, disponivel: 780)))
        // Again for the same booking: nothing more is spent.
        let gasto = consumidos(reservaA, [parte(curto, 60)])
        #expect(
            scenario.given(concedidos(curto), gasto).when(consumir(reservaA, minutos: 60)).outcome == .events([]))
        // What is spent is gone for the next booking.
        #expect(
            scenario.given(concedidos(curto), gasto).when(consumir(reservaB, minutos: 1)).outcome
                == .failure(.insuficiente(medida: .minutos, disponivel: 0)))
        #expect(given.when(consumir(reservaA, minutos: -5)).outcome == .failure(.quantidadeInvalida(medida: .minutos)))
    }

    @Test func a_lot_serves_only_its_space_types_its_unit_and_its_validity() {
        let reunioes = lote(quantidade: 120, tipos: [.salaReuniao], unidade: unidade, vence: 86_400)
        let dinheiro = lote(.centavos, quantidade: 5_000)
        let given = scenario.given(concedidos(reunioes), concedidos(dinheiro))
        #expect(
            given.when(consumir(reservaA, minutos: 60, tipo: .estacaoCompartilhada)).outcome
                == .failure(.insuficiente(medida: .minutos, disponivel: 0)))
        #expect(
            given.when(consumir(reservaA, minutos: 60, unidade: outraUnidade)).outcome == .failure(.insuficiente(medida: .minutos, disponivel: 0)))
        #expect(given.when(consumir(reservaA, minutos: 60, em: 86_400)).outcome == .failure(.insuficiente(medida: .minutos, disponivel: 0)))
        #expect(
            given.when(consumir(reservaA, minutos: 60, centavos: 2_500)).outcome
                == .events([consumidos(reservaA, [parte(reunioes, 60), parte(dinheiro, 2_500)])]))
        // Money credits serve any space.
        #expect(
            given.when(consumir(reservaA, centavos: 5_000, tipo: .auditorio, unidade: outraUnidade)).outcome
                == .events([consumidos(reservaA, [parte(dinheiro, 5_000)])]))
    }

    @Test(
        "a booking that ends gives back its policy's share; what is kept comes from the lots spent first",
        arguments: [(Int64(10_000), Int64(0)), (5_000, 45), (0, 90), (3_333, 60)])
    func restitution(devolverBP: Int64, retido: Int64) {
        let curto = lote(quantidade: 60, vence: 10 * 86_400)
        let longo = lote(quantidade: 120, vence: 60 * 86_400)
        let gasto = consumidos(reservaA, [parte(curto, 60), parte(longo, 30)])
        let outcome = scenario.given(concedidos(curto), concedidos(longo), gasto)
            .when(.restituir(titular: titular, reserva: reservaA, devolverBP: devolverBP, em: t0.addingTimeInterval(120))).outcome
        guard case .events(let events) = outcome, case .restituidos(let e)? = events.first, events.count == 1 else {
            Issue.record("expected one Restituidos, got \(outcome)")
            return
        }
        #expect(e.retidas.reduce(0) { $0 + $1.quantidade } == retido)
        #expect(e.partes.reduce(0) { $0 + $1.quantidade } == 90 - retido)
        // The share kept comes off the short lot first: what comes back lasts longest.
        if retido > 0 { #expect(e.retidas.first?.loteId == curto.loteId) }
        if retido < 90 { #expect(e.partes.last?.loteId == longo.loteId) }
        // The booking holds no credits afterwards: a second ending gives nothing.
        let state = Carteira.decider.fold([concedidos(curto), concedidos(longo), gasto] + events)
        #expect(state.consumos[reservaA] == nil)
        #expect(state.saldo(.minutos, em: t0) == 180 - retido)
        #expect(
            (try? Carteira.decider.decide(.restituir(titular: titular, reserva: reservaA, devolverBP: 10_000, em: t0), state)) == [])
    }

    @Test func credits_given_back_to_an_expired_lot_expire_with_it() {
        let curto = lote(quantidade: 60, vence: 3_600)
        let gasto = consumidos(reservaA, [parte(curto, 60)])
        let depois = t0.addingTimeInterval(7_200)
        #expect(
            scenario.given(concedidos(curto), gasto).when(.restituir(titular: titular, reserva: reservaA, devolverBP: 10_000, em: depois)).outcome
                == .events([
                    .restituidos(Carteira.Restituidos(titular: titular, reservaId: reservaA, partes: [parte(curto, 60)], retidas: [], em: depois)),
                    .expirados(Carteira.Expirados(titular: titular, partes: [parte(curto, 60)], em: depois)),
                ]))
    }

    @Test func expiry_takes_what_is_left_of_lots_whose_time_is_up_only() {
        let curto = lote(quantidade: 60, vence: 3_600)
        let eterno = lote(quantidade: 60)
        let gasto = consumidos(reservaA, [parte(curto, 20)])
        let antes = t0.addingTimeInterval(3_599)
        let na = t0.addingTimeInterval(3_600)
        let given = scenario.given(concedidos(curto), concedidos(eterno), gasto)
        #expect(given.when(.expirar(titular: titular, em: antes)).outcome == .events([]))
        #expect(
            given.when(.expirar(titular: titular, em: na)).outcome
                == .events([.expirados(Carteira.Expirados(titular: titular, partes: [parte(curto, 40)], em: na))]))
        let state = Carteira.decider.fold([
            concedidos(curto), concedidos(eterno), gasto, .expirados(Carteira.Expirados(titular: titular, partes: [parte(curto, 40)], em: na)),
        ])
        #expect(state.saldo(.minutos, em: na) == 60)
        #expect((try? Carteira.decider.decide(.expirar(titular: titular, em: na), state)) == [])
    }

    @Test func an_operator_adds_or_takes_away_with_a_reason_never_below_zero() {
        let ajuste = lote(.centavos, quantidade: 2_000, origem: .ajuste)
        #expect(
            scenario.when(.ajustar(titular: titular, lote: ajuste, motivo: "cortesia", por: "admin-1", em: t0)).outcome
                == .events([.ajustados(Carteira.Ajustados(titular: titular, lote: ajuste, partes: [], motivo: "cortesia", por: "admin-1", em: t0))]))
        #expect(scenario.when(.ajustar(titular: titular, lote: ajuste, motivo: "  ", por: "admin-1", em: t0)).outcome == .failure(.motivoObrigatorio))
        let dado = Carteira.Event.ajustados(
            Carteira.Ajustados(titular: titular, lote: ajuste, partes: [], motivo: "cortesia", por: "admin-1", em: t0))
        #expect(
            scenario.given(dado).when(.retirar(titular: titular, medida: .centavos, quantidade: 500, motivo: "erro", por: "admin-1", em: t0)).outcome
                == .events([
                    .ajustados(Carteira.Ajustados(titular: titular, lote: nil, partes: [parte(ajuste, 500)], motivo: "erro", por: "admin-1", em: t0))
                ]))
        #expect(
            scenario.given(dado).when(.retirar(titular: titular, medida: .centavos, quantidade: 2_001, motivo: "erro", por: "admin-1", em: t0))
                .outcome == .failure(.insuficiente(medida: .centavos, disponivel: 2_000)))
        #expect(
            scenario.given(dado).when(.retirar(titular: titular, medida: .minutos, quantidade: 1, motivo: "erro", por: "admin-1", em: t0)).outcome
                == .failure(.insuficiente(medida: .minutos, disponivel: 0)))
    }

    @Test("no sequence of commands takes a lot below zero (a seeded random walk)")
    func never_negative() {
        var gerador = SplitMix64(seed: 42)
        let lotes = (0..<4).map { i in lote(quantidade: 60 * Int64(i + 1), vence: Double(i + 1) * 3_600) }
        var history: [Carteira.Event] = lotes.map(concedidos)
        var reservas: [UUID] = []
        for passo in 0..<400 {
            let state = Carteira.decider.fold(history)
            let em = t0.addingTimeInterval(Double(passo) * 40)
            let command: Carteira.Command
            switch gerador.next() % 4 {
            case 0:
                let reserva = UUID()
                reservas.append(reserva)
                command = consumir(reserva, minutos: Int64(gerador.next() % 200), em: Double(passo) * 40)
            case 1 where !reservas.isEmpty:
                command = .restituir(
                    titular: titular, reserva: reservas[Int(gerador.next() % UInt64(reservas.count))], devolverBP: Int64(gerador.next() % 10_001),
                    em: em)
            case 2:
                command = .retirar(titular: titular, medida: .minutos, quantidade: Int64(gerador.next() % 100) + 1, motivo: "x", por: "a", em: em)
            default:
                command = .expirar(titular: titular, em: em)
            }
            if let events = try? Carteira.decider.decide(command, state) { history += events }
            for saldo in Carteira.decider.fold(history).saldos {
                #expect(saldo.restante >= 0 && saldo.restante <= saldo.lote.quantidade, "step \(passo): \(saldo)")
            }
        }
    }

    @Test func a_moved_booking_takes_its_pool_use_to_the_month_it_moved_to_within_the_cap() throws {
        let pool = lote(quantidade: 600)
        let limite = Carteira.Limite(minutosPorMes: 60, centavosPorMes: nil)
        func gasto(_ reserva: UUID, _ minutos: Int64, _ mes: String) -> Carteira.Event {
            .consumidos(
                Carteira.Consumidos(titular: titular, reservaId: reserva, partes: [parte(pool, minutos)], beneficiario: "bia", mes: mes, em: t0))
        }
        func mover(_ reserva: UUID, para mes: String, limite: Carteira.Limite?) -> Carteira.Command {
            .remarcarUso(titular: titular, reserva: reserva, mes: mes, limite: limite, em: t0)
        }
        let remarcado = Carteira.Event.usoRemarcado(
            Carteira.UsoRemarcado(
                titular: titular, reservaId: reservaA, beneficiario: "bia", de: "2026-12", para: "2027-01", minutos: 60, centavos: 0, em: t0))
        let dezembro = scenario.given(concedidos(pool), gasto(reservaA, 60, "2026-12"))
        #expect(dezembro.when(mover(reservaA, para: "2027-01", limite: limite)).outcome == .events([remarcado]))
        // Within its month, or a booking that spent none of this pool: nothing to move.
        #expect(dezembro.when(mover(reservaA, para: "2026-12", limite: limite)).outcome == .events([]))
        #expect(dezembro.when(mover(reservaB, para: "2027-01", limite: limite)).outcome == .events([]))
        // January's cap half spent already: refused; without a cap (the desk's move), moved.
        let cheio = scenario.given(concedidos(pool), gasto(reservaA, 60, "2026-12"), gasto(reservaB, 30, "2027-01"))
        #expect(cheio.when(mover(reservaA, para: "2027-01", limite: limite)).outcome == .failure(.limiteDoMes(medida: .minutos, disponivel: 30)))
        #expect(cheio.when(mover(reservaA, para: "2027-01", limite: nil)).outcome == .events([remarcado]))
        // December has room again, January counts both; a cancellation gives back from January.
        let state = Carteira.decider.fold([concedidos(pool), gasto(reservaA, 60, "2026-12"), gasto(reservaB, 30, "2027-01"), remarcado])
        #expect(state.restanteNoLimite(.minutos, pessoa: "bia", mes: "2026-12", limite: limite) == 60)
        #expect(state.usoNoMes["bia|2027-01"]?.minutos == 90)
        let devolvidos = try Carteira.decider.decide(.restituir(titular: titular, reserva: reservaA, devolverBP: 10_000, em: t0), state)
        #expect(devolvidos.reduce(state, Carteira.decider.evolve).usoNoMes["bia|2027-01"]?.minutos == 30)
    }
}
