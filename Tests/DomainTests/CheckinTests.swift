import Domain
import Foundation
import Testing

private func instant(_ text: String) -> Date { try! Date(text, strategy: .iso8601) }

@Suite("Checkin decider")
struct CheckinTests {
    typealias Scenario = DomainTests.Scenario<Checkin.Command, Checkin.State, Checkin.Event, Checkin.Failure>

    let id = Reserva.ID(UUID(uuidString: "6f1c2a9e-0000-4000-8000-000000000001")!)
    let confirmedAt = instant("2026-11-24T18:00:00-03:00")
    let start = instant("2026-11-25T10:00:00-03:00")
    let codigo = Checkin.Codigo("K7PX3M")!
    var scenario: Scenario { Scenario(Checkin.decider) }

    var reserva: Checkin.Reservada {
        Checkin.Reservada(
            reservaId: id, usuarioId: "u1", espacoId: UUID(uuidString: "00000000-0000-0000-0000-000000000001")!,
            unidadeId: UUID(uuidString: "00000000-0000-0000-0000-000000000002")!,
            intervalo: try! TimeRange(start: start, end: start.addingTimeInterval(2 * 3_600)))
    }

    var abreEm: Date { start.addingTimeInterval(-15 * 60) }
    var fechaEm: Date { start.addingTimeInterval(30 * 60) }

    var liberado: Checkin.Liberado {
        Checkin.Liberado(reserva, codigo: codigo, janela: Checkin.Janela(abreEm: abreEm, fechaEm: fechaEm), em: confirmedAt)
    }

    var issued: Checkin.Event { .liberado(liberado) }
    func ocorrencia(_ por: String, _ at: Date) -> Checkin.Ocorrencia { Checkin.Ocorrencia(liberado, por: por, em: at) }
    func checkedIn(_ at: Date) -> Checkin.Event { .realizado(ocorrencia("u1", at)) }
    func checkedOut(_ at: Date) -> Checkin.Event { .checkoutRealizado(ocorrencia("u1", at)) }
    var revoked: Checkin.Event { .revogado(ocorrencia("u1", confirmedAt.addingTimeInterval(60))) }
    var noShow: Checkin.Event { .noShowRegistrado(ocorrencia(Checkin.sistema, fechaEm)) }

    // MARK: Issuing the code

    @Test func a_confirmed_booking_gets_its_code_and_a_window_from_15_minutes_before_to_30_after_the_start() {
        #expect(scenario.when(.liberar(reserva, codigo: codigo, tolerancia: .padrao, em: confirmedAt)).outcome == .events([issued]))
    }

    @Test func the_window_follows_the_units_tolerance() {
        let tolerancia = Checkin.Tolerancia(antesMinutos: 5, depoisMinutos: 10)
        let expected = Checkin.Janela(abreEm: start.addingTimeInterval(-5 * 60), fechaEm: start.addingTimeInterval(10 * 60))
        #expect(tolerancia.janela(para: reserva.intervalo) == expected)
    }

    @Test func the_window_never_closes_after_the_booking_ends() throws {
        let short = try TimeRange(start: start, end: start.addingTimeInterval(20 * 60))
        #expect(Checkin.Tolerancia.padrao.janela(para: short).fechaEm == short.end)
    }

