public import Foundation

/// What a consumer did with an event, as its inbox records it.
public enum InboxOutcome: Sendable, Equatable {
    /// The handler's effect committed.
    case handled
    /// The handler kept failing (or the message could not be read); the event was set aside.
    case deadLettered(reason: String, attempts: Int)
}

/// One row of a consumer's inbox.
public struct InboxEntry: Sendable, Equatable {
    public let consumer: String
    public let eventId: UUID
    public let outcome: InboxOutcome
    public let recordedAt: Date

    public init(consumer: String, eventId: UUID, outcome: InboxOutcome, recordedAt: Date) {
        self.consumer = consumer
        self.eventId = eventId
        self.outcome = outcome
        self.recordedAt = recordedAt
    }
}

/// One event of a batch a consumer handled, with the writes its handler returned.
public struct HandledEvent: Sendable {
    public let eventId: UUID
    public let writes: [StreamWrite]

    public init(eventId: UUID, writes: [StreamWrite]) {
        self.eventId = eventId
        self.writes = writes
    }
}

/// A consumer's inbox: what makes a reaction take effect once however often its event arrives.
///
/// An idempotent consumer records each event id in its inbox in the same transaction as the
/// handler's effect; a redelivered event then finds its id there and is skipped.
public protocol ConsumerInbox: Sendable {
    /// Records `eventId` in `consumer`'s inbox with `outcome` and appends `writes` in the same
    /// transaction. Returns false, writing nothing, when the inbox already holds the event.
    @discardableResult
    func recordInInbox(
        _ eventId: UUID, consumer: String, outcome: InboxOutcome, appending writes: [StreamWrite]
    ) async throws -> Bool

    /// Records a batch of handled events and their writes in ONE transaction (one commit for
    /// many events). Events the inbox holds already are skipped with their writes; returns the
    /// ids that were recorded now. All or nothing: on an error nothing is recorded.
    @discardableResult
    func recordHandled(_ batch: [HandledEvent], consumer: String) async throws -> Set<UUID>

    /// The inbox row of `eventId` for `consumer`, if any.
    func inboxEntry(_ eventId: UUID, consumer: String) async throws -> InboxEntry?

    /// The outcomes the inbox holds for any of `eventIds` (one query).
    func inboxOutcomes(_ eventIds: [UUID], consumer: String) async throws -> [UUID: InboxOutcome]

    /// Events `consumer` set aside, oldest first.
    func deadLetters(consumer: String, limit: Int) async throws -> [InboxEntry]

    /// Gives `consumer`'s dead letters (all, or those among `eventIds`) another try, in one
    /// transaction: each leaves the inbox and becomes a redrive request, which the consumer
    /// picks up wherever it runs (``redriveRequests(consumer:limit:)``). Returns their ids.
    func retryDeadLetters(consumer: String, eventIds: [UUID]?) async throws -> [UUID]

    /// The events whose retry was asked for `consumer`, in global order.
    func redriveRequests(consumer: String, limit: Int) async throws -> [RecordedEvent]

    /// Removes a redrive request once the consumer has dealt with its event (handled, or set
    /// aside again).
    func finishRedrive(_ eventId: UUID, consumer: String) async throws
}

/// One holder at a time among all processes that share the store (a relay, a consumer, a
/// projection runner, a timer).
public protocol Leases: Sendable {
    /// Waits until this process holds the lease `name` (one holder among all processes that
    /// share the store), then runs `body` while holding it. When the lease is lost (its
    /// connection died), `body` is cancelled and this throws ``EventStoreError/Code/leaseLost``.
    /// Returns what `body` returns; the lease is given up when it ends.
    func whileHolding<T: Sendable>(
        lease name: String, retryEvery interval: Duration,
        _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T
}

extension InboxOutcome {
    /// Stored shape: a word, and for dead letters the reason and attempts.
    var storedKind: String {
        switch self {
        case .handled: "handled"
        case .deadLettered: "dead"
        }
    }

    var storedReason: String? {
        if case .deadLettered(let reason, _) = self { return reason }
        return nil
    }

    var storedAttempts: Int {
        if case .deadLettered(_, let attempts) = self { return attempts }
        return 1
    }

    init(kind: String, reason: String?, attempts: Int) {
        self = kind == "dead" ? .deadLettered(reason: reason ?? "", attempts: attempts) : .handled
    }
}
