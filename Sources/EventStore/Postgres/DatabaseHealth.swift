public import Foundation
import Logging
import PostgresNIO
import Synchronization
import _ConnectionPoolModule

/// Whether the database can be reached, as the store last found out, so that requests fail at
/// once with ``EventStoreError/Code/unavailable`` during an outage instead of queueing.
///
/// PostgresNIO's pool keeps a lease request waiting while it fails to open connections, and
/// gives up only when its circuit breaker trips, a minute after the first failure (not
/// configurable in 1.33): a request during an outage hung for ~67 s and then answered 500.
/// Here a connection-level failure (refused, closed, reset, the pool's breaker, a server that
/// is shutting down or starting) asks for a probe: one fresh connection and `SELECT 1`, outside
/// the pool, with a short connect timeout. When the probe fails the database is down: leases
/// fail at once, and the probe runs again every second until it succeeds. A probe that
/// succeeds at once (one connection died, the database is fine) changes nothing.
///
/// Requests already queued in the pool when the database went away still wait for the pool.
public final class DatabaseHealth: Sendable {
    public enum State: Sendable, Equatable {
        case up
        case down(since: Date, reason: String)
    }

    private let state = Mutex<State>(.up)
    /// Rung by a connection-level failure: the probe loop checks the database.
    let suspicion = Doorbell()

    public init() {}

    public var current: State { state.withLock { $0 } }

    /// Throws ``EventStoreError/Code/unavailable`` while the database is known to be down.
    func check() throws {
        if case .down(let since, let reason) = current {
            throw EventStoreError(.unavailable, "the database is unreachable since \(since.ISO8601Format()): \(reason)")
        }
    }

    /// `error` as the store reports it: a connection-level failure becomes ``EventStoreError/Code/unavailable``
    /// (and asks for a probe); anything else is returned as it is.
    func classify(_ error: any Error) -> any Error {
        guard Self.isConnectionLevel(error) else { return error }
        suspicion.ring()
        if let storeError = error as? EventStoreError, storeError.code == .unavailable { return error }
        return EventStoreError(.unavailable, "the database cannot be reached: \(Self.describe(error))", underlying: error)
    }

    func markUp() { state.withLock { $0 = .up } }

    func markDown(_ reason: String, at now: Date) {
        state.withLock { state in
            if case .down = state { return }
            state = .down(since: now, reason: reason)
        }
    }

    /// Refused, reset or closed connections, the pool giving up on opening them, and the
    /// server's own "shutting down", "starting up" and connection-exception states (SQLSTATE
    /// class 08, 57P01–57P03). Looks through ``EventStoreError/underlying``.
    public static func isConnectionLevel(_ error: any Error) -> Bool {
        switch error {
        case let storeError as EventStoreError:
            if storeError.code == .unavailable { return true }
            return storeError.underlying.map(isConnectionLevel) ?? false
        case let pool as ConnectionPoolError:
            return pool == .connectionCreationCircuitBreakerTripped
        case let psql as PSQLError:
            switch psql.code {
            case .connectionError, .serverClosedConnection, .uncleanShutdown: return true
            case .server:
                let state = psql.serverInfo?[.sqlState] ?? ""
                return state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state)
            default: return false
            }
        case let transaction as PostgresTransactionError:
            return [transaction.beginError, transaction.closureError, transaction.commitError, transaction.rollbackError]
                .contains { $0.map(isConnectionLevel) ?? false }
        default:
            return false
        }
    }

    private static func describe(_ error: any Error) -> String {
        if let psql = error as? PSQLError {
            return psql.underlying.map { "\($0)" } ?? "\(psql.code)"
        }
        if let storeError = error as? EventStoreError, let underlying = storeError.underlying { return describe(underlying) }
        return "\(error)"
    }
}

extension PostgresEventStore {
    /// The probe loop (part of ``run()``): after a suspicion, one fresh connection and
    /// `SELECT 1`; while that fails, the database is down and the probe repeats every second.
    func probe() async {
        var seen = health.suspicion.generation
        while !Task.isCancelled {
            let now = await health.suspicion.wait(after: seen, timeout: nil)
            guard now != seen, !Task.isCancelled else { continue }
            seen = now
            while !Task.isCancelled {
                do {
                    try await probeOnce()
                    if case .down = health.current { logger.notice("the database is reachable again") }
                    health.markUp()
                    break
                } catch {
                    if Task.isCancelled { return }
                    if case .up = health.current {
                        logger.error("the database is unreachable: requests fail at once until a probe reaches it",
                                     metadata: ["error": "\(String(reflecting: error))"])
                    }
                    health.markDown(Self.reason(error), at: Date())
                    try? await Task.sleep(for: .seconds(1))
                }
            }
            seen = health.suspicion.generation
        }
    }

    private func probeOnce() async throws {
        var configuration = settings.connectionConfiguration()
        configuration.options.connectTimeout = .seconds(2)
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1_000_000, logger: logger)
        do {
            for try await _ in try await connection.query("SELECT 1", logger: logger) {}
        } catch {
            try? await connection.close()
            throw error
        }
        try? await connection.close()
    }

    private static func reason(_ error: any Error) -> String {
        if let psql = error as? PSQLError {
            if let underlying = psql.underlying { return "\(underlying)" }
            if let message = psql.serverInfo?[.message] { return message }
            return "\(psql.code)"
        }
        return "\(error)"
    }
}

extension PostgresEventStore {
    /// A leased connection for `body`, through ``health``: fails at once while the database is
    /// down, and reports connection-level failures as ``EventStoreError/Code/unavailable``.
    func lease<Result>(
        isolation: isolated (any Actor)? = #isolation, _ body: (PostgresConnection) async throws -> sending Result
    ) async throws -> sending Result {
        try health.check()
        do {
            return try await client.withConnection(isolation: isolation, body)
        } catch {
            throw health.classify(error)
        }
    }

    /// ``lease(isolation:_:)`` inside one transaction.
    func leaseTransaction<Result>(
        isolation: isolated (any Actor)? = #isolation, _ body: (PostgresConnection) async throws -> sending Result
    ) async throws -> sending Result {
        try health.check()
        do {
            return try await client.withTransaction(logger: logger, isolation: isolation, body)
        } catch {
            throw health.classify(error)
        }
    }

    /// The rows of `query` on a leased connection (see ``PostgresClient/fetch(_:logger:)``).
    func fetch(_ query: PostgresQuery, logger: Logger) async throws -> [PostgresRow] {
        try await lease { connection in
            var rows: [PostgresRow] = []
            for try await row in try await connection.query(query, logger: logger) { rows.append(row) }
            return rows
        }
    }

    /// Runs `query` on a leased connection and drains its rows.
    func execute(_ query: PostgresQuery, logger: Logger) async throws {
        try await lease { connection in
            for try await _ in try await connection.query(query, logger: logger) {}
        }
    }
}
