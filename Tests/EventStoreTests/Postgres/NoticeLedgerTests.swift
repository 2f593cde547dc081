import Testing

@testable import EventStore

/// Which appends carry the store's NOTIFY, and what the notifier still has to announce
/// (ADR 0001 §2). Time is given, never read.
@Suite("NoticeLedger: carried and standalone NOTIFYs")
struct NoticeLedgerTests {
    let start = ContinuousClock.now
    func at(_ milliseconds: Int) -> ContinuousClock.Instant { start + .milliseconds(milliseconds) }

    @Test("one append per interval carries the NOTIFY; the ones between do not")
    func one_carrier_per_interval() {
        var ledger = NoticeLedger(interval: .milliseconds(5))
        #expect(ledger.begin(at: at(0)).carry)
        ledger.finish(carried: true, finishedBefore: 0)
        #expect(!ledger.begin(at: at(1)).carry)
        ledger.finish()
        #expect(!ledger.begin(at: at(4)).carry)
        ledger.finish()
        #expect(ledger.begin(at: at(5)).carry)
    }

    @Test("a carrier announces itself and what finished before it began, not what finished while it ran")
    func carrier_coverage() {
        var ledger = NoticeLedger(interval: .milliseconds(5))
        _ = ledger.begin(at: at(0))
        ledger.finish()  // an append that did not carry (say its interval was taken)
        let alone = ledger.begin(at: at(10))
        #expect(alone.carry && alone.finishedBefore == 1)
        ledger.finish(carried: true, finishedBefore: alone.finishedBefore)
        #expect(ledger.covered == 2, "nothing else finished while it ran: it and the one before are announced")

        let overlapped = ledger.begin(at: at(20))
        _ = ledger.begin(at: at(20))
        ledger.finish()  // the other append finished first, and may have committed after the carrier
        ledger.finish(carried: true, finishedBefore: overlapped.finishedBefore)
        #expect(ledger.finished == 4)
        #expect(ledger.covered == 2, "the carrier cannot vouch for an append that finished while it ran")
        #expect(ledger.pending(upTo: 4, at: at(40)) == .sendNow)
    }

    @Test("the notifier waits for a carrier while appends flow, sends at once when none does, and not at all when all is announced")
    func notifier_decisions() {
        var ledger = NoticeLedger(interval: .milliseconds(5))
        let first = ledger.begin(at: at(0))
        ledger.finish(carried: true, finishedBefore: first.finishedBefore)
        #expect(ledger.pending(upTo: 1, at: at(1)) == .none)

        _ = ledger.begin(at: at(2))
        ledger.finish()
        #expect(ledger.pending(upTo: 2, at: at(3)) == .awaitCarrier, "an append began 1 ms ago: the next may carry")
        #expect(ledger.pending(upTo: 2, at: at(12)) == .sendNow, "no append for 10 ms: the trailing one needs the notifier")

        // A transaction's appends never carry: counted when it ends, sent at once when idle.
        ledger.finish()
        #expect(ledger.pending(upTo: 3, at: at(30)) == .sendNow)
        let upTo = ledger.standalone(upTo: 3, at: at(30))
        #expect(upTo == 3)
        ledger.sent(upTo: 3)
        #expect(ledger.pending(upTo: 3, at: at(31)) == .none)
        #expect(ledger.standalone(upTo: 3, at: at(31)) == nil)
        #expect(!ledger.begin(at: at(32)).carry, "a standalone NOTIFY a moment ago: the next append need not carry")
        // Commits right after a notice wait: never two notices within an interval.
        ledger.finish()
        ledger.finish()
        #expect(ledger.pending(upTo: 5, at: at(33)) == .awaitCarrier)
        #expect(ledger.pending(upTo: 5, at: at(40)) == .sendNow)
    }
}
