import Domain
import Foundation
public import Logging
import NIOCore
public import PostgresNIO
import Synchronization

/// The production event store on PostgreSQL.
///
/// Appends are one call of `coworkflow_append` (one round trip, one implicit transaction).
/// Global-order reads hand out only events whose writing transaction is older than the oldest
/// transaction still running, ordered by `(tx_id, position)`, so a sequence value that
/// commits late is never skipped and writers are never serialised by a lock.
///
/// Call ``run()`` in a long-running task: it drives the connection pool, the LISTEN
/// connection that rings ``changes`` for appends from other processes, and the notifier
/// that tells other processes about ours.
public final class PostgresEventStore: EventStore {
    /// The store's connections (``StorePool``, not PostgresNIO's `PostgresClient`).
    public let pool: StorePool
    public let changes = Doorbell()
    public let settings: PostgresSettings
    /// Whether the database is reachable; while it is not, the store's calls fail at once.
    public let health = DatabaseHealth()
    let upcasters: Upcasters
    let logger: Logger
    /// Rung by local appends; the notifier sends a NOTIFY for those no carrier announced.
    private let pendingNotify = Doorbell()
    /// Which appends carry the NOTIFY, and which are announced (ADR 0001 §2).
    private let notices = Mutex(NoticeLedger(interval: PostgresEventStore.notifyInterval))
    private let appended = Atomic<Int>(0)
    private let running = Atomic<Bool>(false)
    private let startedBell = Doorbell()
    let sharedReads = SharedReads()
    /// Read-model commits gathered while one is in flight (ReadModelCommitQueue).
    let readModelCommits = ReadModelCommitQueue()

    public var eventsAppended: Int { appended.load(ordering: .relaxed) }

    static let channel = "coworkflow_events"

    public init(settings: PostgresSettings, upcasters: Upcasters = .catalogo, logger: Logger = Logger(label: "coworkflow.store")) {
        self.settings = settings
        self.upcasters = upcasters
        self.logger = logger
        self.pool = StorePool(
            configuration: settings.connectionConfiguration(),
            options: StorePool.Options(minimum: settings.minimumConnections, maximum: settings.maximumConnections, idleTimeout: settings.idleTimeout),
            logger: logger)
        StoreMetrics.watch(pool)
    }

    /// Runs the pool, the listener and the notifier until the task is cancelled.
    ///
    /// Shuts down in order: the listener and the notifier first, the pool last (a lease asked of
    /// a pool that has stopped fails, so the notifier must not outlive it).
    public func run() async {
        health.suspect()  // the first probe: a database down at start is known at once
        let pool = Task {
            running.store(true, ordering: .releasing)
            startedBell.ring()
            await self.pool.run()
        }
        await withDiscardingTaskGroup { group in
            group.addTask { await self.listen() }
            group.addTask { await self.notifyOthers() }
            group.addTask { await self.probe() }
        }
        pool.cancel()
        await pool.value
    }

    /// Returns once ``run()`` is starting the connection pool (call ``run()`` first, or this
    /// waits for ever). A query made before that waits for the pool anyway, but PostgresNIO logs
    /// a warning for it: a process that starts ``run()`` in a child task awaits this before its
    /// first query.
    public func started() async {
        while true {
            let seen = startedBell.generation
            if running.load(ordering: .acquiring) { return }
            await startedBell.wait(after: seen, timeout: .seconds(1))
        }
    }

    /// Fails with ``EventStoreError/Code/schemaOutdated`` when `coworkflow migrate` is due.
    public func checkSchema() async throws {
        let rows = try await fetch("SELECT coalesce(max(version), 0)::integer FROM schema_migrations", logger: logger)
        let version = try rows.first?.decode(Int.self) ?? 0
        guard version >= PostgresSchema.latest else {
            throw EventStoreError(
                .schemaOutdated, "database schema is at version \(version), this build needs \(PostgresSchema.latest): run `coworkflow migrate`")
        }
    }

