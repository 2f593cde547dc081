import Foundation

/// Calendar arithmetic on day numbers (days since 1970-01-01), without Foundation's calendar:
/// a replay splits every booking into local days and hours, and `Calendar` costs microseconds
/// a call. Dates are proleptic Gregorian (H. Hinnant's `days_from_civil`).
public enum CalendarioAnalitico {
    /// The day number of a civil date.
    public static func dias(ano: Int, mes: Int, dia: Int) -> Int64 {
        let y = Int64(mes <= 2 ? ano - 1 : ano)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(mes)
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(dia) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The civil date of a day number.
    public static func civil(_ dias: Int64) -> (ano: Int, mes: Int, dia: Int) {
        let z = dias + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let dia = Int(doy - (153 * mp + 2) / 5 + 1)
        let mes = Int(mp < 10 ? mp + 3 : mp - 9)
        return (Int(yoe + era * 400) + (mes <= 2 ? 1 : 0), mes, dia)
    }

    /// 0 = domingo … 6 = sábado (1970-01-01 was a Thursday).
    public static func diaDaSemana(_ dias: Int64) -> Int { Int(((dias + 4) % 7 + 7) % 7) }

    public static func diasNoMes(ano: Int, mes: Int) -> Int {
        switch mes {
        case 2: (ano % 4 == 0 && ano % 100 != 0) || ano % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// `yyyy-mm-dd` of a day number.
    public static func data(_ dias: Int64) -> String {
        let (ano, mes, dia) = civil(dias)
        return "\(pad(ano, 4))-\(pad(mes, 2))-\(pad(dia, 2))"
    }

    /// The day number of `yyyy-mm-dd`; nil for anything else (or an impossible date).
    public static func dias(_ data: String) -> Int64? {
        let bytes = Array(data.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func numero(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else { return nil }
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            }
            return value
        }
        guard let ano = numero(0..<4), let mes = numero(5..<7), let dia = numero(8..<10), ano >= 1,
            (1...12).contains(mes), dia >= 1, dia <= diasNoMes(ano: ano, mes: mes)
        else { return nil }
        return dias(ano: ano, mes: mes, dia: dia)
    }

    /// `yyyy-mm`, the key of monthly documents.
    public static func mes(ano: Int, mes: Int) -> String { "\(pad(ano, 4))-\(pad(mes, 2))" }

    /// A month as one number (`ano * 12 + mes - 1`), for in-memory keys.
    static func indiceDoMes(ano: Int, mes: Int) -> Int32 { Int32(ano * 12 + mes - 1) }

    static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }

    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }
}

/// A unit's wall clock: the UTC offset of any instant, looked up once per quarter hour (every
/// time zone changes offset on a quarter hour) and remembered.
struct RelogioLocal: Sendable {
    let fuso: TimeZone
    private var cache: [Int64: Int32] = [:]

    /// An unknown identifier falls back to America/Sao_Paulo, the platform's default zone.
    init(_ identificador: String) {
        fuso = TimeZone(identifier: identificador) ?? TimeZone(identifier: "America/Sao_Paulo") ?? .gmt
    }

    /// Seconds to add to a UTC instant (seconds since 1970) to read the wall clock.
    mutating func deslocamento(_ instante: Int64) -> Int64 {
        let quarto = CalendarioAnalitico.floorDiv(instante, 900)
        if let known = cache[quarto] { return Int64(known) }
        let offset = fuso.secondsFromGMT(for: Date(timeIntervalSince1970: Double(quarto * 900)))
        cache[quarto] = Int32(offset)
        return Int64(offset)
    }
}
