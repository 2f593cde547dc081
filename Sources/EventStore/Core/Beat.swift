/// The beat the followers of the log in one process keep under load: the projection runners and
/// the relay wait for its next tick, not for a fixed time after their own pass, so they wake
/// together, at the same position, and one read of the store (``EventFeed/readAllShared(after:limit:)``)
/// serves them all instead of one read each at positions a few milliseconds apart
/// (docs/benchmarks.md, session 51).
public enum Beat {
    /// The process's first use of a beat: every period counts from it.
    private static let epoch = ContinuousClock.now

    /// The first tick after `now` (nil: the clock's now): a whole number of `period`s from the
    /// process's epoch; for an instant before the epoch, the epoch. A period under a
    /// nanosecond has no ticks: `now`.
    public static func next(_ period: Duration, after now: ContinuousClock.Instant? = nil) -> ContinuousClock.Instant {
        // The epoch first: on the process's first call it is set here, and the clock read
        // after it is not before it.
        let start = epoch
        let now = now ?? .now
        let step = nanoseconds(period)
        guard step > 0 else { return now }
        guard now >= start else { return start }
        // In whole nanoseconds, so that a tick given back as `now` is exactly a tick.
        return start + .nanoseconds((nanoseconds(now - start) / step + 1) * step)
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
