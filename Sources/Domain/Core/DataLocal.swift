public import Foundation

/// A calendar date in a unit's time zone (`2026-11-21`), the unit of opening hours, daily
/// prices and agenda streams. Conversions to instants take the time zone as an argument.
/// Dates are proleptic Gregorian (ISO 8601's); day arithmetic is ``CivilDays``', not
/// Foundation's `Calendar` (a booking works out several local dates: `Calendar` cost
/// microseconds a call).
public struct DataLocal: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let ano: Int
    public let mes: Int
    public let dia: Int

    /// A valid Gregorian date, or nil (`2026-02-30` is nil).
    public init?(ano: Int, mes: Int, dia: Int) {
        guard (1...9999).contains(ano), (1...12).contains(mes), (1...Int(CivilDays.daysInMonth(Int64(ano), Int64(mes)))).contains(dia)
        else { return nil }
        self.ano = ano
        self.mes = mes
        self.dia = dia
    }

    /// Parses `YYYY-MM-DD`; nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let ano = Int(parts[0]), let mes = Int(parts[1]), let dia = Int(parts[2])
        else { return nil }
        self.init(ano: ano, mes: mes, dia: dia)
    }

    /// The local date of an instant in `fuso`: the instant moved by the zone's offset at that
    /// instant, in whole days.
    public init(_ instant: Date, em fuso: TimeZone) {
        let local = (instant.timeIntervalSince1970 + Double(fuso.secondsFromGMT(for: instant))) / 86_400
        // Years 1 to 9999 (and an instant that is not a number at all, on day 0).
        let days = local.isFinite ? Int64(min(max(local, -719_162), 2_932_896).rounded(.down)) : 0
        self.init(days: days)
    }

    /// The date `days` after 1970-01-01.
    init(days: Int64) {
        let (ano, mes, dia) = CivilDays.civil(days)
        self.ano = Int(ano)
        self.mes = Int(mes)
        self.dia = Int(dia)
    }

    /// Days from 1970-01-01.
    var days: Int64 { CivilDays.days(Int64(ano), Int64(mes), Int64(dia)) }

    public var description: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(ano, 4))-\(pad(mes, 2))-\(pad(dia, 2))"
    }

    public static func < (lhs: DataLocal, rhs: DataLocal) -> Bool {
        (lhs.ano, lhs.mes, lhs.dia) < (rhs.ano, rhs.mes, rhs.dia)
    }

    /// The instant of `minutos` after local midnight of this date (0…1440; 1440 is the next
    /// midnight). Across a DST change the wall clock decides, as the calendar does.
    public func instante(minutos: Int, em fuso: TimeZone) -> Date {
        if minutos >= 24 * 60 { return seguinte.instante(minutos: minutos - 24 * 60, em: fuso) }
        let calendar = Self.calendar(fuso)
        // Hour and minute on the wall clock, not minutes elapsed since midnight: on a DST day
        // 08:00 is still 08:00 (a time the clock skips moves forward by the gap).
        let components = DateComponents(year: ano, month: mes, day: dia, hour: max(0, minutos) / 60, minute: max(0, minutos) % 60)
        return calendar.date(from: components) ?? Date(timeIntervalSince1970: 0)
    }

    /// `[local midnight, next local midnight)`; nil for a date the zone skipped (Pacific/Apia
    /// went from 2011-12-29 to 2011-12-31 when it crossed the date line), which holds no time.
    public func intervalo(em fuso: TimeZone) -> TimeRange? {
        try? TimeRange(start: instante(minutos: 0, em: fuso), end: seguinte.instante(minutos: 0, em: fuso))
    }

    public var seguinte: DataLocal { adding(dias: 1) }

    public func adding(dias: Int) -> DataLocal { DataLocal(days: days + Int64(dias)) }

    public var diaDaSemana: DiaDaSemana { DiaDaSemana.allCases[CivilDays.weekday(days)] }

    /// Every local date that `range` touches (its end is exclusive).
    public static func dias(de range: TimeRange, em fuso: TimeZone) -> [DataLocal] {
        let last = DataLocal(range.end.addingTimeInterval(-0.001), em: fuso)
        var day = DataLocal(range.start, em: fuso)
        var days = [day]
        while day < last {
            day = day.seguinte
            days.append(day)
        }
        return days
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let date = DataLocal(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not a YYYY-MM-DD date")
        }
        self = date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    static func calendar(_ fuso: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = fuso
        return calendar
    }
}

/// Days of the week, as the business names them; `domingo` first, as the Gregorian calendar counts.
public enum DiaDaSemana: String, Codable, Sendable, CaseIterable {
    case domingo, segunda, terca, quarta, quinta, sexta, sabado

    public var fimDeSemana: Bool { self == .sabado || self == .domingo }
}
