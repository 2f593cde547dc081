import EventStore
import Foundation
import Logging
import Telemetry
import Tracing

/// What both buses do with delivered events: skip those the inbox has; run the handler and
/// commit its writes with the inbox row, retrying in place with backoff; after `maxAttempts`
/// failures record the event as dead and say so.
///
/// Retrying in place (not requeueing) keeps order: a quorum queue puts a requeued message at
/// the back (ADR 0002). Events that are already waiting are handled as a batch whose inbox
/// rows and writes commit together (one commit for many events); any trouble in a batch falls
/// back to one event at a time, so the outcome is the same as handling them singly.
/// A handler reads the store, which does not hold the batch's writes until they commit; an
/// event of the same stream or the same correlation (one booking's request and cancellation)
/// as an event in the batch whose handler wrote something therefore commits the batch first,
/// so its handler sees what the earlier one wrote. (Related events whose handlers wrote
/// nothing stay in one batch: there is nothing for a later handler to miss.) Unrelated events
/// may still decide on one stream (every payment of a unit is invoiced in the unit's book): a
/// handler whose writes expect a version of a stream the batch already writes to decided on
/// what those uncommitted writes hide, so the batch commits and it decides again, instead of
/// failing the batch's commit and paying a retry. A consumer that reads ahead
/// (``BusConsumer/readAhead``) reads for up to ``readAheadWindow`` events of the batch at a time
/// (those not in the inbox), again after every commit inside it and once that read is
/// ``readAheadAge`` old.
struct Handling: Sendable {
    let consumer: BusConsumer
    let store: any ConsumerInbox & Leases
    let logger: Logger

    enum Disposition: Equatable {
        /// Handled now or before: acknowledge.
        case done
        /// Failed `attempts` times (now or before): set aside with `reason`, then acknowledge.
        case deadLetter(reason: String, attempts: Int)
    }

    /// One disposition per event, in order. Throws only `CancellationError`: the events not
    /// yet acknowledged come again. `traces`: the `traceparent` each event was delivered with
    /// (the relay's span), by event id; an event without one continues the trace in its metadata.
    func process(_ events: [RecordedEvent], traces: [UUID: String] = [:]) async throws -> [Disposition] {
        let service = consumer.service
        let known = try await infrastructure("read the inbox") {
            try await store.inboxOutcomes(events.map(\.eventId), consumer: service)
        }
        var dispositions: [Disposition] = []
        var pending: [(event: RecordedEvent, writes: [StreamWrite])] = []
        var related: Set<String> = []
        // The streams the pending writes expect a version of.
        var decided: Set<StreamName> = []
        // The consumer's read ahead for the events before `until`, made `at`; a commit drops it.
        var ahead: (handler: BusConsumer.Handler, until: Int, at: ContinuousClock.Instant)?
        func flush() async throws {
            guard !pending.isEmpty else { return }
            try await commit(&pending, into: &dispositions)
            ahead = nil
        }
        /// What handles the event at `index` in this batch.
        func handler(at index: Int) async throws -> BusConsumer.Handler {
            guard let readAhead = consumer.readAhead else { return consumer.handle }
            // Not past its window, nor older than ``readAheadAge`` (each handler may call out:
            // a payment provider, an e-mail relay), so no decision rests on an old read.
            if let ahead, index < ahead.until, ContinuousClock.now - ahead.at < Self.readAheadAge { return ahead.handler }
            let at = ContinuousClock.now
            let until = min(events.count, index + Self.readAheadWindow)
            let handler: BusConsumer.Handler
            do {
                handler = try await readAhead(events[index..<until].filter { known[$0.eventId] == nil })
            } catch {
                if Task.isCancelled { throw CancellationError() }
                // Each event then reads what it needs itself (and meets the trouble, if it lasts).
                logger.debug("read ahead failed", metadata: ["consumer": "\(consumer.service)", "error": "\(error)"])
                handler = consumer.handle
            }
            ahead = (handler, until, at)
            return handler
        }
        var index = 0
        while index < events.count {
            // Stopping: no handler starts (its effects outside the store would be made again).
            try Task.checkCancellation()
            let event = events[index]
            if let outcome = known[event.eventId] {
                try await flush()
                dispositions.append(Self.disposition(for: outcome))
                index += 1
                continue
            }
            let keys = Self.relation(of: event)
            if !related.isDisjoint(with: keys) { try await flush() }
            do {
                var writes = try await handle(event, trace: traces[event.eventId], with: try await handler(at: index))
                if Self.expectsVersion(of: decided, in: writes) {
                    // Decided on a stream the batch writes to before those writes committed
                    // (a unit's invoice book, written by reactions to events of many streams):
                    // a stale decision whose commit would fail. Commit the batch and decide again.
                    try await flush()
                    writes = try await handle(event, trace: traces[event.eventId], with: try await handler(at: index))
                }
                if pending.isEmpty {
                    related.removeAll()
                    decided.removeAll()
                }
                pending.append((event, writes))
                // Only uncommitted writes can hide anything from a later handler.
                if !writes.isEmpty { related.formUnion(keys) }
                decided.formUnion(writes.lazy.filter { $0.expected != .any }.map(\.stream))
                index += 1
            } catch {
                if Task.isCancelled { throw CancellationError() }
                // Commit what went well before it, then retry this one on its own.
                try await flush()
                dispositions.append(try await processOne(event, trace: traces[event.eventId], failedOnce: error))
                ahead = nil
                index += 1
            }
        }
        try await flush()
        return dispositions
    }

