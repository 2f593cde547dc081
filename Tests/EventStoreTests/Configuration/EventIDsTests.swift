import EventStore
import Foundation
import Testing

@Suite("Event ids")
struct EventIDsTests {
    @Test func carry_version_7_the_variant_and_the_time() {
        let instant = Date(timeIntervalSince1970: 1_795_000_000.125)
        let id = EventIDs.next(now: instant)
        let bytes = withUnsafeBytes(of: id.uuid) { Array($0) }
        #expect(bytes[6] >> 4 == 7)
        #expect(bytes[8] >> 6 == 0b10)
        let time = bytes[0..<6].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        #expect(time == 1_795_000_000_125)
        #expect(id.uuidString.lowercased().hasPrefix("01a1ee56-5e7d-7"))
    }

    @Test func sort_by_time_and_never_repeat() {
        var seen = Set<UUID>()
        var previousLatest = ""
        for millisecond in 0..<50 {
            let instant = Date(timeIntervalSince1970: (Double(1_795_000_000_000 + millisecond) + 0.5) / 1_000)
            let ids = (0..<200).map { _ in EventIDs.next(now: instant).uuidString.lowercased() }
            // Every id of a later millisecond sorts after every id of an earlier one, as the
            // unique index on event_id sees them.
            #expect(ids.min()! > previousLatest)
            previousLatest = ids.max()!
            for id in ids { seen.insert(UUID(uuidString: id)!) }
        }
        #expect(seen.count == 50 * 200)
    }

    @Test func assemble_only_the_bits_they_are_given() {
        let id = EventIDs.make(milliseconds: 1, randomA: .max, randomB: .max)
        #expect(id.uuidString == "00000000-0001-7FFF-BFFF-FFFFFFFFFFFF")
        let zero = EventIDs.make(milliseconds: 0, randomA: 0, randomB: 0)
        #expect(zero.uuidString == "00000000-0000-7000-8000-000000000000")
    }
}
