import Domain
import Foundation
import Testing

private func instant(_ text: String) -> Date { try! Date(text, strategy: .iso8601) }

@Suite("Tour decider, the unit's day of tours, and the tour hours")
struct TourTests {
    typealias Scenario = DomainTests.Scenario<Tour.Command, Tour.State, Tour.Event, Tour.Failure>

    let id = Tour.ID(UUID(uuidString: "6f1c2a9e-0000-4000-8000-0000000000b1")!)
    let unidade = UUID(uuidString: "00000000-0000-0000-0000-000000000002")!
    let agora = instant("2026-11-23T08:00:00-03:00")
    let inicio = instant("2026-11-23T10:00:00-03:00")
    var scenario: Scenario { Scenario(Tour.decider) }

    func agendado(inicio: Date? = nil, por: String? = nil, em: Date? = nil) -> Tour.Agendado {
        let inicio = inicio ?? self.inicio
        return Tour.Agendado(
            tourId: id, unidadeId: unidade, dia: "2026-11-23", inicio: inicio, fim: inicio.addingTimeInterval(1_800),
            origem: por == nil ? .site : .equipe,
            interesse: .salaPrivativa, pessoas: 2,
            contato: Tour.Contato(nome: "pii:v1:x:n", email: "pii:v1:x:e", telefone: nil, empresa: nil, mensagem: nil), por: por, em: em ?? agora)
    }

    var feito: Tour.Event { .agendado(agendado()) }

    @Test func the_public_site_books_from_an_hour_ahead_the_team_from_now_up_to_60_days() {
        #expect(scenario.when(.agendar(agendado())).outcome == .events([feito]))
        let proximo = agendado(inicio: agora.addingTimeInterval(3_599))
        #expect(scenario.when(.agendar(proximo)).outcome == .failure(.cedoDemaisParaAgendar))
        #expect(scenario.when(.agendar(agendado(inicio: agora.addingTimeInterval(3_600)))).outcome.events?.count == 1)
        // The team, on the phone: from now on, not in the past.
        #expect(scenario.when(.agendar(agendado(inicio: agora, por: "admin"))).outcome.events?.count == 1)
        #expect(scenario.when(.agendar(agendado(inicio: agora.addingTimeInterval(-1), por: "admin"))).outcome == .failure(.cedoDemaisParaAgendar))
        let longe = agendado(inicio: agora.addingTimeInterval(Tour.antecedenciaMaxima + 1))
        #expect(scenario.when(.agendar(longe)).outcome == .failure(.longeDemais))
        #expect(scenario.given(feito).when(.agendar(agendado())).outcome == .failure(.jaAgendado))
        #expect(scenario.when(.cancelar(por: Tour.visitante, motivo: nil, em: agora)).outcome == .failure(.inexistente))
    }

