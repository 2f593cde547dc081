import CRabbitMQ
import Foundation

/// Arguments or headers for one call: owns the C strings its entries point at.
struct AMQPTable: ~Copyable {
    enum Value {
        case text(String)
        case bool(Bool)
        case int(Int64)
    }

    private var strings: [UnsafeMutablePointer<CChar>] = []
    private var entries: [amqp_table_entry_t] = []

    init(_ values: [(String, Value)]) {
        for (key, value) in values {
            let cKey = Self.copy(key)
            strings.append(cKey)
            switch value {
            case .text(let text):
                let cValue = Self.copy(text)
                strings.append(cValue)
                entries.append(cwf_entry_utf8(cKey, cValue))
            case .bool(let flag):
                entries.append(cwf_entry_bool(cKey, flag ? 1 : 0))
            case .int(let number):
                entries.append(cwf_entry_i64(cKey, number))
            }
        }
    }

    /// Lends the table to a C call; it is valid only inside `body`.
    mutating func with<T>(_ body: (amqp_table_t) throws -> T) rethrows -> T {
        let count = Int32(entries.count)
        return try entries.withUnsafeMutableBufferPointer { buffer in
            try body(amqp_table_t(num_entries: count, entries: buffer.baseAddress))
        }
    }

    deinit {
        for string in strings { free(string) }
    }

    private static func copy(_ string: String) -> UnsafeMutablePointer<CChar> {
        guard let copy = strdup(string) else { preconditionFailure("out of memory copying an AMQP table string") }
        return copy
    }
}

/// Reads the entries of a received table (message headers).
enum AMQPTableReader {
    static func read(_ table: amqp_table_t) -> [String: HeaderValue] {
        var result: [String: HeaderValue] = [:]
        guard let entries = table.entries else { return result }
        for index in 0..<Int(table.num_entries) {
            let entry = entries + index
            let key = AMQPCheck.string(entry.pointee.key)
            var number: Int64 = 0
            if cwf_entry_is_bytes(entry) != 0 {
                result[key] = .text(AMQPCheck.string(cwf_entry_bytes(entry)))
            } else if cwf_entry_integer(entry, &number) != 0 {
                result[key] = .int(number)
            }
        }
        return result
    }
}

/// A header value as the consumer sees it.
public enum HeaderValue: Sendable, Equatable {
    case text(String)
    case int(Int64)

    public var text: String? { if case .text(let value) = self { value } else { nil } }
    public var int: Int64? { if case .int(let value) = self { value } else { nil } }
}

/// `amqp_bytes_t` views of Swift data, valid inside the closure.
func withBytes<T>(_ string: String, _ body: (amqp_bytes_t) throws -> T) rethrows -> T {
    var copy = string
    return try copy.withUTF8 { buffer in
        try body(amqp_bytes_t(len: buffer.count, bytes: UnsafeMutableRawPointer(mutating: buffer.baseAddress)))
    }
}

func withBytes<T>(_ data: Data, _ body: (amqp_bytes_t) throws -> T) rethrows -> T {
    try data.withUnsafeBytes { buffer in
        try body(amqp_bytes_t(len: buffer.count, bytes: UnsafeMutableRawPointer(mutating: buffer.baseAddress)))
    }
}
