import EventStore
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
