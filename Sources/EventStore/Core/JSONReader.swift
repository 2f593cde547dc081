package import Foundation

/// A strict forward-only reader of one JSON text (RFC 8259), in place over its bytes: the bus
/// reads its message envelopes with it, analytics the stored payloads it replays. A caller asks
/// for what it expects next (``nextName(_:)``, ``string()``, ``integer(acceptingWholeFractions:)``,
/// ``uuid()``, ``instant()``, ``rawObject()``) and skips the rest with ``skipValue()``, which
/// checks the syntax of what it skips all the same.
///
/// Nothing is built: no tree, no boxed value, no copy of the text, no allocation but the
/// `String` a caller asks for. `JSONDecoder` builds a tree and boxes every value, and
/// `JSONSerialization` was most of a bus consumer's cost per message; reading in place is
/// several times faster, which a replay of millions of events needs. The bytes must outlive
/// the reader: read inside ``read(_:_:)`` or `withUnsafeBytes`.
package struct JSONReader {
    /// What is wrong, and the byte offset in the text where it is.
    package struct Failure: Error, CustomStringConvertible {
        package let byte: Int
        package let reason: String

        package init(byte: Int, reason: String) {
            self.byte = byte
            self.reason = reason
        }

        package var description: String { "\(reason) at byte \(byte)" }
    }

    /// A string's place in the text, between its quotes; member names are read as these.
    package struct Quoted {
        package let start: Int
        package let end: Int
        /// Whether it holds escapes: then its bytes are not its text (``text(of:)`` is).
        package let escaped: Bool
        /// Whether every byte is ASCII: then they are valid UTF-8 as they stand.
        package let ascii: Bool
    }

    /// How deep objects and arrays may nest.
    static let maximumDepth = 512

    package let bytes: UnsafeRawBufferPointer
    /// The offset of the next byte to read.
    @usableFromInline package internal(set) var index = 0

    package init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// Runs `body` with a reader over the bytes of `data`.
    @inlinable
    package static func read<T, E: Error>(_ data: Data, _ body: (inout JSONReader) throws(E) -> T) throws(E) -> T {
        let result: Result<T, E> = data.withUnsafeBytes { buffer in
            var reader = JSONReader(buffer)
            do throws(E) {
                return .success(try body(&reader))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// A failure at the next byte.
    package func failure(_ reason: String) -> Failure { Failure(byte: index, reason: reason) }

    package var atEnd: Bool { index == bytes.count }

    @inlinable @inline(__always)
    package mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    /// The next significant byte, not consumed; nil at the end.
    @inlinable @inline(__always)
    package mutating func peek() -> UInt8? {
        skipWhitespace()
        return index < bytes.count ? bytes[index] : nil
    }

    /// Consumes `byte` if it is the next significant one.
    @inlinable
    package mutating func take(_ byte: UInt8) -> Bool {
        guard peek() == byte else { return false }
        index += 1
        return true
    }

    /// Consumes `byte`, which must be the next significant one.
    @inlinable
    package mutating func expect(_ byte: UInt8) throws(Failure) {
        guard take(byte) else { throw failure("expected '\(Character(Unicode.Scalar(byte)))'") }
    }

    // MARK: Objects and arrays

    /// Consumes the `{` of an object, whose members ``nextName(_:)`` then reads.
    @inlinable
    package mutating func openObject() throws(Failure) { try expect(UInt8(ascii: "{")) }

    /// The name of the next member of the object being read, positioned at its value (which
    /// the caller reads or skips), or nil once the object's `}` is consumed. `first` says that
    /// no comma is due yet: start it at true after ``openObject()``.
    @inlinable
    package mutating func nextName(_ first: inout Bool) throws(Failure) -> Quoted? {
        guard try next(closing: UInt8(ascii: "}"), &first) else { return nil }
        let name = try quoted()
        try expect(UInt8(ascii: ":"))
        return name
    }

    /// ``nextName(_:)`` in an object whose names must differ (which of two would count is
    /// unclear): `seen` holds the names read so far; start it empty after ``openObject()``.
    package mutating func nextUniqueName(_ seen: inout [Quoted]) throws(Failure) -> Quoted? {
        var first = seen.isEmpty
        guard let name = try nextName(&first) else { return nil }
        if seen.contains(where: { same($0, name) }) {
            throw Failure(byte: name.start - 1, reason: "member '\((try? text(of: name)) ?? "?")' appears twice")
        }
        seen.append(name)
        return name
    }

    /// Whether another element of the array being read follows, or false once its `]` is
    /// consumed. `first` as for ``nextName(_:)``: start it at true after the `[`.
    @inlinable
    package mutating func nextElement(_ first: inout Bool) throws(Failure) -> Bool {
        try next(closing: UInt8(ascii: "]"), &first)
    }

    /// Whether a member or an element follows (its comma consumed), or false once `closing` is.
    @inlinable
    mutating func next(closing: UInt8, _ first: inout Bool) throws(Failure) -> Bool {
        guard let byte = peek() else {
            throw failure(closing == UInt8(ascii: "}") ? "unterminated object" : "unterminated array")
        }
        if byte == closing {
            index += 1
            return false
        }
        if !first { try expect(UInt8(ascii: ",")) }
        first = false
        return true
    }

    /// Whether `name` is `text` (names are compared as text, escapes read).
    @inlinable
    package func matches(_ name: Quoted, _ text: StaticString) -> Bool {
        guard !name.escaped else { return (try? self.text(of: name)) == text.description }
        return name.end - name.start == text.utf8CodeUnitCount && holds(text, at: name.start)
    }

    /// Whether two names read from this text are the same name.
    func same(_ one: Quoted, _ other: Quoted) -> Bool {
        guard !one.escaped, !other.escaped else { return (try? text(of: one)) == (try? text(of: other)) }
        let count = one.end - one.start
        guard other.end - other.start == count else { return false }
        for offset in 0..<count where bytes[one.start + offset] != bytes[other.start + offset] { return false }
        return true
    }

    /// Whether the bytes at `position` are `word`'s.
    @usableFromInline
    func holds(_ word: StaticString, at position: Int) -> Bool {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        return word.withUTF8Buffer { expected in
            for offset in 0..<count where bytes[position + offset] != expected[offset] { return false }
            return true
        }
    }

    // MARK: Skipping

    /// Consumes the next value of any kind, its syntax checked: strings' escapes, numbers'
    /// grammar, literals, and the punctuation and balance of objects and arrays.
    package mutating func skipValue() throws(Failure) { try skipValue(depth: 0) }

    private mutating func skipValue(depth: Int) throws(Failure) {
        guard depth < Self.maximumDepth else { throw failure("nested too deep") }
        guard let byte = peek() else { throw failure("a value is missing at the end") }
        var first = true
        switch byte {
        case UInt8(ascii: "{"):
            index += 1
            while try nextName(&first) != nil { try skipValue(depth: depth + 1) }
        case UInt8(ascii: "["):
            index += 1
            while try nextElement(&first) { try skipValue(depth: depth + 1) }
        case UInt8(ascii: "\""): _ = try quoted()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default: _ = try number("a value")
        }
    }

    /// Consumes the next value of a text whose syntax ``skipValue()`` has checked already: only
    /// where it ends is looked for (strings are not checked again, nor numbers, nor literals).
    package mutating func skipCheckedValue() {
        guard let byte = peek() else { return }
        switch byte {
        case UInt8(ascii: "\""):
            skipCheckedString()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    skipCheckedString()
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 {
                        index += 1
                        return
                    }
                default: break
                }
                index += 1
            }
        default:
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09: return
                default: index += 1
                }
            }
        }
    }

    /// Consumes a checked string from its opening quote: to the quote no backslash escapes.
    private mutating func skipCheckedString() {
        index += 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""):
                index += 1
                return
            default: index += 1
            }
        }
    }

    /// The exact bytes of the next value, which must be an object, its syntax checked and its
    /// bytes valid UTF-8.
    package mutating func rawObject() throws(Failure) -> Range<Int> {
        guard peek() == UInt8(ascii: "{") else { throw failure("expected an object") }
        let start = index
        try skipValue()
        guard isUTF8(start..<index) else { throw Failure(byte: start, reason: "an object is not UTF-8") }
        return start..<index
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        guard holds(word, at: index) else { throw failure("bad literal") }
        index += word.utf8CodeUnitCount
    }

    /// Whether the bytes in `range` are valid UTF-8.
    func isUTF8(_ range: Range<Int>) -> Bool {
        let raw = UnsafeRawBufferPointer(rebasing: bytes[range])
        if raw.allSatisfy({ $0 < 0x80 }) { return true }
        var iterator = raw.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }
}
