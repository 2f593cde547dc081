public import Foundation
import GRDB

extension SQLiteEventStore {
    /// One document (its text's bytes as stored, in one copy).
    static let documentSQL = "SELECT doc FROM read_models WHERE collection = ? AND key = ?"

    public func document(_ collection: String, key: String) async throws -> Data? {
        try await database.snapshot { db in try Data.fetchOne(db.cachedStatement(sql: Self.documentSQL), arguments: [collection, key]) }
    }

    /// The documents of `keys` in one read (one hop to a reader of the pool, one snapshot), not
    /// one read a key: a runner asks for a whole batch's documents ahead of it.
    public func documents(_ collection: String, keys: [String]) async throws -> [String: Data] {
        let keys = Set(keys)
        guard !keys.isEmpty else { return [:] }
        return try await database.snapshot(statements: keys.count) { db in
            let statement = try db.cachedStatement(sql: Self.documentSQL)
            var found: [String: Data] = [:]
            for key in keys {
                if let doc = try Data.fetchOne(statement, arguments: [collection, key]) { found[key] = doc }
            }
            return found
        }
    }

    public func documents(_ collection: String, grupo: String?, limit: Int, offset: Int) async throws -> [Data] {
        try await database.snapshot { db in
            if let grupo {
                try Data.fetchAll(
                    db.cachedStatement(
                        sql: """
                            SELECT doc FROM read_models WHERE collection = ? AND grupo = ? ORDER BY ordem, key LIMIT ? OFFSET ?
                            """), arguments: [collection, grupo, limit, offset])
            } else {
                try Data.fetchAll(
                    db.cachedStatement(
                        sql: """
                            SELECT doc FROM read_models WHERE collection = ? ORDER BY ordem, key LIMIT ? OFFSET ?
                            """), arguments: [collection, limit, offset])
            }
        }
    }

    public func count(_ collection: String, grupo: String?) async throws -> Int {
        try await database.snapshot { db in
            if let grupo {
                return try Int.fetchOne(
                    db.cachedStatement(sql: "SELECT count(*) FROM read_models WHERE collection = ? AND grupo = ?"),
                    arguments: [collection, grupo]) ?? 0
            }
            return try Int.fetchOne(
                db.cachedStatement(sql: "SELECT count(*) FROM read_models WHERE collection = ?"),
                arguments: [collection]) ?? 0
        }
    }

    public func checkpointMark(_ name: String) async throws -> CheckpointMark {
        try await database.snapshot { db in try Self.mark(name, in: db) }
    }

    @discardableResult
    public func commit(
        _ changes: [ReadModelChange], checkpoint name: String, at position: GlobalPosition, from previous: CheckpointMark?
    ) async throws
        -> CheckpointMark
    {
        try await database.write { db in
            if let previous {
                guard try Self.mark(name, in: db) == previous else { throw EventStoreError.checkpointMoved(name, expected: previous) }
            }
            for change in changes {
                if let doc = change.doc {
                    try db.cachedStatement(
                        sql: """
                            INSERT INTO read_models (collection, key, grupo, ordem, doc) VALUES (?, ?, ?, ?, ?)
                            ON CONFLICT (collection, key) DO UPDATE SET grupo = excluded.grupo, ordem = excluded.ordem, doc = excluded.doc
                            """
                    ).execute(arguments: [change.collection, change.key, change.grupo, change.ordem, String(decoding: doc, as: UTF8.self)])
                } else {
                    try db.cachedStatement(sql: "DELETE FROM read_models WHERE collection = ? AND key = ?")
                        .execute(arguments: [change.collection, change.key])
                }
            }
            let token = try Self.save(name, position, in: db)
            return CheckpointMark(position: position, token: token)
        }
    }

    /// The checkpoint's row is written at the start (inserted if it was never saved), its write
    /// counted, not deleted: its count would start over and a stale mark could match again.
    @discardableResult
    public func reset(collections: [String], checkpoint name: String) async throws -> CheckpointMark {
        try await database.write { db in
            for collection in collections {
                try db.cachedStatement(sql: "DELETE FROM read_models WHERE collection = ?").execute(arguments: [collection])
            }
            return CheckpointMark(position: .start, token: try Self.save(name, .start, in: db))
        }
    }

    @discardableResult
    public func promote(
        _ collections: [StagedCollection], checkpoint name: String, from staged: String, at mark: CheckpointMark
    ) async throws
        -> CheckpointMark
    {
        try await database.write { db in
            let built = try Self.mark(staged, in: db)
            guard built != .none else { throw EventStoreError(.nothingStaged, "checkpoint '\(staged)' was never saved: there is nothing to promote") }
            guard built == mark else { throw EventStoreError.checkpointMoved(staged, expected: mark) }
            let live = try Self.mark(name, in: db)
            if live != .none, built.position < live.position {
                throw EventStoreError(.stagedBehind, "the build '\(staged)' stands at \(built.position), behind '\(name)' at \(live.position)")
            }
            for collection in collections {
                try db.cachedStatement(sql: "DELETE FROM read_models WHERE collection = ?").execute(arguments: [collection.live])
            }
            for collection in collections {
                try db.cachedStatement(sql: "UPDATE read_models SET collection = ? WHERE collection = ?")
                    .execute(arguments: [collection.live, collection.staged])
            }
            _ = try Self.save(staged, .start, in: db)
            return CheckpointMark(position: built.position, token: try Self.save(name, built.position, in: db))
        }
    }

    static func mark(_ name: String, in db: Database) throws -> CheckpointMark {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT tx_id, position, token FROM subscription_checkpoints WHERE name = ?"),
                arguments: [name])
        else { return .none }
        return CheckpointMark(position: GlobalPosition(transaction: row[0], sequence: row[1]), token: row[2])
    }

    /// Moves checkpoint `name` to `position`, counting the write; returns the new count.
    static func save(_ name: String, _ position: GlobalPosition, in db: Database) throws -> Int64 {
        let token = try Int64.fetchOne(
            db.cachedStatement(
                sql: """
                    INSERT INTO subscription_checkpoints (name, tx_id, position, updated_at, token) VALUES (?, ?, ?, ?, 1)
                    ON CONFLICT (name) DO UPDATE SET tx_id = excluded.tx_id, position = excluded.position, updated_at = excluded.updated_at,
                        token = subscription_checkpoints.token + 1
                    RETURNING token
                    """), arguments: [name, position.transaction, position.sequence, microseconds(Date())])
        guard let token else { throw EventStoreError(.backend, "checkpoint '\(name)' was not saved") }
        return token
    }
}
