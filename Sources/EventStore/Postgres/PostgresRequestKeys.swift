public import Foundation
import PostgresNIO

extension PostgresEventStore {
    public func claimRequestKey(
        _ key: String, fingerprint: String, at now: Date, expireBefore: Date, staleBefore: Date
    ) async throws
        -> RequestKeyClaim
    {
        let created = now.epochMilliseconds
        let expired = expireBefore.epochMilliseconds
        let stale = staleBefore.epochMilliseconds
        // A record that vanished between the two statements (released) is claimed on the next turn.
        for _ in 0..<3 {
            let claimed = try await fetch(
                """
                INSERT INTO request_keys (key, fingerprint, created_ms) VALUES (\(key), \(fingerprint), \(created))
                ON CONFLICT (key) DO UPDATE
                    SET fingerprint = EXCLUDED.fingerprint, created_ms = EXCLUDED.created_ms, status = NULL, body = NULL, headers = NULL
                    WHERE request_keys.created_ms < \(expired) OR (request_keys.status IS NULL AND request_keys.created_ms < \(stale))
                RETURNING key
                """, logger: logger)
            if !claimed.isEmpty { return .claimed }
            let rows = try await fetch(
                "SELECT fingerprint, status, body, headers FROM request_keys WHERE key = \(key)", logger: logger)
            guard let row = rows.first else { continue }
            let (stored, status, body, headers) = try row.decode((String, Int?, Data?, String?).self)
            guard stored == fingerprint else { return .mismatch }
            guard let status else { return .inProgress }
            let fields = headers.flatMap { try? JSONDecoder().decode([String: String].self, from: Data($0.utf8)) } ?? [:]
            return .replay(StoredReply(status: status, body: body, headers: fields))
        }
        return .inProgress
    }

    public func completeRequestKey(_ key: String, reply: StoredReply?) async throws {
        if let reply {
            let headers = String(decoding: try JSONEncoder().encode(reply.headers), as: UTF8.self)
            try await execute(
                "UPDATE request_keys SET status = \(reply.status), body = \(reply.body), headers = \(headers) WHERE key = \(key)",
                logger: logger)
        } else {
            try await execute("DELETE FROM request_keys WHERE key = \(key) AND status IS NULL", logger: logger)
        }
    }

    public func purgeRequestKeys(before date: Date) async throws -> Int {
        let rows = try await fetch(
            "WITH gone AS (DELETE FROM request_keys WHERE created_ms < \(date.epochMilliseconds) RETURNING 1) SELECT count(*) FROM gone",
            logger: logger)
        return Int(try rows.first?.decode(Int64.self) ?? 0)
    }

    public func forgetRequestKeys(mentioning text: String) async throws -> Int {
        guard !text.isEmpty else { return 0 }
        let rows = try await fetch(
            "WITH gone AS (DELETE FROM request_keys WHERE position(convert_to(\(text), 'UTF8') IN body) > 0 RETURNING 1) SELECT count(*) FROM gone",
            logger: logger)
        return Int(try rows.first?.decode(Int64.self) ?? 0)
    }
}
