import Domain
import Foundation
import Testing

@Suite("BoletosPendentes decider")
struct BoletosPendentesTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    let reservas = (0..<5).map { _ in UUID() }
    var scenario: Scenario<BoletosPendentes.Command, BoletosPendentes.State, BoletosPendentes.Event, BoletosPendentes.Failure> {
        Scenario(BoletosPendentes.decider)
    }
    var tresDias: TimeInterval { 3 * 86_400 }

    func registrado(_ index: Int, em: Date? = nil) -> BoletosPendentes.Event {
        let em = em ?? t0
        return .registrado(BoletosPendentes.Registrado(usuarioId: "ana", reservaId: reservas[index], ate: em.addingTimeInterval(tresDias), em: em))
    }

    func registrar(_ index: Int, encerradas: Set<Int> = [], em: Date? = nil) -> BoletosPendentes.Command {
        let em = em ?? t0
        return .registrar(
            reserva: reservas[index], usuarioId: "ana", ate: em.addingTimeInterval(tresDias),
            encerradas: Set(encerradas.map { reservas[$0] }), em: em)
    }

    @Test func up_to_three_are_recorded() {
        #expect(scenario.given().when(registrar(0)).outcome == .events([registrado(0)]))
        #expect(scenario.given(registrado(0), registrado(1)).when(registrar(2)).outcome == .events([registrado(2)]))
    }

    @Test func a_fourth_unpaid_one_is_refused() {
        #expect(scenario.given(registrado(0), registrado(1), registrado(2)).when(registrar(3)).outcome == .failure(.limite(pendentes: 3)))
    }

    @Test func one_that_no_longer_waits_frees_its_place() {
        // Paid, cancelled or expired: its own stream says so, and the caller passes it on.
        #expect(scenario.given(registrado(0), registrado(1), registrado(2)).when(registrar(3, encerradas: [1])).outcome == .events([registrado(3)]))
    }

    @Test func a_hold_that_ran_out_counts_no_more() {
        let depois = t0.addingTimeInterval(tresDias)
        #expect(
            scenario.given(registrado(0), registrado(1), registrado(2)).when(registrar(3, em: depois)).outcome
                == .events([registrado(3, em: depois)]))
        // And it is forgotten once a later booking is recorded.
        let state = BoletosPendentes.decider.fold([registrado(0), registrado(1), registrado(3, em: depois)])
        #expect(state.reservas.keys.sorted { $0.uuidString < $1.uuidString } == [reservas[3]])
    }

    @Test func recording_the_same_booking_again_changes_nothing() {
        #expect(scenario.given(registrado(0), registrado(1), registrado(2)).when(registrar(2)).outcome == .events([]))
    }

    @Test func only_holds_still_running_are_read() {
        let state = BoletosPendentes.decider.fold([registrado(0), registrado(1, em: t0.addingTimeInterval(3_600))])
        #expect(Set(state.emAberto(em: t0)) == [reservas[0], reservas[1]])
        #expect(state.emAberto(em: t0.addingTimeInterval(tresDias)) == [reservas[1]])
    }
}
