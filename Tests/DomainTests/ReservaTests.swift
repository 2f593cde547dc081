import Domain
import Foundation
import Testing

private func instant(_ text: String) -> Date { try! Date(text, strategy: .iso8601) }
private func range(_ start: String, _ end: String) -> TimeRange { try! TimeRange(start: instant(start), end: instant(end)) }

@Suite("Reserva decider")
struct ReservaTests {
    let id = Reserva.ID(UUID())
    let now = instant("2026-11-23T08:00:00-03:00")
    let politica = Unidade.PoliticaDeCancelamento(horasSemMulta: 24, multaBP: 5_000)
    var scenario: Scenario<Reserva.Command, Reserva.State, Reserva.Event, Reserva.Failure> { Scenario(Reserva.decider) }

    var condicoes: Reserva.Condicoes {
        Reserva.Condicoes(
            ativo: true, aberto: true, duracaoMinimaMinutos: 30, duracaoMaximaMinutos: 480,
            antecedenciaMinimaMinutos: 15, antecedenciaMaximaDias: 90)
    }

    func pedido(_ intervalo: TimeRange = range("2026-11-25T10:00:00-03:00", "2026-11-25T12:00:00-03:00")) -> Reserva.Pedido {
        Reserva.Pedido(
            id: id, espacoId: UUID(uuidString: "00000000-0000-0000-0000-000000000001")!,
            unidadeId: UUID(uuidString: "00000000-0000-0000-0000-000000000002")!, usuarioId: "u1", intervalo: intervalo,
            dias: [DataLocal("2026-11-25")!], total: .reais(100),
            linhas: [Reserva.LinhaDePreco(codigo: "base:2026-11-25", descricao: "2 h × R$ 50,00", valor: .reais(100))],
            cupom: nil, expiraEm: now.addingTimeInterval(900))
    }

    var solicitada: Reserva.Event { .solicitada(Reserva.Solicitada(pedido(), em: now)) }
    func confirmada(_ at: Date) -> Reserva.Event { .confirmada(Reserva.Confirmada(reservaId: id, pagamentoId: "p1", em: at)) }

    func refusal(_ change: (inout Reserva.Condicoes) -> Void, _ intervalo: TimeRange? = nil) -> Reserva.Scenario.Outcome {
        var rules = condicoes
        change(&rules)
        return scenario.when(.solicitar(intervalo.map { pedido($0) } ?? pedido(), condicoes: rules, em: now)).outcome
    }

    @Test func a_valid_request_is_recorded_with_its_accepted_price() {
        #expect(scenario.when(.solicitar(pedido(), condicoes: condicoes, em: now)).outcome == .events([solicitada]))
    }

    @Test func the_same_booking_cannot_be_requested_twice() {
        #expect(scenario.given(solicitada).when(.solicitar(pedido(), condicoes: condicoes, em: now)).outcome == .failure(.jaExiste))
    }

    @Test func requests_breaking_a_rule_are_refused_with_the_rule() {
        #expect(refusal { $0.ativo = false } == .failure(.espacoInativo))
        #expect(refusal { $0.aberto = false } == .failure(.fechado))
        #expect(refusal({ _ in }, range("2026-11-23T07:00:00-03:00", "2026-11-23T09:00:00-03:00")) == .failure(.noPassado))
        #expect(refusal({ _ in }, range("2026-11-23T08:10:00-03:00", "2026-11-23T09:00:00-03:00")) == .failure(.antecedenciaMinima(minutos: 15)))
        #expect(refusal({ _ in }, range("2027-03-01T10:00:00-03:00", "2027-03-01T11:00:00-03:00")) == .failure(.antecedenciaMaxima(dias: 90)))
        #expect(refusal({ _ in }, range("2026-11-25T10:00:00-03:00", "2026-11-25T10:20:00-03:00")) == .failure(.duracaoCurta(minimoMinutos: 30)))
        #expect(refusal({ _ in }, range("2026-11-25T08:00:00-03:00", "2026-11-25T17:00:00-03:00")) == .failure(.duracaoLonga(maximoMinutos: 480)))
    }

