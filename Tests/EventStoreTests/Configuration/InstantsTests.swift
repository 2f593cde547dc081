import Foundation
import Testing

@testable import EventStore

@Suite("ISO 8601 instants without a formatter")
struct InstantsTests {
    /// Instants from year 1 to 9999 (the fast paths cover 1600 on), before and after 1970, some with a fraction of a second,
    /// the ends of months and leap days among them (a fixed sequence: the same every run).
    static let instants: [Date] = {
        var dates: [Date] = []
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let first = -62_135_596_800.0, span = 253_402_300_799.0 - first
        for index in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let seconds = (first + Double(state >> 11) / Double(1 << 53) * span).rounded(.down)
            let fraction = [0.0, 0.25, 0.999_999, 0.5][index % 4]
            dates.append(Date(timeIntervalSince1970: seconds + fraction))
        }
        for text in [
            "2024-02-29T23:59:59Z", "2000-02-29T00:00:00Z", "1969-12-31T23:59:59Z", "1970-01-01T00:00:00Z",
            "2026-12-31T23:59:59Z", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "1900-03-01T00:00:00Z",
        ] {
            if let date = try? Date(text, strategy: .iso8601) { dates += [date, date + 0.5, date - 0.5] }
        }
        return dates
    }()

    @Test("written as Foundation's .iso8601 strategy writes them, and read back as it reads them")
    func same_as_foundation() throws {
        let foundation = JSONEncoder()
        foundation.dateEncodingStrategy = .iso8601
        let ours = JSONEncoder()
        ours.dateEncodingStrategy = Instants.encoding
        let foundationReader = JSONDecoder()
        foundationReader.dateDecodingStrategy = .iso8601
        let ourReader = JSONDecoder()
        ourReader.dateDecodingStrategy = Instants.decoding
        var differences: [String] = []
        for date in Self.instants {
            let expected = try foundation.encode([date]), written = try ours.encode([date])
            if expected != written {
                differences.append(
                    "\(date.timeIntervalSince1970): \(String(decoding: written, as: UTF8.self)) ≠ \(String(decoding: expected, as: UTF8.self))")
                continue
            }
            let read = try ourReader.decode([Date].self, from: written)
            if read != (try foundationReader.decode([Date].self, from: expected)) {
                differences.append("\(String(decoding: written, as: UTF8.self)) read as \(read)")
            }
            // From 1600 on (Foundation's calendar is Julian before 1582), the fast path read it.
            let text = Instants.format(date)
            if date.timeIntervalSince1970 >= Instants.first, Instants.parse(text)?.timeIntervalSince1970 != date.timeIntervalSince1970.rounded(.down)
            {
                differences.append("\(text) not read by the fast path")
            }
        }
        #expect(differences.isEmpty, "\(differences.prefix(5))")
    }

    @Test("other shapes are left to Foundation: offsets read as it reads them; dates that do not exist and bad text are refused")
    func other_shapes() throws {
        let reader = JSONDecoder()
        reader.dateDecodingStrategy = Instants.decoding
        let foundation = JSONDecoder()
        foundation.dateDecodingStrategy = .iso8601
        for text in ["2026-11-21T12:00:00+01:00", "2026-11-21T12:00:00-03:00", "2026-11-21T12:00:00+00:00"] {
            #expect(Instants.parse(text) == nil)
            let json = Data("[\"\(text)\"]".utf8)
            #expect(try reader.decode([Date].self, from: json) == (try foundation.decode([Date].self, from: json)))
        }
        for text in [
            "2026-13-01T00:00:00Z", "2026-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-11-21T24:00:00Z", "2026-11-21 12:00:00Z",
            "2026-11-21T12:00:00.5Z", "amanhã",
        ] {
            #expect(Instants.parse(text) == nil, "\(text)")
        }
        #expect(Instants.parse("2028-02-29T00:00:00Z") != nil)
        #expect(Instants.parse("1500-01-01T00:00:00Z") == nil, "Julian in Foundation: left to it")
        #expect(throws: DecodingError.self) { try reader.decode([Date].self, from: Data("[\"amanhã\"]".utf8)) }
        // The bus's bodies carry fractions of a second (up to nine digits).
        #expect(Instants.parse("2026-11-21T12:00:00.5Z", fraction: true) == Date(timeIntervalSince1970: 1_795_262_400.5))
        #expect(Instants.parse("2026-11-21T12:00:00.1234567891Z", fraction: true) == nil)
        #expect(Instants.parse("2026-11-21T12:00:00.Z", fraction: true) == nil)
    }
}
