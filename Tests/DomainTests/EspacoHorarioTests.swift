import Domain
import Foundation
import Testing

/// Builders shared by the schedule tests.
enum Horarios {
    static let saoPaulo = TimeZone(identifier: "America/Sao_Paulo")!
    static let lisboa = TimeZone(identifier: "Europe/Lisbon")!
    static let t0 = Date(timeIntervalSince1970: 1_790_000_000)

    /// `2026-11-23T08:00` on the São Paulo wall clock (UTC−3, no DST).
    static func sp(_ text: String) -> Date { try! Date(text + ":00-03:00", strategy: .iso8601) }

    static func utc(_ text: String) -> Date { try! Date(text + ":00Z", strategy: .iso8601) }

    static func range(_ start: Date, _ end: Date) -> TimeRange { try! TimeRange(start: start, end: end) }

    /// A São Paulo range: `sp("2026-11-23T09:00", "2026-11-23T10:00")`.
    static func sp(_ start: String, _ end: String) -> TimeRange { range(sp(start), sp(end)) }

    static func dia(_ text: String) -> DataLocal { DataLocal(text)! }

    static func faixa(_ abre: Int, _ fecha: Int) -> Espaco.Faixa { Espaco.Faixa(abre: abre * 60, fecha: fecha * 60) }

    static func bloqueio(_ intervalo: TimeRange, _ motivo: Espaco.Bloqueio.Motivo = .manutencao) -> Espaco.Bloqueio {
        Espaco.Bloqueio(id: UUID(), intervalo: intervalo, motivo: motivo)
    }

    static func espaco(
        tipo: Espaco.Tipo = .salaReuniao, capacidade: Int = 6, horario: Espaco.HorarioSemanal = .padrao,
        bloqueios: [Espaco.Bloqueio] = [], ativo: Bool = true
    ) -> Espaco.Dados {
        Espaco.Dados(
            id: Espaco.ID(UUID()), unidade: Unidade.ID(UUID()), nome: "Espaço", tipo: tipo, capacidade: capacidade,
            horario: horario, bloqueios: bloqueios, ativo: ativo, cadastradoEm: t0)
    }

    static func todosOsDias(_ faixas: [Espaco.Faixa]) -> Espaco.HorarioSemanal {
        try! Espaco.HorarioSemanal(Dictionary(uniqueKeysWithValues: DiaDaSemana.allCases.map { ($0, faixas) }))
    }
}

@Suite("Horário semanal")
struct HorarioSemanalTests {
    typealias Horario = Espaco.HorarioSemanal

    @Test func the_default_is_weekdays_8_to_20_saturday_9_to_13_and_sunday_closed() {
        for dia in [DiaDaSemana.segunda, .terca, .quarta, .quinta, .sexta] {
            #expect(Horario.padrao.faixas(de: dia) == [Espaco.Faixa(abre: 480, fecha: 1_200)])
        }
        #expect(Horario.padrao.faixas(de: .sabado) == [Espaco.Faixa(abre: 540, fecha: 780)])
        #expect(Horario.padrao.faixas(de: .domingo).isEmpty)
        #expect(Horario.padrao.faixas[.domingo] == nil)
    }

    @Test(arguments: [(0, 0), (600, 540), (-1, 60), (1_380, 1_441)])
    func a_range_must_open_before_it_closes_within_the_day(abre: Int, fecha: Int) {
        let faixa = Espaco.Faixa(abre: abre, fecha: fecha)
        #expect(throws: Horario.Invalido.faixaInvalida(.terca, faixa)) { try Horario([.terca: [faixa]]) }
    }

