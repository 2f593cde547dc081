public import EventStore
public import Foundation
public import Synchronization

/// A real store that holds the `nth` read of one stream after it has returned, until the test
/// lets it go: the interleaving a race needs, made to happen every time. Everything else goes
/// straight to the store underneath.
public final class PausingStore: EventStore {
    public let base: any EventStore
    public let paused: StreamName
    private let state:
        Mutex<
            (readsLeft: Int, reached: CheckedContinuation<Void, Never>?, didReach: Bool, release: CheckedContinuation<Void, Never>?, released: Bool)
        >

    public init(_ base: any EventStore, pausing stream: StreamName, read nth: Int = 1) {
        self.base = base
        self.paused = stream
        self.state = Mutex((nth, nil, false, nil, false))
    }

    /// Returns once the paused read has returned (its caller now waits).
    public func reached() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                if state.didReach { return true }
                state.reached = continuation
                return false
            }
            if now { continuation.resume() }
        }
    }

    public func release() {
        let waiting = state.withLock { state in
            state.released = true
            defer { state.release = nil }
            return state.release
        }
        waiting?.resume()
    }

    /// The stream reads asked of it, in order: `stream` for one, `streams` for several at once.
    public let reads = Mutex<[(kind: String, streams: [StreamRead])]>([])

    /// Several streams at once: recorded, then read from the store underneath (never paused).
    public func readStreams(_ reads: [StreamRead]) async throws -> [StreamName: [RecordedEvent]] {
        self.reads.withLock { $0.append(("streams", reads)) }
        return try await base.readStreams(reads)
    }

    public func readStream(_ stream: StreamName, from version: Int64, limit: Int) async throws -> [RecordedEvent] {
        reads.withLock { $0.append(("stream", [StreamRead(stream, from: version)])) }
        let events = try await base.readStream(stream, from: version, limit: limit)
        guard stream == paused,
            state.withLock({ state in
                state.readsLeft -= 1
                return state.readsLeft == 0
            })
        else { return events }
        await withCheckedContinuation { continuation in
            let (reached, now) = state.withLock { state in
                state.didReach = true
                defer { state.reached = nil }
                if !state.released { state.release = continuation }
                return (state.reached, state.released)
            }
            reached?.resume()
            if now { continuation.resume() }
        }
        return events
    }

    public func append(_ writes: [StreamWrite]) async throws -> AppendResult { try await base.append(writes) }
    public func readCategory(_ category: String, after position: GlobalPosition, limit: Int) async throws -> [RecordedEvent] {
        try await base.readCategory(category, after: position, limit: limit)
    }
    public func readAll(after position: GlobalPosition, limit: Int) async throws -> [RecordedEvent] {
        try await base.readAll(after: position, limit: limit)
    }
    public func readAllShared(after position: GlobalPosition, limit: Int) async throws -> [RecordedEvent] {
        try await base.readAllShared(after: position, limit: limit)
    }
    public func readAllPayloads(after position: GlobalPosition, limit: Int) async throws -> [EventPayload] {
        try await base.readAllPayloads(after: position, limit: limit)
    }
    public func headPosition() async throws -> GlobalPosition { try await base.headPosition() }
    public func streamVersion(_ stream: StreamName) async throws -> Int64 { try await base.streamVersion(stream) }
    public func checkpoint(_ name: String) async throws -> GlobalPosition { try await base.checkpoint(name) }
    public func checkpoints(_ names: [String]) async throws -> [GlobalPosition] { try await base.checkpoints(names) }
    public func saveCheckpoint(_ name: String, _ position: GlobalPosition) async throws { try await base.saveCheckpoint(name, position) }
    public var changes: Doorbell { base.changes }
    public var eventsAppended: Int { base.eventsAppended }
    public func document(_ collection: String, key: String) async throws -> Data? { try await base.document(collection, key: key) }
    public func documents(_ collection: String, keys: [String]) async throws -> [String: Data] {
        try await base.documents(collection, keys: keys)
    }
    public func documents(_ collection: String, grupo: String?, limit: Int, offset: Int) async throws -> [Data] {
        try await base.documents(collection, grupo: grupo, limit: limit, offset: offset)
    }
    public func count(_ collection: String, grupo: String?) async throws -> Int { try await base.count(collection, grupo: grupo) }
    public func checkpointMark(_ name: String) async throws -> CheckpointMark { try await base.checkpointMark(name) }
    /// The read-model commits asked of it so far.
    public let commits = Mutex(0)

    public func commit(
        _ changes: [ReadModelChange], checkpoint name: String, at position: GlobalPosition, from previous: CheckpointMark?
    ) async throws
        -> CheckpointMark
    {
        commits.withLock { $0 += 1 }
        return try await base.commit(changes, checkpoint: name, at: position, from: previous)
    }
    public func reset(collections: [String], checkpoint name: String) async throws -> CheckpointMark {
        try await base.reset(collections: collections, checkpoint: name)
    }
    /// Run (once) before the next promotion is handed on.
    public let beforePromotion = Mutex<(@Sendable () async throws -> Void)?>(nil)

    public func promote(
        _ collections: [StagedCollection], checkpoint name: String, from staged: String, at mark: CheckpointMark
    ) async throws
        -> CheckpointMark
    {
        if let hook = beforePromotion.withLock({ hook in
            defer { hook = nil }
            return hook
        }) {
            try await hook()
        }
        return try await base.promote(collections, checkpoint: name, from: staged, at: mark)
    }
    public func claimRequestKey(
        _ key: String, fingerprint: String, at now: Date, expireBefore: Date, staleBefore: Date
    ) async throws -> RequestKeyClaim {
        try await base.claimRequestKey(key, fingerprint: fingerprint, at: now, expireBefore: expireBefore, staleBefore: staleBefore)
    }
    public func completeRequestKey(_ key: String, reply: StoredReply?) async throws { try await base.completeRequestKey(key, reply: reply) }
    public func purgeRequestKeys(before date: Date) async throws -> Int { try await base.purgeRequestKeys(before: date) }
    public func forgetRequestKeys(mentioning text: String) async throws -> Int { try await base.forgetRequestKeys(mentioning: text) }
    public func recordInInbox(_ eventId: UUID, consumer: String, outcome: InboxOutcome, appending writes: [StreamWrite]) async throws -> Bool {
        try await base.recordInInbox(eventId, consumer: consumer, outcome: outcome, appending: writes)
    }
    public func recordHandled(_ batch: [HandledEvent], consumer: String) async throws -> Set<UUID> {
        try await base.recordHandled(batch, consumer: consumer)
    }
    public func inboxEntry(_ eventId: UUID, consumer: String) async throws -> InboxEntry? { try await base.inboxEntry(eventId, consumer: consumer) }
    public func inboxOutcomes(_ eventIds: [UUID], consumer: String) async throws -> [UUID: InboxOutcome] {
        try await base.inboxOutcomes(eventIds, consumer: consumer)
    }
    public func deadLetters(consumer: String, limit: Int) async throws -> [InboxEntry] {
        try await base.deadLetters(consumer: consumer, limit: limit)
    }
    public func retryDeadLetters(consumer: String, eventIds: [UUID]?) async throws -> [UUID] {
        try await base.retryDeadLetters(consumer: consumer, eventIds: eventIds)
    }
    public func redriveRequests(consumer: String, limit: Int) async throws -> [RecordedEvent] {
        try await base.redriveRequests(consumer: consumer, limit: limit)
    }
    public func finishRedrive(_ eventId: UUID, consumer: String) async throws { try await base.finishRedrive(eventId, consumer: consumer) }
    public func whileHolding<T: Sendable>(
        lease name: String, retryEvery interval: Duration, _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await base.whileHolding(lease: name, retryEvery: interval, body)
    }
}
