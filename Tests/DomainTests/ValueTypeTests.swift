import Domain
import Foundation
import Testing

@Suite("Money")
struct MoneyTests {
    @Test func arithmetic_in_centavos() {
        #expect(Money(centavos: 150) + Money(centavos: 250) == Money(centavos: 400))
        #expect(Money.reais(10) - Money(centavos: 1) == Money(centavos: 999))
        #expect(Money(centavos: 333) * 3 == Money(centavos: 999))
        #expect((-Money(centavos: 5)).isNegative)
    }

    @Test(arguments: [
        (Int64(10_000), Int64(1_250), Int64(1_250)),  // 12.5 % of R$ 100
        (Int64(999), Int64(5_000), Int64(500)),  // 499.5 rounds half away from zero
        (Int64(-999), Int64(5_000), Int64(-500)),
        (Int64(1), Int64(4_900), Int64(0)),
        (Int64(12_345), Int64(10_000), Int64(12_345)),
        (Int64.max, Int64(5_000), Int64.max / 2 + 1),  // no overflow in the product
        (Int64.max, Int64(20_000), Int64.max),  // clamped, not a crash
        (Int64.min, Int64(20_000), Int64.min),
    ])
    func basis_points_round_half_away_from_zero(centavos: Int64, basisPoints: Int64, expected: Int64) {
        #expect(Money(centavos: centavos).applying(basisPoints: basisPoints) == Money(centavos: expected))
    }

    @Test func allocation_adds_up_exactly() {
        let shares = Money(centavos: 1_000).allocated(into: 3)
        #expect(shares == [Money(centavos: 334), Money(centavos: 333), Money(centavos: 333)])
        #expect(shares.reduce(.zero, +) == Money(centavos: 1_000))
        #expect(Money(centavos: -7).allocated(into: 2).reduce(.zero, +) == Money(centavos: -7))
        #expect(Money(centavos: 5).allocated(into: 0).isEmpty)
    }

    @Test func brazilian_notation() {
        #expect("\(Money(centavos: 123_456))" == "R$ 1.234,56")
        #expect("\(Money(centavos: 5))" == "R$ 0,05")
        #expect("\(Money(centavos: -100_000_000))" == "-R$ 1.000.000,00")
    }

    @Test func json_is_the_bare_integer() throws {
        let data = try JSONEncoder().encode(["total": Money(centavos: 4_990)])
        #expect(String(decoding: data, as: UTF8.self) == #"{"total":4990}"#)
        #expect(try JSONDecoder().decode([String: Money].self, from: data)["total"] == Money(centavos: 4_990))
    }
}

@Suite("TimeRange")
struct TimeRangeTests {
    let nine = Date(timeIntervalSince1970: 1_790_000_000)
    func at(_ hours: Double) -> Date { nine.addingTimeInterval(hours * 3_600) }
    func range(_ from: Double, _ to: Double) throws -> TimeRange { try TimeRange(start: at(from), end: at(to)) }

    @Test func end_must_be_after_start() {
        #expect(throws: TimeRange.Invalid.endNotAfterStart(start: at(1), end: at(1))) { try TimeRange(start: at(1), end: at(1)) }
        #expect(throws: TimeRange.Invalid.self) { try TimeRange(start: at(2), end: at(1)) }
    }

    @Test func half_open_ranges_that_touch_do_not_overlap() throws {
        #expect(try range(0, 2).overlaps(range(2, 3)) == false)
        #expect(try range(0, 2).overlaps(range(1, 3)))
        #expect(try range(0, 4).contains(range(1, 2)))
        #expect(try range(0, 2).contains(at(2)) == false)
        #expect(try range(0, 2).contains(at(0)))
        #expect(try range(0, 2).duration == 7_200)
    }

    @Test func intersection() throws {
        #expect(try range(0, 3).intersection(range(2, 5)) == range(2, 3))
        #expect(try range(0, 2).intersection(range(2, 5)) == nil)
    }

    @Test func decoding_refuses_an_inverted_range() throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let good = try encoder.encode(try range(0, 1))
        #expect(try decoder.decode(TimeRange.self, from: good) == range(0, 1))
        let bad = Data(#"{"inicio":"2026-01-01T10:00:00Z","fim":"2026-01-01T09:00:00Z"}"#.utf8)
        #expect(throws: DecodingError.self) { try decoder.decode(TimeRange.self, from: bad) }
    }
}

@Suite("Typed identifiers")
struct IdentifierTests {
    enum Reserva {}
    enum Espaco {}

    @Test func parse_and_print_in_lower_case() throws {
        let uuid = UUID()
        let id = Identifier<Reserva>(uuid)
        #expect(id.description == uuid.uuidString.lowercased())
        #expect(Identifier<Reserva>(id.description) == id)
        #expect(Identifier<Reserva>("not-a-uuid") == nil)
        let json = try JSONEncoder().encode(id)
        #expect(try JSONDecoder().decode(Identifier<Reserva>.self, from: json) == id)
    }

    @Test func ids_of_different_types_are_different_types() {
        // Compile-time property; at run time the same UUID under two tags is two values.
        let uuid = UUID()
        #expect(type(of: Identifier<Reserva>(uuid)) != type(of: Identifier<Espaco>(uuid)))
    }
}

@Suite("Clock and metadata")
struct ClockTests {
    @Test func manual_clock_moves_only_when_told() {
        let clock = ManualClock(Date(timeIntervalSince1970: 0))
        #expect(clock.now == Date(timeIntervalSince1970: 0))
        clock.advance(by: 90)
        #expect(clock.now == Date(timeIntervalSince1970: 90))
    }

    @Test func caused_metadata_keeps_the_correlation() {
        let correlation = UUID(), cause = UUID()
        let base = EventMetadata(correlationId: correlation, actor: "usuario:1", service: "reservas")
        let next = base.caused(by: cause, correlationId: nil)
        #expect(next.causationId == cause)
        #expect(next.correlationId == correlation)
        #expect(next.actor == "usuario:1")
        #expect(EventMetadata().caused(by: cause, correlationId: nil).correlationId == cause)
    }
}
