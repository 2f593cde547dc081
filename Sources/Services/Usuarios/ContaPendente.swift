import EventStore
public import Foundation
import Synchronization

/// A caller's account not yet checked: the edge verified the token and left the account's
/// check (active, not erased, no password change since the token was issued; its role and plan
/// today) to the command, which reads it with everything else it reads ahead, in one round
/// trip instead of two (a booking: ``ReservasService/solicitar(_:usuario:caller:)``).
///
/// Whoever holds one must check it before any effect and before answering anything but a
/// failure: ``verificar(prefetched:)`` throws 401 `token_invalido` for an account that no
/// longer counts. The edge checks it itself when the command did not (a failure, a replayed
/// answer): see the gateway's `API`.
public final class ContaPendente: Sendable {
    /// The role and plan of an account that counts.
    public struct Acesso: Sendable, Equatable {
        public let papel: String
        public let plano: String?
    }

    let usuarios: UsuariosService
    public let usuario: String
    let emitidoEm: Date?
    /// As the edge's own check would have taken it (ADR 0005: a service behind the gateway).
    let staleness: Duration?
    private let checked = Mutex<Acesso?>(nil)

    public init(usuarios: UsuariosService, usuario: String, emitidoEm: Date?, staleness: Duration?) {
        self.usuarios = usuarios
        self.usuario = usuario
        self.emitidoEm = emitidoEm
        self.staleness = staleness
    }

    /// What checking it reads, for a command's read ahead (nil once checked, or for an id that
    /// names no account: ``verificar(prefetched:)`` fails it without a read).
    var leitura: StreamRead? {
        checked.withLock { $0 } == nil ? usuarios.leituraDaConta(usuario) : nil
    }

    /// The account's role and plan today, read now; checked once, then answered again. Throws
    /// 401 `token_invalido` when the account does not count (as the edge's check does).
    @discardableResult
    public func verificar() async throws -> Acesso {
        try await verificar(prefetched: nil)
    }

    /// ``verificar()`` from `prefetched` when it holds the account's read (``leitura``).
    @discardableResult
    func verificar(prefetched: Prefetched?) async throws -> Acesso {
        if let acesso = checked.withLock({ $0 }) { return acesso }
        // Read ahead: as fresh as a read now, fresher than a state a read confirmed a moment ago.
        guard
            let conta = try await usuarios.acesso(
                usuario: usuario, emitidoEm: emitidoEm, staleness: prefetched == nil ? staleness : nil, prefetched: prefetched)
        else { throw Self.invalido }
        let acesso = Acesso(papel: conta.papel, plano: conta.plano)
        checked.withLock { $0 = acesso }
        return acesso
    }

    /// The check's answer, once made.
    public var verificada: Acesso? { checked.withLock { $0 } }

    /// What a token whose account does not count gets, wherever it is checked.
    public static var invalido: ServiceError {
        ServiceError(.naoAutenticado, codigo: "token_invalido", mensagem: "o token é inválido ou expirou; faça login de novo")
    }
}

extension Caller {
    /// The caller once its pending account check passed: today's role and plan, nothing pending.
    func verificado(_ acesso: ContaPendente.Acesso) -> Caller {
        Caller(
            requestId: requestId, usuario: usuario, papel: acesso.papel, idempotencyKey: idempotencyKey, plano: acesso.plano, receipt: receipt,
            requestFingerprint: requestFingerprint)
    }

    /// The caller with its account checked now (a read of its own) when the check was left to
    /// the command; itself otherwise.
    func comContaVerificada(prefetched: Prefetched? = nil) async throws -> Caller {
        guard let conta else { return self }
        return verificado(try await conta.verificar(prefetched: prefetched))
    }
}
