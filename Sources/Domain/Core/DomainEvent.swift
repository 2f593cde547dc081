public import Foundation

/// An event a decider emits: a past-tense fact with a stable stored type string.
///
/// The type string is part of the stored format and never changes; renaming a Swift type
/// must not rename stored events. Bump ``schemaVersion`` when the payload changes shape and
/// register an upcaster for the old version.
public protocol DomainEvent: Codable, Sendable {
    /// The stable stored type string of this event, e.g. `ReservaSolicitada`.
    var eventType: String { get }
    /// The payload's schema version for this event type.
    static var schemaVersion: Int { get }
    /// The schema version of this value's payload (its kind's, for a ``CatalogedEvent``).
    var eventSchemaVersion: Int { get }
}

extension DomainEvent {
    public static var schemaVersion: Int { 1 }
    public var eventSchemaVersion: Int { Self.schemaVersion }
}

/// Who or what caused an event, and which request and conversation it belongs to.
public struct EventMetadata: Hashable, Sendable, Codable {
    /// Groups every event caused, directly or not, by one original request.
    public var correlationId: UUID?
    /// The event or command that directly caused this one.
    public var causationId: UUID?
    /// The user id, or a system actor such as `system:expiry`.
    public var actor: String?
    /// The gateway's request id.
    public var requestId: String?
    /// The service that appended the event.
    public var service: String?
    /// The W3C `traceparent` of the span that appended the event, when tracing is on: the
    /// relay and the consumers continue its trace (docs/observability.md).
    public var traceparent: String?
    /// The fingerprint (a SHA-256 of method, path and body) of the request that made the event,
    /// when it carried an `Idempotency-Key` and the command derived what it made from the key: a
    /// retry with the key and another body is told apart from the same request sent again.
    public var requestFingerprint: String?

    public init(
        correlationId: UUID? = nil, causationId: UUID? = nil, actor: String? = nil,
        requestId: String? = nil, service: String? = nil, traceparent: String? = nil, requestFingerprint: String? = nil
    ) {
        self.correlationId = correlationId
        self.causationId = causationId
        self.actor = actor
        self.requestId = requestId
        self.service = service
        self.traceparent = traceparent
        self.requestFingerprint = requestFingerprint
    }

    /// Metadata for an event caused by `cause`: same correlation, causation = cause's id.
    public func caused(by eventId: UUID, correlationId: UUID?) -> EventMetadata {
        var next = self
        next.causationId = eventId
        // The request's, not its effects'.
        next.requestFingerprint = nil
        next.correlationId = correlationId ?? self.correlationId ?? eventId
        return next
    }
}

/// A domain event with its identity, stored type and schema version, and its metadata.
public struct EventEnvelope<Event: DomainEvent>: Sendable {
    public let eventId: UUID
    public let type: String
    public let schemaVersion: Int
    public let occurredAt: Date
    public let metadata: EventMetadata
    public let event: Event

    public init(eventId: UUID, occurredAt: Date, metadata: EventMetadata, event: Event) {
        self.eventId = eventId
        self.type = event.eventType
        self.schemaVersion = event.eventSchemaVersion
        self.occurredAt = occurredAt
        self.metadata = metadata
        self.event = event
    }
}