    // MARK: Append

    public func append(_ writes: [StreamWrite]) async throws -> AppendResult {
        try AppendValidation.validate(writes)
        // Measured once per call: a collision retried here is neither an error nor a second append.
        return try await StoreMetrics.appending("postgresql", "append") {
            let writes = StoreTracing.stamped(writes)
            var attempt = 0
            while true {
                attempt += 1
                let (carry, finishedBefore) = notices.withLock { $0.begin(at: .now) }
                do {
                    let result = try await lease { connection in
                        let result = try await Self.append(writes, on: connection, logger: self.logger, notify: carry)
                        // Answered at CommandComplete, before its commit: confirmed first.
                        try await connection.confirmCommit(logger: self.logger)
                        return result
                    }
                    didAppend(carried: carry, finishedBefore: finishedBefore)
                    appended.add(result.positions.count, ordering: .relaxed)
                    StoreMetrics.appendsPerCommit.record(1)
                    StoreMetrics.committed(writes, count: result.positions.count)
                    return result.naming(writes)
                } catch let collision as Collision where attempt < Self.appendAttempts {
                    // A concurrent writer of the same ids or of an `.any` stream won; go again.
                    logger.debug("append collided, retrying", metadata: ["constraint": "\(collision.constraint)"])
                    // Writers that lost together retry together and collide again: after the
                    // first loss each waits a random while that doubles, so they spread out.
                    if attempt > 1 { try await Task.sleep(for: Self.collisionBackoff(after: attempt)) }
                } catch let collision as Collision {
                    throw EventStoreError(.backend, "append kept colliding on \(collision.constraint)")
                }
            }
        }
    }

    /// Runs `body` in one transaction; appends made through it commit with the body's other
    /// writes (an inbox row, a read-model row) or not at all.
    public func withTransaction<T: Sendable>(
        _ body: (Transaction) async throws -> T
    ) async throws -> T {
        // Rung on rollback too: readers held back by this transaction may go on.
        defer { didAppend() }
        let tally = AppendTally()
        let result = try await StoreMetrics.appending("postgresql", "transaction") {
            try await leaseTransaction { connection in
                try await body(Transaction(connection: connection, logger: logger, tally: tally))
            }
        }
        appended.add(tally.events, ordering: .relaxed)
        tally.committed()
        return result
    }

    /// One open transaction of this store.
    public struct Transaction {
        public let connection: PostgresConnection
        let logger: Logger
        /// Events appended through it (counted once the transaction commits).
        let tally: AppendTally

        /// Appends inside the transaction; conflicts surface as ``WrongExpectedVersion``.
        public func append(_ writes: [StreamWrite]) async throws -> AppendResult {
            try AppendValidation.validate(writes)
            // A query on a closed connection is never answered (PostgresNIO 1.33).
            if connection.isClosed { throw EventStoreError(.unavailable, "the transaction's connection closed") }
            do {
                try await connection.guardedQuery("SAVEPOINT coworkflow_append", logger: logger)
                let writes = StoreTracing.stamped(writes)
                let result = try await PostgresEventStore.append(writes, on: connection, logger: logger, savepoint: true)
                try await connection.guardedQuery("RELEASE SAVEPOINT coworkflow_append", logger: logger)
                tally.add(result, writes)
                return result.naming(writes)
            } catch let collision as Collision {
                throw EventStoreError(.backend, "append collided on \(collision.constraint) inside a transaction")
            }
        }

        public func append(to stream: StreamName, expected: ExpectedVersion, events: [NewEvent]) async throws -> AppendResult {
            try await append([StreamWrite(stream: stream, expected: expected, events: events)])
        }
    }

    /// A unique-key collision that a retry can resolve.
    struct Collision: Error {
        let constraint: String
    }

    /// How many times one append is tried before a run of collisions is an error.
    static let appendAttempts = 25

