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
        var json = "{\"eventId\":\"\(event.eventId.uuidString.lowercased())\",\"type\":"
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
        if let correlation = metadata.correlationId { headers.append(("correlation-id", .text(correlation.uuidString.lowercased()))) }
        if let causation = metadata.causationId { headers.append(("causation-id", .text(causation.uuidString.lowercased()))) }
        return headers
    }

    /// Reads a body back into the stored event; the error says what is wrong with it. `data`
    /// and `metadata` come back as the exact bytes of the body (``JSONScanner``).
    public static func decode(_ body: Data) throws(UnreadableMessage) -> RecordedEvent {
        var eventId: UUID?, type: String?, stream: String?, schemaVersion: Int64?, streamVersion: Int64?
        var transaction: Int64?, sequence: Int64?, occurredAt: Date?, recordedAt: Date?, data: Data?, metadata: Data?
        var scanner = JSONScanner(body)
        do throws(JSONScanner.Failure) {
            try scanner.object { scanner, name throws(JSONScanner.Failure) in
                func text() throws(JSONScanner.Failure) -> String {
                    do { return try scanner.string() } catch {
                        throw .init(
                            reason: error.reason.hasPrefix("expected a string")
                                ? "field '\(name)' must be a string" : "field '\(name)': \(error.reason)")
                    }
                }
                func instant() throws(JSONScanner.Failure) -> Date {
                    guard let date = parseISO(try text()) else { throw .init(reason: "field '\(name)' is not an ISO 8601 instant") }
                    return date
                }
                func integer(_ scanner: inout JSONScanner, _ name: String) throws(JSONScanner.Failure) -> Int64 {
                    do { return try scanner.integer() } catch { throw .init(reason: "field '\(name)' must be an integer") }
                }
                func object() throws(JSONScanner.Failure) -> Data {
                    do { return try scanner.rawObject() } catch { throw .init(reason: "field '\(name)' must be a JSON object") }
                }
                switch name {
                case "eventId":
                    guard let id = UUID(uuidString: try text()) else { throw .init(reason: "field 'eventId' is not a UUID") }
                    eventId = id
                case "type": type = try text()
                case "stream": stream = try text()
                case "schemaVersion": schemaVersion = try integer(&scanner, name)
                case "streamVersion": streamVersion = try integer(&scanner, name)
                case "position":
                    do throws(JSONScanner.Failure) {
                        try scanner.object { scanner, member throws(JSONScanner.Failure) in
                            switch member {
                            case "transaction": transaction = try integer(&scanner, "position.transaction")
                            case "sequence": sequence = try integer(&scanner, "position.sequence")
                            default: try scanner.skipValue()
                            }
                        }
                    } catch {
                        throw error.reason.hasPrefix("field") ? error : .init(reason: "field 'position' must be an object")
                    }
                case "occurredAt": occurredAt = try instant()
                case "recordedAt": recordedAt = try instant()
                case "data": data = try object()
                case "metadata": metadata = try object()
                default: try scanner.skipValue()
                }
            }
            scanner.skipWhitespace()
            guard scanner.atEnd else { throw .init(reason: "the body has more after the object") }
        } catch {
            if error.reason.hasPrefix("field") || error.reason.hasPrefix("the body") { throw UnreadableMessage(error.reason) }
            // Say which: not JSON at all, JSON of another kind, or an object we cannot take.
            var first = JSONScanner(body), whole = JSONScanner(body)
            let isObject = first.take(UInt8(ascii: "{"))
            let isJSON =
                (try? whole.skipValue()) != nil
                && {
                    whole.skipWhitespace()
                    return whole.atEnd
                }()
            guard isJSON else { throw UnreadableMessage("the body is not JSON (\(body.count) bytes): \(error.reason)") }
            throw UnreadableMessage(isObject ? "the body is a JSON object but \(error.reason)" : "the body is JSON but not an object")
        }
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

/// A message whose body is not an event this system can read; it goes to the dead-letter
/// queue at once (retrying cannot fix it) with this reason.
public struct UnreadableMessage: Error, Sendable, CustomStringConvertible {
    public let reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { "unreadable message: \(reason)" }
}
