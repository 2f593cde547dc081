import Foundation

/// A strict, allocation-light reader of one JSON text (RFC 8259), for the bus's message
/// bodies: it reads the envelope's fields one by one and hands the event's `data` and
/// `metadata` back as the exact bytes they were sent as, checked but neither parsed into
/// objects nor written out again. (Parsing with `JSONSerialization` and serialising the two
/// objects again was most of a consumer's cost per message.)
struct JSONScanner {
    struct Failure: Error {
        let reason: String
    }

    private let bytes: [UInt8]
    private(set) var index = 0

    init(_ data: Data) {
        bytes = [UInt8](data)
    }

    var atEnd: Bool { index == bytes.count }

    mutating func skipWhitespace() {
        while index < bytes.count, Self.isWhitespace(bytes[index]) { index += 1 }
    }

    /// Skips whitespace, then consumes `byte` if it is next.
    mutating func take(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func expect(_ byte: UInt8, _ what: String) throws(Failure) {
        guard take(byte) else { throw Failure(reason: "expected \(what) at byte \(index)") }
    }

    /// Calls `field` with each member's name, positioned at its value, which `field` must
    /// consume (read or ``skipValue()``). Fails on a repeated name: which would count is unclear.
    mutating func object(_ field: (inout JSONScanner, String) throws(Failure) -> Void) throws(Failure) {
        try expect(UInt8(ascii: "{"), "an object")
        if take(UInt8(ascii: "}")) { return }
        var seen: Set<String> = []
        repeat {
            let name = try string()
            guard seen.insert(name).inserted else { throw Failure(reason: "member '\(name)' appears twice") }
            try expect(UInt8(ascii: ":"), "':' after '\(name)'")
            try field(&self, name)
        } while take(UInt8(ascii: ","))
        try expect(UInt8(ascii: "}"), "',' or '}'")
    }

    /// A string value, unescaped.
    mutating func string() throws(Failure) -> String {
        let range = try stringRange()
        let raw = bytes[range]
        guard raw.contains(UInt8(ascii: "\\")) else {
            guard let text = String(validating: raw, as: UTF8.self) else { throw Failure(reason: "a string is not UTF-8") }
            return text
        }
        // Rare: let Foundation unescape it (the quotes included).
        let quoted = Data(bytes[(range.lowerBound - 1)...range.upperBound])
        guard let text = try? JSONDecoder().decode(String.self, from: quoted) else { throw Failure(reason: "a string has a bad escape") }
        return text
    }

    /// An integer value (a number with a fraction or exponent only when it is whole).
    mutating func integer() throws(Failure) -> Int64 {
        let range = try numberRange()
        let token = String(decoding: bytes[range], as: UTF8.self)
        if let value = Int64(token) { return value }
        if let value = Double(token), let exact = Int64(exactly: value) { return exact }
        throw Failure(reason: "\(token) is not an integer")
    }

    /// The exact bytes of the next value, which must be an object.
    mutating func rawObject() throws(Failure) -> Data {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { throw Failure(reason: "not a JSON object") }
        let start = index
        try skipValue()
        guard String(validating: bytes[start..<index], as: UTF8.self) != nil else { throw Failure(reason: "not UTF-8") }
        return Data(bytes[start..<index])
    }

    /// Consumes the next value of any kind, checking its syntax.
    mutating func skipValue(depth: Int = 0) throws(Failure) {
        guard depth < 512 else { throw Failure(reason: "nested too deep") }
        skipWhitespace()
        guard index < bytes.count else { throw Failure(reason: "a value is missing at the end") }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            index += 1
            if take(UInt8(ascii: "}")) { return }
            repeat {
                _ = try stringRange()
                try expect(UInt8(ascii: ":"), "':'")
                try skipValue(depth: depth + 1)
            } while take(UInt8(ascii: ","))
            try expect(UInt8(ascii: "}"), "',' or '}'")
        case UInt8(ascii: "["):
            index += 1
            if take(UInt8(ascii: "]")) { return }
            repeat { try skipValue(depth: depth + 1) } while take(UInt8(ascii: ","))
            try expect(UInt8(ascii: "]"), "',' or ']'")
        case UInt8(ascii: "\""):
            _ = try stringRange()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default:
            _ = try numberRange()
        }
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count,
            word.withUTF8Buffer({ $0.elementsEqual(bytes[index..<(index + count)]) })
        else { throw Failure(reason: "bad literal at byte \(index)") }
        index += count
    }

    /// The bytes between the quotes of the next string, its escapes checked.
    private mutating func stringRange() throws(Failure) -> Range<Int> {
        try expect(UInt8(ascii: "\""), "a string")
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return start..<(index - 1)
            case UInt8(ascii: "\\"):
                guard index + 1 < bytes.count else { throw Failure(reason: "a string is not closed") }
                switch bytes[index + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    index += 2
                case UInt8(ascii: "u"):
                    guard let unit = hexUnit(at: index) else { throw Failure(reason: "bad \\u escape at byte \(index)") }
                    switch unit {
                    case 0xD800...0xDBFF:
                        // A high surrogate must be followed by a low one: together one character.
                        guard index + 12 <= bytes.count, bytes[index + 6] == UInt8(ascii: "\\"), bytes[index + 7] == UInt8(ascii: "u"),
                            let low = hexUnit(at: index + 6), (0xDC00...0xDFFF).contains(low)
                        else { throw Failure(reason: "a lone surrogate escape at byte \(index)") }
                        index += 12
                    case 0xDC00...0xDFFF:
                        throw Failure(reason: "a lone surrogate escape at byte \(index)")
                    default:
                        index += 6
                    }
                default:
                    throw Failure(reason: "bad escape at byte \(index)")
                }
            case 0..<0x20:
                throw Failure(reason: "a control character inside a string at byte \(index)")
            default:
                index += 1
            }
        }
        throw Failure(reason: "a string is not closed")
    }

    /// The four hex digits of the `\\u` escape at `at`, as a UTF-16 code unit.
    private func hexUnit(at position: Int) -> UInt16? {
        guard position + 6 <= bytes.count, bytes[position + 1] == UInt8(ascii: "u") else { return nil }
        var value: UInt16 = 0
        for byte in bytes[(position + 2)..<(position + 6)] {
            guard Self.isHexDigit(byte) else { return nil }
            let digit = byte <= UInt8(ascii: "9") ? byte - UInt8(ascii: "0") : (byte | 0x20) - UInt8(ascii: "a") + 10
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    /// The bytes of the next number: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func numberRange() throws(Failure) -> Range<Int> {
        skipWhitespace()
        let start = index
        func digits() -> Int {
            let from = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - from
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integral = index
        guard digits() > 0 else { throw Failure(reason: "expected a value at byte \(start)") }
        if bytes[integral] == UInt8(ascii: "0"), index - integral > 1 { throw Failure(reason: "a number has a leading zero") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw Failure(reason: "a number's fraction has no digits") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw Failure(reason: "a number's exponent has no digits") }
        }
        return start..<index
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }
}
