import Domain
import Foundation
import Testing

@Suite("Encomenda decider")
struct EncomendaTests {
    typealias Scenario = DomainTests.Scenario<Encomenda.Command, Encomenda.State, Encomenda.Event, Encomenda.Failure>

    let agora = Date(timeIntervalSince1970: 1_795_000_000)
    var scenario: Scenario { Scenario(Encomenda.decider) }
    var registro: Encomenda.Registrada {
        Encomenda.Registrada(
            encomendaId: Encomenda.ID(UUID(uuidString: "6f1c2a9e-0000-4000-8000-0000000000e1") ?? UUID()), usuarioId: "u1",
            unidadeId: UUID(uuidString: "00000000-0000-0000-0000-000000000002") ?? UUID(), tipo: .pacote, remetente: "Amazon",
            observacao: "armário 3", por: "admin-1", em: agora)
    }
    var registrada: Encomenda.Event { .registrada(registro) }

    @Test func registered_once_then_handed_over_once() {
        #expect(scenario.when(.registrar(registro)).outcome == .events([registrada]))
        #expect(scenario.given(registrada).when(.registrar(registro)).outcome == .failure(.jaRegistrada))
        #expect(scenario.when(.entregar(por: "admin-2", em: agora)).outcome == .failure(.inexistente))
        let entregue = Encomenda.Event.retirada(Encomenda.Ocorrencia(registro, por: "admin-2", em: agora.addingTimeInterval(60)))
        #expect(scenario.given(registrada).when(.entregar(por: "admin-2", em: agora.addingTimeInterval(60))).outcome == .events([entregue]))
        #expect(scenario.given(registrada, entregue).when(.entregar(por: "admin-2", em: agora)).outcome == .failure(.jaRetirada))
        #expect(scenario.given(registrada, entregue).when(.cancelar(por: "admin-2", em: agora)).outcome == .failure(.jaRetirada))
    }

    @Test func a_registration_made_by_mistake_is_cancelled_once_and_is_then_never_handed_over() {
        let cancelada = Encomenda.Event.cancelada(Encomenda.Ocorrencia(registro, por: "admin-1", em: agora))
        #expect(scenario.given(registrada).when(.cancelar(por: "admin-1", em: agora)).outcome == .events([cancelada]))
        #expect(scenario.given(registrada, cancelada).when(.cancelar(por: "admin-1", em: agora)).outcome == .events([]))
        #expect(scenario.given(registrada, cancelada).when(.entregar(por: "admin-1", em: agora)).outcome == .failure(.cancelada))
    }
}
