import Foundation
import GRDB
import TestSupport
import Testing

@testable import EventStore

@Suite("Embedded store: a read of several statements sees one snapshot")
struct SQLiteSnapshotTests {
    /// A pool of one reader, so that every read runs on the same connection.
    static func pool(_ path: String) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.maximumReaderCount = 1
        let pool = try DatabasePool(path: path, configuration: configuration)
        try pool.write { try $0.execute(sql: "CREATE TABLE t (n INTEGER)") }
        return pool
    }

    /// Counts the table's rows, inserts one through a connection of its own (committed at once,
    /// as another writer's would be) and counts again.
    static func countsAroundAWrite(_ db: Database, path: String) throws -> (Int, Int) {
        let before = try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM t")) ?? -1
        try DatabaseQueue(path: path).write { try $0.execute(sql: "INSERT INTO t VALUES (1)") }
        let after = try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM t")) ?? -1
        return (before, after)
    }

    @Test("several statements read one snapshot: a write committed between them is not seen")
    func several_statements_one_snapshot() async throws {
        let path = TemporarySQLite.path("coworkflow-snapshot")
        defer { TemporarySQLite.remove(path) }
        let pool = try Self.pool(path)
        let (before, after) = try await pool.snapshot(statements: 2) { try Self.countsAroundAWrite($0, path: path) }
        #expect(before == 0)
        #expect(after == 0, "the second statement saw a write committed after the first")
        // Without the transaction each statement is a snapshot of its own (why a read of one runs bare).
        let (bare, later) = try await pool.snapshot(statements: 1) { try Self.countsAroundAWrite($0, path: path) }
        #expect(bare == 1)
        #expect(later == 2)
    }

    @Test("a read that fails leaves its connection outside a transaction, and the next read sees new writes")
    func a_failed_read_ends_its_transaction() async throws {
        struct Failure: Error {}
        let path = TemporarySQLite.path("coworkflow-snapshot")
        defer { TemporarySQLite.remove(path) }
        let pool = try Self.pool(path)
        await #expect(throws: Failure.self) {
            try await pool.snapshot(statements: 2) { db in
                _ = try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM t"))
                throw Failure()
            }
        }
        try await pool.write { try $0.execute(sql: "INSERT INTO t VALUES (1)") }
        let (inside, count) = try await pool.snapshot { db in
            (db.isInsideTransaction, try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM t")) ?? -1)
        }
        #expect(!inside)
        #expect(count == 1)
    }
}
