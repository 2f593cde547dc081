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
        let date = try #require(DataLocal("2026-11-21"))
        let day = try #require(date.intervalo(em: saoPaulo))
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

    /// The arithmetic against Foundation's Gregorian calendar, which it replaced (the same from
    /// 1582 on): validity, the next and earlier days, weekdays, and the local date of instants
    /// in zones with daylight saving, half-hour and 45-minute offsets.
    @Test func agrees_with_foundations_gregorian_calendar() throws {
        var gregorian = Calendar(identifier: .gregorian)
        gregorian.timeZone = .gmt
        for ano in [1600, 1700, 1900, 1970, 2000, 2024, 2026, 2100, 2400, 9999] {
            for mes in 1...12 {
                for dia in 28...32 {
                    var components = DateComponents(year: ano, month: mes, day: dia)
                    components.calendar = gregorian
                    #expect((DataLocal(ano: ano, mes: mes, dia: dia) != nil) == (dia <= 31 && components.isValidDate), "\(ano)-\(mes)-\(dia)")
                }
            }
        }
        var day = try #require(DataLocal("1969-12-25"))
        var instant = try #require(gregorian.date(from: DateComponents(year: 1969, month: 12, day: 25)))
        for _ in 0..<(366 * 12) {
            let expected = gregorian.dateComponents([.year, .month, .day, .weekday], from: instant)
            #expect([day.ano, day.mes, day.dia] == [expected.year, expected.month, expected.day])
            #expect(DiaDaSemana.allCases.firstIndex(of: day.diaDaSemana) == (expected.weekday ?? 0) - 1)
            let later = try #require(gregorian.date(byAdding: .day, value: 400, to: instant))
            #expect(day.adding(dias: 400) == DataLocal(later, em: .gmt))
            day = day.seguinte
            instant = try #require(gregorian.date(byAdding: .day, value: 1, to: instant))
        }
        for zone in ["America/Sao_Paulo", "America/New_York", "Asia/Kolkata", "Pacific/Chatham", "America/St_Johns", "UTC"] {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = try #require(TimeZone(identifier: zone))
            // Every 7 h 13 min 17 s from 1960 to 2050: every hour of the day and both sides of
            // every daylight-saving change come round.
            var seconds = -315_619_200.0
            while seconds < 2_524_608_000 {
                let instant = Date(timeIntervalSince1970: seconds)
                let expected = calendar.dateComponents([.year, .month, .day], from: instant)
                let date = DataLocal(instant, em: calendar.timeZone)
                #expect([date.ano, date.mes, date.dia] == [expected.year, expected.month, expected.day], "\(zone) \(instant)")
                seconds += 7 * 3_600 + 13 * 60 + 17
            }
        }
    }
}
