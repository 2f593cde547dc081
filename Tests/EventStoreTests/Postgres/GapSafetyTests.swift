import EventStore
import Foundation
import PostgresNIO
import Testing

/// Sequence values commit out of order; a global reader must wait for the older writer
/// rather than skip its event. These fail when reads order by position alone.
@Suite("PostgreSQL: no reader skips an event committed out of order")
struct GapSafetyTests {
    enum Outcome: Sendable { case commit, rollback }

    @Test("a reader does not pass an open transaction's event, then sees both in order", arguments: [Outcome.commit, .rollback])
    func open_transaction_holds_back_later_commits(outcome: Outcome) async throws {
        try await withFixture(.postgres) { fixture in
            let store = try #require(fixture.store as? PostgresEventStore)
            let category = uniqueCategory("gap")
            let start = try await store.headPosition()
            let eventA = event("A"), eventB = event("B")
            let (appended, appendedSignal) = AsyncStream.makeStream(of: GlobalPosition.self)
            let (release, releaseSignal) = AsyncStream.makeStream(of: Outcome.self)
            struct RolledBack: Error {}

            try await withThrowingTaskGroup(of: Void.self) { group in
                // Transaction A: appends first (takes the lower position) and stays open.
                group.addTask {
                    do {
                        try await store.withTransaction { tx in
                            let result = try await tx.append(to: StreamName(category: category, id: "a"), expected: .noStream, events: [eventA])
                            appendedSignal.yield(result.positions[0])
                            var gate = release.makeAsyncIterator()
                            if await gate.next() == .rollback { throw RolledBack() }
                        }
                    } catch is RolledBack {}
                }
                var positions = appended.makeAsyncIterator()
                let positionA = try #require(await positions.next())

                // Transaction B: appends later and commits while A is still open.
                let resultB = try await store.append(to: StreamName(category: category, id: "b"), expected: .noStream, events: [eventB])
                #expect(resultB.positions[0].sequence > positionA.sequence, "B took a later sequence value")

                // While A is open the reader must hand out neither A (uncommitted) nor B.
                for _ in 0..<3 {
                    let visible = try await store.readAllKeeping(after: start) { $0.stream.category == category }
                    #expect(visible.isEmpty, "reader passed an open transaction's position")
                    let categoryRead = try await store.readCategory(category, after: start, limit: 10)
                    #expect(categoryRead.isEmpty)
                    #expect(try await store.headPosition() < positionA)
                    try await Task.sleep(for: .milliseconds(50))
                }

                releaseSignal.yield(outcome)
                try await group.waitForAll()
            }

            let after = try await store.readAllKeeping(after: start, expecting: outcome == .commit ? 2 : 1) { $0.stream.category == category }
            switch outcome {
            case .commit: #expect(after.map(\.eventId) == [eventA.eventId, eventB.eventId])
            case .rollback: #expect(after.map(\.eventId) == [eventB.eventId])
            }
            // Reading again from the last position hands out nothing twice.
            if let last = after.last {
                let again = try await store.readAllKeeping(after: last.position) { $0.stream.category == category }
                #expect(again.isEmpty)
            }
        }
    }

    @Test("writers on different streams are not serialised: two transactions append at once")
    func no_global_write_lock() async throws {
        try await withFixture(.postgres) { fixture in
            let store = try #require(fixture.store as? PostgresEventStore)
            let category = uniqueCategory("lock")
            let (bothIn, bothInSignal) = AsyncStream.makeStream(of: Int.self)
            // Each transaction appends, then waits until the other has appended too; with a
            // global write lock the second append would block forever (the test would hang).
            let counter = Collected()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<2 {
                    group.addTask {
                        try await store.withTransaction { tx in
                            _ = try await tx.append(to: StreamName(category: category, id: "\(writer)"), expected: .noStream, events: [event()])
                            await counter.add(UUID())
                            bothInSignal.yield(writer)
                            let done = try await eventually(seconds: 30) { await counter.count == 2 }
                            #expect(done, "the other writer could not append while this transaction was open")
                        }
                    }
                }
                try await group.waitForAll()
            }
            bothInSignal.finish()
            var writers = 0
            for await _ in bothIn { writers += 1 }
            #expect(writers == 2)
        }
    }
}