    /// The random wait before the retry that follows `attempt` collisions: up to 1 ms after
    /// the second, doubling to at most 64 ms (25 losses in a row wait at most 1.2 s in all).
    static func collisionBackoff(after attempt: Int) -> Duration {
        let ceiling = 1 << min(attempt - 2, 6)
        return .microseconds(Int.random(in: 0...(ceiling * 1000)))
    }

    private func didAppend(carried: Bool = false, finishedBefore: UInt64 = 0) {
        notices.withLock { $0.finish(carried: carried, finishedBefore: finishedBefore) }
        changes.ring()
        pendingNotify.ring()
    }

    /// Appends with ONE plain `INSERT … SELECT` (one round trip, one snapshot, no function):
    /// an `.exact(N)` stream must have version N (else nothing is inserted) and takes N+1…;
    /// concurrent writers collide on the unique keys. Only after a refusal does it look
    /// further: stored ids (an idempotent retry) or the actual versions (a conflict).
    static func append(
        _ writes: [StreamWrite], on connection: PostgresConnection, logger: Logger, savepoint: Bool = false, notify: Bool = false
    ) async throws -> AppendResult {
        let inserted: AppendResult?
        do {
            inserted = try await insert(writes, on: connection, logger: logger, notify: notify)
        } catch let error as PSQLError {
            // A lost connection takes no recovery queries (they would never be answered).
            if connection.isClosed || DatabaseHealth.isConnectionLevel(error) { throw error }
            // Inside a caller's transaction the failed statement aborted it; back to the
            // savepoint taken before it, the recovery queries can run.
            if savepoint { try await connection.guardedQuery("ROLLBACK TO SAVEPOINT coworkflow_append", logger: logger) }
            let ids = writes.flatMap { $0.events.map(\.eventId) }
            return try await recover(from: error, writes: writes, ids: ids, on: connection, logger: logger)
        }
        if let inserted { return inserted }
        // An `.exact(N)` stream did not have version N: nothing was inserted.
        if let conflict = try await afterRefusal(writes, ids: [], on: connection, logger: logger).conflict { throw conflict }
        throw Collision(constraint: "expected version moved")
    }

    /// Runs the statement that fits the append: ``PostgresStatements/AppendSingle`` for one
    /// event to one stream, ``PostgresStatements/AppendOne`` for several events to one stream,
    /// ``PostgresStatements/AppendMany`` otherwise. Nil when nothing was inserted.
    private static func insert(
        _ writes: [StreamWrite], on connection: PostgresConnection, logger: Logger, notify: Bool
    ) async throws -> AppendResult? {
        if writes.count == 1, writes[0].events.count == 1 {
            let write = writes[0]
            let rows = try await connection.guardedExecute(
                PostgresStatements.AppendSingle(
                    stream: write.stream.rawValue, expected: write.expected.code, event: write.events[0], notify: notify), logger: logger)
            var result: AppendResult?
            for try await (version, transaction, position) in rows {
                result = AppendResult(
                    positions: [GlobalPosition(transaction: transaction, sequence: position)],
                    versions: [write.stream: version])
            }
            return result
        }
        var columns = AppendColumns()
        for (index, write) in writes.enumerated() {
            for event in write.events { columns.add(event, stream: index + 1) }
        }
        if writes.count == 1 {
            let rows = try await connection.guardedExecute(
                PostgresStatements.AppendOne(
                    stream: writes[0].stream.rawValue, expected: writes[0].expected.code, columns: columns, notify: notify), logger: logger)
            var result: AppendResult?
            for try await (version, transaction, positions) in rows where positions.count == columns.ids.count {
                result = AppendResult(
                    positions: positions.map { GlobalPosition(transaction: transaction, sequence: $0) },
                    versions: [writes[0].stream: version])
            }
            return result
        }
        let rows = try await connection.guardedExecute(
            PostgresStatements.AppendMany(
                streams: writes.map(\.stream.rawValue), expected: writes.map(\.expected.code), columns: columns, notify: notify), logger: logger)
        var appended: [AppendedRow] = []
        for try await row in rows { appended.append(Self.appendedRow(row)) }
        return appended.isEmpty ? nil : AppendResult(ids: columns.ids, rows: appended)
    }

