import Domain
import Foundation

/// A failure a client can act on: what kind of failure it is, a stable code and a message that
/// says what to change. Services speak only of kinds; the gateway alone turns a kind into an
/// HTTP status and the error into `{ "erro": codigo, "mensagem": mensagem, "detalhes": detalhes }`
/// (DESIGN §7, `Gateway/ErrorStatus.swift`).
public struct ServiceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, in the terms a caller can act on.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// The request is not what the operation takes (not JSON, wrong types, missing fields).
        case requisicaoInvalida
        /// The caller did not prove who they are (or their proof is stale).
        case naoAutenticado
        /// The caller is known but may not do this.
        case proibido
        /// What the request names does not exist (or is not the caller's to see).
        case naoEncontrado
        /// The request is valid but the current state refuses it (taken, already done, changed).
        case conflito
        /// The request is well-formed but a value breaks a rule; `detalhes["campo"]` names it.
        case invalido
        /// The account is locked for a while (`retryAfter`).
        case bloqueado
        /// Too many attempts; try again after `retryAfter`.
        case limiteExcedido
        /// A fault of ours, not of the request.
        case interno
        /// A dependency is down or not ready yet; try again after `retryAfter`.
        case indisponivel
    }

    public let kind: Kind
    public let codigo: String
    public let mensagem: String
    public let detalhes: [String: String]
    /// Seconds to wait before trying again (``Kind/limiteExcedido``, ``Kind/bloqueado``, ``Kind/indisponivel``).
    public let retryAfter: Int?
    /// What lay behind it, for the log only: never in the answer (a stream, a version).
    public var causa: String?

    public init(_ kind: Kind, codigo: String, mensagem: String, detalhes: [String: String] = [:], retryAfter: Int? = nil) {
        self.kind = kind
        self.codigo = codigo
        self.mensagem = mensagem
        self.detalhes = detalhes
        self.retryAfter = retryAfter
    }

    public var description: String { "\(kind.rawValue) \(codigo): \(mensagem)" }

    /// The request is well-formed but a value breaks a rule; `campo` names it.
    public static func invalido(_ campo: String, _ mensagem: String) -> ServiceError {
        ServiceError(.invalido, codigo: "dados_invalidos", mensagem: mensagem, detalhes: ["campo": campo])
    }

    /// The body is not what the route takes (not JSON, wrong types, missing fields).
    public static func requisicaoInvalida(_ mensagem: String, detalhes: [String: String] = [:]) -> ServiceError {
        ServiceError(.requisicaoInvalida, codigo: "requisicao_invalida", mensagem: mensagem, detalhes: detalhes)
    }

    public static let naoAutenticado = ServiceError(
        .naoAutenticado, codigo: "nao_autenticado", mensagem: "envie um token válido em Authorization: Bearer <token>")

    public static func proibido(_ mensagem: String) -> ServiceError {
        ServiceError(.proibido, codigo: "proibido", mensagem: mensagem)
    }

    public static func naoEncontrado(_ mensagem: String) -> ServiceError {
        ServiceError(.naoEncontrado, codigo: "nao_encontrado", mensagem: mensagem)
    }

    /// ``Kind/invalido`` naming `campo` when a free text breaks ``TextoLivre``'s rule for `maximo` characters
    /// (counted as sent, blanks around it included): longer than that many characters or ``TextoLivre/maximoDeBytes(_:)``
    /// UTF-8 bytes, or in a sealed field's form. Stored texts are bounded, so no request can grow
    /// a stream, a read model or an e-mail without limit.
    public static func texto(_ value: String?, campo: String, maximo: Int) throws(ServiceError) {
        guard let value, let problema = TextoLivre.problema(value, maximo: maximo)
        else { return }
        throw .invalido(campo, TextoLivre.mensagem(problema, campo: campo, maximo: maximo))
    }

    public static func conflito(_ codigo: String, _ mensagem: String) -> ServiceError {
        ServiceError(.conflito, codigo: codigo, mensagem: mensagem)
    }

    public static func indisponivel(_ mensagem: String, retryAfter: Int = 5) -> ServiceError {
        ServiceError(.indisponivel, codigo: "indisponivel", mensagem: mensagem, retryAfter: retryAfter)
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
    /// The fingerprint of the request's method, path and body, when its `Idempotency-Key` is
    /// left to the command (the edge keeps no answer for it): the command records it with what
    /// it makes, and a later request with the key and another fingerprint is a 422.
    public let requestFingerprint: String?
    /// The caller's plan (its price rules apply to the caller's quotes and bookings), read with
    /// the account when the request was authenticated.
    public let plano: String?
    /// Where the command records what it appended, when its caller asked to know (the HTTP
    /// edge does, for read-your-writes); nil for timers, reactions and tools.
    public let receipt: WriteReceipt?
    /// The account's check, when the edge left it to the command (``ContaPendente``): until it
    /// passes, `papel` is the token's and `plano` unknown. Nil: the edge checked it.
    public let conta: ContaPendente?

    public init(
        requestId: String, usuario: String? = nil, papel: String? = nil, idempotencyKey: String? = nil, plano: String? = nil,
        receipt: WriteReceipt? = nil, conta: ContaPendente? = nil, requestFingerprint: String? = nil
    ) {
        self.requestId = requestId
        self.usuario = usuario
        self.papel = papel
        self.idempotencyKey = idempotencyKey
        self.requestFingerprint = requestFingerprint
        self.plano = plano
        self.receipt = receipt
        self.conta = conta
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
