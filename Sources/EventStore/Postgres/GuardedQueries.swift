import Logging
import NIOCore
public import PostgresNIO
import Synchronization

/// Queries that fail when their connection closes before answering, instead of waiting for
/// ever.
///
/// PostgresNIO 1.33 hands a query to its channel without a write promise
/// (`channel.write(task, promise: nil)`) and then awaits the query's own promise. A query
/// written while the channel is being torn down (the server closed the connection, a
/// restart) reaches no handler: the write fails in silence, and the promise is never
/// completed. Checking ``PostgresConnection/isClosed`` first narrows the window but cannot
/// close it: the write crosses to the event loop after the check. The faults harness found
/// the consequence twice (docs/reliability.md): after a PostgreSQL restart every pool
/// connection a request had leased at that moment stayed leased for ever, the pool ran dry
/// and the process stopped answering; a projections process whose shared read was dropped
/// froze every read model while holding their leases.
///
/// So the call that writes the query runs in a task of its own, and the caller waits for
/// whichever comes first: its answer, or the connection's close plus ``grace`` (time for
/// PostgresNIO to fail the queries it did receive with their own errors). A dropped query's
/// task is left waiting; it holds nothing but its promise. Rows are read as before: once the
/// query reached the handler, a close fails its row stream.
extension PostgresConnection {
    /// How long after its connection closed a query that has not answered is given up.
    static let grace: TimeAmount = .milliseconds(500)

    /// `query` (see the extension's note).
    @discardableResult
    public func guardedQuery(
        _ query: PostgresQuery, logger: Logger, file: String = #fileID, line: Int = #line
    ) async throws -> PostgresRowSequence {
        try await guarded { try await $0.query(query, logger: logger, file: file, line: line) }
    }

    /// `execute` of a prepared statement (see the extension's note).
    public func guardedExecute<Statement: PostgresPreparedStatement>(
        _ statement: Statement, logger: Logger, file: String = #fileID, line: Int = #line
    ) async throws -> AsyncThrowingMapSequence<PostgresRowSequence, Statement.Row> {
        // The mapped sequence is not Sendable only because its transform is a closure; the
        // transform captures nothing but the statement, which is.
        try await guarded { UncheckedRows(rows: try await $0.execute(statement, logger: logger, file: file, line: line)) }.rows
    }

    /// Runs `operation` (which writes one query to this connection and awaits its answer) and
    /// returns its answer, or fails with ``EventStoreError/Code/unavailable`` when the
    /// connection closed and no answer came within ``grace``.
    public func guarded<T: Sendable>(_ operation: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        let watch = ConnectionWatch.of(self)
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let waiter = watch.add { continuation.resume(throwing: $0) }
            Task {
                let result: Result<T, any Error>
                do {
                    result = .success(try await operation(self))
                } catch {
                    result = .failure(error)
                }
                if watch.claim(waiter) { continuation.resume(with: result) }
            }
        }
    }
}

private struct UncheckedRows<Row>: @unchecked Sendable {
    let rows: AsyncThrowingMapSequence<PostgresRowSequence, Row>
}

/// The queries waiting for an answer on one connection, failed ``PostgresConnection/grace``
/// after it closes. One per open connection, with one callback on its close future (a
/// callback per query would pile up on a connection that serves millions).
final class ConnectionWatch: Sendable {
    private struct State {
        var closed = false
        var next: UInt64 = 0
        /// How to fail each query still waiting.
        var waiting: [UInt64: @Sendable (any Error) -> Void] = [:]
    }

    private let state = Mutex(State())
    private let eventLoop: any EventLoop
    /// Whose watch this is: a connection can be freed (it reads closed) before its close
    /// future's callback removes the watch, and a new connection may then get its address.
    private weak let connection: PostgresConnection?

    private init(_ connection: PostgresConnection) {
        self.eventLoop = connection.eventLoop
        self.connection = connection
    }

    /// The watches of the connections that are open, by identity; an entry whose connection
    /// is gone is replaced (see ``connection``).
    private static let watches = Mutex<[ObjectIdentifier: ConnectionWatch]>([:])

