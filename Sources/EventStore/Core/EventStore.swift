import Foundation
import Synchronization

/// The store's ports: each caller takes the few it needs (a service its log and read models, a
/// bus consumer its inbox and leases, a projection runner the feed and read models), and each
/// port has its own conformance suite that both implementations pass (`Tests/EventStoreTests`,
/// docs/architecture.md lists them). PostgreSQL in production, SQLite embedded.
///
/// The whole store, what an implementation offers and a composition root hands out in parts.
public protocol EventStore: EventLog, EventFeed, Checkpoints, ReadModelStore, RequestKeys, ConsumerInbox, Leases {}

/// Streams: what an aggregate reads and appends to.
public protocol EventLog: Sendable {
    /// Appends to one or more streams in one transaction, each with its own expected version:
    /// all or nothing.
    ///
    /// - Throws: ``WrongExpectedVersion`` when a stream is not where its writer expected;
    ///   ``EventStoreError`` otherwise. Appending event ids that are all stored already returns
    ///   the first append's result and writes nothing.
    @discardableResult
    func append(_ writes: [StreamWrite]) async throws -> AppendResult

    /// Events of one stream from `version` (inclusive), oldest first.
    func readStream(_ stream: StreamName, from version: Int64, limit: Int) async throws -> [RecordedEvent]

    /// The events of several streams, each from its version (inclusive), oldest first: one
    /// read where the backend allows (what one command folds, in one round trip). A stream
    /// named twice is read once, from the lower version.
    func readStreams(_ reads: [StreamRead]) async throws -> [StreamName: [RecordedEvent]]

    /// The stream's current version; 0 when it has no events.
    func streamVersion(_ stream: StreamName) async throws -> Int64

    /// Events this store object has appended since it was opened, directly or in a transaction
    /// with other writes (a reaction's inbox record), for the
    /// `coworkflow_events_appended_total` metric.
    var eventsAppended: Int { get }
}

/// The log in global order: what followers (projections, the relay, rebuilds) read.
public protocol EventFeed: Sendable {
    /// Events of every stream in `category`, in global order, after `position`.
    func readCategory(_ category: String, after position: GlobalPosition, limit: Int) async throws -> [RecordedEvent]

    /// Events of all streams in global order, after `position`. Never hands out an event
    /// while an older write transaction may still commit one that sorts before it.
    func readAll(after position: GlobalPosition, limit: Int) async throws -> [RecordedEvent]

    /// ``readAll(after:limit:)`` for the many followers of the log in one process (projection
    /// runners, the relay): a store may let readers of the same position share one read, and answer a
    /// batch read recently again. Same events, same guarantees.
    func readAllShared(after position: GlobalPosition, limit: Int) async throws -> [RecordedEvent]

    /// The same events as ``readAll(after:limit:)``, without their envelope (id, metadata,
    /// times): what a rebuild folds, read and decoded for less.
    func readAllPayloads(after position: GlobalPosition, limit: Int) async throws -> [EventPayload]

    /// The position of the newest event a global reader can be handed now. Everything not yet
    /// handed out, including events of transactions still open, sorts after it.
    func headPosition() async throws -> GlobalPosition

    /// Rung after appends (in this process, and from other processes where the backend can
    /// tell); subscriptions wait on it and poll as a fallback.
    var changes: Doorbell { get }
}

/// Named readers' saved positions in the feed.
public protocol Checkpoints: Sendable {
    /// A named reader's saved position; ``GlobalPosition/start`` when it has none.
    func checkpoint(_ name: String) async throws -> GlobalPosition

    /// Several readers' saved positions, in the order of `names`, read together (one round
    /// trip, or one read): what a process following other processes' read models polls, and
    /// the health check's lags.
    func checkpoints(_ names: [String]) async throws -> [GlobalPosition]

    func saveCheckpoint(_ name: String, _ position: GlobalPosition) async throws
}

/// One stream of a ``EventStore/readStreams(_:)``: from `version` (inclusive) to its end.
public struct StreamRead: Sendable, Hashable {
    public let stream: StreamName
    public let version: Int64

    public init(_ stream: StreamName, from version: Int64) {
        self.stream = stream
        self.version = version
    }

