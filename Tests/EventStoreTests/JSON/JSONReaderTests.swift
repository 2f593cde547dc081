import Foundation
import Testing

@testable import EventStore

/// The one JSON reader of the bus's envelopes and analytics' payloads: strict about the syntax
/// it reads and the syntax it skips, and telling where a text goes wrong.
@Suite("JSONReader")
struct JSONReaderTests {
    func read<T, E: Error>(_ text: String, _ body: (inout JSONReader) throws(E) -> T) throws(E) -> T {
        try JSONReader.read(Data(text.utf8), body)
    }

    /// The failure reading `text` with `body`, or nil when it reads.
    func failure(_ text: String, _ body: (inout JSONReader) throws(JSONReader.Failure) -> Void) -> JSONReader.Failure? {
        do {
            try read(text, body)
            return nil
        } catch {
            return error
        }
    }

    /// Skips one value and requires the text to end there.
    func skipWhole(_ reader: inout JSONReader) throws(JSONReader.Failure) {
        try reader.skipValue()
        reader.skipWhitespace()
        guard reader.atEnd else { throw reader.failure("more after the value") }
    }

    @Test("a string reads with its escapes, a surrogate pair as one character")
    func strings_with_escapes() throws {
        #expect(try read(#" "a\"b\\c\/d\b\f\n\r\t\u00e9\u0041" "#) { try $0.string() } == "a\"b\\c/d\u{08}\u{0C}\n\r\té" + "A")
        #expect(try read(#""\ud83d\ude00 ok""#) { try $0.string() } == "😀 ok")
        #expect(try read(#""ação ☕ \u2615""#) { try $0.string() } == "ação ☕ ☕")
        #expect(try read(#""""#) { try $0.string() } == "")
    }