    private static func appendedRow(_ row: PostgresStatements.InsertedRow) -> AppendedRow {
        AppendedRow(
            eventId: row.0, stream: StreamName(row.1), version: row.2,
            position: GlobalPosition(transaction: row.3, sequence: row.4))
    }

    /// The column arrays of one append, bound as PostgreSQL arrays.
    struct AppendColumns: Sendable {
        var streamIndex: [Int32] = []
        var ids: [UUID] = []
        var types: [String] = []
        var schemaVersions: [Int32] = []
        var data: [String] = []
        var metadata: [String] = []
        var occurredAt: [Date] = []
        /// The last metadata written and its JSON: the events of one append usually share it.
        private var lastMetadata: (EventMetadata, String)?

        mutating func add(_ event: NewEvent, stream: Int) {
            streamIndex.append(Int32(stream))
            ids.append(event.eventId)
            types.append(event.type)
            schemaVersions.append(Int32(event.schemaVersion))
            data.append(String(decoding: event.data, as: UTF8.self))
            if let (last, json) = lastMetadata, last == event.metadata {
                metadata.append(json)
            } else {
                let json = MetadataJSON.encode(event.metadata)
                lastMetadata = (event.metadata, json)
                metadata.append(json)
            }
            occurredAt.append(event.occurredAt)
        }
    }

    /// After a refused insert: an idempotent retry answers with what is stored; a version
    /// conflict says which stream; a race among `.any` writers or a deadlock between crossed
    /// multi-stream appends is retried by the caller.
    private static func recover(
        from error: PSQLError, writes: [StreamWrite], ids: [UUID], on connection: PostgresConnection, logger: Logger
    ) async throws -> AppendResult {
        let state = error.serverInfo?[.sqlState]
        switch state {
        case "23505", "40P01":
            let found = try await afterRefusal(writes, ids: ids, on: connection, logger: logger)
            if let stored = found.stored { return stored }
            if let conflict = found.conflict { throw conflict }
            throw Collision(constraint: error.serverInfo?[.constraintName] ?? (state == "40P01" ? "deadlock" : "?"))
        case "42P01", "42703":
            throw EventStoreError(.schemaOutdated, "event store schema missing: run `coworkflow migrate`", underlying: error)
        default:
            throw EventStoreError(.backend, "append failed", underlying: error)
        }
    }

    /// What a refused append needs to know, in one round trip: the rows already stored under
    /// its ids (an idempotent retry answers with them; nil when none is stored) and the first
    /// written stream whose expectation no longer holds.
    private static func afterRefusal(
        _ writes: [StreamWrite], ids: [UUID], on connection: PostgresConnection, logger: Logger
    ) async throws -> (stored: AppendResult?, conflict: WrongExpectedVersion?) {
        let checked = writes.filter { $0.expected != .any }
        let names = checked.map(\.stream.rawValue)
        let rows = try await connection.guardedQuery(
            """
            SELECT NULL::uuid, s.name, (SELECT coalesce(max(v.stream_version), 0) FROM events v WHERE v.stream_id = s.name), 0::bigint, 0::bigint
            FROM unnest(\(names)::text[]) AS s(name)
            UNION ALL
            SELECT event_id, stream_id, stream_version, tx_id, position FROM events WHERE event_id = ANY(\(ids)::uuid[])
            """, logger: logger)
        var stored: [AppendedRow] = []
        var versions: [String: Int64] = [:]
        for try await (id, stream, version, transaction, position) in rows.decode((UUID?, String, Int64, Int64, Int64).self) {
            if let id {
                stored.append(
                    AppendedRow(
                        eventId: id, stream: StreamName(stream), version: version,
                        position: GlobalPosition(transaction: transaction, sequence: position)))
            } else {
                versions[stream] = version
            }
        }
        if let result = try AppendResult.retried(ids: ids, writes: writes, stored: stored) { return (result, nil) }
        for write in checked {
            let actual = versions[write.stream.rawValue] ?? 0
            if !write.expected.accepts(actual: actual) {
                return (nil, WrongExpectedVersion(stream: write.stream, expected: write.expected, actual: actual))
            }
        }
        return (nil, nil)
    }

