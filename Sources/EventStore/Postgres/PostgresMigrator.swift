public import Logging
import PostgresNIO

/// Applies pending schema steps, one transaction each, under an advisory lock so replicas
/// starting together do not race. Idempotent: a second run applies nothing.
public struct PostgresMigrator: Sendable {
    public let settings: PostgresSettings
    public let logger: Logger

    public init(settings: PostgresSettings, logger: Logger = Logger(label: "coworkflow.migrate")) {
        self.settings = settings
        self.logger = logger
    }

    /// What a run did: the steps applied (version and name), and the version now.
    public struct Report: Sendable, Equatable {
        public var applied: [String]
        public var version: Int
    }

    static let lockKey: Int64 = 0x636F_776F_726B  // "cowork"

    /// Applies every pending step and re-applies the grants to the application user.
    @discardableResult
    public func migrate() async throws -> Report {
        let connection = try await PostgresConnection.connect(
            configuration: settings.connectionConfiguration(asOwner: true), id: 1, logger: logger)
        do {
            let report = try await migrate(on: connection)
            try await connection.close()
            return report
        } catch {
            try? await connection.close()
            throw error
        }
    }

    private func migrate(on connection: PostgresConnection) async throws -> Report {
        // A session lock: released below, or by the server when `migrate()` closes the
        // connection after a failure.
        try await connection.guardedQuery("SELECT pg_advisory_lock(\(Self.lockKey))", logger: logger)
        try await connection.guardedQuery(
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version integer PRIMARY KEY, name text NOT NULL,
                applied_at timestamptz NOT NULL DEFAULT now())
            """, logger: logger)
        var current = 0
        for try await version in try await connection.guardedQuery(
            "SELECT coalesce(max(version), 0)::integer FROM schema_migrations", logger: logger
        ).decode(Int.self) {
            current = version
        }
        var report = Report(applied: [], version: current)
        for step in PostgresSchema.steps where step.version > current {
            // BEGIN/COMMIT by hand, guarded like the rest (PostgresNIO's `withTransaction`
            // sends them unguarded). On a failure the connection is closed by `migrate()`,
            // which ends the transaction on the server; a ROLLBACK is sent only when it is open.
            try await connection.guardedQuery("BEGIN", logger: logger)
            do {
                for statement in step.statements {
                    try await connection.guardedQuery(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.guardedQuery(
                    "INSERT INTO schema_migrations (version, name) VALUES (\(step.version), \(step.name))",
                    logger: logger)
            } catch {
                if !connection.isClosed { _ = try? await connection.guardedQuery("ROLLBACK", logger: logger) }
                throw error
            }
            try await connection.guardedQuery("COMMIT", logger: logger)
            report.applied.append("\(step.version) \(step.name)")
            report.version = step.version
            logger.info("applied migration", metadata: ["version": "\(step.version)", "name": "\(step.name)"])
        }
        if settings.user != settings.migrationUser {
            for grant in PostgresSchema.grants(to: settings.user) {
                try await connection.guardedQuery(PostgresQuery(unsafeSQL: grant), logger: logger)
            }
        }
        try await connection.guardedQuery("SELECT pg_advisory_unlock(\(Self.lockKey))", logger: logger)
        return report
    }
}
