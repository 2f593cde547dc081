public import Foundation

/// Text helpers the e-mail renderer (`Integrations`' MIME) and the calendar file
/// (``Calendario``) share.
public enum MIMEText {
    /// The lines of `text`, split on CRLF, CR or LF.
    public static func lines(of text: String) -> [String] {
        var lines: [String] = []
        var current = String.UnicodeScalarView()
        var afterCR = false
        for scalar in text.unicodeScalars {
            defer { afterCR = scalar == "\r" }
            if scalar == "\n" && afterCR { continue }
            if scalar == "\r" || scalar == "\n" {
                lines.append(String(current))
                current = String.UnicodeScalarView()
            } else {
                current.append(scalar)
            }
        }
        lines.append(String(current))
        return lines
    }

    public static func padded(_ number: Int, _ width: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

/// The calendar fields of an instant in UTC (Gregorian).
public struct UTCFields {
    public let year, month, day, hour, minute, second, weekday: Int

    public init(_ date: Date) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
        year = parts.year ?? 1970
        month = parts.month ?? 1
        day = parts.day ?? 1
        hour = parts.hour ?? 0
        minute = parts.minute ?? 0
        second = parts.second ?? 0
        weekday = parts.weekday ?? 1
    }
}
