import EventStore
import Foundation
import GRDB
import PostgresNIO
import Testing

@Suite("Append-only")
struct AppendOnlyTests {
    @Test("stored events cannot be updated or deleted, not even by the table's owner", arguments: Backend.allCases)
    func no_update_or_delete(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let stream = uniqueStream()
            try await fixture.store.append(to: stream, expected: .noStream, events: events(2))
            let tampering =
                [
                    "UPDATE events SET data = '{\"n\": 99}' WHERE stream_id = '\(stream)'",
                    "DELETE FROM events WHERE stream_id = '\(stream)'",
                ] + (backend == .postgres ? ["TRUNCATE events"] : [])
            for sql in tampering {
                switch backend {
                case .sqlite:
                    let store = try #require(fixture.store as? SQLiteEventStore)
                    let error = await #expect(throws: DatabaseError.self) {
                        try await store.database.write { try $0.execute(sql: sql) }
                    }
                    #expect(error?.message?.contains("append-only") == true)
                case .postgres:
                    let error = try await refusalAsOwner(sql)
                    #expect(error?.serverInfo?[.sqlState] == "CW002", "\(sql)")
                    #expect(error?.serverInfo?[.message]?.contains("append-only") == true)
                }
            }
            let after = try await fixture.store.readStream(stream)
            #expect(after.count == 2)
            #expect(try after[0].decode([String: Int].self) == ["n": 0])
        }
    }

    @Test("the application role has no UPDATE, DELETE or TRUNCATE privilege on events")
    func application_role_privileges() async throws {
        try await withFixture(.postgres) { fixture in
            let store = try #require(fixture.store as? PostgresEventStore)
            let stream = uniqueStream()
            try await store.append(to: stream, expected: .noStream, events: events(1))
            for sql in [
                "UPDATE events SET event_type = 'X' WHERE stream_id = '\(stream)'",
                "DELETE FROM events WHERE stream_id = '\(stream)'",
                "TRUNCATE events",
            ] {
                let error = await #expect(throws: PSQLError.self) {
                    try await store.pool.withConnection { try await $0.query(PostgresQuery(unsafeSQL: sql), logger: TestDatabase.logger) }
                }
                #expect(error?.serverInfo?[.sqlState] == "42501", "\(sql) must be refused for lack of privilege")
            }
            #expect(try await store.streamVersion(stream) == 1)
        }
    }
}

/// Runs a tampering statement as the owner and returns the error that refused it.
///
/// TRUNCATE takes an exclusive lock before its trigger can refuse; while it queues for that
/// lock every other reader and writer queues behind it, and a concurrent test that holds a
/// transaction open while it waits for a reader would never let it through. So each try
/// gives up on the lock after a moment and tries again.
func refusalAsOwner(_ sql: String) async throws -> PSQLError? {
    for _ in 0..<50 {
        do {
            try await asOwner { connection in
                try await connection.query("SET lock_timeout = '200ms'", logger: TestDatabase.logger)
                try await connection.query(PostgresQuery(unsafeSQL: sql), logger: TestDatabase.logger)
            }
            return nil
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "55P03" {
            try await Task.sleep(for: .milliseconds(100))
        } catch let error as PSQLError {
            return error
        }
    }
    Issue.record("never got the lock to try: \(sql)")
    return nil
}

/// Runs `body` on a connection as the schema owner (the migration user).
@discardableResult
func asOwner<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
    let connection = try await PostgresConnection.connect(
        configuration: TestDatabase.settings.connectionConfiguration(asOwner: true), id: 99, logger: TestDatabase.logger)
    do {
        let value = try await body(connection)
        try await connection.close()
        return value
    } catch {
        try? await connection.close()
        throw error
    }
}
