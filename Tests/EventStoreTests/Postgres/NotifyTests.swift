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
                    group.addTask {
                        try await Task.sleep(for: .seconds(30))
                        return nil
                    }
                    let first = try await group.next() ?? nil
                    group.cancelAll()
                    #expect(first == sent.eventId, "only a notification could have woken the reader in time")
                }
            }
        }
    }

    @Test("the last append of a fast burst wakes a subscriber of another instance, though only some appends carry the NOTIFY")
    func burst_trailing_append() async throws {
        let events = (1...200).map { _ in event() }
        try await acrossInstances("burst", awaiting: events[199].eventId) { writer, category in
            for (index, sent) in events.enumerated() {
                try await writer.append(to: StreamName(category: category, id: "\(index)"), expected: .noStream, events: [sent])
            }
        }
    }

    @Test("an append inside a transaction, which never carries the NOTIFY, wakes a subscriber of another instance")
    func transaction_append() async throws {
        let sent = event()
        try await acrossInstances("tx", awaiting: sent.eventId) { writer, category in
            try await writer.withTransaction { transaction in
                _ = try await transaction.append(to: StreamName(category: category, id: "1"), expected: .noStream, events: [sent])
            }
        }
    }

    /// Runs `write` on one store instance while a subscriber of another, which would poll only
    /// after ten minutes, waits for the event `awaited`.
    private func acrossInstances(
        _ name: String, awaiting awaited: UUID, write: @escaping @Sendable (PostgresEventStore, String) async throws -> Void
    ) async throws {
        try await TestDatabase.migrate()
        let writer = PostgresEventStore(settings: TestDatabase.settings, logger: TestDatabase.logger)
        let reader = PostgresEventStore(settings: TestDatabase.settings, logger: TestDatabase.logger)
        try await withPostgresStore(writer) { writer in
            try await withPostgresStore(reader) { reader in
                let category = uniqueCategory(name)
                let start = try await reader.headPosition()
                let subscription = reader.subscribe(after: start, pollInterval: .seconds(600))
                try await withThrowingTaskGroup(of: Bool.self) { group in
                    group.addTask {
                        for try await event in subscription where event.eventId == awaited { return true }
                        return false
                    }
                    try await Task.sleep(for: .milliseconds(500))  // reader idle, listening
                    try await write(writer, category)
                    group.addTask {
                        try await Task.sleep(for: .seconds(30))
                        return false
                    }
                    let delivered = try await group.next() ?? false
                    group.cancelAll()
                    #expect(delivered, "only a notification could have woken the reader in time")
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
                    try await connection.query(
                        """
                        INSERT INTO events (stream_id, stream_version, event_id, event_type, schema_version, data, metadata, occurred_at)
                        VALUES (\("\(category)-1"), 1, \(id), 'Testado', 1, '{}', '{}', now())
                        """, logger: TestDatabase.logger)
                }
                group.addTask {
                    try await Task.sleep(for: .seconds(30))
                    return nil
                }
                let first = try await group.next() ?? nil
                group.cancelAll()
                #expect(first == id)
            }
        }
    }
}
