import EventStore
import Foundation
import Testing

@Suite("Live subscriptions")
struct SubscriptionTests {
    @Test("a subscriber is woken by an append without waiting for its poll", arguments: Backend.allCases)
    func woken_by_append(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let store = fixture.store
            let category = uniqueCategory()
            let start = try await store.headPosition()
            // A poll interval far beyond the test's bound: only a wake-up can deliver in time.
            let subscription = store.subscribe(after: start, pollInterval: .seconds(600))
            let received = try await withThrowingTaskGroup(of: UUID?.self) { group in
                group.addTask {
                    for try await event in subscription where event.stream.category == category { return event.eventId }
                    return nil
                }
                try await Task.sleep(for: .milliseconds(300))  // let it go idle first
                let sent = event()
                try await store.append(to: StreamName(category: category, id: "1"), expected: .any, events: [sent])
                group.addTask {
                    try await Task.sleep(for: .seconds(30))
                    return nil
                }
                let first = try await group.next() ?? nil
                group.cancelAll()
                #expect(first == sent.eventId)
                return first
            }
            #expect(received != nil)
        }
    }

    @Test("several checkpoints read together come back in the order asked, the start for one never saved", arguments: Backend.allCases)
    func checkpoints_read_together(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let store = fixture.store
            let (a, b, never) = (uniqueCategory("cp"), uniqueCategory("cp"), uniqueCategory("cp"))
            let written = try await store.append(
                to: StreamName(category: uniqueCategory(), id: "1"), expected: .noStream, events: [event(), event()])
            try await store.saveCheckpoint(a, written.positions[1])
            try await store.saveCheckpoint(b, written.positions[0])
            #expect(try await store.checkpoints([b, never, a]) == [written.positions[0], .start, written.positions[1]])
            #expect(try await store.checkpoints([]) == [])
        }
    }

    @Test("a subscriber resumes from its saved checkpoint after a restart", arguments: Backend.allCases)
    func resumes_from_checkpoint(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let store = fixture.store
            let category = uniqueCategory()
            let name = "test-\(category)"
            try await store.saveCheckpoint(name, try await store.headPosition())
            let stream = StreamName(category: category, id: "1")
            let firstBatch = events(5)
            try await store.append(to: stream, expected: .noStream, events: firstBatch)

            // First run: handles the first five, then is stopped.
            let handled = try await consume(store, checkpoint: name, category: category, count: 5)
            #expect(handled == firstBatch.map(\.eventId))

            let secondBatch = events(3)
            try await store.append(to: stream, expected: .exact(5), events: secondBatch)
            // Restart: picks up exactly where it stopped.
            let resumed = try await consume(store, checkpoint: name, category: category, count: 3)
            #expect(resumed == secondBatch.map(\.eventId))
        }
    }

    /// Follows the named checkpoint until `count` events of `category` were handled, then stops.
    private func consume(_ store: any EventStore, checkpoint: String, category: String, count: Int) async throws -> [UUID] {
        let collected = Collected()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await store.follow(checkpoint: checkpoint, pollInterval: .milliseconds(50)) { event in
                    if event.stream.category == category { await collected.add(event.eventId) }
                }
            }
            let done = try await eventually { await collected.count >= count }
            #expect(done)
            // Let the last checkpoint save land, then stop the subscriber like a restart would.
            try await Task.sleep(for: .milliseconds(100))
            group.cancelAll()
            do { try await group.waitForAll() } catch is CancellationError {}
        }
        return await collected.ids
    }
}

actor Collected {
    var ids: [UUID] = []
    var count: Int { ids.count }
    func add(_ id: UUID) { ids.append(id) }
}