    private static func version(of stream: StreamName, on connection: PostgresConnection, logger: Logger) async throws -> Int64 {
        let rows = try await connection.guardedQuery(
            "SELECT coalesce(max(stream_version), 0) FROM events WHERE stream_id = \(stream.rawValue)", logger: logger)
        var version: Int64 = 0
        for try await value in rows.decode(Int64.self) { version = value }
        return version
    }

    // MARK: Read

    public func readStream(_ stream: StreamName, from version: Int64, limit: Int) async throws -> [RecordedEvent] {
        try await StoreMetrics.reading(.stream) {
            try await read(PostgresStatements.ReadStream(stream: stream.rawValue, from: version, limit: Int64(limit)))
        }
    }

    public func readStreams(_ reads: [StreamRead]) async throws -> [StreamName: [RecordedEvent]] {
        let reads = StreamRead.merged(reads)
        guard !reads.isEmpty else { return [:] }
        let events = try await StoreMetrics.reading(.streams) {
            try await read(PostgresStatements.ReadStreams(streams: reads.map(\.stream.rawValue), versions: reads.map(\.version)))
        }
        var streams = Dictionary(uniqueKeysWithValues: reads.map { ($0.stream, [RecordedEvent]()) })
        for event in events { streams[event.stream, default: []].append(event) }
        return streams
    }

    public func readCategory(_ category: String, after position: GlobalPosition, limit: Int) async throws -> [RecordedEvent] {
        try await StoreMetrics.reading(.category) {
            try await read(PostgresStatements.ReadCategory(category: category, after: position, limit: Int64(limit)))
        }
    }

    public func readAll(after position: GlobalPosition, limit: Int) async throws -> [RecordedEvent] {
        let statement = PostgresStatements.ReadAll(after: position, limit: Int64(limit))
        return try await StoreMetrics.reading(.all) {
            guard limit >= Self.bulkRead else { return try await read(statement) }
            return try upcasters.upcast(try await readBulk(statement, decode: PostgresStatements.event))
        }
    }

    /// The smallest `limit` of a global-order read that takes ``readBulk(_:decode:)``.
    static let bulkRead = 1_000

    /// A large global-order read (a replay, a rebuild, a catch-up): its rows are decoded as
    /// PostgresNIO hands them over, on the connection's event loop, instead of one by one
    /// through its async row sequence, which cost the client ~0.5 µs a row (ADR 0001 §5). That
    /// path only takes unnamed statements, which the server plans on every call (~0.1–0.4 ms):
    /// nothing against a batch of thousands of rows, too much for the relay's and the
    /// projections' small reads, which keep the prepared statement.
    private func readBulk<Statement: GlobalOrderRead>(
        _ statement: Statement, decode: @escaping @Sendable (PostgresRow) throws -> Statement.Row
    ) async throws -> [Statement.Row] {
        let query = PostgresQuery(unsafeSQL: Statement.sql, binds: try statement.makeBindings())
        let rows = RowCollector<Statement.Row>()
        rows.values.reserveCapacity(Int(min(statement.limit, 100_000)))
        let logger = self.logger
        do {
            try await withTaskCancellationHandler {
                try await lease { connection in
                    _ = try await connection.guarded { connection in
                        try await connection.query(query, logger: logger) { row in
                            do {
                                // A future does not hear of its task's cancellation: the rows do.
                                if rows.cancelled.load(ordering: .relaxed) { throw CancellationError() }
                                rows.values.append(try decode(row))
                            } catch {
                                // PostgresNIO cancels the query and fails it as cancelled, dropping
                                // what the closure threw: the first failure is kept to say why.
                                rows.failure = rows.failure ?? error
                                throw error
                            }
                        }.get()
                    }
                }
            } onCancel: {
                rows.cancelled.store(true, ordering: .relaxed)
            }
        } catch {
            if let failure = rows.failure { throw failure }
            if let error = error as? PSQLError { throw EventStoreError(.backend, "read failed", underlying: error) }
            throw error
        }
        return rows.values
    }

