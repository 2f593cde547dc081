import EventStore
import Logging

/// What both buses do with one delivered event: skip it if the inbox has it; otherwise run
/// the handler and commit its writes with the inbox row, retrying in place with backoff; after
/// `maxAttempts` failures record it as dead and say so.
///
/// Retrying in place (not requeueing) keeps order: a quorum queue puts a requeued message at
/// the back (ADR 0002).
struct Handling: Sendable {
    let consumer: BusConsumer
    let store: any EventStore
    let logger: Logger

    enum Disposition: Equatable {
        /// Handled now or before: acknowledge.
        case done
        /// Failed `attempts` times: set aside with `reason`, then acknowledge.
        case deadLetter(reason: String, attempts: Int)
    }

    /// Throws only `CancellationError`: the event stays unacknowledged and comes again.
    func process(_ event: RecordedEvent) async throws -> Disposition {
        let service = consumer.service
        if try await infrastructure("read the inbox", { try await store.inboxEntry(event.eventId, consumer: service) }) != nil {
            logger.debug("duplicate delivery skipped", metadata: ["event": "\(event.eventId)", "consumer": "\(service)"])
            return .done
        }
        var attempt = 0
        while true {
            attempt += 1
            let failure: any Error
            do {
                let writes = try await consumer.handle(event)
                try Task.checkCancellation()
                _ = try await store.recordInInbox(event.eventId, consumer: service, outcome: .handled, appending: writes)
                return .done
            } catch {
                if Task.isCancelled { throw CancellationError() }
                failure = error
            }
            let reason = "\(event.type) \(event.eventId) failed in \(service): \(String(describing: failure))"
            guard attempt < consumer.maxAttempts else {
                let outcome = InboxOutcome.deadLettered(reason: reason, attempts: attempt)
                _ = try await infrastructure("record a dead letter") {
                    try await store.recordInInbox(event.eventId, consumer: service, outcome: outcome, appending: [])
                }
                logger.error("dead-lettered", metadata: ["event": "\(event.eventId)", "attempts": "\(attempt)", "reason": "\(reason)"])
                return .deadLetter(reason: reason, attempts: attempt)
            }
            logger.warning("handler failed, retrying", metadata: [
                "event": "\(event.eventId)", "attempt": "\(attempt)", "reason": "\(reason)",
            ])
            try await Task.sleep(for: consumer.retry.delay(after: attempt))
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
