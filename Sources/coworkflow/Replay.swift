import ArgumentParser
import EventStore
import Foundation
import Logging
import Projections

/// `coworkflow replay <projection>`: rebuilds a read model from the first event.
struct Replay: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Rebuild a read model from position zero (prints progress and events/s).",
        discussion: """
            Takes the projection's lease first, so it never runs beside an active runner of the \
            same projection (stop `serve` first in embedded mode: the lease is per process there). \
            Embedded store in --data by default; --postgres uses DATABASE_URL or DB_*.
            """)

    @Argument(help: "The projection: \(ReadModels.all.map(\.name).joined(separator: ", ")), or all.")
    var projection: String

    @Option(help: "Directory of the embedded store (as for `serve`).")
    var data = "coworkflow-data"

    @Flag(help: "Rebuild in PostgreSQL instead of the embedded store.")
    var postgres = false

    func run() async throws {
        let chosen = projection == "all" ? ReadModels.all : ReadModels.named(projection).map { [$0] } ?? []
        guard !chosen.isEmpty else {
            throw ValidationError("no projection '\(projection)'; choose one of: \(ReadModels.all.map(\.name).joined(separator: ", ")), all")
        }
        let logger = Log.logger("coworkflow.replay")
        if postgres {
            let store = PostgresEventStore(settings: try PostgresSettings.fromEnvironment(), logger: logger)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await store.run() }
                defer { group.cancelAll() }
                try await store.checkSchema()
                try await rebuild(chosen, store, logger)
            }
        } else {
            let path = URL(fileURLWithPath: data).appendingPathComponent("coworkflow.sqlite").path
            guard FileManager.default.fileExists(atPath: path) else { throw ValidationError("no embedded store at \(path)") }
            try await rebuild(chosen, try SQLiteEventStore(path: path), logger)
        }
    }

    func rebuild(_ projections: [Projection], _ store: any EventStore, _ logger: Logger) async throws {
        for projection in projections {
            let runner = ProjectionRunner(projection, store: store, logger: logger)
            let started = ContinuousClock.now
            let events = try await store.whileHolding(lease: projection.checkpoint, retryEvery: .seconds(1)) {
                try await runner.rebuild { total in
                    if total % 10_000 < 500 { print("\(projection.name): \(total) events…") }
                }
            }
            let elapsed = ContinuousClock.now - started
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            print("\(projection.name): \(events) events in \(String(format: "%.2f", seconds)) s (\(Int(Double(events) / max(seconds, 0.001))) events/s)")
        }
    }
}
