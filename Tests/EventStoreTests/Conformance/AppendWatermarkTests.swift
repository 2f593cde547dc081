import EventStore
import Foundation
import Testing

/// What a request waits for to read its own writes: the last position its appends took.
@Suite("AppendWatermark: the positions a task's appends took")
struct AppendWatermarkTests {
    @Test(
        "appends, in the task and its child tasks and in committed transactions, raise the task's watermark; nothing else does",
        arguments: Backend.allCases)
    func watermark(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let store = fixture.store
            let watermark = AppendWatermark()
            let (first, second, inTransaction) = try await AppendWatermark.$current.withValue(watermark) {
                #expect(watermark.position == nil)
                let first = try await store.append(to: uniqueStream("marca"), expected: .noStream, events: events(2))
                #expect(watermark.position == first.positions.max())
                async let child = store.append(to: uniqueStream("marca"), expected: .noStream, events: events(1))
                let second = try await child
                let stream = uniqueStream("marca")
                let inTransaction: GlobalPosition?
                if let postgres = store as? PostgresEventStore {
                    inTransaction = try await postgres.withTransaction { transaction in
                        try await transaction.append(to: stream, expected: .noStream, events: events(1))
                    }.positions.max()
                } else if let sqlite = store as? SQLiteEventStore {
                    inTransaction = try await sqlite.withTransaction { transaction in
                        try transaction.append([StreamWrite(stream: stream, expected: .noStream, events: events(1))])
                    }.positions.max()
                } else {
                    inTransaction = nil
                }
                return (first, second, inTransaction)
            }
            let last = try #require(inTransaction), top = try #require(first.positions.max())
            #expect(last > second.positions[0])
            #expect(second.positions[0] > top)
            #expect(watermark.position == inTransaction)
            // Outside the task-local, appends leave it alone.
            _ = try await store.append(to: uniqueStream("marca"), expected: .noStream, events: events(1))
            #expect(watermark.position == inTransaction)
        }
    }

    @Test("the watermark keeps each stored type's last position, in one append and across several", arguments: Backend.allCases)
    func types_with_their_last_position(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let store = fixture.store
            let watermark = AppendWatermark()
            let (um, dois) = try await AppendWatermark.$current.withValue(watermark) {
                let um = try await store.append([
                    StreamWrite(stream: uniqueStream("marca"), expected: .noStream, events: [event("A"), event("B"), event("A")]),
                    StreamWrite(stream: uniqueStream("marca"), expected: .noStream, events: [event("C")]),
                ])
                let dois = try await store.append(to: uniqueStream("marca"), expected: .noStream, events: [event("B")])
                return (um, dois)
            }
            #expect(watermark.types == ["A": um.positions[2], "C": um.positions[3], "B": dois.positions[0]])
            #expect(watermark.position == dois.positions[0])
        }
    }

    @Test("a position reads back from its description, and nothing else does")
    func parsing() {
        let position = GlobalPosition(transaction: 812, sequence: 4031)
        #expect(GlobalPosition(parsing: position.description) == position)
        for text in ["", "812", "812/", "/4031", "812/4031/1", "a/1", "-1/2", "1 /2"] {
            #expect(GlobalPosition(parsing: text) == nil, "\(text)")
        }
    }
}
