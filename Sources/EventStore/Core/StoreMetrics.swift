public import CoreMetrics
import Synchronization
import Telemetry
import Tracing

/// What both stores measure: append transactions by outcome, their duration, the events
/// appended (and, through ``EventCounters``, the business counters of their types), and the
/// duration of reads.
enum StoreMetrics {
    /// Made together, so every outcome's series is there (at 0) from the first append.
    static let outcomes = (
        ok: Telemetry.counter(Catalog.storeAppends, [("outcome", "ok")]),
        conflict: Telemetry.counter(Catalog.storeAppends, [("outcome", "conflict")]),
        failed: Telemetry.counter(Catalog.storeAppends, [("outcome", "error")])
    )
    static let events = Telemetry.counter(Catalog.storeEventsAppended)
    /// Appends a transaction committed (``SQLiteAppendQueue`` commits several in one).
    static let appendsPerCommit = Telemetry.histogram(Catalog.storeAppendsPerCommit)
    static let appendDuration = Telemetry.timer(Catalog.storeAppendDuration)

    enum Read: String, CaseIterable {
        case stream, streams, all, category
    }

    static let reads = Dictionary(
        uniqueKeysWithValues: Read.allCases.map { ($0, Telemetry.timer(Catalog.storeReadDuration, [("read", $0.rawValue)])) })

    /// Makes the store's series at 0 (a process that has not appended yet shows them too).
    static func declare() {
        _ = (outcomes, events, appendsPerCommit, appendDuration, reads)
    }

    /// Times an append transaction and counts its outcome.
    static func appending<T>(
        _ database: String, _ operation: String, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
    ) async throws -> T {
        let start = ContinuousClock.now
        defer { appendDuration.record(since: start) }
        // The span of the append: the events it writes carry its `traceparent` (``StoreTracing``).
        return try await Traces.withSpan(operation, ofKind: .client, onlyInTrace: true) { span in
            span.attributes["db.system.name"] = database
            do {
                let result = try await body()
                outcomes.ok.increment()
                return result
            } catch let error as WrongExpectedVersion {
                outcomes.conflict.increment()
                span.attributes["coworkflow.append.outcome"] = "conflict"
                throw error
            } catch {
                outcomes.failed.increment()
                span.recordError(error)
                span.setStatus(SpanStatus(code: .error))
                throw error
            }
        }
    }

    /// Events of `writes` committed (`count` of them stored: 0 when all were stored before).
    static func committed(_ writes: [StreamWrite], count: Int) {
        guard count > 0 else { return }
        events.increment(by: count)
        EventCounters.count(writes)
    }

    static func reading<T>(_ read: Read, _ body: () async throws -> T) async throws -> T {
        let start = ContinuousClock.now
        defer { reads[read]?.record(since: start) }
        return try await body()
    }
}

/// Counters moved by the events a store commits, by stored type (`ReservaConfirmada` →
/// `coworkflow_bookings_total{status="confirmada"}`): the composition root says which, the
/// store counts in the process that appended, so the sum over processes is the total.
public enum EventCounters {
    private static let counters = Mutex<[String: CoreMetrics.Counter]>([:])

    /// Each commit of an event of `type` moves `counter`.
    public static func count(_ type: String, into counter: CoreMetrics.Counter) {
        counters.withLock { $0[type] = counter }
    }

    static func count(_ writes: [StreamWrite]) {
        let table = counters.withLock { $0 }
        guard !table.isEmpty else { return }
        for write in writes {
            for event in write.events { table[event.type]?.increment() }
        }
    }
}

extension StoreMetrics {
    private static let inUse = Telemetry.gauge(Catalog.poolInUse)
    private static let maximum = Telemetry.gauge(Catalog.poolMax)
    private static let waiting = Telemetry.gauge(Catalog.poolWaiting)

    private struct Watched: @unchecked Sendable {
        weak var pool: StorePool?
    }

    private static let pools = Mutex<[Watched]>([])
    /// One collector for every pool of the process (one in a deployable; tests open many).
    private static let collector: Void = Telemetry.collect {
        let open = pools.withLock { pools in
            pools.removeAll { $0.pool == nil }
            return pools.compactMap(\.pool)
        }
        var used = 0, most = 0, queued = 0
        for pool in open {
            let counts = pool.counts
            used += counts.open - counts.idle
            most += pool.options.maximum
            queued += counts.waiting
        }
        inUse.record(used)
        maximum.record(most)
        waiting.record(queued)
        return true
    }

    /// Reports `pool`'s connections at each scrape while it exists.
    static func watch(_ pool: StorePool) {
        _ = collector
        declare()
        pools.withLock { $0.append(Watched(pool: pool)) }
    }
}
