public import Foundation

/// The clock port: the one way code outside the domain learns what time it is.
///
/// Domain functions never call it; handlers read it once and pass the instant in, so tests
/// control time by handing in a ``ManualClock``.
public protocol WallClock: Sendable {
    var now: Date { get }
}

/// A clock that only moves when told to; for tests and replays.
public final class ManualClock: WallClock, @unchecked Sendable {
    // The lock makes the mutable instant safe to share; NSLock is enough for a test clock.
    private let lock = NSLock()
    private var instant: Date

    public init(_ start: Date) { instant = start }

    public var now: Date { lock.withLock { instant } }

    public func advance(by interval: TimeInterval) {
        lock.withLock { instant = instant.addingTimeInterval(interval) }
    }

    public func set(_ date: Date) { lock.withLock { instant = date } }
}