    /// How many events of a batch one read ahead is for, at most.
    static let readAheadWindow = 100
    /// How old a read ahead may be and still serve.
    static let readAheadAge: Duration = .milliseconds(250)

    /// Handles again the dead letters an operator asked to retry (`coworkflow dead-letters
    /// --retry`), in global order, each as if delivered now; returns how many it took.
    func redrive(limit: Int = 100) async throws -> Int {
        let service = consumer.service
        let events = try await store.redriveRequests(consumer: service, limit: limit)
        for event in events {
            if case .deadLetter(let reason, _) = try await processOne(event) {
                logger.warning("redriven event failed again", metadata: ["event": "\(event.eventId)", "reason": "\(reason)"])
            } else {
                logger.info("redriven event handled", metadata: ["event": "\(event.eventId)", "consumer": "\(service)"])
            }
            try await store.finishRedrive(event.eventId, consumer: service)
        }
        return events.count
    }

    /// Looks for redrive requests every `interval` until cancelled (beside the delivery loop
    /// of either bus: the requests live in the store, so they reach the consumer wherever it
    /// runs). One replica of the service at a time (the lease `redrive:<service>`): a handler's
    /// side effects outside the store (an e-mail) must not happen once per replica.
    func redriving(every interval: Duration) async {
        while !Task.isCancelled {
            do {
                try await store.whileHolding(lease: "redrive:\(consumer.service)", retryEvery: .seconds(1)) {
                    while !Task.isCancelled {
                        if try await self.redrive() > 0 { continue }
                        try await Task.sleep(for: interval)
                    }
                }
            } catch {
                if Task.isCancelled { return }
                logger.warning("redrive failed; trying again", metadata: ["consumer": "\(consumer.service)", "error": "\(error)"])
                try? await Task.sleep(for: interval)
            }
        }
    }

    static let redriveInterval: Duration = .seconds(1)

    /// Whether `writes` expect a version of one of `streams`.
    static func expectsVersion(of streams: Set<StreamName>, in writes: [StreamWrite]) -> Bool {
        !streams.isEmpty && writes.contains { $0.expected != .any && streams.contains($0.stream) }
    }

    /// What ties an event to others: its stream and its correlation id.
    static func relation(of event: RecordedEvent) -> Set<String> {
        var keys: Set<String> = ["stream:\(event.stream.rawValue)"]
        if let correlation = event.metadata.correlationId { keys.insert("correlation:\(correlation)") }
        return keys
    }

    /// Commits the handled events waiting in `pending` in one transaction; if that fails,
    /// handles them again one by one.
    private func commit(
        _ pending: inout [(event: RecordedEvent, writes: [StreamWrite])], into dispositions: inout [Disposition]
    ) async throws {
        guard !pending.isEmpty else { return }
        defer { pending.removeAll() }
        do {
            try Task.checkCancellation()
            try await store.recordHandled(
                pending.map { HandledEvent(eventId: $0.event.eventId, writes: $0.writes) }, consumer: consumer.service)
            dispositions += Array(repeating: .done, count: pending.count)
        } catch {
            if Task.isCancelled { throw CancellationError() }
            // Each event's writes are committed again on their own before its handler runs
            // again: a handler may have done what cannot be undone (an e-mail sent), and its
            // writes are still right unless their expected versions say otherwise.
            if pending.count > 1 { logger.debug("batch commit failed, committing its events one by one", metadata: ["error": "\(error)"]) }
            for entry in pending { dispositions.append(try await processOne(entry.event, handled: entry.writes)) }
        }
    }