    @Test(
        "a string that is not one is refused, saying why",
        arguments: [
            (#""a\qb""#, "bad escape"), (#""\u12""#, "bad \\u escape"), (#""\u12g4""#, "bad \\u escape"),
            (#""\ud800x""#, "lone surrogate"), (#""\ud800\u0041""#, "lone surrogate"), (#""\udc00""#, "lone surrogate"),
            (#""open"#, "not closed"), (#""open\"#, "not closed"), ("\"tab\there\"", "control character"), ("5", "expected '\"'"),
        ])
    func refused_strings(text: String, reason: String) {
        let failure = failure(text) { reader throws(JSONReader.Failure) in _ = try reader.string() }
        #expect(failure?.reason.contains(reason) == true, "\(String(describing: failure))")
    }

    @Test("a string or an object that is not UTF-8 is refused")
    func not_utf8() {
        let bytes: [UInt8] = [0x22, 0x61, 0xC3, 0x28, 0x22]  // "a" and an invalid two-byte sequence
        #expect(throws: JSONReader.Failure.self) {
            try JSONReader.read(Data(bytes)) { reader throws(JSONReader.Failure) in try reader.string() }
        }
        #expect(throws: JSONReader.Failure.self) {
            try JSONReader.read(Data([0x7B, 0x22, 0x61, 0x22, 0x3A] + bytes + [0x7D])) { reader throws(JSONReader.Failure) in
                try reader.rawObject()
            }
        }
    }

    @Test("integers read exactly, to the ends of Int64")
    func integers() throws {
        for (text, value) in [("0", 0), ("-0", 0), (" 42 ", 42), ("-9223372036854775808", Int64.min), ("9223372036854775807", Int64.max)] {
            #expect(try read(text) { try $0.integer() } == value, "\(text)")
        }
        #expect(try read("2.0") { try $0.integer(acceptingWholeFractions: true) } == 2)
        #expect(try read("1e3") { try $0.integer(acceptingWholeFractions: true) } == 1_000)
    }

    @Test(
        "a number that is not an integer, or not a number, is refused",
        arguments: [
            ("9223372036854775808", "out of range"), ("-9223372036854775809", "out of range"), ("01", "leading zero"),
            ("1.5", "fraction or exponent"), ("1e3", "fraction or exponent"), ("-", "expected an integer"), ("1.", "fraction has no digits"),
            ("1e+", "exponent has no digits"), ("\"1\"", "expected an integer"),
        ])
    func refused_integers(text: String, reason: String) {
        let failure = failure(text) { reader throws(JSONReader.Failure) in _ = try reader.integer() }
        #expect(failure?.reason.contains(reason) == true, "\(String(describing: failure))")
        #expect(self.failure("1.5") { reader throws(JSONReader.Failure) in _ = try reader.integer(acceptingWholeFractions: true) } != nil)
    }

    @Test("a nested value is skipped whole, its syntax checked")
    func nested_skip() throws {
        let text = #"{"a": [1, -2.5e-3, {"b": [true, false, null, "}]\"", {}]}], "c": {"d": {"e": []}}}"#
        try read(text) { reader throws(JSONReader.Failure) in try skipWhole(&reader) }
        var seen: [String] = []
        try read(#"{"x": {"y": [1, {"z": 2}]}, "n": 7}"#) { reader throws(JSONReader.Failure) in
            var first = true
            try reader.openObject()
            while let name = try reader.nextName(&first) {
                seen.append(try reader.text(of: name))
                if reader.matches(name, "n") { #expect(try reader.integer() == 7) } else { try reader.skipValue() }
            }
        }
        #expect(seen == ["x", "n"])
    }

    @Test(
        "a value that is not JSON is refused when skipped",
        arguments: [
            #"{"a": [1}"#, #"[1,]"#, #"{"a" 1}"#, #"{"a": 1,}"#, #"{,"a": 1}"#, "tru", "nul", "+1", ".5", #"{"a": 01}"#, #"["\x"]"#, "[1 2]",
        ])
    func refused_skips(text: String) {
        #expect(failure(text) { reader throws(JSONReader.Failure) in try skipWhole(&reader) } != nil)
    }

    @Test("every truncation of a document is refused")
    func truncated_input() {
        let text = #"{"s": "a\u00e9\ud83d\ude00", "n": [-1.5e+2, 0, true, false, null], "o": {"k": {}}}"#
        #expect(failure(text) { reader throws(JSONReader.Failure) in try skipWhole(&reader) } == nil)
        for count in 0..<text.utf8.count {
            let prefix = String(decoding: text.utf8.prefix(count), as: UTF8.self)
            #expect(failure(prefix) { reader throws(JSONReader.Failure) in try skipWhole(&reader) } != nil, "\(prefix)")
        }
    }

    @Test("nesting deeper than the limit is refused, not a stack overflow")
    func deep_nesting() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(failure(deep) { reader throws(JSONReader.Failure) in try skipWhole(&reader) }?.reason == "nested too deep")
    }

    @Test("a repeated name is refused where names must differ, escapes read, and read in order elsewhere")
    func duplicate_names() throws {
        func uniqueNames(_ text: String) throws(JSONReader.Failure) -> [String] {
            try read(text) { reader throws(JSONReader.Failure) in
                var names: [JSONReader.Quoted] = []
                var texts: [String] = []
                try reader.openObject()
                while let name = try reader.nextUniqueName(&names) {
                    texts.append(try reader.text(of: name))
                    try reader.skipValue()
                }
                return texts
            }
        }
        #expect(try uniqueNames(#"{"a": 1, "b": {"a": 2}, "ab": 3}"#) == ["a", "b", "ab"])
        for (text, byte) in [(#"{"a": 1, "a": 2}"#, 9), (#"{"type": 1, "t\u0079pe": 2}"#, 12)] {
            #expect {
                try uniqueNames(text)
            } throws: { error in
                (error as? JSONReader.Failure)?.reason.hasSuffix("appears twice") == true && (error as? JSONReader.Failure)?.byte == byte
            }
        }
        let last = try read(#"{"a": 1, "a": 2}"#) { reader throws(JSONReader.Failure) in
            var first = true
            var value: Int64 = 0
            try reader.openObject()
            while let name = try reader.nextName(&first) {
                if reader.matches(name, "a") { value = try reader.integer() } else { try reader.skipValue() }
            }
            return value
        }
        #expect(last == 2)
        let escaped = try read(#""t\u0079pe""#) { reader throws(JSONReader.Failure) in
            let name = try reader.quoted()
            return reader.matches(name, "type")
        }
        #expect(escaped)
    }

    @Test("UUIDs read in either case, instants as seconds with their offset")
    func uuids_and_instants() throws {
        let id = try #require(UUID(uuidString: "0193c7a0-1111-7abc-8def-0123456789ab"))
        #expect(try read(#""0193C7A0-1111-7ABC-8DEF-0123456789ab""#) { try $0.uuid() } == id)
        #expect(failure(#""0193c7a0-1111-7abc-8def-0123456789a""#) { reader throws(JSONReader.Failure) in _ = try reader.uuid() } != nil)
        #expect(failure(#""0193c7a0x1111-7abc-8def-0123456789ab""#) { reader throws(JSONReader.Failure) in _ = try reader.uuid() } != nil)
        #expect(try read(#""2026-03-01T12:00:00Z""#) { try $0.instant() } == 1_772_366_400)
        #expect(try read(#""2026-03-01T09:00:00.250-03:00""#) { try $0.instant() } == 1_772_366_400)
        for text in [#""2026-02-29T00:00:00Z""#, #""2026-03-01T12:00:00""#, #""2026-03-01T12:00:00Zx""#, #""2026-03-01 12:00:00Z""#] {
            #expect(failure(text) { reader throws(JSONReader.Failure) in _ = try reader.instant() } != nil, "\(text)")
        }
    }

    @Test("an object comes back as its exact bytes; a failure says its byte")
    func raw_objects_and_positions() throws {
        let text = #"{"data" : { "a": [1, "x"] } , "z": 1}"#
        let raw = try read(text) { reader throws(JSONReader.Failure) in
            var first = true
            try reader.openObject()
            _ = try reader.nextName(&first)
            let range = try reader.rawObject()
            return String(decoding: UnsafeRawBufferPointer(rebasing: reader.bytes[range]), as: UTF8.self)
        }
        #expect(raw == #"{ "a": [1, "x"] }"#)
        #expect(failure(#"{"n": 01}"#) { reader throws(JSONReader.Failure) in try skipWhole(&reader) }?.byte == 6)
        #expect(failure(#"{"n": [1}"#) { reader throws(JSONReader.Failure) in try skipWhole(&reader) }?.byte == 8)
        #expect(failure(#"[1]"#) { reader throws(JSONReader.Failure) in _ = try reader.rawObject() } != nil)
    }
}
