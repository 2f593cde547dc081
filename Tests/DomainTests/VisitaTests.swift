import Domain
import Foundation
import Testing

private func instant(_ text: String) -> Date { try! Date(text, strategy: .iso8601) }

@Suite("Visita decider")
struct VisitaTests {
    typealias Scenario = DomainTests.Scenario<Visita.Command, Visita.State, Visita.Event, Visita.Failure>

    let id = Visita.ID(UUID(uuidString: "6f1c2a9e-0000-4000-8000-0000000000a1")!)
    let agora = instant("2026-11-23T08:00:00-03:00")
    let chegada = instant("2026-11-23T14:00:00-03:00")
    var scenario: Scenario { Scenario(Visita.decider) }

    func registro(chegada: Date? = nil) -> Visita.Registro {
        Visita.Registro(
            visitaId: id, usuarioId: "u1", unidadeId: UUID(uuidString: "00000000-0000-0000-0000-000000000002")!,
            chegadaPrevista: chegada ?? self.chegada, dia: "2026-11-23", nome: "pii:v1:x:nome", email: nil)
    }

    var registrada: Visita.Event { .registrada(Visita.Registrada(registro(), por: "u1", em: agora)) }
    func ocorrencia(_ por: String, _ em: Date) -> Visita.Ocorrencia { Visita.Ocorrencia(registro(), por: por, em: em) }

    @Test func a_host_registers_a_visitor_from_an_hour_ago_up_to_180_days_ahead() {
        #expect(scenario.when(.registrar(registro(), por: "u1", em: agora)).outcome == .events([registrada]))
        let atrasada = registro(chegada: agora.addingTimeInterval(-3_601))
        #expect(scenario.when(.registrar(atrasada, por: "u1", em: agora)).outcome == .failure(.noPassado))
        let recente = registro(chegada: agora.addingTimeInterval(-3_600))
        #expect(
            scenario.when(.registrar(recente, por: "u1", em: agora)).outcome
                == .events([.registrada(Visita.Registrada(recente, por: "u1", em: agora))]))
        let longe = registro(chegada: agora.addingTimeInterval(Visita.antecedenciaMaxima + 1))
        #expect(scenario.when(.registrar(longe, por: "u1", em: agora)).outcome == .failure(.longeDemais))
        #expect(scenario.given(registrada).when(.registrar(registro(), por: "u1", em: agora)).outcome == .failure(.jaRegistrada))
        // The front desk registers a visitor who came unannounced: the event says who did.
        #expect(
            scenario.when(.registrar(registro(), por: "admin-1", em: agora)).outcome
                == .events([.registrada(Visita.Registrada(registro(), por: "admin-1", em: agora))]))
    }

    @Test func the_front_desk_records_the_arrival_from_12_hours_before_the_expected_time_then_the_departure() {
        let cedo = chegada.addingTimeInterval(-Visita.chegadaAntecipada - 1)
        #expect(
            scenario.given(registrada).when(.registrarChegada(por: "admin", em: cedo)).outcome
                == .failure(.cedoDemais(aPartirDe: chegada.addingTimeInterval(-Visita.chegadaAntecipada))))
        let chegou = Visita.Event.chegou(ocorrencia("admin", chegada))
        #expect(scenario.given(registrada).when(.registrarChegada(por: "admin", em: chegada)).outcome == .events([chegou]))
        #expect(scenario.given(registrada, chegou).when(.registrarChegada(por: "admin", em: chegada)).outcome == .failure(.jaChegou))
        #expect(scenario.given(registrada).when(.registrarSaida(por: "admin", em: chegada)).outcome == .failure(.semChegada))
        let saiu = Visita.Event.saiu(ocorrencia("admin", chegada.addingTimeInterval(3_600)))
        #expect(
            scenario.given(registrada, chegou).when(.registrarSaida(por: "admin", em: chegada.addingTimeInterval(3_600))).outcome
                == .events([saiu]))
        #expect(scenario.given(registrada, chegou, saiu).when(.registrarSaida(por: "admin", em: chegada)).outcome == .failure(.jaSaiu))
    }

    @Test func a_visit_is_cancelled_only_before_the_arrival_and_a_cancelled_one_never_arrives() {
        let cancelada = Visita.Event.cancelada(ocorrencia("u1", agora))
        #expect(scenario.given(registrada).when(.cancelar(por: "u1", em: agora)).outcome == .events([cancelada]))
        #expect(scenario.given(registrada, cancelada).when(.cancelar(por: "u1", em: agora)).outcome == .events([]))
        #expect(scenario.given(registrada, cancelada).when(.registrarChegada(por: "admin", em: chegada)).outcome == .failure(.cancelada))
        let chegou = Visita.Event.chegou(ocorrencia("admin", chegada))
        #expect(scenario.given(registrada, chegou).when(.cancelar(por: "u1", em: chegada)).outcome == .failure(.jaChegou))
        #expect(scenario.when(.cancelar(por: "u1", em: agora)).outcome == .failure(.inexistente))
    }

    @Test func the_visitors_data_is_erased_an_hour_after_a_cancellation_or_after_the_retention_and_only_once() {
        let fim = chegada.addingTimeInterval(Visita.retencao)
        #expect(scenario.given(registrada).when(.apagarDados(em: fim.addingTimeInterval(-1))).outcome == .failure(.retencaoNaoVenceu(em: fim)))
        let apagados = Visita.Event.dadosApagados(ocorrencia(Visita.sistema, fim))
        #expect(scenario.given(registrada).when(.apagarDados(em: fim)).outcome == .events([apagados]))
        #expect(scenario.given(registrada, apagados).when(.apagarDados(em: fim)).outcome == .events([]))
        // A cancelled visit's: an hour after the cancellation (the visitor is told first).
        let cancelada = Visita.Event.cancelada(ocorrencia("u1", agora))
        let umaHora = agora.addingTimeInterval(Visita.guardaAposCancelamento)
        #expect(
            scenario.given(registrada, cancelada).when(.apagarDados(em: umaHora.addingTimeInterval(-1))).outcome
                == .failure(.retencaoNaoVenceu(em: umaHora)))
        #expect(
            scenario.given(registrada, cancelada).when(.apagarDados(em: umaHora)).outcome
                == .events([.dadosApagados(ocorrencia(Visita.sistema, umaHora))]))
    }

    @Test func an_operator_erases_the_visitors_data_now_at_their_request_whatever_the_visits_state() {
        let apagados = Visita.Event.dadosApagados(ocorrencia("admin-1", agora))
        #expect(scenario.given(registrada).when(.apagarAgora(por: "admin-1", em: agora)).outcome == .events([apagados]))
        #expect(scenario.given(registrada, apagados).when(.apagarAgora(por: "admin-1", em: agora)).outcome == .events([]))
        // The retention timer finds nothing left to do.
        #expect(scenario.given(registrada, apagados).when(.apagarDados(em: chegada.addingTimeInterval(Visita.retencao))).outcome == .events([]))
    }
}
