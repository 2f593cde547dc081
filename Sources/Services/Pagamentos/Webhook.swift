import Crypto
public import Domain
public import Foundation

/// A provider's notice that something happened to a charge, as it arrives at our webhook.
public struct AvisoDoProvedor: Codable, Sendable, Equatable {
    public enum Tipo: String, Codable, Sendable {
        case cobrancaPaga = "cobranca.paga"
        case cobrancaRecusada = "cobranca.recusada"
        case reembolsoConcluido = "reembolso.concluido"
    }

    /// The provider's id of this notice: the same notice sent again has the same id.
    public let id: String
    public let tipo: Tipo
    public let cobrancaId: String
    /// Our payment id, as we gave it when creating the charge.
    public let referencia: String
    public let valor: Money
    public let reembolsoId: UUID?
    public let motivo: String?
    public let criadoEm: Date

    public init(id: String, tipo: Tipo, cobrancaId: String, referencia: String, valor: Money, reembolsoId: UUID?, motivo: String?, criadoEm: Date) {
        self.id = id
        self.tipo = tipo
        self.cobrancaId = cobrancaId
        self.referencia = referencia
        self.valor = valor
        self.reembolsoId = reembolsoId
        self.motivo = motivo
        self.criadoEm = criadoEm
    }
}

/// The webhook signature: `X-Sandbox-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>` over
/// `"<t>.<raw body>"` with the shared secret, as real providers do (the timestamp inside the
/// signed text stops an old notice from being replayed later).
public enum AssinaturaDeWebhook {
    public static let cabecalho = "X-Sandbox-Signature"
    /// Notices signed longer ago than this (or this far in the future) are refused.
    public static let tolerancia: TimeInterval = 5 * 60

    public enum Falha: Error, Equatable {
        case ausente
        case malformada
        case expirada(segundos: Int)
        case invalida
    }

    public static func assinar(_ corpo: Data, segredo: Data, em instante: Date) -> String {
        let timestamp = Int(instante.timeIntervalSince1970)
        return "t=\(timestamp),v1=\(hex(mac(corpo, timestamp: timestamp, segredo: segredo)))"
    }

    /// Checks `cabecalho` against the body; throws what is wrong with it.
    public static func verificar(_ corpo: Data, cabecalho: String?, segredo: Data, agora: Date) throws(Falha) {
        guard let cabecalho, !cabecalho.isEmpty else { throw .ausente }
        var timestamp: Int?
        var assinaturas: [String] = []
        for parte in cabecalho.split(separator: ",") {
            let pair = parte.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { throw .malformada }
            switch pair[0] {
            case "t": timestamp = Int(pair[1])
            case "v1": assinaturas.append(pair[1].lowercased())
            default: continue
            }
        }
        guard let timestamp, !assinaturas.isEmpty else { throw .malformada }
        // Any Int may arrive: the age saturates instead of overflowing (a trap took the process down).
        let (diferenca, estourou) = Int(agora.timeIntervalSince1970).subtractingReportingOverflow(timestamp)
        let idade = estourou ? (timestamp > 0 ? Int.min : Int.max) : diferenca
        guard idade.magnitude <= UInt(tolerancia) else { throw .expirada(segundos: idade) }
        // A constant-time comparison of the whole code (a shorter one never matches).
        let valida = assinaturas.contains { texto in
            guard let bytes = bytes(hex: texto) else { return false }
            return HMAC<SHA256>.isValidAuthenticationCode(bytes, authenticating: signed(corpo, timestamp), using: SymmetricKey(data: segredo))
        }
        guard valida else { throw .invalida }
    }

    static func signed(_ corpo: Data, _ timestamp: Int) -> Data {
        Data("\(timestamp).".utf8) + corpo
    }

    static func mac(_ corpo: Data, timestamp: Int, segredo: Data) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: signed(corpo, timestamp), using: SymmetricKey(data: segredo)))
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    static func bytes(hex: String) -> [UInt8]? {
        guard hex.count % 2 == 0 else { return nil }
        var result: [UInt8] = []
        result.reserveCapacity(hex.count / 2)
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            result.append(byte)
            index = next
        }
        return result
    }
}
