/// Decides which appends carry the store's `NOTIFY` and when the notifier must send one of its
/// own (ADR 0001 §2).
///
/// A `NOTIFY` inside a write transaction takes a database-wide lock from pre-commit until the
/// commit is flushed, so only one append per ``interval`` carries it (a boolean parameter of
/// the append statement); the others commit without it. A carried `NOTIFY` commits with its
/// append, so it announces that append and every append that had finished before it began.
/// The notifier sends one of its own for appends no carrier announced: at once when no append
/// began and no notice went out within the last interval (nothing is flowing that could carry
/// it), otherwise only if no carrier announced them within two intervals (the trailing appends
/// of a burst, or commits right after a notice).
/// Appends inside a caller's transaction never carry; they count when the transaction ends.
///
/// Appends are counted as they finish (`finished`); ``covered`` is the count known announced.
struct NoticeLedger {
    let interval: Duration
    private(set) var finished: UInt64 = 0
    private(set) var covered: UInt64 = 0
    private var lastNotice: ContinuousClock.Instant?
    private var lastBegin: ContinuousClock.Instant?

    init(interval: Duration) {
        self.interval = interval
    }

    /// An append is about to run: whether it carries the `NOTIFY`, and the count of appends
    /// finished before it began (for ``finish(carried:finishedBefore:)``).
    mutating func begin(at now: ContinuousClock.Instant) -> (carry: Bool, finishedBefore: UInt64) {
        let carry = lastNotice.map { now - $0 >= interval } ?? true
        if carry { lastNotice = now }
        lastBegin = now
        return (carry, finished)
    }

    /// An append (or a transaction) committed or ended. A carrier announces what finished
    /// before it began; itself too when nothing else finished while it ran (otherwise one of
    /// those may have committed after it, and stays for the next notice).
    mutating func finish(carried: Bool = false, finishedBefore: UInt64 = 0) {
        finished += 1
        guard carried else { return }
        covered = max(covered, finishedBefore + 1 == finished ? finished : finishedBefore)
    }

    enum Pending: Equatable {
        /// Carriers announced everything up to the target.
        case none
        /// Appends are flowing: a carrier should announce them within an interval.
        case awaitCarrier
        /// Nothing is flowing that could carry it.
        case sendNow
    }

    /// What the appends finished up to `target` still need. Never two notices within an
    /// interval: a process that only commits transactions (a consumer) would otherwise send one
    /// per commit.
    func pending(upTo target: UInt64, at now: ContinuousClock.Instant) -> Pending {
        guard covered < target else { return .none }
        if let lastBegin, now - lastBegin < interval { return .awaitCarrier }
        if let lastNotice, now - lastNotice < interval { return .awaitCarrier }
        return .sendNow
    }

    /// The notifier is about to send its own `NOTIFY`, which commits after every append
    /// finished so far: returns that count, to pass to ``sent(upTo:)`` once it went out. Nil
    /// when carriers already announced everything up to `target`.
    mutating func standalone(upTo target: UInt64, at now: ContinuousClock.Instant) -> UInt64? {
        guard covered < target else { return nil }
        lastNotice = now
        return finished
    }

    mutating func sent(upTo count: UInt64) {
        covered = max(covered, count)
    }
}
