public import Domain
public import Foundation

/// Writes and reads event metadata as JSON without Foundation's coders, which cost more per
/// event than the database insert on the append path, and took a fifteenth of the projections
/// process under a load of bookings (every event's metadata is read by several projections).
/// Same keys, sorted, as `EventJSON.encoder`.
public enum MetadataJSON {
    /// The metadata, as `EventJSON.decoder` reads it; nil when it is not valid metadata. Read in
    /// place with ``JSONReader``; what it refuses (a name twice) goes to the ordinary decoder.
    public static func decode(_ json: Data) -> EventMetadata? {
        do throws(JSONReader.Failure) {
            return try JSONReader.read(json) { reader throws(JSONReader.Failure) in try read(&reader) }
        } catch {
            return try? EventJSON.decoder.decode(EventMetadata.self, from: json)
        }
    }

    private static func read(_ reader: inout JSONReader) throws(JSONReader.Failure) -> EventMetadata {
        func text(_ reader: inout JSONReader) throws(JSONReader.Failure) -> String? { reader.null() ? nil : try reader.string() }
        func id(_ reader: inout JSONReader) throws(JSONReader.Failure) -> UUID? { reader.null() ? nil : try reader.uuid() }
        var metadata = EventMetadata()
        var names: [JSONReader.Quoted] = []
        try reader.openObject()
        while let name = try reader.nextUniqueName(&names) {
            if reader.matches(name, "actor") {
                metadata.actor = try text(&reader)
            } else if reader.matches(name, "causationId") {
                metadata.causationId = try id(&reader)
            } else if reader.matches(name, "correlationId") {
                metadata.correlationId = try id(&reader)
            } else if reader.matches(name, "requestFingerprint") {
                metadata.requestFingerprint = try text(&reader)
            } else if reader.matches(name, "requestId") {
                metadata.requestId = try text(&reader)
            } else if reader.matches(name, "service") {
                metadata.service = try text(&reader)
            } else if reader.matches(name, "traceparent") {
                metadata.traceparent = try text(&reader)
            } else {
                try reader.skipValue()
            }
        }
        reader.skipWhitespace()
        guard reader.atEnd else { throw reader.failure("more after the object") }
        return metadata
    }

    static func encode(_ metadata: EventMetadata) -> String {
        var json = "{"
        var first = true
        func field(_ key: String, _ value: String?) {
            guard let value else { return }
            if !first { json += "," }
            first = false
            json += "\"\(key)\":"
            appendQuoted(value, to: &json)
        }
        field("actor", metadata.actor)
        field("causationId", metadata.causationId?.uppercasedString)
        field("correlationId", metadata.correlationId?.uppercasedString)
        field("requestFingerprint", metadata.requestFingerprint)
        field("requestId", metadata.requestId)
        field("service", metadata.service)
        field("traceparent", metadata.traceparent)
        json += "}"
        return json
    }

    /// The `traceparent` of stored metadata, found without decoding the rest (the relay and
    /// the consumers look for it in every event). A value with an escape in it is no traceparent.
    public static func traceparent(in json: Data) -> String? {
        let key = Array("\"traceparent\"".utf8)
        return json.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> String? in
            var index = 0
            while index + key.count <= bytes.count {
                guard bytes[index] == key[0], (1..<key.count).allSatisfy({ bytes[index + $0] == key[$0] }) else {
                    index += 1
                    continue
                }
                var cursor = index + key.count
                func skipSpaces() {
                    while cursor < bytes.count, bytes[cursor] == 0x20 || bytes[cursor] == 0x0A || bytes[cursor] == 0x09 { cursor += 1 }
                }
                skipSpaces()
                // A value that reads "traceparent" (no colon after it): look further.
                guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: ":") else {
                    index += 1
                    continue
                }
                cursor += 1
                skipSpaces()
                guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "\"") else { return nil }
                let start = cursor + 1
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\") { end += 1 }
                guard end < bytes.count, bytes[end] == UInt8(ascii: "\""), end > start else { return nil }
                return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
            }
            return nil
        }
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped.
    public static func appendQuoted(_ value: String, to json: inout String) {
        json += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": json += "\\\""
            case "\\": json += "\\\\"
            case "\n": json += "\\n"
            case "\r": json += "\\r"
            case "\t": json += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                json += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: json.unicodeScalars.append(scalar)
            }
        }
        json += "\""
    }
}