    /// One event: handler and commit, retried with backoff; dead after `maxAttempts`.
    /// `handled`: the writes of a run of the handler whose commit failed, committed first. The
    /// handler runs again only when its writes are refused for what they are (a stale expected
    /// version, an invalid write), never because the database failed to take them.
    func processOne(
        _ event: RecordedEvent, trace: String? = nil, failedOnce firstFailure: (any Error)? = nil, handled: [StreamWrite]? = nil
    ) async throws -> Disposition {
        let service = consumer.service
        if let outcome = try await infrastructure(
            "read the inbox",
            {
                try await store.inboxOutcomes([event.eventId], consumer: service)[event.eventId]
            })
        {
            return Self.disposition(for: outcome)
        }
        var attempt = 0, outages = 0
        // A first failure of the database (not of the handler) is no attempt either.
        var failure = firstFailure.flatMap { ($0 as? EventStoreError)?.code == .unavailable ? nil : $0 }
        var uncommitted = handled
        while true {
            if let error = failure {
                attempt += 1
                let reason = "\(event.type) \(event.eventId) failed in \(service): \(String(describing: error))"
                guard attempt < consumer.maxAttempts else {
                    let outcome = InboxOutcome.deadLettered(reason: reason, attempts: attempt)
                    _ = try await infrastructure("record a dead letter") {
                        try await store.recordInInbox(event.eventId, consumer: service, outcome: outcome, appending: [])
                    }
                    logger.error("dead-lettered", metadata: ["event": "\(event.eventId)", "attempts": "\(attempt)", "reason": "\(reason)"])
                    BusMetrics.consumer(service).deadLettered.increment()
                    return .deadLetter(reason: reason, attempts: attempt)
                }
                logger.warning(
                    "handler failed, retrying",
                    metadata: [
                        "event": "\(event.eventId)", "attempt": "\(attempt)", "reason": "\(reason)",
                    ])
                try await Task.sleep(for: consumer.retry.delay(after: attempt))
            }
            let writes: [StreamWrite]
            do {
                if let uncommitted {
                    writes = uncommitted
                } else {
                    writes = try await handle(event, trace: trace, with: consumer.handle)
                }
                uncommitted = nil
                try Task.checkCancellation()
            } catch let error as EventStoreError where error.code == .unavailable {
                // The database is down: not the event's fault, and no attempt of the handler's.
                // Counting it would dead-letter every event consumed during an outage.
                if Task.isCancelled { throw CancellationError() }
                outages += 1
                logger.error("database unavailable, waiting", metadata: ["event": "\(event.eventId)", "error": "\(error.message)"])
                try await Task.sleep(for: Backoff(first: .milliseconds(100), limit: .seconds(5)).delay(after: outages))
                failure = nil  // an earlier real failure was counted when it happened; this pass is not one
                continue
            } catch {
                if Task.isCancelled { throw CancellationError() }
                failure = error
                continue
            }
            do {
                _ = try await store.recordInInbox(event.eventId, consumer: service, outcome: .handled, appending: writes)
                return .done
            } catch let conflict as WrongExpectedVersion {
                // The handler's writes met a concurrent change: its decision was stale. That is
                // the handler's to resolve (it runs again on fresh state) and counts.
                failure = conflict
            } catch {
                if Task.isCancelled { throw CancellationError() }
                // Invalid writes are the handler's fault; a failing database is not.
                if let storeError = error as? EventStoreError, storeError.code != .backend, storeError.code != .unavailable {
                    failure = error
                    continue
                }
                // The same writes again: the handler has done its part. A database that cannot
                // be reached costs the event no attempt; one that answers and refuses (a
                // constraint, a value it cannot store, a failed COMMIT) counts, or a write it will
                // always refuse would hold the queue for ever.
                uncommitted = writes
                if let storeError = error as? EventStoreError, storeError.code == .unavailable {
                    logger.error("cannot commit, retrying", metadata: ["event": "\(event.eventId)", "error": "\(String(reflecting: error))"])
                    try await Task.sleep(for: Backoff(first: .milliseconds(100), limit: .seconds(5)).delay(after: 3))
                    failure = nil
                } else {
                    failure = error
                }
            }
        }
    }

    /// The handler's run on `event`, in a consumer span that continues the event's trace
    /// (`trace`, else the metadata's `traceparent`); the events it writes carry that span's
    /// `traceparent`. An event that continues no trace (a timer's, or with tracing off) gets no span.
    private func handle(_ event: RecordedEvent, trace: String?, with handler: BusConsumer.Handler) async throws -> [StreamWrite] {
        guard Traces.enabled, let parent = trace ?? MetadataJSON.traceparent(in: event.metadataJSON) else {
            return try await handler(event)
        }
        return try await Traces.withSpan(
            "\(consumer.service) process \(event.type)", ofKind: .consumer, context: Traces.context(traceparent: parent)
        ) { span in
            span.attributes["messaging.system"] = "rabbitmq"
            span.attributes["messaging.operation.type"] = "process"
            span.attributes["messaging.consumer.group.name"] = consumer.service
            span.attributes["messaging.message.id"] = event.eventId.lowercasedString
            span.attributes["coworkflow.event.type"] = event.type
            let writes = try await handler(event)
            guard let traceparent = Traces.traceparent(of: span.context) else { return writes }
            return writes.map { $0.stamped(traceparent: traceparent) }
        }
    }

    private static func disposition(for outcome: InboxOutcome) -> Disposition {
        switch outcome {
        case .handled: .done
        // Dead before: say so again, so a dead letter whose copy never reached the DLQ gets there.
        case .deadLettered(let reason, let attempts): .deadLetter(reason: reason, attempts: attempts)
        }
    }

    /// The bus's own store calls: a failing database is not the event's fault, so they are
    /// retried (capped backoff) until they work or the task is cancelled, never counted.
    private func infrastructure<T: Sendable>(_ what: String, _ body: () async throws -> T) async throws -> T {
        var failures = 0
        while true {
            do {
                return try await body()
            } catch {
                if Task.isCancelled { throw CancellationError() }
                failures += 1
                logger.error("cannot \(what), retrying", metadata: ["error": "\(String(reflecting: error))"])
                try await Task.sleep(for: Backoff(first: .milliseconds(100), limit: .seconds(5)).delay(after: failures))
            }
        }
    }
}
