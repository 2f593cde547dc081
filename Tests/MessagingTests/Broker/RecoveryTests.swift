import EventStore
import Foundation
import Messaging
import PostgresNIO
import Testing

extension BrokerSuites {
    /// The distributed bus under the failures the issue names: a killed relay process, a
    /// broker restart, a poison event, a message that is not an event.
    @Suite("Relay and consumer recovery")
    struct RecoveryTests {
        @Test("10,000 events from 4 writers arrive in global order, each effect once, while the relay process is killed twice")
        func relay_process_killed_twice() async throws {
            try await withBus(.amqp, relay: false) { fixture in
                try await fixture.running(fixture.consumer()) {
                    var relay = try RelayProcess(name: fixture.relayName)
                    let written = Counter()
                    let writers = Task {
                        try await withThrowingTaskGroup(of: Void.self) { group in
                            for writer in 0..<4 {
                                group.addTask {
                                    for index in 0..<2_500 {
                                        try await fixture.store.append(
                                            to: StreamName(category: fixture.category, id: "w\(writer)"), expected: .any,
                                            events: [
                                                NewEvent(
                                                    eventId: UUID(), type: "Testado", data: Data(#"{"n":\#(index)}"#.utf8),
                                                    occurredAt: Date())
                                            ])
                                        _ = written.increment()
                                    }
                                }
                            }
                            try await group.waitForAll()
                        }
                    }
                    for threshold in [2_500, 6_000] {
                        #expect(try await eventually(seconds: 120) { written.value >= threshold })
                        relay.kill()
                        relay = try RelayProcess(name: fixture.relayName)
                    }
                    try await writers.value
                    let arrived = try await eventually(seconds: 180) {
                        try await fixture.store.streamVersion(fixture.effects) >= 10_000
                    }
                    relay.stop()
                    let count = try await fixture.store.streamVersion(fixture.effects)
                    #expect(arrived, "effects: \(count)")
                    try await Task.sleep(for: .milliseconds(500))
                    let expected = try await readCategoryAll(fixture)
                    let sources = try await fixture.effectSources()
                    #expect(expected.count == 10_000)
                    #expect(sources.count == 10_000, "each effect exactly once")
                    #expect(sameOrder(sources, expected), "in global order")
                }
            }
        }

        @Test("RabbitMQ stopped and started mid-stream: nothing lost, nothing applied twice")
        func broker_restart_mid_stream() async throws {
            let scripts = repositoryRoot.appendingPathComponent("infra/local")
            try await withBus(.amqp) { fixture in
                try await fixture.running(fixture.consumer()) {
                    func write(_ range: Range<Int>) async throws {
                        for index in range { try await fixture.append(stream: "\(index % 7)", payload: ["n": index]) }
                    }
                    // Some events handled, more on their way…
                    try await write(0..<500)
                    #expect(try await eventually(seconds: 60) { try await fixture.store.streamVersion(fixture.effects) >= 100 })
                    try await run(scripts.appendingPathComponent("stop.sh").path, "rabbitmq")
                    // …appended while the broker is down…
                    try await write(500..<1_000)
                    #expect(try await eventually { fixture.bus.health.snapshot.isUp == false }, "health reports the broker down")
                    try await run(scripts.appendingPathComponent("start.sh").path, "rabbitmq")
                    // …and after it is back.
                    try await write(1_000..<1_500)
                    let arrived = try await eventually(seconds: 120) {
                        try await fixture.store.streamVersion(fixture.effects) >= 1_500
                    }
                    let count = try await fixture.store.streamVersion(fixture.effects)
                    #expect(arrived, "effects: \(count)")
                    if !arrived { try await recordWhereItStopped(fixture) }
                    try await Task.sleep(for: .milliseconds(500))
                    #expect(sameOrder(try await fixture.effectSources(), try await readCategoryAll(fixture)))
                    #expect(try await eventually { fixture.bus.health.snapshot.isUp }, "health reports the broker back")
                    #expect(fixture.bus.health.snapshot.reconnects >= 1)
                }
            }
        }

        @Test("a consumer the broker cancels (its queue deleted under it) is told, reconnects and declares the queue again; later events arrive")
        func consumer_cancelled_by_the_broker() async throws {
            try await withBus(.amqp) { fixture in
                try await fixture.running(fixture.consumer()) {
                    let first = try await fixture.append()
                    #expect(try await eventually { try await fixture.effectSources() == [first.eventId] })
                    let admin = AMQPConnection(settings: TestEnvironment.broker, name: "test.admin")
                    try await admin.open()
                    try await admin.deleteQueue(Topology.queue(for: fixture.service))
                    // Without the broker's cancel notification the consumer would wait on a
                    // subscription that no longer exists, for ever, and look healthy.
                    #expect(try await eventually { fixture.bus.health.snapshot.reconnects >= 1 }, "the consumer noticed")
                    #expect(try await eventually { fixture.bus.health.snapshot.isUp })
                    // Declared again (a passive declare of a missing queue fails and closes the channel).
                    #expect(
                        try await eventually {
                            if !(await admin.isOpen) { try await admin.open() }
                            return (try? await admin.messageCount(Topology.queue(for: fixture.service))) != nil
                        })
                    await admin.close()
                    let later = try await fixture.append()
                    #expect(try await eventually { try await fixture.effectSources() == [first.eventId, later.eventId] })
                }
            }
        }

