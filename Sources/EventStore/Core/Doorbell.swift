import Synchronization

/// Wakes every waiter when rung; a waiter that missed a ring returns at once.
///
/// Each ring bumps a generation number; ``wait(after:timeout:)`` returns as soon as the
/// generation differs from the one the caller saw, or when the timeout passes, or when the
/// task is cancelled.
public final class Doorbell: Sendable {
    /// The generation; a waiter waits for it to differ from the one it saw.
    private let rung = WatchedValue<UInt64>(0)

    public init() {}

    public var generation: UInt64 { rung.value }

    public func ring() {
        rung.update { $0 &+= 1 }
    }

    /// Waits for a ring after `seen`, at most `timeout` (nil: no limit, only a ring or
    /// cancellation ends it); returns the generation now. A timeout arms no task of its own
    /// (``WatchedValue``: one timer task per bell, whatever the number of waiters and rings).
    @discardableResult
    public func wait(after seen: UInt64, timeout: Duration?) async -> UInt64 {
        _ = await rung.wait(until: { $0 != seen }, timeout: timeout)
        return generation
    }
}
