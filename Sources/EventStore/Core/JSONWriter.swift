package import Foundation

/// Writes an `Encodable` value as `EventJSON.encoder` does (sorted keys, slashes as they are,
/// instants as ``Instants`` writes them, UUIDs in upper case), byte for byte, several times
/// faster: Foundation's encoder boxes every value in a tree of references and formats each UUID
/// with `sprintf`, and encoding events, read-model documents and answers took a tenth of the
/// gateway and of the projections process under a load of bookings (docs/benchmarks.md,
/// session 46). The value's members are gathered per object (to sort them), then written once
/// into one buffer.
///
/// What it does not write as Foundation does (`Data`, `Decimal`, `URL`, 128-bit integers, a
/// value that encodes nothing or values of two kinds, a float that is not finite) throws ``Unsupported``:
/// ``EventJSON/encode(_:)`` then encodes with Foundation's encoder.
package enum JSONWriter {
    package struct Unsupported: Error {
        let what: String
    }

    package static func encode<T: Encodable>(_ value: T) throws -> Data {
        let root = try Node.of(value)
        var out: [UInt8] = []
        out.reserveCapacity(256)
        root.write(to: &out)
        return Data(out)
    }

    /// A value waiting to be written.
    enum Node {
        case string(String)
        case int(Int64)
        case uint(UInt64)
        /// A float as Foundation writes it (its description, without a trailing `.0`).
        case number(String)
        case bool(Bool)
        case null
        case object(ObjectNode)
        case array(ArrayNode)
        /// What a `superEncoder` was given (written once the value is encoded; `{}` when nothing).
        case deferred(NodeEncoder)

        static func of<T: Encodable>(_ value: T) throws -> Node {
            if let special = try special(value) { return special }
            let encoder = NodeEncoder()
            try value.encode(to: encoder)
            guard let node = encoder.node, !encoder.mixed else { throw Unsupported(what: "\(T.self) encodes nothing, or values of two kinds") }
            return node
        }

        /// The types Foundation's encoder writes its own way. Told by their metatypes, which are
        /// compared, not by casts, which run for every nested value (1.4 % of the embedded
        /// process under a load of bookings, docs/benchmarks.md session 67).
        private static func special<T: Encodable>(_ value: T) throws -> Node? {
            if T.self == Date.self, let date = value as? Date { return .string(Instants.format(date)) }
            if T.self == UUID.self, let id = value as? UUID { return .string(id.uppercasedString) }
            if T.self == Data.self || T.self == Decimal.self || T.self == URL.self { throw Unsupported(what: "\(T.self)") }
            return nil
        }

        func write(to out: inout [UInt8]) {
            switch self {
            case .string(let text): JSONWriter.quote(text, to: &out)
            case .int(let value): out.append(contentsOf: String(value).utf8)
            case .uint(let value): out.append(contentsOf: String(value).utf8)
            case .number(let text): out.append(contentsOf: text.utf8)
            case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
            case .null: out.append(contentsOf: "null".utf8)
            case .object(let object): object.write(to: &out)
            case .array(let array):
                out.append(UInt8(ascii: "["))
                for (index, item) in array.items.enumerated() {
                    if index > 0 { out.append(UInt8(ascii: ",")) }
                    item.write(to: &out)
                }
                out.append(UInt8(ascii: "]"))
            case .deferred(let encoder): (encoder.node ?? .object(ObjectNode())).write(to: &out)
            }
        }
    }

    final class ObjectNode {
        var members: [(key: String, value: Node)] = []

        func write(to out: inout [UInt8]) {
            out.append(UInt8(ascii: "{"))
            // Sorted as Foundation sorts them (by their UTF-8); a key set twice keeps its last
            // value, as Foundation's dictionary of members does.
            let sorted = members.enumerated().sorted { a, b in
                if a.element.key == b.element.key { return a.offset < b.offset }
                return a.element.key.utf8.lexicographicallyPrecedes(b.element.key.utf8)
            }
            var first = true
            for (index, entry) in sorted.enumerated() {
                if index + 1 < sorted.count, sorted[index + 1].element.key == entry.element.key { continue }
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                JSONWriter.quote(entry.element.key, to: &out)
                out.append(UInt8(ascii: ":"))
                entry.element.value.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    final class ArrayNode {
        var items: [Node] = []
    }

    /// A JSON string as Foundation writes it: `"` and `\` escaped, control characters as `\b`,
    /// `\t`, `\n`, `\f`, `\r` or `\u00xx`, everything else (slashes, non-ASCII) as it is.
    static func quote(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            // The runs between the bytes to escape go in whole; most strings are one run.
            var run = 0
            for index in bytes.indices {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index]))
                escape(byte, to: &out)
                run = index + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func escape(_ byte: UInt8, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(byte)
        case 0x08: out.append(UInt8(ascii: "b"))
        case 0x09: out.append(UInt8(ascii: "t"))
        case 0x0A: out.append(UInt8(ascii: "n"))
        case 0x0C: out.append(UInt8(ascii: "f"))
        case 0x0D: out.append(UInt8(ascii: "r"))
        default:
            let hex = Array("0123456789abcdef".utf8)
            out.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
        }
    }
}

/// The `Encoder` a value encodes itself into: it leaves one ``JSONWriter/Node``.
final class NodeEncoder: Encoder {
    var node: JSONWriter.Node?
    /// A container of one kind was asked for after a value of another (Foundation traps or
    /// merges): left to Foundation.
    var mixed = false
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object(let object) = node { return KeyedEncodingContainer(KeyedWriter(object: object)) }
        if node != nil { mixed = true }
        let object = JSONWriter.ObjectNode()
        node = .object(object)
        return KeyedEncodingContainer(KeyedWriter(object: object))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array(let array) = node { return UnkeyedWriter(array: array) }
        if node != nil { mixed = true }
        let array = JSONWriter.ArrayNode()
        node = .array(array)
        return UnkeyedWriter(array: array)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleValueWriter(encoder: self) }
}

