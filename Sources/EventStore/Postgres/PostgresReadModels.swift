public import Foundation
import PostgresNIO

extension PostgresEventStore {
    public func document(_ collection: String, key: String) async throws -> Data? {
        let rows = try await fetch(
            "SELECT doc FROM read_models WHERE collection = \(collection) AND key = \(key)", logger: logger)
        return try rows.first.map { Data(try $0.decode(String.self).utf8) }
    }

    public func documents(_ collection: String, keys: [String]) async throws -> [String: Data] {
        guard !keys.isEmpty else { return [:] }
        let rows = try await fetch("SELECT key, doc FROM read_models WHERE collection = \(collection) AND key = ANY(\(keys))", logger: logger)
        var found: [String: Data] = [:]
        for row in rows {
            let (key, doc) = try row.decode((String, String).self)
            found[key] = Data(doc.utf8)
        }
        return found
    }

    public func documents(_ collection: String, grupo: String?, limit: Int, offset: Int) async throws -> [Data] {
        let rows =
            if let grupo {
                try await fetch(
                    """
                    SELECT doc FROM read_models WHERE collection = \(collection) AND grupo = \(grupo)
                    ORDER BY ordem, key LIMIT \(limit) OFFSET \(offset)
                    """, logger: logger)
            } else {
                try await fetch(
                    """
                    SELECT doc FROM read_models WHERE collection = \(collection) ORDER BY ordem, key LIMIT \(limit) OFFSET \(offset)
                    """, logger: logger)
            }
        return try rows.map { Data(try $0.decode(String.self).utf8) }
    }

    public func count(_ collection: String, grupo: String?) async throws -> Int {
        let rows =
            if let grupo {
                try await fetch(
                    "SELECT count(*) FROM read_models WHERE collection = \(collection) AND grupo = \(grupo)", logger: logger)
            } else {
                try await fetch("SELECT count(*) FROM read_models WHERE collection = \(collection)", logger: logger)
            }
        return Int(try rows.first?.decode(Int64.self) ?? 0)
    }

    public func checkpointMark(_ name: String) async throws -> CheckpointMark {
        let rows = try await fetch(
            "SELECT tx_id, position, xmin::text::bigint FROM subscription_checkpoints WHERE name = \(name)", logger: logger)
        guard let (tx, position, token) = try rows.first?.decode((Int64, Int64, Int64).self) else { return .none }
        return CheckpointMark(position: GlobalPosition(transaction: tx, sequence: position), token: token)
    }

    @discardableResult
    public func commit(
        _ changes: [ReadModelChange], checkpoint name: String, at position: GlobalPosition, from previous: CheckpointMark?
    ) async throws
        -> CheckpointMark
    {
        let statement = PostgresStatements.CommitReadModels(changes, checkpoint: name, at: position, from: previous)
        // A runner's commit, fenced on a saved mark, may go with others that arrive meanwhile
        // (ReadModelCommitQueue). A first commit, one not fenced, and a large batch (a rebuild's,
        // a catch-up's: a long statement the others would wait for) go alone, as they are.
        guard let previous, previous.token != 0, changes.count <= Self.gatheredBatchLimit else { return try await commitAlone(statement) }
        switch await readModelCommits.commit(statement, run: { [self] in await commitGroup($0) }) {
        case .done(let result): return try result.get()
        case .alone: return try await commitAlone(statement)
        }
    }

    /// The most changes a batch may have to go with others.
    static let gatheredBatchLimit = 256

    private func commitAlone(_ statement: PostgresStatements.CommitReadModels) async throws -> CheckpointMark {
        let token: Int64?
        do {
            token = try await lease { connection in
                var token: Int64?
                for try await written in try await connection.guardedExecute(statement, logger: logger) { token = written }
                return token
            }
        } catch let error as PSQLError {
            throw EventStoreError(.backend, "read-model commit failed", underlying: error)
        }
        guard let token else { throw EventStoreError.checkpointMoved(statement.checkpoint, expected: statement.previous ?? .none) }
        return CheckpointMark(position: statement.position, token: token)
    }

