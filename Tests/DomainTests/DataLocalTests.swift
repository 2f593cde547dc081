import Domain
import Foundation
import Testing

@Suite struct DataLocalTests {
    let saoPaulo = TimeZone(identifier: "America/Sao_Paulo")!

    @Test func parses_only_real_dates_in_yyyy_mm_dd() {
        #expect(DataLocal("2026-11-21")?.description == "2026-11-21")
        #expect(DataLocal("2028-02-29") != nil)
        #expect(DataLocal("2026-02-29") == nil)
        #expect(DataLocal("2026-2-1") == nil)
        #expect(DataLocal("21/11/2026") == nil)
        #expect(DataLocal("2026-11-21T00:00") == nil)
    }

    @Test func a_local_day_starts_at_local_midnight() throws {
        let day = try #require(DataLocal("2026-11-21")).intervalo(em: saoPaulo)
        #expect(day.start == Date(timeIntervalSince1970: 1_795_230_000))  // 2026-11-21T03:00Z
        #expect(day.duration == 86_400)
    }

    @Test func the_date_of_an_instant_depends_on_the_time_zone() throws {
        let instant = try Date("2026-11-22T01:30:00Z", strategy: .iso8601)
        #expect(DataLocal(instant, em: .gmt).description == "2026-11-22")
        #expect(DataLocal(instant, em: saoPaulo).description == "2026-11-21")
        #expect(DataLocal("2026-11-21")?.diaDaSemana == .sabado)
        #expect(DataLocal("2026-11-23")?.diaDaSemana == .segunda)
    }

    @Test func a_range_touches_every_local_day_it_covers_end_exclusive() throws {
        let start = try Date("2026-11-21T22:00:00-03:00", strategy: .iso8601)
        let end = try Date("2026-11-23T00:00:00-03:00", strategy: .iso8601)
        let days = DataLocal.dias(de: try TimeRange(start: start, end: end), em: saoPaulo)
        #expect(days.map(\.description) == ["2026-11-21", "2026-11-22"])
        #expect(DataLocal("2026-12-31")?.seguinte.description == "2027-01-01")
        #expect(DataLocal("2026-11-21")?.instante(minutos: 8 * 60, em: saoPaulo) == (try Date("2026-11-21T08:00:00-03:00", strategy: .iso8601)))
    }
}
