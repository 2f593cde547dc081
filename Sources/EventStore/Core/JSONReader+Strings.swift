import Domain

extension JSONReader {
    /// The next string value as text, its escapes read.
    package mutating func string() throws(Failure) -> String {
        try text(of: quoted())
    }

    /// The text of a string or a name read from this text: valid UTF-8, escapes read (a
    /// surrogate pair's as one character).
    package func text(of string: Quoted) throws(Failure) -> String {
        let raw = UnsafeRawBufferPointer(rebasing: bytes[string.start..<string.end])
        if !string.escaped {
            if string.ascii { return String(decoding: raw, as: UTF8.self) }
            guard let text = String(validating: raw, as: UTF8.self) else { throw Failure(byte: string.start, reason: "a string is not UTF-8") }
            return text
        }
        // No escape is shorter than what it stands for in UTF-8: the text fits in as many bytes.
        let text = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: raw.count) { output in
            String(validating: UnsafeBufferPointer(rebasing: output[..<unescape(string, into: output)]), as: UTF8.self)
        }
        guard let text else { throw Failure(byte: string.start, reason: "a string is not UTF-8") }
        return text
    }

    /// Consumes the next string, checking it: escapes one of `\"`, `\\`, `\/`, `\b`, `\f`, `\n`,
    /// `\r`, `\t` or `\u` and four hex digits (a high surrogate only with a low one after it), no
    /// control character. Its UTF-8 is checked when its text is read.
    @usableFromInline
    mutating func quoted() throws(Failure) -> Quoted {
        try expect(UInt8(ascii: "\""))
        let start = index
        var escaped = false
        var bits: UInt8 = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return Quoted(start: start, end: index - 1, escaped: escaped, ascii: bits < 0x80)
            case UInt8(ascii: "\\"):
                escaped = true
                try skipEscape()
            case 0..<0x20:
                throw failure("a control character inside a string")
            default:
                bits |= byte
                index += 1
            }
        }
        throw failure("a string is not closed")
    }

    /// Consumes the escape whose backslash is at ``index``, checking it.
    private mutating func skipEscape() throws(Failure) {
        guard index + 1 < bytes.count else { throw failure("a string is not closed") }
        switch bytes[index + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"),
            UInt8(ascii: "r"), UInt8(ascii: "t"):
            index += 2
        case UInt8(ascii: "u"):
            guard let unit = codeUnit(at: index) else { throw failure("bad \\u escape") }
            switch unit {
            case 0xD800...0xDBFF:
                // A high surrogate must be followed by a low one: together one character.
                guard let low = codeUnit(at: index + 6), (0xDC00...0xDFFF).contains(low) else {
                    throw failure("a lone surrogate escape")
                }
                index += 12
            case 0xDC00...0xDFFF:
                throw failure("a lone surrogate escape")
            default:
                index += 6
            }
        default:
            throw failure("bad escape")
        }
    }

    /// The UTF-16 code unit of the `\uXXXX` escape at `position`; nil if there is none.
    private func codeUnit(at position: Int) -> UInt32? {
        guard position + 6 <= bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
            return nil
        }
        var value: UInt32 = 0
        for offset in 2..<6 {
            guard let digit = bytes[position + offset].hexDigitValue else { return nil }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Writes the text of `string`, whose escapes ``quoted()`` checked, into `output`; returns
    /// how many bytes it wrote.
    private func unescape(_ string: Quoted, into output: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var count = 0
        var position = string.start
        while position < string.end {
            let byte = bytes[position]
            guard byte == UInt8(ascii: "\\") else {
                output[count] = byte
                count += 1
                position += 1
                continue
            }
            let code = bytes[position + 1]
            var scalar: UInt32
            switch code {
            case UInt8(ascii: "b"): scalar = 0x08
            case UInt8(ascii: "f"): scalar = 0x0C
            case UInt8(ascii: "n"): scalar = 0x0A
            case UInt8(ascii: "r"): scalar = 0x0D
            case UInt8(ascii: "t"): scalar = 0x09
            case UInt8(ascii: "u"):
                scalar = codeUnit(at: position) ?? 0xFFFD
                if (0xD800...0xDBFF).contains(scalar), let low = codeUnit(at: position + 6) {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    position += 6
                }
                position += 4
            default: scalar = UInt32(code)
            }
            position += 2
            UTF8.encode(Unicode.Scalar(scalar) ?? "\u{FFFD}") { unit in
                output[count] = unit
                count += 1
            }
        }
        return count
    }
}
