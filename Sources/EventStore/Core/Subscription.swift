/// Reads all events in global order after a position and then keeps following new ones.
///
/// Woken by the store's ``Doorbell`` (LISTEN/NOTIFY in PostgreSQL), it also polls every
/// `pollInterval`, so a lost notification delays delivery but never loses an event. After a
/// wake-up that brought nothing (an older transaction still open), it re-polls with a short
/// backoff until the events show up.
public struct EventSubscription: AsyncSequence, Sendable {
    public typealias Element = RecordedEvent

    let store: any EventFeed
    let start: GlobalPosition
    let batchSize: Int
    let pollInterval: Duration
    let category: String?
    /// Reads through ``EventFeed/readAllShared(after:limit:)`` (global order only).
    let shared: Bool

    public func makeAsyncIterator() -> Iterator {
        Iterator(subscription: self, position: start)
    }

    public struct Iterator: AsyncIteratorProtocol {
        let subscription: EventSubscription
        var position: GlobalPosition
        var buffer: [RecordedEvent] = []
        var index = 0
        var seen: UInt64
        var retries: Int
        /// 4, 8, …, 256 ms after a ring: about half a second of quick re-polls.
        static let quickRetries = 7

        init(subscription: EventSubscription, position: GlobalPosition) {
            self.subscription = subscription
            self.position = position
            self.seen = subscription.store.changes.generation
            self.retries = Self.quickRetries
        }

        public mutating func next() async throws -> RecordedEvent? {
            try await fill()
            defer { index += 1 }
            position = buffer[index].position
            return buffer[index]
        }

        /// Every event read and not yet handed out (at least one): what the store had after the
        /// last one handed out when it was read, up to the batch size. Waits as ``next()`` does.
        public mutating func nextBatch() async throws -> [RecordedEvent] {
            try await fill()
            let batch = Array(buffer[index...])
            index = buffer.count
            if let last = batch.last { position = last.position }
            return batch
        }

        /// Reads (and waits) until some event is read and not yet handed out.
        private mutating func fill() async throws {
            while index == buffer.count {
                try Task.checkCancellation()
                let generation = subscription.store.changes.generation
                buffer = try await fetch()
                index = 0
                guard buffer.isEmpty else {
                    retries = 0
                    continue
                }
                if generation != seen {
                    // Rung since we last looked, yet nothing readable: an older transaction
                    // may still be open. Re-poll quickly a few times before going idle.
                    seen = generation
                    retries = 0
                }
                if retries < Self.quickRetries {
                    retries += 1
                    try await Task.sleep(for: .milliseconds(2 << retries))
                } else {
                    _ = await subscription.store.changes.wait(after: seen, timeout: subscription.pollInterval)
                }
            }
        }

        private func fetch() async throws -> [RecordedEvent] {
            let store = subscription.store
            if let category = subscription.category {
                return try await store.readCategory(category, after: position, limit: subscription.batchSize)
            }
            if subscription.shared { return try await store.readAllShared(after: position, limit: subscription.batchSize) }
            return try await store.readAll(after: position, limit: subscription.batchSize)
        }
    }
}

extension EventFeed {
    /// Follows every event after `position`, forever (until the task is cancelled). `shared`
    /// (with no category): one of several followers of the log in this process, whose reads of
    /// the same batch may be one (``EventFeed/readAllShared(after:limit:)``).
    public func subscribe(
        after position: GlobalPosition, category: String? = nil, batchSize: Int = 500,
        pollInterval: Duration = .milliseconds(500), shared: Bool = false
    ) -> EventSubscription {
        EventSubscription(
            store: self, start: position, batchSize: batchSize, pollInterval: pollInterval,
            category: category, shared: shared && category == nil)
    }
}

extension EventFeed where Self: Checkpoints {
    /// Runs `handle` for every event after the named checkpoint, saving the checkpoint after
    /// each handled event, until the task is cancelled; a restart resumes where it stopped.
    ///
    /// The handler's effect and the checkpoint are not one transaction here; readers that need
    /// exactly-once effects keep their checkpoint with their rows (see Projections).
    public func follow(
        checkpoint name: String, category: String? = nil, pollInterval: Duration = .milliseconds(500),
        _ handle: (RecordedEvent) async throws -> Void
    ) async throws {
        let start = try await checkpoint(name)
        for try await event in subscribe(after: start, category: category, pollInterval: pollInterval) {
            try await handle(event)
            try await saveCheckpoint(name, event.position)
        }
    }
}