    /// One read for the runners and the relay of this process that ask for the same batch
    /// (``SharedReads``). Plain ``readAll(after:limit:)`` always asks the database.
    public func readAllShared(after position: GlobalPosition, limit: Int) async throws -> [RecordedEvent] {
        try await sharedReads.read(after: position, limit: limit) { try await self.readAll(after: $0, limit: $1) }
    }

    public func readAllPayloads(after position: GlobalPosition, limit: Int) async throws -> [EventPayload] {
        if limit >= Self.bulkRead {
            let statement = PostgresStatements.ReadAllPayloads(after: position, limit: Int64(limit))
            return try upcasters.upcast(try await readBulk(statement, decode: PostgresStatements.ReadAllPayloads.decode))
        }
        var payloads: [EventPayload] = []
        payloads.reserveCapacity(min(limit, 100_000))
        do {
            try await lease { connection in
                let statement = PostgresStatements.ReadAllPayloads(after: position, limit: Int64(limit))
                for try await payload in try await connection.guardedExecute(statement, logger: logger) { payloads.append(payload) }
            }
        } catch let error as PSQLError {
            throw EventStoreError(.backend, "read failed", underlying: error)
        }
        return try upcasters.upcast(payloads)
    }

    public func headPosition() async throws -> GlobalPosition {
        let rows = try await fetch(
            """
            SELECT tx_id, position FROM events
            WHERE tx_id < pg_snapshot_xmin(pg_current_snapshot())::text::bigint
            ORDER BY tx_id DESC, position DESC LIMIT 1
            """, logger: logger)
        guard let (tx, position) = try rows.first?.decode((Int64, Int64).self) else { return .start }
        return GlobalPosition(transaction: tx, sequence: position)
    }

    public func streamVersion(_ stream: StreamName) async throws -> Int64 {
        try await lease { connection in
            try await Self.version(of: stream, on: connection, logger: self.logger)
        }
    }

    func read<Statement: PostgresPreparedStatement>(_ statement: Statement) async throws -> [RecordedEvent]
    where Statement.Row == RecordedEvent {
        var events: [RecordedEvent] = []
        events.reserveCapacity(64)
        do {
            try await lease { connection in
                for try await event in try await connection.guardedExecute(statement, logger: logger) { events.append(event) }
            }
        } catch let error as PSQLError {
            throw EventStoreError(.backend, "read failed", underlying: error)
        }
        return try upcasters.upcast(events)
    }

    // MARK: Checkpoints

    public func checkpoint(_ name: String) async throws -> GlobalPosition {
        let rows = try await fetch(
            "SELECT tx_id, position FROM subscription_checkpoints WHERE name = \(name)", logger: logger)
        guard let (tx, position) = try rows.first?.decode((Int64, Int64).self) else { return .start }
        return GlobalPosition(transaction: tx, sequence: position)
    }

    public func checkpoints(_ names: [String]) async throws -> [GlobalPosition] {
        let rows = try await fetch(
            "SELECT name, tx_id, position FROM subscription_checkpoints WHERE name = ANY(\(names))", logger: logger)
        var saved: [String: GlobalPosition] = [:]
        for row in rows {
            let (name, tx, position) = try row.decode((String, Int64, Int64).self)
            saved[name] = GlobalPosition(transaction: tx, sequence: position)
        }
        return names.map { saved[$0] ?? .start }
    }

