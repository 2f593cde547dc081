import Crypto
import Foundation
import Services
import Synchronization

/// `Idempotency-Key` on mutating requests: a retry with the same key and body gets the first
/// answer again; the same key with another body is a 422; a retry while the first is still
/// running is a 409. Kept in memory for 24 h (per process).
public final class IdempotencyCache: Sendable {
    struct Stored: Sendable {
        let fingerprint: String
        var reply: Reply?
        let at: Date
    }

    private let entries = Mutex<[String: Stored]>([:])
    let lifetime: TimeInterval = 24 * 3_600

    public init() {}

    enum Lookup {
        case proceed
        case replay(Reply)
    }

    func begin(key: String, fingerprint: String) throws -> Lookup {
        let now = Date()
        return try entries.withLock { entries in
            if entries.count > 100_000 { entries = entries.filter { now.timeIntervalSince($0.value.at) < lifetime } }
            if let stored = entries[key], now.timeIntervalSince(stored.at) < lifetime {
                guard stored.fingerprint == fingerprint else {
                    throw ServiceError(
                        status: 422, codigo: "chave_de_idempotencia_reutilizada",
                        mensagem: "esta Idempotency-Key já foi usada com outra requisição")
                }
                guard let reply = stored.reply else {
                    throw ServiceError.conflito("requisicao_em_andamento", "a primeira requisição com esta Idempotency-Key ainda está em andamento")
                }
                return .replay(reply)
            }
            entries[key] = Stored(fingerprint: fingerprint, reply: nil, at: now)
            return .proceed
        }
    }

    func finish(key: String, reply: Reply?) {
        entries.withLock { entries in
            // Answers that say "try again" (409, 423, 429, 5xx) are forgotten, so a retry runs again.
            if let reply, reply.status < 500, ![409, 423, 429].contains(reply.status) {
                entries[key]?.reply = reply
            } else {
                entries[key] = nil
            }
        }
    }

    static func fingerprint(method: String, path: String, body: Data) -> String {
        var hasher = SHA256()
        hasher.update(data: Data("\(method) \(path)\n".utf8))
        hasher.update(data: body)
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }
}

/// What a route answers, before it becomes a `Response` (so it can be stored and replayed).
struct Reply: Sendable {
    var status: Int
    var body: Data?
    var headers: [String: String] = [:]
}
