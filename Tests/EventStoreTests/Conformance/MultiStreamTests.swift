import EventStore
import Foundation
import Testing

@Suite("Atomic multi-stream append")
struct MultiStreamTests {
    @Test("one call appends to several streams, each with its own expected version", arguments: Backend.allCases)
    func several_streams(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let a = uniqueStream("agenda"), b = uniqueStream("agenda"), c = uniqueStream("reserva")
            try await fixture.store.append(to: a, expected: .noStream, events: events(2))
            let result = try await fixture.store.append([
                StreamWrite(stream: a, expected: .exact(2), events: events(1)),
                StreamWrite(stream: b, expected: .noStream, events: events(2)),
                StreamWrite(stream: c, expected: .any, events: events(1)),
            ])
            #expect(result.versions == [a: 3, b: 2, c: 1])
            #expect(result.positions.count == 4)
            #expect(result.positions == result.positions.sorted())
            #expect(Set(result.positions.map(\.transaction)).count == 1)
        }
    }

    @Test("one stale stream refuses the whole append: all or nothing", arguments: Backend.allCases)
    func all_or_nothing(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let a = uniqueStream("agenda"), b = uniqueStream("agenda")
            try await fixture.store.append(to: b, expected: .noStream, events: events(1))
            let error = await #expect(throws: WrongExpectedVersion.self) {
                try await fixture.store.append([
                    StreamWrite(stream: a, expected: .noStream, events: events(2)),
                    StreamWrite(stream: b, expected: .noStream, events: events(1)),
                ])
            }
            #expect(error?.stream == b)
            #expect(error?.actual == 1)
            #expect(try await fixture.store.streamVersion(a) == 0)
            #expect(try await fixture.store.streamVersion(b) == 1)
        }
    }

    @Test("racing multi-stream appends over a shared stream never half-apply", arguments: Backend.allCases)
    func racing_multi_stream(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            // Two bookings both spanning day 2 of a space: only one may hold it.
            let day1 = uniqueStream("agenda"), day2 = uniqueStream("agenda"), day3 = uniqueStream("agenda")
            let store = fixture.store
            let won = try await withThrowingTaskGroup(of: Bool.self) { group in
                for days in [[day1, day2], [day2, day3]] {
                    group.addTask {
                        do {
                            try await store.append(days.map { StreamWrite(stream: $0, expected: .noStream, events: events(1)) })
                            return true
                        } catch is WrongExpectedVersion { return false }
                    }
                }
                return try await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(won.filter { $0 }.count == 1)
            let v1 = try await store.streamVersion(day1), v3 = try await store.streamVersion(day3)
            #expect(try await store.streamVersion(day2) == 1)
            #expect(v1 + v3 == 1)
        }
    }
}
