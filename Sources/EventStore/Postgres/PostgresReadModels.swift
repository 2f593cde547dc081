public import Foundation
import PostgresNIO

extension PostgresEventStore {
    public func document(_ collection: String, key: String) async throws -> Data? {
        let rows = try await fetch(
            "SELECT doc FROM read_models WHERE collection = \(collection) AND key = \(key)", logger: logger)
        return try rows.first.map { Data(try $0.decode(String.self).utf8) }
    }

    public func documents(_ collection: String, grupo: String?, limit: Int, offset: Int) async throws -> [Data] {
        let rows = if let grupo {
            try await fetch("""
                SELECT doc FROM read_models WHERE collection = \(collection) AND grupo = \(grupo)
                ORDER BY ordem, key LIMIT \(limit) OFFSET \(offset)
                """, logger: logger)
        } else {
            try await fetch("""
                SELECT doc FROM read_models WHERE collection = \(collection) ORDER BY ordem, key LIMIT \(limit) OFFSET \(offset)
                """, logger: logger)
        }
        return try rows.map { Data(try $0.decode(String.self).utf8) }
    }

    public func count(_ collection: String, grupo: String?) async throws -> Int {
        let rows = if let grupo {
            try await fetch(
                "SELECT count(*) FROM read_models WHERE collection = \(collection) AND grupo = \(grupo)", logger: logger)
        } else {
            try await fetch("SELECT count(*) FROM read_models WHERE collection = \(collection)", logger: logger)
        }
        return Int(try rows.first?.decode(Int64.self) ?? 0)
    }

    public func commit(_ changes: [ReadModelChange], checkpoint name: String, at position: GlobalPosition, from previous: GlobalPosition?) async throws {
        let statement = PostgresStatements.CommitReadModels(changes, checkpoint: name, at: position, from: previous)
        let moved: Bool
        do {
            moved = try await lease { connection in
                var moved = false
                for try await _ in try await connection.execute(statement, logger: logger) { moved = true }
                return moved
            }
        } catch let error as PSQLError {
            throw EventStoreError(.backend, "read-model commit failed", underlying: error)
        }
        if !moved, let previous { throw EventStoreError.checkpointMoved(name, expected: previous) }
    }

    public func reset(collections: [String], checkpoint name: String) async throws {
        try await withTransaction { transaction in
            try await transaction.connection.query(
                "DELETE FROM read_models WHERE collection = ANY(\(collections))", logger: logger)
            try await transaction.connection.query(
                "DELETE FROM subscription_checkpoints WHERE name = \(name)", logger: logger)
        }
    }
}
