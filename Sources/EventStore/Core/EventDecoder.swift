public import Domain
public import Foundation

/// Reads stored JSON (payloads, metadata, read-model documents) to the values Foundation's
/// `JSONDecoder` with ``Instants/decoding`` reads from it, in place over its bytes
/// (``JSONReader``) instead of through the tree of boxed values Foundation's decoder builds
/// first: that decoder was 6–8 % of the embedded process under a load of bookings
/// (docs/benchmarks.md, sessions 67 and 68).
///
/// Whatever the in-place reading does not do as Foundation does, it leaves to Foundation: any
/// failure at all, even one the value's own `init(from:)` catches and gets past, sends the whole
/// text to Foundation's decoder, whose value or error is then the answer. So are left:
/// `Data`, `Decimal`, `URL` and `Float`, a number that is not an integer where one is asked for,
/// a member name with escapes or given twice, an instant not written as ``Instants`` writes it,
/// and every text that is not valid JSON.
public struct EventDecoder: PayloadDecoder {
    /// Foundation's decoder with the store's instants: what decides everything left to it.
    public static let foundation: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = Instants.decoding
        return decoder
    }()

    public init() {}

    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        if let value = Self.inPlace(type, from: data) { return value }
        return try Self.foundation.decode(type, from: data)
    }

    /// `data` read in place to a `T`; nil when anything was left to Foundation.
    static func inPlace<T: Decodable>(_ type: T.Type, from data: Data) -> T? {
        data.withUnsafeBytes { bytes -> T? in
            // The whole text first, as Foundation's scanner reads it all before any value.
            var reader = JSONReader(bytes)
            do throws(JSONReader.Failure) {
                try reader.skipValue()
                reader.skipWhitespace()
            } catch {
                return nil
            }
            guard reader.atEnd, reader.isUTF8(0..<bytes.count) else { return nil }
            reader.index = 0
            reader.skipWhitespace()
            let source = InPlaceSource(bytes)
            let value = try? source.value(T.self, at: reader.index)
            return source.leftToFoundation ? nil : value
        }
    }
}

