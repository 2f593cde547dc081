import Foundation
import Synchronization
import Testing

@testable import EventStore

/// ``SharedReads`` in isolation: how many reads of the store its callers cost.
@Suite("Shared reads: one read for the callers of one batch", .timeLimit(.minutes(1)))
struct SharedReadsTests {
    /// A store's unshared read that counts its calls and, while `held`, waits for `release`.
    final class Reader: Sendable {
        let calls = Mutex(0)
        let answer: Mutex<[RecordedEvent]>
        let gate = Mutex<CheckedContinuation<Void, Never>?>(nil)
        let held: Bool

        init(answer: [RecordedEvent], held: Bool) {
            self.answer = Mutex(answer)
            self.held = held
        }

        @Sendable func read(after: GlobalPosition, limit: Int) async throws -> [RecordedEvent] {
            let first = calls.withLock {
                $0 += 1
                return $0 == 1
            }
            if held, first { await withCheckedContinuation { continuation in gate.withLock { $0 = continuation } } }
            return answer.withLock { $0 }
        }

        func release() {
            gate.withLock {
                $0?.resume()
                $0 = nil
            }
        }

        var waiting: Bool { gate.withLock { $0 != nil } }
    }

    static func recorded(_ count: Int) -> [RecordedEvent] {
        (1...count).map { index in
            RecordedEvent(
                position: GlobalPosition(transaction: Int64(index), sequence: Int64(index)), stream: StreamName("lido-\(index)"),
                version: 1, eventId: UUID(), type: "Lido", schemaVersion: 1, data: Data("{}".utf8), metadataJSON: Data("{}".utf8),
                occurredAt: Date(timeIntervalSince1970: 0), recordedAt: Date(timeIntervalSince1970: 0))
        }
    }

    @Test("eight callers of one batch, and one more after it: one read of the store")
    func one_read_for_many() async throws {
        let shared = SharedReads()
        let reader = Reader(answer: Self.recorded(3), held: true)
        let first = Task { try await shared.read(after: .start, limit: 64, reader.read) }
        while !reader.waiting { await Task.yield() }
        let others = (0..<7).map { _ in Task { try await shared.read(after: .start, limit: 64, reader.read) } }
        // Give the others time to join the read that is held.
        try await Task.sleep(for: .milliseconds(50))
        reader.release()
        let batches = [try await first.value] + (try await others.asyncMap { try await $0.value })
        #expect(batches.allSatisfy { $0.map(\.eventId) == batches[0].map(\.eventId) && $0.count == 3 })
        // Kept: a caller a moment later is answered from memory.
        #expect(try await shared.read(after: .start, limit: 64, reader.read).count == 3)
        #expect(reader.calls.withLock { $0 } == 1)
        // Another limit or position is another read.
        _ = try await shared.read(after: .start, limit: 500, reader.read)
        #expect(reader.calls.withLock { $0 } == 2)
    }

    @Test("an empty answer is not kept: the next caller reads again")
    func empty_is_not_kept() async throws {
        let shared = SharedReads()
        let reader = Reader(answer: [], held: false)
        #expect(try await shared.read(after: .start, limit: 64, reader.read).isEmpty)
        reader.answer.withLock { $0 = Self.recorded(2) }
        #expect(try await shared.read(after: .start, limit: 64, reader.read).count == 2)
        #expect(reader.calls.withLock { $0 } == 2)
    }
}

extension Array {
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }
}
