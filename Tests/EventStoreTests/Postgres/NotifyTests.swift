import EventStore
import Foundation
import PostgresNIO
import Testing

@Suite("PostgreSQL: LISTEN/NOTIFY")
struct NotifyTests {
    @Test("an append by another store instance wakes a subscriber through NOTIFY")
    func woken_across_instances() async throws {
        try await TestDatabase.migrate()
        let writer = PostgresEventStore(settings: TestDatabase.settings, logger: TestDatabase.logger)
        let reader = PostgresEventStore(settings: TestDatabase.settings, logger: TestDatabase.logger)
        try await withPostgresStore(writer) { writer in
            try await withPostgresStore(reader) { reader in
                let category = uniqueCategory("notify")
                let start = try await reader.headPosition()
                let subscription = reader.subscribe(after: start, pollInterval: .seconds(600))
                try await withThrowingTaskGroup(of: UUID?.self) { group in
                    group.addTask {
                        for try await event in subscription where event.stream.category == category { return event.eventId }
                        return nil
                    }
                    try await Task.sleep(for: .milliseconds(500))  // reader idle, listening
                    let sent = event()
                    try await writer.append(to: StreamName(category: category, id: "1"), expected: .noStream, events: [sent])
                    group.addTask { try await Task.sleep(for: .seconds(30)); return nil }
                    let first = try await group.next() ?? nil
                    group.cancelAll()
                    #expect(first == sent.eventId, "only a notification could have woken the reader in time")
                }
            }
        }
    }

    @Test("with no notification at all, polling still delivers")
    func polling_fallback() async throws {
        try await withFixture(.postgres) { fixture in
            let store = try #require(fixture.store as? PostgresEventStore)
            let category = uniqueCategory("poll")
            let start = try await store.headPosition()
            let subscription = store.subscribe(after: start, pollInterval: .milliseconds(100))
            let id = UUID()
            try await withThrowingTaskGroup(of: UUID?.self) { group in
                group.addTask {
                    for try await event in subscription where event.stream.category == category { return event.eventId }
                    return nil
                }
                try await Task.sleep(for: .milliseconds(300))
                // Appended behind the store's back: no doorbell rings and no NOTIFY is sent.
                try await asOwner { connection in
                    try await connection.query("""
                        INSERT INTO events (stream_id, stream_version, event_id, event_type, schema_version, data, metadata, occurred_at)
                        VALUES (\("\(category)-1"), 1, \(id), 'Testado', 1, '{}', '{}', now())
                        """, logger: TestDatabase.logger)
                }
                group.addTask { try await Task.sleep(for: .seconds(30)); return nil }
                let first = try await group.next() ?? nil
                group.cancelAll()
                #expect(first == id)
            }
        }
    }
}
