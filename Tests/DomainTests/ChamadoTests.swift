import Domain
import Foundation
import Testing

@Suite("Chamado decider")
struct ChamadoTests {
    typealias Scenario = DomainTests.Scenario<Chamado.Command, Chamado.State, Chamado.Event, Chamado.Failure>

    let agora = Date(timeIntervalSince1970: 1_795_000_000)
    var scenario: Scenario { Scenario(Chamado.decider) }
    var abertura: Chamado.Aberto {
        Chamado.Aberto(
            chamadoId: Chamado.ID(UUID(uuidString: "6f1c2a9e-0000-4000-8000-0000000000c1") ?? UUID()), usuarioId: "ana",
            unidadeId: UUID(uuidString: "00000000-0000-0000-0000-000000000002") ?? UUID(), categoria: .internet, assunto: "Wi-Fi",
            descricao: "caiu", em: agora)
    }
    var aberto: Chamado.Event { .aberto(abertura) }
    var resolvido: Chamado.Event { .resolvido(Chamado.Ocorrencia(abertura, por: "admin-1", daEquipe: true, em: agora)) }
    let mensagemId = UUID(uuidString: "6f1c2a9e-0000-4000-8000-0000000000d1") ?? UUID()
    func mensagem(_ por: String, daEquipe: Bool, id: UUID? = nil) -> Chamado.Event {
        .respondido(Chamado.Respondido(abertura, mensagemId: id ?? mensagemId, texto: "t", por: por, daEquipe: daEquipe, em: agora))
    }
    func responder(_ por: String, daEquipe: Bool) -> Chamado.Command {
        .responder(mensagemId: mensagemId, texto: "t", por: por, daEquipe: daEquipe, em: agora)
    }

    @Test func opened_once_and_answered_by_either_side() {
        #expect(scenario.when(.abrir(abertura)).outcome == .events([aberto]))
        #expect(scenario.given(aberto).when(.abrir(abertura)).outcome == .failure(.jaAberto))
        #expect(scenario.when(.resolver(por: "ana", daEquipe: false, em: agora)).outcome == .failure(.inexistente))
        #expect(
            scenario.given(aberto).when(responder("admin-1", daEquipe: true)).outcome
                == .events([mensagem("admin-1", daEquipe: true)]))
        #expect(
            scenario.given(aberto).when(responder("ana", daEquipe: false)).outcome
                == .events([mensagem("ana", daEquipe: false)]))
    }

    @Test func the_team_cannot_write_in_a_resolved_request_the_author_reopens_it_and_resolving_twice_is_once() {
        #expect(scenario.given(aberto).when(.resolver(por: "admin-1", daEquipe: true, em: agora)).outcome == .events([resolvido]))
        #expect(scenario.given(aberto, resolvido).when(.resolver(por: "ana", daEquipe: false, em: agora)).outcome == .events([]))
        #expect(
            scenario.given(aberto, resolvido).when(responder("admin-1", daEquipe: true)).outcome
                == .failure(.resolvido))
        let reaberto = Chamado.Event.reaberto(Chamado.Ocorrencia(abertura, por: "ana", daEquipe: false, em: agora))
        #expect(
            scenario.given(aberto, resolvido).when(responder("ana", daEquipe: false)).outcome
                == .events([reaberto, mensagem("ana", daEquipe: false)]))
        let estado = [aberto, resolvido, reaberto].reduce(Chamado.decider.initialState, Chamado.decider.evolve)
        #expect(estado.dados?.situacao == .aberto && estado.dados?.resolvidoEm == nil)
    }

    @Test func a_message_written_again_under_its_id_is_written_once_even_after_the_request_was_resolved() {
        #expect(scenario.given(aberto, mensagem("ana", daEquipe: false)).when(responder("ana", daEquipe: false)).outcome == .events([]))
        #expect(
            scenario.given(aberto, mensagem("admin-1", daEquipe: true), resolvido).when(responder("admin-1", daEquipe: true)).outcome
                == .events([]))
    }

    @Test func a_request_holds_at_most_mensagensMaximas_messages() {
        let cheio = [aberto] + (0..<Chamado.mensagensMaximas).map { _ in mensagem("ana", daEquipe: false, id: UUID()) }
        #expect(
            scenario.given(cheio).when(responder("admin-1", daEquipe: true)).outcome == .failure(.mensagensDemais)
        )
    }
}
