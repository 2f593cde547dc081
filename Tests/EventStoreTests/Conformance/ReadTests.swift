import Domain
import EventStore
import Foundation
import Testing

@Suite("Reads")
struct ReadTests {
    @Test("a stream reads back from a version, oldest first, with every field intact", arguments: Backend.allCases)
    func stream_from_version(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let stream = uniqueStream("reserva")
            let correlation = UUID()
            let metadata = EventMetadata(correlationId: correlation, causationId: UUID(), actor: "usuario:1", requestId: "req-1", service: "reservas")
            let first = event("ReservaSolicitada", ["valor": 12_345], metadata: metadata)
            try await fixture.store.append(to: stream, expected: .noStream, events: [first] + events(4))
            let all = try await fixture.store.readStream(stream)
            #expect(all.count == 5)
            let head = try #require(all.first)
            #expect(head.eventId == first.eventId)
            #expect(head.type == "ReservaSolicitada")
            #expect(head.schemaVersion == 1)
            #expect(head.stream == stream)
            #expect(head.occurredAt == testInstant)
            #expect(head.metadata == metadata)
            #expect(try head.decode([String: Int].self) == ["valor": 12_345])
            let tail = try await fixture.store.readStream(stream, from: 3, limit: 2)
            #expect(tail.map(\.version) == [3, 4])
            #expect(try await fixture.store.readStream(uniqueStream()).isEmpty)
        }
    }

    @Test(
        "several streams read together: each from its version, oldest first; one named twice from the lower; one never written empty",
        arguments: Backend.allCases)
    func streams_read_together(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let store = fixture.store
            let (a, b, nunca) = (uniqueStream("agenda"), uniqueStream("espaco"), uniqueStream("cupom"))
            try await store.append(to: a, expected: .noStream, events: events(5))
            try await store.append(to: b, expected: .noStream, events: events(2))
            // Interleaved in the global order: each stream still reads in its own order.
            try await store.append(to: a, expected: .exact(5), events: events(1))
            let read = try await store.readStreams([
                StreamRead(a, from: 4), StreamRead(b, from: 1), StreamRead(nunca, from: 1), StreamRead(a, from: 5),
            ])
            #expect(Set(read.keys) == [a, b, nunca])
            #expect(read[a]?.map(\.version) == [4, 5, 6])
            #expect(read[b]?.map(\.version) == [1, 2])
            #expect(read[nunca]?.isEmpty == true)
            let each = try await store.readStream(a, from: 4)
            #expect(read[a] == each, "the same events, every field, as reading the stream alone")
            #expect(try await store.readStreams([]).isEmpty)
        }
    }

    @Test("an append answers each event's position in the order given and the stream's new version", arguments: Backend.allCases)
    func append_answer(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let stream = uniqueStream("reserva")
            let first = try await fixture.store.append(to: stream, expected: .noStream, events: events(3))
            let second = try await fixture.store.append(to: stream, expected: .exact(3), events: events(4))
            let third = try await fixture.store.append(to: stream, expected: .any, events: events(2))
            #expect(first.versions == [stream: 3])
            #expect(second.versions == [stream: 7])
            #expect(third.versions == [stream: 9])
            let stored = try await fixture.store.readStream(stream)
            #expect(first.positions + second.positions + third.positions == stored.map(\.position))
        }
    }

    @Test("a category reads every stream of it in global order, and nothing else", arguments: Backend.allCases)
    func category(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let category = uniqueCategory("reserva")
            let streams = (0..<3).map { StreamName(category: category, id: "\($0)") }
            let other = uniqueStream("espaco")
            var appended: [UUID] = []
            for round in 0..<3 {
                for stream in streams {
                    let batch = events(2)
                    appended += batch.map(\.eventId)
                    try await fixture.store.append(to: stream, expected: .any, events: batch)
                }
                try await fixture.store.append(to: other, expected: .any, events: events(1))
                _ = round
            }
            let read = try await fixture.store.readCategoryTailing(category, after: .start, batch: 4, expecting: appended.count)
            #expect(read.map(\.eventId) == appended)
            #expect(read.map(\.position) == read.map(\.position).sorted())
            #expect(Set(read.map(\.stream.category)) == [category])
        }
    }

    @Test("all events read in global order from a checkpoint, in batches", arguments: Backend.allCases)
    func all_in_batches(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let category = uniqueCategory()
            let start = try await fixture.store.headPosition()
            var appended: [UUID] = []
            for index in 0..<25 {
                let batch = events(index % 3 + 1)
                appended += batch.map(\.eventId)
                try await fixture.store.append(to: StreamName(category: category, id: "\(index % 4)"), expected: .any, events: batch)
            }
            let read = try await fixture.store.readAllKeeping(after: start, batch: 7, expecting: appended.count) { $0.stream.category == category }
            #expect(read.map(\.eventId) == appended)
            // From a checkpoint in the middle: exactly the rest.
            let middle = read[20].position
            let rest = try await fixture.store.readAllKeeping(after: middle, batch: 5, expecting: appended.count - 21) {
                $0.stream.category == category
            }
            #expect(rest.map(\.eventId) == Array(appended[21...]))
            let head = try await fixture.store.headPosition()
            let last = try #require(read.last)
            #expect(head >= last.position)
        }
    }
}
