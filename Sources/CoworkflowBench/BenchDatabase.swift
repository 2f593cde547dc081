import EventStore
import Foundation
import Logging
import PostgresNIO

/// Drops and creates `database` as the owner (the bench's own database, never the app's).
func recreate(_ database: String, admin: PostgresSettings, logger: Logger) async throws {
    try await withOwner(admin, logger: logger) { connection in
        let name = "\"\(database.replacingOccurrences(of: "\"", with: "\"\""))\""
        try await connection.query(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(name) WITH (FORCE)"), logger: logger)
        try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: logger)
    }
}

func withOwner(_ settings: PostgresSettings, logger: Logger, _ body: (PostgresConnection) async throws -> Void) async throws {
    let connection = try await PostgresConnection.connect(
        configuration: settings.connectionConfiguration(asOwner: true), id: 1, logger: logger)
    do {
        try await body(connection)
        try await connection.close()
    } catch {
        try? await connection.close()
        throw error
    }
}

/// A new, migrated database `BENCH_DB_NAME` + `suffix` (dropped first if it exists) on the
/// server the environment names; its settings.
func freshBenchDatabase(suffix: String, logger: Logger) async throws -> PostgresSettings {
    var settings = try PostgresSettings.fromEnvironment()
    let name = (ProcessInfo.processInfo.environment["BENCH_DB_NAME"] ?? "coworkflow_bench") + suffix
    try await recreate(name, admin: settings, logger: logger)
    settings.database = name
    _ = try await PostgresMigrator(settings: settings, logger: logger).migrate()
    return settings
}

/// How many statements PostgreSQL has run in `database` so far, from `pg_stat_statements` (read
/// in the `postgres` database, where infra/local/start.sh creates the extension and preloads its
/// library); nil on a server without it. BEGIN and COMMIT count: they are round trips too.
func statementsRun(in database: String, settings: PostgresSettings, logger: Logger) async -> Int? {
    var settings = settings
    settings.database = "postgres"
    guard
        let connection = try? await PostgresConnection.connect(
            configuration: settings.connectionConfiguration(asOwner: true), id: 2, logger: logger)
    else { return nil }
    defer { Task { try? await connection.close() } }
    let query: PostgresQuery = """
        SELECT coalesce(sum(calls), 0)::bigint FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = \(database))
        """
    guard let rows = try? await connection.query(query, logger: logger) else { return nil }
    do {
        for try await count in rows.decode(Int.self) { return count }
    } catch {
        return nil
    }
    return nil
}
