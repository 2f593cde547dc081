public import EventStore
import Foundation
public import Logging

/// The embedded mode's bus: each consumer follows the store itself, in global order, from a
/// checkpoint of its own (`bus:<service>`) saved after each batch of events it handled (what
/// one read of the store brought).
///
/// The store is the queue, so nothing is lost when the process stops: a restart resumes at the
/// checkpoint, and an event handled just before a crash (effect committed, checkpoint not yet)
/// is found in the inbox and skipped. Dead letters are the inbox rows marked dead.
public final class InProcessEventBus: EventBus {
    let store: any EventFeed & Checkpoints & ConsumerInbox & Leases
    let routing: @Sendable (RecordedEvent) -> String
    /// The period of the beat (``Beat``) a consumer waits for after a batch of 4 events or more,
    /// fewer than a full one (nil: it reads again at once); see ``Relay/underLoad``, whose part
    /// this bus plays in the embedded mode.
    let gathering: Duration?
    let logger: Logger
    /// Up from the start (there is no broker to reach); down only while a consumer is failing.
    public let health = BusHealth(.up)

    public init(
        store: any EventFeed & Checkpoints & ConsumerInbox & Leases,
        routing: @escaping @Sendable (RecordedEvent) -> String = EventRouting.routingKey(of:), gathering: Duration? = nil,
        logger: Logger = Logger(label: "coworkflow.bus")
    ) {
        self.store = store
        self.routing = routing
        self.gathering = gathering
        self.logger = logger
    }

    public func consume(_ consumer: BusConsumer) async throws {
        let handling = Handling(consumer: consumer, store: store, logger: logger)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await handling.redriving(every: Handling.redriveInterval) }
            group.addTask { await self.deliver(to: consumer) }
            await group.next()
            group.cancelAll()
        }
    }

    private func deliver(to consumer: BusConsumer) async {
        var failures = 0
        while !Task.isCancelled {
            do {
                try await consumeUntilFailure(consumer)
            } catch is CancellationError {
                return
            } catch {
                if Task.isCancelled { return }
                failures += 1
                health.down(String(describing: error))
                logger.error(
                    "in-process consumer failed, starting again",
                    metadata: [
                        "consumer": "\(consumer.service)", "error": "\(String(reflecting: error))",
                    ])
                try? await Task.sleep(for: Backoff(first: .milliseconds(100), limit: .seconds(5)).delay(after: failures))
            }
        }
    }

    private func consumeUntilFailure(_ consumer: BusConsumer) async throws {
        let name = "bus:\(consumer.service)"
        let handling = Handling(consumer: consumer, store: store, logger: logger)
        let metrics = BusMetrics.consumer(consumer.service)
        // One active consumer per service, as with AMQP's single active consumer.
        try await store.whileHolding(lease: name, retryEvery: .milliseconds(200)) { [store, routing, gathering, health] in
            health.up()
            var skipped = 0
            // The consumers of this process read the same batches: one read serves those at
            // the same position.
            var events = store.subscribe(
                after: try await store.checkpoint(name), batchSize: Self.batchSize, pollInterval: .milliseconds(250), shared: true
            ).makeAsyncIterator()
            // Which routing keys the consumer's bindings match (the keys are the event types'
            // few): matched once each, not per event.
            var wants: [String: Bool] = [:]
            var gather = false
            while true {
                // Under load, the next batch gathers until the process's next beat: one read
                // shared by every consumer at it, one commit and one checkpoint for what came
                // meanwhile, instead of one each per few events (as the relay does). A full batch
                // leaves more waiting (catching up); a quiet log (a booking now and then) never waits.
                if gather, let gathering { try await Task.sleep(until: Beat.next(gathering), clock: .continuous) }
                // What the store had when read, handled as the AMQP bus handles a batch of
                // deliveries: one commit for its events' inbox rows and writes, and one checkpoint.
                let batch = try await events.nextBatch()
                guard let last = batch.last else { continue }  // never: a batch holds one event at least
                gather = batch.count >= Relay.gatheringFrom && batch.count < Self.batchSize
                let wanted = batch.filter { event in
                    let key = routing(event)
                    if let known = wants[key] { return known }
                    let matches = consumer.wants(key)
                    if wants.count < 1_024 { wants[key] = matches }
                    return matches
                }
                guard !wanted.isEmpty else {
                    // None of this consumer's: move the checkpoint now and then, not per batch.
                    skipped += batch.count
                    if skipped >= 500 {
                        try await store.saveCheckpoint(name, last.position)
                        skipped = 0
                    }
                    continue
                }
                for event in wanted { metrics.delivered(event) }
                _ = try await handling.process(wanted)
                try await store.saveCheckpoint(name, last.position)
                skipped = 0
            }
        }
    }

    /// The most events a consumer reads at once, as the AMQP consumers' prefetch hands them over.
    static let batchSize = 64

    public func deadLetters(of service: String) async throws -> [DeadLetter] {
        try await store.deadLetters(consumer: service, limit: 1_000).map { entry in
            var reason = "", attempts = 1
            if case .deadLettered(let why, let count) = entry.outcome {
                reason = why
                attempts = count
            }
            return DeadLetter(eventId: entry.eventId, type: nil, reason: reason, attempts: attempts)
        }
    }
}
