import ArgumentParser
import EventStore
import Logging

/// `coworkflow migrate`: brings a store's schema up to date and says what it did.
struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Apply pending schema migrations (idempotent).",
        discussion: """
            Without options, migrates the PostgreSQL store named by DATABASE_URL or DB_HOST, \
            DB_PORT, DB_NAME, DB_USER, DB_PASSWORD (default: the infra/local server), connecting \
            as DB_MIGRATION_USER / DB_MIGRATION_PASSWORD when set. With --sqlite, migrates an \
            embedded store file instead.
            """)

    @Option(help: "Migrate the embedded SQLite store at this path instead of PostgreSQL.")
    var sqlite: String?

    func run() async throws {
        if let path = sqlite {
            let store = try SQLiteEventStore(path: path)
            print("embedded store \(path): at migration '\(try store.appliedMigrations().last ?? "none")'")
            return
        }
        let settings: PostgresSettings
        do {
            settings = try PostgresSettings.fromEnvironment()
        } catch {
            throw ValidationError("\(error)")
        }
        var logger = Logger(label: "coworkflow.migrate")
        logger.logLevel = .warning
        let report = try await PostgresMigrator(settings: settings, logger: logger).migrate()
        if report.applied.isEmpty {
            print("\(settings.redactedURL): schema up to date at version \(report.version), nothing to apply")
        } else {
            for step in report.applied { print("\(settings.redactedURL): applied \(step)") }
            print("\(settings.redactedURL): schema now at version \(report.version)")
        }
        if settings.user != settings.migrationUser {
            print("granted SELECT, INSERT (no UPDATE/DELETE/TRUNCATE) on events to \(settings.user)")
        }
    }
}
