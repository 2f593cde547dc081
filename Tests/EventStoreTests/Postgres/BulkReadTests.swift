import Domain
import Foundation
import Testing

@testable import EventStore

/// Large global-order reads take another path through PostgresNIO than small ones (rows
/// decoded on the event loop, an unnamed statement; ADR 0001 §5): both must give the same
/// events, every field intact.
@Suite("PostgreSQL: bulk reads")
struct BulkReadTests {
    @Test("a read of bulk size gives what the prepared small reads give, events and payloads", .timeLimit(.minutes(1)))
    func bulk_matches_prepared() async throws {
        try await withFixture(.postgres) { fixture in
            let store = try #require(fixture.store as? PostgresEventStore)
            let category = uniqueCategory("bulk")
            let start = try await store.headPosition()
            let metadata = EventMetadata(correlationId: UUID(), causationId: UUID(), actor: "usuario:1", requestId: "req-1", service: "reservas")
            let written = [event("ReservaSolicitada", ["valor": 12_345], metadata: metadata)] + events(4)
            try await store.append(to: StreamName(category: category, id: "1"), expected: .noStream, events: written)
            func mine(_ event: RecordedEvent) -> Bool { event.stream.category == category }

            let small = try await store.readAllKeeping(after: start, batch: 100, expecting: 5, mine)
            let bulk = try await store.readAllKeeping(after: start, batch: PostgresEventStore.bulkRead, expecting: 5, mine)
            #expect(small.map(\.eventId) == written.map(\.eventId))
            #expect(bulk == small)
            #expect(bulk.first?.metadata == metadata)
            #expect(try bulk.first?.decode([String: Int].self) == ["valor": 12_345])

            // Payloads: all five are there once the events are (the same reads, fewer fields).
            let smallPayloads = try await store.readAllPayloads(after: start, limit: 100).filter { $0.stream.category == category }
            let bulkPayloads = try await store.readAllPayloads(after: start, limit: PostgresEventStore.bulkRead)
                .filter { $0.stream.category == category }
            #expect(smallPayloads == small.map(EventPayload.init))
            #expect(bulkPayloads == smallPayloads)
        }
    }
}
