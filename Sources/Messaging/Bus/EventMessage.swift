public import EventStore
public import Foundation

/// A stored event as it travels on the bus: a self-describing JSON body any AMQP client can
/// read, plus headers that let a consumer route or inspect it without parsing the body.
///
/// ```json
/// {"eventId": "…", "type": "ReservaSolicitada", "schemaVersion": 1,
///  "stream": "reserva-…", "streamVersion": 1,
///  "position": {"transaction": 812, "sequence": 4031},
///  "occurredAt": "2026-11-21T12:00:00.000Z", "recordedAt": "…",
///  "data": {…}, "metadata": {"correlationId": "…", …}}
/// ```
public enum EventMessage {
    /// The body of `event`, built by hand around the stored JSON of data and metadata (which
    /// are embedded as they are, not re-encoded).
    public static func body(of event: RecordedEvent) -> Data {
        var json = "{\"eventId\":\"\(event.eventId.lowercasedString)\",\"type\":"
        MetadataJSON.appendQuoted(event.type, to: &json)
        json += ",\"schemaVersion\":\(event.schemaVersion),\"stream\":"
        MetadataJSON.appendQuoted(event.stream.rawValue, to: &json)
        json += ",\"streamVersion\":\(event.version)"
        json += ",\"position\":{\"transaction\":\(event.position.transaction),\"sequence\":\(event.position.sequence)}"
        json += ",\"occurredAt\":\"\(iso(event.occurredAt))\",\"recordedAt\":\"\(iso(event.recordedAt))\""
        var body = Data(json.utf8)
        body.append(contentsOf: Array(",\"data\":".utf8))
        body.append(event.data.isEmpty ? Data("{}".utf8) : event.data)
        body.append(contentsOf: Array(",\"metadata\":".utf8))
        body.append(event.metadataJSON.isEmpty ? Data("{}".utf8) : event.metadataJSON)
        body.append(UInt8(ascii: "}"))
        return body
    }

    /// The W3C trace context of the relay's span that published the message (when tracing
    /// is on and the event continues a trace): the consumer's span is its child.
    public static let traceparentHeader = "traceparent"

    /// The headers of `event`: position, stream, stream version, schema version, and the
    /// correlation and causation ids when it has them.
    public static func headers(of event: RecordedEvent) -> [(String, HeaderValueOut)] {
        var headers: [(String, HeaderValueOut)] = [
            ("position", .text("\(event.position.transaction):\(event.position.sequence)")),
            ("position-transaction", .int(event.position.transaction)),
            ("position-sequence", .int(event.position.sequence)),
            ("stream", .text(event.stream.rawValue)),
            ("stream-version", .int(event.version)),
            ("schema-version", .int(Int64(event.schemaVersion))),
        ]
        let metadata = event.metadata
        if let correlation = metadata.correlationId { headers.append(("correlation-id", .text(correlation.lowercasedString))) }
        if let causation = metadata.causationId { headers.append(("causation-id", .text(causation.lowercasedString))) }
        return headers
    }

    /// Reads a body back into the stored event; the error says what is wrong with it. `data`
    /// and `metadata` come back as the exact bytes of the body (``JSONReader/rawObject()``).
    public static func decode(_ body: Data) throws(UnreadableMessage) -> RecordedEvent {
        var envelope = Envelope()
        do throws(JSONReader.Failure) {
            try JSONReader.read(body) { reader throws(JSONReader.Failure) in try envelope.read(&reader) }
        } catch {
            throw UnreadableMessage(envelope.refusal ?? diagnosis(of: body, error))
        }
        return try envelope.event()
    }

    /// Why a body that is not an envelope is refused: not JSON at all, JSON of another kind, or
    /// an object we cannot take.
    static func diagnosis(of body: Data, _ failure: JSONReader.Failure) -> String {
        JSONReader.read(body) { reader in
            let isObject = reader.peek() == UInt8(ascii: "{")
            let isJSON =
                (try? reader.skipValue()) != nil
                && {
                    reader.skipWhitespace()
                    return reader.atEnd
                }()
            guard isJSON else { return "the body is not JSON (\(body.count) bytes): \(failure)" }
            return isObject ? "the body is a JSON object but \(failure)" : "the body is JSON but not an object"
        }
    }

