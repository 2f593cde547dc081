import Domain
import Foundation
import Testing

private func instant(_ text: String) -> Date { try! Date(text, strategy: .iso8601) }
private func intervalo(_ inicio: String, _ fim: String) -> TimeRange { try! TimeRange(start: instant(inicio), end: instant(fim)) }

@Suite("SerieDeReservas: occurrences and decider")
struct SerieDeReservasTests {
    typealias Scenario = DomainTests.Scenario<SerieDeReservas.Command, SerieDeReservas.State, SerieDeReservas.Event, SerieDeReservas.Failure>

    let saoPaulo = TimeZone(identifier: "America/Sao_Paulo")!
    let id = SerieDeReservas.ID(UUID(uuidString: "6f1c2a9e-0000-4000-8000-0000000000b1")!)
    let agora = instant("2026-11-23T08:00:00-03:00")
    var scenario: Scenario { Scenario(SerieDeReservas.decider) }

    func inicios(_ primeira: TimeRange, _ frequencia: SerieDeReservas.Frequencia, _ quantidade: Int, _ fuso: TimeZone) -> [Date] {
        SerieDeReservas.ocorrencias(primeira: primeira, frequencia: frequencia, quantidade: quantidade, fuso: fuso).map(\.start)
    }

    @Test func weekly_fortnightly_and_weekdays_keep_the_local_time_and_the_length() {
        let terca = intervalo("2026-11-24T10:00:00-03:00", "2026-11-24T11:30:00-03:00")
        let semanal = SerieDeReservas.ocorrencias(primeira: terca, frequencia: .semanal, quantidade: 3, fuso: saoPaulo)
        #expect(semanal.map(\.start) == ["2026-11-24T10:00:00-03:00", "2026-12-01T10:00:00-03:00", "2026-12-08T10:00:00-03:00"].map(instant))
        #expect(semanal.allSatisfy { $0.duration == 90 * 60 })
        #expect(inicios(terca, .quinzenal, 2, saoPaulo) == ["2026-11-24T10:00:00-03:00", "2026-12-08T10:00:00-03:00"].map(instant))
        // From a Thursday, Monday to Friday: the weekend is skipped.
        let quinta = intervalo("2026-11-26T09:00:00-03:00", "2026-11-26T10:00:00-03:00")
        #expect(
            inicios(quinta, .diasUteis, 4, saoPaulo)
                == ["2026-11-26T09:00:00-03:00", "2026-11-27T09:00:00-03:00", "2026-11-30T09:00:00-03:00", "2026-12-01T09:00:00-03:00"].map(instant))
        // A first occurrence on a Saturday is kept; the next ones are weekdays.
        let sabado = intervalo("2026-11-28T09:00:00-03:00", "2026-11-28T10:00:00-03:00")
        #expect(inicios(sabado, .diasUteis, 2, saoPaulo) == ["2026-11-28T09:00:00-03:00", "2026-11-30T09:00:00-03:00"].map(instant))
    }

    @Test func monthly_is_the_same_weekday_of_the_same_week_or_the_last_one() {
        // The second Tuesday of December: the second Tuesday of every month, across the year.
        let segundaTerca = intervalo("2026-12-08T10:00:00-03:00", "2026-12-08T11:00:00-03:00")
        #expect(
            inicios(segundaTerca, .mensal, 4, saoPaulo)
                == ["2026-12-08T10:00:00-03:00", "2027-01-12T10:00:00-03:00", "2027-02-09T10:00:00-03:00", "2027-03-09T10:00:00-03:00"]
                .map(instant))
        // The fourth Thursday (the 26th): the fourth, not the last, even where a fifth follows.
        let quartaQuinta = intervalo("2026-11-26T09:00:00-03:00", "2026-11-26T10:00:00-03:00")
        #expect(
            inicios(quartaQuinta, .mensal, 3, saoPaulo)
                == ["2026-11-26T09:00:00-03:00", "2026-12-24T09:00:00-03:00", "2027-01-28T09:00:00-03:00"].map(instant))
        // From the 29th on, a date is its month's last such weekday: so is every other.
        let ultimaTerca = intervalo("2026-12-29T18:00:00-03:00", "2026-12-29T19:30:00-03:00")
        let ultimas = SerieDeReservas.ocorrencias(primeira: ultimaTerca, frequencia: .mensal, quantidade: 4, fuso: saoPaulo)
        #expect(
            ultimas.map(\.start)
                == ["2026-12-29T18:00:00-03:00", "2027-01-26T18:00:00-03:00", "2027-02-23T18:00:00-03:00", "2027-03-30T18:00:00-03:00"]
                .map(instant))
        #expect(ultimas.allSatisfy { $0.duration == 90 * 60 })
        let ultimoSabado = intervalo("2026-10-31T09:00:00-03:00", "2026-10-31T10:00:00-03:00")
        #expect(
            inicios(ultimoSabado, .mensal, 3, saoPaulo)
                == ["2026-10-31T09:00:00-03:00", "2026-11-28T09:00:00-03:00", "2026-12-26T09:00:00-03:00"].map(instant))
        #expect([1, 7, 8, 22, 28, 29, 31].map { SerieDeReservas.semanaDoMes(DataLocal(ano: 2026, mes: 12, dia: $0)!) } == [1, 1, 2, 4, 4, nil, nil])
    }

    @Test func monthly_by_day_is_the_same_day_or_a_shorter_months_last() {
        // The 31st: the 31st where a month has it, else its last day; counted from the first, so
        // the 31st comes back after a 30th (and after February's 28th, or a leap year's 29th).
        let dia31 = intervalo("2027-12-31T10:00:00-03:00", "2027-12-31T11:00:00-03:00")
        #expect(
            inicios(dia31, .mensalNoDia, 5, saoPaulo)
                == [
                    "2027-12-31T10:00:00-03:00", "2028-01-31T10:00:00-03:00", "2028-02-29T10:00:00-03:00", "2028-03-31T10:00:00-03:00",
                    "2028-04-30T10:00:00-03:00",
                ].map(instant))
        let dia30 = intervalo("2026-11-30T18:00:00-03:00", "2026-11-30T19:30:00-03:00")
        let trintas = SerieDeReservas.ocorrencias(primeira: dia30, frequencia: .mensalNoDia, quantidade: 4, fuso: saoPaulo)
        #expect(
            trintas.map(\.start)
                == ["2026-11-30T18:00:00-03:00", "2026-12-30T18:00:00-03:00", "2027-01-30T18:00:00-03:00", "2027-02-28T18:00:00-03:00"]
                .map(instant))
        #expect(trintas.allSatisfy { $0.duration == 90 * 60 })
        // A day every month has: across the year's turn, whatever its weekday.
        let dia15 = intervalo("2026-11-15T09:00:00-03:00", "2026-11-15T10:00:00-03:00")
        #expect(
            inicios(dia15, .mensalNoDia, 3, saoPaulo)
                == ["2026-11-15T09:00:00-03:00", "2026-12-15T09:00:00-03:00", "2027-01-15T09:00:00-03:00"].map(instant))
        #expect(SerieDeReservas.Frequencia(rawValue: "mensal_no_dia") == .mensalNoDia)
    }

    @Test func across_a_daylight_saving_change_the_wall_clock_is_kept() {
        // New York leaves daylight time on 2026-11-01: 09:00 stays 09:00 (13:00Z, then 14:00Z).
        let novaYork = TimeZone(identifier: "America/New_York")!
        let primeira = intervalo("2026-10-27T13:00:00Z", "2026-10-27T14:00:00Z")
        #expect(inicios(primeira, .semanal, 2, novaYork) == ["2026-10-27T13:00:00Z", "2026-11-03T14:00:00Z"].map(instant))
        // A local midnight start near the change, in a zone that keeps its offset, moves by whole days.
        let meiaNoite = intervalo("2026-11-24T00:00:00-03:00", "2026-11-24T01:00:00-03:00")
        #expect(inicios(meiaNoite, .semanal, 2, saoPaulo) == ["2026-11-24T00:00:00-03:00", "2026-12-01T00:00:00-03:00"].map(instant))
    }

    func criacao(_ reservadas: [Bool]) -> SerieDeReservas.Criacao {
        SerieDeReservas.Criacao(
            serieId: id, usuarioId: "u1", espacoId: UUID(uuidString: "00000000-0000-0000-0000-000000000003")!,
            unidadeId: UUID(uuidString: "00000000-0000-0000-0000-000000000002")!, frequencia: .semanal,
            ocorrencias: reservadas.enumerated().map { indice, reservada in
                SerieDeReservas.Ocorrencia(
                    numero: indice + 1, intervalo: intervalo("2026-11-24T10:00:00-03:00", "2026-11-24T11:00:00-03:00"),
                    reservaId: reservada ? reserva(indice + 1) : nil,
                    recusa: reservada ? nil : SerieDeReservas.Recusa(codigo: "horario_indisponivel", mensagem: "ocupado"))
            })
    }

    func reserva(_ numero: Int) -> Reserva.ID {
        Reserva.ID(UUID(uuidString: "6f1c2a9e-0000-4000-8000-\(String(repeating: "0", count: 12 - String(numero).count))\(numero)")!)
    }

    @Test func a_series_is_recorded_once_with_at_least_one_booking() {
        let serie = criacao([true, false, true])
        #expect(scenario.when(.criar(serie, por: "u1", em: agora)).outcome == .events([.criada(SerieDeReservas.Criada(serie, por: "u1", em: agora))]))
        #expect(scenario.when(.criar(criacao([false, false]), por: "u1", em: agora)).outcome == .failure(.nenhumaReservada))
        #expect(scenario.when(.criar(criacao([true]), por: "u1", em: agora)).outcome == .failure(.quantidade))
        #expect(
            scenario.when(.criar(criacao(Array(repeating: true, count: SerieDeReservas.maximoDeOcorrencias + 1)), por: "u1", em: agora)).outcome
                == .failure(.quantidade))
        let criada = SerieDeReservas.Event.criada(SerieDeReservas.Criada(serie, por: "u1", em: agora))
        #expect(scenario.given(criada).when(.criar(serie, por: "u1", em: agora)).outcome == .failure(.jaExiste))
        // Occurrences numbered 1…n, each booking once.
        let foraDeOrdem = SerieDeReservas.Criacao(
            serieId: id, usuarioId: "u1", espacoId: serie.espacoId, unidadeId: serie.unidadeId, frequencia: .semanal,
            ocorrencias: serie.ocorrencias.reversed())
        #expect(scenario.when(.criar(foraDeOrdem, por: "u1", em: agora)).outcome == .failure(.quantidade))
        let repetida = SerieDeReservas.Criacao(
            serieId: id, usuarioId: "u1", espacoId: serie.espacoId, unidadeId: serie.unidadeId, frequencia: .semanal,
            ocorrencias: serie.ocorrencias.map {
                SerieDeReservas.Ocorrencia(
                    numero: $0.numero, intervalo: $0.intervalo, reservaId: $0.reservaId.map { _ in reserva(1) }, recusa: $0.recusa)
            })
        #expect(scenario.when(.criar(repetida, por: "u1", em: agora)).outcome == .failure(.reservaAlheia))
    }

    @Test func a_cancellation_names_only_bookings_of_the_series_from_its_occurrence_on() {
        let serie = criacao([true, true, true])
        let criada = SerieDeReservas.Event.criada(SerieDeReservas.Criada(serie, por: "u1", em: agora))
        let depois = agora.addingTimeInterval(60)
        let cancelada = SerieDeReservas.Cancelada(
            serieId: id, usuarioId: "u1", aPartirDe: 2, canceladas: [reserva(2), reserva(3)], por: "u1", motivo: nil, em: depois)
        #expect(
            scenario.given(criada).when(.cancelar(aPartirDe: 2, canceladas: [reserva(2), reserva(3)], por: "u1", motivo: nil, em: depois)).outcome
                == .events([.cancelada(cancelada)]))
        // The first occurrence is before occurrence 2: not this cancellation's.
        #expect(
            scenario.given(criada).when(.cancelar(aPartirDe: 2, canceladas: [reserva(1)], por: "u1", motivo: nil, em: depois)).outcome
                == .failure(.reservaAlheia))
        #expect(
            scenario.given(criada).when(.cancelar(aPartirDe: 4, canceladas: [], por: "u1", motivo: nil, em: depois)).outcome
                == .failure(.ocorrenciaInexistente))
        #expect(scenario.given(criada).when(.cancelar(aPartirDe: 1, canceladas: [], por: "u1", motivo: nil, em: depois)).outcome == .events([]))
        // A booking named twice counts once; one an earlier cancellation named is not named again.
        #expect(
            scenario.given(criada).when(
                .cancelar(aPartirDe: 2, canceladas: [reserva(2), reserva(3), reserva(2)], por: "u1", motivo: nil, em: depois)
            ).outcome == .events([.cancelada(cancelada)]))
        let depoisAinda = depois.addingTimeInterval(60)
        #expect(
            scenario.given(criada, .cancelada(cancelada)).when(
                .cancelar(aPartirDe: 1, canceladas: [reserva(1), reserva(2)], por: "u1", motivo: nil, em: depoisAinda)
            ).outcome
                == .events([
                    .cancelada(
                        SerieDeReservas.Cancelada(
                            serieId: id, usuarioId: "u1", aPartirDe: 1, canceladas: [reserva(1)], por: "u1", motivo: nil, em: depoisAinda))
                ]))
        #expect(scenario.when(.cancelar(aPartirDe: 1, canceladas: [], por: "u1", motivo: nil, em: depois)).outcome == .failure(.inexistente))
    }

    @Test func a_move_names_only_bookings_of_the_series_from_its_occurrence_on_each_once() {
        let criada = SerieDeReservas.Event.criada(SerieDeReservas.Criada(criacao([true, true, true]), por: "u1", em: agora))
        let depois = agora.addingTimeInterval(60)
        func movida(_ numero: Int) -> SerieDeReservas.Remarcada.Movida {
            SerieDeReservas.Remarcada.Movida(
                reservaId: reserva(numero), de: intervalo("2026-11-24T10:00:00-03:00", "2026-11-24T11:00:00-03:00"),
                para: intervalo("2026-11-25T16:00:00-03:00", "2026-11-25T17:00:00-03:00"))
        }
        let remarcada = SerieDeReservas.Remarcada(
            serieId: id, usuarioId: "u1", aPartirDe: 2, movidas: [movida(2), movida(3)], por: "adm", em: depois)
        #expect(
            scenario.given(criada).when(.remarcar(aPartirDe: 2, movidas: [movida(2), movida(3)], por: "adm", em: depois)).outcome
                == .events([.remarcada(remarcada)]))
        // The first is before occurrence 2; a booking named twice is refused (one move each).
        #expect(scenario.given(criada).when(.remarcar(aPartirDe: 2, movidas: [movida(1)], por: "u1", em: depois)).outcome == .failure(.reservaAlheia))
        #expect(
            scenario.given(criada).when(.remarcar(aPartirDe: 2, movidas: [movida(2), movida(2)], por: "u1", em: depois)).outcome
                == .failure(.reservaAlheia))
        #expect(scenario.given(criada).when(.remarcar(aPartirDe: 4, movidas: [], por: "u1", em: depois)).outcome == .failure(.ocorrenciaInexistente))
        #expect(scenario.given(criada).when(.remarcar(aPartirDe: 1, movidas: [], por: "u1", em: depois)).outcome == .events([]))
        #expect(scenario.when(.remarcar(aPartirDe: 1, movidas: [], por: "u1", em: depois)).outcome == .failure(.inexistente))
        // Recorded in order, the series' own history of its moves.
        let estado = [criada, .remarcada(remarcada)].reduce(SerieDeReservas.decider.initialState, SerieDeReservas.decider.evolve)
        guard case .existente(let dados) = estado else {
            Issue.record("no series")
            return
        }
        #expect(dados.remarcacoes == [remarcada])
    }
}
