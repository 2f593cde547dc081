import Domain
import Foundation
import TestSupport
import Testing

@Suite("Encontro decider: places, the waiting list, changes and cancellation")
struct EncontroTests {
    let agora = Date(timeIntervalSince1970: 1_795_000_000)
    var inicio: Date { agora.addingTimeInterval(86_400) }
    let id = Encontro.ID(UUID(uuidString: "6f1c2a9e-0000-4000-8000-0000000000e1") ?? UUID())
    let unidade = UUID(uuidString: "00000000-0000-0000-0000-000000000002") ?? UUID()

    func publicado(titulo: String = "Café com a comunidade", vagas: Int = 2, inicio: Date? = nil, horas: Double = 2) -> Encontro.Publicado {
        let comeco = inicio ?? self.inicio
        return Encontro.Publicado(
            encontroId: id, unidadeId: unidade, titulo: titulo, descricao: "  ", local: " Auditório ", inicio: comeco,
            fim: comeco.addingTimeInterval(horas * 3_600), vagas: vagas, por: "admin-1", em: agora)
    }

    /// The state after `commands`, each decided on the state before it; the events of the last.
    func depois(_ commands: [Encontro.Command]) throws -> (Encontro.State, [Encontro.Event]) {
        var state = Encontro.decider.initialState
        var ultimos: [Encontro.Event] = []
        for command in commands {
            ultimos = try Encontro.decider.decide(command, state)
            state = ultimos.reduce(state, Encontro.decider.evolve)
        }
        return (state, ultimos)
    }

    func falha(_ commands: [Encontro.Command]) -> Encontro.Failure? {
        do {
            _ = try depois(commands)
            return nil
        } catch let failure as Encontro.Failure {
            return failure
        } catch {
            return nil
        }
    }

    func inscrever(_ usuario: String, em: Date? = nil) -> Encontro.Command { .inscrever(usuarioId: usuario, em: em ?? agora) }
    func desistir(_ usuario: String, razao: Encontro.Razao = .desistencia, em: Date? = nil) -> Encontro.Command {
        .desistir(usuarioId: usuario, razao: razao, por: usuario, em: em ?? agora)
    }

    @Test func published_trimmed_and_its_terms_checked() throws {
        let (state, events) = try depois([.publicar(publicado(titulo: "  Café  "))])
        #expect(events.map(\.kind) == [Encontro.Catalogo.publicado])
        #expect(state.dados?.titulo == "Café" && state.dados?.descricao == nil && state.dados?.local == "Auditório")
        #expect(falha([.publicar(publicado(titulo: " \n "))]) == .tituloInvalido)
        // The limit counts the text as sent, blanks included.
        #expect(falha([.publicar(publicado(titulo: " " + String(repeating: "a", count: Encontro.tamanhoMaximoDoTitulo)))]) == .tituloInvalido)
        #expect(falha([.publicar(publicado(titulo: "pii:v1:x"))]) == .tituloInvalido)
        #expect(falha([.publicar(publicado(vagas: 0))]) == .vagasInvalidas)
        #expect(falha([.publicar(publicado(vagas: Encontro.vagasMaximas + 1))]) == .vagasInvalidas)
        #expect(falha([.publicar(publicado(horas: 0))]) == .periodoInvalido)
        #expect(falha([.publicar(publicado(horas: 12.5))]) == .periodoInvalido)
        #expect(falha([.publicar(publicado(inicio: agora))]) == .noPassado)
        #expect(falha([.publicar(publicado()), .publicar(publicado())]) == .jaPublicado)
        #expect(falha([inscrever("ana")]) == .inexistente)
    }

    @Test func places_while_there_are_then_the_waiting_list_then_full() throws {
        let (state, events) = try depois([.publicar(publicado()), inscrever("ana"), inscrever("bia"), inscrever("caio")])
        guard events.count == 1, case .inscrito(let inscrito) = events[0] else {
            Issue.record("\(events)")
            return
        }
        #expect(inscrito.usuarioId == "caio" && inscrito.naEspera && inscrito.unidadeId == unidade && inscrito.encontroId == id)
        #expect(state.dados?.confirmados.map(\.usuarioId) == ["ana", "bia"] && state.dados?.espera.map(\.usuarioId) == ["caio"])
        // Signed up already, with a place or waiting: nothing.
        #expect(try depois([.publicar(publicado()), inscrever("ana"), inscrever("ana")]).1.isEmpty)
        #expect(try depois([.publicar(publicado(vagas: 1)), inscrever("ana"), inscrever("bia"), inscrever("bia")]).1.isEmpty)
        // The waiting list holds esperaMaxima people; then the event is full.
        let fila = (0..<Encontro.esperaMaxima).map { inscrever("m\($0)") }
        #expect(falha([.publicar(publicado(vagas: 1)), inscrever("ana")] + fila + [inscrever("outro")]) == .lotado)
        // Sign-ups close at the start.
        #expect(falha([.publicar(publicado()), inscrever("ana", em: inicio)]) == .iniciado)
        // A member signs up three times at most (giving up in between): the stream stays bounded.
        let idaEVolta = Array(repeating: [inscrever("ana"), desistir("ana")], count: Encontro.inscricoesPorMembro).flatMap { $0 }
        #expect(falha([.publicar(publicado())] + idaEVolta + [inscrever("ana")]) == .inscricoesDemais)
        #expect(try depois([.publicar(publicado())] + idaEVolta + [inscrever("bia")]).1.count == 1)
    }

