public import Crypto
import Domain
public import Foundation
import JWTKit
import Synchronization

/// JWT access tokens (HS256): subject = user id, `papel` = role, `exp` = expiry.
public final class TokenIssuer: Sendable {
    struct Claims: JWTPayload {
        var sub: SubjectClaim
        var exp: ExpirationClaim
        var iat: IssuedAtClaim
        var papel: String

        /// Nothing here: JWTKit would check `exp` against the machine's clock, and the token was
        /// issued by the service's `WallClock` (``TokenIssuer/verify(_:now:)`` checks it with that).
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    /// A verified token's subject and role.
    public struct Subject: Sendable, Equatable {
        public let usuario: String
        public let papel: String
        /// When the token was issued (`iat`): a password change ends the tokens issued before it.
        public let emitidoEm: Date?
        /// The member's plan as the account stands now (not a claim of the token), when the
        /// account was read for this request.
        public let plano: String?

        public init(usuario: String, papel: String, emitidoEm: Date? = nil, plano: String? = nil) {
            self.usuario = usuario
            self.papel = papel
            self.emitidoEm = emitidoEm
            self.plano = plano
        }
    }

    private let keys: JWTKeyCollection
    /// Tokens whose signature was checked, with what they said: a member's every request
    /// carries the same token, and checking it again (parsing, base64, JSON, HMAC) took a
    /// thirtieth of the gateway under a load of bookings. Only a token that verified is kept,
    /// under its whole text; its expiry is still checked on each use, and what can end a token
    /// early (a password change, a suspended account) is checked by the caller against the
    /// account, as before. Emptied when full.
    private let verified = Mutex<[String: (subject: Subject, expiry: Date)]>([:])
    static let verifiedCapacity = 10_000
    public let lifetime: TimeInterval
    /// A key of its own derived from the secret (HKDF), for what must be the same on every
    /// replica and unguessable without the secret: the fingerprints of idempotent requests,
    /// whose bodies may hold a password.
    public let fingerprintKey: SymmetricKey

    /// - Parameter secret: at least 32 bytes (shorter HMAC keys are refused).
    public init(secret: String, lifetime: TimeInterval = 3_600) async throws {
        guard secret.utf8.count >= 32 else {
            throw ServiceError(.interno, codigo: "configuracao", mensagem: "JWT_SECRET must be at least 32 bytes")
        }
        keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        self.lifetime = lifetime
        fingerprintKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: Data(secret.utf8)), info: Data("coworkflow idempotency fingerprint".utf8), outputByteCount: 32)
    }

    /// A token for `usuario` valid from `now` for ``lifetime``, and when it expires.
    public func issue(usuario: String, papel: String, now: Date) async throws -> (token: String, expiraEm: Date) {
        let expiry = now.addingTimeInterval(lifetime)
        let claims = Claims(
            sub: SubjectClaim(value: usuario), exp: ExpirationClaim(value: expiry), iat: IssuedAtClaim(value: now),
            papel: papel)
        return (try await keys.sign(claims), expiry)
    }

    /// The token's subject, or nil when it is malformed, forged or expired at `now` (the same
    /// clock that issued it: a test's manual clock, or the system's).
    public func verify(_ token: String, now: Date) async -> Subject? {
        if let known = verified.withLock({ $0[token] }) {
            return now < known.expiry ? known.subject : nil
        }
        guard let claims = try? await keys.verify(token, as: Claims.self), (try? claims.exp.verifyNotExpired(currentDate: now)) != nil else {
            return nil
        }
        let subject = Subject(usuario: claims.sub.value, papel: claims.papel, emitidoEm: claims.iat.value)
        verified.withLock { verified in
            if verified.count >= Self.verifiedCapacity { verified.removeAll(keepingCapacity: true) }
            verified[token] = (subject, claims.exp.value)
        }
        return subject
    }
}
