public import EventStore
import Foundation
public import Logging

/// The bus over RabbitMQ: a consumer reads its service's quorum queue (single active
/// consumer), handles each delivery through the shared ``Handling`` (inbox, retry in place,
/// dead letter), and acknowledges only after the effect committed.
///
/// Connection loss (broker restart, network) is survived: the consumer reconnects with capped
/// exponential backoff and re-declares its topology; unacknowledged deliveries come back in
/// their order, and those already handled are skipped by the inbox.
public final class AMQPEventBus: EventBus {
    let settings: AMQPSettings
    let store: any ConsumerInbox & Leases
    let logger: Logger
    let prefetch: UInt16
    let reconnect: Backoff
    public let health = BusHealth()

    public init(
        settings: AMQPSettings, store: any ConsumerInbox & Leases, prefetch: UInt16 = 64,
        reconnect: Backoff = Backoff(first: .milliseconds(100), limit: .seconds(5)),
        logger: Logger = Logger(label: "coworkflow.bus")
    ) {
        self.settings = settings
        self.store = store
        self.prefetch = prefetch
        self.reconnect = reconnect
        self.logger = logger
    }

    public func consume(_ consumer: BusConsumer) async throws {
        let handling = Handling(consumer: consumer, store: store, logger: logger)
        _ = BusMetrics.consumer(consumer.service)  // its series at 0 from the start
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await handling.redriving(every: Handling.redriveInterval) }
            group.addTask { await self.deliver(to: consumer, handling: handling) }
            await group.next()
            group.cancelAll()
        }
    }

    private func deliver(to consumer: BusConsumer, handling: Handling) async {
        let queue = Topology.queue(for: consumer.service)
        var failures = 0
        while !Task.isCancelled {
            let connection = AMQPConnection(settings: settings, name: "consume.\(consumer.service)")
            do {
                try await connection.open()
                try await Topology.declare(service: consumer.service, bindings: consumer.bindings.map(\.description), on: connection)
                try await connection.consume(queue, prefetch: prefetch)
                health.up()
                if failures > 0 { logger.info("consumer reconnected", metadata: ["queue": "\(queue)"]) }
                failures = 0
                while !Task.isCancelled {
                    let deliveries = try await connection.nextDeliveries(limit: Int(prefetch), timeout: 1)
                    guard let last = deliveries.last else { continue }
                    try await handle(deliveries, queue: queue, handling: handling)
                    try await connection.ack(last, multiple: true)
                }
            } catch is CancellationError {
                // Unacknowledged deliveries go back to the queue, in order, when we close.
            } catch {
                if Task.isCancelled { break }
                failures += 1
                health.down(String(describing: error))
                logger.warning(
                    "consumer lost the broker, reconnecting",
                    metadata: [
                        "queue": "\(queue)", "error": "\(error)", "attempt": "\(failures)",
                    ])
            }
            await connection.close()
            if Task.isCancelled { break }
            try? await Task.sleep(for: reconnect.delay(after: failures))
        }
    }

    /// Handles a batch of deliveries in order; dead letters are published (and confirmed)
    /// before the caller acknowledges the batch.
    private func handle(_ deliveries: [Delivery], queue: String, handling: Handling) async throws {
        var events: [RecordedEvent] = []
        var traces: [UUID: String] = [:]
        var unreadable: [Int: UnreadableMessage] = [:]
        let metrics = BusMetrics.consumer(handling.consumer.service)
        for (index, delivery) in deliveries.enumerated() {
            do {
                let event = try EventMessage.decode(delivery.body)
                metrics.delivered(event, redelivered: delivery.redelivered)
                events.append(event)
                if let trace = delivery.headers[EventMessage.traceparentHeader]?.text { traces[event.eventId] = trace }
            } catch {
                metrics.consumed.increment()
                unreadable[index] = error
            }
        }
        var dispositions = try await handling.process(events, traces: traces)[...]
        var letters: [OutgoingMessage] = []
        for (index, delivery) in deliveries.enumerated() {
            let disposition: Handling.Disposition
            if let error = unreadable[index] {
                disposition = .deadLetter(reason: error.description, attempts: 1)
                metrics.deadLettered.increment()
                logger.error(
                    "unreadable message dead-lettered",
                    metadata: [
                        "queue": "\(queue)", "routingKey": "\(delivery.routingKey)", "reason": "\(error.reason)",
                    ])
            } else {
                disposition = dispositions.popFirst() ?? .done
            }
            if case .deadLetter(let reason, let attempts) = disposition {
                letters.append(deadLetter(delivery, queue: queue, reason: reason, attempts: attempts))
            }
        }
        guard !letters.isEmpty else { return }
        // Dead letters are rare: a connection of their own for each batch of them (a publisher
        // waiting for confirms would swallow the consuming channel's deliveries; and an idle
        // one would miss its heartbeats).
        let publisher = AMQPConnection(settings: settings, name: "dead-letters.\(queue)")
        do {
            try await publisher.open()
            BusMetrics.published.increment(by: letters.count)
            try await publisher.publish(letters)
            BusMetrics.confirmed.increment(by: letters.count)
        } catch {
            await publisher.close()
            throw error
        }
        await publisher.close()
    }

    private func deadLetter(_ delivery: Delivery, queue: String, reason: String, attempts: Int) -> OutgoingMessage {
        var message = OutgoingMessage(
            exchange: Topology.deadLetterExchange, routingKey: queue, body: delivery.body,
            messageId: delivery.messageId, type: delivery.type)
        message.contentType = delivery.contentType ?? "application/octet-stream"
        message.headers =
            delivery.headers.map { key, value in
                switch value {
                case .text(let text): (key, .text(text))
                case .int(let number): (key, .int(number))
                }
            } + [
                ("x-coworkflow-reason", .text(reason)),
                ("x-coworkflow-attempts", .int(Int64(attempts))),
                ("x-coworkflow-queue", .text(queue)),
                ("x-coworkflow-routing-key", .text(delivery.routingKey)),
                ("x-coworkflow-dead-lettered-at", .text(Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))),
            ]
        return message
    }

    /// Reads the dead-letter queue without taking anything out of it.
    public func deadLetters(of service: String) async throws -> [DeadLetter] {
        let connection = AMQPConnection(settings: settings, name: "inspect.\(service)")
        try await connection.open()
        var letters: [DeadLetter] = []
        do {
            while letters.count < 1_000, let delivery = try await connection.get(Topology.deadLetterQueue(for: service)) {
                let event = try? EventMessage.decode(delivery.body)
                letters.append(
                    DeadLetter(
                        eventId: event?.eventId, type: event?.type ?? delivery.type,
                        reason: delivery.headers["x-coworkflow-reason"]?.text ?? "rejected",
                        attempts: Int(delivery.headers["x-coworkflow-attempts"]?.int ?? 1)))
            }
        } catch {
            await connection.close()
            throw error
        }
        // Closing the channel puts every unacknowledged message back, in order.
        await connection.close()
        return letters
    }
}
