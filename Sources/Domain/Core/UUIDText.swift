public import Foundation

/// A UUID's canonical text (`8-4-4-4-12` hex digits) without Foundation's, which formats with
/// `sprintf` and parses with `sscanf` on Linux: under a load of bookings those took a few per cent
/// of a process (docs/benchmarks.md, session 46). Same text, same rules.
extension UUID {
    /// Lower-case canonical text, as ids appear in keys, documents and messages
    /// (`uuidString.lowercased()`).
    public var lowercasedString: String { text(uppercase: false) }

    /// Upper-case canonical text, as Foundation writes it (`uuidString`).
    public var uppercasedString: String { text(uppercase: true) }

    private func text(uppercase: Bool) -> String {
        let digits: StaticString = uppercase ? "0123456789ABCDEF" : "0123456789abcdef"
        return withUnsafeBytes(of: uuid) { bytes in
            digits.withUTF8Buffer { hex in
                String(unsafeUninitializedCapacity: 36) { out in
                    var cursor = 0
                    for index in 0..<16 {
                        if index == 4 || index == 6 || index == 8 || index == 10 {
                            out[cursor] = UInt8(ascii: "-")
                            cursor += 1
                        }
                        out[cursor] = hex[Int(bytes[index] >> 4)]
                        out[cursor + 1] = hex[Int(bytes[index] & 0x0F)]
                        cursor += 2
                    }
                    return 36
                }
            }
        }
    }

    /// Parses canonical text in either case, as `UUID(uuidString:)` does; nil for anything else,
    /// also for what that one's `sscanf` lets through (a space or a sign inside a pair, `-f` read
    /// as F1; anything after a NUL).
    public init?(text: some StringProtocol) {
        guard
            let parsed = text.utf8.withContiguousStorageIfAvailable({ UUID(utf8: UnsafeRawBufferPointer($0)) })
                ?? Array(text.utf8).withUnsafeBytes({ UUID(utf8: $0) })
        else { return nil }
        self = parsed
    }

    /// Parses canonical text in either case from its UTF-8 bytes; nil for anything else.
    public init?(utf8 text: UnsafeRawBufferPointer) {
        guard text.count == 36 else { return nil }
        var raw: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let parsed = withUnsafeMutableBytes(of: &raw) { out -> Bool in
            var position = 0
            for index in 0..<16 {
                if position == 8 || position == 13 || position == 18 || position == 23 {
                    guard text[position] == UInt8(ascii: "-") else { return false }
                    position += 1
                }
                guard let high = text[position].hexDigitValue, let low = text[position + 1].hexDigitValue else { return false }
                out[index] = high << 4 | low
                position += 2
            }
            return true
        }
        guard parsed else { return nil }
        self.init(uuid: raw)
    }
}

extension UInt8 {
    /// The value of an ASCII hex digit, in either case; nil for any other byte.
    public var hexDigitValue: UInt8? {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): self &- UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): self &- UInt8(ascii: "a") &+ 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): self &- UInt8(ascii: "A") &+ 10
        default: nil
        }
    }
}
