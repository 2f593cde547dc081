import Logging
import NIOCore
public import PostgresNIO
import Synchronization

/// The store's pool of PostgreSQL connections (ADR 0001 §11).
///
/// PostgresNIO 1.33's `PostgresClient` pool stops serving while it fails to open a connection:
/// every lease queues, even with idle connections in hand, until an attempt succeeds, and an
/// attempt made during a refusal is retried alone with a backoff of up to a minute. So a
/// database at `max_connections` (a deploy that doubles the tasks) froze a service whose pool
/// wanted one more connection, and one whose minimum could not be opened trapped
/// (`precondition(minimumConcurrentConnections <= stats.active)`) on its next burst.
///
/// This pool keeps to what the store needs:
/// - a lease takes an idle connection (the most recently used) without suspending, else opens
///   one while fewer than `maximum` are open, else waits for a release, first come first served;
/// - an attempt that fails leaves the lease waiting for a release when other connections are
///   open (the database is there but full); with none open, the lease fails at once. After a
///   failure the pool opens nothing on demand for ``cooldown``: leases wait or fail, they do
///   not hammer a database that refuses. An attempt that succeeds, or ``reached()`` (the
///   store's probe connected), ends the cooldown;
/// - ``failWaiting(_:)`` fails every waiting lease (the store calls it when the database is
///   found down, so that no request stays queued through an outage);
/// - one maintenance pass a second closes connections idle for `idleTimeout` above `minimum`,
///   drops closed ones, and opens connections up to `minimum`. No timer per lease.
public final class StorePool: Sendable {
    public struct Options: Sendable {
        public var minimum: Int
        public var maximum: Int
        public var idleTimeout: Duration
        public var cooldown: Duration = .seconds(1)
    }

    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<PostgresConnection, any Error>
    }

    private struct State {
        /// Idle connections, oldest release first; leases take from the end.
        var idle: [(connection: PostgresConnection, since: ContinuousClock.Instant)] = []
        /// Open connections, idle or leased.
        var open = 0
        var connecting = 0
        var waiters: [Waiter] = []
        /// Waiters not yet queued, and waiters a connection is being opened for.
        var pending: Set<UInt64> = []
        var openingFor: Set<UInt64> = []
        /// Those of them whose lease was cancelled meanwhile.
        var cancelled: Set<UInt64> = []
        var nextWaiter: UInt64 = 0
        var nextConnection = 0
        var lastFailure: (at: ContinuousClock.Instant, error: any Error)?
        var shuttingDown = false

        func coolingDown(_ now: ContinuousClock.Instant, _ cooldown: Duration) -> Bool {
            lastFailure.map { now - $0.at < cooldown } ?? false
        }

        mutating func takeIdle() -> PostgresConnection? {
            while let (connection, _) = idle.popLast() {
                if connection.isClosed {
                    open -= 1
                    continue
                }
                return connection
            }
            return nil
        }

        mutating func startConnecting() -> Int {
            connecting += 1
            nextConnection += 1
            return nextConnection
        }
    }

    private enum Lease {
        case ready(PostgresConnection)
        case open(id: Int)
        case wait
        case fail(any Error)
    }

    let options: Options
    private let configuration: PostgresConnection.Configuration
    private let logger: Logger
    private let state = Mutex(State())
    private let clock = ContinuousClock()

    public init(configuration: PostgresConnection.Configuration, options: Options, logger: Logger) {
        self.configuration = configuration
        self.options = Options(
            minimum: max(0, min(options.minimum, options.maximum)), maximum: max(1, options.maximum), idleTimeout: options.idleTimeout,
            cooldown: options.cooldown)
        self.logger = logger
    }

    /// Connections open now (idle or leased) and being opened.
    public var counts: (open: Int, connecting: Int, idle: Int, waiting: Int) {
        state.withLock { ($0.open, $0.connecting, $0.idle.count, $0.waiters.count) }
    }

    // MARK: Leasing

    /// Runs `body` with a leased connection, which goes back to the pool when `body` ends.
    public func withConnection<Result>(
        isolation: isolated (any Actor)? = #isolation, _ body: (PostgresConnection) async throws -> sending Result
    ) async throws -> sending Result {
        let connection = try await lease()
        defer { release(connection) }
        return try await body(connection)
    }

    func lease() async throws -> PostgresConnection {
        let now = clock.now
        let decision = state.withLock { state -> Lease in
            if state.shuttingDown { return .fail(Self.shutDown) }
            if let connection = state.takeIdle() { return .ready(connection) }
            if state.open + state.connecting < options.maximum, !state.coolingDown(now, options.cooldown) {
                return .open(id: state.startConnecting())
            }
            if state.open + state.connecting > 0 { return .wait }
            return .fail(Self.unavailable(state.lastFailure?.error))
        }
        switch decision {
        case .ready(let connection):
            return connection
        case .fail(let error):
            throw error
        case .wait:
            return try await waitForRelease()
        case .open(let id):
            do {
                let connection = try await connect(id: id)
                state.withLock { state in
                    state.connecting -= 1
                    state.open += 1
                    state.lastFailure = nil
                }
                return connection
            } catch {
                let othersOpen = attemptFailed(error)
                // The database is there but refused one more: wait for one of ours.
                if othersOpen, !Task.isCancelled, !(error is CancellationError) { return try await waitForRelease() }
                throw error is CancellationError ? error : Self.unavailable(error)
            }
        }
    }

    /// Records an attempt that did not open a connection (a cancelled one sets no cooldown),
    /// and passes its slot on: a new attempt for the first waiter, or, when nothing can come
    /// any more, the waiters' failure. True when other connections are open.
    private func attemptFailed(_ error: any Error) -> Bool {
        let now = clock.now
        let cancelled = error is CancellationError || Task.isCancelled
        if !cancelled { logger.warning("could not open a database connection", metadata: ["error": "\(String(reflecting: error))"]) }
        let (othersOpen, action) = state.withLock { state -> (Bool, Release?) in
            state.connecting -= 1
            if !cancelled { state.lastFailure = (now, error) }
            return (state.open > 0, Self.replace(&state, now: now, options: options))
        }
        if let action { perform(action) }
        return othersOpen
    }

    private func waitForRelease() async throws -> PostgresConnection {
        let id = state.withLock { state -> UInt64 in
            state.nextWaiter += 1
            state.pending.insert(state.nextWaiter)
            return state.nextWaiter
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<PostgresConnection, any Error>) in
                let ready = state.withLock { state -> Result<PostgresConnection, any Error>? in
                    state.pending.remove(id)
                    if state.cancelled.remove(id) != nil { return .failure(CancellationError()) }
                    if state.shuttingDown { return .failure(Self.shutDown) }
                    // Released meanwhile: nobody would hand it over.
                    if let connection = state.takeIdle() { return .success(connection) }
                    if state.open + state.connecting == 0 { return .failure(Self.unavailable(state.lastFailure?.error)) }
                    state.waiters.append(Waiter(id: id, continuation: continuation))
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                if let index = state.waiters.firstIndex(where: { $0.id == id }) { return state.waiters.remove(at: index) }
                // Not queued yet, or a connection is being opened for it: they look at this.
                if state.pending.contains(id) || state.openingFor.contains(id) { state.cancelled.insert(id) }
                return nil
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    private enum Release {
        case hand(PostgresConnection, Waiter)
        case close(PostgresConnection)
        case openFor(Waiter, id: Int)
        case fail([Waiter], any Error)
    }

    func release(_ connection: PostgresConnection) {
        let now = clock.now
        let action = state.withLock { state -> Release? in
            if connection.isClosed || state.shuttingDown {
                state.open -= 1
                return Self.replace(&state, now: now, options: options) ?? (connection.isClosed ? nil : .close(connection))
            }
            if !state.waiters.isEmpty { return .hand(connection, state.waiters.removeFirst()) }
            state.idle.append((connection, now))
            return nil
        }
        if let action { perform(action) }
    }

    /// After a connection closed or an attempt failed: a new attempt for the first waiter, or,
    /// when none can come, the waiters' failure.
    private static func replace(_ state: inout State, now: ContinuousClock.Instant, options: Options) -> Release? {
        guard !state.waiters.isEmpty else { return nil }
        if state.shuttingDown {
            defer { state.waiters = [] }
            return .fail(state.waiters, shutDown)
        }
        if state.open + state.connecting < options.maximum, !state.coolingDown(now, options.cooldown) {
            let waiter = state.waiters.removeFirst()
            state.openingFor.insert(waiter.id)
            return .openFor(waiter, id: state.startConnecting())
        }
        if state.open + state.connecting == 0 {
            defer { state.waiters = [] }
            return .fail(state.waiters, unavailable(state.lastFailure?.error))
        }
        return nil
    }

    private func perform(_ action: Release) {
        switch action {
        case .hand(let connection, let waiter):
            waiter.continuation.resume(returning: connection)
        case .close(let connection):
            // Held until closed: PostgresNIO asserts that a connection is closed when it goes.
            connection.close().whenComplete { _ in withExtendedLifetime(connection) {} }
        case .fail(let waiters, let error):
            for waiter in waiters { waiter.continuation.resume(throwing: error) }
        case .openFor(let waiter, let id):
            Task { await open(id: id, for: waiter) }
        }
    }

    /// Opens a connection for a waiter whose turn came when another closed.
    private func open(id: Int, for waiter: Waiter) async {
        do {
            let connection = try await connect(id: id)
            let cancelled = state.withLock { state -> Bool in
                state.connecting -= 1
                state.open += 1
                state.lastFailure = nil
                state.openingFor.remove(waiter.id)
                return state.cancelled.remove(waiter.id) != nil
            }
            if cancelled {
                waiter.continuation.resume(throwing: CancellationError())
                release(connection)
            } else {
                waiter.continuation.resume(returning: connection)
            }
        } catch {
            let now = clock.now
            logger.warning("could not open a database connection", metadata: ["error": "\(String(reflecting: error))"])
            let (outcome, action) = state.withLock { state -> (Result<PostgresConnection, any Error>?, Release?) in
                state.connecting -= 1
                state.lastFailure = (now, error)
                state.openingFor.remove(waiter.id)
                if state.cancelled.remove(waiter.id) != nil {
                    return (.failure(CancellationError()), Self.replace(&state, now: now, options: options))
                }
                if state.shuttingDown { return (.failure(Self.shutDown), nil) }
                if let connection = state.takeIdle() { return (.success(connection), nil) }
                if state.open + state.connecting > 0 {
                    state.waiters.insert(waiter, at: 0)
                    return (nil, nil)
                }
                return (.failure(Self.unavailable(error)), Self.replace(&state, now: now, options: options))
            }
            if let outcome { waiter.continuation.resume(with: outcome) }
            if let action { perform(action) }
        }
    }

    /// The database was reached (the store's probe connected): the cooldown after a failed
    /// attempt ends now, so that the first calls after an outage open connections instead of
    /// failing with that outage's error for up to ``Options/cooldown`` more.
    public func reached() {
        state.withLock { $0.lastFailure = nil }
    }

    /// Fails every waiting lease with `error` (the database was found down).
    public func failWaiting(_ error: any Error) {
        let waiters = state.withLock { state -> [Waiter] in
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.continuation.resume(throwing: error) }
    }

    private func connect(id: Int) async throws -> PostgresConnection {
        try await CommitLedger.connect(configuration: configuration, id: id, logger: logger)
    }

    static let shutDown = EventStoreError(.unavailable, "the store is shutting down")

    static func unavailable(_ error: (any Error)?) -> any Error {
        guard let error else { return EventStoreError(.unavailable, "no database connection could be opened") }
        if let storeError = error as? EventStoreError { return storeError }
        return EventStoreError(.unavailable, "no database connection could be opened: \(DatabaseHealth.describe(error))", underlying: error)
    }

    // MARK: Running

    /// Opens the minimum, then keeps the pool (one pass a second) until cancelled; then closes
    /// every connection: idle ones at once, leased ones as they come back (up to 10 s).
    public func run() async {
        while !Task.isCancelled {
            await maintain()
            try? await Task.sleep(for: .seconds(1))
        }
        // In a task of its own: this one is cancelled, and its sleeps would not wait.
        await Task { await self.shutDownConnections() }.value
    }

    /// One pass: closes connections idle too long above the minimum (and closed ones), and
    /// opens connections up to the minimum.
    func maintain() async {
        let now = clock.now
        let (stale, toOpen) = state.withLock { state -> ([PostgresConnection], [Int]) in
            var stale: [PostgresConnection] = []
            state.idle.removeAll { entry in
                if entry.connection.isClosed {
                    state.open -= 1
                    return true
                }
                return false
            }
            // Oldest first: close while above the minimum and idle too long.
            while let first = state.idle.first, state.open > options.minimum, now - first.since >= options.idleTimeout {
                state.idle.removeFirst()
                state.open -= 1
                stale.append(first.connection)
            }
            let missing = options.minimum - state.open - state.connecting
            guard missing > 0, !state.shuttingDown else { return (stale, []) }
            return (stale, (0..<missing).map { _ in state.startConnecting() })
        }
        for connection in stale { _ = try? await connection.close() }
        await withTaskGroup(of: Void.self) { group in
            for id in toOpen {
                group.addTask {
                    do {
                        let connection = try await self.connect(id: id)
                        self.state.withLock { state in
                            state.connecting -= 1
                            state.open += 1
                            state.lastFailure = nil
                        }
                        self.release(connection)
                    } catch {
                        _ = self.attemptFailed(error)
                    }
                }
            }
        }
    }

    private func shutDownConnections() async {
        let (idle, waiters) = state.withLock { state -> ([PostgresConnection], [Waiter]) in
            state.shuttingDown = true
            let idle = state.idle.map(\.connection)
            state.open -= idle.count
            state.idle = []
            defer { state.waiters = [] }
            return (idle, state.waiters)
        }
        for waiter in waiters { waiter.continuation.resume(throwing: Self.shutDown) }
        for connection in idle { _ = try? await connection.close() }
        for _ in 0..<1_000 {
            if state.withLock({ $0.open + $0.connecting }) <= 0 { return }
            try? await Task.sleep(for: .milliseconds(10))
        }
        logger.warning("the pool stopped with connections still leased")
    }
}