        @Test("a message that is not an event (published with amqp-publish) goes to the DLQ with the reason; the consumer goes on")
        func foreign_bad_body_is_dead_lettered() async throws {
            try await withBus(.amqp) { fixture in
                try await fixture.running(fixture.consumer()) {
                    let first = try await fixture.append()
                    let broker = TestEnvironment.broker
                    try await run(
                        "/usr/bin/amqp-publish",
                        "--url=amqp://\(broker.user):\(broker.password)@\(broker.host):\(broker.port)",
                        "--exchange=\(Topology.exchange)", "--routing-key=\(fixture.category).Testado",
                        "--content-type=application/json", "--body=isto não é um evento {")
                    let last = try await fixture.append()
                    #expect(try await eventually { try await fixture.effectSources().count >= 2 })
                    #expect(try await fixture.effectSources() == [first.eventId, last.eventId])
                    var letters: [DeadLetter] = []
                    #expect(
                        try await eventually {
                            letters = try await fixture.bus.deadLetters(of: fixture.service)
                            return !letters.isEmpty
                        })
                    #expect(letters.count == 1)
                    #expect(letters.first?.eventId == nil)
                    #expect(letters.first?.reason.contains("not JSON") == true, "\(letters)")
                }
            }
        }

        @Test("replicas of the relay: one publishes; when it stops, another takes over")
        func relay_failover() async throws {
            try await withBus(.amqp, relay: false) { fixture in
                let replicas = (0..<2).map { _ in
                    Relay(store: fixture.store, settings: TestEnvironment.broker, name: fixture.relayName, logger: TestEnvironment.logger)
                }
                let first = Task { try await replicas[0].run() }
                #expect(try await eventually { replicas[0].status.active })
                let second = Task { try await replicas[1].run() }
                try await fixture.running(fixture.consumer()) {
                    for index in 0..<20 { try await fixture.append(payload: ["n": index]) }
                    #expect(try await eventually { try await fixture.effectSources().count >= 20 })
                    #expect(replicas[1].status.active == false)
                    first.cancel()
                    _ = await first.result
                    #expect(try await eventually { replicas[1].status.active })
                    for index in 20..<40 { try await fixture.append(payload: ["n": index]) }
                    #expect(try await eventually { try await fixture.effectSources().count >= 40 })
                    try await Task.sleep(for: .milliseconds(300))
                    #expect(sameOrder(try await fixture.effectSources(), try await readCategoryAll(fixture)))
                }
                second.cancel()
                _ = await second.result
            }
        }

        @Test(
            "under load the relay lets its next batch gather: after publishing 4 events or more it waits for the beat before reading again, then publishes what came meanwhile"
        )
        func relay_gathers_under_load() async throws {
            try await withBus(.amqp, relay: false) { fixture in
                let relay = Relay(
                    store: fixture.store, settings: TestEnvironment.broker, name: fixture.relayName, gathering: .seconds(5),
                    logger: TestEnvironment.logger)
                let running = Task { try await relay.run() }
                try await fixture.running(fixture.consumer()) {
                    // It waits for the process's next 5 s beat: start, once it is active, just
                    // after one, so that the wait below is most of a beat, wherever they fall.
                    #expect(try await eventually { relay.status.active })
                    try await Task.sleep(until: Beat.next(.seconds(5)), clock: .continuous)
                    // Five in one transaction: one batch, after which it waits.
                    try await fixture.store.append(
                        to: StreamName(category: fixture.category, id: "lote"), expected: .noStream,
                        events: (0..<5).map { _ in NewEvent(eventId: UUID(), type: "Testado", data: Data("{}".utf8), occurredAt: Date()) })
                    let published = try await eventually { try await fixture.effectSources().count >= 5 }
                    #expect(published)
                    try await fixture.append()
                    try await Task.sleep(for: .milliseconds(300))
                    #expect(try await fixture.effectSources().count == 5, "read only once the wait is over")
                    let later = try await eventually(seconds: 20) { try await fixture.effectSources().count >= 6 }
                    #expect(later)
                }
                running.cancel()
                _ = await running.result
            }
        }

