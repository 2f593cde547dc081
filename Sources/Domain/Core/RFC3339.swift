public import Foundation

/// The one form an instant takes in the API: an RFC 3339 date-time,
/// `AAAA-MM-DDTHH:MM:SS[.fração]` followed by `Z` or `±HH:MM`, and nothing else.
///
/// Foundation's ISO 8601 parsing takes a prefix and ignores what follows (`…-03:00garbage`),
/// reads `…Z-03:00` as UTC, and takes `-0300`, `-03` and `-03:00:00` as offsets: a request
/// would then mean an hour its sender did not write. This reads the whole text or nothing.
public enum RFC3339 {
    /// How to write an instant the API takes, for error messages.
    public static let forma = "AAAA-MM-DDTHH:MM:SS seguido de Z ou ±HH:MM (ex.: 2027-01-04T10:00:00-03:00)"

    /// The instant `text` names, its fraction of a second dropped (bookings, quotes and events
    /// keep whole seconds); nil unless `text` is exactly an RFC 3339 date-time with an offset
    /// (upper-case `T` and `Z`), of a day and time that exist (no 30 February, no 24:30, no
    /// leap second), in years 0001 to 9999.
    public static func instante(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.count <= 35 else { return nil }
        func digit(_ index: Int) -> Int64? {
            guard index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else { return nil }
            return Int64(bytes[index] - UInt8(ascii: "0"))
        }
        func number(_ start: Int, _ count: Int) -> Int64? {
            var value: Int64 = 0
            for index in start..<start + count {
                guard let digit = digit(index) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        func byte(_ index: Int, _ character: Unicode.Scalar) -> Bool { index < bytes.count && bytes[index] == UInt8(ascii: character) }
        guard let year = number(0, 4), byte(4, "-"), let month = number(5, 2), byte(7, "-"), let day = number(8, 2), byte(10, "T"),
            let hour = number(11, 2), byte(13, ":"), let minute = number(14, 2), byte(16, ":"), let second = number(17, 2),
            year >= 1, (1...12).contains(month), (1...CivilDays.daysInMonth(year, month)).contains(day),
            hour < 24, minute < 60, second < 60
        else { return nil }
        var index = 19
        if byte(index, ".") {
            index += 1
            let start = index
            while digit(index) != nil { index += 1 }
            guard index > start, index - start <= 9 else { return nil }
        }
        let offset: Int64
        if byte(index, "Z") {
            offset = 0
            index += 1
        } else if byte(index, "+") || byte(index, "-") {
            guard let hours = number(index + 1, 2), byte(index + 3, ":"), let minutes = number(index + 4, 2), hours < 24, minutes < 60
            else { return nil }
            offset = (hours * 3_600 + minutes * 60) * (byte(index, "-") ? -1 : 1)
            index += 6
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        return Date(timeIntervalSince1970: Double(CivilDays.days(year, month, day) * 86_400 + hour * 3_600 + minute * 60 + second - offset))
    }
}
