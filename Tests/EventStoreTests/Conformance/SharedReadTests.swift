import EventStore
import Foundation
import Testing

/// The followers of the log in one process (projection runners, the relay, the embedded bus's
/// consumers) share their global-order reads (single flight and a memo of recent batches); what
/// each reader gets must stay what an unshared read would give, in either store.
@Suite("Shared global-order reads")
struct SharedReadTests {
    @Test(
        "concurrent readers of one position get the same batch; an empty answer is not kept; a kept batch is a prefix of a fresh read",
        .timeLimit(.minutes(1)), arguments: Backend.allCases)
    func shared_reads(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let store = fixture.store
            let category = uniqueCategory("shared")
            let start = try await store.headPosition()
            // Only this test's events: other suites may append to the same database meanwhile.
            func mine(_ events: [RecordedEvent]) -> [UUID] { events.filter { $0.stream.category == category }.map(\.eventId) }

            // Nothing after the head yet; then an append: the next read must see it.
            #expect(mine(try await store.readAllShared(after: start, limit: 1_000)).isEmpty)
            let first = events(3)
            try await store.append(to: StreamName(category: category, id: "1"), expected: .noStream, events: first)
            // A shared reader moves past each batch it gets (a batch may be kept and answered
            // again for the same position), as the runners do.
            var seen: [RecordedEvent] = []
            var at = start
            while !Set(mine(seen)).isSuperset(of: first.map(\.eventId)) {
                let batch = try await store.readAllShared(after: at, limit: 1_000)
                if let last = batch.last {
                    seen += batch
                    at = last.position
                } else {
                    try await Task.sleep(for: .milliseconds(5))
                }
            }

            let batches = try await withThrowingTaskGroup(of: [RecordedEvent].self) { group in
                for _ in 0..<8 { group.addTask { try await store.readAllShared(after: start, limit: 1_000) } }
                return try await group.reduce(into: [[RecordedEvent]]()) { $0.append($1) }
            }
            #expect(Set(batches.map { $0.map(\.eventId) }).count == 1)

            // More events: a kept batch is the start of what the database now answers.
            let second = events(2)
            try await store.append(to: StreamName(category: category, id: "2"), expected: .noStream, events: second)
            let kept = try await store.readAllShared(after: start, limit: 1_000)
            var fresh: [RecordedEvent] = []
            var position = start
            while true {
                let batch = try await store.readAll(after: position, limit: 7)  // unshared: always the database
                guard let last = batch.last else {
                    // Not visible yet: another suite's open transaction holds the horizon back.
                    try await Task.sleep(for: .milliseconds(5))
                    continue
                }
                fresh += batch
                position = last.position
                if Set(mine(fresh)).isSuperset(of: (first + second).map(\.eventId)) { break }
            }
            #expect(Array(fresh.prefix(kept.count).map(\.eventId)) == kept.map(\.eventId))
            #expect(mine(fresh) == (first + second).map(\.eventId))
        }
    }
}
