import Domain
import EventStore
import Foundation
import Logging
import NIOCore
import PostgresNIO
import Synchronization

/// The store workloads a–e and the raw PostgreSQL baselines, each after a warm-up.
struct StoreWorkloads {
    let store: PostgresEventStore
    let client: PostgresClient
    let phases: Phases
    let logger: Logger
    let selected: Set<String>

    func runAll(readTarget: Int, into figures: inout Figures) async throws {
        // Each workload runs interleaved with its raw baseline, in alternating slices, so a
        // noisy host (this is a shared VM) shifts both sides alike and the ratio stays honest.
        let rawInsert: @Sendable (Int) async throws -> Int = { n in
            try await client.query("INSERT INTO raw_events (payload) VALUES (\(Payload.payload(n))::jsonb)", logger: logger)
            return 1
        }
        let saltA = FastID.salt()
        let appendOne: @Sendable (Int) async throws -> Int = { n in
            try await store.append(
                to: StreamName(category: "bencha", id: FastID.streamID(n, salt: saltA)), expected: .noStream,
                events: [event(n, salt: saltA)])
            return 1
        }
        if selected.contains("a") {
            try await paired(("raw_insert_1", "rows/s", rawInsert), ("append_a", "events/s", appendOne), writers: 1, into: &figures)
        }
        if selected.contains("b") {
            try await paired(("raw_insert_8", "rows/s", rawInsert), ("append_b", "events/s", appendOne), writers: 8, into: &figures)
        }
        if selected.contains("c") { try await contended(into: &figures) }
        if selected.contains("d") {
            let saltD = FastID.salt()
            try await throughput("append_d", writers: 1, unit: "events/s", into: &figures) { n in
                try await store.append(
                    to: StreamName(category: "benchd", id: FastID.streamID(n, salt: saltD)), expected: .noStream,
                    events: (0..<100).map { event(n * 100 + $0, salt: saltD) })
                return 100
            }
        }
        if selected.contains("e") { try await reads(target: readTarget, into: &figures) }
    }

    typealias Workload = (name: String, unit: String, operation: @Sendable (Int) async throws -> Int)

    /// Two workloads measured in alternating slices of about a second each, after a warm-up of
    /// both; prints each one's rate, p50 and p99.
    private func paired(_ baseline: Workload, _ candidate: Workload, writers: Int, into figures: inout Figures) async throws {
        _ = try await loop(writers: writers, for: phases.warmUp, baseline.operation)
        _ = try await loop(writers: writers, for: phases.warmUp, candidate.operation)
        let slice: Duration = phases.measure > .seconds(4) ? .seconds(1) : .milliseconds(250)
        let rounds = max(1, Int((phases.measure.seconds / slice.seconds).rounded()))
        var totals = [(count: 0, seconds: 0.0, latencies: Latencies()), (count: 0, seconds: 0.0, latencies: Latencies())]
        for _ in 0..<rounds {
            for (side, workload) in [baseline, candidate].enumerated() {
                let started = ContinuousClock.now
                let (count, latencies) = try await loop(writers: writers, for: slice, workload.operation)
                totals[side].count += count
                totals[side].seconds += (ContinuousClock.now - started).seconds
                totals[side].latencies.merge(latencies)
            }
        }
        for (side, workload) in [baseline, candidate].enumerated() {
            figures.record(workload.name, Double(totals[side].count) / totals[side].seconds, workload.unit)
            figures.record("\(workload.name)_p50", totals[side].latencies.percentile(50), "ms", decimals: 2)
            figures.record("\(workload.name)_p99", totals[side].latencies.percentile(99), "ms", decimals: 2)
        }
    }

    private func event(_ n: Int, salt: UInt64) -> NewEvent {
        NewEvent(
            eventId: FastID.uuid(n, salt: salt), type: Reserva.Catalogo.solicitada.type, data: Data(Payload.payload(n).utf8),
            metadata: EventMetadata(actor: "bench", service: "bench"), occurredAt: Date())
    }