    /// Whether `connection` has a watch now (for tests).
    static func isWatching(_ connection: PostgresConnection) -> Bool {
        watches.withLock { $0[ObjectIdentifier(connection)]?.connection === connection }
    }

    static func of(_ connection: PostgresConnection) -> ConnectionWatch {
        let key = ObjectIdentifier(connection)
        let (watch, created) = watches.withLock { watches -> (ConnectionWatch, Bool) in
            if let watch = watches[key], watch.connection === connection { return (watch, false) }
            let watch = ConnectionWatch(connection)
            watches[key] = watch
            return (watch, true)
        }
        if created {
            // Outside the lock: on a connection already closed the callback may run at once.
            connection.closeFuture.whenComplete { _ in
                watches.withLock { watches in
                    if watches[key] === watch { watches[key] = nil }
                }
                watch.closed()
            }
        }
        return watch
    }

    /// Registers a waiting query and how to fail it; on a connection already closed its grace
    /// starts now.
    func add(_ fail: @escaping @Sendable (any Error) -> Void) -> UInt64 {
        let (id, closed) = state.withLock { state -> (UInt64, Bool) in
            state.next += 1
            state.waiting[state.next] = fail
            return (state.next, state.closed)
        }
        if closed { giveUp([id]) }
        return id
    }

    /// True when the query's own answer is the one to give (it was not given up meanwhile).
    func claim(_ id: UInt64) -> Bool {
        state.withLock { $0.waiting.removeValue(forKey: id) != nil }
    }

    private func closed() {
        let ids = state.withLock { state -> [UInt64] in
            state.closed = true
            return Array(state.waiting.keys)
        }
        if !ids.isEmpty { giveUp(ids) }
    }

    private func giveUp(_ ids: [UInt64]) {
        eventLoop.scheduleTask(in: PostgresConnection.grace) {
            let late = self.state.withLock { state in ids.compactMap { state.waiting.removeValue(forKey: $0) } }
            let error = EventStoreError(.unavailable, "the database connection closed before the query was answered")
            for fail in late { fail(error) }
        }
    }
}

extension PostgresConnection {
    /// Waits for the end of the implicit transaction of the statement that just answered on
    /// this connection, and fails when it did not commit.
    ///
    /// PostgresNIO answers a statement at its CommandComplete. A statement outside a
    /// transaction block commits after that, at the Sync that follows, and PostgreSQL sends the
    /// outcome only then: ReadyForQuery when it committed, an ErrorResponse when the commit
    /// failed (a fast shutdown's `SIGTERM` taken while the commit waited, a deferred check).
    /// PostgresNIO takes an error after CommandComplete for an unexpected message and closes
    /// the connection; the statement's caller has its rows by then. So a write answered this
    /// way may not be stored: the faults harness found two bookings answered 201 that a
    /// PostgreSQL restart had rolled back (docs/reliability.md).
    ///
    /// On a connection the store opened with a ``CommitLedger`` (every pool connection), the
    /// outcome is read from the messages that came after the statement's CommandComplete: at
    /// once when its ReadyForQuery came in the same read (nearly always), else when it comes.
    /// Call this after the statement's rows were read to the end, before anything else is
    /// written to the connection.
    ///
    /// On any other connection an empty statement is sent: PostgresNIO sends it only after
    /// ReadyForQuery, so it is answered when the commit was, and fails with the connection
    /// when the commit did not. One round trip, no planning.
    func confirmCommit(logger: Logger) async throws {
        if let ledger = CommitLedger.of(self) {
            switch await ledger.lastOutcome() {
            case .committed:
                return
            case .failed:
                throw EventStoreError(.unavailable, "the write's commit failed: it is not stored")
            case .unknown:
                throw EventStoreError(
                    .unavailable, "the connection closed before its write was confirmed committed: the write may or may not be stored")
            }
        }
        do {
            try await guardedQuery("", logger: logger)
        } catch {
            throw EventStoreError(
                .unavailable, "the connection closed before its write was confirmed committed: the write may or may not be stored",
                underlying: error)
        }
    }
}