    /// Several fenced batches in one statement (``PostgresStatements/CommitReadModelGroup``;
    /// one alone in its own, ``PostgresStatements/CommitReadModels``): each one's outcome, in
    /// order: its new mark; `checkpointMoved` when its fence held it back; alone when its
    /// checkpoint was busy in another transaction. A statement that failed with the database
    /// unreachable fails every batch; one that failed otherwise (one batch's data, a deadlock)
    /// wrote nothing, and each batch commits alone, so that only a faulty one fails.
    func commitGroup(_ batches: [PostgresStatements.CommitReadModels]) async -> [ReadModelCommitQueue.Outcome] {
        if batches.count == 1, let alone = batches.first {
            do {
                return [.done(.success(try await commitAlone(alone)))]
            } catch {
                return [.done(.failure(error))]
            }
        }
        let statement = PostgresStatements.CommitReadModelGroup(batches)
        // Each locked checkpoint's new mark, or nil when its fence held it back.
        var locked: [String: Int64?] = [:]
        do {
            try await lease { connection in
                for try await (name, token) in try await connection.guardedExecute(statement, logger: logger) { locked[name] = token }
            }
        } catch {
            // The lease reported a connection-level failure as `unavailable`.
            guard (error as? EventStoreError)?.code == .unavailable else { return batches.map { _ in .alone } }
            return batches.map { _ in .done(.failure(error)) }
        }
        return batches.map { batch in
            guard let token = locked[batch.checkpoint] else { return .alone }
            guard let token else { return .done(.failure(EventStoreError.checkpointMoved(batch.checkpoint, expected: batch.previous ?? .none))) }
            return .done(.success(CheckpointMark(position: batch.position, token: token)))
        }
    }

    /// The checkpoint's row is written at the start (inserted if it was never saved), not
    /// deleted: a reader fenced on "never saved", or on any earlier write, must not pass.
    @discardableResult
    public func reset(collections: [String], checkpoint name: String) async throws -> CheckpointMark {
        try await withTransaction { transaction in
            try await transaction.connection.guardedQuery(
                "DELETE FROM read_models WHERE collection = ANY(\(collections))", logger: logger)
            let rows = try await transaction.connection.guardedQuery(
                """
                INSERT INTO subscription_checkpoints (name, tx_id, position) VALUES (\(name), 0, 0)
                ON CONFLICT (name) DO UPDATE SET tx_id = 0, position = 0, updated_at = now()
                RETURNING xmin::text::bigint
                """, logger: logger)
            for try await token in rows.decode(Int64.self) { return CheckpointMark(position: .start, token: token) }
            throw EventStoreError(.backend, "checkpoint '\(name)' was not reset")
        }
    }

    @discardableResult
    public func promote(
        _ collections: [StagedCollection], checkpoint name: String, from staged: String, at mark: CheckpointMark
    ) async throws
        -> CheckpointMark
    {
        try await withTransaction { transaction in
            // Both checkpoints locked first: a live runner's fenced commit waits for this
            // transaction, then fails on the new mark; a builder's commit cannot slip in. The
            // live row is made if it was never saved, so that it can be locked too (a runner's
            // first commit, fenced on "never saved", then fails instead of racing this).
            try await transaction.connection.guardedQuery(
                """
                INSERT INTO subscription_checkpoints (name, tx_id, position) VALUES (\(name), 0, 0) ON CONFLICT (name) DO NOTHING
                """, logger: logger)
            var live: GlobalPosition?
            var built: CheckpointMark?
            let rows = try await transaction.connection.guardedQuery(
                """
                SELECT name, tx_id, position, xmin::text::bigint FROM subscription_checkpoints
                WHERE name IN (\(name), \(staged)) ORDER BY name FOR UPDATE
                """, logger: logger)
            for try await (row, tx, position, token) in rows.decode((String, Int64, Int64, Int64).self) {
                let at = GlobalPosition(transaction: tx, sequence: position)
                if row == name { live = at } else { built = CheckpointMark(position: at, token: token) }
            }
            guard let built else { throw EventStoreError(.nothingStaged, "checkpoint '\(staged)' was never saved: there is nothing to promote") }
            guard built == mark else { throw EventStoreError.checkpointMoved(staged, expected: mark) }
            if let live, built.position < live {
                throw EventStoreError(.stagedBehind, "the build '\(staged)' stands at \(built.position), behind '\(name)' at \(live)")
            }
            try await transaction.connection.guardedQuery(
                "DELETE FROM read_models WHERE collection = ANY(\(collections.map(\.live)))", logger: logger)
            for collection in collections {
                try await transaction.connection.guardedQuery(
                    "UPDATE read_models SET collection = \(collection.live) WHERE collection = \(collection.staged)", logger: logger)
            }
            try await transaction.connection.guardedQuery(
                "UPDATE subscription_checkpoints SET tx_id = 0, position = 0, updated_at = now() WHERE name = \(staged)", logger: logger)
            let moved = try await transaction.connection.guardedQuery(
                """
                INSERT INTO subscription_checkpoints (name, tx_id, position) VALUES (\(name), \(built.position.transaction), \(built.position.sequence))
                ON CONFLICT (name) DO UPDATE SET tx_id = excluded.tx_id, position = excluded.position, updated_at = now()
                RETURNING xmin::text::bigint
                """, logger: logger)
            for try await token in moved.decode(Int64.self) { return CheckpointMark(position: built.position, token: token) }
            throw EventStoreError(.backend, "checkpoint '\(name)' was not moved")
        }
    }
}
