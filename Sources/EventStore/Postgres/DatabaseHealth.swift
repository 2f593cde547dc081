public import Foundation
import Logging
import PostgresNIO
import Synchronization
import _ConnectionPoolModule

/// Whether the database can be reached, as the store last found out, so that requests fail at
/// once with ``EventStoreError/Code/unavailable`` during an outage instead of queueing.
///
/// PostgresNIO's pool kept a lease request waiting while it failed to open connections, and
/// gave up only when its circuit breaker tripped, a minute after the first failure (not
/// configurable in 1.33): a request during an outage hung for ~67 s and then answered 500.
/// The store's own pool (``StorePool``) fails a lease at once when no connection is open and
/// none can be opened; on top of it, a connection-level failure (refused, closed, reset, a
/// server that is shutting down or starting) asks for a probe: one fresh connection and
/// `SELECT 1`, outside the pool, with a short connect timeout. When the probe fails the database is down: leases
/// fail at once, and the probe runs again every second until it succeeds. A probe that
/// succeeds at once (one connection died, the database is fine) changes nothing.
///
/// Leases already waiting in the pool when the probe finds the database down fail then too
/// (``StorePool/failWaiting(_:)``).
public final class DatabaseHealth: Sendable {
    public enum State: Sendable, Equatable {
        case up
        /// A connection-level failure was seen and the probe is checking: calls wait for it.
        case suspect
        case down(since: Date, reason: String)
    }

    private let state = Mutex<State>(.up)
    /// Rung by a connection-level failure: the probe loop checks the database.
    let suspicion = Doorbell()
    /// Rung whenever the state changes (calls waiting on a suspicion go on).
    private let verdicts = Doorbell()

    public init() {}

    public var current: State { state.withLock { $0 } }

    /// Throws ``EventStoreError/Code/unavailable`` while the database is known to be down; while
    /// a probe is checking (a few milliseconds when the database refuses), waits for its verdict,
    /// so that a call made just after a failure does not queue in the pool.
    func check() async throws {
        for _ in 0..<3 {
            let seen = verdicts.generation
            switch current {
            case .up: return
            case .down(let since, let reason):
                throw EventStoreError(.unavailable, "the database is unreachable since \(since.ISO8601Format()): \(reason)")
            case .suspect:
                await verdicts.wait(after: seen, timeout: .seconds(3))
            }
        }
    }

    /// `error` as the store reports it: a connection-level failure becomes ``EventStoreError/Code/unavailable``
    /// (and asks for a probe); anything else is returned as it is.
    func classify(_ error: any Error) -> any Error {
        guard Self.isConnectionLevel(error) else { return error }
        suspect()
        if let storeError = error as? EventStoreError, storeError.code == .unavailable { return error }
        return EventStoreError(.unavailable, "the database cannot be reached: \(Self.describe(error))", underlying: error)
    }

    /// Asks for a probe; calls wait for its verdict unless the database is already known down.
    func suspect() {
        let changed = state.withLock { state -> Bool in
            guard state == .up else { return false }
            state = .suspect
            return true
        }
        if changed { verdicts.ring() }
        suspicion.ring()
    }

    func markUp() {
        state.withLock { $0 = .up }
        verdicts.ring()
    }

    func markDown(_ reason: String, at now: Date) {
        state.withLock { state in
            if case .down = state { return }
            state = .down(since: now, reason: reason)
        }
        verdicts.ring()
    }

    /// Refused, reset or closed connections (also closed under a query), the pool giving up on opening them, and the
    /// server's own connection-exception and shutdown states (SQLSTATE 08000, 08001, 08003,
    /// 08004, 08006, 57P01–57P03; not 08P01, a protocol violation one request can cause). Looks
    /// through ``EventStoreError/underlying``.
    public static func isConnectionLevel(_ error: any Error) -> Bool {
        switch error {
        case let storeError as EventStoreError:
            if storeError.code == .unavailable { return true }
            return storeError.underlying.map(isConnectionLevel) ?? false
        case let pool as ConnectionPoolError:
            return pool == .connectionCreationCircuitBreakerTripped
        case let psql as PSQLError:
            switch psql.code {
            // `clientClosedConnection`: a query failed because its connection had closed (the
            // server's reason, e.g. 57P01 at a shutdown, is its underlying error).
            case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown: return true
            case .server:
                let state = psql.serverInfo?[.sqlState] ?? ""
                return ["08000", "08001", "08003", "08004", "08006", "57P01", "57P02", "57P03"].contains(state)
            default: return false
            }
        default:
            return false
        }
    }