    @Test func exactly_the_minimum_duration_and_lead_time_are_allowed() {
        let edge = range("2026-11-23T08:15:00-03:00", "2026-11-23T08:45:00-03:00")
        #expect(refusal({ _ in }, edge) == .events([.solicitada(Reserva.Solicitada(pedido(edge), em: now))]))
    }

    @Test func payment_confirms_a_held_booking_once() {
        let at = now.addingTimeInterval(60)
        #expect(scenario.given(solicitada).when(.confirmar(pagamentoId: "p1", em: at)).outcome == .events([confirmada(at)]))
        #expect(scenario.given(solicitada, confirmada(at)).when(.confirmar(pagamentoId: "p1", em: at)).outcome == .events([]))
        #expect(
            scenario.given(solicitada, confirmada(at)).when(.confirmar(pagamentoId: "p2", em: at)).outcome
                == .failure(.transicaoInvalida(status: .confirmada)))
    }

    @Test func an_expired_booking_cannot_be_confirmed() {
        let expired = Reserva.Event.expirada(Reserva.Expirada(reservaId: id, em: now.addingTimeInterval(900)))
        #expect(
            scenario.given(solicitada, expired).when(.confirmar(pagamentoId: "p1", em: now.addingTimeInterval(901))).outcome
                == .failure(.transicaoInvalida(status: .expirada)))
    }

    @Test func a_hold_expires_only_once_its_time_is_up_and_only_while_unpaid() {
        let early = now.addingTimeInterval(899)
        let due = now.addingTimeInterval(900)
        #expect(scenario.given(solicitada).when(.expirar(em: early)).outcome == .failure(.aindaNaoExpirou(expiraEm: due)))
        #expect(
            scenario.given(solicitada).when(.expirar(em: due)).outcome
                == .events([.expirada(Reserva.Expirada(reservaId: id, em: due))]))
        #expect(
            scenario.given(solicitada, confirmada(early)).when(.expirar(em: due)).outcome
                == .failure(.transicaoInvalida(status: .confirmada)))
    }

    @Test func cancelling_an_unpaid_hold_costs_and_refunds_nothing() {
        #expect(
            scenario.given(solicitada).when(.cancelar(por: "u1", motivo: nil, politica: politica, pago: .zero, em: now)).outcome
                == .events([
                    .cancelada(Reserva.Cancelada(reservaId: id, por: "u1", motivo: nil, pago: .zero, multa: .zero, reembolso: .zero, em: now))
                ]))
    }

    @Test func a_paid_booking_is_refunded_in_full_until_the_free_window_closes() {
        let exactlyOnTime = instant("2026-11-24T10:00:00-03:00")  // 24 h before 10:00 on the 25th
        #expect(
            scenario.given(solicitada, confirmada(now)).when(
                .cancelar(por: "u1", motivo: "mudança", politica: politica, pago: .reais(100), em: exactlyOnTime)
            ).outcome
                == .events([
                    .cancelada(
                        Reserva.Cancelada(
                            reservaId: id, por: "u1", motivo: "mudança", pago: .reais(100), multa: .zero, reembolso: .reais(100), em: exactlyOnTime))
                ]))
    }

    @Test func a_confirmed_booking_whose_payment_holds_nothing_refunds_nothing() {
        // An admin confirmed it without a payment: the policy applies to what was paid, nothing.
        let late = instant("2026-11-24T10:00:01-03:00")
        for em in [now, late] {
            #expect(
                scenario.given(solicitada, confirmada(now)).when(.cancelar(por: "u1", motivo: nil, politica: politica, pago: .zero, em: em)).outcome
                    == .events([
                        .cancelada(Reserva.Cancelada(reservaId: id, por: "u1", motivo: nil, pago: .zero, multa: .zero, reembolso: .zero, em: em))
                    ]))
        }
    }

    @Test func a_late_cancellation_keeps_the_fee() {
        let late = instant("2026-11-24T10:00:01-03:00")
        #expect(
            scenario.given(solicitada, confirmada(now)).when(.cancelar(por: "u1", motivo: nil, politica: politica, pago: .reais(100), em: late))
                .outcome
                == .events([
                    .cancelada(
                        Reserva.Cancelada(
                            reservaId: id, por: "u1", motivo: nil, pago: .reais(100), multa: .reais(50), reembolso: .reais(50), em: late))
                ]))
        // Exempt (the operator cancels): everything back, whatever the terms.
        #expect(
            scenario.given(solicitada, confirmada(now)).when(
                .cancelar(por: "admin", motivo: nil, politica: politica, pago: .reais(100), isento: true, em: late)
            ).outcome
                == .events([
                    .cancelada(
                        Reserva.Cancelada(reservaId: id, por: "admin", motivo: nil, pago: .reais(100), multa: .zero, reembolso: .reais(100), em: late)
                    )
                ]))
    }

    @Test func a_booking_keeps_the_cancellation_terms_it_was_made_under() {
        let p = pedido()
        let comTermos = Reserva.Pedido(
            id: p.id, espacoId: p.espacoId, unidadeId: p.unidadeId, usuarioId: p.usuarioId, intervalo: p.intervalo, dias: p.dias,
            total: p.total, linhas: p.linhas, cupom: nil, expiraEm: p.expiraEm,
            politica: Unidade.PoliticaDeCancelamento(horasSemMulta: 12, multaBP: 1_000))
        let late = instant("2026-11-25T09:00:00-03:00")
        // The unit now keeps everything inside 48 h; the booking was made under 10 % inside 12 h.
        let harder = Unidade.PoliticaDeCancelamento(horasSemMulta: 48, multaBP: 10_000)
        #expect(
            scenario.given(.solicitada(Reserva.Solicitada(comTermos, em: now)), confirmada(now))
                .when(.cancelar(por: "u1", motivo: nil, politica: harder, pago: .reais(100), em: late)).outcome
                == .events([
                    .cancelada(
                        Reserva.Cancelada(
                            reservaId: id, por: "u1", motivo: nil, pago: .reais(100), multa: .reais(10), reembolso: .reais(90), em: late))
                ]))
        // A booking from before the terms were recorded follows the unit's policy of the moment.
        #expect(
            scenario.given(solicitada, confirmada(now)).when(.cancelar(por: "u1", motivo: nil, politica: harder, pago: .reais(100), em: late)).outcome
                == .events([
                    .cancelada(
                        Reserva.Cancelada(reservaId: id, por: "u1", motivo: nil, pago: .reais(100), multa: .reais(100), reembolso: .zero, em: late))
                ]))
    }

    @Test func a_started_or_finished_booking_cannot_be_cancelled() {
        let started = instant("2026-11-25T10:30:00-03:00")
        #expect(
            scenario.given(solicitada, confirmada(now)).when(.cancelar(por: "u1", motivo: nil, politica: politica, pago: .reais(100), em: started))
                .outcome
                == .failure(.jaIniciada))
        let cancelled = Reserva.Event.cancelada(
            Reserva.Cancelada(reservaId: id, por: "u1", motivo: nil, pago: .zero, multa: .zero, reembolso: .zero, em: now))
        #expect(
            scenario.given(solicitada, cancelled).when(.cancelar(por: "u1", motivo: nil, politica: politica, pago: .zero, em: now)).outcome
                == .failure(.transicaoInvalida(status: .cancelada)))
    }

    @Test func a_confirmed_booking_concludes_after_its_end() {
        let end = instant("2026-11-25T12:00:00-03:00")
        #expect(
            scenario.given(solicitada, confirmada(now)).when(.concluir(em: end.addingTimeInterval(-1))).outcome
                == .failure(.aindaNaoTerminou(fim: end)))
        #expect(
            scenario.given(solicitada, confirmada(now)).when(.concluir(em: end)).outcome
                == .events([.concluida(Reserva.Concluida(reservaId: id, em: end))]))
        #expect(scenario.given(solicitada).when(.concluir(em: end)).outcome == .failure(.transicaoInvalida(status: .solicitada)))
    }

    @Test func commands_on_a_missing_booking_say_so() {
        #expect(scenario.when(.confirmar(pagamentoId: nil, em: now)).outcome == .failure(.naoEncontrada))
        #expect(scenario.when(.expirar(em: now)).outcome == .failure(.naoEncontrada))
    }

    @Test func every_event_round_trips_through_its_stored_form() throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let events: [Reserva.Event] = [
            solicitada, confirmada(now),
            .cancelada(Reserva.Cancelada(reservaId: id, por: "u1", motivo: "x", pago: .reais(1), multa: .zero, reembolso: .reais(1), em: now)),
            .expirada(Reserva.Expirada(reservaId: id, em: now)), .concluida(Reserva.Concluida(reservaId: id, em: now)),
        ]
        for event in events {
            #expect(try Reserva.Event.decode(type: event.eventType, data: encoder.encode(event), using: decoder) == event)
        }
    }
}

