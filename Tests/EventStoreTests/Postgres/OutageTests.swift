import Domain
import EventStore
import Foundation
import PostgresNIO
import TestSupport
import Testing

@Suite("PostgreSQL: an outage fails calls at once with .unavailable, and the store recovers by itself")
struct OutageTests {
    @Test("the link to the database is cut: calls fail at once as unavailable (not queued, not .backend); restored, they work again")
    func cut_and_restored() async throws {
        let stream = StreamName(category: uniqueCategory("outage"), id: "1")
        let first = event(), second = event()
        try await behindProxy { proxy, store in
            try await store.append(to: stream, expected: .noStream, events: [first])
            // The start-up probe finds the database.
            _ = try await eventually("the store is up") { store.health.current == .up ? true : nil }

            try await proxy.cut()
            // The listener's connection closes with the link; the probe then finds the
            // database unreachable.
            _ = try await eventually("the store sees the outage") { if case .down = store.health.current { true } else { nil } }
            for call in 0..<3 {
                let failure = await #expect(throws: EventStoreError.self, "call \(call)") {
                    try await store.append(to: stream, expected: .exact(1), events: [second])
                }
                #expect(failure?.code == .unavailable, "\(String(describing: failure))")
            }
            let read = await #expect(throws: EventStoreError.self) { try await store.readStream(stream) }
            #expect(read?.code == .unavailable)

            try await proxy.restore()
            _ = try await eventually("the probe finds the database again") { store.health.current == .up ? true : nil }
            // The append refused during the outage changed nothing: it goes in now, at version 2.
            try await store.append(to: stream, expected: .exact(1), events: [second])
            #expect(try await store.readStream(stream).map(\.eventId) == [first.eventId, second.eventId])
        }
    }

    @Test("after an outage a burst of concurrent calls is served")
    func burst_after_outage() async throws {
        let stream = StreamName(category: uniqueCategory("outage"), id: "burst")
        try await behindProxy { proxy, store in
            try await store.append(to: stream, expected: .noStream, events: [event()])
            _ = try await eventually("the store is up") { store.health.current == .up ? true : nil }
            try await proxy.cut()
            // The pool's minimum connections close with the link and their replacements are
            // refused; all but one are given up while the pool backs off.
            _ = try await eventually("the store sees the outage") { if case .down = store.health.current { true } else { nil } }
            try await Task.sleep(for: .milliseconds(500))
            try await proxy.restore()
            _ = try await eventually("the probe finds the database again") { store.health.current == .up ? true : nil }
            // PostgresNIO 1.33's pool traps (a precondition) when a lease must open a connection
            // while it holds fewer than its minimum, which its give-ups during an outage can
            // leave: a burst must still be served, by new connections.
            try await expectBurstsServed(store, reading: stream)
        }
    }

    @Test("a store that starts while the database is unreachable serves a burst of calls once it is back")
    func burst_after_start_without_database() async throws {
        let stream = StreamName(category: uniqueCategory("outage"), id: "start")
        try await behindProxy(linked: false) { proxy, store in
            _ = try await eventually("the store sees the outage") { if case .down = store.health.current { true } else { nil } }
            try await Task.sleep(for: .milliseconds(300))
            try await proxy.restore()
            _ = try await eventually("the probe finds the database") { store.health.current == .up ? true : nil }
            // The probe that found it ended the pool's cooldown after its failed attempts: the
            // first calls open connections at once (before, for up to a second they failed with
            // the outage's "no database connection could be opened").
            do {
                try await store.append(to: stream, expected: .noStream, events: [event()])
                try await expectBurstsServed(store, reading: stream)
            } catch {
                Issue.record("\(error); pool (open, connecting, idle, waiting) \(store.pool.counts)")
            }
        }
    }

    @Test("a lease whose connection dies is reported lost (leaseLost), not waited on for ever")
    func lease_lost_with_its_connection() async throws {
        let name = "outage-\(UUID().uuidString)"
        try await behindProxy { proxy, store in
            let held = Doorbell()
            let holder = Task {
                try await store.whileHolding(lease: name, retryEvery: .milliseconds(100)) {
                    held.ring()
                    while true { try await Task.sleep(for: .milliseconds(50)) }
                }
            }
            _ = await held.wait(after: 0, timeout: .seconds(10))
            try await proxy.cut()
            let outcome = await holder.result
            #expect(throws: EventStoreError.self) { try outcome.get() }
            if case .failure(let error as EventStoreError) = outcome { #expect(error.code == .leaseLost, "\(error)") }
        }
    }

    @Test("a transaction whose connection is cut mid-way fails as unavailable instead of waiting for a ROLLBACK that never comes")
    func transaction_cut_midway() async throws {
        let stream = StreamName(category: uniqueCategory("outage"), id: "tx")
        try await behindProxy { proxy, store in
            let failure = await #expect(throws: EventStoreError.self) {
                try await store.withTransaction { transaction in
                    _ = try await transaction.append(to: stream, expected: .noStream, events: [event()])
                    try await proxy.cut()
                    _ = try await eventually("the connection closes") { transaction.connection.isClosed ? true : nil }
                    _ = try await transaction.append(to: stream, expected: .exact(1), events: [event()])
                }
            }
            #expect(failure?.code == .unavailable, "\(String(describing: failure))")
            try await proxy.restore()
            // Health may still read "up" here (the probe had not run since the cut), and for a
            // second after the failed connection the pool opens none on demand: poll the read.
            let stored = try await eventually("the store answers again") { try? await store.readStream(stream) }
            #expect(stored.isEmpty, "nothing of the cut transaction was committed")
        }
    }

    @Test("a query in flight when the server ends its session (a shutdown's 57P01) fails as unavailable, not as a backend error (a 500)")
    func session_ended_under_a_query() async throws {
        try await TestDatabase.migrate()
        let store = PostgresEventStore(settings: TestDatabase.settings, logger: TestDatabase.logger)
        try await withPostgresStore(store) { store in
            let failure = await #expect(throws: EventStoreError.self) {
                try await store.withTransaction { transaction in
                    var pid: Int32 = 0
                    for try await value in try await transaction.connection.guardedQuery("SELECT pg_backend_pid()", logger: TestDatabase.logger)
                        .decode(Int32.self)
                    {
                        pid = value
                    }
                    let killer = Task {
                        try await Task.sleep(for: .milliseconds(300))
                        // The same role may end its own sessions.
                        let other = try await PostgresConnection.connect(
                            configuration: TestDatabase.settings.connectionConfiguration(), id: 2, logger: TestDatabase.logger)
                        do {
                            try await other.query("SELECT pg_terminate_backend(\(pid))", logger: TestDatabase.logger)
                        } catch {
                            try? await other.close()
                            throw error
                        }
                        try await other.close()
                    }
                    defer { killer.cancel() }
                    try await transaction.connection.guardedQuery("SELECT pg_sleep(20)", logger: TestDatabase.logger)
                }
            }
            #expect(failure?.code == .unavailable, "\(String(describing: failure))")
        }
    }

    @Test("connection-level failures are told apart from the database's answers")
    func classification() {
        #expect(DatabaseHealth.isConnectionLevel(EventStoreError(.unavailable, "down")))
        #expect(DatabaseHealth.isConnectionLevel(EventStoreError(.backend, "read failed", underlying: EventStoreError(.unavailable, "down"))))
        #expect(!DatabaseHealth.isConnectionLevel(EventStoreError(.backend, "read failed")))
        #expect(!DatabaseHealth.isConnectionLevel(WrongExpectedVersion(stream: StreamName("a-1"), expected: .noStream, actual: 1)))
        #expect(!DatabaseHealth.isConnectionLevel(CancellationError()))
    }
}

/// A store whose connections go through a TCP proxy to the test server, running for `body`.
private func behindProxy(linked: Bool = true, _ body: (TCPProxy, PostgresEventStore) async throws -> Void) async throws {
    try await TestDatabase.migrate()
    try await TCPProxy.with(to: TestDatabase.settings.host, port: TestDatabase.settings.port) { proxy in
        if !linked { try await proxy.cut() }
        var settings = TestDatabase.settings
        settings.port = proxy.port
        let store = PostgresEventStore(settings: settings, logger: TestDatabase.logger)
        try await withPostgresStore(store) { store in try await body(proxy, store) }
    }
}

/// Three bursts of 24 concurrent reads of `stream` (one event), each read answered.
private func expectBurstsServed(_ store: PostgresEventStore, reading stream: StreamName) async throws {
    for _ in 0..<3 {
        let reads = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<24 { group.addTask { try await store.readStream(stream).count } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(reads == Array(repeating: 1, count: 24))
    }
}
