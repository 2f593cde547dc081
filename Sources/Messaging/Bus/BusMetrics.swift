import CoreMetrics
import EventStore
import Foundation
import Synchronization
import Telemetry

/// What both buses and the relay measure (docs/observability.md).
enum BusMetrics {
    static let published = Telemetry.counter(Catalog.busPublished)
    static let confirmed = Telemetry.counter(Catalog.busConfirmed)

    /// Makes the publishing counters at 0 (a relay that has had nothing to publish yet).
    static func declarePublishing() {
        _ = (published, confirmed)
    }

    /// One consumer's counters, made once per consumer name.
    struct Consumer: Sendable {
        let consumed: CoreMetrics.Counter
        let redelivered: CoreMetrics.Counter
        let deadLettered: CoreMetrics.Counter
        let lag: CoreMetrics.Timer

        init(_ name: String) {
            let label = [("consumer", name)]
            consumed = Telemetry.counter(Catalog.busConsumed, label)
            redelivered = Telemetry.counter(Catalog.busRedelivered, label)
            deadLettered = Telemetry.counter(Catalog.busDeadLettered, label)
            lag = Telemetry.timer(Catalog.busConsumerLag, label)
        }

        /// An event delivered now: counted, and how long after its recording.
        func delivered(_ event: RecordedEvent, redelivered again: Bool = false) {
            consumed.increment()
            if again { redelivered.increment() }
            lag.record(seconds: Date().timeIntervalSince(event.recordedAt))
        }
    }

    private static let consumers = Mutex<[String: Consumer]>([:])

    static func consumer(_ name: String) -> Consumer {
        consumers.withLock { consumers in
            if let known = consumers[name] { return known }
            let made = Consumer(name)
            consumers[name] = made
            return made
        }
    }
}
