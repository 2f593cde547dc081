public import EventStore
import Foundation
public import Logging
import Synchronization
import Telemetry
import Tracing

/// Publishes the store's events to the `coworkflow.events` exchange, in global order.
///
/// It tails the store gap-safely (``EventFeed/readAllShared(after:limit:)``: the guarantees of
/// ``EventFeed/readAll(after:limit:)``, in a read other followers of the log may share), publishes a batch
/// persistent with publisher confirms, and only then moves its checkpoint: a crash between the
/// two publishes the batch again (at least once; consumers' inboxes drop the copies). Several
/// replicas may run; a lease (a PostgreSQL advisory lock) makes one of them active, and another
/// takes over when it dies. Broker or database loss is survived with capped backoff.
public final class Relay: Sendable {
    public struct Status: Sendable, Equatable {
        /// Events confirmed by the broker since start.
        public var published: Int = 0
        /// The checkpoint: every event up to here is confirmed.
        public var position: GlobalPosition = .start
        public var active = false
    }

    let store: any EventFeed & Checkpoints & Leases
    let settings: AMQPSettings
    let name: String
    let batchSize: Int
    let routing: @Sendable (RecordedEvent) -> String
    /// The period of the beat (``Beat``) it waits for after publishing ``gatheringFrom`` events
    /// or more in one, and fewer than a full batch (nil: it reads again at once).
    let gathering: Duration?
    /// The consumers' queues and their bindings, declared before every connection publishes
    /// (see ``init(store:settings:name:batchSize:routing:gathering:queues:logger:)``).
    let queues: [(service: String, bindings: [String])]
    let logger: Logger
    public let health = BusHealth()
    private let state = Mutex(Status())

    /// Under load, the beat the relay waits for after a batch of 4 events or more before
    /// reading the next (``Beat``): what arrives meanwhile goes out in one batch (one read, one
    /// confirm, one checkpoint) instead of several, and the read is the one the projection
    /// runners of its process make when they keep the same beat (theirs is 60 ms by default,
    /// session 63: 60 here showed no saving and would start a booking's charge later); a
    /// consumer's reactions may start that much later then. Quieter traffic (a booking now and
    /// then) never waits (docs/benchmarks.md, sessions 45 and 51).
    public static let underLoad: Duration = .milliseconds(20)
    static let gatheringFrom = 4

    /// - Parameters:
    ///   - name: the checkpoint and lease name; replicas share it.
    ///   - gathering: see ``underLoad``; nil never waits.
    ///   - queues: the consuming services' queues and bindings (``Topology/declare(service:bindings:on:)``),
    ///     declared on each connection before anything is published. The relay publishes
    ///     without `mandatory`: an event whose routing key no queue is bound to yet goes nowhere,
    ///     and a consumer that first starts after the relay published would never see it.
    public init(
        store: any EventFeed & Checkpoints & Leases, settings: AMQPSettings, name: String = "relay", batchSize: Int = 500,
        routing: @escaping @Sendable (RecordedEvent) -> String = EventRouting.routingKey(of:), gathering: Duration? = nil,
        queues: [(service: String, bindings: [String])] = [], logger: Logger = Logger(label: "coworkflow.relay")
    ) {
        self.store = store
        self.settings = settings
        self.name = name
        self.batchSize = batchSize
        self.routing = routing
        self.gathering = gathering
        self.queues = queues
        self.logger = logger
    }

    public var status: Status { state.withLock { $0 } }

    /// Runs until the task is cancelled.
    public func run() async throws {
        var failures = 0
        var publishedAtLastFailure = 0
        while !Task.isCancelled {
            do {
                try await holdingLease()
            } catch is CancellationError {
                break
            } catch {
                if Task.isCancelled { break }
                // Back off from scratch if it worked for a while since the last failure.
                let published = state.withLock { $0.published }
                failures = published > publishedAtLastFailure ? 1 : failures + 1
                publishedAtLastFailure = published
                state.withLock {
                    $0.active = false
                    health.down(String(describing: error))
                }
                logger.warning("relay interrupted, starting again", metadata: ["error": "\(error)", "attempt": "\(failures)"])
                try? await Task.sleep(for: Backoff(first: .milliseconds(100), limit: .seconds(5)).delay(after: failures))
            }
        }
        state.withLock { $0.active = false }
    }

