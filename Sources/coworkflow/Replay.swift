import ArgumentParser
import EventStore
import Foundation
import Logging
import Projections
import Synchronization

/// `coworkflow replay <projection>`: rebuilds a read model from the first event.
struct Replay: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Rebuild a read model from position zero (prints progress and events/s).",
        discussion: """
            Builds the new documents beside the live ones and swaps them in with one transaction \
            once it is at least as far as the live read model: the running system goes on serving \
            the old read model until then, never a partial one, and its runner follows on from the \
            rebuilt checkpoint. Safe while `serve --service projections` runs; two replays of one \
            projection take turns (leases are per process in embedded mode: run one at a time). \
            Embedded store in --data by default; --postgres uses DATABASE_URL or DB_*. \
            `analytics` is replayed in memory with concurrent readers (a progress bar on standard \
            error) and ends with `replay: N events in S s (R events/s)` on standard output.
            """)

    @Argument(help: "The projection: \(ReadModels.all.map(\.name).joined(separator: ", ")), or all.")
    var projection: String

    @Option(help: "Directory of the embedded store (as for `serve`).")
    var data = "coworkflow-data"

    @Flag(help: "Rebuild in PostgreSQL instead of the embedded store.")
    var postgres = false

    @Option(help: "Concurrent readers of the analytics replay.")
    var readers = 2

    func run() async throws {
        let all = Self.projections
        let chosen = projection == "all" ? all : all.first { $0.name == projection }.map { [$0] } ?? []
        guard !chosen.isEmpty else {
            throw ValidationError("no projection '\(projection)'; choose one of: \(all.map(\.name).joined(separator: ", ")), all")
        }
        let logger = Log.logger("coworkflow.replay")
        try await withStore(postgres: postgres, data: data, logger: logger) { store in try await rebuild(chosen, store, logger) }
    }

    /// Every read model, analytics included even before it is listed in `ReadModels.all`.
    static var projections: [Projection] {
        let listed = ReadModels.all
        let analytics = AnalyticsReadModel.projection
        return listed.contains { $0.name == analytics.name } ? listed : listed + [analytics]
    }

    func rebuild(_ projections: [Projection], _ store: any EventStore, _ logger: Logger) async throws {
        for projection in projections {
            if projection.name == AnalyticsReadModel.projection.name {
                try await replayAnalytics(store)
                continue
            }
            let runner = ProjectionRunner(projection, store: store, logger: logger)
            let started = ContinuousClock.now
            let events = try await runner.rebuild { total in
                if total % 10_000 < 500 { print("\(projection.name): \(total) events…") }
            }
            let elapsed = ContinuousClock.now - started
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            print(
                "\(projection.name): \(events) events in \(String(format: "%.2f", seconds)) s (\(Int(Double(events) / max(seconds, 0.001))) events/s)"
            )
        }
    }

    /// The in-memory analytics rebuild, with a progress bar on standard error.
    func replayAnalytics(_ store: any EventStore) async throws {
        let bar = ProgressBar(name: AnalyticsReadModel.projection.name)
        let result = try await AnalyticsReadModel.rebuild(store: store, leitores: readers) { bar.show($0) }
        bar.finish()
        print(Self.summary(events: result.eventos, seconds: result.segundos))
    }

    /// `replay: N events in S s (R events/s)`.
    static func summary(events: Int, seconds: Double) -> String {
        "replay: \(events) events in \(String(format: "%.2f", seconds)) s (\(Int((Double(events) / max(seconds, 0.001)).rounded())) events/s)"
    }
}

/// A progress line on standard error: redrawn in place (at most ten times a second) on a
/// terminal, a plain line at most once a second otherwise (logs, CI).
final class ProgressBar: Sendable {
    private struct State {
        var last: ContinuousClock.Instant?
        var drawn = false
        /// The latest progress not drawn yet (throttled), drawn by ``finish()``.
        var pending: AnalyticsReadModel.Progress?
    }

    private let name: String
    private let terminal = isatty(STDERR_FILENO) != 0
    private let state = Mutex(State())

    init(name: String) { self.name = name }

    func show(_ progress: AnalyticsReadModel.Progress) {
        let now = ContinuousClock.now
        let interval: Duration = terminal ? .milliseconds(100) : .seconds(1)
        let due = state.withLock { state -> Bool in
            if let last = state.last, now - last < interval {
                state.pending = progress
                return false
            }
            state.last = now
            state.drawn = true
            state.pending = nil
            return true
        }
        if due { draw(progress) }
    }

    /// Draws the last state if it was held back, and ends the line on a terminal.
    func finish() {
        let (pending, drawn) = state.withLock { state in
            defer { state.pending = nil }
            return (state.pending, state.drawn || state.pending != nil)
        }
        if let pending { draw(pending) }
        if terminal, drawn { write("\n") }
    }

    private func draw(_ progress: AnalyticsReadModel.Progress) {
        let line = Self.line(name, progress)
        write(terminal ? "\r\u{1B}[2K" + line : line + "\n")
    }

    static func line(_ name: String, _ progress: AnalyticsReadModel.Progress) -> String {
        switch progress.fase {
        case .leitura:
            let done = min(progress.eventos, progress.total)
            let fraction = progress.total > 0 ? Double(done) / Double(progress.total) : 1
            let rate = Double(progress.eventos) / max(progress.segundos, 0.001)
            let left = rate > 0 ? Double(progress.total - done) / rate : 0
            let width = 30
            let filled = min(width, Int(fraction * Double(width)))
            let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
            return "\(name) [\(bar)] \(Int(fraction * 100))% \(progress.eventos)/\(progress.total) events, "
                + "\(Int(rate)) events/s, ETA \(String(format: "%.1f", left)) s"
        case .escrita:
            return "\(name): writing documents \(progress.documentos)/\(progress.totalDeDocumentos)"
        }
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
