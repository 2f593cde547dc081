import Domain
import Foundation

/// A failure a client can act on, with the HTTP status and the stable code the gateway renders
/// as `{ "erro": codigo, "mensagem": mensagem, "detalhes": detalhes }` (DESIGN §7).
public struct ServiceError: Error, Sendable, Equatable, CustomStringConvertible {
    public let status: Int
    public let codigo: String
    public let mensagem: String
    public let detalhes: [String: String]
    /// Seconds to wait before trying again (429, 423, 503).
    public let retryAfter: Int?

    public init(status: Int, codigo: String, mensagem: String, detalhes: [String: String] = [:], retryAfter: Int? = nil) {
        self.status = status
        self.codigo = codigo
        self.mensagem = mensagem
        self.detalhes = detalhes
        self.retryAfter = retryAfter
    }

    public var description: String { "\(status) \(codigo): \(mensagem)" }

    /// 422: the request is well-formed but a value breaks a rule; `campo` names it.
    public static func invalido(_ campo: String, _ mensagem: String) -> ServiceError {
        ServiceError(status: 422, codigo: "dados_invalidos", mensagem: mensagem, detalhes: ["campo": campo])
    }

    /// 400: the body is not what the route takes (not JSON, wrong types, missing fields).
    public static func requisicaoInvalida(_ mensagem: String, detalhes: [String: String] = [:]) -> ServiceError {
        ServiceError(status: 400, codigo: "requisicao_invalida", mensagem: mensagem, detalhes: detalhes)
    }

    public static let naoAutenticado = ServiceError(
        status: 401, codigo: "nao_autenticado", mensagem: "envie um token válido em Authorization: Bearer <token>")

    public static func proibido(_ mensagem: String) -> ServiceError {
        ServiceError(status: 403, codigo: "proibido", mensagem: mensagem)
    }

    public static func naoEncontrado(_ mensagem: String) -> ServiceError {
        ServiceError(status: 404, codigo: "nao_encontrado", mensagem: mensagem)
    }

    /// 422 naming `campo` when a free text breaks ``TextoLivre``'s rule for `maximo` characters
    /// (after trimming): longer than that many characters or ``TextoLivre/maximoDeBytes(_:)``
    /// UTF-8 bytes, or in a sealed field's form. Stored texts are bounded, so no request can grow
    /// a stream, a read model or an e-mail without limit.
    public static func texto(_ value: String?, campo: String, maximo: Int) throws(ServiceError) {
        guard let value, let problema = TextoLivre.problema(value.trimmingCharacters(in: .whitespacesAndNewlines), maximo: maximo)
        else { return }
        throw .invalido(campo, TextoLivre.mensagem(problema, campo: campo, maximo: maximo))
    }

    public static func conflito(_ codigo: String, _ mensagem: String) -> ServiceError {
        ServiceError(status: 409, codigo: codigo, mensagem: mensagem)
    }

    public static func indisponivel(_ mensagem: String, retryAfter: Int = 5) -> ServiceError {
        ServiceError(status: 503, codigo: "indisponivel", mensagem: mensagem, retryAfter: retryAfter)
    }
}

/// Who asks, and from which request: what every command records in its events' metadata.
public struct Caller: Sendable {
    public let requestId: String
    /// The authenticated user id, or nil.
    public let usuario: String?
    public let papel: String?
    /// The request's `Idempotency-Key`, scoped to its caller, when it carried one: a command
    /// that creates something derives the new id from it, so a retry whose first answer was
    /// lost finds what the first attempt made instead of making it twice.
    public let idempotencyKey: String?
    /// The caller's plan (its price rules apply to the caller's quotes and bookings), read with
    /// the account when the request was authenticated.
    public let plano: String?

    public init(requestId: String, usuario: String? = nil, papel: String? = nil, idempotencyKey: String? = nil, plano: String? = nil) {
        self.requestId = requestId
        self.usuario = usuario
        self.papel = papel
        self.idempotencyKey = idempotencyKey
        self.plano = plano
    }

}

extension TextoLivre {
    /// "sem começar com 'pii:'", for messages that list a field's rules.
    static var foraDaFormaSelada: String { "sem começar com '\(prefixoSelado)'" }

    /// What to tell a client whose `campo` broke the rule for `maximo` characters.
    static func mensagem(_ problema: Problema, campo: String, maximo: Int) -> String {
        switch problema {
        case .longo: "o campo '\(campo)' passa do limite: \(limite(maximo))"
        case .formaSelada: "o campo '\(campo)' não pode começar com '\(prefixoSelado)' (a forma reservada aos dados pessoais cifrados)"
        }
    }
}
