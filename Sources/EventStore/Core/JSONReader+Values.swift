import Domain
package import Foundation

extension JSONReader {
    /// An integer. Written with a fraction or an exponent it is refused, unless
    /// `acceptingWholeFractions` and it is whole (`2.0`, `1e3`), as another writer may write
    /// any number as a float.
    package mutating func integer(acceptingWholeFractions: Bool = false) throws(Failure) -> Int64 {
        let (range, integral) = try number("an integer")
        guard integral else {
            guard acceptingWholeFractions else { throw Failure(byte: range.lowerBound, reason: "expected an integer, found a fraction or exponent") }
            let token = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            guard let value = Double(token), let whole = Int64(exactly: value) else {
                throw Failure(byte: range.lowerBound, reason: "\(token) is not an integer")
            }
            return whole
        }
        let negative = bytes[range.lowerBound] == UInt8(ascii: "-")
        var value: Int64 = 0
        for position in (negative ? range.lowerBound + 1 : range.lowerBound)..<range.upperBound {
            let digit = Int64(bytes[position] - UInt8(ascii: "0"))
            let (tens, overflow) = value.multipliedReportingOverflow(by: 10)
            let (next, carry) = negative ? tens.subtractingReportingOverflow(digit) : tens.addingReportingOverflow(digit)
            guard !overflow, !carry else { throw Failure(byte: range.lowerBound, reason: "integer out of range") }
            value = next
        }
        return value
    }

    /// An integer that fits an `Int`.
    package mutating func int() throws(Failure) -> Int {
        let value = try integer()
        guard let int = Int(exactly: value) else { throw failure("integer out of range") }
        return int
    }

    /// True, and consumed, when the next value is `null`.
    package mutating func null() -> Bool {
        guard peek() == UInt8(ascii: "n"), holds("null", at: index) else { return false }
        index += 4
        return true
    }

    /// Consumes the next number, `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`; its
    /// bytes, and whether it is written as an integer (no fraction, no exponent).
    mutating func number(_ what: String) throws(Failure) -> (bytes: Range<Int>, integral: Bool) {
        skipWhitespace()
        let start = index
        func digits() -> Int {
            let from = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - from
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integral = index
        guard digits() > 0 else { throw Failure(byte: start, reason: "expected \(what)") }
        if bytes[integral] == UInt8(ascii: "0"), index - integral > 1 { throw Failure(byte: integral, reason: "a number has a leading zero") }
        var whole = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            whole = false
            guard digits() > 0 else { throw failure("a number's fraction has no digits") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            whole = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw failure("a number's exponent has no digits") }
        }
        return (start..<index, whole)
    }

    /// A UUID string, in either case.
    package mutating func uuid() throws(Failure) -> UUID {
        let string = try quoted()
        guard let id = UUID(utf8: UnsafeRawBufferPointer(rebasing: bytes[string.start..<string.end])) else {
            throw Failure(byte: string.start, reason: "expected a UUID")
        }
        return id
    }

    /// An ISO 8601 instant (`2026-11-21T10:00:00Z`, an optional fraction, `Z` or `±hh:mm`) as
    /// whole seconds since 1970 (a fraction is dropped: the store's encoder writes none).
    package mutating func instant() throws(Failure) -> Int64 {
        let string = try quoted()
        guard !string.escaped else { throw Failure(byte: string.start, reason: "expected an ISO 8601 instant") }
        let end = string.end
        var position = string.start
        func digits(_ count: Int) throws(Failure) -> Int64 {
            guard position + count <= end else { throw Failure(byte: position, reason: "expected an ISO 8601 instant") }
            var value: Int64 = 0
            for _ in 0..<count {
                let byte = bytes[position]
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else {
                    throw Failure(byte: position, reason: "expected an ISO 8601 instant")
                }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
                position += 1
            }
            return value
        }
        func separator(_ byte: UInt8) throws(Failure) {
            guard position < end, bytes[position] == byte else { throw Failure(byte: position, reason: "expected an ISO 8601 instant") }
            position += 1
        }
        let year = try digits(4)
        try separator(UInt8(ascii: "-"))
        let month = try digits(2)
        try separator(UInt8(ascii: "-"))
        let day = try digits(2)
        try separator(UInt8(ascii: "T"))
        let hour = try digits(2)
        try separator(UInt8(ascii: ":"))
        let minute = try digits(2)
        try separator(UInt8(ascii: ":"))
        let second = try digits(2)
        guard (1...12).contains(month), day >= 1, day <= CivilDays.daysInMonth(year, month), hour < 24, minute < 60, second < 61 else {
            throw Failure(byte: string.start, reason: "date or time out of range")
        }
        if position < end, bytes[position] == UInt8(ascii: ".") {
            position += 1
            while position < end, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
        }
        var offset: Int64 = 0
        guard position < end else { throw Failure(byte: position, reason: "instant without a time zone") }
        switch bytes[position] {
        case UInt8(ascii: "Z"):
            position += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign: Int64 = bytes[position] == UInt8(ascii: "-") ? -1 : 1
            position += 1
            let hours = try digits(2)
            if position < end, bytes[position] == UInt8(ascii: ":") { position += 1 }
            let minutes = try digits(2)
            offset = sign * (hours * 3_600 + minutes * 60)
        default:
            throw Failure(byte: position, reason: "instant without a time zone")
        }
        guard position == end else { throw Failure(byte: position, reason: "trailing characters after the instant") }
        return CivilDays.days(year, month, day) * 86_400 + hour * 3_600 + minute * 60 + second - offset
    }
}
