import Foundation
import Testing

@testable import EventStore

/// A process's projection runners commit at about the same moment (they wake on one beat):
/// commits that arrive while one is in flight go together, in one statement and one
/// transaction, each still fenced on its own checkpoint (ReadModelCommitQueue).
@Suite("PostgreSQL: read-model commits gathered into one statement")
struct GroupCommitTests {
    func doc(_ text: String) -> Data { Data("{\"v\":\"\(text)\"}".utf8) }

    @Test("in one statement each batch moves its own checkpoint from its own mark; a stale one writes nothing and leaves the others to commit")
    func a_group_fences_each_batch() async throws {
        try await withFixture(.postgres) { fixture in
            let store = try #require(fixture.store as? PostgresEventStore)
            let names = (0..<3).map { "group-\($0)-\(UUID().uuidString)" }
            var marks: [CheckpointMark] = []
            for name in names {
                marks.append(
                    try await store.commit(
                        [ReadModelChange(collection: name, key: "gone", grupo: nil, doc: doc("x"))], checkpoint: name,
                        at: GlobalPosition(transaction: 1, sequence: 1), from: CheckpointMark.none))
            }
            // The third reader's mark is stale: another one committed after it read.
            let stale = marks[2]
            marks[2] = try await store.commit([], checkpoint: names[2], at: GlobalPosition(transaction: 1, sequence: 2), from: stale)
            let at = GlobalPosition(transaction: 2, sequence: 5)
            let batches = names.enumerated().map { index, name in
                PostgresStatements.CommitReadModels(
                    [
                        ReadModelChange(collection: name, key: "k", grupo: "g", ordem: "1", doc: doc("\(index)")),
                        ReadModelChange(collection: name, key: "gone", grupo: nil, doc: nil),
                    ], checkpoint: name, at: at, from: index == 2 ? stale : marks[index])
            }
            let results = await store.commitGroup(batches)

            for index in 0..<2 {
                let mark = try results[index].get()
                #expect(mark.position == at)
                #expect(try await store.checkpointMark(names[index]) == mark)
                #expect(try await store.document(names[index], key: "k") == doc("\(index)"))
                #expect(try await store.document(names[index], key: "gone") == nil)
            }
            #expect(throws: EventStoreError.self) { try results[2].get() }
            if case .failure(let error as EventStoreError) = results[2] { #expect(error.code == .checkpointMoved) }
            #expect(try await store.checkpointMark(names[2]) == marks[2])
            #expect(try await store.document(names[2], key: "k") == nil)
            #expect(try await store.document(names[2], key: "gone") == doc("x"))
            // Both moved in one transaction: one write, one mark.
            #expect(try results[0].get().token == results[1].get().token)
        }
    }

    @Test("runners committing at once, round after round, each fenced on its last mark: every batch lands, none is lost or refused")
    func concurrent_runners_commit_every_batch() async throws {
        try await withFixture(.postgres) { fixture in
            let store = try #require(fixture.store as? PostgresEventStore)
            let runners = 8
            let rounds = 25
            let names = (0..<runners).map { "runner-\($0)-\(UUID().uuidString)" }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for name in names {
                    group.addTask {
                        var mark = try await store.commit(
                            [], checkpoint: name, at: GlobalPosition(transaction: 1, sequence: 0), from: CheckpointMark.none)
                        for round in 1...rounds {
                            mark = try await store.commit(
                                [
                                    ReadModelChange(collection: name, key: "r\(round)", grupo: "g", ordem: "\(round)", doc: doc("\(round)")),
                                    ReadModelChange(collection: name, key: "r\(round - 1)", grupo: nil, doc: nil),
                                    ReadModelChange(collection: name, key: "total", grupo: nil, doc: doc("\(round)")),
                                ], checkpoint: name, at: GlobalPosition(transaction: 1, sequence: Int64(round)), from: mark)
                        }
                    }
                }
                try await group.waitForAll()
            }
            // Eight writers at once, 200 commits: some arrived while another was in flight.
            #expect(store.readModelCommits.gathered.load(ordering: .relaxed) > 0)
            for name in names {
                #expect(try await store.checkpoint(name) == GlobalPosition(transaction: 1, sequence: Int64(rounds)))
                #expect(try await store.document(name, key: "total") == doc("\(rounds)"))
                #expect(try await store.documents(name, grupo: "g", limit: 10, offset: 0) == [doc("\(rounds)")])
            }
        }
    }

    @Test("a group holds each checkpoint and each document once: a second batch of either waits for the next statement")
    func groups_are_disjoint() {
        func batch(_ checkpoint: String, _ keys: [String], deleting: [String] = []) -> PostgresStatements.CommitReadModels {
            PostgresStatements.CommitReadModels(
                keys.map { ReadModelChange(collection: "c", key: $0, grupo: nil, doc: Data("{}".utf8)) }
                    + deleting.map { ReadModelChange(collection: "c", key: $0, grupo: nil, doc: nil) },
                checkpoint: checkpoint, at: .start, from: nil)
        }
        let entries = [
            (batch: batch("a", ["1"]), waiter: 0), (batch: batch("b", ["2"]), waiter: 1), (batch: batch("a", ["3"]), waiter: 2),
            (batch: batch("c", [], deleting: ["2"]), waiter: 3), (batch: batch("d", ["4"]), waiter: 4),
        ]
        let (group, rest) = ReadModelCommitQueue.disjoint(entries)
        #expect(group.map(\.waiter) == [0, 1, 4])
        #expect(rest.map(\.waiter) == [2, 3])
    }
}
