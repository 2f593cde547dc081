import EventStore
import Foundation
import Messaging
import Synchronization
import TestSupport
import Testing

extension BrokerSuites {
    /// One suite, both buses: what a consumer may rely on.
    @Suite("EventBus conformance")
    struct BusConformanceTests {
        @Test("a consumer gets its events in global order, each effect once", arguments: BusBackend.allCases)
        func ordering(backend: BusBackend) async throws {
            try await withBus(backend) { fixture in
                try await fixture.running(fixture.consumer()) {
                    // Three writers interleave; the global order is whatever the store made of it.
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for writer in 0..<3 {
                            group.addTask {
                                for index in 0..<10 {
                                    try await fixture.append(stream: "w\(writer)", payload: ["n": index])
                                }
                            }
                        }
                        try await group.waitForAll()
                    }
                    // Events of other categories are not this consumer's.
                    try await fixture.store.append(
                        to: StreamName(category: "outra\(fixture.service)", id: "1"), expected: .any,
                        events: [NewEvent(eventId: UUID(), type: "Testado", data: Data("{}".utf8), occurredAt: Date())])
                    let expected = try await fixture.categoryOrder(expecting: 30)
                    #expect(expected.count == 30)
                    let arrived = try await eventually { try await fixture.effectSources().count >= 30 }
                    #expect(arrived)
                    try await Task.sleep(for: .milliseconds(200))
                    #expect(try await fixture.effectSources() == expected)
                }
            }
        }

        @Test("a handler that throws gets the same event again before anything newer", arguments: BusBackend.allCases)
        func redelivery_after_failure(backend: BusBackend) async throws {
            try await withBus(backend) { fixture in
                let attempts = Counter()
                let consumer = fixture.consumer { event in
                    if event.type == "Instavel", attempts.increment() < 2 { throw Flaky() }
                }
                try await fixture.running(consumer) {
                    try await fixture.append()
                    try await fixture.append("Instavel")
                    try await fixture.append()
                    let expected = try await fixture.categoryOrder(expecting: 3)
                    #expect(try await eventually { try await fixture.effectSources().count >= 3 })
                    #expect(try await fixture.effectSources() == expected)
                    #expect(attempts.value == 3)
                    #expect(try await fixture.bus.deadLetters(of: fixture.service).isEmpty)
                }
            }
        }

