import Synchronization
import Testing

@testable import Services

@Suite("Fresh shared reads", .timeLimit(.minutes(1)))
struct FreshReadTests {
    /// Read number k blocks until the test opens gate k.
    actor Gates {
        private var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
        private var opened: Set<Int> = []
        func wait(_ k: Int) async {
            if opened.contains(k) { return }
            await withCheckedContinuation { waiting[k] = $0 }
        }
        func open(_ k: Int) {
            opened.insert(k)
            waiting.removeValue(forKey: k)?.resume()
        }
    }

    final class Source: Sendable {
        let committed = Mutex(0)
        let reads = Mutex(0)
        let gates = Gates()

        /// What a read sees: the value committed when it starts, then it waits for its gate.
        @Sendable func read() async throws -> Int {
            let value = committed.withLock { $0 }
            let k = reads.withLock {
                $0 += 1
                return $0
            }
            await gates.wait(k)
            return value
        }
    }

    static func until(_ condition: () -> Bool) async {
        while !condition() { await Task.yield() }
    }

    @Test("callers that arrive during a read share the next one, and never get an answer older than their call")
    func share_only_fresh_reads() async throws {
        let fresh = FreshRead<Int>()
        let source = Source()

        let first = Task { try await fresh.value(source.read) }
        await Self.until { source.reads.withLock { $0 } == 1 }
        // A change commits while read 1 is running: whoever asks now must see it.
        source.committed.withLock { $0 = 1 }
        let later = (0..<3).map { _ in Task { try await fresh.value(source.read) } }
        await Self.until { fresh.waitingCallers == 3 }
        #expect(source.reads.withLock { $0 } == 1)

        await source.gates.open(1)
        #expect(try await first.value == 0)
        await Self.until { source.reads.withLock { $0 } == 2 }
        // Read 2 has started: a caller after another change must not join it.
        source.committed.withLock { $0 = 2 }
        let last = Task { try await fresh.value(source.read) }
        await Self.until { fresh.waitingCallers == 1 }

        await source.gates.open(2)
        for task in later { #expect(try await task.value == 1) }
        await Self.until { source.reads.withLock { $0 } == 3 }
        await source.gates.open(3)
        #expect(try await last.value == 2)
        #expect(source.reads.withLock { $0 } == 3)
    }

    @Test("a failed read fails its callers and the next call reads again")
    func failures_are_not_kept() async throws {
        struct Broken: Error {}
        let fresh = FreshRead<Int>()
        await #expect(throws: Broken.self) { try await fresh.value { throw Broken() } }
        #expect(try await fresh.value { 7 } == 7)
    }
}