        @Test(
            "a relay replica that lost its lease to another reports standby, not the error it lost it by (the faults harness found it stuck on it)"
        )
        func relay_standby_after_losing_its_lease() async throws {
            try await withBus(.amqp, relay: false) { fixture in
                let replicas = (0..<2).map { _ in
                    Relay(store: fixture.store, settings: TestEnvironment.broker, name: fixture.relayName, logger: TestEnvironment.logger)
                }
                let first = Task { try await replicas[0].run() }
                #expect(try await eventually { replicas[0].status.active && replicas[0].health.snapshot.isUp })
                let second = Task { try await replicas[1].run() }
                // The one waiting for the lease says so.
                #expect(try await eventually(seconds: 10) { replicas[1].health.snapshot.status == .standby })
                // The first loses its lease (its connection ends, as in a database restart); the second takes over.
                try await terminateLeaseHolder("relay:\(fixture.relayName)")
                #expect(try await eventually { replicas[1].status.active && replicas[1].health.snapshot.isUp })
                #expect(try await eventually(seconds: 10) { replicas[0].health.snapshot.status == .standby })
                try await fixture.running(fixture.consumer()) {
                    for index in 0..<5 { try await fixture.append(payload: ["n": index]) }
                    #expect(try await eventually { try await fixture.effectSources().count >= 5 })
                }
                first.cancel()
                second.cancel()
                _ = await first.result
                _ = await second.result
            }
        }
    }
}

/// Ends the server session that holds the advisory lock of lease `name` (as
/// `pg_advisory_lock(hashtextextended(name, 0))` takes it: the key's high half in `classid`,
/// its low half in `objid`).
func terminateLeaseHolder(_ name: String) async throws {
    let connection = try await PostgresConnection.connect(
        configuration: TestEnvironment.database.connectionConfiguration(asOwner: true), id: 99, logger: TestEnvironment.logger)
    defer { Task { try? await connection.close() } }
    let rows = try await connection.query(
        """
        SELECT pg_terminate_backend(pid) FROM pg_locks
        WHERE locktype = 'advisory' AND granted AND objsubid = 1
          AND ((classid::bigint << 32) | objid::bigint) = hashtextextended(\(name), 0)
        """, logger: TestEnvironment.logger)
    var terminated = 0
    for try await ended in rows.decode(Bool.self) where ended { terminated += 1 }
    #expect(terminated == 1, "no session held lease \(name)")
}

/// Says whether events stopped at the relay or at the consumer: the relay's checkpoint
/// against the store's head, what waits in the queue, and the consumer's health.
func recordWhereItStopped(_ fixture: BusFixture, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    let checkpoint = try await fixture.store.checkpoint(fixture.relayName)
    let head = try await fixture.store.headPosition()
    let admin = AMQPConnection(settings: TestEnvironment.broker, name: "test.inspect")
    var ready = "unknown"
    do {
        try await admin.open()
        ready = String(try await admin.messageCount(Topology.queue(for: fixture.service)))
    } catch {
        ready = "unknown (\(error))"
    }
    await admin.close()
    let relay = "relay: \(String(describing: fixture.relay?.status)), \(String(describing: fixture.relay?.health.snapshot))"
    Issue.record(
        "relay checkpoint \(checkpoint), store head \(head); \(relay); ready in the queue: \(ready); consumer: \(fixture.bus.health.snapshot)",
        sourceLocation: sourceLocation)
}

/// Whether two id lists are equal; when not, records where they first differ (not 10,000 ids).
func sameOrder(_ actual: [UUID], _ expected: [UUID], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
    guard actual != expected else { return true }
    let index = zip(actual, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(actual.count, expected.count)
    let distinct = Set(actual).count
    Issue.record(
        "\(actual.count) effects for \(expected.count) events; first difference at index \(index); \(distinct) distinct",
        sourceLocation: sourceLocation)
    return false
}

/// The fixture category's events in global order.
func readCategoryAll(_ fixture: BusFixture) async throws -> [UUID] {
    var ids: [UUID] = []
    try await fixture.store.forEachEvent(category: fixture.category) { ids.append($0.eventId) }
    return ids
}

let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Runs a program to its end (output discarded); throws when it fails.
///
/// Spawned and reaped by hand: Foundation's `Process` on Linux never reports the end of a
/// script that leaves a daemon behind (`start.sh` starting RabbitMQ), since the daemon keeps
/// the descriptor it watches open.
func run(_ program: String, _ arguments: String...) async throws {
    let status = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int32, any Error>) in
        let thread = Thread {
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            let argv = ([program] + arguments).map { strdup($0) } + [nil]
            defer { for arg in argv { free(arg) } }
            var pid: pid_t = 0
            let spawned = posix_spawn(&pid, program, &actions, nil, argv, environ)
            guard spawned == 0 else {
                continuation.resume(throwing: ProgramFailed(description: "cannot start \(program): error \(spawned)"))
                return
            }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            continuation.resume(returning: status)
        }
        thread.start()
    }
    guard status == 0 else {
        throw ProgramFailed(description: "\(program) \(arguments.joined(separator: " ")) exited with status \(status)")
    }
}

struct ProgramFailed: Error, CustomStringConvertible {
    let description: String
}

/// `coworkflow relay` as a separate process (the binary built beside the test bundle).
struct RelayProcess {
    let process = Process()

    init(name: String) throws {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        process.executableURL = directory.appendingPathComponent("coworkflow")
        process.arguments = ["relay", "--name", name, "--batch", "200"]
        var environment = ProcessInfo.processInfo.environment
        environment["LOG_LEVEL"] = environment["TEST_LOG_LEVEL"] ?? "error"
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        try process.run()
    }

    /// SIGKILL: no clean-up, no last checkpoint.
    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}
