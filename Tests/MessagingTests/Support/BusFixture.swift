import Domain
import EventStore
import Foundation
import Logging
import Messaging
import TestSupport
import Testing

/// The bus implementations every conformance test runs against.
enum BusBackend: String, CaseIterable, CustomTestStringConvertible, Sendable {
    /// Embedded: SQLite store, in-process bus.
    case inProcess
    /// Distributed: PostgreSQL store, relay, RabbitMQ.
    case amqp

    var testDescription: String { rawValue }
}

enum TestEnvironment {
    static let database: PostgresSettings = {
        do { return try PostgresSettings.fromEnvironment() } catch { fatalError("bad DB settings: \(error)") }
    }()

    static let broker: AMQPSettings = (try? AMQPSettings.fromEnvironment()) ?? AMQPSettings()

    static let logger: Logger = {
        var logger = Logger(label: "tests")
        logger.logLevel = ProcessInfo.processInfo.environment["TEST_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .critical
        return logger
    }()

    private static let migration = Task {
        try await PostgresMigrator(settings: database, logger: logger).migrate()
    }

    static func migrate() async throws { _ = try await migration.value }
}

/// One bus under test, with a fresh service and event category of its own.
struct BusFixture: Sendable {
    let backend: BusBackend
    let store: any EventStore
    let bus: any EventBus
    /// The consuming service (queue, inbox) and the category its events are written in.
    let service: String
    let category: String
    /// Where the test consumer writes its effects: one event per handled source event.
    let effects: StreamName
    /// The relay's checkpoint and lease name (AMQP), starting at the store's head.
    let relayName: String
    /// The relay the fixture runs (AMQP), for what a failing test reports.
    var relay: Relay?

    /// Delivers `events` to the service again, as a relay that crashed before its checkpoint
    /// would; call it while no consumer runs.
    let redeliver: @Sendable ([RecordedEvent]) async throws -> Void

    var bindings: [String] { ["\(category).*"] }

    /// Appends one event of `type` to a stream of the fixture's category.
    @discardableResult
    func append(_ type: String = "Testado", stream id: String = "1", payload: [String: Int] = [:]) async throws -> RecordedEvent {
        let data = (try? JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys])) ?? Data("{}".utf8)
        let stream = StreamName(category: category, id: id)
        let result = try await store.append(
            to: stream, expected: .any,
            events: [NewEvent(eventId: UUID(), type: type, data: data, occurredAt: Date())])
        let version = try #require(result.versions[stream])
        return try #require(try await store.readStream(stream, from: version, limit: 1).first)
    }

    /// The test consumer's effect for `event`: an `Efeito` naming the source event.
    func effect(of event: RecordedEvent) -> [StreamWrite] {
        let data = Data(#"{"source":"\#(event.eventId.uuidString.lowercased())","sequence":\#(event.position.sequence)}"#.utf8)
        return [
            StreamWrite(
                stream: effects, expected: .any,
                events: [
                    NewEvent(eventId: UUID(), type: "Efeito", data: data, occurredAt: Date())
                ])
        ]
    }

    /// The source event ids of the effects written so far, in the order they were written.
    func effectSources() async throws -> [UUID] {
        try await store.readStream(effects).compactMap { event in
            let object = try? JSONSerialization.jsonObject(with: event.data) as? [String: Any]
            return (object?["source"] as? String).flatMap(UUID.init(uuidString:))
        }
    }

    func consumer(
        maxAttempts: Int = 5, handle: (@Sendable (RecordedEvent) async throws -> Void)? = nil
    ) -> BusConsumer {
        BusConsumer(
            service: service, bindings: bindings, maxAttempts: maxAttempts,
            retry: Backoff(first: .milliseconds(10), limit: .milliseconds(40))
        ) { event in
            try await handle?(event)
            return effect(of: event)
        }
    }

    /// Runs `consumer` in the background while `body` runs.
    func running<T: Sendable>(_ consumer: BusConsumer, _ body: () async throws -> T) async throws -> T {
        let task = Task { try await bus.consume(consumer) }
        defer { task.cancel() }
        let result = try await body()
        task.cancel()
        _ = await task.result
        return result
    }
}

/// A fresh fixture of `backend`; the relay runs in the background for AMQP.
///
/// - Parameter relay: false to leave relaying to the test (a relay process, several relays).
func withBus<T: Sendable>(
    _ backend: BusBackend, relay runsRelay: Bool = true, _ body: (BusFixture) async throws -> T
) async throws -> T {
    let tag = UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(10).lowercased()
    let service = "svc\(tag)", category = "bus\(tag)"
    let effects = StreamName(category: "efeito\(tag)", id: "1")
    switch backend {
    case .inProcess:
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("coworkflow-bus-\(tag).sqlite").path
        defer { TemporarySQLite.remove(path) }
        let store = try SQLiteEventStore(path: path)
        let bus = InProcessEventBus(store: store, logger: TestEnvironment.logger)
        let fixture = BusFixture(
            backend: backend, store: store, bus: bus, service: service, category: category, effects: effects,
            relayName: "",
            redeliver: { events in
                // The store is the queue: moving the checkpoint back delivers them again.
                guard let first = events.first else { return }
                let before = try await store.readAll(after: .start, limit: 100_000).last { $0.position < first.position }
                try await store.saveCheckpoint("bus:\(service)", before?.position ?? .start)
            })
        return try await body(fixture)
    case .amqp:
        try await TestEnvironment.migrate()
        let store = PostgresEventStore(settings: TestEnvironment.database, logger: TestEnvironment.logger)
        let relayName = "relay-\(tag)"
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await store.run() }
            defer { group.cancelAll() }
            // Only this test's events matter: start the relay at the head.
            try await store.saveCheckpoint(relayName, try await store.headPosition())
            let relay = Relay(store: store, settings: TestEnvironment.broker, name: relayName, logger: TestEnvironment.logger)
            if runsRelay { group.addTask { try await relay.run() } }
            let bus = AMQPEventBus(settings: TestEnvironment.broker, store: store, logger: TestEnvironment.logger)
            let publisher = AMQPConnection(settings: TestEnvironment.broker, name: "test-publisher")
            try await publisher.open()
            // Declare the queue before any event is relayed, so none is dropped as unroutable.
            try await Topology.declare(service: service, bindings: ["\(category).*"], on: publisher)
            var fixture = BusFixture(
                backend: backend, store: store, bus: bus, service: service, category: category, effects: effects,
                relayName: relayName, redeliver: { events in try await publisher.publish(events.map(relay.message(for:))) })
            fixture.relay = runsRelay ? relay : nil
            do {
                let result = try await body(fixture)
                try? await deleteQueues(of: service, on: publisher)
                await publisher.close()
                return result
            } catch {
                try? await deleteQueues(of: service, on: publisher)
                await publisher.close()
                throw error
            }
        }
    }
}

func deleteQueues(of service: String, on connection: AMQPConnection) async throws {
    try await connection.deleteQueue(Topology.queue(for: service))
    try await connection.deleteQueue(Topology.deadLetterQueue(for: service))
}

/// Polls `condition` until it holds or `seconds` pass; returns whether it held.
func eventually(seconds: Double = 30, _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try await condition() { return true }
        try await Task.sleep(for: .milliseconds(50))
    }
    return try await condition()
}
