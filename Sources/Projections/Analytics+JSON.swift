import Foundation

/// A stored payload analytics could not read: the event type, the byte offset and what was
/// wrong there.
public struct AnalyticsDecodingError: Error, Sendable, CustomStringConvertible {
    public let tipo: String
    public let byte: Int
    public let mensagem: String
    /// The event's place in the store, when the reader knows it.
    public var evento: String?

    public var description: String {
        "analytics cannot read \(tipo)\(evento.map { " at \($0)" } ?? "") (byte \(byte)): \(mensagem)"
    }
}

/// A forward-only reader over the bytes of one JSON document, for the few payload shapes
/// analytics reads: objects, strings, integers, ISO 8601 instants and UUIDs.
///
/// Foundation's `JSONDecoder` builds a tree and boxes every value; reading the fields in place
/// is several times faster, which is what a replay of millions of events needs. Unknown keys
/// are skipped (their values fully checked for balance), so payloads may grow new fields.
struct LeitorJSON {
    struct Invalido: Error {
        let byte: Int
        let mensagem: String
    }

    /// A key's bytes in the document, without the quotes.
    struct Chave {
        let inicio: Int
        let fim: Int
    }

    let bytes: UnsafeRawBufferPointer
    var i = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    func invalido(_ mensagem: String) -> Invalido { Invalido(byte: i, mensagem: mensagem) }