    public func saveCheckpoint(_ name: String, _ position: GlobalPosition) async throws {
        try await execute(
            """
            INSERT INTO subscription_checkpoints (name, tx_id, position) VALUES (\(name), \(position.transaction), \(position.sequence))
            ON CONFLICT (name) DO UPDATE SET tx_id = excluded.tx_id, position = excluded.position, updated_at = now()
            """, logger: logger)
    }

    // MARK: Notifications

    /// Keeps a LISTEN connection open and rings ``changes`` on every notification; reconnects
    /// with capped backoff. While it is down, subscriptions still poll.
    private func listen() async {
        var backoff: Duration = .milliseconds(100)
        while !Task.isCancelled {
            var connection: PostgresConnection?
            do {
                let open = try await PostgresConnection.connect(
                    configuration: settings.connectionConfiguration(), id: 0, logger: logger)
                connection = open
                if Task.isCancelled {
                    try? await open.close()
                    return
                }
                try await withTaskCancellationHandler {
                    try await open.listen(on: Self.channel) { notifications in
                        // LISTEN is registered: from here on nothing is missed.
                        backoff = .milliseconds(100)
                        changes.ring()  // catch up on whatever was appended while we were away
                        for try await _ in notifications { changes.ring() }
                    }
                } onCancel: {
                    open.close().whenComplete { _ in }
                }
            } catch {
                if !Task.isCancelled {
                    logger.warning("event listener lost its connection", metadata: ["error": "\(error)"])
                    if DatabaseHealth.isConnectionLevel(error) { health.suspicion.ring() }
                }
            }
            try? await connection?.close()
            if Task.isCancelled { return }
            try? await Task.sleep(for: backoff)
            backoff = min(backoff * 2, .seconds(5))
        }
    }

    /// Tells other processes about the local appends that no carrier announced (ADR 0001 §2):
    /// under a stream of appends one of them carries the NOTIFY every interval and this sends
    /// nothing; after the last append of a burst, or a transaction that appended, it sends one
    /// NOTIFY of its own, outside any write and with `synchronous_commit = off`.
    private func notifyOthers() async {
        var seen = pendingNotify.generation
        while !Task.isCancelled {
            // No timeout: this waits after nearly every append (see Doorbell.wait).
            let now = await pendingNotify.wait(after: seen, timeout: nil)
            guard now != seen, !Task.isCancelled else { continue }
            seen = now
            let target = notices.withLock { $0.finished }
            switch notices.withLock({ $0.pending(upTo: target, at: .now) }) {
            case .none: continue
            case .sendNow: break
            case .awaitCarrier:
                // A carrier that begins within an interval announces these.
                try? await Task.sleep(for: Self.notifyInterval * 2)
            }
            guard let upTo = notices.withLock({ $0.standalone(upTo: target, at: .now) }) else { continue }
            do {
                try await execute(
                    "SELECT set_config('synchronous_commit', 'off', true), pg_notify(\(Self.channel), '')",
                    logger: logger)
                notices.withLock { $0.sent(upTo: upTo) }
            } catch {
                if Task.isCancelled { return }
                logger.debug("notify failed; subscribers will poll", metadata: ["error": "\(error)"])
            }
        }
    }

    static let notifyInterval: Duration = .milliseconds(5)
}

/// The rows of one ``PostgresEventStore/readBulk(_:decode:)``: PostgresNIO calls its row
/// closure on the connection's event loop, one row after another, and completes the query's
/// future after the last, so the values are only touched by one thread at a time.
private final class RowCollector<Value>: @unchecked Sendable {
    var values: [Value] = []
    /// What the row closure threw first (read after the query's future failed).
    var failure: (any Error)?
    /// Set when the reading task is cancelled.
    let cancelled = Atomic(false)
}
