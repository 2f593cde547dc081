import EventStore
import Foundation
import Messaging
import Synchronization
import Testing

extension BrokerSuites {
    /// The relay declares the consumers' queues: a first deployment, where the relay publishes
    /// before a consumer ever started, loses nothing for that consumer.
    @Suite("The relay's topology")
    struct RelayTopologyTests {
        @Test("an event relayed before its consumer ever started waits in the queue the relay declared, and reaches the consumer once it starts")
        func relay_declares_the_consumers_queues() async throws {
            try await TestEnvironment.migrate()
            let tag = UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(10).lowercased()
            let service = "svc\(tag)", category = "bus\(tag)", relayName = "relay-\(tag)"
            let store = PostgresEventStore(settings: TestEnvironment.database, logger: TestEnvironment.logger)
            let setup = AMQPConnection(settings: TestEnvironment.broker, name: "test-setup")
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await store.run() }
                defer { group.cancelAll() }
                try await setup.open()
                try await store.saveCheckpoint(relayName, try await store.headPosition())
                // No consumer of `service` has run: its queue does not exist until the relay declares it.
                let stream = StreamName(category: category, id: "1")
                let appended = try await store.append(
                    to: stream, expected: .noStream,
                    events: [NewEvent(eventId: UUID(), type: "Testado", data: Data("{}".utf8), occurredAt: Date())])
                let position = try #require(appended.positions.last)
                let relay = Relay(
                    store: store, settings: TestEnvironment.broker, name: relayName, queues: [(service, ["\(category).*"])],
                    logger: TestEnvironment.logger)
                group.addTask { try await relay.run() }
                #expect(try await eventually(seconds: 30) { relay.status.position >= position }, "the relay published the event")

                // Only now does the consumer start, and it receives the event.
                let received = Mutex<[UUID]>([])
                let bus = AMQPEventBus(settings: TestEnvironment.broker, store: store, logger: TestEnvironment.logger)
                let consumer = BusConsumer(service: service, bindings: ["\(category).*"], maxAttempts: 3) { event in
                    received.withLock { $0.append(event.eventId) }
                    return []
                }
                let consuming = Task { try await bus.consume(consumer) }
                defer { consuming.cancel() }
                let arrived = try await eventually(seconds: 10) { received.withLock { !$0.isEmpty } }
                consuming.cancel()
                _ = await consuming.result
                try? await deleteQueues(of: service, on: setup)
                await setup.close()
                #expect(arrived, "the event published before the consumer first started reached it")
                #expect(received.withLock { $0.count } == 1)
            }
        }
    }
}
