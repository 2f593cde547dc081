import ArgumentParser
import Dispatch
import EventStore
import Foundation
import Logging
import Telemetry

enum Log {
    /// A logger at `LOG_LEVEL` (trace…critical; default info), to standard error: text, or one
    /// JSON object per line with `LOG_FORMAT=json` (``JSONLogHandler``).
    static func logger(_ label: String) -> Logger {
        bootstrap
        var logger = Logger(label: label)
        let level = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0.lowercased()) }
        logger.logLevel = level ?? .info
        return logger
    }

    /// The process's logging and (the first logger is made before any work) its metrics:
    /// other libraries' swift-metrics go to the registry `/metrics` renders.
    private static let bootstrap: Void = {
        Telemetry.bootstrap()
        switch ProcessInfo.processInfo.environment["LOG_FORMAT"]?.lowercased() {
        case "json":
            LoggingSystem.bootstrap(
                { label, provider in
                    var handler = JSONLogHandler(label: label)
                    handler.metadataProvider = provider
                    return handler
                }, metadataProvider: TraceExport.logMetadata)
        default: LoggingSystem.bootstrap(StreamLogHandler.standardError)
        }
    }()
}

/// Runs `body` until it ends or SIGTERM/SIGINT arrives, which cancels it (ECS stops tasks
/// with SIGTERM); a second signal exits at once.
func untilShutdownSignal(logger: Logger, _ body: @escaping @Sendable () async throws -> Void) async throws {
    let task = Task { try await body() }
    var sources: [any DispatchSourceSignal] = []
    for number in [SIGTERM, SIGINT] {
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        let received = SignalCount()
        source.setEventHandler {
            if received.increment() > 1 { exit(1) }
            logger.info("signal \(number): shutting down")
            task.cancel()
        }
        source.resume()
        sources.append(source)
    }
    defer { for source in sources { source.cancel() } }
    do {
        try await task.value
    } catch is CancellationError {}
}

private final class SignalCount: @unchecked Sendable {
    private var count = 0
    private let lock = NSLock()
    func increment() -> Int {
        lock.withLock {
            count += 1
            return count
        }
    }
}

/// An operator command's store: PostgreSQL (`DATABASE_URL` or `DB_*`, its schema checked)
/// with `postgres`, else the embedded store in `data` (which must exist).
func withStore(postgres: Bool, data: String, logger: Logger, _ body: (any EventStore) async throws -> Void) async throws {
    if postgres {
        let store = PostgresEventStore(settings: try PostgresSettings.fromEnvironment(), logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await store.run() }
            await store.started()
            defer { group.cancelAll() }
            try await store.checkSchema()
            try await body(store)
        }
    } else {
        let path = URL(fileURLWithPath: data).appendingPathComponent("coworkflow.sqlite").path
        guard FileManager.default.fileExists(atPath: path) else { throw ValidationError("no embedded store at \(path)") }
        try await body(try SQLiteEventStore(path: path))
    }
}