    @inline(__always)
    mutating func pularEspacos() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x0A, 0x0D, 0x09: i += 1
            default: return
            }
        }
    }

    /// The next significant byte, not consumed.
    @inline(__always)
    mutating func espiar() -> UInt8? {
        pularEspacos()
        return i < bytes.count ? bytes[i] : nil
    }

    mutating func esperar(_ byte: UInt8) throws(Invalido) {
        pularEspacos()
        guard i < bytes.count, bytes[i] == byte else { throw invalido("expected '\(Character(Unicode.Scalar(byte)))'") }
        i += 1
    }

    // MARK: Objects and arrays

    mutating func abrirObjeto() throws(Invalido) { try esperar(UInt8(ascii: "{")) }

    /// The next key of the object being read, or nil at its closing brace. `primeira` tracks
    /// whether a comma is due; start it at true after ``abrirObjeto()``.
    mutating func chave(_ primeira: inout Bool) throws(Invalido) -> Chave? {
        guard let next = espiar() else { throw invalido("unterminated object") }
        if next == UInt8(ascii: "}") {
            i += 1
            return nil
        }
        if !primeira { try esperar(UInt8(ascii: ",")) }
        primeira = false
        let (inicio, fim, _) = try stringCrua()
        try esperar(UInt8(ascii: ":"))
        return Chave(inicio: inicio, fim: fim)
    }

    /// Whether another element of the array being read follows (false at its closing bracket).
    mutating func item(_ primeiro: inout Bool) throws(Invalido) -> Bool {
        guard let next = espiar() else { throw invalido("unterminated array") }
        if next == UInt8(ascii: "]") {
            i += 1
            return false
        }
        if !primeiro { try esperar(UInt8(ascii: ",")) }
        primeiro = false
        return true
    }

    func eh(_ chave: Chave, _ nome: StaticString) -> Bool {
        let count = chave.fim - chave.inicio
        guard count == nome.utf8CodeUnitCount else { return false }
        return nome.withUTF8Buffer { texto in
            for offset in 0..<count where bytes[chave.inicio + offset] != texto[offset] { return false }
            return true
        }
    }

    /// Skips one value of any kind.
    mutating func pularValor() throws(Invalido) {
        guard let first = espiar() else { throw invalido("expected a value") }
        switch first {
        case UInt8(ascii: "\""):
            _ = try stringCrua()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var profundidade = 0
            repeat {
                guard i < bytes.count else { throw invalido("unterminated object or array") }
                switch bytes[i] {
                case UInt8(ascii: "\""):
                    _ = try stringCrua()
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): profundidade += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"): profundidade -= 1
                default: break
                }
                i += 1
            } while profundidade > 0
        default:
            let inicio = i
            while i < bytes.count {
                switch bytes[i] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09: break
                default:
                    i += 1
                    continue
                }
                break
            }
            guard i > inicio else { throw invalido("expected a value") }
        }
    }

    /// True (and consumed) when the next value is `null`.
    mutating func nulo() -> Bool {
        guard espiar() == UInt8(ascii: "n"), i + 4 <= bytes.count,
            bytes[i + 1] == UInt8(ascii: "u"), bytes[i + 2] == UInt8(ascii: "l"), bytes[i + 3] == UInt8(ascii: "l")
        else { return false }
        i += 4
        return true
    }

    // MARK: Scalars

    /// The bytes between a string's quotes and whether they hold escapes.
    mutating func stringCrua() throws(Invalido) -> (inicio: Int, fim: Int, escapada: Bool) {
        try esperar(UInt8(ascii: "\""))
        let inicio = i
        var escapada = false
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "\""):
                let fim = i
                i += 1
                return (inicio, fim, escapada)
            case UInt8(ascii: "\\"):
                escapada = true
                i += 2
            default:
                i += 1
            }
        }
        throw invalido("unterminated string")
    }

    mutating func string() throws(Invalido) -> String {
        let (inicio, fim, escapada) = try stringCrua()
        if !escapada { return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[inicio..<fim]), as: UTF8.self) }
        return try desescapar(inicio, fim)
    }

    /// A member id as analytics keys it: UUID-shaped ids lower-cased (services write them in
    /// either case), anything else as it is.
    mutating func idDeUsuario() throws(Invalido) -> String {
        let texto = try string()
        guard texto.utf8.count == 36, texto.utf8.contains(where: { (0x41...0x46).contains($0) }) else { return texto }
        return String(decoding: texto.utf8.map { (0x41...0x46).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    private func desescapar(_ inicio: Int, _ fim: Int) throws(Invalido) -> String {
        var saida: [UInt8] = []
        saida.reserveCapacity(fim - inicio)
        var j = inicio
        func hex4(_ at: Int) throws(Invalido) -> UInt32 {
            guard at + 4 <= fim else { throw Invalido(byte: at, mensagem: "short \\u escape") }
            var value: UInt32 = 0
            for k in at..<(at + 4) {
                guard let digit = LeitorJSON.hex(bytes[k]) else { throw Invalido(byte: k, mensagem: "bad \\u escape") }
                value = value << 4 | UInt32(digit)
            }
            return value
        }
        while j < fim {
            let byte = bytes[j]
            guard byte == UInt8(ascii: "\\") else {
                saida.append(byte)
                j += 1
                continue
            }
            guard j + 1 < fim else { throw Invalido(byte: j, mensagem: "dangling escape") }
            let code = bytes[j + 1]
            j += 2
            switch code {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): saida.append(code)
            case UInt8(ascii: "b"): saida.append(0x08)
            case UInt8(ascii: "f"): saida.append(0x0C)
            case UInt8(ascii: "n"): saida.append(0x0A)
            case UInt8(ascii: "r"): saida.append(0x0D)
            case UInt8(ascii: "t"): saida.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4(j)
                j += 4
                if (0xD800...0xDBFF).contains(scalar), j + 6 <= fim, bytes[j] == UInt8(ascii: "\\"), bytes[j + 1] == UInt8(ascii: "u") {
                    let low = try hex4(j + 2)
                    if (0xDC00...0xDFFF).contains(low) {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        j += 6
                    }
                }
                saida.append(contentsOf: String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8)
            default:
                throw Invalido(byte: j - 1, mensagem: "bad escape")
            }
        }
        return String(decoding: saida, as: UTF8.self)
    }

    static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// A JSON integer; fractions and exponents are refused (money and minutes are integers).
    mutating func inteiro() throws(Invalido) -> Int64 {
        pularEspacos()
        var negativo = false
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") {
            negativo = true
            i += 1
        }
        let inicio = i
        var valor: Int64 = 0
        while i < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) {
            let (vezes, o1) = valor.multipliedReportingOverflow(by: 10)
            let (soma, o2) = vezes.addingReportingOverflow(Int64(bytes[i] - UInt8(ascii: "0")))
            guard !o1, !o2 else { throw invalido("integer out of range") }
            valor = soma
            i += 1
        }
        guard i > inicio else { throw invalido("expected an integer") }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") || bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            throw invalido("expected an integer, found a fraction or exponent")
        }
        return negativo ? -valor : valor
    }

    mutating func int() throws(Invalido) -> Int {
        let value = try inteiro()
        guard let int = Int(exactly: value) else { throw invalido("integer out of range") }
        return int
    }

    /// A UUID string in either case.
    mutating func uuid() throws(Invalido) -> UUID {
        let (inicio, fim, _) = try stringCrua()
        guard fim - inicio == 36 else { throw Invalido(byte: inicio, mensagem: "expected a UUID") }
        var raw: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = 0
        var k = inicio
        while k < fim {
            if k - inicio == 8 || k - inicio == 13 || k - inicio == 18 || k - inicio == 23 {
                guard bytes[k] == UInt8(ascii: "-") else { throw Invalido(byte: k, mensagem: "expected a UUID") }
                k += 1
                continue
            }
            guard let high = Self.hex(bytes[k]), let low = Self.hex(bytes[k + 1]) else {
                throw Invalido(byte: k, mensagem: "expected a UUID")
            }
            let index = n
            withUnsafeMutableBytes(of: &raw) { $0[index] = high << 4 | low }
            n += 1
            k += 2
        }
        return UUID(uuid: raw)
    }

    /// An ISO 8601 instant (`2026-11-21T10:00:00Z`, optional fraction, `Z` or `±hh:mm`) as
    /// whole seconds since 1970 (a fraction is dropped, as the store's encoder writes none).
    mutating func instante() throws(Invalido) -> Int64 {
        let (inicio, fim, escapada) = try stringCrua()
        guard !escapada else { throw Invalido(byte: inicio, mensagem: "expected an ISO 8601 instant") }
        var k = inicio
        func numero(_ digits: Int) throws(Invalido) -> Int64 {
            guard k + digits <= fim else { throw Invalido(byte: k, mensagem: "expected an ISO 8601 instant") }
            var value: Int64 = 0
            for _ in 0..<digits {
                let byte = bytes[k]
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else {
                    throw Invalido(byte: k, mensagem: "expected an ISO 8601 instant")
                }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
                k += 1
            }
            return value
        }
        func separador(_ byte: UInt8) throws(Invalido) {
            guard k < fim, bytes[k] == byte else { throw Invalido(byte: k, mensagem: "expected an ISO 8601 instant") }
            k += 1
        }
        let ano = try numero(4)
        try separador(UInt8(ascii: "-"))
        let mes = try numero(2)
        try separador(UInt8(ascii: "-"))
        let dia = try numero(2)
        try separador(UInt8(ascii: "T"))
        let hora = try numero(2)
        try separador(UInt8(ascii: ":"))
        let minuto = try numero(2)
        try separador(UInt8(ascii: ":"))
        let segundo = try numero(2)
        guard (1...12).contains(mes), dia >= 1, dia <= Int64(CalendarioAnalitico.diasNoMes(ano: Int(ano), mes: Int(mes))),
            hora < 24, minuto < 60, segundo < 61
        else { throw Invalido(byte: inicio, mensagem: "date or time out of range") }
        if k < fim, bytes[k] == UInt8(ascii: ".") {
            k += 1
            while k < fim, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[k]) { k += 1 }
        }
        var deslocamento: Int64 = 0
        guard k < fim else { throw Invalido(byte: k, mensagem: "instant without a time zone") }
        switch bytes[k] {
        case UInt8(ascii: "Z"):
            k += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sinal: Int64 = bytes[k] == UInt8(ascii: "-") ? -1 : 1
            k += 1
            let horas = try numero(2)
            if k < fim, bytes[k] == UInt8(ascii: ":") { k += 1 }
            let minutos = try numero(2)
            deslocamento = sinal * (horas * 3_600 + minutos * 60)
        default:
            throw Invalido(byte: k, mensagem: "instant without a time zone")
        }
        guard k == fim else { throw Invalido(byte: k, mensagem: "trailing characters after the instant") }
        let dias = CalendarioAnalitico.dias(ano: Int(ano), mes: Int(mes), dia: Int(dia))
        return dias * 86_400 + hora * 3_600 + minuto * 60 + segundo - deslocamento
    }
}