    /// One per stream, from the lowest version asked.
    public static func merged(_ reads: [StreamRead]) -> [StreamRead] {
        var lowest: [StreamName: Int64] = [:]
        var order: [StreamName] = []
        for read in reads {
            if let known = lowest[read.stream] {
                lowest[read.stream] = min(known, read.version)
            } else {
                lowest[read.stream] = read.version
                order.append(read.stream)
            }
        }
        return order.map { StreamRead($0, from: lowest[$0] ?? 1) }
    }
}

extension EventLog {
    public func readStreams(_ reads: [StreamRead]) async throws -> [StreamName: [RecordedEvent]] {
        var events: [StreamName: [RecordedEvent]] = [:]
        for read in StreamRead.merged(reads) { events[read.stream] = try await readStream(read.stream, from: read.version) }
        return events
    }

    /// Appends to a single stream.
    @discardableResult
    public func append(
        to stream: StreamName, expected: ExpectedVersion, events: [NewEvent]
    ) async throws -> AppendResult {
        try await append([StreamWrite(stream: stream, expected: expected, events: events)])
    }

    /// The whole stream, oldest first.
    public func readStream(_ stream: StreamName, from version: Int64 = 1) async throws -> [RecordedEvent] {
        var events: [RecordedEvent] = []
        var next = version
        while true {
            let batch = try await readStream(stream, from: next, limit: 1_000)
            events.append(contentsOf: batch)
            guard batch.count == 1_000, let last = batch.last else { return events }
            next = last.version + 1
        }
    }
}

extension EventFeed {
    /// Maps ``readAll(after:limit:)`` (a store with nothing cheaper).
    public func readAllShared(after position: GlobalPosition, limit: Int) async throws -> [RecordedEvent] {
        try await readAll(after: position, limit: limit)
    }

    public func readAllPayloads(after position: GlobalPosition, limit: Int) async throws -> [EventPayload] {
        try await readAll(after: position, limit: limit).map(EventPayload.init)
    }

    /// Runs `body` for every event readable now in global order (of one category, or all),
    /// reading in batches.
    public func forEachEvent(category: String? = nil, _ body: (RecordedEvent) async throws -> Void) async throws {
        var position = GlobalPosition.start
        while true {
            let batch =
                if let category {
                    try await readCategory(category, after: position, limit: 1_000)
                } else {
                    try await readAll(after: position, limit: 1_000)
                }
            for event in batch { try await body(event) }
            guard batch.count == 1_000, let last = batch.last else { return }
            position = last.position
        }
    }
}

/// Checks an append request before any backend sees it.
enum AppendValidation {
    static func validate(_ writes: [StreamWrite]) throws {
        guard !writes.isEmpty, writes.allSatisfy({ !$0.events.isEmpty }) else {
            throw EventStoreError(.invalidAppend, "an append needs at least one event per stream")
        }
        let streams = Set(writes.map(\.stream))
        guard streams.count == writes.count else {
            throw EventStoreError(.invalidAppend, "a stream appears twice in one append")
        }
        let ids = writes.flatMap { $0.events.map(\.eventId) }
        guard Set(ids).count == ids.count else {
            throw EventStoreError(.invalidAppend, "an event id appears twice in one append")
        }
        for write in writes {
            if case .exact(let version) = write.expected, version < 1 {
                throw EventStoreError(
                    .invalidAppend, "expected version \(version) for '\(write.stream)': use .noStream for 0")
            }
            for event in write.events where !(1...Int(Int32.max)).contains(event.schemaVersion) {
                throw EventStoreError(.invalidAppend, "schema version \(event.schemaVersion) of \(event.type) is out of range")
            }
            guard !write.stream.rawValue.isEmpty else {
                throw EventStoreError(.invalidAppend, "empty stream name")
            }
        }
    }
}

/// Counts the events appended inside one transaction, for `eventsAppended` and the metrics once
/// it commits.
final class AppendTally: Sendable {
    private let state = Mutex<(events: Int, writes: [StreamWrite])>((0, []))

    func add(_ result: AppendResult, _ writes: [StreamWrite]) {
        state.withLock { state in
            state.events += result.positions.count
            if !result.positions.isEmpty { state.writes += writes }
        }
    }

    var events: Int { state.withLock { $0.events } }

    /// Once the transaction committed: counts for the metrics.
    func committed() {
        let (events, writes) = state.withLock { ($0.events, $0.writes) }
        StoreMetrics.committed(writes, count: events)
    }
}