    static func describe(_ error: any Error) -> String {
        if let psql = error as? PSQLError {
            if let underlying = psql.underlying { return "\(underlying)" }
            if let message = psql.serverInfo?[.message] { return message }
            return "\(psql.code)"
        }
        if let storeError = error as? EventStoreError {
            return storeError.underlying.map(describe) ?? storeError.message
        }
        return "\(error)"
    }
}

extension PostgresEventStore {
    /// The probe loop (part of ``run()``): at start and after each suspicion, one fresh
    /// connection and `SELECT 1`; while that fails at the connection level, the database is
    /// down and the probe repeats every second.
    func probe() async {
        var seen: UInt64 = 0  // a suspicion from before the loop started still counts (run() raises one)
        while !Task.isCancelled {
            seen = await health.suspicion.wait(after: seen, timeout: nil)
            if Task.isCancelled { return }
            while !Task.isCancelled {
                do {
                    try await probeOnce()
                    pool.reached()
                    if case .down = health.current { logger.notice("the database is reachable again") }
                    health.markUp()
                    break
                } catch  where DatabaseHealth.isConnectionLevel(error) {
                    if Task.isCancelled { return }
                    if case .down = health.current {
                    } else {
                        logger.error(
                            "the database is unreachable: calls fail at once until a probe reaches it",
                            metadata: ["error": "\(String(reflecting: error))"])
                    }
                    health.markDown(DatabaseHealth.describe(error), at: Date())
                    // Leases queued before the outage was known would wait for connections
                    // that are not coming back.
                    pool.failWaiting(EventStoreError(.unavailable, "the database is unreachable: \(DatabaseHealth.describe(error))"))
                    try? await Task.sleep(for: .seconds(1))
                } catch {
                    // Reached, but refused for another reason (too many connections, a login
                    // failure): not an outage of the database; calls go on to the pool. The
                    // next probe waits a second (the pool may keep failing meanwhile).
                    if Task.isCancelled { return }
                    logger.warning("the database probe was refused", metadata: ["error": "\(String(reflecting: error))"])
                    health.markUp()
                    try? await Task.sleep(for: .seconds(1))
                    break
                }
            }
        }
    }

    private func probeOnce() async throws {
        var configuration = settings.connectionConfiguration()
        configuration.options.connectTimeout = .seconds(2)
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1_000_000, logger: logger)
        defer { connection.close().whenComplete { _ in } }
        guard await PostgresConnection.answers(connection, within: .seconds(2), logger: logger) else {
            throw EventStoreError(.unavailable, "connected, but SELECT 1 had no answer within 2 s")
        }
    }
}

extension PostgresConnection {
    /// Whether the connection answers `SELECT 1` within `deadline`. Never writes to a connection
    /// that has closed (PostgresNIO 1.33 drops such a query and never answers it); one that
    /// does not answer in time is closed, which ends the query.
    static func answers(
        _ connection: PostgresConnection, _ query: PostgresQuery = "SELECT 1", within deadline: Duration, logger: Logger
    ) async -> Bool {
        guard !connection.isClosed else { return false }
        let verdict = FirstVerdict()
        return await withCheckedContinuation { continuation in
            verdict.set(continuation)
            Task {
                do {
                    for try await _ in try await connection.query(query, logger: logger) {}
                    verdict.resolve(true)
                } catch {
                    verdict.resolve(false)
                }
            }
            Task {
                try? await Task.sleep(for: deadline)
                if verdict.resolve(false) { connection.close().whenComplete { _ in } }
            }
        }
    }
}

