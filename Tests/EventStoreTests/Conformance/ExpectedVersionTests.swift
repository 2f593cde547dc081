import EventStore
import Foundation
import Testing

@Suite("Expected version")
struct ExpectedVersionTests {
    @Test("appending to a new stream with noStream starts it at version 1", arguments: Backend.allCases)
    func no_stream_starts_at_one(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let stream = uniqueStream()
            let result = try await fixture.store.append(to: stream, expected: .noStream, events: events(3))
            #expect(result.versions[stream] == 3)
            #expect(try await fixture.store.streamVersion(stream) == 3)
            #expect(try await fixture.store.readStream(stream).map(\.version) == [1, 2, 3])
        }
    }

    @Test("noStream on an existing stream is a conflict naming stream, expected and actual", arguments: Backend.allCases)
    func no_stream_on_existing_stream_conflicts(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let stream = uniqueStream()
            try await fixture.store.append(to: stream, expected: .noStream, events: events(2))
            let error = await #expect(throws: WrongExpectedVersion.self) {
                try await fixture.store.append(to: stream, expected: .noStream, events: events(1))
            }
            #expect(error == WrongExpectedVersion(stream: stream, expected: .noStream, actual: 2))
            #expect(error.map { "\($0)" }?.contains(stream.rawValue) == true)
            #expect(try await fixture.store.streamVersion(stream) == 2)
        }
    }

    @Test("exact N appends only when the stream is at N", arguments: Backend.allCases)
    func exact_version(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let stream = uniqueStream()
            try await fixture.store.append(to: stream, expected: .noStream, events: events(2))
            let result = try await fixture.store.append(to: stream, expected: .exact(2), events: events(1))
            #expect(result.versions[stream] == 3)
            for stale in [Int64(1), 2, 4] {
                let error = await #expect(throws: WrongExpectedVersion.self) {
                    try await fixture.store.append(to: stream, expected: .exact(stale), events: events(1))
                }
                #expect(error?.expected == .exact(stale))
                #expect(error?.actual == 3)
            }
            let missing = uniqueStream()
            let error = await #expect(throws: WrongExpectedVersion.self) {
                try await fixture.store.append(to: missing, expected: .exact(1), events: events(1))
            }
            #expect(error?.actual == 0)
            #expect(try await fixture.store.streamVersion(stream) == 3)
        }
    }

    @Test("any appends whatever the version", arguments: Backend.allCases)
    func any_version(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let stream = uniqueStream()
            try await fixture.store.append(to: stream, expected: .any, events: events(1))
            try await fixture.store.append(to: stream, expected: .any, events: events(2))
            #expect(try await fixture.store.readStream(stream).map(\.version) == [1, 2, 3])
        }
    }

    @Test("concurrent writers with the same expected version: exactly one wins", arguments: Backend.allCases)
    func concurrent_exact_writers(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let stream = uniqueStream()
            try await fixture.store.append(to: stream, expected: .noStream, events: events(1))
            let store = fixture.store
            let outcomes = await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        do {
                            try await store.append(to: stream, expected: .exact(1), events: events(1))
                            return true
                        } catch is WrongExpectedVersion {
                            return false
                        } catch {
                            Issue.record("unexpected error \(error)")
                            return false
                        }
                    }
                }
                return await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 }.count == 1)
            #expect(try await store.streamVersion(stream) == 2)
        }
    }

    @Test("concurrent writers with any all land, with gapless versions", arguments: Backend.allCases)
    func concurrent_any_writers(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let stream = uniqueStream()
            let store = fixture.store
            try await withThrowingTaskGroup(of: Void.self) { group in
                // Enough writers that, on PostgreSQL, some lose many races in a row (CI once saw
                // one lose ten times among eight): the store's retries must outlast that.
                for _ in 0..<24 {
                    group.addTask {
                        for _ in 0..<5 { try await store.append(to: stream, expected: .any, events: events(1)) }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await store.readStream(stream).map(\.version) == Array(1...120))
        }
    }

    @Test("a malformed append is refused before it reaches the store", arguments: Backend.allCases)
    func malformed_append(backend: Backend) async throws {
        try await withFixture(backend) { fixture in
            let stream = uniqueStream()
            await #expect(throws: EventStoreError.self) {
                try await fixture.store.append(to: stream, expected: .any, events: [])
            }
            await #expect(throws: EventStoreError.self) {
                try await fixture.store.append(to: stream, expected: .exact(0), events: events(1))
            }
            let id = UUID()
            await #expect(throws: EventStoreError.self) {
                try await fixture.store.append(to: stream, expected: .any, events: [event(id: id), event(id: id)])
            }
            let version = try await fixture.store.streamVersion(stream)
            #expect(version == 0)
        }
    }
}
