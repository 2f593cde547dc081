import ArgumentParser
import Domain
import EventStore
import Foundation
import Logging
import PostgresNIO

/// `coworkflow-bench store`: the event store against raw PostgreSQL on the same database.
struct StoreBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "Append/read workloads a–e against raw INSERT/SELECT baselines.",
        discussion: """
            Recreates the database BENCH_DB_NAME (default coworkflow_bench) on the PostgreSQL \
            server named by the usual DB_* / DATABASE_URL variables, as DB_MIGRATION_USER (needs \
            CREATEDB), and runs everything there as the application user.
            """)

    @Flag(help: "Seconds instead of minutes: short phases and 50,000 events to read (for CI).")
    var short = false

    @Option(help: "Events for the global-order read (workload e).")
    var readEvents: Int?

    @Option(help: "Run only these workloads, e.g. `a,b` or `e` (each with its baseline).")
    var only: String = "a,b,c,d,e"

    func run() async throws {
        var logger = Logger(label: "bench")
        logger.logLevel = .error
        var settings = try PostgresSettings.fromEnvironment()
        let admin = settings
        settings.database = ProcessInfo.processInfo.environment["BENCH_DB_NAME"] ?? "coworkflow_bench"
        settings.maximumConnections = 24
        try await recreate(settings.database, admin: admin, logger: logger)
        try await PostgresMigrator(settings: settings, logger: logger).migrate()
        try await withOwner(settings, logger: logger) { connection in
            try await connection.query(
                """
                CREATE TABLE raw_events (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, payload jsonb NOT NULL)
                """, logger: logger)
            try await connection.query(PostgresQuery(unsafeSQL: "GRANT SELECT, INSERT ON raw_events TO \(settings.user)"), logger: logger)
        }

        let phases = Phases(warmUp: short ? .milliseconds(500) : .seconds(2), measure: short ? .seconds(2) : .seconds(10))
        let readTarget = readEvents ?? (short ? 50_000 : 1_000_000)
        print("# coworkflow-bench store: \(settings.redactedURL), warm-up \(phases.warmUp), measure \(phases.measure) per workload")

        let store = PostgresEventStore(settings: settings, logger: logger)
        let selected = Set(only.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        guard selected.isSubset(of: ["a", "b", "c", "d", "e"]), !selected.isEmpty else {
            throw ValidationError("--only takes workloads among a, b, c, d, e, separated by commas")
        }
        // The raw baselines go through PostgresNIO's own pool, as a plain application would.
        let client = PostgresClient(configuration: settings.clientConfiguration(), backgroundLogger: logger)
        let workloads = StoreWorkloads(store: store, client: client, phases: phases, logger: logger, selected: selected)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await store.run() }
            group.addTask { await client.run() }
            await store.started()
            defer { group.cancelAll() }
            var figures = Figures()
            try await workloads.runAll(readTarget: readTarget, into: &figures)
            for (top, bottom) in [("append_a", "raw_insert_1"), ("append_b", "raw_insert_8"), ("read_e", "raw_read")] {
                figures.ratio(top, bottom)
            }
        }
    }
}

struct Phases {
    let warmUp: Duration
    let measure: Duration
}
