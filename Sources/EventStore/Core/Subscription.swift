/// Reads all events in global order after a position and then keeps following new ones.
///
/// Woken by the store's ``Doorbell`` (LISTEN/NOTIFY in PostgreSQL), it also polls every
/// `pollInterval`, so a lost notification delays delivery but never loses an event. After a
/// wake-up that brought nothing (an older transaction still open), it re-polls with a short
/// backoff until the events show up.
public struct EventSubscription: AsyncSequence, Sendable {
    public typealias Element = RecordedEvent

    let store: any EventStore
    let start: GlobalPosition
    let batchSize: Int
    let pollInterval: Duration
    let category: String?

    public func makeAsyncIterator() -> Iterator {
        Iterator(subscription: self, position: start)
    }

    public struct Iterator: AsyncIteratorProtocol {
        let subscription: EventSubscription
        var position: GlobalPosition
        var buffer: [RecordedEvent] = []
        var index = 0
        var seen: UInt64 = 0
        var retry: Duration = .zero
        var retries = 0
        static let maximumRetry: Duration = .milliseconds(100)

        init(subscription: EventSubscription, position: GlobalPosition) {
            self.subscription = subscription
            self.position = position
        }

        public mutating func next() async throws -> RecordedEvent? {
            while index == buffer.count {
                try Task.checkCancellation()
                let generation = subscription.store.changes.generation
                buffer = try await fetch()
                index = 0
                if buffer.isEmpty {
                    if generation != seen {
                        // Rung but nothing readable yet: an older transaction is still open.
                        seen = generation
                        retry = .milliseconds(2)
                        retries = 0
                    }
                    if retry > .zero {
                        // Re-poll quickly for a while; past that, the poll interval and the
                        // next ring take over (a transaction held open that long is rare).
                        try await Task.sleep(for: retry)
                        retry = Swift.min(retry * 2, Self.maximumRetry)
                        retries += 1
                        if retries > 100 || retry >= subscription.pollInterval { retry = .zero }
                    } else {
                        seen = await subscription.store.changes.wait(
                            after: generation, timeout: subscription.pollInterval)
                        retry = .zero
                    }
                } else {
                    retry = .zero
                }
            }
            defer { index += 1 }
            position = buffer[index].position
            return buffer[index]
        }

        private func fetch() async throws -> [RecordedEvent] {
            let store = subscription.store
            if let category = subscription.category {
                return try await store.readCategory(category, after: position, limit: subscription.batchSize)
            }
            return try await store.readAll(after: position, limit: subscription.batchSize)
        }
    }
}

extension EventStore {
    /// Follows every event after `position`, forever (until the task is cancelled).
    public func subscribe(
        after position: GlobalPosition, category: String? = nil, batchSize: Int = 500,
        pollInterval: Duration = .milliseconds(500)
    ) -> EventSubscription {
        EventSubscription(
            store: self, start: position, batchSize: batchSize, pollInterval: pollInterval,
            category: category)
    }

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
