import Foundation
import PostgresNIO
import TestSupport
import Testing

@testable import EventStore

@Suite("StorePool: the store's own connection pool", .serialized)
struct StorePoolTests {
    @Test("a database that refuses connections beyond two: a pool that wants four serves bursts with the two it has")
    func serves_with_the_connections_it_has() async throws {
        // PostgresNIO 1.33's pool queued every lease while an attempt was failing, idle
        // connections or not, and trapped once it had fewer than its minimum.
        try await withPool(minimum: 4, maximum: 16, links: 2) { pool, _ in
            _ = try await eventually("two connections open, \(pool.counts)") { pool.counts.open == 2 ? true : nil }
            for _ in 0..<3 {
                let answers = try await burst(24, on: pool)
                #expect(answers == Array(repeating: 1, count: 24))
            }
            #expect(pool.counts.open == 2)
        }
    }

    @Test("with nothing open and nothing that can be opened, a lease fails at once as unavailable")
    func fails_when_nothing_can_open() async throws {
        try await withPool(minimum: 0, maximum: 4, links: 0) { pool, _ in
            let error = await #expect(throws: EventStoreError.self) { try await select1(pool) }
            #expect(error?.code == .unavailable)
            // Within the cooldown it does not even try.
            let again = await #expect(throws: EventStoreError.self) { try await select1(pool) }
            #expect(again?.code == .unavailable)
            #expect(pool.counts.open == 0 && pool.counts.connecting == 0)
        }
    }

    @Test("once the database is reached again (the probe connected), the cooldown of a failed attempt ends: a lease opens at once")
    func reached_ends_the_cooldown() async throws {
        try await withPool(minimum: 0, maximum: 4, links: 0) { pool, proxy in
            let failed = await #expect(throws: EventStoreError.self) { try await select1(pool) }
            #expect(failed?.code == .unavailable)
            proxy.limit(links: nil)
            // Still within the cooldown: the outage's error, though the database is back.
            let stale = await #expect(throws: EventStoreError.self) { try await select1(pool) }
            #expect(stale?.code == .unavailable)
            pool.reached()
            let answer = try await select1(pool)
            #expect(answer == 1)
            #expect(pool.counts.open == 1)
        }
    }

    @Test("leases wait for a release beyond the maximum, and failWaiting fails the waiting ones only")
    func waiting_leases_fail_on_demand() async throws {
        try await withPool(minimum: 0, maximum: 1) { pool, _ in
            let (holder, done) = await holdConnection(of: pool)
            let waiting = (0..<3).map { _ in Task { try await select1(pool) } }
            _ = try await eventually("three waiting") { pool.counts.waiting == 3 ? true : nil }
            pool.failWaiting(EventStoreError(.unavailable, "the database is unreachable"))
            for task in waiting {
                await #expect(throws: EventStoreError.self) { try await task.value }
            }
            done.ring()
            #expect(try await holder.value == 1)
            #expect(try await select1(pool) == 1, "the connection went back to the pool")
            #expect(pool.counts.open == 1)
        }
    }

    @Test("a waiting lease that is cancelled leaves the queue; the next release goes to the next in line")
    func cancelled_waiter_leaves_the_queue() async throws {
        try await withPool(minimum: 0, maximum: 1) { pool, _ in
            let (holder, done) = await holdConnection(of: pool)
            let cancelled = Task { try await select1(pool) }
            _ = try await eventually("one waiting") { pool.counts.waiting == 1 ? true : nil }
            let next = Task { try await select1(pool) }
            _ = try await eventually("two waiting") { pool.counts.waiting == 2 ? true : nil }
            cancelled.cancel()
            await #expect(throws: CancellationError.self) { try await cancelled.value }
            #expect(pool.counts.waiting == 1)
            done.ring()
            #expect(try await holder.value == 1)
            #expect(try await next.value == 1)
        }
    }

    @Test("connections above the minimum close once idle for the idle timeout; the minimum stays")
    func idle_connections_close_down_to_the_minimum() async throws {
        try await withPool(minimum: 1, maximum: 6, idleTimeout: .milliseconds(200)) { pool, _ in
            _ = try await burst(12, on: pool)
            #expect(pool.counts.open > 1)
            try await Task.sleep(for: .milliseconds(300))
            await pool.maintain()
            #expect(pool.counts.open == 1)
            #expect(pool.counts.idle == 1)
        }
    }