    static func iso(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    static func parseISO(_ text: String) -> Date? {
        fastISO(text)
            ?? (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
            ?? (try? Date.ISO8601FormatStyle().parse(text))
    }
}

extension EventMessage {
    /// `YYYY-MM-DDTHH:MM:SS[.fraction]Z`, what ``iso(_:)`` writes, without a formatter; nil for
    /// anything else (the formatters read the rest).
    static func fastISO(_ text: String) -> Date? {
        Instants.parse(text, fraction: true)
    }
}

/// The members of a body as they are read, and the reason when one of them is refused.
private struct Envelope {
    var eventId: UUID?, type: String?, stream: String?, schemaVersion: Int64?, streamVersion: Int64?
    var transaction: Int64?, sequence: Int64?, occurredAt: Date?, recordedAt: Date?, data: Data?, metadata: Data?
    /// Why a member was refused (the body's syntax is told apart: ``EventMessage/diagnosis(of:_:)``).
    var refusal: String?

    mutating func read(_ reader: inout JSONReader) throws(JSONReader.Failure) {
        var names: [JSONReader.Quoted] = []
        try reader.openObject()
        while let name = try reader.nextUniqueName(&names) {
            let field = try reader.text(of: name)
            switch field {
            case "eventId":
                guard let id = UUID(text: try string(&reader, field)) else { throw refuse("field 'eventId' is not a UUID", reader) }
                eventId = id
            case "type": type = try string(&reader, field)
            case "stream": stream = try string(&reader, field)
            case "schemaVersion": schemaVersion = try integer(&reader, field)
            case "streamVersion": streamVersion = try integer(&reader, field)
            case "position": try position(&reader)
            case "occurredAt": occurredAt = try instant(&reader, field)
            case "recordedAt": recordedAt = try instant(&reader, field)
            case "data": data = try object(&reader, field)
            case "metadata": metadata = try object(&reader, field)
            default: try reader.skipValue()
            }
        }
        reader.skipWhitespace()
        guard reader.atEnd else { throw refuse("the body has more after the object", reader) }
    }

    mutating func position(_ reader: inout JSONReader) throws(JSONReader.Failure) {
        do throws(JSONReader.Failure) {
            var names: [JSONReader.Quoted] = []
            try reader.openObject()
            while let name = try reader.nextUniqueName(&names) {
                switch try reader.text(of: name) {
                case "transaction": transaction = try integer(&reader, "position.transaction")
                case "sequence": sequence = try integer(&reader, "position.sequence")
                default: try reader.skipValue()
                }
            }
        } catch {
            if refusal == nil { refusal = "field 'position' must be an object" }
            throw error
        }
    }

    mutating func string(_ reader: inout JSONReader, _ field: String) throws(JSONReader.Failure) -> String {
        guard reader.peek() == UInt8(ascii: "\"") else { throw refuse("field '\(field)' must be a string", reader) }
        do { return try reader.string() } catch { throw refuse("field '\(field)': \(error)", reader) }
    }

    mutating func instant(_ reader: inout JSONReader, _ field: String) throws(JSONReader.Failure) -> Date {
        guard let date = EventMessage.parseISO(try string(&reader, field)) else {
            throw refuse("field '\(field)' is not an ISO 8601 instant", reader)
        }
        return date
    }

    mutating func integer(_ reader: inout JSONReader, _ field: String) throws(JSONReader.Failure) -> Int64 {
        do { return try reader.integer(acceptingWholeFractions: true) } catch { throw refuse("field '\(field)' must be an integer", reader) }
    }

    mutating func object(_ reader: inout JSONReader, _ field: String) throws(JSONReader.Failure) -> Data {
        do {
            let range = try reader.rawObject()
            return Data(UnsafeRawBufferPointer(rebasing: reader.bytes[range]))
        } catch {
            throw refuse("field '\(field)' must be a JSON object", reader)
        }
    }

    /// Records `reason` as the refusal; the failure to throw to stop reading.
    mutating func refuse(_ reason: String, _ reader: JSONReader) -> JSONReader.Failure {
        refusal = reason
        return reader.failure(reason)
    }

    /// The event read, once every member it needs was there.
    func event() throws(UnreadableMessage) -> RecordedEvent {
        func required<T>(_ value: T?, _ name: String) throws(UnreadableMessage) -> T {
            guard let value else { throw UnreadableMessage("field '\(name)' is missing") }
            return value
        }
        let typeName = try required(type, "type")
        guard !typeName.isEmpty else { throw UnreadableMessage("field 'type' is empty") }
        let streamName = try required(stream, "stream")
        guard !streamName.isEmpty else { throw UnreadableMessage("field 'stream' is empty") }
        let schema = try required(schemaVersion, "schemaVersion")
        guard (1...Int64(Int32.max)).contains(schema) else { throw UnreadableMessage("field 'schemaVersion' is out of range") }
        return RecordedEvent(
            position: GlobalPosition(
                transaction: try required(transaction, "position.transaction"), sequence: try required(sequence, "position.sequence")),
            stream: StreamName(streamName), version: try required(streamVersion, "streamVersion"),
            eventId: try required(eventId, "eventId"), type: typeName, schemaVersion: Int(schema),
            data: try required(data, "data"), metadataJSON: try required(metadata, "metadata"),
            occurredAt: try required(occurredAt, "occurredAt"), recordedAt: try required(recordedAt, "recordedAt"))
    }
}

/// A message whose body is not an event this system can read; it goes to the dead-letter
/// queue at once (retrying cannot fix it) with this reason.
public struct UnreadableMessage: Error, Sendable, CustomStringConvertible {
    public let reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { "unreadable message: \(reason)" }
}
