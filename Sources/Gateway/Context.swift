import Domain
import EventStore
import Foundation
public import Hummingbird
public import NIOCore
public import Services

/// Per-request state every route and middleware shares.
public struct GatewayContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public var requestId: String
    /// The verified bearer token's subject, when the request carried a valid one.
    public var subject: TokenIssuer.Subject?
    /// The request's `Idempotency-Key` scoped to its caller, once the key is claimed (or, for a
    /// route whose command keeps it, ``Operation/chaveNoComando``, once it is valid).
    public var idempotencyKey: String?
    /// The fingerprint of the request, when its key is left to the command (``Operation/chaveNoComando``).
    public var requestFingerprint: String?
    /// Where a command records what it appended (set by the API for the commands it answers).
    public var receipt: WriteReceipt?
    /// The caller's account check, when ``AuthMiddleware`` left it to the command
    /// (``ContasAdiadas``); until it passes, `subject` holds the token's role and no plan.
    public var conta: ContaPendente?
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        requestId = EventIDs.random().lowercasedString
        subject = nil
        idempotencyKey = nil
        requestFingerprint = nil
        receipt = nil
        conta = nil
        remoteAddress = source.channel.remoteAddress
    }

    /// Bodies above this are refused with 413.
    public var maxUploadSize: Int { 256 * 1024 }

    /// Once the pending account check passed: today's role and plan in `subject`, nothing pending.
    mutating func verificada(_ acesso: ContaPendente.Acesso) {
        if let subject {
            self.subject = TokenIssuer.Subject(usuario: subject.usuario, papel: acesso.papel, emitidoEm: subject.emitidoEm, plano: acesso.plano)
        }
        conta = nil
    }

    /// The caller as the services see it.
    public var caller: Caller {
        Caller(
            requestId: requestId, usuario: subject?.usuario, papel: subject?.papel, idempotencyKey: idempotencyKey, plano: subject?.plano,
            receipt: receipt, conta: conta, requestFingerprint: requestFingerprint)
    }

    /// The authenticated user, or a 401.
    public func requireUser() throws -> TokenIssuer.Subject {
        guard let subject else { throw ServiceError.naoAutenticado }
        return subject
    }

    public func requireAdmin() throws -> TokenIssuer.Subject {
        let subject = try requireUser()
        guard subject.papel == "admin" else { throw ServiceError.proibido("esta rota é só para administradores") }
        return subject
    }
}