/// The text being read, its syntax checked whole (containers only look for where their values
/// start), and whether anything was left to Foundation. Lives only inside
/// ``EventDecoder/inPlace(_:from:)``, as the bytes do.
final class InPlaceSource {
    let bytes: UnsafeRawBufferPointer
    /// Set by every failure, caught or not: the answer is then Foundation's.
    private(set) var leftToFoundation = false

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// The error every failure throws, once it has left the text to Foundation.
    func leave(_ what: String) -> DecodingError {
        leftToFoundation = true
        return DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "left to Foundation: \(what)"))
    }

    func reader(at offset: Int) -> JSONReader {
        var reader = JSONReader(bytes)
        reader.index = offset
        return reader
    }

    /// What `body` reads at `offset`; a failure of its leaves the text to Foundation.
    func read<T>(at offset: Int, _ body: (inout JSONReader) throws(JSONReader.Failure) -> T) throws -> T {
        var reader = reader(at: offset)
        do throws(JSONReader.Failure) {
            return try body(&reader)
        } catch {
            throw leave("\(error)")
        }
    }

    func isNull(at offset: Int) -> Bool { bytes[offset] == UInt8(ascii: "n") }

    // MARK: Values

    /// The value at `offset`. Instants and UUIDs are read as Foundation's decoder reads them
    /// (not through their own `init(from:)`), strings without a decoder in between.
    func value<T: Decodable>(_ type: T.Type, at offset: Int) throws -> T {
        if T.self == String.self, let text = try string(at: offset) as? T { return text }
        if T.self == Date.self, let date = try instant(at: offset) as? T { return date }
        if T.self == UUID.self, let id = try uuid(at: offset) as? T { return id }
        if T.self == Data.self || T.self == Decimal.self || T.self == URL.self { throw leave("\(T.self)") }
        return try T(from: InPlaceDecoder(self, at: offset))
    }

    func string(at offset: Int) throws -> String {
        try read(at: offset) { reader throws(JSONReader.Failure) in try reader.string() }
    }

    func bool(at offset: Int) throws -> Bool {
        switch bytes[offset] {
        case UInt8(ascii: "t"): return true
        case UInt8(ascii: "f"): return false
        default: throw leave("not a boolean")
        }
    }

    func integer<I: FixedWidthInteger>(_ type: I.Type, at offset: Int) throws -> I {
        let value = try read(at: offset) { reader throws(JSONReader.Failure) in try reader.integer() }
        guard let exact = I(exactly: value) else { throw leave("\(value) does not fit \(I.self)") }
        return exact
    }

    func double(at offset: Int) throws -> Double {
        let range = try read(at: offset) { reader throws(JSONReader.Failure) in try reader.number("a number").bytes }
        let token = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        guard let value = Double(token), value.isFinite else { throw leave("\(token) as a Double") }
        return value
    }

    func instant(at offset: Int) throws -> Date {
        guard let date = Instants.parse(try string(at: offset)) else { throw leave("an instant Instants does not write") }
        return date
    }

    func uuid(at offset: Int) throws -> UUID {
        try read(at: offset) { reader throws(JSONReader.Failure) in try reader.uuid() }
    }

    // MARK: Objects and arrays

    /// The members of the object at `offset`: their names and where their values start.
    func members(at offset: Int) throws -> InPlaceMembers {
        var reader = reader(at: offset)
        let members = InPlaceMembers()
        var escaped = false
        do throws(JSONReader.Failure) {
            try reader.openObject()
            var first = true
            while let name = try reader.nextName(&first) {
                if name.escaped {
                    escaped = true
                    break
                }
                _ = reader.peek()
                members.append(name, value: reader.index, in: bytes)
                reader.skipCheckedValue()
            }
        } catch {
            throw leave("\(error)")
        }
        guard !escaped else { throw leave("a member name with escapes") }
        guard members.unique(in: bytes) else { throw leave("a member name given twice") }
        return members
    }

    /// Where the elements of the array at `offset` start.
    func elements(at offset: Int) throws -> [Int] {
        var reader = reader(at: offset)
        var elements: [Int] = []
        do throws(JSONReader.Failure) {
            try reader.expect(UInt8(ascii: "["))
            var first = true
            while try reader.nextElement(&first) {
                _ = reader.peek()
                elements.append(reader.index)
                reader.skipCheckedValue()
            }
        } catch {
            throw leave("\(error)")
        }
        return elements
    }
}

/// An object's member names and where their values start, in the text's order.
final class InPlaceMembers {
    private(set) var names: [JSONReader.Quoted] = []
    private(set) var values: [Int] = []
    /// Whether each name sorts after the one before it (by UTF-8, as ``JSONWriter`` writes
    /// them): then no name is there twice, and a name is found by halving.
    private(set) var ascending = true
    /// Where the next lookup starts: members are mostly asked for in their order.
    private var next = 0

    func append(_ name: JSONReader.Quoted, value: Int, in bytes: UnsafeRawBufferPointer) {
        if let last = names.last, ascending, compare(last, name, in: bytes) >= 0 { ascending = false }
        names.append(name)
        values.append(value)
    }

    /// Whether no name is there twice. Names out of order are compared pairwise, up to a
    /// number beyond which the object is left to Foundation.
    func unique(in bytes: UnsafeRawBufferPointer) -> Bool {
        if ascending { return true }
        guard names.count <= 64 else { return false }
        for later in names.indices {
            for earlier in 0..<later where compare(names[earlier], names[later], in: bytes) == 0 { return false }
        }
        return true
    }