    @Test("after the link is cut and restored, the closed connections are dropped and bursts are served by new ones")
    func recovers_after_an_outage() async throws {
        try await withPool(minimum: 4, maximum: 8) { pool, proxy in
            _ = try await eventually("four open") { pool.counts.open == 4 ? true : nil }
            try await proxy.cut()
            try await proxy.restore()
            // A connection whose close the client has not yet seen fails its one query, as
            // with any pool (that request answers 503); the pool drops it and opens others.
            let first = try await burst(24, on: pool, failuresAllowed: true)
            #expect(first.filter { $0 == 1 }.count >= 20)
            for _ in 0..<2 {
                let answers = try await burst(24, on: pool)
                #expect(answers == Array(repeating: 1, count: 24))
            }
        }
    }
}

private func withPool(
    minimum: Int, maximum: Int, idleTimeout: Duration = .seconds(10), links: Int? = nil,
    _ body: (StorePool, TCPProxy) async throws -> Void
) async throws {
    try await TCPProxy.with(to: TestDatabase.settings.host, port: TestDatabase.settings.port) { proxy in
        proxy.limit(links: links)
        var settings = TestDatabase.settings
        settings.port = proxy.port
        let pool = StorePool(
            configuration: settings.connectionConfiguration(),
            options: StorePool.Options(minimum: minimum, maximum: maximum, idleTimeout: idleTimeout), logger: TestDatabase.logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await pool.run() }
            defer { group.cancelAll() }
            try await body(pool, proxy)
        }
    }
}

private func answer(_ connection: PostgresConnection) async throws -> Int {
    var value = 0
    for try await number in try await connection.query("SELECT 1", logger: TestDatabase.logger).decode(Int.self) { value = number }
    return value
}

private func select1(_ pool: StorePool) async throws -> Int {
    try await pool.withConnection { try await answer($0) }
}

/// `count` concurrent `SELECT 1`s, each holding its connection ~20 ms; with
/// `failuresAllowed`, a failed one answers 0.
private func burst(_ count: Int, on pool: StorePool, failuresAllowed: Bool = false) async throws -> [Int] {
    try await withThrowingTaskGroup(of: Int.self) { group in
        for _ in 0..<count {
            group.addTask {
                do {
                    return try await pool.withConnection { connection in
                        try await connection.query("SELECT pg_sleep(0.02)", logger: TestDatabase.logger)
                        return try await answer(connection)
                    }
                } catch  where failuresAllowed {
                    return 0
                }
            }
        }
        return try await group.reduce(into: [Int]()) { $0.append($1) }
    }
}

/// A task holding one of `pool`'s connections until `done` rings; it then answers `SELECT 1`.
private func holdConnection(of pool: StorePool) async -> (Task<Int, any Error>, Doorbell) {
    let held = Doorbell(), done = Doorbell()
    let holder = Task {
        try await pool.withConnection { connection in
            held.ring()
            _ = await done.wait(after: 0, timeout: .seconds(30))
            return try await answer(connection)
        }
    }
    _ = await held.wait(after: 0, timeout: .seconds(10))
    return (holder, done)
}

@Suite("StorePool: a failed attempt and a shutdown leave no lease waiting", .serialized)
struct StorePoolHandOverTests {
    @Test("a lease waiting behind another's attempt is failed with it when nothing else is open (it would wait for ever)")
    func waiter_behind_a_failed_attempt() async throws {
        try await withPool(minimum: 0, maximum: 1, links: 0) { pool, proxy in
            // The first lease's attempt is refused (after 300 ms); the second, started while it
            // is under way, waits behind it (one slot).
            proxy.limit(links: 0, refusingAfter: .milliseconds(300))
            let first = Task { try await select1(pool) }
            _ = try await eventually("an attempt under way") { pool.counts.connecting == 1 ? true : nil }
            let second = Task { try await select1(pool) }
            for task in [first, second] {
                await #expect(throws: EventStoreError.self) { try await task.value }
            }
            #expect(pool.counts.waiting == 0 && pool.counts.connecting == 0)
        }
    }

    @Test("shutdown waits for a leased connection to come back, then closes it")
    func shutdown_waits_for_leases() async throws {
        try await TCPProxy.with(to: TestDatabase.settings.host, port: TestDatabase.settings.port) { proxy in
            var settings = TestDatabase.settings
            settings.port = proxy.port
            let pool = StorePool(
                configuration: settings.connectionConfiguration(),
                options: StorePool.Options(minimum: 1, maximum: 2, idleTimeout: .seconds(10)), logger: TestDatabase.logger)
            let running = Task { await pool.run() }
            let (holder, done) = await holdConnection(of: pool)
            running.cancel()
            try await Task.sleep(for: .milliseconds(200))
            #expect(pool.counts.open == 1, "the leased connection is still counted while shutdown waits")
            await #expect(throws: EventStoreError.self) { try await select1(pool) }
            done.ring()
            #expect(try await holder.value == 1)
            await running.value
            #expect(pool.counts.open == 0)
        }
    }
}
