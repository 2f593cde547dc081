import Domain
public import Foundation

/// ISO 8601 instants in UTC, `YYYY-MM-DDTHH:MM:SS[.fraction]Z`, read and written without
/// Foundation's formatters. Payloads, metadata and read-model documents hold many instants (a
/// day's occupancy document holds two per booking), and Foundation's ISO 8601 style builds a
/// calendar's date components for each: with it the JSON strategies cost about a third of a
/// document's decoding. Dates are Gregorian (``CivilDays``, Howard Hinnant's `days_from_civil` and
/// `civil_from_days`) from 1600 to 9999; Foundation's calendar is Julian before 1582, so other
/// years are left to it.
public enum Instants {
    /// `date` as Foundation's `.iso8601` JSON strategy writes it: UTC, whole seconds (a
    /// fraction dropped towards the past). Foundation writes years outside 1600…9999 itself.
    public static func format(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard seconds >= first, seconds < last, let whole = Int64(exactly: seconds) else {
            return date.formatted(Date.ISO8601FormatStyle())
        }
        var days = whole / 86_400
        var time = whole % 86_400
        if time < 0 {
            time += 86_400
            days -= 1
        }
        let (year, month, day) = CivilDays.civil(days)
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            func digits(_ value: Int64, at offset: Int, count: Int) {
                var value = value
                for index in stride(from: offset + count - 1, through: offset, by: -1) {
                    buffer[index] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
            }
            digits(year, at: 0, count: 4)
            buffer[4] = UInt8(ascii: "-")
            digits(month, at: 5, count: 2)
            buffer[7] = UInt8(ascii: "-")
            digits(day, at: 8, count: 2)
            buffer[10] = UInt8(ascii: "T")
            digits(time / 3_600, at: 11, count: 2)
            buffer[13] = UInt8(ascii: ":")
            digits(time / 60 % 60, at: 14, count: 2)
            buffer[16] = UInt8(ascii: ":")
            digits(time % 60, at: 17, count: 2)
            buffer[19] = UInt8(ascii: "Z")
            return String(decoding: UnsafeBufferPointer(buffer), as: UTF8.self)
        }
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` (with `fraction`, also `…:SS.fffZ`, up to nine digits) from 1600
    /// on; nil for anything else, a date that does not exist (30 February) included, so that a
    /// caller's formatter decides about the rest.
    public static func parse(_ text: String, fraction: Bool = false) -> Date? {
        var text = text
        return text.withUTF8 { utf8 -> Date? in
            guard utf8.count >= 20, utf8.last == UInt8(ascii: "Z"), fraction || utf8.count == 20 else { return nil }
            func number(_ range: Range<Int>) -> Int64? {
                var value: Int64 = 0
                for index in range {
                    let byte = utf8[index]
                    guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                    value = value * 10 + Int64(byte - UInt8(ascii: "0"))
                }
                return value
            }
            guard utf8[4] == UInt8(ascii: "-"), utf8[7] == UInt8(ascii: "-"), utf8[10] == UInt8(ascii: "T"),
                utf8[13] == UInt8(ascii: ":"), utf8[16] == UInt8(ascii: ":"),
                let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
                let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
                year >= 1_600, (1...12).contains(month), hour < 24, minute < 60, second < 60
            else { return nil }
            guard (1...CivilDays.daysInMonth(year, month)).contains(day) else { return nil }
            var fractionOfSecond = 0.0
            if utf8.count > 20 {
                let end = utf8.count - 1
                guard utf8[19] == UInt8(ascii: "."), end > 20, end <= 29, let digits = number(20..<end) else { return nil }
                fractionOfSecond = Double(digits) / pow(10, Double(end - 20))
            }
            let seconds = Double(CivilDays.days(year, month, day) * 86_400 + hour * 3_600 + minute * 60 + second)
            return Date(timeIntervalSince1970: seconds + fractionOfSecond)
        }
    }

    /// What the stored JSON of events and documents uses instead of `.iso8601`: the same text
    /// both ways, without the formatter on the common path.
    public static let encoding = JSONEncoder.DateEncodingStrategy.custom { date, encoder in
        var container = encoder.singleValueContainer()
        try container.encode(format(date))
    }

    /// Reads what `.iso8601` reads: the common shape here, anything else by Foundation's style.
    public static let decoding = JSONDecoder.DateDecodingStrategy.custom { decoder in
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        if let date = parse(text) ?? (try? Date.ISO8601FormatStyle().parse(text)) { return date }
        throw DecodingError.dataCorruptedError(in: container, debugDescription: "Expected date string to be ISO8601-formatted.")
    }

    /// 1600-01-01 and 10000-01-01, in seconds from 1970: where the fast paths apply.
    static let first = Double(CivilDays.days(1_600, 1, 1) * 86_400)
    static let last = Double(CivilDays.days(10_000, 1, 1) * 86_400)
}