    @Test func overlapping_ranges_on_one_day_are_refused() {
        #expect(throws: Horario.Invalido.faixasSobrepostas(.quarta)) {
            try Horario([.quarta: [Horarios.faixa(8, 12), Horarios.faixa(11, 14)]])
        }
        #expect(throws: Horario.Invalido.faixasSobrepostas(.quarta)) {
            try Horario([.quarta: [Horarios.faixa(8, 20), Horarios.faixa(10, 11)]])
        }
    }

    @Test func ranges_are_sorted_touching_ones_merged_and_closed_days_dropped() throws {
        let horario = try Horario([
            .segunda: [Horarios.faixa(14, 18), Horarios.faixa(12, 14), Horarios.faixa(8, 11)],
            .domingo: [],
        ])
        #expect(horario.faixas(de: .segunda) == [Horarios.faixa(8, 11), Horarios.faixa(12, 18)])
        #expect(horario.faixas[.domingo] == nil)
        #expect(horario == (try Horario([.segunda: [Horarios.faixa(8, 11), Horarios.faixa(12, 18)]])))
        #expect(try Horario([.sabado: [Espaco.Faixa(abre: 0, fecha: 1_440)]]).faixas(de: .sabado) == [Espaco.Faixa(abre: 0, fecha: 1_440)])
    }

    @Test func it_is_stored_as_an_object_keyed_by_day_name() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(Horario.padrao), as: UTF8.self)
        let util = "[{\"abre\":480,\"fecha\":1200}]"
        #expect(
            json
                == "{\"quarta\":\(util),\"quinta\":\(util),\"sabado\":[{\"abre\":540,\"fecha\":780}],\"segunda\":\(util),\"sexta\":\(util),\"terca\":\(util)}"
        )
        #expect(try JSONDecoder().decode(Horario.self, from: Data(json.utf8)) == .padrao)
        #expect(try JSONDecoder().decode(Horario.self, from: Data("{}".utf8)) == .fechado)
    }

    @Test func decoding_refuses_what_the_initialiser_refuses() {
        for json in [
            "{\"segunda\":[{\"abre\":480,\"fecha\":700},{\"abre\":600,\"fecha\":900}]}",
            "{\"segunda\":[{\"abre\":480,\"fecha\":1500}]}",
            "{\"feriado\":[{\"abre\":480,\"fecha\":700}]}",
        ] {
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(Horario.self, from: Data(json.utf8)) }
        }
    }
}

@Suite("Períodos abertos e permite (São Paulo)")
struct PeriodosAbertosTests {
    let segunda = Horarios.dia("2026-11-23")
    let terca = Horarios.dia("2026-11-24")
    let sabado = Horarios.dia("2026-11-21")
    let domingo = Horarios.dia("2026-11-22")
    let fuso = Horarios.saoPaulo

    @Test func opening_hours_become_instants_on_the_units_wall_clock() {
        let espaco = Horarios.espaco()
        #expect(espaco.periodosAbertos(em: segunda, fuso: fuso) == [Horarios.sp("2026-11-23T08:00", "2026-11-23T20:00")])
        #expect(espaco.periodosAbertos(em: sabado, fuso: fuso) == [Horarios.sp("2026-11-21T09:00", "2026-11-21T13:00")])
        #expect(espaco.periodosAbertos(em: segunda, fuso: fuso).first?.start == Horarios.utc("2026-11-23T11:00"))
    }

    @Test func a_closed_day_has_no_open_time() {
        let espaco = Horarios.espaco()
        #expect(espaco.periodosAbertos(em: domingo, fuso: fuso).isEmpty)
        #expect(!espaco.permite(Horarios.sp("2026-11-22T10:00", "2026-11-22T11:00"), fuso: fuso))
    }

    @Test func a_booking_fits_only_wholly_inside_open_time() {
        let espaco = Horarios.espaco()
        #expect(espaco.permite(Horarios.sp("2026-11-23T08:00", "2026-11-23T20:00"), fuso: fuso))
        #expect(espaco.permite(Horarios.sp("2026-11-23T09:00", "2026-11-23T10:30"), fuso: fuso))
        #expect(!espaco.permite(Horarios.sp("2026-11-23T07:59", "2026-11-23T09:00"), fuso: fuso))
        #expect(!espaco.permite(Horarios.sp("2026-11-23T19:00", "2026-11-23T20:01"), fuso: fuso))
        #expect(!espaco.permite(Horarios.sp("2026-11-21T12:00", "2026-11-21T14:00"), fuso: fuso))
    }

