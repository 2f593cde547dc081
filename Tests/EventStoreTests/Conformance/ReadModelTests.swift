import EventStore
import Foundation
import Testing

@Suite("Read models")
struct ReadModelTests {
    func doc(_ text: String) -> Data { Data("{\"v\":\"\(text)\"}".utf8) }

    /// Expects a fenced commit to be refused as stale (``EventStoreError/Code/checkpointMoved``).
    func expectStale(sourceLocation: SourceLocation = #_sourceLocation, _ commit: () async throws -> CheckpointMark) async {
        await #expect(sourceLocation: sourceLocation) { try await commit() } throws: { error in
            (error as? EventStoreError)?.code == .checkpointMoved
        }
    }

    @Test("documents and the checkpoint commit together; lists filter by group and sort by order, then key", arguments: Backend.allCases)
    func commit_and_list(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let store = fixture.store
            let collection = "test-\(UUID().uuidString)"
            let checkpoint = "projection:\(collection)"
            try await store.commit(
                [
                    ReadModelChange(collection: collection, key: "b", grupo: "g1", ordem: "2", doc: doc("b")),
                    ReadModelChange(collection: collection, key: "a", grupo: "g1", ordem: "2", doc: doc("a")),
                    ReadModelChange(collection: collection, key: "c", grupo: "g1", ordem: "1", doc: doc("c")),
                    ReadModelChange(collection: collection, key: "d", grupo: "g2", ordem: "0", doc: doc("d")),
                ], checkpoint: checkpoint, at: GlobalPosition(transaction: 7, sequence: 9))
            #expect(try await store.checkpoint(checkpoint) == GlobalPosition(transaction: 7, sequence: 9))
            #expect(try await store.documents(collection, grupo: "g1", limit: 10, offset: 0) == [doc("c"), doc("a"), doc("b")])
            #expect(try await store.documents(collection, grupo: "g1", limit: 1, offset: 1) == [doc("a")])
            #expect(try await store.documents(collection, grupo: nil, limit: 10, offset: 0).count == 4)
            #expect(try await store.count(collection, grupo: "g1") == 3)
            #expect(try await store.count(collection, grupo: nil) == 4)

            try await store.commit(
                [
                    ReadModelChange(collection: collection, key: "a", grupo: "g2", ordem: "9", doc: doc("a2")),
                    ReadModelChange(collection: collection, key: "b", grupo: nil, doc: nil),
                ], checkpoint: checkpoint, at: GlobalPosition(transaction: 8, sequence: 10))
            #expect(try await store.document(collection, key: "a") == doc("a2"))
            #expect(try await store.document(collection, key: "b") == nil)
            #expect(try await store.documents(collection, grupo: "g2", limit: 10, offset: 0) == [doc("d"), doc("a2")])
            // Several keys at once: those with a document, once each, of this collection only.
            #expect(try await store.documents(collection, keys: ["a", "b", "d", "zz", "a"]) == ["a": doc("a2"), "d": doc("d")])
            #expect(try await store.documents(collection, keys: []) == [:])
            #expect(try await store.documents("outra-\(UUID().uuidString)", keys: ["a", "d"]) == [:])

            try await store.reset(collections: [collection], checkpoint: checkpoint)
            #expect(try await store.count(collection, grupo: nil) == 0)
            #expect(try await store.checkpoint(checkpoint) == .start)
        }
    }

    @Test("changes to one key in one commit apply in order: the last one stands", arguments: Backend.allCases)
    func repeated_keys(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let store = fixture.store
            let collection = "test-\(UUID().uuidString)"
            let checkpoint = "projection:\(collection)"
            try await store.commit(
                [ReadModelChange(collection: collection, key: "gone", grupo: "g", doc: doc("old"))],
                checkpoint: checkpoint, at: GlobalPosition(transaction: 1, sequence: 1))
            try await store.commit(
                [
                    ReadModelChange(collection: collection, key: "a", grupo: "g", doc: doc("a1")),
                    ReadModelChange(collection: collection, key: "a", grupo: nil, doc: nil),
                    ReadModelChange(collection: collection, key: "a", grupo: nil, ordem: "5", doc: doc("a3")),
                    ReadModelChange(collection: collection, key: "gone", grupo: "g", doc: doc("new")),
                    ReadModelChange(collection: collection, key: "gone", grupo: nil, doc: nil),
                    ReadModelChange(collection: collection, key: "b", grupo: nil, doc: nil),
                ], checkpoint: checkpoint, at: GlobalPosition(transaction: 2, sequence: 2))
            #expect(try await store.document(collection, key: "a") == doc("a3"))
            #expect(try await store.document(collection, key: "gone") == nil)
            #expect(try await store.document(collection, key: "b") == nil)
            #expect(try await store.count(collection, grupo: "g") == 0)
            #expect(try await store.count(collection, grupo: nil) == 1)
            #expect(try await store.checkpoint(checkpoint) == GlobalPosition(transaction: 2, sequence: 2))
        }
    }

    @Test("a failed commit leaves neither documents nor checkpoint", arguments: Backend.allCases)
    func failed_commit(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let store = fixture.store
            let collection = "test-\(UUID().uuidString)"
            let checkpoint = "projection:\(collection)"
            try await store.commit(
                [ReadModelChange(collection: collection, key: "a", grupo: nil, doc: doc("a"))],
                checkpoint: checkpoint, at: GlobalPosition(transaction: 1, sequence: 1))
            await #expect(throws: (any Error).self) {
                // An empty key breaks the table's check: the first change must roll back too.
                try await store.commit(
                    [
                        ReadModelChange(collection: collection, key: "b", grupo: nil, doc: doc("b")),
                        ReadModelChange(collection: collection, key: "", grupo: nil, doc: doc("c")),
                    ], checkpoint: checkpoint, at: GlobalPosition(transaction: 2, sequence: 2))
            }
            #expect(try await store.document(collection, key: "b") == nil)
            #expect(try await store.checkpoint(checkpoint) == GlobalPosition(transaction: 1, sequence: 1))
        }
    }

    @Test(
        "a fenced commit moves the checkpoint only from where its batch began; a stale batch (another reader committed) writes nothing",
        arguments: Backend.allCases)
    func fenced_commit(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let store = fixture.store
            let collection = "test-\(UUID().uuidString)"
            let checkpoint = "projection:\(collection)"
            let p1 = GlobalPosition(transaction: 5, sequence: 10), p2 = GlobalPosition(transaction: 6, sequence: 20)
            #expect(try await store.checkpointMark(checkpoint) == .none)
            // The first batch of a reader with no checkpoint begins at none.
            let m1 = try await store.commit(
                [ReadModelChange(collection: collection, key: "a", grupo: nil, doc: doc("1"))], checkpoint: checkpoint, at: p1,
                from: CheckpointMark.none)
            #expect(m1.position == p1)
            #expect(try await store.checkpointMark(checkpoint) == m1)
            // Replica B took over and committed the next batch...
            let m2 = try await store.commit(
                [ReadModelChange(collection: collection, key: "a", grupo: nil, doc: doc("2"))], checkpoint: checkpoint, at: p2, from: m1)
            #expect(m2.position == p2)
            // ...while replica A, which lost its lease, still holds the batch after p1 (or the first one).
            for stale in [m1, CheckpointMark.none] {
                await expectStale {
                    try await store.commit(
                        [
                            ReadModelChange(collection: collection, key: "a", grupo: nil, doc: doc("stale")),
                            ReadModelChange(collection: collection, key: "z", grupo: nil, doc: doc("stale")),
                        ], checkpoint: checkpoint, at: p2, from: stale)
                }
            }
            #expect(try await store.document(collection, key: "a") == doc("2"))
            #expect(try await store.document(collection, key: "z") == nil)
            #expect(try await store.checkpointMark(checkpoint) == m2)
            // A batch that expected a checkpoint another reader has not saved yet is stale too.
            let other = "projection:other-\(collection)"
            await expectStale {
                try await store.commit(
                    [ReadModelChange(collection: collection, key: "y", grupo: nil, doc: doc("y"))], checkpoint: other, at: p2, from: m1)
            }
            #expect(try await store.document(collection, key: "y") == nil)
            #expect(try await store.checkpointMark(other) == .none)
            // Unfenced, as a rebuild writes: wherever the checkpoint stood.
            try await store.commit([], checkpoint: checkpoint, at: .start)
            #expect(try await store.checkpoint(checkpoint) == .start)
        }
    }

    @Test(
        "a checkpoint that a rebuild brought back to the same position still fences out a reader that stood there before it (A-B-A)",
        arguments: Backend.allCases)
    func fence_survives_a_rebuild_to_the_same_position(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let store = fixture.store
            let collection = "test-\(UUID().uuidString)"
            let checkpoint = "projection:\(collection)"
            let p1 = GlobalPosition(transaction: 5, sequence: 10), p2 = GlobalPosition(transaction: 6, sequence: 20)
            // Replica A commits p1, then loses its lease without noticing.
            let stale = try await store.commit(
                [ReadModelChange(collection: collection, key: "a", grupo: nil, doc: doc("old"))], checkpoint: checkpoint, at: p1,
                from: CheckpointMark.none)
            // A rebuild empties the read model and, the log's head being p1 still, ends exactly there.
            let reset = try await store.reset(collections: [collection], checkpoint: checkpoint)
            #expect(reset.position == .start && reset != .none)
            #expect(try await store.checkpointMark(checkpoint) == reset)
            // A's batch is refused right after the reset...
            await expectStale {
                try await store.commit(
                    [ReadModelChange(collection: collection, key: "a", grupo: nil, doc: doc("stale"))], checkpoint: checkpoint, at: p2, from: stale)
            }
            // ...and a batch from "never saved" too: the row stays through a reset.
            await expectStale {
                try await store.commit(
                    [ReadModelChange(collection: collection, key: "a", grupo: nil, doc: doc("stale"))], checkpoint: checkpoint, at: p2,
                    from: CheckpointMark.none)
            }
            let rebuilt = try await store.commit(
                [ReadModelChange(collection: collection, key: "a", grupo: nil, doc: doc("new"))], checkpoint: checkpoint, at: p1, from: reset)
            #expect(rebuilt.position == stale.position && rebuilt != stale)
            // ...and after the rebuild is back at p1: the position alone would have let it through.
            await expectStale {
                try await store.commit(
                    [
                        ReadModelChange(collection: collection, key: "a", grupo: nil, doc: doc("stale")),
                        ReadModelChange(collection: collection, key: "z", grupo: nil, doc: doc("stale")),
                    ], checkpoint: checkpoint, at: p2, from: stale)
            }
            #expect(try await store.document(collection, key: "a") == doc("new"))
            #expect(try await store.document(collection, key: "z") == nil)
            #expect(try await store.checkpointMark(checkpoint) == rebuilt)
            // Unfenced writes (a subscription's checkpoint, an analytics rebuild) move the mark too.
            try await store.saveCheckpoint(checkpoint, p1)
            await expectStale {
                try await store.commit([], checkpoint: checkpoint, at: p2, from: rebuilt)
            }
        }
    }

    @Test("a reset of a checkpoint never saved saves it at the start, so a reader that found none is fenced out", arguments: Backend.allCases)
    func reset_of_a_checkpoint_never_saved(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let store = fixture.store
            let collection = "test-\(UUID().uuidString)"
            let checkpoint = "projection:\(collection)"
            let p1 = GlobalPosition(transaction: 5, sequence: 10)
            // Replica A found no checkpoint, then lost its lease; a rebuild resets before A commits.
            #expect(try await store.checkpointMark(checkpoint) == .none)
            let reset = try await store.reset(collections: [collection], checkpoint: checkpoint)
            #expect(reset.position == .start && reset != .none)
            await expectStale {
                try await store.commit(
                    [ReadModelChange(collection: collection, key: "a", grupo: nil, doc: doc("stale"))], checkpoint: checkpoint, at: p1,
                    from: CheckpointMark.none)
            }
            #expect(try await store.document(collection, key: "a") == nil)
            // The rebuild commits from the mark its reset returned.
            let rebuilt = try await store.commit(
                [ReadModelChange(collection: collection, key: "a", grupo: nil, doc: doc("new"))], checkpoint: checkpoint, at: p1, from: reset)
            #expect(try await store.checkpointMark(checkpoint) == rebuilt)
            #expect(try await store.document(collection, key: "a") == doc("new"))
        }
    }

    @Test(
        "a read model built beside the live one replaces it in one transaction, and fences out the runner that followed the old one",
        arguments: Backend.allCases)
    func promote_a_staged_read_model(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let store = fixture.store
            let live = "test-\(UUID().uuidString)", other = "test-\(UUID().uuidString)"
            let checkpoint = "projection:\(live)", staged = "projection:\(live)~rebuild"
            let pairs = [StagedCollection(staged: "\(live)~rebuild", live: live), StagedCollection(staged: "\(other)~rebuild", live: other)]
            let p1 = GlobalPosition(transaction: 5, sequence: 10), p2 = GlobalPosition(transaction: 7, sequence: 30)
            let p3 = GlobalPosition(transaction: 8, sequence: 40)
            func refused(_ code: EventStoreError.Code, at mark: CheckpointMark, sourceLocation: SourceLocation = #_sourceLocation) async {
                await #expect(sourceLocation: sourceLocation) {
                    try await store.promote(pairs, checkpoint: checkpoint, from: staged, at: mark)
                } throws: { error in
                    (error as? EventStoreError)?.code == code
                }
            }
            // Nothing built yet: refused, and nothing changes.
            var following = try await store.commit(
                [
                    ReadModelChange(collection: live, key: "a", grupo: "g", doc: doc("old a")),
                    ReadModelChange(collection: live, key: "b", grupo: "g", doc: doc("old b")),
                    ReadModelChange(collection: other, key: "x", grupo: nil, doc: doc("old x")),
                ], checkpoint: checkpoint, at: p1, from: CheckpointMark.none)
            await refused(.nothingStaged, at: .none)
            #expect(try await store.checkpointMark(checkpoint) == following)
            // The rebuild writes its own collections and checkpoint; the live ones do not move.
            let reset = try await store.reset(collections: pairs.map(\.staged), checkpoint: staged)
            let built = try await store.commit(
                [
                    ReadModelChange(collection: "\(live)~rebuild", key: "b", grupo: "g", ordem: "2", doc: doc("new b")),
                    ReadModelChange(collection: "\(live)~rebuild", key: "c", grupo: "g", ordem: "1", doc: doc("new c")),
                ], checkpoint: staged, at: p2, from: reset)
            #expect(try await store.documents(live, grupo: "g", limit: 10, offset: 0) == [doc("old a"), doc("old b")])
            #expect(try await store.checkpointMark(checkpoint) == following)
            // Only from the builder's own last mark (another builder wrote it since the reset).
            await refused(.checkpointMoved, at: reset)
            // Not while the live read model is further than the build: what it applied after p2
            // would go missing. The build reads on, then it goes.
            following = try await store.commit(
                [ReadModelChange(collection: live, key: "a", grupo: "g", doc: doc("newer a"))], checkpoint: checkpoint, at: p3, from: following)
            await refused(.stagedBehind, at: built)
            #expect(try await store.documents(live, grupo: "g", limit: 10, offset: 0) == [doc("newer a"), doc("old b")])
            let caughtUp = try await store.commit([], checkpoint: staged, at: p3, from: built)

            let promoted = try await store.promote(pairs, checkpoint: checkpoint, from: staged, at: caughtUp)
            #expect(promoted.position == p3 && promoted != following)
            #expect(try await store.checkpointMark(checkpoint) == promoted)
            // The new documents only, with their groups and order; a collection the rebuild left
            // empty is empty; nothing is left under the staged names.
            #expect(try await store.documents(live, grupo: "g", limit: 10, offset: 0) == [doc("new c"), doc("new b")])
            #expect(try await store.document(live, key: "a") == nil)
            #expect(try await store.count(other, grupo: nil) == 0)
            #expect(try await store.count("\(live)~rebuild", grupo: nil) == 0)
            // The staged checkpoint is back at the start under a new mark: promoting again is refused.
            let after = try await store.checkpointMark(staged)
            #expect(after.position == .start && after != caughtUp)
            await refused(.checkpointMoved, at: caughtUp)
            #expect(try await store.count(live, grupo: "g") == 2)
            // The runner that followed the old documents is fenced out, and writes nothing.
            await expectStale {
                try await store.commit(
                    [ReadModelChange(collection: live, key: "a", grupo: "g", doc: doc("stale"))], checkpoint: checkpoint, at: p3, from: following)
            }
            #expect(try await store.document(live, key: "a") == nil)
            // From the promoted mark it goes on.
            try await store.commit(
                [ReadModelChange(collection: live, key: "d", grupo: "g", ordem: "3", doc: doc("d"))], checkpoint: checkpoint, at: p3, from: promoted)
            #expect(try await store.count(live, grupo: "g") == 3)
        }
    }

    @Test(
        "a build promoted where the live read model never saved its checkpoint takes its place; a runner that starts from nothing is fenced out",
        arguments: Backend.allCases)
    func promote_where_nothing_was_saved(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let store = fixture.store
            let live = "test-\(UUID().uuidString)"
            let checkpoint = "projection:\(live)", staged = "projection:\(live)~rebuild"
            let pairs = [StagedCollection(staged: "\(live)~rebuild", live: live)]
            let p1 = GlobalPosition(transaction: 5, sequence: 10)
            #expect(try await store.checkpointMark(checkpoint) == CheckpointMark.none)
            let reset = try await store.reset(collections: pairs.map(\.staged), checkpoint: staged)
            let built = try await store.commit(
                [ReadModelChange(collection: "\(live)~rebuild", key: "a", grupo: "g", doc: doc("built a"))], checkpoint: staged, at: p1, from: reset)

            let promoted = try await store.promote(pairs, checkpoint: checkpoint, from: staged, at: built)
            #expect(promoted.position == p1 && promoted != CheckpointMark.none)
            #expect(try await store.checkpointMark(checkpoint) == promoted)
            #expect(try await store.documents(live, grupo: "g", limit: 10, offset: 0) == [doc("built a")])
            // A live runner that found no checkpoint when it started (its mark: none) writes nothing.
            await expectStale {
                try await store.commit(
                    [ReadModelChange(collection: live, key: "a", grupo: "g", doc: doc("stale"))], checkpoint: checkpoint, at: p1,
                    from: CheckpointMark.none)
            }
            #expect(try await store.document(live, key: "a") == doc("built a"))
            try await store.commit(
                [ReadModelChange(collection: live, key: "b", grupo: "g", doc: doc("b"))], checkpoint: checkpoint, at: p1, from: promoted)
            #expect(try await store.count(live, grupo: "g") == 2)
        }
    }
}
