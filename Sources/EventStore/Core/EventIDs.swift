import Crypto
public import Foundation

/// Event ids in the layout of RFC 9562's version 7: 48 bits of Unix time in milliseconds, then
/// random bits. Ids made close in time sort close together, so the unique index on `event_id`
/// grows at its right edge instead of touching a random leaf page for every row (with random
/// version-4 ids that index, once larger than the buffer cache, costs a page read per insert).
/// Nothing reads meaning into the time part: an id stays an opaque unique value.
public enum EventIDs {
    /// A fresh id: the current time and 74 bits from the system's random source.
    public static func next(now: Date = Date()) -> UUID {
        var random = SystemRandomNumberGenerator()
        return make(milliseconds: milliseconds(now), randomA: random.next(), randomB: random.next())
    }

    /// A random id (version 4) from the system's random source, for ids that say nothing of when
    /// they were made: a request's, a member's, a plan's, a block's. Foundation's `UUID()` opens,
    /// reads and closes `/dev/urandom` for each one on Linux (three system calls); this is one
    /// `getrandom`.
    public static func random() -> UUID {
        var random = SystemRandomNumberGenerator()
        let high = (random.next() & 0xFFFF_FFFF_FFFF_0FFF) | 0x4000  // version 4
        let low = (random.next() & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000  // RFC variant
        return uuid(high, low)
    }

    /// Milliseconds since the Unix epoch, as the id's time field holds them.
    public static func milliseconds(_ date: Date) -> UInt64 {
        UInt64(max(0, date.timeIntervalSince1970 * 1_000))
    }

    /// Assembles an id from a time and random bits (only 12 bits of `randomA` and 62 of
    /// `randomB` are used); callers with their own source of unique bits use this.
    public static func make(milliseconds: UInt64, randomA: UInt64, randomB: UInt64) -> UUID {
        let time = milliseconds & 0xFFFF_FFFF_FFFF
        let high = (time << 16) | 0x7000 | (randomA & 0x0FFF)  // version 7
        let low = (randomB & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000  // RFC variant
        return uuid(high, low)
    }

    /// A name-based id (version 8 layout) from SHA-256 of the parts joined with `|`: the same
    /// parts give the same id in every process and every run. A reaction's events and a timer's
    /// notice are written under one, so a retry or another replica writes the same event (the
    /// store's idempotent append); a read model that knows the parts finds what was written.
    public static func derived(_ parts: [String]) -> UUID {
        var bytes = Array(SHA256.hash(data: Data(parts.joined(separator: "|").utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }

    private static func uuid(_ high: UInt64, _ low: UInt64) -> UUID {
        let h = high.bigEndian, l = low.bigEndian
        return withUnsafeBytes(of: (h, l)) { raw in
            UUID(
                uuid: (
                    raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7],
                    raw[8], raw[9], raw[10], raw[11], raw[12], raw[13], raw[14], raw[15]
                ))
        }
    }
}
