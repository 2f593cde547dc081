import EventStore
import Foundation
import Testing

@Suite("Idempotent append")
struct IdempotencyTests {
    @Test("appending the same event ids again writes nothing and returns the same positions", arguments: Backend.allCases)
    func same_ids_twice(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let stream = uniqueStream()
            let batch = events(3)
            let first = try await fixture.store.append(to: stream, expected: .noStream, events: batch)
            // A retry after a lost answer: same ids, same (now stale) expectation.
            let second = try await fixture.store.append(to: stream, expected: .noStream, events: batch)
            #expect(second == first)
            #expect(try await fixture.store.readStream(stream).map(\.eventId) == batch.map(\.eventId))
        }
    }

    @Test("concurrent retries of one append store it once", arguments: Backend.allCases)
    func concurrent_retries(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let stream = uniqueStream()
            let batch = events(2)
            let store = fixture.store
            let results = try await withThrowingTaskGroup(of: AppendResult.self) { group in
                for _ in 0..<6 { group.addTask { try await store.append(to: stream, expected: .any, events: batch) } }
                return try await group.reduce(into: [AppendResult]()) { $0.append($1) }
            }
            #expect(Set(results.map(\.positions)).count == 1)
            #expect(try await store.readStream(stream).count == 2)
        }
    }

    @Test("a batch mixing stored and new ids is refused", arguments: Backend.allCases)
    func partial_duplicate(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let stream = uniqueStream()
            let stored = event()
            try await fixture.store.append(to: stream, expected: .noStream, events: [stored])
            let error = await #expect(throws: EventStoreError.self) {
                try await fixture.store.append(to: stream, expected: .any, events: [stored, event()])
            }
            #expect(error?.code == .partialDuplicate)
            #expect(try await fixture.store.streamVersion(stream) == 1)
        }
    }
}