    /// Runs `operation` from `writers` concurrent loops: warm-up, then a measured phase.
    /// Prints ops/s and, per operation, p50 and p99 latency.
    private func throughput(
        _ name: String, writers: Int, unit: String, into figures: inout Figures,
        _ operation: @escaping @Sendable (Int) async throws -> Int
    ) async throws {
        _ = try await loop(writers: writers, for: phases.warmUp, operation)
        let started = ContinuousClock.now
        let (count, latencies) = try await loop(writers: writers, for: phases.measure, operation)
        let elapsed = (ContinuousClock.now - started).seconds
        figures.record(name, Double(count) / elapsed, unit)
        figures.record("\(name)_p50", latencies.percentile(50), "ms", decimals: 2)
        figures.record("\(name)_p99", latencies.percentile(99), "ms", decimals: 2)
    }

    private func loop(
        writers: Int, for duration: Duration, _ operation: @escaping @Sendable (Int) async throws -> Int
    ) async throws -> (Int, Latencies) {
        let deadline = ContinuousClock.now + duration
        return try await withThrowingTaskGroup(of: (Int, Latencies).self) { group in
            for _ in 0..<writers {
                group.addTask {
                    var count = 0
                    var latencies = Latencies()
                    while ContinuousClock.now < deadline {
                        let n = operationNumbers.add(1, ordering: .relaxed).oldValue
                        let start = ContinuousClock.now
                        count += try await operation(n)
                        latencies.add(ContinuousClock.now - start)
                    }
                    return (count, latencies)
                }
            }
            var total = 0
            var all = Latencies()
            for try await (count, latencies) in group {
                total += count
                all.merge(latencies)
            }
            return (total, all)
        }
    }

    /// Workload c: 8 writers on 10 shared streams, read version then append with it as the
    /// expected version, no retry. Afterwards every success is checked to sit at the version
    /// it expected.
    private func contended(into figures: inout Figures) async throws {
        let streams = (0..<10).map { StreamName(category: "benchc", id: "\($0)") }
        let successes = Successes()
        let saltC = FastID.salt()
        let conflicts = Counter()
        let operation: @Sendable (Int) async throws -> Int = { n in
            let stream = streams[n % streams.count]
            let version = try await store.streamVersion(stream)
            let sent = event(n, salt: saltC)
            do {
                try await store.append(to: stream, expected: version == 0 ? .noStream : .exact(version), events: [sent])
                await successes.add(stream: stream, version: version + 1, id: sent.eventId)
                return 1
            } catch is WrongExpectedVersion {
                await conflicts.add()
                return 0
            }
        }
        _ = try await loop(writers: 8, for: phases.warmUp, operation)
        await successes.reset()
        await conflicts.reset()
        let started = ContinuousClock.now
        let (count, latencies) = try await loop(writers: 8, for: phases.measure, operation)
        let elapsed = (ContinuousClock.now - started).seconds
        figures.record("append_c", Double(count) / elapsed, "events/s")
        figures.record("append_c_p99", latencies.percentile(99), "ms", decimals: 2)
        let conflictCount = await conflicts.value
        figures.record("append_c_conflicts", Double(conflictCount), "conflicts")
        figures.record("append_c_conflict_rate", Double(conflictCount) / Double(max(1, conflictCount + count)) * 100, "%", decimals: 1)

        var wrong = 0
        var byStream: [StreamName: [Int64: UUID]] = [:]
        for stream in streams {
            byStream[stream] = Dictionary(uniqueKeysWithValues: try await store.readStream(stream).map { ($0.version, $0.eventId) })
        }
        for success in await successes.all where byStream[success.stream]?[success.version] != success.id {
            wrong += 1
        }
        figures.record("append_c_misplaced", Double(wrong), "appends (must be 0)")
    }

