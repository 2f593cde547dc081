public import Foundation

/// A half-open interval of instants, `[start, end)`, with `start < end`.
///
/// Two ranges that only touch (`a.end == b.start`) do not overlap: back-to-back bookings fit.
public struct TimeRange: Hashable, Sendable, Codable, CustomStringConvertible {
    public enum Invalid: Error, Equatable, Sendable {
        /// `end` is not after `start`.
        case endNotAfterStart(start: Date, end: Date)
    }

    public let start: Date
    public let end: Date

    public init(start: Date, end: Date) throws(Invalid) {
        guard start < end else { throw .endNotAfterStart(start: start, end: end) }
        self.start = start
        self.end = end
    }

    public var duration: TimeInterval { end.timeIntervalSince(start) }

    public func contains(_ instant: Date) -> Bool { start <= instant && instant < end }

    public func contains(_ other: TimeRange) -> Bool { start <= other.start && other.end <= end }

    public func overlaps(_ other: TimeRange) -> Bool { start < other.end && other.start < end }

    /// The common part of two ranges, or nil when they do not overlap.
    public func intersection(_ other: TimeRange) -> TimeRange? {
        try? TimeRange(start: max(start, other.start), end: min(end, other.end))
    }

    private enum CodingKeys: String, CodingKey { case inicio, fim }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let start = try container.decode(Date.self, forKey: .inicio)
        let end = try container.decode(Date.self, forKey: .fim)
        do {
            try self.init(start: start, end: end)
        } catch {
            throw DecodingError.dataCorruptedError(
                forKey: .fim, in: container, debugDescription: "fim must be after inicio")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(start, forKey: .inicio)
        try container.encode(end, forKey: .fim)
    }

    public var description: String { "[\(start), \(end))" }
}
