import EventStore
import Foundation
import Testing

/// What a request waits for to read its own writes: the last position each type it appended
/// took, which the store answers with every append.
@Suite("Append results name the last position each stored type took")
struct AppendTypesTests {
    @Test(
        "one append names each type's last position; a transaction's appends do too; a repeated append answers the first's",
        arguments: Backend.allCases)
    func types_with_their_last_position(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let store = fixture.store
            let writes = [
                StreamWrite(stream: uniqueStream("marca"), expected: .noStream, events: [event("A"), event("B"), event("A")]),
                StreamWrite(stream: uniqueStream("marca"), expected: .noStream, events: [event("C")]),
            ]
            let um = try await store.append(writes)
            #expect(um.types == ["A": um.positions[2], "B": um.positions[1], "C": um.positions[3]])
            // The same events again are stored once; the answer is the first's, types and all.
            #expect(try await store.append(writes) == um)

            let stream = uniqueStream("marca")
            let inTransaction: AppendResult?
            if let postgres = store as? PostgresEventStore {
                inTransaction = try await postgres.withTransaction { transaction in
                    try await transaction.append(to: stream, expected: .noStream, events: [event("D"), event("D")])
                }
            } else if let sqlite = store as? SQLiteEventStore {
                inTransaction = try await sqlite.withTransaction { transaction in
                    try transaction.append([StreamWrite(stream: stream, expected: .noStream, events: [event("D"), event("D")])])
                }
            } else {
                inTransaction = nil
            }
            let dois = try #require(inTransaction)
            #expect(dois.types == ["D": dois.positions[1]])
            #expect(dois.positions[1] > um.positions[3])
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