    /// Where the value of the member named `key` starts; nil when there is none.
    func value(of key: String, in bytes: UnsafeRawBufferPointer) -> Int? {
        var key = key
        return key.withUTF8 { key -> Int? in
            let wanted = UnsafeRawBufferPointer(key)
            if next < names.count, compare(names[next], wanted, in: bytes) == 0 { return found(next) }
            if ascending {
                var low = 0
                var high = names.count
                while low < high {
                    let middle = (low + high) / 2
                    let order = compare(names[middle], wanted, in: bytes)
                    if order == 0 { return found(middle) }
                    if order < 0 { low = middle + 1 } else { high = middle }
                }
                return nil
            }
            for index in names.indices where compare(names[index], wanted, in: bytes) == 0 { return found(index) }
            return nil
        }
    }

    private func found(_ index: Int) -> Int {
        next = index + 1
        return values[index]
    }

    private func compare(_ one: JSONReader.Quoted, _ other: JSONReader.Quoted, in bytes: UnsafeRawBufferPointer) -> Int {
        compare(one, UnsafeRawBufferPointer(rebasing: bytes[other.start..<other.end]), in: bytes)
    }

    /// The order of a name and some bytes, by their UTF-8: negative, zero or positive.
    private func compare(_ name: JSONReader.Quoted, _ other: UnsafeRawBufferPointer, in bytes: UnsafeRawBufferPointer) -> Int {
        let count = name.end - name.start
        let common = min(count, other.count)
        if common > 0, let base = bytes.baseAddress, let otherBase = other.baseAddress {
            let order = memcmp(base + name.start, otherBase, common)
            if order != 0 { return Int(order) }
        }
        return count - other.count
    }
}

/// The decoder of one value in the text.
final class InPlaceDecoder: Swift.Decoder {
    let source: InPlaceSource
    let offset: Int
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ source: InPlaceSource, at offset: Int) {
        self.source = source
        self.offset = offset
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(InPlaceKeyed<Key>(source: source, members: try source.members(at: offset)))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        InPlaceUnkeyed(source: source, elements: try source.elements(at: offset))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { InPlaceSingle(source: source, offset: offset) }
}

private struct InPlaceKeyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let source: InPlaceSource
    let members: InPlaceMembers
    var codingPath: [any CodingKey] { [] }

    var allKeys: [Key] {
        members.names.compactMap { name in
            Key(stringValue: String(decoding: UnsafeRawBufferPointer(rebasing: source.bytes[name.start..<name.end]), as: UTF8.self))
        }
    }

    func contains(_ key: Key) -> Bool { members.value(of: key.stringValue, in: source.bytes) != nil }

    private func offset(_ key: Key) throws -> Int {
        guard let offset = members.value(of: key.stringValue, in: source.bytes) else { throw source.leave("no member \(key.stringValue)") }
        return offset
    }

    /// Where the value of `key` starts; nil when it is missing or null.
    private func present(_ key: Key) -> Int? {
        guard let offset = members.value(of: key.stringValue, in: source.bytes), !source.isNull(at: offset) else { return nil }
        return offset
    }

    func decodeNil(forKey key: Key) throws -> Bool { source.isNull(at: try offset(key)) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try source.bool(at: try offset(key)) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try source.string(at: try offset(key)) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try source.double(at: try offset(key)) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { throw source.leave("Float") }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try source.integer(type, at: try offset(key)) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try source.integer(type, at: try offset(key)) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try source.integer(type, at: try offset(key)) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try source.integer(type, at: try offset(key)) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try source.integer(type, at: try offset(key)) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try source.integer(type, at: try offset(key)) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try source.integer(type, at: try offset(key)) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try source.integer(type, at: try offset(key)) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try source.integer(type, at: try offset(key)) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try source.integer(type, at: try offset(key)) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try source.value(type, at: try offset(key)) }
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 { throw source.leave("Int128") }
    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { throw source.leave("UInt128") }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let offset = present(key) else { return nil }
        return try source.string(at: offset)
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        guard let offset = present(key) else { return nil }
        return try source.integer(type, at: offset)
    }

    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        guard let offset = present(key) else { return nil }
        return try source.integer(type, at: offset)
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let offset = present(key) else { return nil }
        return try source.bool(at: offset)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let offset = present(key) else { return nil }
        return try source.value(type, at: offset)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        KeyedDecodingContainer(InPlaceKeyed<NestedKey>(source: source, members: try source.members(at: try offset(key))))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        InPlaceUnkeyed(source: source, elements: try source.elements(at: try offset(key)))
    }

    func superDecoder() throws -> any Swift.Decoder { throw source.leave("superDecoder") }
    func superDecoder(forKey key: Key) throws -> any Swift.Decoder { throw source.leave("superDecoder") }
}