    @Test func a_blackout_cuts_an_open_period() {
        let espaco = Horarios.espaco(bloqueios: [Horarios.bloqueio(Horarios.sp("2026-11-23T12:00", "2026-11-23T14:00"))])
        #expect(
            espaco.periodosAbertos(em: segunda, fuso: fuso) == [
                Horarios.sp("2026-11-23T08:00", "2026-11-23T12:00"), Horarios.sp("2026-11-23T14:00", "2026-11-23T20:00"),
            ])
        #expect(!espaco.permite(Horarios.sp("2026-11-23T11:00", "2026-11-23T13:00"), fuso: fuso))
        #expect(!espaco.permite(Horarios.sp("2026-11-23T12:00", "2026-11-23T14:00"), fuso: fuso))
        #expect(espaco.permite(Horarios.sp("2026-11-23T11:00", "2026-11-23T12:00"), fuso: fuso))
        #expect(espaco.permite(Horarios.sp("2026-11-23T14:00", "2026-11-23T15:00"), fuso: fuso))
        #expect(espaco.periodosAbertos(em: terca, fuso: fuso) == [Horarios.sp("2026-11-24T08:00", "2026-11-24T20:00")])
    }

    @Test func a_blackout_spanning_two_days_closes_the_end_of_one_and_the_start_of_the_next() {
        let espaco = Horarios.espaco(bloqueios: [Horarios.bloqueio(Horarios.sp("2026-11-23T18:00", "2026-11-24T10:00"), .evento)])
        #expect(espaco.periodosAbertos(em: segunda, fuso: fuso) == [Horarios.sp("2026-11-23T08:00", "2026-11-23T18:00")])
        #expect(espaco.periodosAbertos(em: terca, fuso: fuso) == [Horarios.sp("2026-11-24T10:00", "2026-11-24T20:00")])
    }

    @Test func a_blackout_over_the_whole_day_closes_it() {
        let espaco = Horarios.espaco(bloqueios: [Horarios.bloqueio(Horarios.sp("2026-11-23T00:00", "2026-11-24T00:00"), .feriado)])
        #expect(espaco.periodosAbertos(em: segunda, fuso: fuso).isEmpty)
        #expect(!espaco.permite(Horarios.sp("2026-11-23T09:00", "2026-11-23T10:00"), fuso: fuso))
    }

    @Test func an_overnight_booking_fits_when_both_days_are_open_at_midnight() throws {
        let horario = try Espaco.HorarioSemanal([.segunda: [Horarios.faixa(20, 24)], .terca: [Horarios.faixa(0, 8)]])
        let espaco = Horarios.espaco(horario: horario)
        #expect(espaco.periodosAbertos(em: segunda, fuso: fuso) == [Horarios.sp("2026-11-23T20:00", "2026-11-24T00:00")])
        #expect(espaco.periodosAbertos(em: terca, fuso: fuso) == [Horarios.sp("2026-11-24T00:00", "2026-11-24T08:00")])
        #expect(espaco.permite(Horarios.sp("2026-11-23T22:00", "2026-11-24T02:00"), fuso: fuso))
        #expect(espaco.permite(Horarios.sp("2026-11-23T20:00", "2026-11-24T08:00"), fuso: fuso))
        #expect(!espaco.permite(Horarios.sp("2026-11-23T22:00", "2026-11-24T09:00"), fuso: fuso))
    }

    @Test func an_overnight_booking_does_not_fit_when_either_side_is_closed_at_midnight() throws {
        let abreAUmaHora = try Espaco.HorarioSemanal([.segunda: [Horarios.faixa(20, 24)], .terca: [Horarios.faixa(1, 8)]])
        #expect(!Horarios.espaco(horario: abreAUmaHora).permite(Horarios.sp("2026-11-23T22:00", "2026-11-24T02:00"), fuso: fuso))
        let fechaAs23 = try Espaco.HorarioSemanal([.segunda: [Horarios.faixa(20, 23)], .terca: [Horarios.faixa(0, 8)]])
        #expect(!Horarios.espaco(horario: fechaAs23).permite(Horarios.sp("2026-11-23T22:00", "2026-11-24T02:00"), fuso: fuso))
        #expect(!Horarios.espaco().permite(Horarios.sp("2026-11-23T19:00", "2026-11-24T09:00"), fuso: fuso))
    }

    @Test func a_blackout_at_midnight_breaks_an_overnight_booking() throws {
        let horario = try Espaco.HorarioSemanal([.segunda: [Horarios.faixa(20, 24)], .terca: [Horarios.faixa(0, 8)]])
        let espaco = Horarios.espaco(horario: horario, bloqueios: [Horarios.bloqueio(Horarios.sp("2026-11-23T23:50", "2026-11-24T00:10"))])
        #expect(!espaco.permite(Horarios.sp("2026-11-23T22:00", "2026-11-24T02:00"), fuso: fuso))
        #expect(espaco.permite(Horarios.sp("2026-11-24T00:10", "2026-11-24T02:00"), fuso: fuso))
    }

    @Test func a_space_open_around_the_clock_takes_a_booking_of_several_days() {
        let espaco = Horarios.espaco(horario: Horarios.todosOsDias([Horarios.faixa(0, 24)]))
        #expect(espaco.permite(Horarios.sp("2026-11-21T10:00", "2026-11-24T10:00"), fuso: fuso))
        #expect(espaco.periodosAbertos(em: segunda, fuso: fuso) == [Horarios.sp("2026-11-23T00:00", "2026-11-24T00:00")])
    }

    @Test func an_inactive_space_has_no_open_time() {
        let espaco = Horarios.espaco(ativo: false)
        #expect(espaco.periodosAbertos(em: segunda, fuso: fuso).isEmpty)
        #expect(!espaco.permite(Horarios.sp("2026-11-23T09:00", "2026-11-23T10:00"), fuso: fuso))
    }
}