@Suite("Agenda decider")
struct AgendaTests {
    let espaco = UUID()
    let dia = DataLocal("2026-11-25")!
    let now = instant("2026-11-23T08:00:00-03:00")
    var decider: Decider<Agenda.Command, Agenda.State, Agenda.Event, Agenda.Failure> { Agenda.decider(espacoId: espaco, data: dia) }

    func ocupada(_ reserva: UUID, _ start: String, _ end: String) -> Agenda.Event {
        .ocupada(Agenda.Ocupada(reservaId: reserva, espacoId: espaco, data: dia, intervalo: range(start, end), em: now))
    }

    @Test func a_free_slot_is_taken_and_an_overlapping_one_is_refused() {
        let first = UUID(), second = UUID()
        let taken = ocupada(first, "2026-11-25T10:00:00-03:00", "2026-11-25T12:00:00-03:00")
        #expect(
            Scenario(decider).when(
                .ocupar(reserva: first, intervalo: range("2026-11-25T10:00:00-03:00", "2026-11-25T12:00:00-03:00"), limite: 1, em: now)
            ).outcome
                == .events([taken]))
        #expect(
            Scenario(decider).given(taken).when(
                .ocupar(reserva: second, intervalo: range("2026-11-25T11:59:00-03:00", "2026-11-25T13:00:00-03:00"), limite: 1, em: now)
            ).outcome
                == .failure(.indisponivel(conflitos: [first])))
    }

    @Test func a_block_is_refused_by_a_booking_that_still_occupies_its_time_not_by_one_that_ended() {
        let manha = UUID(), tarde = UUID(), bloqueio = UUID()
        let dia = range("2026-11-25T00:00:00-03:00", "2026-11-26T00:00:00-03:00")
        let feitas = [
            ocupada(manha, "2026-11-25T09:00:00-03:00", "2026-11-25T11:00:00-03:00"),
            ocupada(tarde, "2026-11-25T13:00:00-03:00", "2026-11-25T15:00:00-03:00"),
        ]
        // At 14:00 the morning's booking is over; the afternoon's is under way.
        #expect(
            Scenario(decider).given(feitas[0], feitas[1]).when(
                .bloquear(bloqueio: bloqueio, intervalo: dia, em: instant("2026-11-25T14:00:00-03:00"))
            ).outcome
                == .failure(.indisponivel(conflitos: [tarde])))
        let depois = instant("2026-11-25T15:00:00-03:00")
        #expect(
            Scenario(decider).given(feitas[0], feitas[1]).when(.bloquear(bloqueio: bloqueio, intervalo: dia, em: depois)).outcome
                == .events([.bloqueada(Agenda.Bloqueada(bloqueioId: bloqueio, espacoId: espaco, data: self.dia, intervalo: dia, em: depois))]))
    }

    @Test func back_to_back_bookings_fit() {
        let taken = ocupada(UUID(), "2026-11-25T10:00:00-03:00", "2026-11-25T12:00:00-03:00")
        let next = UUID()
        #expect(
            Scenario(decider).given(taken).when(
                .ocupar(reserva: next, intervalo: range("2026-11-25T12:00:00-03:00", "2026-11-25T13:00:00-03:00"), limite: 1, em: now)
            ).outcome
                == .events([ocupada(next, "2026-11-25T12:00:00-03:00", "2026-11-25T13:00:00-03:00")]))
    }

    @Test func a_shared_space_takes_bookings_up_to_its_capacity_at_any_instant() {
        // A staircase never has more than two at once, so a third seat is free all morning.
        let stairs = [
            ocupada(UUID(), "2026-11-25T09:00:00-03:00", "2026-11-25T10:00:00-03:00"),
            ocupada(UUID(), "2026-11-25T09:30:00-03:00", "2026-11-25T10:30:00-03:00"),
            ocupada(UUID(), "2026-11-25T10:00:00-03:00", "2026-11-25T11:00:00-03:00"),
        ]
        let mine = UUID()
        let morning = range("2026-11-25T09:00:00-03:00", "2026-11-25T11:00:00-03:00")
        #expect(
            Scenario(decider).given(stairs[0], stairs[1], stairs[2]).when(.ocupar(reserva: mine, intervalo: morning, limite: 3, em: now)).outcome
                == .events([.ocupada(Agenda.Ocupada(reservaId: mine, espacoId: espaco, data: dia, intervalo: morning, em: now))]))
        if case .failure(.indisponivel) = Scenario(decider).given(stairs[0], stairs[1], stairs[2])
            .when(.ocupar(reserva: mine, intervalo: morning, limite: 2, em: now)).outcome
        {
        } else {
            Issue.record("two seats are full between 09:30 and 10:30")
        }
    }

    @Test func releasing_frees_the_slot_and_twice_is_harmless() {
        let first = UUID()
        let taken = ocupada(first, "2026-11-25T10:00:00-03:00", "2026-11-25T12:00:00-03:00")
        let released = Agenda.Event.liberada(Agenda.Liberada(reservaId: first, espacoId: espaco, data: dia, em: now))
        #expect(Scenario(decider).given(taken).when(.liberar(reserva: first, em: now)).outcome == .events([released]))
        #expect(Scenario(decider).given(taken, released).when(.liberar(reserva: first, em: now)).outcome == .events([]))
        let other = UUID()
        #expect(
            Scenario(decider).given(taken, released).when(
                .ocupar(reserva: other, intervalo: range("2026-11-25T10:00:00-03:00", "2026-11-25T12:00:00-03:00"), limite: 1, em: now)
            ).outcome
                == .events([ocupada(other, "2026-11-25T10:00:00-03:00", "2026-11-25T12:00:00-03:00")]))
    }

    @Test func a_capacity_is_set_only_above_what_the_bookings_take_from_now_on_and_then_holds_bookings_to_it() {
        let stairs = [
            ocupada(UUID(), "2026-11-25T09:00:00-03:00", "2026-11-25T10:00:00-03:00"),
            ocupada(UUID(), "2026-11-25T09:30:00-03:00", "2026-11-25T10:30:00-03:00"),
            ocupada(UUID(), "2026-11-25T14:00:00-03:00", "2026-11-25T15:00:00-03:00"),
        ]
        let set = { (capacidade: Int, revisao: Int64) in
            Agenda.Event.capacidadeDefinida(
                Agenda.CapacidadeDefinida(espacoId: self.espaco, data: self.dia, capacidade: capacidade, revisao: revisao, em: self.now))
        }
        let cedo = instant("2026-11-25T08:00:00-03:00"), depois = instant("2026-11-25T10:00:00-03:00")
        // Two at once between 09:30 and 10:00: one seat is too few before then, enough after.
        #expect(
            Scenario(decider).given(stairs[0], stairs[1], stairs[2]).when(
                .definirCapacidade(capacidade: 1, anterior: 3, revisao: 7, desde: cedo, em: now)
            ).outcome
                == .failure(.capacidadeExcedida(pico: 2)))
        #expect(
            Scenario(decider).given(stairs[0], stairs[1], stairs[2]).when(
                .definirCapacidade(capacidade: 1, anterior: 3, revisao: 7, desde: depois, em: now)
            ).outcome
                == .events([set(1, 7)]))
        #expect(
            Scenario(decider).given(stairs[0], set(2, 7)).when(.definirCapacidade(capacidade: 2, anterior: 3, revisao: 7, desde: cedo, em: now))
                .outcome == .events([]))
        // A raise is never refused, even on a day already over the old capacity.
        #expect(
            Scenario(decider).given(stairs[0], stairs[1], stairs[2]).when(
                .definirCapacidade(capacidade: 1, anterior: 0, revisao: 7, desde: cedo, em: now)
            ).outcome
                == .events([set(1, 7)]))
        // A booking that read the space before the change (version 6) is held to the day's capacity...
        let mine = UUID(), afternoon = range("2026-11-25T14:30:00-03:00", "2026-11-25T15:30:00-03:00")
        #expect(
            Scenario(decider).given(stairs[2], set(1, 7)).when(.ocupar(reserva: mine, intervalo: afternoon, limite: 3, revisao: 6, em: now)).outcome
                == .failure(.indisponivel(conflitos: [Self.id(stairs[2])])))
        // ...one that read it since takes the space's capacity, which a later change may have
        // set without reaching this day.
        #expect(
            Scenario(decider).given(stairs[2], set(1, 7)).when(.ocupar(reserva: mine, intervalo: afternoon, limite: 3, revisao: 9, em: now)).outcome
                == .events([.ocupada(Agenda.Ocupada(reservaId: mine, espacoId: espaco, data: dia, intervalo: afternoon, em: now))]))
        #expect(
            Scenario(decider).given(stairs[2], set(1, 7), set(2, 8)).when(
                .ocupar(reserva: mine, intervalo: afternoon, limite: 1, revisao: 6, em: now)
            ).outcome
                == .events([.ocupada(Agenda.Ocupada(reservaId: mine, espacoId: espaco, data: dia, intervalo: afternoon, em: now))]))
    }

    static func id(_ event: Agenda.Event) -> UUID {
        if case .ocupada(let e) = event { return e.reservaId }
        return UUID()
    }

    @Test func taking_the_same_booking_again_is_idempotent() {
        let first = UUID()
        let taken = ocupada(first, "2026-11-25T10:00:00-03:00", "2026-11-25T12:00:00-03:00")
        #expect(
            Scenario(decider).given(taken).when(
                .ocupar(reserva: first, intervalo: range("2026-11-25T10:00:00-03:00", "2026-11-25T12:00:00-03:00"), limite: 1, em: now)
            ).outcome
                == .events([]))
    }

    @Test func a_block_shortened_to_end_in_the_day_keeps_what_comes_before_the_end() throws {
        let bloqueio = UUID()
        let inteiro = range("2026-11-20T00:00:00-03:00", "2026-12-20T00:00:00-03:00")
        let bloqueada = Agenda.Event.bloqueada(Agenda.Bloqueada(bloqueioId: bloqueio, espacoId: espaco, data: dia, intervalo: inteiro, em: now))
        let fim = instant("2026-11-25T12:00:00-03:00")
        let restante = range("2026-11-20T00:00:00-03:00", "2026-11-25T12:00:00-03:00")
        #expect(
            Scenario(decider).given(bloqueada).when(.encurtar(bloqueio: bloqueio, fim: fim, em: now)).outcome
                == .events([
                    .desbloqueada(Agenda.Desbloqueada(bloqueioId: bloqueio, espacoId: espaco, data: dia, em: now)),
                    .bloqueada(Agenda.Bloqueada(bloqueioId: bloqueio, espacoId: espaco, data: dia, intervalo: restante, em: now)),
                ]))
        // The afternoon is free again; the morning is not.
        let depois = decider.fold([bloqueada] + (try decider.decide(.encurtar(bloqueio: bloqueio, fim: fim, em: now), decider.fold([bloqueada]))))
        #expect(
            (try? decider.decide(
                .ocupar(reserva: UUID(), intervalo: range("2026-11-25T14:00:00-03:00", "2026-11-25T15:00:00-03:00"), limite: 1, em: now), depois))?
                .count == 1)
        #expect(
            (try? decider.decide(
                .ocupar(reserva: UUID(), intervalo: range("2026-11-25T10:00:00-03:00", "2026-11-25T11:00:00-03:00"), limite: 1, em: now), depois))
                == nil)
        // Sent again, or to a day without the block, or with an end not before the current one: nothing.
        #expect(Scenario(decider).given(bloqueada).when(.encurtar(bloqueio: bloqueio, fim: inteiro.end, em: now)).outcome == .events([]))
        #expect(Scenario(decider).when(.encurtar(bloqueio: bloqueio, fim: fim, em: now)).outcome == .events([]))
    }
}

extension Reserva {
    typealias Scenario = DomainTests.Scenario<Reserva.Command, Reserva.State, Reserva.Event, Reserva.Failure>
}
