import Domain
import EventStore
import Foundation
import TestSupport
import Testing

@Suite("Embedded store: the log's checkpoints, off the writer")
struct SQLiteCheckpointTests {
    /// A payload of about 2 KB: a page of the log at most two events.
    static func bulky(_ n: Int) -> NewEvent {
        NewEvent(
            eventId: UUID(), type: "Volumoso", data: Data(#"{"n":\#(n),"texto":"\#(String(repeating: "x", count: 2_000))"}"#.utf8),
            metadata: EventMetadata(), occurredAt: testInstant)
    }

    static func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    @Test("past the threshold the checkpointer copies the log into the database file, and the log is used again from its start")
    func checkpoints_past_the_threshold() async throws {
        let path = TemporarySQLite.path("coworkflow-checkpoint")
        defer { TemporarySQLite.remove(path) }
        let store = try SQLiteEventStore(path: path, checkpointPages: 50)
        let stream = uniqueStream()
        // About 1,000 pages in all: twenty times the threshold.
        for round in 0..<100 {
            let events = (0..<20).map { Self.bulky(round * 20 + $0) }
            _ = try await store.append([StreamWrite(stream: stream, expected: .any, events: events)])
            // Each append waits for the checkpoint it set off, so the log's length is the threshold's
            // doing, not the scheduler's.
            for _ in 0..<500 where store.checkpointsRunning { try await Task.sleep(for: .milliseconds(2)) }
        }
        #expect(store.checkpointsMade >= 5, "the checkpointer ran \(store.checkpointsMade) times")
        // The copies are the checkpointer's: a commit finishes one now and then, never in turn
        // with it (as it would if it took a log started again for the one just copied).
        #expect(
            store.checkpointsFinishedInCommits * 2 < store.checkpointsMade,
            "commits finished \(store.checkpointsFinishedInCommits), the checkpointer made \(store.checkpointsMade)")
        // The events are in the database file, not only in the log.
        #expect(Self.size(path) > 2_000 * 2_000 / 2, "database file \(Self.size(path)) bytes")
        // Without checkpoints the log would hold all of it (4 MB and more); restarted after each,
        // it stays near the threshold and one append.
        #expect(Self.size(path + "-wal") < 1_000_000, "log \(Self.size(path + "-wal")) bytes")
        #expect(try await store.readStream(stream, from: 1, limit: 10_000).map(\.version) == Array(1...2_000))
    }

    @Test("eight writers and the checkpointer at once; then every event reads back once, in order")
    func checkpoints_under_concurrent_writes() async throws {
        let path = TemporarySQLite.path("coworkflow-checkpoint")
        defer { TemporarySQLite.remove(path) }
        let store = try SQLiteEventStore(path: path, checkpointPages: 20)
        let writers = 8
        let perWriter = 40
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    let stream = uniqueStream()
                    for n in 0..<perWriter {
                        _ = try await store.append([StreamWrite(stream: stream, expected: .any, events: [Self.bulky(writer * perWriter + n)])])
                    }
                }
            }
            try await group.waitForAll()
        }
        var seen: [GlobalPosition] = []
        var after = GlobalPosition.start
        while true {
            let batch = try await store.readAll(after: after, limit: 37)
            guard let last = batch.last else { break }
            seen += batch.map(\.position)
            after = last.position
        }
        #expect(seen.count == writers * perWriter)
        #expect(seen == seen.sorted() && Set(seen).count == seen.count)
        #expect(store.checkpointsMade > 0)
    }
}
