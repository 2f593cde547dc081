import EventStore
import Foundation
import Synchronization
import Testing

@Suite("Embedded store leases")
struct SQLiteLeaseTests {
    @Test("a lease on the embedded store excludes another store open on the same file (as `replay` beside `serve`), until its holder lets go")
    func leases_across_stores() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("coworkflow-lease-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("store.sqlite").path
        let first = try SQLiteEventStore(path: path)
        let second = try SQLiteEventStore(path: path)
        let entered = Entered()
        let (release, letGo) = AsyncStream<Void>.makeStream()
        let holder = Task {
            try await first.whileHolding(lease: "projection:reservas~rebuild", retryEvery: .milliseconds(10)) {
                entered.add("first")
                for await _ in release {}
                return 1
            }
        }
        for _ in 0..<1_000 where entered.names.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        #expect(entered.names == ["first"])
        let waiter = Task {
            try await second.whileHolding(lease: "projection:reservas~rebuild", retryEvery: .milliseconds(10)) {
                entered.add("second")
                return 2
            }
        }
        // Another name is free meanwhile.
        #expect(try await second.whileHolding(lease: "projection:catalogo~rebuild", retryEvery: .milliseconds(10)) { 3 } == 3)
        try await Task.sleep(for: .milliseconds(300))
        #expect(entered.names == ["first"], "the second store entered while the first held the lease")
        letGo.finish()
        #expect(try await holder.value == 1)
        #expect(try await waiter.value == 2)
        #expect(entered.names == ["first", "second"])
    }
}

/// Who entered a lease, in order.
final class Entered: Sendable {
    private let list = Mutex<[String]>([])
    func add(_ name: String) { list.withLock { $0.append(name) } }
    var names: [String] { list.withLock { $0 } }
}
