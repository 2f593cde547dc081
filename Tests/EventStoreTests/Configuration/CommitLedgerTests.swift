import NIOCore
import Testing

@testable import EventStore

/// ``CommitFrames`` walks PostgreSQL's message headers; ``CommitLedger`` tells from them
/// whether the statement that last answered committed (ADR 0012). No database: the bytes are
/// the protocol's own.
@Suite("The commit ledger: a statement's commit read from the messages that follow it")
struct CommitLedgerTests {
    /// A backend message: its type, a length that counts itself, a body.
    static func message(_ type: Character, _ body: [UInt8] = []) -> [UInt8] {
        let length = UInt32(body.count + 4)
        return [UInt8(ascii: type.unicodeScalars.first ?? "?")]
            + [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + body
    }

    static let dataRow = message("D", [0, 1, 0, 0, 0, 3, 0x31, 0x32, 0x33])
    static let complete = message("C", Array("INSERT 0 1".utf8) + [0])
    static let error = message("E", [UInt8(ascii: "S")] + Array("ERROR".utf8) + [0, 0])
    static let ready = message("Z", [UInt8(ascii: "I")])
    static let notice = message("N", [0])

    static func feed(_ frames: CommitFrames, _ bytes: [UInt8]) {
        frames.walk(ByteBuffer(bytes: bytes))
    }

    @Test("a statement whose ReadyForQuery came in the same read committed; one followed by an ErrorResponse did not")
    func outcome_in_one_read() async {
        let ledger = CommitLedger()
        let frames = CommitFrames(ledger)
        Self.feed(frames, Self.dataRow + Self.complete + Self.ready)
        #expect(await ledger.lastOutcome() == .committed)
        Self.feed(frames, Self.dataRow + Self.complete + Self.error + Self.ready)
        #expect(await ledger.lastOutcome() == .failed)
        // A statement that failed before completing leaves the last outcome as it was.
        Self.feed(frames, Self.dataRow + Self.complete + Self.ready + Self.error + Self.ready)
        #expect(await ledger.lastOutcome() == .committed)
    }

    @Test("messages cut anywhere between reads are walked the same")
    func split_anywhere() async {
        let committed = Self.notice + Self.dataRow + Self.complete + Self.ready
        let failed = Self.dataRow + Self.complete + Self.error + Self.ready
        for bytes in [committed, failed] {
            for cut in 1..<bytes.count {
                let ledger = CommitLedger()
                let frames = CommitFrames(ledger)
                Self.feed(frames, Array(bytes[..<cut]))
                Self.feed(frames, Array(bytes[cut...]))
                #expect(await ledger.lastOutcome() == (bytes == committed ? .committed : .failed), "cut at \(cut)")
                #expect(ledger.counts.completed == 1)
            }
        }
        // Byte by byte.
        let ledger = CommitLedger()
        let frames = CommitFrames(ledger)
        for byte in failed + committed { Self.feed(frames, [byte]) }
        #expect(ledger.counts.completed == 2)
        #expect(await ledger.lastOutcome() == .committed)
    }

    @Test("a ReadyForQuery still on its way is waited for; a close while waiting leaves the outcome unknown")
    func waits_for_ready() async {
        let ledger = CommitLedger()
        let frames = CommitFrames(ledger)
        Self.feed(frames, Self.dataRow + Self.complete)
        let waiting = Task { await ledger.lastOutcome() }
        // The commit's error and then its ReadyForQuery, each in a read of its own.
        Self.feed(frames, Self.error)
        Self.feed(frames, Self.ready)
        #expect(await waiting.value == .failed)

        let closing = CommitLedger()
        let closingFrames = CommitFrames(closing)
        Self.feed(closingFrames, Self.complete)
        let waitingForClose = Task { await closing.lastOutcome() }
        closing.close()
        #expect(await waitingForClose.value == .unknown)
        // Asked after the close: unknown too.
        #expect(await closing.lastOutcome() == .unknown)
    }

    @Test("bytes that are not PostgreSQL's framing leave the outcome unknown, not committed")
    func broken_framing() async {
        let ledger = CommitLedger()
        let frames = CommitFrames(ledger)
        Self.feed(frames, Self.complete + [UInt8(ascii: "Z"), 0, 0, 0, 1])
        #expect(await ledger.lastOutcome() == .unknown)
        // Even where the counts, stopped at the break, would answer for an earlier statement.
        let settled = CommitLedger()
        let settledFrames = CommitFrames(settled)
        Self.feed(settledFrames, Self.complete + Self.ready)
        #expect(await settled.lastOutcome() == .committed)
        Self.feed(settledFrames, [UInt8(ascii: "C"), 0, 0, 0, 2] + Self.complete + Self.ready)
        #expect(await settled.lastOutcome() == .unknown)
    }
}