    /// Publishes while this replica holds the lease. Not holding it a while after asking:
    /// another replica publishes (or the database, which `/saude` reports of its own, does not
    /// answer), and this one is on standby, not failing: a broker error from before would
    /// otherwise stay on its health for as long as the other one is active.
    private func holdingLease() async throws {
        let waiting = Task {
            try await Task.sleep(for: .seconds(3))
            // Cancelled (the wait ended) before it got here: what ended it reports instead.
            self.state.withLock { if !Task.isCancelled && !$0.active { self.health.standby() } }
        }
        defer { waiting.cancel() }
        try await store.whileHolding(lease: "relay:\(name)", retryEvery: .seconds(1)) {
            try await self.publishWhileActive()
        }
    }

    private func publishWhileActive() async throws {
        let connection = AMQPConnection(settings: settings, name: "relay")
        do {
            try await publish(on: connection)
        } catch {
            await connection.close()
            throw error
        }
    }

    private func publish(on connection: AMQPConnection) async throws -> Never {
        BusMetrics.declarePublishing()
        try await connection.open()
        try await connection.declareExchange(Topology.exchange, type: "topic")
        for queue in queues { try await Topology.declare(service: queue.service, bindings: queue.bindings, on: connection) }
        var position = try await store.checkpoint(name)
        state.withLock {
            $0.active = true
            $0.position = position
            // Under the lock: the standby check above reads `active` and sets health with it.
            health.up()
        }
        logger.info("relay active", metadata: ["from": "\(position)"])
        var seen = store.changes.generation
        var quickRetries = 0
        while true {
            try Task.checkCancellation()
            let generation = store.changes.generation
            // Shared with the projection runners of this process that read the same position
            // (it moves past what it is given, as a shared read asks).
            let events = try await store.readAllShared(after: position, limit: batchSize)
            guard let last = events.last else {
                if generation != seen {
                    // Rung but nothing readable yet: an older transaction is still open.
                    seen = generation
                    quickRetries = 0
                }
                if quickRetries < 6 {
                    quickRetries += 1
                    try await Task.sleep(for: .milliseconds(2 << quickRetries))
                } else {
                    seen = await store.changes.wait(after: seen, timeout: .milliseconds(500))
                    // Idle: keep the broker connection's heartbeats going.
                    try await connection.tick()
                }
                continue
            }
            quickRetries = 0
            BusMetrics.published.increment(by: events.count)
            var messages = events.map(message(for:))
            let spans = Traces.enabled ? publishing(events, &messages) : []
            do {
                try await connection.publish(messages)
            } catch {
                for span in spans {
                    span.recordError(error)
                    span.setStatus(SpanStatus(code: .error))
                    span.end()
                }
                throw error
            }
            for span in spans { span.end() }
            BusMetrics.confirmed.increment(by: events.count)
            try await store.saveCheckpoint(name, last.position)
            position = last.position
            state.withLock {
                $0.published += events.count
                $0.position = position
            }
            // A full batch leaves more waiting (catching up): nothing to gather.
            if let gathering, events.count >= Self.gatheringFrom, events.count < batchSize {
                try await Task.sleep(until: Beat.next(gathering), clock: .continuous)
            }
        }
    }

    /// A producer span for each event that continues a trace (its metadata has the
    /// `traceparent` of the span that appended it), ended once the broker confirmed it; the
    /// message's `traceparent` header names it, for the consumers.
    private func publishing(_ events: [RecordedEvent], _ messages: inout [OutgoingMessage]) -> [any Span] {
        var spans: [any Span] = []
        for (index, event) in events.enumerated() {
            guard let parent = MetadataJSON.traceparent(in: event.metadataJSON) else { continue }
            let span = startSpan("publish \(event.type)", context: Traces.context(traceparent: parent), ofKind: .producer)
            span.attributes["messaging.system"] = "rabbitmq"
            span.attributes["messaging.operation.type"] = "send"
            span.attributes["messaging.destination.name"] = Topology.exchange
            span.attributes["messaging.rabbitmq.destination.routing_key"] = messages[index].routingKey
            span.attributes["messaging.message.id"] = event.eventId.lowercasedString
            if let traceparent = Traces.traceparent(of: span.context) {
                messages[index].headers.append((EventMessage.traceparentHeader, .text(traceparent)))
            }
            spans.append(span)
        }
        return spans
    }

    public func message(for event: RecordedEvent) -> OutgoingMessage {
        var message = OutgoingMessage(
            exchange: Topology.exchange, routingKey: routing(event), body: EventMessage.body(of: event),
            messageId: event.eventId.lowercasedString, type: event.type)
        message.mandatory = false
        message.headers = EventMessage.headers(of: event)
        return message
    }
}