private struct InPlaceUnkeyed: UnkeyedDecodingContainer {
    let source: InPlaceSource
    let elements: [Int]
    private(set) var currentIndex = 0
    var codingPath: [any CodingKey] { [] }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    init(source: InPlaceSource, elements: [Int]) {
        self.source = source
        self.elements = elements
    }

    /// The next element's start, consumed once `read` succeeds.
    private mutating func next<T>(_ read: (Int) throws -> T) throws -> T {
        guard !isAtEnd else { throw source.leave("past the end of an array") }
        let value = try read(elements[currentIndex])
        currentIndex += 1
        return value
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { throw source.leave("past the end of an array") }
        guard source.isNull(at: elements[currentIndex]) else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(source.bool) }
    mutating func decode(_ type: String.Type) throws -> String { try next(source.string) }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(source.double) }
    mutating func decode(_ type: Float.Type) throws -> Float { throw source.leave("Float") }
    mutating func decode(_ type: Int.Type) throws -> Int { try next { [source] in try source.integer(type, at: $0) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next { [source] in try source.integer(type, at: $0) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next { [source] in try source.integer(type, at: $0) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next { [source] in try source.integer(type, at: $0) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next { [source] in try source.integer(type, at: $0) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next { [source] in try source.integer(type, at: $0) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next { [source] in try source.integer(type, at: $0) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next { [source] in try source.integer(type, at: $0) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next { [source] in try source.integer(type, at: $0) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next { [source] in try source.integer(type, at: $0) } }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next { [source] in try source.value(type, at: $0) } }
    mutating func decode(_ type: Int128.Type) throws -> Int128 { throw source.leave("Int128") }
    mutating func decode(_ type: UInt128.Type) throws -> UInt128 { throw source.leave("UInt128") }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let source = source
        return try next { KeyedDecodingContainer(InPlaceKeyed<NestedKey>(source: source, members: try source.members(at: $0))) }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let source = source
        return try next { InPlaceUnkeyed(source: source, elements: try source.elements(at: $0)) }
    }

    mutating func superDecoder() throws -> any Swift.Decoder { throw source.leave("superDecoder") }
}

private struct InPlaceSingle: SingleValueDecodingContainer {
    let source: InPlaceSource
    let offset: Int
    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool { source.isNull(at: offset) }
    func decode(_ type: Bool.Type) throws -> Bool { try source.bool(at: offset) }
    func decode(_ type: String.Type) throws -> String { try source.string(at: offset) }
    func decode(_ type: Double.Type) throws -> Double { try source.double(at: offset) }
    func decode(_ type: Float.Type) throws -> Float { throw source.leave("Float") }
    func decode(_ type: Int.Type) throws -> Int { try source.integer(type, at: offset) }
    func decode(_ type: Int8.Type) throws -> Int8 { try source.integer(type, at: offset) }
    func decode(_ type: Int16.Type) throws -> Int16 { try source.integer(type, at: offset) }
    func decode(_ type: Int32.Type) throws -> Int32 { try source.integer(type, at: offset) }
    func decode(_ type: Int64.Type) throws -> Int64 { try source.integer(type, at: offset) }
    func decode(_ type: UInt.Type) throws -> UInt { try source.integer(type, at: offset) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try source.integer(type, at: offset) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try source.integer(type, at: offset) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try source.integer(type, at: offset) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try source.integer(type, at: offset) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try source.value(type, at: offset) }
    func decode(_ type: Int128.Type) throws -> Int128 { throw source.leave("Int128") }
    func decode(_ type: UInt128.Type) throws -> UInt128 { throw source.leave("UInt128") }
}
