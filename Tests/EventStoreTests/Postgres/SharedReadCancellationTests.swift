import Foundation
import Testing

@testable import EventStore

/// A shared global-order read is cancelled when any of its readers is cancelled (it must not
/// wait on a pool that may be stopping); the readers that were not cancelled read for themselves.
@Suite("PostgreSQL: a shared read one reader gives up")
struct SharedReadCancellationTests {
    @Test("the reader that started a shared read gets its events when another reader of it is cancelled", .timeLimit(.minutes(1)))
    func starter_survives_a_cancelled_joiner() async throws {
        try await TestDatabase.migrate()  // run alone, on a fresh database, nothing else made the schema
        var settings = TestDatabase.settings
        settings.maximumConnections = 1
        settings.minimumConnections = 1
        let store = PostgresEventStore(settings: settings, logger: TestDatabase.logger)
        try await withPostgresStore(store) { store in
            let category = uniqueCategory("cancel")
            let start = try await store.headPosition()
            let appended = events(2)
            try await store.append(to: StreamName(category: category, id: "1"), expected: .noStream, events: appended)

            // The pool's one connection is held, so the shared read waits for it.
            let (release, releaser) = AsyncStream<Void>.makeStream()
            let holder = Task { try await store.lease { _ in for await _ in release { break } } }
            // The starter: its read is registered before anyone joins it.
            let starter = Task { try await store.readAllShared(after: start, limit: 1_000) }
            while !store.sharedReads.holds(after: start, limit: 1_000) {
                try await Task.sleep(for: .milliseconds(1))
            }
            // A reader that joins it and is cancelled (its runner stopped) cancels the shared read.
            let joiner = Task { try await store.readAllShared(after: start, limit: 1_000) }
            joiner.cancel()
            _ = await joiner.result

            releaser.yield()
            releaser.finish()
            try await holder.value
            // Before, the starter's read threw the CancellationError of the joiner's.
            let read = try await starter.value
            let mine = read.filter { $0.stream.category == category }.map(\.eventId)
            #expect(mine == Array(appended.map(\.eventId).prefix(mine.count)))
        }
    }
}