    @Test func a_place_given_up_goes_to_the_first_who_waits_in_the_same_decision() throws {
        let base: [Encontro.Command] = [.publicar(publicado(vagas: 1)), inscrever("ana"), inscrever("bia"), inscrever("caio")]
        let (state, events) = try depois(base + [desistir("ana")])
        #expect(events.map(\.kind) == [Encontro.Catalogo.desistiu, Encontro.Catalogo.vagaConcedida])
        guard case .desistiu(let desistencia) = events.first else {
            Issue.record("\(events)")
            return
        }
        #expect(desistencia.tinhaVaga && desistencia.razao == .desistencia)
        guard case .vagaConcedida(let vaga) = events.last else {
            Issue.record("\(events)")
            return
        }
        #expect(vaga.usuarioId == "bia")
        #expect(state.dados?.confirmados.map(\.usuarioId) == ["bia"] && state.dados?.espera.map(\.usuarioId) == ["caio"])
        // Leaving the waiting list frees no place.
        #expect(try depois(base + [desistir("caio")]).1.map(\.kind) == [Encontro.Catalogo.desistiu])
        #expect(try depois(base + [desistir("ninguem")]).1.isEmpty)
        // After the start a member's own giving up is refused; an erased account keeps the place.
        #expect(falha(base + [desistir("ana", em: inicio)]) == .iniciado)
        #expect(try depois(base + [desistir("ana", razao: .contaApagada, em: inicio)]).1.isEmpty)
    }

    @Test func more_places_go_to_those_who_wait_in_order_and_never_fewer_than_those_who_have_one() throws {
        let base: [Encontro.Command] = [.publicar(publicado(vagas: 1)), inscrever("ana"), inscrever("bia"), inscrever("caio"), inscrever("duda")]
        let mudar: (Int) -> Encontro.Command = { .alterar(titulo: "Café", descricao: nil, local: nil, vagas: $0, por: "admin-1", em: self.agora) }
        let (state, events) = try depois(base + [mudar(3)])
        #expect(events.map(\.kind) == [Encontro.Catalogo.alterado, Encontro.Catalogo.vagaConcedida, Encontro.Catalogo.vagaConcedida])
        #expect(state.dados?.confirmados.map(\.usuarioId) == ["ana", "bia", "caio"] && state.dados?.espera.map(\.usuarioId) == ["duda"])
        #expect(state.dados?.vagas == 3 && state.dados?.titulo == "Café" && state.dados?.local == nil)
        #expect(falha(base + [mudar(3), mudar(2)]) == .vagasAbaixoDosInscritos(confirmados: 3))
        #expect(try depois(base + [mudar(3), mudar(3)]).1.isEmpty)
        #expect(falha(base + [.alterar(titulo: "", descricao: nil, local: nil, vagas: 1, por: "admin-1", em: agora)]) == .tituloInvalido)
        #expect(falha(base + [.alterar(titulo: "Café", descricao: nil, local: nil, vagas: 2, por: "admin-1", em: inicio)]) == .iniciado)
    }

    @Test func a_cancelled_event_ends_everyones_sign_up_each_in_an_event_of_its_own() throws {
        let base: [Encontro.Command] = [.publicar(publicado(vagas: 1)), inscrever("ana"), inscrever("bia")]
        let cancelar = Encontro.Command.cancelar(motivo: " chuva ", por: "admin-1", em: agora)
        let (state, events) = try depois(base + [cancelar])
        guard case .cancelado(let cancelado) = events.first else {
            Issue.record("\(events)")
            return
        }
        #expect(cancelado.motivo == "chuva" && cancelado.por == "admin-1")
        let desistencias = events.compactMap { if case .desistiu(let e) = $0 { e } else { nil } }
        #expect(desistencias.map(\.usuarioId) == ["ana", "bia"] && desistencias.allSatisfy { $0.razao == .encontroCancelado })
        #expect(desistencias.map(\.tinhaVaga) == [true, false])
        #expect(state.dados?.confirmados.isEmpty == true && state.dados?.espera.isEmpty == true && state.dados?.cancelado != nil)
        #expect(try depois(base + [cancelar, cancelar]).1.isEmpty)
        #expect(falha(base + [cancelar, inscrever("caio")]) == .cancelado)
        #expect(try depois(base + [cancelar, desistir("ana")]).1.isEmpty)
        #expect(falha(base + [.cancelar(motivo: nil, por: "admin-1", em: inicio)]) == .iniciado)
    }

    @Test(
        "no sequence of sign-ups, give-ups and changes has more people with a place than places, or anyone waiting beside a free place (a seeded random walk)"
    )
    func never_more_than_the_places() throws {
        var gerador = SplitMix64(seed: 7)
        for _ in 0..<200 {
            var state = try depois([.publicar(publicado(vagas: 3))]).0
            for _ in 0..<40 {
                let pessoa = "m\(gerador.next() % 8)"
                let command: Encontro.Command =
                    switch gerador.next() % 5 {
                    case 0, 1: inscrever(pessoa)
                    case 2, 3: desistir(pessoa)
                    default: .alterar(titulo: "Café", descricao: nil, local: nil, vagas: Int(1 + gerador.next() % 5), por: "admin-1", em: agora)
                    }
                guard let events = try? Encontro.decider.decide(command, state) else { continue }
                state = events.reduce(state, Encontro.decider.evolve)
                let dados = try #require(state.dados)
                #expect(dados.confirmados.count <= dados.vagas)
                #expect(dados.espera.isEmpty || dados.confirmados.count == dados.vagas)
                #expect(Set(dados.confirmados.map(\.usuarioId) + dados.espera.map(\.usuarioId)).count == dados.confirmados.count + dados.espera.count)
            }
        }
    }
}