/// A float as Foundation writes it: its own description (a `Float`'s, not the `Double` it
/// widens to), without a trailing `.0`; one that is not finite is left to Foundation.
private func finite<F: BinaryFloatingPoint & CustomStringConvertible>(_ value: F) throws -> JSONWriter.Node {
    guard value.isFinite else { throw JSONWriter.Unsupported(what: "a float that is not finite") }
    var text = value.description
    if text.hasSuffix(".0") { text.removeLast(2) }
    return .number(text)
}

private struct KeyedWriter<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let object: JSONWriter.ObjectNode
    var codingPath: [any CodingKey] { [] }

    private func set(_ node: JSONWriter.Node, _ key: Key) { object.members.append((key.stringValue, node)) }

    mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { set(try finite(value), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { set(try finite(value), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(.int(Int64(value)), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(.int(Int64(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(.int(Int64(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(.int(Int64(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(.int(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(.uint(UInt64(value)), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(.uint(UInt64(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(.uint(UInt64(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(.uint(UInt64(value)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(.uint(value), key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { set(try .of(value), key) }
    mutating func encode(_ value: Int128, forKey key: Key) throws { throw JSONWriter.Unsupported(what: "Int128") }
    mutating func encode(_ value: UInt128, forKey key: Key) throws { throw JSONWriter.Unsupported(what: "UInt128") }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        // Asked again for the same key: the same object, as Foundation's.
        if let existing = object.members.last(where: { $0.key == key.stringValue }), case .object(let nested) = existing.value {
            return KeyedEncodingContainer(KeyedWriter<NestedKey>(object: nested))
        }
        let nested = JSONWriter.ObjectNode()
        set(.object(nested), key)
        return KeyedEncodingContainer(KeyedWriter<NestedKey>(object: nested))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        if let existing = object.members.last(where: { $0.key == key.stringValue }), case .array(let nested) = existing.value {
            return UnkeyedWriter(array: nested)
        }
        let nested = JSONWriter.ArrayNode()
        set(.array(nested), key)
        return UnkeyedWriter(array: nested)
    }

    mutating func superEncoder() -> any Encoder {
        let encoder = NodeEncoder()
        object.members.append(("super", .deferred(encoder)))
        return encoder
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let encoder = NodeEncoder()
        set(.deferred(encoder), key)
        return encoder
    }
}

private struct UnkeyedWriter: UnkeyedEncodingContainer {
    let array: JSONWriter.ArrayNode
    var codingPath: [any CodingKey] { [] }
    var count: Int { array.items.count }

    private func add(_ node: JSONWriter.Node) { array.items.append(node) }

    mutating func encodeNil() throws { add(.null) }
    mutating func encode(_ value: Bool) throws { add(.bool(value)) }
    mutating func encode(_ value: String) throws { add(.string(value)) }
    mutating func encode(_ value: Double) throws { add(try finite(value)) }
    mutating func encode(_ value: Float) throws { add(try finite(value)) }
    mutating func encode(_ value: Int) throws { add(.int(Int64(value))) }
    mutating func encode(_ value: Int8) throws { add(.int(Int64(value))) }
    mutating func encode(_ value: Int16) throws { add(.int(Int64(value))) }
    mutating func encode(_ value: Int32) throws { add(.int(Int64(value))) }
    mutating func encode(_ value: Int64) throws { add(.int(value)) }
    mutating func encode(_ value: UInt) throws { add(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { add(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt16) throws { add(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt32) throws { add(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt64) throws { add(.uint(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws { add(try .of(value)) }
    mutating func encode(_ value: Int128) throws { throw JSONWriter.Unsupported(what: "Int128") }
    mutating func encode(_ value: UInt128) throws { throw JSONWriter.Unsupported(what: "UInt128") }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = JSONWriter.ObjectNode()
        add(.object(nested))
        return KeyedEncodingContainer(KeyedWriter<NestedKey>(object: nested))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = JSONWriter.ArrayNode()
        add(.array(nested))
        return UnkeyedWriter(array: nested)
    }

    mutating func superEncoder() -> any Encoder {
        let encoder = NodeEncoder()
        add(.deferred(encoder))
        return encoder
    }
}

private struct SingleValueWriter: SingleValueEncodingContainer {
    let encoder: NodeEncoder
    var codingPath: [any CodingKey] { [] }

    private func set(_ node: JSONWriter.Node) throws {
        guard encoder.node == nil else { throw JSONWriter.Unsupported(what: "a single value encoded twice, or after a container") }
        encoder.node = node
    }

    mutating func encodeNil() throws { try set(.null) }
    mutating func encode(_ value: Bool) throws { try set(.bool(value)) }
    mutating func encode(_ value: String) throws { try set(.string(value)) }
    mutating func encode(_ value: Double) throws { try set(try finite(value)) }
    mutating func encode(_ value: Float) throws { try set(try finite(value)) }
    mutating func encode(_ value: Int) throws { try set(.int(Int64(value))) }
    mutating func encode(_ value: Int8) throws { try set(.int(Int64(value))) }
    mutating func encode(_ value: Int16) throws { try set(.int(Int64(value))) }
    mutating func encode(_ value: Int32) throws { try set(.int(Int64(value))) }
    mutating func encode(_ value: Int64) throws { try set(.int(value)) }
    mutating func encode(_ value: UInt) throws { try set(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { try set(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt16) throws { try set(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt32) throws { try set(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt64) throws { try set(.uint(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws { try set(try .of(value)) }
    mutating func encode(_ value: Int128) throws { throw JSONWriter.Unsupported(what: "Int128") }
    mutating func encode(_ value: UInt128) throws { throw JSONWriter.Unsupported(what: "UInt128") }
}
