import Dispatch
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import EventStore

@Suite("Embedded store: appends waiting for the writer commit together")
struct SQLiteAppendQueueTests {
    /// Runs `body` while the store's writer is busy with a write that ends when `body` returns.
    static func whileTheWriterIsBusy<T>(_ store: SQLiteEventStore, _ body: () async throws -> T) async throws -> T {
        let gate = DispatchSemaphore(value: 0)
        let inside = Atomic<Bool>(false)
        let holder = Task {
            try await store.database.write { _ in
                inside.store(true, ordering: .sequentiallyConsistent)
                gate.wait()
            }
        }
        for _ in 0..<2_000 where !inside.load(ordering: .sequentiallyConsistent) { try await Task.sleep(for: .milliseconds(5)) }
        let entered = inside.load(ordering: .sequentiallyConsistent)
        #expect(entered, "the writer never took the holding write")
        let result: T
        do {
            result = try await body()
        } catch {
            gate.signal()
            throw error
        }
        gate.signal()
        try await holder.value
        return result
    }

    @Test("twelve appends that wait for the writer commit in one transaction, each with its own outcome")
    func waiting_appends_commit_together() async throws {
        let path = TemporarySQLite.path("coworkflow-appends")
        defer { TemporarySQLite.remove(path) }
        let store = try SQLiteEventStore(path: path)
        let contested = uniqueStream()
        let retried = uniqueStream()
        let retriedEvent = event("Repetido")
        let distinct = (0..<8).map { _ in uniqueStream() }
        let before = store.appendQueue.transactions

        let outcomes = try await Self.whileTheWriterIsBusy(store) {
            let appends = (0..<2).map { n in
                Task { try await store.append([StreamWrite(stream: contested, expected: .noStream, events: [event("Disputado", ["n": n])])]) }
            }
            let retries = (0..<2).map { _ in
                Task { try await store.append([StreamWrite(stream: retried, expected: .any, events: [retriedEvent])]) }
            }
            let others = distinct.map { stream in
                Task { try await store.append([StreamWrite(stream: stream, expected: .noStream, events: events(2))]) }
            }
            for _ in 0..<2_000 where store.appendQueue.waiting < 12 { try await Task.sleep(for: .milliseconds(5)) }
            #expect(store.appendQueue.waiting == 12)
            return (appends, retries, others)
        }
        let (appends, retries, others) = outcomes

        // The contested stream: one append won, the other failed on its own, as it would alone.
        var won: [AppendResult] = []
        var refused: [WrongExpectedVersion] = []
        for append in appends {
            do { won.append(try await append.value) } catch let error as WrongExpectedVersion { refused.append(error) }
        }
        #expect(won.count == 1)
        #expect(refused.map(\.actual) == [1])
        #expect(try await store.readStream(contested, from: 1, limit: 10).count == 1)

        // The same event twice: one write, the same position answered to both.
        let retriedPositions = try await retries.asyncMap { try await $0.value.positions }
        #expect(retriedPositions[0] == retriedPositions[1])
        #expect(try await store.readStream(retried, from: 1, limit: 10).map(\.eventId) == [retriedEvent.eventId])

        // Everything else committed, in the order of its positions.
        for (stream, append) in zip(distinct, others) {
            let result = try await append.value
            #expect(result.versions[stream] == 2)
            #expect(try await store.readStream(stream, from: 1, limit: 10).map(\.position) == result.positions)
        }

        // One transaction carried all twelve (counted before any of them was answered).
        let after = store.appendQueue.transactions
        #expect(after.transactions - before.transactions == 1)
        #expect(after.appends - before.appends == 12)
    }

    @Test("an append alone runs as its own transaction, and its failure changes nothing")
    func an_append_alone() async throws {
        let path = TemporarySQLite.path("coworkflow-appends")
        defer { TemporarySQLite.remove(path) }
        let store = try SQLiteEventStore(path: path)
        let stream = uniqueStream()
        _ = try await store.append([StreamWrite(stream: stream, expected: .noStream, events: events(1))])
        await #expect(throws: WrongExpectedVersion.self) {
            try await store.append([StreamWrite(stream: stream, expected: .noStream, events: events(3))])
        }
        #expect(try await store.readStream(stream, from: 1, limit: 10).count == 1)
        let counted = store.appendQueue.transactions
        #expect(counted.transactions == 1 && counted.appends == 1, "only committed transactions count: \(counted)")
        // The queue is free again: the next append is not stuck behind the failed one.
        _ = try await store.append([StreamWrite(stream: stream, expected: .exact(1), events: events(1))])
        #expect(try await store.readStream(stream, from: 1, limit: 10).count == 2)
    }
}

extension Array {
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async throws -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
