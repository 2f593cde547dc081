import EventStore
import Foundation
import Synchronization
import Testing

@Suite("Consumer inbox and leases")
struct InboxTests {
    @Test(
        "a retry of dead letters turns them into redrive requests (handled ones stay); the requests read back as the events, in global order",
        arguments: Backend.allCases)
    func dead_letter_retry(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let store = fixture.store
            let consumer = uniqueCategory("consumer")
            let stream = uniqueStream("fonte")
            let written = try await store.append(to: stream, expected: .noStream, events: [event(), event(), event()])
            #expect(written.positions.count == 3)
            let stored = try await store.readStream(stream)
            let (a, b, c) = (stored[0].eventId, stored[1].eventId, stored[2].eventId)
            for id in [c, a] {
                try await store.recordInInbox(id, consumer: consumer, outcome: .deadLettered(reason: "x", attempts: 3), appending: [])
            }
            try await store.recordInInbox(b, consumer: consumer, outcome: .handled, appending: [])
            #expect(try await store.retryDeadLetters(consumer: consumer + "-other", eventIds: nil).isEmpty)
            #expect(try await store.retryDeadLetters(consumer: consumer, eventIds: [b, c]) == [c])
            #expect(try await store.deadLetters(consumer: consumer, limit: 10).map(\.eventId) == [a])
            #expect(try await store.inboxEntry(b, consumer: consumer)?.outcome == .handled)
            #expect(try await store.inboxEntry(c, consumer: consumer) == nil)
            #expect(Set(try await store.retryDeadLetters(consumer: consumer, eventIds: nil)) == [a])
            let requests = try await store.redriveRequests(consumer: consumer, limit: 10)
            #expect(requests.map(\.eventId) == [a, c])
            #expect(requests.map(\.stream) == [stream, stream])
            #expect(try await store.redriveRequests(consumer: consumer, limit: 1).map(\.eventId) == [a])
            try await store.finishRedrive(a, consumer: consumer)
            #expect(try await store.redriveRequests(consumer: consumer, limit: 10).map(\.eventId) == [c])
            #expect(try await store.deadLetters(consumer: consumer, limit: 10).isEmpty)
        }
    }

    @Test("an event recorded in a consumer's inbox commits with its effect, once", arguments: Backend.allCases)
    func effect_and_inbox_commit_together(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let store = fixture.store
            let consumer = uniqueCategory("consumer")
            let source = UUID()
            let effects = uniqueStream("efeito")
            let before = store.eventsAppended
            let first = try await store.recordInInbox(
                source, consumer: consumer, outcome: .handled,
                appending: [StreamWrite(stream: effects, expected: .any, events: [event(), event()])])
            #expect(first)
            #expect(store.eventsAppended == before + 2, "the effect's events count as appended (the metric)")
            let again = try await store.recordInInbox(
                source, consumer: consumer, outcome: .handled,
                appending: [StreamWrite(stream: effects, expected: .any, events: [event()])])
            #expect(!again, "a redelivered event is skipped")
            #expect(store.eventsAppended == before + 2)
            #expect(try await store.readStream(effects).count == 2)
            #expect(try await store.inboxEntry(source, consumer: consumer)?.outcome == .handled)
            // Another consumer has its own inbox.
            #expect(try await store.recordInInbox(source, consumer: consumer + "b", outcome: .handled, appending: []))
            #expect(try await store.inboxEntry(UUID(), consumer: consumer) == nil)
        }
    }

    @Test("a failed effect leaves no inbox row, so the event is handled again", arguments: Backend.allCases)
    func failed_effect_leaves_no_row(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let store = fixture.store
            let consumer = uniqueCategory("consumer")
            let source = UUID()
            let effects = uniqueStream("efeito")
            try await store.append(to: effects, expected: .noStream, events: [event()])
            await #expect(throws: WrongExpectedVersion.self) {
                try await store.recordInInbox(
                    source, consumer: consumer, outcome: .handled,
                    appending: [StreamWrite(stream: effects, expected: .noStream, events: [event()])])
            }
            #expect(try await store.inboxEntry(source, consumer: consumer) == nil)
            #expect(
                try await store.recordInInbox(
                    source, consumer: consumer, outcome: .handled,
                    appending: [StreamWrite(stream: effects, expected: .exact(1), events: [event()])]))
            #expect(try await store.readStream(effects).count == 2)
        }
    }

    @Test("a batch of handled events commits at once, skips what the inbox has, and is all or nothing", arguments: Backend.allCases)
    func batches(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let store = fixture.store
            let consumer = uniqueCategory("consumer")
            let effects = uniqueStream("efeito")
            let seen = UUID(), fresh = UUID()
            try await store.recordInInbox(seen, consumer: consumer, outcome: .handled, appending: [])
            let write = [StreamWrite(stream: effects, expected: .any, events: [event()])]
            let recorded = try await store.recordHandled(
                [HandledEvent(eventId: seen, writes: write), HandledEvent(eventId: fresh, writes: write)], consumer: consumer)
            #expect(recorded == [fresh])
            #expect(try await store.readStream(effects).count == 1, "the skipped event's writes are skipped too")
            let outcomes = try await store.inboxOutcomes([seen, fresh, UUID()], consumer: consumer)
            #expect(outcomes == [seen: .handled, fresh: .handled])
            // A conflict anywhere in the batch records nothing.
            let third = UUID(), fourth = UUID()
            await #expect(throws: WrongExpectedVersion.self) {
                try await store.recordHandled(
                    [
                        HandledEvent(eventId: third, writes: write),
                        HandledEvent(eventId: fourth, writes: [StreamWrite(stream: effects, expected: .noStream, events: [event()])]),
                    ], consumer: consumer)
            }
            #expect(try await store.inboxOutcomes([third, fourth], consumer: consumer).isEmpty)
            #expect(try await store.readStream(effects).count == 1)
        }
    }

    @Test("a batch whose events write to different streams commits every write, or none when one conflicts", arguments: Backend.allCases)
    func batches_over_several_streams(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let store = fixture.store
            let consumer = uniqueCategory("consumer")
            let (one, two, three) = (uniqueStream("efeito"), uniqueStream("efeito"), uniqueStream("efeito"))
            let (a, b) = (UUID(), UUID())
            let before = store.eventsAppended
            let recorded = try await store.recordHandled(
                [
                    HandledEvent(eventId: a, writes: [StreamWrite(stream: one, expected: .noStream, events: [event()])]),
                    HandledEvent(
                        eventId: b,
                        writes: [
                            StreamWrite(stream: two, expected: .noStream, events: [event(), event()]),
                            StreamWrite(stream: three, expected: .any, events: [event()]),
                        ]),
                ], consumer: consumer)
            #expect(recorded == [a, b])
            #expect(store.eventsAppended == before + 4)
            #expect(try await store.readStream(one).count == 1)
            #expect(try await store.readStream(two).count == 2)
            #expect(try await store.readStream(three).count == 1)
            // The second event's stream is not where it expects: neither event is recorded.
            let (c, d) = (UUID(), UUID())
            let four = uniqueStream("efeito")
            await #expect(throws: WrongExpectedVersion.self) {
                try await store.recordHandled(
                    [
                        HandledEvent(eventId: c, writes: [StreamWrite(stream: four, expected: .noStream, events: [event()])]),
                        HandledEvent(eventId: d, writes: [StreamWrite(stream: one, expected: .noStream, events: [event()])]),
                    ], consumer: consumer)
            }
            #expect(try await store.inboxOutcomes([c, d], consumer: consumer).isEmpty)
            #expect(try await store.readStream(four).isEmpty)
            #expect(try await store.readStream(one).count == 1)
        }
    }

    @Test("dead letters keep their reason and attempts", arguments: Backend.allCases)
    func dead_letters(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let store = fixture.store
            let consumer = uniqueCategory("consumer")
            let poison = UUID()
            try await store.recordInInbox(
                poison, consumer: consumer, outcome: .deadLettered(reason: "handler threw: boom", attempts: 5), appending: [])
            try await store.recordInInbox(UUID(), consumer: consumer, outcome: .handled, appending: [])
            let dead = try await store.deadLetters(consumer: consumer, limit: 10)
            #expect(dead.map(\.eventId) == [poison])
            #expect(dead.first?.outcome == .deadLettered(reason: "handler threw: boom", attempts: 5))
        }
    }

    @Test("concurrent deliveries of one event: exactly one effect", arguments: Backend.allCases)
    func concurrent_duplicates(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let store = fixture.store
            let consumer = uniqueCategory("consumer")
            let source = UUID()
            let effects = uniqueStream("efeito")
            let wins = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await store.recordInInbox(
                            source, consumer: consumer, outcome: .handled,
                            appending: [StreamWrite(stream: effects, expected: .any, events: [event()])])
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(wins == 1)
            #expect(try await store.readStream(effects).count == 1)
        }
    }

    @Test("a lease has one holder at a time; the next takes over when it is given up", arguments: Backend.allCases)
    func lease_has_one_holder(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let store = fixture.store
            let lease = uniqueCategory("lease")
            let holders = Holders()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<3 {
                    group.addTask {
                        try await store.whileHolding(lease: lease, retryEvery: .milliseconds(20)) {
                            holders.state.withLock {
                                $0.now += 1
                                $0.most = max($0.most, $0.now)
                                $0.runs += 1
                            }
                            try await Task.sleep(for: .milliseconds(100))
                            holders.state.withLock { $0.now -= 1 }
                        }
                    }
                }
                try await group.waitForAll()
            }
            let seen = holders.state.withLock { $0 }
            #expect(seen.runs == 3)
            #expect(seen.most == 1)
        }
    }
}

private final class Holders: Sendable {
    let state = Mutex((now: 0, most: 0, runs: 0))
}
