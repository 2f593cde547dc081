public import Domain
import Foundation

/// Calendar arithmetic on day numbers (days since 1970-01-01), without Foundation's calendar:
/// a replay splits every booking into local days and hours, and `Calendar` costs microseconds
/// a call. Dates are proleptic Gregorian (``CivilDays``).
public enum CalendarioAnalitico {
    /// The day number of a civil date.
    public static func dias(ano: Int, mes: Int, dia: Int) -> Int64 {
        CivilDays.days(Int64(ano), Int64(mes), Int64(dia))
    }

    /// The civil date of a day number.
    public static func civil(_ dias: Int64) -> (ano: Int, mes: Int, dia: Int) {
        let (ano, mes, dia) = CivilDays.civil(dias)
        return (Int(ano), Int(mes), Int(dia))
    }

    /// 0 = domingo … 6 = sábado (1970-01-01 was a Thursday).
    public static func diaDaSemana(_ dias: Int64) -> Int { CivilDays.weekday(dias) }

    public static func diasNoMes(ano: Int, mes: Int) -> Int {
        Int(CivilDays.daysInMonth(Int64(ano), Int64(mes)))
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

    /// `AAAA-MM` of a local date.
    public static func mes(_ dia: DataLocal) -> String { mes(ano: dia.ano, mes: dia.mes) }

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
        fuso = Unidade.fuso(identificador)
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