    /// Workload e and the raw keyset read, over the same number of rows.
    private func reads(target: Int, into figures: inout Figures) async throws {
        // Top up the event table to `target` events with large appends, and the raw table
        // with one server-side INSERT.
        var have = try await count("events")
        let saltE = FastID.salt()
        while have < target {
            let size = min(1_000, target - have)
            try await store.append(
                to: StreamName(category: "benche", id: FastID.streamID(have, salt: saltE)), expected: .noStream,
                events: (0..<size).map { event(have + $0, salt: saltE) })
            have += size
        }
        let rawHave = try await count("raw_events")
        if rawHave < target {
            try await client.query(
                """
                INSERT INTO raw_events (payload)
                SELECT jsonb_build_object('reservationId', gen_random_uuid(), 'spaceId', gen_random_uuid(),
                    'start', '2026-12-01T09:00:00Z', 'end', '2026-12-01T10:00:00Z', 'priceCents', g,
                    'memberId', gen_random_uuid())
                FROM generate_series(1, \(target - rawHave)) g
                """, logger: logger)
        }
        try await client.query("VACUUM ANALYZE", logger: logger)

        // Warm both (the first pass pulls pages into shared buffers), then alternate
        // measured passes of each and report the totals.
        // Each pass also reads the CPU that this process (the client) and PostgreSQL's
        // processes (the server) used: on two cores both sides share the machine, so what a
        // row costs them together bounds the rate, and drifts less than the rate between runs.
        let meter = ProcessCPU(groups: ProcessCPU.Groups(pids: [getpid(): "client"], commands: ["postgres": "server"]))
        var eventTotals = Totals(), rawTotals = Totals()
        for pass in 0..<4 {
            let eventStart = meter.reading()
            let (read, seconds) = try await readEvents(target)
            let rawStart = meter.reading()
            let (rawRead, rawSeconds) = try await readRaw(target)
            let rawEnd = meter.reading()
            guard pass > 0 else { continue }
            eventTotals.add(rows: read, seconds: seconds, from: eventStart, to: rawStart)
            rawTotals.add(rows: rawRead, seconds: rawSeconds, from: rawStart, to: rawEnd)
        }
        figures.record("read_e", Double(eventTotals.rows) / eventTotals.seconds, "events/s")
        figures.record("raw_read", Double(rawTotals.rows) / rawTotals.seconds, "rows/s")
        for (name, totals) in [("read_e", eventTotals), ("raw_read", rawTotals)] {
            figures.record("\(name)_cpu_client", totals.microseconds("client"), "µs/row", decimals: 2)
            figures.record("\(name)_cpu_server", totals.microseconds("server"), "µs/row", decimals: 2)
        }
    }

    /// Rows, seconds and CPU seconds per group over the measured passes of one read.
    private struct Totals {
        var rows = 0
        var seconds = 0.0
        var cpu: [String: Double] = [:]

        mutating func add(rows: Int, seconds: Double, from before: [String: Double], to after: [String: Double]) {
            self.rows += rows
            self.seconds += seconds
            for (group, value) in after { cpu[group, default: 0] += max(0, value - before[group, default: 0]) }
        }

        func microseconds(_ group: String) -> Double {
            rows > 0 ? cpu[group, default: 0] * 1_000_000 / Double(rows) : .nan
        }
    }

    /// One pass over `target` events in global order, 5,000 a batch.
    private func readEvents(_ target: Int) async throws -> (Int, Double) {
        let started = ContinuousClock.now
        var read = 0
        var position = GlobalPosition.start
        while read < target {
            let batch = try await store.readAll(after: position, limit: min(5_000, target - read))
            guard let last = batch.last else { break }
            position = last.position
            read += batch.count
        }
        return (read, (ContinuousClock.now - started).seconds)
    }

    /// One keyset pass over `target` raw rows, decoding id and payload.
    private func readRaw(_ target: Int) async throws -> (Int, Double) {
        let started = ContinuousClock.now
        var read = 0
        var id: Int64 = 0
        while read < target {
            let rows = try await client.query(
                "SELECT id, payload FROM raw_events WHERE id > \(id) ORDER BY id LIMIT \(min(5_000, target - read))",
                logger: logger)
            var got = 0
            for try await (rowId, payload) in rows.decode((Int64, ByteBuffer).self) {
                id = rowId
                _ = Data(payload.readableBytesView)
                got += 1
            }
            if got == 0 { break }
            read += got
        }
        return (read, (ContinuousClock.now - started).seconds)
    }

    private func count(_ table: String) async throws -> Int {
        let rows = try await client.query(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(table)"), logger: logger)
        for try await value in rows.decode(Int.self) { return value }
        return 0
    }
}

actor Counter {
    private(set) var value = 0
    func add() { value += 1 }
    func reset() { value = 0 }
}

actor Successes {
    struct Success {
        let stream: StreamName
        let version: Int64
        let id: UUID
    }
    private(set) var all: [Success] = []
    func add(stream: StreamName, version: Int64, id: UUID) { all.append(Success(stream: stream, version: version, id: id)) }
    func reset() { all = [] }
}

/// Operation numbers, unique across every workload, writer and phase of the run.
let operationNumbers = Atomic<Int>(0)