        @Test("after N failures an event is dead-lettered with why and how often; the rest flow", arguments: BusBackend.allCases)
        func dead_letter_after_attempts(backend: BusBackend) async throws {
            try await withBus(backend) { fixture in
                let attempts = Counter()
                let consumer = fixture.consumer(maxAttempts: 3) { event in
                    if event.type == "Veneno" {
                        _ = attempts.increment()
                        throw Poisoned()
                    }
                }
                try await fixture.running(consumer) {
                    let first = try await fixture.append()
                    let poison = try await fixture.append("Veneno")
                    let last = try await fixture.append()
                    #expect(try await eventually { try await fixture.effectSources().count >= 2 })
                    #expect(try await fixture.effectSources() == [first.eventId, last.eventId])
                    #expect(attempts.value == 3)
                    var letters: [DeadLetter] = []
                    #expect(
                        try await eventually {
                            letters = try await fixture.bus.deadLetters(of: fixture.service)
                            return !letters.isEmpty
                        })
                    let letter = try #require(letters.first)
                    #expect(letters.count == 1)
                    #expect(letter.eventId == poison.eventId)
                    #expect(letter.attempts == 3)
                    #expect(letter.reason.contains("Veneno"))
                    #expect(letter.reason.contains("the poison"))
                    // Measured (issue 41): the three deliveries, and the one dead letter.
                    #expect(metricSample("coworkflow_bus_dead_lettered_total", ["consumer": fixture.service]) == 1)
                    #expect(metricSample("coworkflow_bus_consumed_total", ["consumer": fixture.service]) >= 3)
                    #expect(metricSample("coworkflow_bus_consumer_lag_seconds_count", ["consumer": fixture.service]) >= 3)
                }
                // Dead-lettered once: a copy delivered later is skipped, not retried.
                let poison = try #require(try await poisonId(fixture))
                #expect(try await fixture.store.inboxEntry(poison, consumer: fixture.service) != nil)
            }
        }

        @Test(
            "a dead letter retried once its cause is gone (the operator's redrive request) is handled, once; the others stay put",
            arguments: BusBackend.allCases)
        func redrive_a_dead_letter(backend: BusBackend) async throws {
            try await withBus(backend) { fixture in
                let cured = Mutex(false)
                let consumer = fixture.consumer(maxAttempts: 2) { event in
                    if event.type == "Veneno", !cured.withLock({ $0 }) { throw Poisoned() }
                }
                try await fixture.running(consumer) {
                    let first = try await fixture.append()
                    let poison = try await fixture.append("Veneno")
                    // The inbox's dead rows are what is still set aside (with AMQP the dead-letter
                    // queue also keeps a copy of each message, as an archive).
                    func dead() async throws -> [UUID] { try await fixture.store.deadLetters(consumer: fixture.service, limit: 10).map(\.eventId) }
                    #expect(try await eventually { try await dead() == [poison.eventId] })
                    #expect(try await fixture.effectSources() == [first.eventId])
                    // A retry while the cause stands: dead again, once more.
                    #expect(try await fixture.store.retryDeadLetters(consumer: fixture.service, eventIds: [poison.eventId]) == [poison.eventId])
                    #expect(
                        try await eventually {
                            let waiting = try await fixture.store.redriveRequests(consumer: fixture.service, limit: 10)
                            let stillDead = try await dead()
                            return waiting.isEmpty && stillDead == [poison.eventId]
                        })
                    #expect(try await fixture.effectSources() == [first.eventId])
                    // The cause is gone: the retry takes effect.
                    cured.withLock { $0 = true }
                    #expect(try await fixture.store.retryDeadLetters(consumer: fixture.service, eventIds: nil) == [poison.eventId])
                    #expect(try await eventually { try await fixture.effectSources().count == 2 })
                    #expect(try await fixture.effectSources() == [first.eventId, poison.eventId])
                    #expect(try await dead().isEmpty)
                    #expect(try await fixture.store.inboxEntry(poison.eventId, consumer: fixture.service)?.outcome == .handled)
                    // Nothing left to retry.
                    #expect(try await fixture.store.retryDeadLetters(consumer: fixture.service, eventIds: nil).isEmpty)
                }
            }
        }

        @Test("an event delivered twice takes effect once", arguments: BusBackend.allCases)
        func duplicates_take_effect_once(backend: BusBackend) async throws {
            try await withBus(backend) { fixture in
                var sources: [RecordedEvent] = []
                try await fixture.running(fixture.consumer()) {
                    for index in 0..<5 { sources.append(try await fixture.append(payload: ["n": index])) }
                    #expect(try await eventually { try await fixture.effectSources().count >= 5 })
                }
                try await fixture.redeliver(sources)
                try await fixture.running(fixture.consumer()) {
                    for index in 5..<8 { sources.append(try await fixture.append(payload: ["n": index])) }
                    #expect(try await eventually { try await fixture.effectSources().count >= 8 })
                    try await Task.sleep(for: .milliseconds(300))
                }
                #expect(try await fixture.effectSources() == sources.map(\.eventId))
            }
        }

        @Test(
            "a handler sees what the handler of an earlier event of the same stream wrote, also when both waited together",
            arguments: BusBackend.allCases)
        func related_events_see_earlier_writes(backend: BusBackend) async throws {
            try await withBus(backend) { fixture in
                // The queue and the inbox exist; then two events of one stream wait in it.
                try await fixture.declareConsumer()
                let primeiro = try await fixture.append("Primeiro", stream: "b")
                try await fixture.append("Segundo", stream: "b")
                try await fixture.waitPublished(3)
                let saw = Mutex<Bool?>(nil)
                let consumer = fixture.consumer { event in
                    guard event.type == "Segundo" else { return }
                    // Like pagamentos reading the payment its ReservaSolicitada handler made.
                    let seen = try await fixture.effectSources().contains(primeiro.eventId)
                    saw.withLock { $0 = seen }
                }
                try await fixture.running(consumer) {
                    let handled = try await eventually { try await fixture.effectSources().count >= 3 }
                    #expect(handled)
                }
                #expect(saw.withLock { $0 } == true)
            }
        }

        @Test(
            "events waiting together reach the consumer's read ahead, each once and in order (the embedded bus: all in one)",
            arguments: BusBackend.allCases)
        func read_ahead_of_waiting_events(backend: BusBackend) async throws {
            try await withBus(backend) { fixture in
                // The queue and the inbox exist; then four events of four streams wait in it.
                try await fixture.declareConsumer()
                var waiting: [UUID] = []
                for n in 0..<4 { waiting.append(try await fixture.append(stream: "w\(n)").eventId) }
                try await fixture.waitPublished(5)
                let plain = fixture.consumer()
                let lotes = Mutex<[[UUID]]>([])
                let consumer = BusConsumer(
                    service: fixture.service, bindings: fixture.bindings,
                    readAhead: { lote in
                        lotes.withLock { $0.append(lote.map(\.eventId)) }
                        return plain.handle
                    }
                ) { event in
                    Issue.record("\(event.type) handled alone")
                    return try await plain.handle(event)
                }
                try await fixture.running(consumer) {
                    let handled = try await eventually { try await fixture.effectSources().count >= 5 }
                    #expect(handled)
                }
                let read = lotes.withLock { $0 }
                #expect(read.flatMap { $0 } == waiting, "\(read)")
                if backend == .inProcess { #expect(read.count == 1, "one read of the store brought the four: \(read)") }
            }
        }
    }
}

extension BusFixture {
    /// Runs a consumer until it has handled one event (stream `a`), then stops it: its queue and
    /// its inbox exist, so events appended next wait for the consumer started after.
    func declareConsumer() async throws {
        try await running(consumer()) {
            try await append(stream: "a")
            let handled = try await eventually { try await effectSources().count >= 1 }
            #expect(handled)
        }
    }

    /// Waits until the category holds `count` events and the relay has had time to publish
    /// them (300 ms): what a test of events waiting together for a consumer starts from.
    func waitPublished(_ count: Int) async throws {
        _ = try await categoryOrder(expecting: count)
        try await Task.sleep(for: .milliseconds(300))
    }

    /// The category's events in global order, once `count` of them are readable: a global or
    /// category read stops below any transaction still open in the database (other suites
    /// run beside this one), so a read right after appending may come up short.
    func categoryOrder(expecting count: Int) async throws -> [UUID] {
        var ids: [UUID] = []
        _ = try await eventually {
            ids = try await store.readCategory(category, after: .start, limit: 1_000).map(\.eventId)
            return ids.count >= count
        }
        return ids
    }
}

private func poisonId(_ fixture: BusFixture) async throws -> UUID? {
    try await fixture.store.readCategory(fixture.category, after: .start, limit: 10).first { $0.type == "Veneno" }?.eventId
}

struct Flaky: Error {}

struct Poisoned: Error, CustomStringConvertible {
    var description: String { "the poison" }
}

final class Counter: Sendable {
    private let count = Mutex(0)
    /// The count before this call.
    func increment() -> Int {
        count.withLock { value in
            defer { value += 1 }
            return value
        }
    }
    var value: Int { count.withLock { $0 } }
}