@Suite("Períodos abertos em Lisboa (horário de verão)")
struct PeriodosAbertosLisboaTests {
    let fuso = Horarios.lisboa
    let espaco = Horarios.espaco(horario: Horarios.todosOsDias([Horarios.faixa(8, 20)]))

    @Test func the_days_the_clocks_change_last_23_and_25_hours() throws {
        #expect(try #require(Horarios.dia("2026-03-29").intervalo(em: fuso)).duration == 23 * 3_600)
        #expect(try #require(Horarios.dia("2026-10-25").intervalo(em: fuso)).duration == 25 * 3_600)
        #expect(try #require(Horarios.dia("2026-03-28").intervalo(em: fuso)).duration == 24 * 3_600)
    }

    @Test func opening_hours_follow_the_wall_clock_in_winter_and_summer() {
        #expect(
            espaco.periodosAbertos(em: Horarios.dia("2026-03-28"), fuso: fuso) == [
                Horarios.range(Horarios.utc("2026-03-28T08:00"), Horarios.utc("2026-03-28T20:00"))
            ])
        #expect(
            espaco.periodosAbertos(em: Horarios.dia("2026-03-30"), fuso: fuso) == [
                Horarios.range(Horarios.utc("2026-03-30T07:00"), Horarios.utc("2026-03-30T19:00"))
            ])
    }

    @Test func on_the_day_clocks_go_forward_8_to_20_is_still_8_to_20_local() {
        #expect(
            espaco.periodosAbertos(em: Horarios.dia("2026-03-29"), fuso: fuso) == [
                Horarios.range(Horarios.utc("2026-03-29T07:00"), Horarios.utc("2026-03-29T19:00"))
            ])
    }

    @Test func on_the_day_clocks_go_back_8_to_20_is_still_8_to_20_local() {
        #expect(
            espaco.periodosAbertos(em: Horarios.dia("2026-10-25"), fuso: fuso) == [
                Horarios.range(Horarios.utc("2026-10-25T08:00"), Horarios.utc("2026-10-25T20:00"))
            ])
        #expect(
            espaco.periodosAbertos(em: Horarios.dia("2026-10-24"), fuso: fuso) == [
                Horarios.range(Horarios.utc("2026-10-24T07:00"), Horarios.utc("2026-10-24T19:00"))
            ])
    }

    @Test func a_night_range_over_the_change_lasts_what_the_wall_clock_says() throws {
        let madrugada = Horarios.espaco(horario: try Espaco.HorarioSemanal([.domingo: [Horarios.faixa(0, 3)]]))
        // 00:00 WET to 03:00 WEST: two hours pass.
        #expect(
            madrugada.periodosAbertos(em: Horarios.dia("2026-03-29"), fuso: fuso) == [
                Horarios.range(Horarios.utc("2026-03-29T00:00"), Horarios.utc("2026-03-29T02:00"))
            ])
        // 00:00 WEST to 03:00 WET: four hours pass.
        #expect(
            madrugada.periodosAbertos(em: Horarios.dia("2026-10-25"), fuso: fuso) == [
                Horarios.range(Horarios.utc("2026-10-24T23:00"), Horarios.utc("2026-10-25T03:00"))
            ])
        let diaInteiro = Horarios.espaco(horario: Horarios.todosOsDias([Horarios.faixa(0, 24)]))
        #expect(diaInteiro.periodosAbertos(em: Horarios.dia("2026-03-29"), fuso: fuso).map(\.duration) == [23 * 3_600])
        #expect(diaInteiro.periodosAbertos(em: Horarios.dia("2026-10-25"), fuso: fuso).map(\.duration) == [25 * 3_600])
    }

    @Test func an_overnight_booking_across_the_change_fits_when_both_nights_are_open() throws {
        let horario = try Espaco.HorarioSemanal([.sabado: [Horarios.faixa(20, 24)], .domingo: [Horarios.faixa(0, 8)]])
        let espaco = Horarios.espaco(horario: horario)
        // Saturday 22:00 WET to Sunday 08:00 WEST.
        #expect(espaco.permite(Horarios.range(Horarios.utc("2026-03-28T22:00"), Horarios.utc("2026-03-29T07:00")), fuso: fuso))
        #expect(!espaco.permite(Horarios.range(Horarios.utc("2026-03-28T22:00"), Horarios.utc("2026-03-29T08:00")), fuso: fuso))
    }
}
