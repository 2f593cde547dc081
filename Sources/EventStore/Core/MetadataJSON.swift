import Domain
import Foundation

/// Writes event metadata as JSON without Foundation's encoder, which costs more per event
/// than the database insert on the append path. Same keys, sorted, as `EventJSON.encoder`;
/// read back with the ordinary decoder.
public enum MetadataJSON {
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
        field("causationId", metadata.causationId?.uuidString)
        field("correlationId", metadata.correlationId?.uuidString)
        field("requestId", metadata.requestId)
        field("service", metadata.service)
        json += "}"
        return json
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
