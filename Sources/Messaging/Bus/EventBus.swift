public import EventStore
public import Foundation
import Synchronization

/// Delivers stored events to the services that react to them.
///
/// Both implementations (AMQP, in-process) promise the same, and one conformance suite holds
/// them to it: a consumer gets the events its bindings match in global order, one at a time;
/// a handler that throws gets the same event again (after a backoff) before anything newer;
/// after `maxAttempts` failures the event is dead-lettered with the reason and the count, and
/// the rest keep flowing; the handler's writes commit with the event id in the consumer's
/// inbox, so an event delivered twice takes effect once.
public protocol EventBus: Sendable {
    /// Runs `consumer` until the task is cancelled. One consumer per service is active at a
    /// time (replicas wait their turn), so order holds across fail-over.
    func consume(_ consumer: BusConsumer) async throws

    /// What `service` set aside, oldest first.
    func deadLetters(of service: String) async throws -> [DeadLetter]

    /// Whether the bus can deliver now (for `GET /saude`).
    var health: BusHealth { get }
}

/// A service's subscription: its name (queue and inbox), the routing keys it wants, and what
/// it does with each event.
public struct BusConsumer: Sendable {
    public let service: String
    public let bindings: [TopicPattern]
    /// Failed attempts before an event is dead-lettered.
    public var maxAttempts: Int
    /// Pause between attempts: doubling from `first` up to `limit`.
    public var retry: Backoff
    /// The reaction to one event: the writes to commit with it (may be none). Runs again on a
    /// redelivery only if the first run's writes never committed.
    public let handle: @Sendable (RecordedEvent) async throws -> [StreamWrite]
    /// Reads ahead for several events delivered together: what it returns handles any of them
    /// (as ``handle`` would) with what it read for all of them in one round trip. The bus calls
    /// it for the events of a batch it is about to handle (up to 100 at a time, those its inbox
    /// does not already have), again after each commit inside the batch (what was read before
    /// may have moved) and once the read is a quarter of a second old; one event handled alone
    /// (a retry, a redrive) goes to ``handle``. Nil: every event goes to ``handle``.
    public let readAhead: (@Sendable ([RecordedEvent]) async throws -> Handler)?

    public typealias Handler = @Sendable (RecordedEvent) async throws -> [StreamWrite]

    public init(
        service: String, bindings: [String], maxAttempts: Int = 5,
        retry: Backoff = Backoff(first: .milliseconds(100), limit: .seconds(5)),
        readAhead: (@Sendable ([RecordedEvent]) async throws -> Handler)? = nil,
        handle: @escaping Handler
    ) {
        self.service = service
        self.bindings = bindings.map(TopicPattern.init)
        self.maxAttempts = max(1, maxAttempts)
        self.retry = retry
        self.readAhead = readAhead
        self.handle = handle
    }

    public func wants(_ routingKey: String) -> Bool {
        bindings.contains { $0.matches(routingKey) }
    }
}

/// Capped exponential backoff.
public struct Backoff: Sendable {
    public var first: Duration
    public var limit: Duration

    public init(first: Duration, limit: Duration) {
        self.first = first
        self.limit = limit
    }

    /// The pause after the `attempt`-th failure (1-based): first, 2×first, 4×first, … ≤ limit.
    public func delay(after attempt: Int) -> Duration {
        let factor = 1 << min(max(attempt - 1, 0), 20)
        return min(first * factor, limit)
    }
}

/// An event (or an unreadable message) a consumer set aside.
public struct DeadLetter: Sendable, Equatable {
    /// Nil when the message was not a readable event.
    public let eventId: UUID?
    public let type: String?
    public let reason: String
    public let attempts: Int

    public init(eventId: UUID?, type: String?, reason: String, attempts: Int) {
        self.eventId = eventId
        self.type = type
        self.reason = reason
        self.attempts = attempts
    }
}

/// The bus's view of its broker, for health checks: up, or down since when and why.
public final class BusHealth: Sendable {
    public enum Status: Sendable, Equatable {
        case starting
        case up
        case down(reason: String)
        /// Not connected, by design: another replica holds the lease (a relay waiting its turn).
        case standby
    }

    public struct Snapshot: Sendable, Equatable {
        public let status: Status
        public let since: Date
        /// Connections lost so far.
        public let reconnects: Int
        public var isUp: Bool { status == .up }
    }

    private let state: Mutex<Snapshot>

    public init(_ status: Status = .starting) {
        state = Mutex(Snapshot(status: status, since: Date(), reconnects: 0))
    }

    public var snapshot: Snapshot { state.withLock { $0 } }

    func up() {
        state.withLock { snapshot in
            if snapshot.status != .up { snapshot = Snapshot(status: .up, since: Date(), reconnects: snapshot.reconnects) }
        }
    }

    func standby() {
        state.withLock { snapshot in
            if snapshot.status != .standby { snapshot = Snapshot(status: .standby, since: Date(), reconnects: snapshot.reconnects) }
        }
    }

    func down(_ reason: String) {
        state.withLock { snapshot in
            let lost = snapshot.status == .up ? 1 : 0
            if case .down = snapshot.status {
                snapshot = Snapshot(status: .down(reason: reason), since: snapshot.since, reconnects: snapshot.reconnects)
            } else {
                snapshot = Snapshot(status: .down(reason: reason), since: Date(), reconnects: snapshot.reconnects + lost)
            }
        }
    }
}