    @Test func a_code_issued_after_its_window_closed_stays_open_30_minutes_from_its_issue_never_past_the_end() {
        // The confirmation reached check-in at 10:45 (the bus lagged): 10:45–11:15, not a
        // window that closed at 10:30 and a no-show a second later.
        let tarde = start.addingTimeInterval(45 * 60)
        let janela = Checkin.Janela(abreEm: abreEm, fechaEm: tarde.addingTimeInterval(30 * 60))
        let liberado = Checkin.Liberado(reserva, codigo: codigo, janela: janela, em: tarde)
        #expect(scenario.when(.liberar(reserva, codigo: codigo, tolerancia: .padrao, em: tarde)).outcome == .events([.liberado(liberado)]))
        #expect(
            scenario.given(.liberado(liberado)).when(.registrarNoShow(em: fechaEm.addingTimeInterval(1))).outcome
                == .failure(.prazoNaoVenceu(fechaEm: janela.fechaEm)))
        // At 11:50 it closes with the booking, at 12:00.
        let fim = reserva.intervalo.end
        #expect(Checkin.Tolerancia.padrao.janela(para: reserva.intervalo, emitidoEm: fim.addingTimeInterval(-10 * 60)).fechaEm == fim)
        // Issued before the window opened: the unit's window, as always.
        #expect(Checkin.Tolerancia.padrao.janela(para: reserva.intervalo, emitidoEm: confirmedAt) == Checkin.Janela(abreEm: abreEm, fechaEm: fechaEm))
    }

    @Test func a_code_issued_when_its_booking_was_over_never_becomes_a_no_show() {
        let depois = reserva.intervalo.end.addingTimeInterval(60)
        let janela = Checkin.Tolerancia.padrao.janela(para: reserva.intervalo, emitidoEm: depois)
        #expect(janela.fechaEm == reserva.intervalo.end)
        let liberado = Checkin.Liberado(reserva, codigo: codigo, janela: janela, em: depois)
        #expect(scenario.given(.liberado(liberado)).when(.registrarNoShow(em: depois.addingTimeInterval(60))).outcome == .events([]))
    }

    @Test func a_negative_tolerance_counts_as_zero() {
        let janela = Checkin.Tolerancia(antesMinutos: -5, depoisMinutos: -1).janela(para: reserva.intervalo)
        #expect(janela == Checkin.Janela(abreEm: start, fechaEm: start))
    }

    @Test func issuing_again_keeps_the_first_code() {
        let other = Checkin.Codigo("AAAAAA")!
        #expect(scenario.given(issued).when(.liberar(reserva, codigo: other, tolerancia: .padrao, em: confirmedAt)).outcome == .events([]))
    }

    // MARK: Check-in

    @Test func checking_in_exactly_when_the_window_opens_is_allowed() {
        #expect(scenario.given(issued).when(.fazerCheckin(codigo: "K7PX3M", por: "u1", em: abreEm)).outcome == .events([checkedIn(abreEm)]))
    }

    @Test func checking_in_a_second_before_the_window_opens_says_when_it_opens() {
        #expect(
            scenario.given(issued).when(.fazerCheckin(codigo: "K7PX3M", por: "u1", em: abreEm.addingTimeInterval(-1))).outcome
                == .failure(.cedoDemais(abreEm: abreEm)))
    }

    @Test func checking_in_exactly_when_the_window_closes_is_allowed() {
        #expect(scenario.given(issued).when(.fazerCheckin(codigo: "K7PX3M", por: "u1", em: fechaEm)).outcome == .events([checkedIn(fechaEm)]))
    }

    @Test func checking_in_a_second_after_the_window_closes_says_when_it_closed() {
        #expect(
            scenario.given(issued).when(.fazerCheckin(codigo: "K7PX3M", por: "u1", em: fechaEm.addingTimeInterval(1))).outcome
                == .failure(.tardeDemais(fechaEm: fechaEm)))
    }

    @Test func the_code_is_compared_without_regard_to_case_blanks_or_dashes() {
        for typed in ["k7px3m", " K7P-X3M ", "k7p x3m"] {
            #expect(scenario.given(issued).when(.fazerCheckin(codigo: typed, por: "u1", em: start)).outcome == .events([checkedIn(start)]))
        }
    }

    @Test func an_admin_at_the_front_desk_is_recorded_as_who_checked_in() {
        #expect(
            scenario.given(issued).when(.fazerCheckin(codigo: "K7PX3M", por: "admin1", em: start)).outcome
                == .events([.realizado(ocorrencia("admin1", start))]))
    }

    @Test func a_wrong_or_malformed_code_is_refused() {
        for typed in ["K7PX3N", "K7PX3", "K7PX3MM", "", "K7PX3O"] {
            #expect(scenario.given(issued).when(.fazerCheckin(codigo: typed, por: "u1", em: start)).outcome == .failure(.codigoInvalido))
        }
    }

    @Test func a_wrong_code_outside_the_window_learns_nothing_about_the_window() {
        #expect(
            scenario.given(issued).when(.fazerCheckin(codigo: "AAAAAA", por: "u1", em: abreEm.addingTimeInterval(-3_600))).outcome
                == .failure(.codigoInvalido))
    }

    @Test func checking_in_twice_is_refused() {
        #expect(
            scenario.given(issued, checkedIn(start)).when(.fazerCheckin(codigo: "K7PX3M", por: "u1", em: start)).outcome
                == .failure(.jaRealizado))
        #expect(
            scenario.given(issued, checkedIn(start), checkedOut(fechaEm)).when(.fazerCheckin(codigo: "K7PX3M", por: "u1", em: fechaEm)).outcome
                == .failure(.jaRealizado))
    }

    @Test func checking_in_needs_an_issued_code() {
        #expect(scenario.when(.fazerCheckin(codigo: "K7PX3M", por: "u1", em: start)).outcome == .failure(.naoLiberado))
    }

    @Test func a_revoked_code_does_not_check_in() {
        #expect(scenario.given(issued, revoked).when(.fazerCheckin(codigo: "K7PX3M", por: "u1", em: start)).outcome == .failure(.revogado))
    }

    @Test func after_a_no_show_nobody_checks_in() {
        #expect(
            scenario.given(issued, noShow).when(.fazerCheckin(codigo: "K7PX3M", por: "u1", em: fechaEm)).outcome
                == .failure(.noShowRegistrado))
    }

    // MARK: Check-out

    @Test func checking_out_is_allowed_any_time_after_check_in_even_after_the_end() {
        let afterEnd = start.addingTimeInterval(5 * 3_600)
        #expect(scenario.given(issued, checkedIn(start)).when(.fazerCheckout(por: "u1", em: start)).outcome == .events([checkedOut(start)]))
        #expect(scenario.given(issued, checkedIn(start)).when(.fazerCheckout(por: "u1", em: afterEnd)).outcome == .events([checkedOut(afterEnd)]))
    }

    @Test func checking_out_needs_a_check_in_and_happens_once() {
        #expect(scenario.given(issued).when(.fazerCheckout(por: "u1", em: start)).outcome == .failure(.semCheckin))
        #expect(
            scenario.given(issued, checkedIn(start), checkedOut(fechaEm)).when(.fazerCheckout(por: "u1", em: fechaEm)).outcome
                == .failure(.checkoutJaRealizado))
        #expect(scenario.when(.fazerCheckout(por: "u1", em: start)).outcome == .failure(.naoLiberado))
    }

    @Test func a_revoked_or_absent_booking_has_nothing_to_check_out() {
        #expect(scenario.given(issued, revoked).when(.fazerCheckout(por: "u1", em: start)).outcome == .failure(.revogado))
        #expect(scenario.given(issued, noShow).when(.fazerCheckout(por: "u1", em: fechaEm)).outcome == .failure(.noShowRegistrado))
    }

    // MARK: No-show

    @Test func a_no_show_is_registered_exactly_when_the_window_closes_without_a_check_in() {
        #expect(scenario.given(issued).when(.registrarNoShow(em: fechaEm)).outcome == .events([noShow]))
    }

    @Test func a_no_show_is_not_registered_while_the_window_is_open() {
        #expect(
            scenario.given(issued).when(.registrarNoShow(em: fechaEm.addingTimeInterval(-1))).outcome
                == .failure(.prazoNaoVenceu(fechaEm: fechaEm)))
    }

    @Test func the_no_show_carries_the_booking_interval_so_the_rest_of_the_slot_can_be_released() {
        guard case .events(let events) = scenario.given(issued).when(.registrarNoShow(em: fechaEm)).outcome,
            case .noShowRegistrado(let e) = events.first
        else {
            Issue.record("expected a no-show")
            return
        }
        #expect(e.inicio == start && e.fim == start.addingTimeInterval(2 * 3_600) && e.em == fechaEm && e.usuarioId == "u1")
    }

    @Test func registering_a_no_show_twice_is_harmless() {
        #expect(scenario.given(issued, noShow).when(.registrarNoShow(em: fechaEm.addingTimeInterval(60))).outcome == .events([]))
    }

    @Test func a_checked_in_or_revoked_booking_is_no_no_show() {
        #expect(scenario.given(issued, checkedIn(start)).when(.registrarNoShow(em: fechaEm)).outcome == .failure(.jaRealizado))
        #expect(scenario.given(issued, revoked).when(.registrarNoShow(em: fechaEm)).outcome == .failure(.revogado))
        #expect(scenario.when(.registrarNoShow(em: fechaEm)).outcome == .failure(.naoLiberado))
    }

    // MARK: Revocation

    @Test func cancelling_the_booking_before_check_in_revokes_the_code_once() {
        let at = confirmedAt.addingTimeInterval(60)
        #expect(scenario.given(issued).when(.revogar(por: "u1", em: at)).outcome == .events([revoked]))
        #expect(scenario.given(issued, revoked).when(.revogar(por: "u1", em: at)).outcome == .events([]))
    }

    @Test func a_code_already_used_or_lapsed_is_not_revoked() {
        #expect(scenario.given(issued, checkedIn(abreEm)).when(.revogar(por: "u1", em: start)).outcome == .failure(.jaRealizado))
        #expect(scenario.given(issued, noShow).when(.revogar(por: "u1", em: fechaEm)).outcome == .failure(.noShowRegistrado))
        #expect(scenario.when(.revogar(por: "u1", em: start)).outcome == .failure(.naoLiberado))
    }

    @Test func checked_out_absent_and_revoked_are_final() {
        let terminal = { (events: [Checkin.Event]) in Checkin.decider.isTerminal(Checkin.decider.fold(events)) }
        #expect(!terminal([]))
        #expect(!terminal([issued]))
        #expect(!terminal([issued, checkedIn(start)]))
        #expect(terminal([issued, checkedIn(start), checkedOut(fechaEm)]))
        #expect(terminal([issued, noShow]))
        #expect(terminal([issued, revoked]))
    }

    // MARK: Codes and QR payloads

    @Test func codes_use_an_alphabet_without_look_alikes() {
        #expect(Checkin.Codigo.alfabeto.count == 32)
        for ambiguous: Character in ["0", "O", "1", "I"] { #expect(!Checkin.Codigo.alfabeto.contains(ambiguous)) }
        #expect(Checkin.Codigo("ABC10O") == nil)
        #expect(Checkin.Codigo("abc-234")?.texto == "ABC234")
    }

    @Test func a_code_is_made_of_six_indices_into_the_alphabet() {
        #expect(Checkin.Codigo(indices: [0, 1, 2, 29, 30, 31]).texto == "ABC789")
        #expect(Checkin.Codigo(indices: [32, -1, 0, 0, 0, 0]).texto == "A9AAAA")
        #expect(Checkin.Codigo(indices: [1]).texto == "BAAAAA")
    }

    @Test func the_qr_payload_names_the_booking_and_the_code() {
        #expect(liberado.qr == "coworkflow:checkin:6f1c2a9e-0000-4000-8000-000000000001:K7PX3M")
    }

    @Test func a_reader_accepts_a_qr_payload_or_a_bare_code() {
        let qr = Checkin.ler(" coworkflow:checkin:6f1c2a9e-0000-4000-8000-000000000001:K7PX3M ")
        #expect(qr.reservaId == id && qr.codigo == "K7PX3M")
        let upper = Checkin.ler("COWORKFLOW:CHECKIN:6F1C2A9E-0000-4000-8000-000000000001:k7px3m")
        #expect(upper.reservaId == id && upper.codigo == "k7px3m")
        let bare = Checkin.ler(" k7px3m ")
        #expect(bare.reservaId == nil && bare.codigo == "k7px3m")
        let broken = Checkin.ler("coworkflow:checkin:not-a-uuid:K7PX3M")
        #expect(broken.reservaId == nil && Checkin.Codigo(broken.codigo) == nil)
    }

    @Test func every_event_round_trips_through_its_stored_form() throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let events: [Checkin.Event] = [issued, checkedIn(start), checkedOut(fechaEm), noShow, revoked, .remarcado(liberado)]
        #expect(Set(events.map(\.eventType)) == Checkin.Event.tipos)
        for event in events {
            #expect(try Checkin.Event.decode(type: event.eventType, data: encoder.encode(event), using: decoder) == event)
        }
    }
}
