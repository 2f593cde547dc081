public import Foundation
import GRDB

extension SQLiteEventStore {
    public func claimRequestKey(
        _ key: String, fingerprint: String, at now: Date, expireBefore: Date, staleBefore: Date
    ) async throws
        -> RequestKeyClaim
    {
        let created = now.epochMilliseconds
        let expired = expireBefore.epochMilliseconds
        let stale = staleBefore.epochMilliseconds
        return try await database.write { db in
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT fingerprint, created_ms, status, body, headers FROM request_keys WHERE key = ?"),
                arguments: [key])
            if let row {
                let status: Int? = row["status"]
                let createdAt: Int64 = row["created_ms"]
                let reusable = createdAt < expired || (status == nil && createdAt < stale)
                if !reusable {
                    guard row["fingerprint"] as String == fingerprint else { return .mismatch }
                    guard let status else { return .inProgress }
                    let headers: String? = row["headers"]
                    let fields = headers.flatMap { try? JSONDecoder().decode([String: String].self, from: Data($0.utf8)) } ?? [:]
                    return .replay(StoredReply(status: status, body: row["body"], headers: fields))
                }
            }
            try db.cachedStatement(sql: "INSERT OR REPLACE INTO request_keys (key, fingerprint, created_ms) VALUES (?, ?, ?)")
                .execute(arguments: [key, fingerprint, created])
            return .claimed
        }
    }

    public func completeRequestKey(_ key: String, reply: StoredReply?) async throws {
        let headers = try reply.map { String(decoding: try JSONEncoder().encode($0.headers), as: UTF8.self) }
        try await database.write { db in
            if let reply {
                try db.cachedStatement(sql: "UPDATE request_keys SET status = ?, body = ?, headers = ? WHERE key = ?")
                    .execute(arguments: [reply.status, reply.body, headers, key])
            } else {
                try db.cachedStatement(sql: "DELETE FROM request_keys WHERE key = ? AND status IS NULL").execute(arguments: [key])
            }
        }
    }

    public func purgeRequestKeys(before date: Date) async throws -> Int {
        try await database.write { db in
            try db.cachedStatement(sql: "DELETE FROM request_keys WHERE created_ms < ?").execute(arguments: [date.epochMilliseconds])
            return db.changesCount
        }
    }

    public func forgetRequestKeys(mentioning text: String) async throws -> Int {
        guard !text.isEmpty else { return 0 }
        return try await database.write { db in
            try db.execute(sql: "DELETE FROM request_keys WHERE instr(body, ?) > 0", arguments: [Data(text.utf8)])
            return db.changesCount
        }
    }
}
