import Crypto
import EventStore
import Foundation
import Services
import Synchronization

/// `Idempotency-Key` on mutating requests: a retry with the same key and body gets the first
/// answer again; the same key with another body is a 422; a retry while the first is still
/// running is a 409. The answers live in the store (`request_keys`) for 24 h, so every replica
/// of a service replays the same first answer. A route whose command keeps its key itself
/// (``Operation/chaveNoComando``: a booking) claims nothing here.
final class Idempotency: Sendable {
    let keys: any RequestKeys
    /// Keys the fingerprints (HMAC): a body's hash is stored, and a body may hold a password,
    /// which a plain SHA-256 would let anyone who reads the table test guesses against.
    let fingerprintKey: SymmetricKey
    let lifetime: TimeInterval = 24 * 3_600
    /// A request still "running" after this long died with its process; a retry may take over.
    let staleAfter: TimeInterval = 120
    private let claims = Atomic<Int>(0)
    /// When this process last purged expired keys (seconds since 1970).
    private let purgedAt = Atomic<Int>(0)

    init(keys: any RequestKeys, fingerprintKey: SymmetricKey) {
        self.keys = keys
        self.fingerprintKey = fingerprintKey
    }

    enum Lookup {
        case proceed
        case replay(Reply)
    }

    /// Claims `key` for the request `method path body`. When the stored fingerprint does not
    /// match, the one builds before the HMAC kept (a plain SHA-256) is tried, so that a retry
    /// across the upgrade still gets its first answer (keys live 24 h; the fallback can go after
    /// that).
    func begin(key: String, method: String, path: String, body: Data) async throws -> Lookup {
        let now = Date()
        let seconds = Int(now.timeIntervalSince1970)
        // Every thousandth claim, and at least hourly when there is any traffic: expired answers
        // (tokens, personal data) do not linger in the table on a quiet deployment.
        if claims.add(1, ordering: .relaxed).newValue.isMultiple(of: 1_000) || purgedAt.load(ordering: .relaxed) < seconds - 3_600 {
            purgedAt.store(seconds, ordering: .relaxed)
            _ = try? await keys.purgeRequestKeys(before: now.addingTimeInterval(-lifetime))
        }
        var claim = try await keys.claimRequestKey(
            key, fingerprint: fingerprint(method: method, path: path, body: body), at: now, expireBefore: now.addingTimeInterval(-lifetime),
            staleBefore: now.addingTimeInterval(-staleAfter))
        if case .mismatch = claim {
            claim = try await keys.claimRequestKey(
                key, fingerprint: Self.legacyFingerprint(method: method, path: path, body: body), at: now,
                expireBefore: now.addingTimeInterval(-lifetime), staleBefore: now.addingTimeInterval(-staleAfter))
        }
        switch claim {
        case .claimed:
            return .proceed
        case .replay(let reply):
            return .replay(reply)
        case .inProgress:
            throw ServiceError.conflito("requisicao_em_andamento", "a primeira requisição com esta Idempotency-Key ainda está em andamento")
        case .mismatch:
            throw ServiceError(
                .invalido, codigo: "chave_de_idempotencia_reutilizada", mensagem: "esta Idempotency-Key já foi usada com outra requisição")
        }
    }

    /// Keeps the answer; answers that say "try again" (409, 423, 429, 5xx) are forgotten, so a
    /// retry runs again, and so is a 401 (a token whose account no longer counts, found by the
    /// command: ``Services/ContaPendente``), which says nothing of the request, so that the same
    /// key with a new token, or once the account counts again, runs.
    func finish(key: String, reply: Reply?) async {
        let kept = reply.flatMap { $0.status < 500 && ![401, 409, 423, 429].contains($0.status) ? $0 : nil }
        // Not kept (the store failed): the key stays "running" until it is stale, and a retry
        // in between gets a 409, never a second effect.
        try? await keys.completeRequestKey(key, reply: kept)
    }

    /// The fingerprint a command that keeps its own key records with what it makes
    /// (``Operation/chaveNoComando``): a plain SHA-256 of method, path and body, since it lasts as
    /// long as the events do, beyond any rotation of the key the HMAC takes (`JWT_SECRET`), and
    /// the body it hashes is in those events already (a booking's: its space, times, payment).
    static func digest(method: String, path: String, body: Data) -> String {
        legacyFingerprint(method: method, path: path, body: body)
    }

    /// The fingerprint of builds before the HMAC (see ``begin(key:method:path:body:)``).
    static func legacyFingerprint(method: String, path: String, body: Data) -> String {
        var hasher = SHA256()
        hasher.update(data: Data("\(method) \(path)\n".utf8))
        hasher.update(data: body)
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }

    func fingerprint(method: String, path: String, body: Data) -> String {
        var hmac = HMAC<SHA256>(key: fingerprintKey)
        hmac.update(data: Data("\(method) \(path)\n".utf8))
        hmac.update(data: body)
        return hmac.finalize().map { String(format: "%02x", $0) }.joined()
    }
}

/// What a route answers, before it becomes a `Response` (so it can be stored and replayed).
typealias Reply = StoredReply
