public import EventStore
import Projections
import Synchronization

/// What a command wrote, for its caller: the last position each stored event type took, from
/// the answers of the command's appends (``AppendResult/types``). The HTTP edge hands one in
/// with the ``Caller`` and reads it once the command returns: a member's next read waits for the
/// read models that project those types up to there, and no further (ADR 0005).
///
/// A command records every append it makes for its caller; one that records nothing leaves the
/// edge to wait for every read model to reach the head, as if it did not know what was written.
public final class WriteReceipt: Sendable {
    private let state = Mutex<(types: [String: GlobalPosition], shared: Bool, replayed: Bool)>(([:], false, false))

    public init() {}

    /// The last position each stored type took; empty while nothing was recorded.
    public var types: [String: GlobalPosition] { state.withLock { $0.types } }

    /// Whether what was written is someone else's to read next (``markShared()``).
    public var shared: Bool { state.withLock { $0.shared } }

    /// Adds what one append wrote.
    public func record(_ result: AppendResult) {
        guard !result.types.isEmpty else { return }
        state.withLock { $0.types.merge(result.types, uniquingKeysWith: max) }
    }

    /// Adds what another receipt recorded (a command made of other commands), and whether it is
    /// someone else's to read; not whether it was replayed.
    public func merge(_ other: WriteReceipt) {
        let (types, shared) = (other.types, other.shared)
        state.withLock { state in
            state.types.merge(types, uniquingKeysWith: max)
            state.shared = state.shared || shared
        }
    }

    /// Whether the command answered with what an earlier request with the same
    /// `Idempotency-Key` made (``markReplayed(_:)``), writing nothing.
    public var replayed: Bool { state.withLock { $0.replayed } }

    /// Says the answer is what an earlier request with the same key made, with its `events`:
    /// their types and positions are recorded as this request's, so that the caller's next
    /// query waits for them as it would have for the first answer.
    public func markReplayed(_ events: [RecordedEvent]) {
        state.withLock { state in
            state.replayed = true
            for event in events { state.types[event.type] = max(state.types[event.type] ?? event.position, event.position) }
        }
    }

    /// Says the write is another member's to read next (a booking made for a colleague): the
    /// edge then answers once the read models have it, as it does for an operator's write,
    /// instead of keeping it for the caller's own next read only.
    public func markShared() {
        state.withLock { $0.shared = true }
    }
}

extension EventLog {
    /// Appends and records what was written on `receipt` (the caller's, when it asked).
    ///
    /// A write to a company's pooled credits (a booking that spends them, a cancellation that
    /// gives them back) is marked shared: its manager and its people read the pool next, not
    /// only the member who wrote.
    @discardableResult
    func append(_ writes: [StreamWrite], receipt: WriteReceipt?) async throws -> AppendResult {
        let result = try await append(writes)
        if let receipt {
            receipt.record(result)
            if writes.contains(where: { StreamNames.empresa(daCarteira: $0.stream) != nil }) { receipt.markShared() }
        }
        return result
    }

    /// Appends to a single stream and records what was written on `receipt`.
    @discardableResult
    func append(to stream: StreamName, expected: ExpectedVersion, events: [NewEvent], receipt: WriteReceipt?) async throws -> AppendResult {
        try await append([StreamWrite(stream: stream, expected: expected, events: events)], receipt: receipt)
    }
}
