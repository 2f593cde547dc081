/// A Brazilian company registration number (Cadastro Nacional da Pessoa Jurídica), check
/// digits verified: 14 characters, the first 12 digits or (since July 2026) capital letters,
/// the last two digits. Each character counts as its ASCII code minus 48 (a digit its value,
/// `A` 17, … `Z` 42), the Receita Federal's rule for both the numeric and the alphanumeric form.
public struct CNPJ: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The 14 characters, without punctuation, letters in capitals.
    public let rawValue: String

    /// Nil unless `texto` (with or without `.`, `/`, `-` and spaces) is a valid CNPJ.
    public init?(_ texto: String) {
        let caracteres = Array(texto.uppercased().filter { !".-/ ".contains($0) })
        guard caracteres.count == 14, caracteres.allSatisfy({ $0.isASCII && ($0.isNumber || $0.isLetter) }),
            caracteres[12...].allSatisfy(\.isNumber)
        else { return nil }
        // All the same digit passes the arithmetic and is not a number the Receita issues.
        guard Set(caracteres).count > 1 else { return nil }
        let valores = caracteres.compactMap { $0.asciiValue.map { Int($0) - 48 } }
        guard Self.digito(valores[0..<12]) == valores[12], Self.digito(valores[0..<13]) == valores[13] else { return nil }
        rawValue = String(caracteres)
    }

    /// The check digit of `valores` (12 or 13 of them): weights 2…9 from the right, cycling.
    static func digito(_ valores: ArraySlice<Int>) -> Int {
        var soma = 0
        for (indice, valor) in valores.reversed().enumerated() { soma += valor * (2 + indice % 8) }
        let resto = soma % 11
        return resto < 2 ? 0 : 11 - resto
    }

    /// `12.345.678/0001-95`.
    public var formatado: String {
        let c = Array(rawValue)
        return "\(String(c[0..<2])).\(String(c[2..<5])).\(String(c[5..<8]))/\(String(c[8..<12]))-\(String(c[12..<14]))"
    }

    public var description: String { formatado }

    public init(from decoder: any Decoder) throws {
        let texto = try decoder.singleValueContainer().decode(String.self)
        guard let cnpj = CNPJ(texto) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "CNPJ inválido"))
        }
        self = cnpj
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
