import EventStore
import Foundation
import Testing

@Suite("Global order under concurrency")
struct GlobalOrderTests {
    @Test(
        "8 concurrent writers and a tailing reader: every committed event exactly once, in order",
        arguments: Backend.allCases, [false, true])
    func writers_and_tailing_reader(backend: Backend, shared: Bool) async throws {
        try await withFixture(backend) { fixture in
            let store = fixture.store
            let category = uniqueCategory("stress")
            let writers = 8, appendsPerWriter = 60
            let start = try await store.headPosition()
            let expected = writers * appendsPerWriter * 2
            // Shared: three followers of the log, as the embedded bus's consumers are, whose
            // reads of the same batch are one; each must still see every event once, in order.
            let followers = shared ? 3 : 1
            let subscription = store.subscribe(after: start, batchSize: 50, pollInterval: .milliseconds(50), shared: shared)

            let seen = try await withThrowingTaskGroup(of: [RecordedEvent]?.self) { group in
                for _ in 0..<followers {
                    group.addTask {
                        var mine: [RecordedEvent] = []
                        for try await event in subscription where event.stream.category == category {
                            mine.append(event)
                            if mine.count == expected { break }
                        }
                        return mine
                    }
                }
                for writer in 0..<writers {
                    group.addTask {
                        let stream = StreamName(category: category, id: "w\(writer)")
                        for index in 0..<appendsPerWriter {
                            let batch = [event("Escrito", ["w": writer, "i": index * 2]), event("Escrito", ["w": writer, "i": index * 2 + 1])]
                            try await store.append(to: stream, expected: .exact(Int64(index * 2)).orNoStream, events: batch)
                        }
                        return nil
                    }
                }
                var results: [[RecordedEvent]] = []
                for try await value in group { if let value { results.append(value) } }
                #expect(results.count == followers)
                #expect(Set(results.map { $0.map(\.eventId) }).count == 1)
                return results.first ?? []
            }
            #expect(seen.count == expected)
            #expect(Set(seen.map(\.eventId)).count == expected)
            #expect(seen.map(\.position) == seen.map(\.position).sorted())
            for writer in 0..<writers {
                let versions = seen.filter { $0.stream.rawValue.hasSuffix("-w\(writer)") }.map(\.version)
                #expect(versions == (1...Int64(appendsPerWriter * 2)).map { $0 })
            }
            // And a fresh reader from the same checkpoint sees exactly the same sequence.
            let again = try await store.readAllKeeping(after: start, batch: 200, expecting: expected) { $0.stream.category == category }
            #expect(again.map(\.eventId) == seen.map(\.eventId))
        }
    }
}

extension ExpectedVersion {
    /// `.exact(0)` is spelled `.noStream`.
    var orNoStream: ExpectedVersion {
        if case .exact(0) = self { return .noStream }
        return self
    }
}