    @Test func done_from_an_hour_before_the_start_a_no_show_from_the_start_and_once() {
        let antes = inicio.addingTimeInterval(-Tour.realizacaoAntecipada - 1)
        #expect(
            scenario.given(feito).when(.realizar(nota: nil, por: "admin", em: antes)).outcome
                == .failure(.cedoDemais(aPartirDe: inicio.addingTimeInterval(-Tour.realizacaoAntecipada))))
        guard
            case .events(let eventos) = scenario.given(feito).when(
                .realizar(nota: "pii:v1:x:nota", por: "admin", em: inicio.addingTimeInterval(-3_600))
            ).outcome,
            case .realizado(let realizado)? = eventos.first
        else {
            Issue.record("no TourRealizado")
            return
        }
        #expect(realizado.nota == "pii:v1:x:nota" && realizado.por == "admin")
        let depois = scenario.given(feito, .realizado(realizado))
        #expect(depois.when(.realizar(nota: nil, por: "admin", em: inicio)).outcome == .failure(.concluido))
        #expect(depois.when(.registrarAusencia(por: "admin", em: inicio)).outcome == .failure(.concluido))
        #expect(depois.when(.cancelar(por: Tour.visitante, motivo: nil, em: agora)).outcome == .failure(.concluido))
        #expect(
            scenario.given(feito).when(.registrarAusencia(por: "admin", em: inicio.addingTimeInterval(-1))).outcome
                == .failure(.cedoDemais(aPartirDe: inicio)))
        guard case .events(let ausencia) = scenario.given(feito).when(.registrarAusencia(por: "admin", em: inicio)).outcome,
            case .ausente? = ausencia.first
        else {
            Issue.record("no TourSemComparecimento")
            return
        }
    }

    @Test func either_side_cancels_before_the_start_twice_is_nothing_and_a_cancelled_tour_is_not_done() {
        #expect(scenario.given(feito).when(.cancelar(por: Tour.visitante, motivo: nil, em: inicio)).outcome == .failure(.iniciado))
        guard case .events(let eventos) = scenario.given(feito).when(.cancelar(por: "admin", motivo: "pii:v1:x:m", em: agora)).outcome,
            case .cancelado(let cancelado)? = eventos.first
        else {
            Issue.record("no TourCancelado")
            return
        }
        #expect(cancelado.pelaEquipe && cancelado.motivo == "pii:v1:x:m")
        let depois = scenario.given(feito, .cancelado(cancelado))
        #expect(depois.when(.cancelar(por: Tour.visitante, motivo: nil, em: agora)).outcome == .events([]))
        #expect(depois.when(.realizar(nota: nil, por: "admin", em: inicio)).outcome == .failure(.cancelado))
        // The contact goes an hour after the cancellation, once.
        #expect(
            depois.when(.apagarDados(em: agora.addingTimeInterval(3_599))).outcome
                == .failure(.retencaoNaoVenceu(em: agora.addingTimeInterval(3_600))))
        guard case .events(let apagados) = depois.when(.apagarDados(em: agora.addingTimeInterval(3_600))).outcome, let apagado = apagados.first else {
            Issue.record("no DadosDoTourApagados")
            return
        }
        let apagadoJa = scenario.given(feito, .cancelado(cancelado), apagado)
        #expect(apagadoJa.when(.apagarDados(em: agora.addingTimeInterval(7_200))).outcome == .events([]))
        #expect(apagadoJa.when(.apagarAgora(por: "admin", em: agora)).outcome == .events([]))
        // Otherwise 90 days after the start; at the prospect's request, at once.
        #expect(scenario.given(feito).when(.apagarDados(em: inicio.addingTimeInterval(Tour.retencao - 1))).outcome.events == nil)
        #expect(scenario.given(feito).when(.apagarDados(em: inicio.addingTimeInterval(Tour.retencao))).outcome.events?.count == 1)
        #expect(scenario.given(feito).when(.apagarAgora(por: "admin", em: agora)).outcome.events?.count == 1)
    }

    @Test func a_time_holds_as_many_tours_as_the_unit_receives_at_once() throws {
        let dez = instant("2026-11-23T10:00:00-03:00")
        func horario(_ n: Int, _ inicio: Date, minutos: Double = 30) -> AgendaDeTours.Horario {
            AgendaDeTours.Horario(
                tourId: Tour.ID(UUID(uuidString: "6f1c2a9e-0000-4000-8000-00000000000\(n)")!), unidadeId: unidade, dia: "2026-11-23",
                inicio: inicio, fim: inicio.addingTimeInterval(minutos * 60))
        }
        let decider = AgendaDeTours.decider
        var state = decider.initialState
        for n in 1...2 {
            let eventos = try decider.decide(.ocupar(horario(n, dez), simultaneos: 2), state)
            #expect(eventos == [.ocupado(horario(n, dez))])
            state = eventos.reduce(state, decider.evolve)
        }
        #expect(throws: AgendaDeTours.Failure.lotado) { try decider.decide(.ocupar(horario(3, dez), simultaneos: 2), state) }
        // One that overlaps part of it is refused too; the next half hour is free; the same tour again is nothing.
        #expect(throws: AgendaDeTours.Failure.lotado) { try decider.decide(.ocupar(horario(3, dez.addingTimeInterval(900)), simultaneos: 2), state) }
        #expect(try decider.decide(.ocupar(horario(3, dez.addingTimeInterval(1_800)), simultaneos: 2), state).count == 1)
        #expect(try decider.decide(.ocupar(horario(1, dez), simultaneos: 2), state).isEmpty)
        // A cancelled tour gives its place back.
        let liberado = try decider.decide(.liberar(horario(1, dez).tourId), state)
        #expect(liberado.count == 1)
        state = liberado.reduce(state, decider.evolve)
        #expect(try decider.decide(.ocupar(horario(3, dez), simultaneos: 2), state).count == 1)
        #expect(try decider.decide(.liberar(horario(1, dez).tourId), state).isEmpty)
    }

    @Test func the_tour_hours_give_back_to_back_times_ending_inside_each_range() throws {
        let fuso = try #require(TimeZone(identifier: "America/Sao_Paulo"))
        let segunda = try #require(DataLocal("2026-11-23"))
        let manhaETarde = try Espaco.HorarioSemanal([
            .segunda: [Espaco.Faixa(abre: 9 * 60, fecha: 12 * 60), Espaco.Faixa(abre: 14 * 60, fecha: 16 * 60 + 30)]
        ])
        let c = ConfiguracaoDeTours.Configuracao(ativo: true, duracaoMinutos: 45, simultaneos: 1, horario: manhaETarde)
        let inicios = c.horarios(em: segunda, fuso: fuso).map { $0.start.formatted(Date.ISO8601FormatStyle()) }
        // 09:00, 09:45, 10:30, 11:15 (ends 12:00); 14:00, 14:45, 15:30 (16:15 would end at 17:00).
        #expect(
            inicios == [
                "2026-11-23T12:00:00Z", "2026-11-23T12:45:00Z", "2026-11-23T13:30:00Z", "2026-11-23T14:15:00Z",
                "2026-11-23T17:00:00Z", "2026-11-23T17:45:00Z", "2026-11-23T18:30:00Z",
            ])
        #expect(c.horarios(em: segunda.adding(dias: 1), fuso: fuso).isEmpty)  // Tuesday: closed
        let desligado = ConfiguracaoDeTours.Configuracao(ativo: false, duracaoMinutos: 45, simultaneos: 1, horario: manhaETarde)
        #expect(desligado.horarios(em: segunda, fuso: fuso).isEmpty)
        // The default: weekdays 09:00–18:00, 30 minutes.
        #expect(ConfiguracaoDeTours.Configuracao.padrao.horarios(em: segunda, fuso: fuso).count == 18)
        // A day the clock skips an hour (New York, 8 March 2026): no two times share a start, each ends after it starts.
        let ny = try #require(TimeZone(identifier: "America/New_York"))
        let noite = try Espaco.HorarioSemanal([.domingo: [Espaco.Faixa(abre: 60, fecha: 5 * 60)]])
        let pulo = ConfiguracaoDeTours.Configuracao(ativo: true, duracaoMinutos: 60, simultaneos: 1, horario: noite)
            .horarios(em: try #require(DataLocal("2026-03-08")), fuso: ny)
        #expect(!pulo.isEmpty && Set(pulo.map(\.start)).count == pulo.count && zip(pulo, pulo.dropFirst()).allSatisfy { $0.start < $1.start })
    }

    @Test func the_configuration_is_checked_and_the_same_one_again_records_nothing() throws {
        let decider = ConfiguracaoDeTours.decider
        func definida(_ c: ConfiguracaoDeTours.Configuracao) -> ConfiguracaoDeTours.Definida {
            ConfiguracaoDeTours.Definida(unidadeId: unidade, configuracao: c, por: "admin", em: agora)
        }
        let padrao = ConfiguracaoDeTours.Configuracao.padrao
        func com(duracao: Int = 30, simultaneos: Int = 1) -> ConfiguracaoDeTours.Configuracao {
            ConfiguracaoDeTours.Configuracao(ativo: true, duracaoMinutos: duracao, simultaneos: simultaneos, horario: padrao.horario)
        }
        for ruim in [0, 10, 20, 195] {
            #expect(throws: ConfiguracaoDeTours.Failure.duracaoInvalida) { try decider.decide(.definir(definida(com(duracao: ruim))), nil) }
        }
        for ruim in [0, 21] {
            #expect(throws: ConfiguracaoDeTours.Failure.simultaneosInvalidos) { try decider.decide(.definir(definida(com(simultaneos: ruim))), nil) }
        }
        // Setting the default for the first time records it; the same again does not.
        let eventos = try decider.decide(.definir(definida(padrao)), nil)
        #expect(eventos.count == 1)
        #expect(try decider.decide(.definir(definida(padrao)), eventos.reduce(nil, decider.evolve)).isEmpty)
        #expect(try decider.decide(.definir(definida(com(duracao: 180, simultaneos: 20))), eventos.reduce(nil, decider.evolve)).count == 1)
    }
}

extension Scenario.Outcome {
    /// The events, or nil for a failure.
    fileprivate var events: [Event]? {
        if case .events(let events) = self { return events }
        return nil
    }
}
