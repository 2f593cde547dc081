import EventStore
import Foundation
import PostgresNIO
import Synchronization
import Testing

@testable import Messaging

/// How a consumer groups waiting deliveries into commits (one inbox transaction for many).
@Suite("Handling: which related events share a commit")
struct HandlingBatchTests {
    @Test("events of one stream share a commit while their handlers write nothing; one after a write waits for it to commit")
    func related_events_batch_until_a_write() async throws {
        try await withRunningStore { store in
            let suffix = UUID().uuidString.prefix(8).lowercased()
            let service = "lote\(suffix)", stream = StreamName(category: "lote\(suffix)", id: "1")
            let types = ["Nada", "Nada", "Escreve", "Nada"]
            _ = try await store.append(
                to: stream, expected: .noStream,
                events: types.map {
                    NewEvent(eventId: UUID(), type: $0, data: Data("{}".utf8), occurredAt: Date())
                })
            let events = try await store.readStream(stream)
            let consumer = BusConsumer(service: service, bindings: ["lote\(suffix).*"]) { event in
                guard event.type == "Escreve" else { return [] }
                return [
                    StreamWrite(
                        stream: StreamName(category: "lote\(suffix)", id: "efeitos"), expected: .any,
                        events: [
                            NewEvent(eventId: UUID(), type: "Efeito", data: Data("{}".utf8), occurredAt: Date())
                        ])
                ]
            }
            let dispositions = try await Handling(consumer: consumer, store: store, logger: TestEnvironment.logger).process(events)
            #expect(dispositions == Array(repeating: .done, count: 4))

            // An inbox row's recorded_at is its transaction's start: equal means one commit.
            var committedAt: [UUID: Date] = [:]
            let rows = try await store.pool.withConnection { connection in
                var rows: [(UUID, Date)] = []
                for try await row in try await connection.query(
                    "SELECT event_id, recorded_at FROM consumer_inbox WHERE consumer = \(service)", logger: TestEnvironment.logger
                ).decode((UUID, Date).self) { rows.append(row) }
                return rows
            }
            for (id, at) in rows { committedAt[id] = at }
            let times = events.map { committedAt[$0.eventId] }
            #expect(times.allSatisfy { $0 != nil })
            #expect(times[0] == times[1] && times[1] == times[2], "nothing written before the third: one commit for the three")
            #expect(times[3] != times[2], "the fourth follows a write of its stream: the batch committed first")
            #expect(try await store.readStream(StreamName(category: "lote\(suffix)", id: "efeitos")).count == 1)
        }
    }

    @Test("when a batch's commit fails, each event's writes are committed again on their own: a handler that did its part does not run again")
    func failed_batch_does_not_rerun_handlers() async throws {
        try await withRunningStore { store in
            let suffix = UUID().uuidString.prefix(8).lowercased()
            // Three events of three streams (nothing relates them: one commit). The second's
            // write expects a stream that exists not to: the batch's commit fails.
            let taken = StreamName(category: "efeito\(suffix)", id: "ocupado")
            _ = try await store.append(
                to: taken, expected: .noStream, events: [NewEvent(eventId: UUID(), type: "Antes", data: Data("{}".utf8), occurredAt: Date())])
            var events: [RecordedEvent] = []
            for (n, type) in ["Envia", "Conflita", "Envia"].enumerated() {
                let stream = StreamName(category: "lotef\(suffix)", id: "\(n)")
                _ = try await store.append(
                    to: stream, expected: .noStream, events: [NewEvent(eventId: UUID(), type: type, data: Data("{}".utf8), occurredAt: Date())])
                events += try await store.readStream(stream)
            }
            let calls = Mutex<[UUID: Int]>([:])
            var consumer = BusConsumer(service: "lotef\(suffix)", bindings: ["lotef\(suffix).*"]) { event in
                calls.withLock { $0[event.eventId, default: 0] += 1 }  // an e-mail sent, say
                let stream = event.type == "Conflita" ? taken : StreamName(category: "efeito\(suffix)", id: event.eventId.uuidString)
                return [
                    StreamWrite(
                        stream: stream, expected: .noStream,
                        events: [NewEvent(eventId: UUID(), type: "Efeito", data: Data("{}".utf8), occurredAt: Date())])
                ]
            }
            consumer.maxAttempts = 2
            consumer.retry = Backoff(first: .milliseconds(1), limit: .milliseconds(1))
            let dispositions = try await Handling(consumer: consumer, store: store, logger: TestEnvironment.logger).process(events)
            #expect(dispositions.count == 3)
            #expect(dispositions[0] == .done && dispositions[2] == .done, "\(dispositions)")
            if case .deadLetter = dispositions[1] {} else { Issue.record("the conflicting event: \(dispositions[1])") }
            let counts = calls.withLock { $0 }
            #expect(counts[events[0].eventId] == 1 && counts[events[2].eventId] == 1, "handlers ran again: \(counts)")
            #expect((counts[events[1].eventId] ?? 0) >= 2, "the stale decision is made again on fresh state")
            for event in [events[0], events[2]] {
                #expect(try await store.readStream(StreamName(category: "efeito\(suffix)", id: event.eventId.uuidString)).count == 1)
            }
        }
    }

