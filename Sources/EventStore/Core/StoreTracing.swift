import Domain
import Telemetry
import Tracing

/// The trace an appended event continues: the `traceparent` of the span that appended it,
/// kept in its metadata (``EventMetadata/traceparent``) for the relay and the consumers.
enum StoreTracing {
    /// `writes` with the current span's `traceparent` in the metadata of every event that has
    /// none (a consumer's writes keep the one of the span that handled the event).
    static func stamped(_ writes: [StreamWrite]) -> [StreamWrite] {
        guard Traces.enabled, let traceparent = Traces.traceparent(of: .current ?? .topLevel) else { return writes }
        return writes.map { $0.stamped(traceparent: traceparent) }
    }
}

extension StreamWrite {
    /// This write with `traceparent` in the metadata of each of its events that has none.
    public func stamped(traceparent: String) -> StreamWrite {
        StreamWrite(
            stream: stream, expected: expected,
            events: events.map { event in
                guard event.metadata.traceparent == nil else { return event }
                var metadata = event.metadata
                metadata.traceparent = traceparent
                return NewEvent(
                    eventId: event.eventId, type: event.type, schemaVersion: event.schemaVersion, data: event.data, metadata: metadata,
                    occurredAt: event.occurredAt)
            })
    }
}
