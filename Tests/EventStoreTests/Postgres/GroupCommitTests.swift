import Foundation
import PostgresNIO
import Testing

@testable import EventStore

/// A process's projection runners commit at about the same moment (they wake on one beat):
/// commits that arrive while one is in flight go together, in one statement and one
/// transaction, each still fenced on its own checkpoint (ReadModelCommitQueue).
@Suite("PostgreSQL: read-model commits gathered into one statement")
struct GroupCommitTests {
    func doc(_ text: String) -> Data { Data("{\"v\":\"\(text)\"}".utf8) }

    /// The mark a group answered for a batch (fails the test on any other outcome).
    func mark(_ outcome: ReadModelCommitQueue.Outcome) throws -> CheckpointMark {
        guard case .done(let result) = outcome else { throw EventStoreError(.backend, "the batch was left to commit alone") }
        return try result.get()
    }

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
                let mark = try mark(results[index])
                #expect(mark.position == at)
                #expect(try await store.checkpointMark(names[index]) == mark)
                #expect(try await store.document(names[index], key: "k") == doc("\(index)"))
                #expect(try await store.document(names[index], key: "gone") == nil)
            }
            #expect(throws: EventStoreError.self) { try mark(results[2]) }
            if case .done(.failure(let error as EventStoreError)) = results[2] { #expect(error.code == .checkpointMoved) }
            #expect(try await store.checkpointMark(names[2]) == marks[2])
            #expect(try await store.document(names[2], key: "k") == nil)
            #expect(try await store.document(names[2], key: "gone") == doc("x"))
            // Both moved in one transaction: one write, one mark.
            #expect(try mark(results[0]).token == mark(results[1]).token)
        }
    }

    @Test(
        "a checkpoint another transaction holds does not hold up the group: its batch is left to commit alone, the others commit at once",
        .timeLimit(.minutes(1)))
    func a_busy_checkpoint_is_left_out() async throws {
        try await withFixture(.postgres) { fixture in
            let store = try #require(fixture.store as? PostgresEventStore)
            let names = (0..<2).map { "busy-\($0)-\(UUID().uuidString)" }
            var marks: [CheckpointMark] = []
            for name in names {
                marks.append(try await store.commit([], checkpoint: name, at: GlobalPosition(transaction: 1, sequence: 1), from: CheckpointMark.none))
            }
            // Another session holds the first checkpoint's row, as a promotion does while it
            // rewrites a read model.
            let holder = try await PostgresConnection.connect(
                configuration: TestDatabase.settings.connectionConfiguration(), id: 1, logger: TestDatabase.logger)
            _ = try await holder.query("BEGIN", logger: TestDatabase.logger)
            _ = try await holder.query(
                "SELECT 1 FROM subscription_checkpoints WHERE name = \(names[0]) FOR UPDATE", logger: TestDatabase.logger)
            let at = GlobalPosition(transaction: 1, sequence: 2)
            let results = await store.commitGroup(
                names.enumerated().map { index, name in
                    PostgresStatements.CommitReadModels(
                        [ReadModelChange(collection: name, key: "k", grupo: nil, doc: doc("\(index)"))], checkpoint: name, at: at, from: marks[index])
                })
            _ = try await holder.query("ROLLBACK", logger: TestDatabase.logger)
            try await holder.close()

            guard case .alone = results[0] else {
                Issue.record("the busy checkpoint's batch was not left to commit alone: \(results[0])")
                return
            }
            #expect(try await store.checkpointMark(names[0]) == marks[0])
            #expect(try await store.document(names[0], key: "k") == nil)
            #expect(try mark(results[1]).position == at)
            #expect(try await store.document(names[1], key: "k") == doc("1"))
            // Alone, as its caller then commits it, it lands.
            #expect(try await store.commit([], checkpoint: names[0], at: at, from: marks[0]).position == at)
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
