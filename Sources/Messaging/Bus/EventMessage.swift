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

    /// Reads a body back into the stored event; the error says what is wrong with it.
    public static func decode(_ body: Data) throws(UnreadableMessage) -> RecordedEvent {
        let object: [String: Any]
        do {
            guard let parsed = try JSONSerialization.jsonObject(with: body) as? [String: Any] else {
                throw UnreadableMessage("the body is JSON but not an object")
            }
            object = parsed
        } catch let error as UnreadableMessage {
            throw error
        } catch {
            throw UnreadableMessage("the body is not JSON (\(body.count) bytes)")
        }
        func field<T>(_ name: String, as type: T.Type) throws(UnreadableMessage) -> T {
            guard let value = object[name] else { throw UnreadableMessage("field '\(name)' is missing") }
            guard let typed = value as? T else { throw UnreadableMessage("field '\(name)' has the wrong type") }
            return typed
        }
        func integer(_ value: Any?, _ name: String) throws(UnreadableMessage) -> Int64 {
            if let number = value as? Int { return Int64(number) }
            if let number = value as? Double, let exact = Int64(exactly: number) { return exact }
            throw UnreadableMessage("field '\(name)' must be an integer")
        }
        func json(_ name: String) throws(UnreadableMessage) -> Data {
            guard let value = object[name] else { throw UnreadableMessage("field '\(name)' is missing") }
            guard value is [String: Any], let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])
            else { throw UnreadableMessage("field '\(name)' must be a JSON object") }
            return data
        }
        func instant(_ name: String) throws(UnreadableMessage) -> Date {
            let text = try field(name, as: String.self)
            guard let date = parseISO(text) else { throw UnreadableMessage("field '\(name)' is not an ISO 8601 instant") }
            return date
        }
        guard let eventId = UUID(uuidString: try field("eventId", as: String.self)) else {
            throw UnreadableMessage("field 'eventId' is not a UUID")
        }
        let type = try field("type", as: String.self)
        guard !type.isEmpty else { throw UnreadableMessage("field 'type' is empty") }
        let stream = try field("stream", as: String.self)
        guard !stream.isEmpty else { throw UnreadableMessage("field 'stream' is empty") }
        let position = try field("position", as: [String: Any].self)
        let schemaVersion = try integer(object["schemaVersion"], "schemaVersion")
        guard (1...Int64(Int32.max)).contains(schemaVersion) else { throw UnreadableMessage("field 'schemaVersion' is out of range") }
        return RecordedEvent(
            position: GlobalPosition(
                transaction: try integer(position["transaction"], "position.transaction"),
                sequence: try integer(position["sequence"], "position.sequence")),
            stream: StreamName(stream), version: try integer(object["streamVersion"], "streamVersion"),
            eventId: eventId, type: type, schemaVersion: Int(schemaVersion),
            data: try json("data"), metadataJSON: try json("metadata"),
            occurredAt: try instant("occurredAt"), recordedAt: try instant("recordedAt"))
    }

    static func iso(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    static func parseISO(_ text: String) -> Date? {
        (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
            ?? (try? Date.ISO8601FormatStyle().parse(text))
    }
}

/// A message whose body is not an event this system can read; it goes to the dead-letter
/// queue at once (retrying cannot fix it) with this reason.
public struct UnreadableMessage: Error, Sendable, CustomStringConvertible {
    public let reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { "unreadable message: \(reason)" }
}