    @Test(
        "unrelated events whose handlers decide on one shared stream commit in turn: none decides on a version the batch already moved, none fails",
        .timeLimit(.minutes(1)))
    func shared_stream_decisions_do_not_collide() async throws {
        try await withRunningStore { store in
            let suffix = UUID().uuidString.prefix(8).lowercased()
            // Six payments of six streams (nothing relates them), each invoiced in one book
            // whose version its handler reads, as financeiro does.
            let book = StreamName(category: "livro\(suffix)", id: "unidade")
            var events: [RecordedEvent] = []
            for n in 0..<6 {
                let stream = StreamName(category: "pago\(suffix)", id: "\(n)")
                _ = try await store.append(
                    to: stream, expected: .noStream, events: [NewEvent(eventId: UUID(), type: "Pago", data: Data("{}".utf8), occurredAt: Date())])
                events += try await store.readStream(stream)
            }
            let calls = Mutex(0)
            var consumer = BusConsumer(service: "pago\(suffix)", bindings: ["pago\(suffix).*"]) { event in
                calls.withLock { $0 += 1 }
                let version = try await store.readStream(book).last?.version ?? 0
                return [
                    StreamWrite(
                        stream: book, expected: version == 0 ? .noStream : .exact(version),
                        events: [NewEvent(eventId: UUID(), type: "Fatura", data: Data(#"{"de":"\#(event.eventId)"}"#.utf8), occurredAt: Date())])
                ]
            }
            // A single attempt: a decision whose commit meets a moved version is dead.
            consumer.maxAttempts = 1
            let dispositions = try await Handling(consumer: consumer, store: store, logger: TestEnvironment.logger).process(events)
            #expect(dispositions == Array(repeating: .done, count: 6), "\(dispositions)")
            let invoiced = try await store.readStream(book).map { String(decoding: $0.data, as: UTF8.self) }
            #expect(invoiced.count == 6)
            #expect(zip(invoiced, events).allSatisfy { $0.contains($1.eventId.uuidString) }, "in the order of the payments")
            #expect(calls.withLock { $0 } <= 11, "each decided at most twice")
        }
    }

    @Test(
        "a write the database refuses every time (a payload jsonb cannot hold) uses up the event's attempts and is dead-lettered, with the handler run once",
        .timeLimit(.minutes(1)))
    func refused_write_is_dead_lettered() async throws {
        try await withRunningStore { store in
            let suffix = UUID().uuidString.prefix(8).lowercased()
            let stream = StreamName(category: "recusa\(suffix)", id: "1")
            _ = try await store.append(
                to: stream, expected: .noStream, events: [NewEvent(eventId: UUID(), type: "Algo", data: Data("{}".utf8), occurredAt: Date())])
            let calls = Mutex(0)
            var consumer = BusConsumer(service: "recusa\(suffix)", bindings: ["recusa\(suffix).*"]) { _ in
                calls.withLock { $0 += 1 }
                // PostgreSQL's jsonb cannot hold \u0000 (SQLSTATE 22P05): refused on every commit.
                return [
                    StreamWrite(
                        stream: StreamName(category: "recusa\(suffix)", id: "efeito"), expected: .any,
                        events: [
                            NewEvent(eventId: UUID(), type: "Efeito", data: Data(#"{"nul":"\u0000"}"#.utf8), occurredAt: Date())
                        ])
                ]
            }
            consumer.maxAttempts = 3
            consumer.retry = Backoff(first: .milliseconds(1), limit: .milliseconds(1))
            let dispositions = try await Handling(consumer: consumer, store: store, logger: TestEnvironment.logger)
                .process(try await store.readStream(stream))
            guard case .deadLetter(_, let attempts) = dispositions.first else {
                Issue.record("\(dispositions)")
                return
            }
            #expect(attempts == 3)
            #expect(calls.withLock { $0 } == 1, "the handler's writes were tried again, not the handler")
        }
    }

    @Test("a database outage during retries uses none of an event's attempts, even after a real failure")
    func outage_does_not_count_as_attempts() async throws {
        try await withRunningStore { store in
            let suffix = UUID().uuidString.prefix(8).lowercased()
            let stream = StreamName(category: "falha\(suffix)", id: "1")
            _ = try await store.append(
                to: stream, expected: .noStream,
                events: [
                    NewEvent(eventId: UUID(), type: "Algo", data: Data("{}".utf8), occurredAt: Date())
                ])
            struct Boom: Error {}
            let calls = Mutex(0)
            // A real failure, then four passes during an outage, then it works: three attempts
            // allowed, one used.
            var consumer = BusConsumer(service: "falha\(suffix)", bindings: ["falha\(suffix).*"]) { _ in
                let call = calls.withLock {
                    $0 += 1
                    return $0
                }
                if call == 1 { throw Boom() }
                if call <= 5 { throw EventStoreError(.unavailable, "the database is unreachable") }
                return []
            }
            consumer.maxAttempts = 3
            consumer.retry = Backoff(first: .milliseconds(1), limit: .milliseconds(1))
            let dispositions = try await Handling(consumer: consumer, store: store, logger: TestEnvironment.logger)
                .process(try await store.readStream(stream))
            #expect(dispositions == [.done])
            #expect(calls.withLock { $0 } == 6)
        }
    }

    @Test(
        "a consumer's read ahead serves a batch's events until a commit inside it, then reads again for those left; an event retried on its own goes to the plain handler"
    )
    func read_ahead_until_a_commit() async throws {
        try await withRunningStore { store in
            let suffix = UUID().uuidString.prefix(8).lowercased()
            let stream = StreamName(category: "adiante\(suffix)", id: "1"), outro = StreamName(category: "adiante\(suffix)", id: "2")
            for (alvo, types) in [(stream, ["Nada", "Escreve", "Nada", "Nada"]), (outro, ["Falha"])] {
                _ = try await store.append(
                    to: alvo, expected: .noStream,
                    events: types.map { NewEvent(eventId: UUID(), type: $0, data: Data("{}".utf8), occurredAt: Date()) })
            }
            let events = try await store.readStream(stream) + store.readStream(outro)
            let log = Mutex<[String]>([])
            let index = Dictionary(uniqueKeysWithValues: events.enumerated().map { ($1.eventId, $0) })
            let consumer = BusConsumer(
                service: "adiante\(suffix)", bindings: ["adiante\(suffix).*"],
                readAhead: { lote in
                    log.withLock { $0.append("read " + lote.map { "\(index[$0.eventId] ?? -1)" }.joined(separator: ",")) }
                    return { event in
                        log.withLock { $0.append("ahead \(index[event.eventId] ?? -1)") }
                        if event.type == "Falha" { throw EventStoreError(.backend, "a read ahead gone stale, say") }
                        guard event.type == "Escreve" else { return [] }
                        return [
                            StreamWrite(
                                stream: StreamName(category: "adiante\(suffix)", id: "efeitos"), expected: .any,
                                events: [NewEvent(eventId: UUID(), type: "Efeito", data: Data("{}".utf8), occurredAt: Date())])
                        ]
                    }
                }
            ) { event in
                log.withLock { $0.append("alone \(index[event.eventId] ?? -1)") }
                return []
            }
            let dispositions = try await Handling(consumer: consumer, store: store, logger: TestEnvironment.logger).process(events)
            #expect(dispositions == Array(repeating: .done, count: 5))
            #expect(
                log.withLock { $0 } == [
                    "read 0,1,2,3,4", "ahead 0", "ahead 1",
                    // The third follows a write of its stream: committed first, so read again.
                    "read 2,3,4", "ahead 2", "ahead 3", "ahead 4",
                    // It failed: handled again on its own, by the plain handler.
                    "alone 4",
                ])
            #expect(try await store.readStream(StreamName(category: "adiante\(suffix)", id: "efeitos")).count == 1)
        }
    }
}

/// A store on the test database, running for `body`.
private func withRunningStore(_ body: (PostgresEventStore) async throws -> Void) async throws {
    try await TestEnvironment.migrate()
    let store = PostgresEventStore(settings: TestEnvironment.database, logger: TestEnvironment.logger)
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { await store.run() }
        defer { group.cancelAll() }
        await store.started()
        try await body(store)
    }
}
