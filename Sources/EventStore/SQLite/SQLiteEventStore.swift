import Foundation
public import GRDB
import Synchronization
import Telemetry

/// The embedded event store: one SQLite file in WAL mode, for `coworkflow serve` with no
/// servers. Writes are serialised by SQLite itself, so commit order is position order and the
/// global order can never skip; `tx_id` still counts appends so checkpoints look the same as
/// PostgreSQL's.
public final class SQLiteEventStore: EventStore {
    public let database: DatabasePool
    public let changes = Doorbell()
    private let appended = Atomic<Int>(0)

    /// Events appended since this object opened the file (in transactions too).
    public var eventsAppended: Int { appended.load(ordering: .relaxed) }
    let upcasters: Upcasters
    /// Names of the leases held in this process (see ``whileHolding(lease:retryEvery:_:)``).
    let leases = Mutex<Set<String>>([])
    let sharedReads = SharedReads()
    /// Checkpoints the write-ahead log off the writer's commits (``SQLiteCheckpointer``).
    let checkpointer: SQLiteCheckpointer
    /// Concurrent appends commit together (``SQLiteAppendQueue``).
    let appendQueue: SQLiteAppendQueue

    /// Opens (creating if needed) the store at `path` and applies pending migrations;
    /// `checkpointPages` is the log's length that wakes the checkpointer.
    public init(path: String, upcasters: Upcasters = .catalogo, checkpointPages: Int32 = 1_000) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        database = try DatabasePool(path: path, configuration: configuration)
        appendQueue = SQLiteAppendQueue(database: database)
        self.upcasters = upcasters
        try SQLiteSchema.migrator.migrate(database)
        checkpointer = try SQLiteCheckpointer(path: path, frames: checkpointPages)
        database.writeWithoutTransaction { [checkpointer] in checkpointer.install(on: $0) }
        StoreMetrics.declare()
    }

    deinit {
        database.writeWithoutTransaction { [checkpointer] in checkpointer.remove(from: $0) }
    }

    /// Checkpoints of the write-ahead log made so far (``SQLiteCheckpointer``).
    public var checkpointsMade: Int { checkpointer.checkpoints }
    /// Checkpoints the writer finished in a commit (what was written while the checkpointer copied).
    public var checkpointsFinishedInCommits: Int { checkpointer.finishedInCommits }
    /// A checkpoint of the log is under way.
    public var checkpointsRunning: Bool { checkpointer.busy }

    /// Migration ids applied to this file, oldest first.
    public func appliedMigrations() throws -> [String] {
        try database.read { try SQLiteSchema.migrator.appliedMigrations($0) }
    }

    // MARK: Append

    public func append(_ writes: [StreamWrite]) async throws -> AppendResult {
        try AppendValidation.validate(writes)
        let result = try await StoreMetrics.appending("sqlite", "append") {
            let writes = StoreTracing.stamped(writes)
            return try await appendQueue.append(writes)
        }
        changes.ring()
        appended.add(result.positions.count, ordering: .relaxed)
        StoreMetrics.committed(writes, count: result.positions.count)
        return result.naming(writes)
    }

    /// Runs `body` in one write transaction; appends made through it commit with the body's
    /// other writes or not at all.
    public func withTransaction<T: Sendable>(_ body: @escaping @Sendable (Transaction) throws -> T) async throws -> T {
        defer { changes.ring() }
        let tally = AppendTally()
        let result = try await StoreMetrics.appending("sqlite", "transaction") {
            // Its appends carry the span of the transaction, whose task this is (the writer's is not).
            let traceparent = Traces.traceparent(of: .current ?? .topLevel)
            return try await database.write { db in try body(Transaction(db: db, tally: tally, traceparent: traceparent)) }
        }
        appended.add(tally.events, ordering: .relaxed)
        tally.committed()
        return result
    }

    public struct Transaction {
        public let db: Database
        /// Events appended through it (counted once the transaction commits).
        let tally: AppendTally
        /// The transaction's span, for the events appended without one.
        var traceparent: String? = nil

        /// All or nothing even when the caller catches the error and goes on, as in PostgreSQL.
        public func append(_ writes: [StreamWrite]) throws -> AppendResult {
            try AppendValidation.validate(writes)
            let writes = traceparent.map { traceparent in writes.map { $0.stamped(traceparent: traceparent) } } ?? writes
            let result = try db.savepoint { try SQLiteEventStore.append(writes, in: db) }.get()
            tally.add(result, writes)
            return result.naming(writes)
        }
    }

    static func append(_ writes: [StreamWrite], in db: Database) throws -> AppendResult {
        let ids = writes.flatMap { $0.events.map(\.eventId) }
        let existing = try Row.fetchAll(
            db.statement(
                listing: ids.count,
                """
                SELECT event_id, stream_id, stream_version, tx_id, position FROM events
                WHERE event_id IN (\(databaseQuestionMarks(count: ids.count)))
                """),
            arguments: StatementArguments(ids.map { $0.lowercasedString }))
        let stored = try existing.map { row -> AppendedRow in
            guard let id = UUID(text: row["event_id"] as String) else {
                throw EventStoreError(.corruptRow, "event id is not a UUID at position \(row["position"] as Int64)")
            }
            return AppendedRow(
                eventId: id, stream: StreamName(row["stream_id"] as String), version: row["stream_version"],
                position: GlobalPosition(transaction: row["tx_id"], sequence: row["position"]))
        }
        if let retried = try AppendResult.retried(ids: ids, writes: writes, stored: stored) { return retried }

        var current: [Int64] = []
        for write in writes {
            let actual =
                try Int64.fetchOne(
                    db.cachedStatement(sql: "SELECT coalesce(max(stream_version), 0) FROM events WHERE stream_id = ?"),
                    arguments: [write.stream.rawValue]) ?? 0
            guard write.expected.accepts(actual: actual) else {
                throw WrongExpectedVersion(stream: write.stream, expected: write.expected, actual: actual)
            }
            current.append(actual)
        }

        let transaction = (try Int64.fetchOne(db.cachedStatement(sql: "SELECT coalesce(max(tx_id), 0) + 1 FROM events"))) ?? 1
        let recordedAt = microseconds(Date())
        let insert = try db.cachedStatement(
            sql: """
                INSERT INTO events (tx_id, stream_id, category, stream_version, event_id, event_type, schema_version,
                                    data, metadata, occurred_at, recorded_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        var positions: [GlobalPosition] = []
        var versions: [StreamName: Int64] = [:]
        for (index, write) in writes.enumerated() {
            var version = current[index]
            for event in write.events {
                version += 1
                try insert.execute(arguments: [
                    transaction, write.stream.rawValue, write.stream.category, version,
                    event.eventId.lowercasedString, event.type, event.schemaVersion,
                    String(decoding: event.data, as: UTF8.self),
                    MetadataJSON.encode(event.metadata),
                    microseconds(event.occurredAt), recordedAt,
                ])
                positions.append(GlobalPosition(transaction: transaction, sequence: db.lastInsertedRowID))
            }
            versions[write.stream] = version
        }
        return AppendResult(positions: positions, versions: versions)
    }

    // MARK: Read

    /// The columns every read selects, in the order ``read(_:_:)`` decodes them.
    static let columns = "position, tx_id, stream_id, stream_version, event_id, event_type, schema_version, data, metadata, occurred_at, recorded_at"

    public func readStream(_ stream: StreamName, from version: Int64, limit: Int) async throws -> [RecordedEvent] {
        try await StoreMetrics.reading(.stream) {
            try await read(
                "SELECT \(Self.columns) FROM events WHERE stream_id = ? AND stream_version >= ? ORDER BY stream_version LIMIT ?",
                [stream.rawValue, version, limit])
        }
    }

    /// Every stream in one read of the database (one trip to its reader, not one per stream).
    public func readStreams(_ reads: [StreamRead]) async throws -> [StreamName: [RecordedEvent]] {
        let reads = StreamRead.merged(reads)
        guard !reads.isEmpty else { return [:] }
        let events = try await StoreMetrics.reading(.streams) {
            try await database.snapshot(statements: reads.count) { db in
                try reads.flatMap { read in
                    try Self.events(
                        db, "SELECT \(Self.columns) FROM events WHERE stream_id = ? AND stream_version >= ? ORDER BY stream_version",
                        [read.stream.rawValue, read.version])
                }
            }
        }
        var streams = Dictionary(uniqueKeysWithValues: reads.map { ($0.stream, [RecordedEvent]()) })
        for event in try upcasters.upcast(events) { streams[event.stream, default: []].append(event) }
        return streams
    }

    public func readCategory(_ category: String, after position: GlobalPosition, limit: Int) async throws -> [RecordedEvent] {
        try await StoreMetrics.reading(.category) {
            try await read(
                "SELECT \(Self.columns) FROM events WHERE category = ? AND (tx_id, position) > (?, ?) ORDER BY tx_id, position LIMIT ?",
                [category, position.transaction, position.sequence, limit])
        }
    }

    public func readAll(after position: GlobalPosition, limit: Int) async throws -> [RecordedEvent] {
        try await StoreMetrics.reading(.all) {
            try await read(
                "SELECT \(Self.columns) FROM events WHERE (tx_id, position) > (?, ?) ORDER BY tx_id, position LIMIT ?",
                [position.transaction, position.sequence, limit])
        }
    }

    /// One read for the followers of the log in this process (the projection runners, the
    /// bus's consumers) that ask for the same batch (``SharedReads``).
    public func readAllShared(after position: GlobalPosition, limit: Int) async throws -> [RecordedEvent] {
        try await sharedReads.read(after: position, limit: limit) { try await self.readAll(after: $0, limit: $1) }
    }

    public func headPosition() async throws -> GlobalPosition {
        try await database.snapshot { db in
            guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT tx_id, position FROM events ORDER BY tx_id DESC, position DESC LIMIT 1"))
            else { return .start }
            return GlobalPosition(transaction: row["tx_id"], sequence: row["position"])
        }
    }

    public func streamVersion(_ stream: StreamName) async throws -> Int64 {
        try await database.snapshot { db in
            try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT coalesce(max(stream_version), 0) FROM events WHERE stream_id = ?"),
                arguments: [stream.rawValue]) ?? 0
        }
    }

    func read(_ sql: String, _ arguments: StatementArguments) async throws -> [RecordedEvent] {
        let events = try await database.snapshot { db in try Self.events(db, sql, arguments) }
        return try upcasters.upcast(events)
    }

    /// The events `sql` selects (``columns``), as stored (not upcast).
    static func events(_ db: Database, _ sql: String, _ arguments: StatementArguments) throws -> [RecordedEvent] {
        // By index, in the order of `columns` (a lookup by name lowercases both names). A
        // cursor's row reads the statement's columns in place, and the payload and metadata go
        // from SQLite's bytes to `Data` in one copy (not through a `String` each, nor a copied row).
        let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
        var events: [RecordedEvent] = []
        while let row = try rows.next() {
            guard let eventId = UUID(text: row[4] as String) else {
                throw EventStoreError(.corruptRow, "event id is not a UUID at position \(row[0] as Int64)")
            }
            events.append(
                RecordedEvent(
                    position: GlobalPosition(transaction: row[1], sequence: row[0]),
                    stream: StreamName(row[2] as String), version: row[3],
                    eventId: eventId, type: row[5], schemaVersion: row[6],
                    data: row[7] as Data, metadataJSON: row[8] as Data,
                    occurredAt: date(row[9]), recordedAt: date(row[10])))
        }
        return events
    }

    // MARK: Checkpoints

    public func checkpoint(_ name: String) async throws -> GlobalPosition {
        try await checkpoints([name]).first ?? .start
    }

    /// Several at once: one read (one hop to a reader of the pool), not one a name.
    public func checkpoints(_ names: [String]) async throws -> [GlobalPosition] {
        guard !names.isEmpty else { return [] }
        return try await database.snapshot(statements: names.count) { db in
            let statement = try db.cachedStatement(sql: "SELECT tx_id, position FROM subscription_checkpoints WHERE name = ?")
            return try names.map { name in
                guard let row = try Row.fetchOne(statement, arguments: [name]) else { return .start }
                return GlobalPosition(transaction: row["tx_id"], sequence: row["position"])
            }
        }
    }

    public func saveCheckpoint(_ name: String, _ position: GlobalPosition) async throws {
        try await database.write { db in _ = try Self.save(name, position, in: db) }
    }
}

extension Database {
    /// A statement with an `IN` list of `count` parameters: kept in the connection's statement
    /// cache (like every other statement of the store) for short lists, compiled afresh for
    /// long ones, so that appends and inbox reads of ever new sizes do not grow the cache.
    func statement(listing count: Int, _ sql: String) throws -> Statement {
        count <= 64 ? try cachedStatement(sql: sql) : try makeStatement(sql: sql)
    }
}

/// Instants are stored as integer microseconds since 1970 (the precision PostgreSQL keeps).
func microseconds(_ date: Date) -> Int64 {
    Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
}

func date(_ microseconds: Int64) -> Date {
    Date(timeIntervalSince1970: Double(microseconds) / 1_000_000)
}
