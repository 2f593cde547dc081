public import Domain
public import Foundation

/// An event about to be appended: identity, stored type, schema version, JSON payload.
public struct NewEvent: Sendable, Equatable {
    /// Unique forever; appending the same id again is a no-op that returns the first result.
    public let eventId: UUID
    public let type: String
    public let schemaVersion: Int
    /// The payload as UTF-8 JSON (an object).
    public let data: Data
    public let metadata: EventMetadata
    /// When the fact happened, from the handler's clock (not the database's).
    public let occurredAt: Date

    public init(
        eventId: UUID, type: String, schemaVersion: Int = 1, data: Data,
        metadata: EventMetadata = EventMetadata(), occurredAt: Date
    ) {
        self.eventId = eventId
        self.type = type
        self.schemaVersion = schemaVersion
        self.data = data
        self.metadata = metadata
        self.occurredAt = occurredAt
    }

    /// Encodes a domain event's payload as JSON with the project's encoder settings.
    public init<E: DomainEvent>(
        eventId: UUID, event: E, metadata: EventMetadata = EventMetadata(), occurredAt: Date
    ) throws {
        self.init(
            eventId: eventId, type: event.eventType, schemaVersion: event.eventSchemaVersion,
            data: try EventJSON.encode(event), metadata: metadata, occurredAt: occurredAt)
    }
}

/// An event as stored: its place in its stream and in the global order.
public struct RecordedEvent: Sendable, Equatable {
    public let position: GlobalPosition
    public let stream: StreamName
    /// 1 for a stream's first event.
    public let version: Int64
    public let eventId: UUID
    public let type: String
    /// The schema version after upcasting (what `data` is in).
    public let schemaVersion: Int
    public let data: Data
    /// The metadata as stored JSON; ``metadata`` decodes it on demand, so bulk readers that
    /// never look at it do not pay for it.
    public let metadataJSON: Data
    public let occurredAt: Date
    public let recordedAt: Date

    public init(
        position: GlobalPosition, stream: StreamName, version: Int64, eventId: UUID, type: String,
        schemaVersion: Int, data: Data, metadataJSON: Data, occurredAt: Date, recordedAt: Date
    ) {
        self.position = position
        self.stream = stream
        self.version = version
        self.eventId = eventId
        self.type = type
        self.schemaVersion = schemaVersion
        self.data = data
        self.metadataJSON = metadataJSON
        self.occurredAt = occurredAt
        self.recordedAt = recordedAt
    }

    public var metadata: EventMetadata {
        MetadataJSON.decode(metadataJSON) ?? EventMetadata()
    }

    /// Decodes the payload into a domain type.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try EventJSON.decoder.decode(type, from: data)
    }

    func replacing(data: Data, schemaVersion: Int) -> RecordedEvent {
        RecordedEvent(
            position: position, stream: stream, version: version, eventId: eventId, type: type,
            schemaVersion: schemaVersion, data: data, metadataJSON: metadataJSON,
            occurredAt: occurredAt, recordedAt: recordedAt)
    }
}

/// One stream's part of an atomic append.
public struct StreamWrite: Sendable {
    public let stream: StreamName
    public let expected: ExpectedVersion
    public let events: [NewEvent]

    public init(stream: StreamName, expected: ExpectedVersion, events: [NewEvent]) {
        self.stream = stream
        self.expected = expected
        self.events = events
    }
}

/// What an append did: each event's global position and each stream's new version.
public struct AppendResult: Sendable, Equatable {
    /// One per appended event, in the order they were given.
    public let positions: [GlobalPosition]
    /// The version of each written stream after the append.
    public let versions: [StreamName: Int64]
    /// The last position each stored event type took: what a caller must see projected to read
    /// its own writes (a read model up to the last event of a type it projects), instead of the
    /// head of the whole log, which moves on with every other writer.
    public let types: [String: GlobalPosition]

    public init(positions: [GlobalPosition], versions: [StreamName: Int64], types: [String: GlobalPosition] = [:]) {
        self.positions = positions
        self.versions = versions
        self.types = types
    }

    /// This result with ``types`` filled in from the events of `writes` (one position per
    /// event, in order).
    func naming(_ writes: [StreamWrite]) -> AppendResult {
        var types: [String: GlobalPosition] = [:]
        for (event, position) in zip(writes.lazy.flatMap(\.events), positions) {
            types[event.type] = max(types[event.type] ?? position, position)
        }
        return AppendResult(positions: positions, versions: versions, types: types)
    }
}

/// The JSON settings every stored payload and metadata use: ISO 8601 dates (``Instants``),
/// sorted keys.
public enum EventJSON {
    public static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = Instants.encoding
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// `value` as ``encoder`` writes it, byte for byte, written by ``JSONWriter`` (several times
    /// faster); what that leaves to Foundation, by ``encoder``.
    public static func encode<T: Encodable>(_ value: T) throws -> Data {
        do {
            return try JSONWriter.encode(value)
        } catch is JSONWriter.Unsupported {
            return try encoder.encode(value)
        }
    }

    /// Reads what ``encoder`` writes (and any JSON), as Foundation's decoder with ISO 8601 dates
    /// reads it: in place where it can, by that decoder where not (``EventDecoder``).
    public static var decoder: EventDecoder { EventDecoder() }
}

/// A stored event's identity and place, as an append reports it.
struct AppendedRow: Sendable {
    let eventId: UUID
    let stream: StreamName
    let version: Int64
    let position: GlobalPosition
}

extension AppendResult {
    /// Folds appended rows into the result: positions in the order of `ids`, and each
    /// stream's highest version.
    init(ids: [UUID], rows: [AppendedRow]) {
        var positions: [UUID: GlobalPosition] = [:]
        var versions: [StreamName: Int64] = [:]
        for row in rows {
            positions[row.eventId] = row.position
            versions[row.stream] = max(versions[row.stream] ?? 0, row.version)
        }
        self.init(positions: ids.compactMap { positions[$0] }, versions: versions)
    }

    /// The answer to a retried append, from the rows already stored under its ids: nil when
    /// none is stored (a new append); the first append's result when all are, in the same
    /// streams; an error for anything in between.
    static func retried(ids: [UUID], writes: [StreamWrite], stored rows: [AppendedRow]) throws -> AppendResult? {
        if rows.isEmpty { return nil }
        guard rows.count == ids.count else {
            throw EventStoreError(.partialDuplicate, "some event ids of this append are stored already, others are not")
        }
        let result = AppendResult(ids: ids, rows: rows)
        guard Set(result.versions.keys) == Set(writes.map(\.stream)) else {
            throw EventStoreError(.eventIdReused, "these event ids are stored in other streams")
        }
        return result
    }
}

/// An event's place, type and payload, without the envelope: what a rebuild decodes and folds.
/// The payload is upcast to the current schema version, as ``RecordedEvent``'s is.
public struct EventPayload: Sendable, Equatable {
    public let position: GlobalPosition
    public let stream: StreamName
    public let version: Int64
    public let type: String
    public let schemaVersion: Int
    public let data: Data

    public init(position: GlobalPosition, stream: StreamName, version: Int64, type: String, schemaVersion: Int, data: Data) {
        self.position = position
        self.stream = stream
        self.version = version
        self.type = type
        self.schemaVersion = schemaVersion
        self.data = data
    }

    public init(_ event: RecordedEvent) {
        self.init(
            position: event.position, stream: event.stream, version: event.version, type: event.type, schemaVersion: event.schemaVersion,
            data: event.data)
    }
}