/// The first of several racing answers (a query and its deadline).
private final class FirstVerdict: Sendable {
    private let slot = Mutex<(continuation: CheckedContinuation<Bool, Never>?, done: Bool)>((nil, false))

    func set(_ continuation: CheckedContinuation<Bool, Never>) {
        slot.withLock { $0.continuation = continuation }
    }

    /// Resumes the waiter with `value` if nothing did before; true when this call did.
    @discardableResult
    func resolve(_ value: Bool) -> Bool {
        let continuation = slot.withLock { slot -> CheckedContinuation<Bool, Never>? in
            guard !slot.done else { return nil }
            slot.done = true
            defer { slot.continuation = nil }
            return slot.continuation
        }
        continuation?.resume(returning: value)
        return continuation != nil
    }
}

extension PostgresEventStore {
    /// A leased connection for `body`, through ``health``: fails at once while the database is
    /// down, and reports connection-level failures as ``EventStoreError/Code/unavailable``.
    func lease<Result>(
        isolation: isolated (any Actor)? = #isolation, _ body: (PostgresConnection) async throws -> sending Result
    ) async throws -> sending Result {
        try await health.check()
        do {
            return try await pool.withConnection(isolation: isolation) { connection in
                // Handed out just as it closed (the pool has not heard yet): a query on it would
                // never be answered.
                if connection.isClosed { throw EventStoreError(.unavailable, "the pool handed out a closed connection") }
                return try await body(connection)
            }
        } catch {
            throw health.classify(error)
        }
    }

    /// ``lease(isolation:_:)`` inside one transaction: BEGIN, `body`, COMMIT. As PostgresNIO's
    /// `withTransaction`, except that `body`'s errors come out as they are, BEGIN's and COMMIT's
    /// as ``EventStoreError/Code/backend`` (or `.unavailable`), and no ROLLBACK is sent on a
    /// connection that failed or closed (it would never be answered).
    func leaseTransaction<Result>(
        isolation: isolated (any Actor)? = #isolation, _ body: (PostgresConnection) async throws -> sending Result
    ) async throws -> sending Result {
        let logger = self.logger
        return try await lease(isolation: isolation) { connection in
            do {
                try await connection.guardedQuery("BEGIN;", logger: logger)
            } catch {
                throw DatabaseHealth.isConnectionLevel(error) ? error : EventStoreError(.backend, "BEGIN failed", underlying: error)
            }
            let value: Result
            do {
                value = try await body(connection)
            } catch {
                if !connection.isClosed {
                    if DatabaseHealth.isConnectionLevel(error) {
                        // Open but not to be trusted (or the body's own call met an outage):
                        // closed, so that it never goes back to the pool inside a transaction.
                        _ = try? await connection.close()
                    } else {
                        _ = try? await connection.guardedQuery("ROLLBACK;", logger: logger)
                    }
                }
                throw error
            }
            if connection.isClosed { throw EventStoreError(.unavailable, "the connection closed before COMMIT") }
            do {
                try await connection.guardedQuery("COMMIT;", logger: logger)
            } catch {
                throw DatabaseHealth.isConnectionLevel(error) ? error : EventStoreError(.backend, "COMMIT failed", underlying: error)
            }
            return value
        }
    }

    /// The rows of `query` on a leased connection; with `confirmingCommit`, once its commit is
    /// confirmed (``PostgresConnection/confirmCommit(logger:)``: a write that must not be
    /// reported done unless it is).
    func fetch(_ query: PostgresQuery, logger: Logger, confirmingCommit: Bool = false) async throws -> [PostgresRow] {
        try await lease { connection in
            var rows: [PostgresRow] = []
            for try await row in try await connection.guardedQuery(query, logger: logger) { rows.append(row) }
            if confirmingCommit { try await connection.confirmCommit(logger: logger) }
            return rows
        }
    }

    /// Runs `query` on a leased connection and drains its rows.
    func execute(_ query: PostgresQuery, logger: Logger) async throws {
        try await lease { connection in
            for try await _ in try await connection.guardedQuery(query, logger: logger) {}
        }
    }
}
