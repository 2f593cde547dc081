import Synchronization

/// Group commit of read-model batches (``PostgresEventStore/commit(_:checkpoint:at:from:)``).
///
/// A process's projection runners wake on the same beat, read the log once together and so
/// commit at about the same moment, each its own transaction: a statement, a round trip and a
/// flush of the WAL per runner per beat, whatever the load. Here a commit that arrives while
/// another is in flight waits for it, and every commit that gathered meanwhile goes in the next
/// statement together (``PostgresStatements/CommitReadModelGroup``). Nothing waits on a timer:
/// a commit alone goes at once, as before.
///
/// One caller at a time leads: it runs the statements while others queue; when it is done, it
/// hands the lead to the first one still waiting, which commits everything queued by then. The
/// statements run in a task of their own, so that a leader's cancellation (a runner whose lease
/// was lost) is not every batch's failure. A batch the group could not take (its checkpoint busy
/// in another transaction, or a statement that failed for a reason of one batch's) is committed
/// alone by its own caller, out of the queue: one slow or faulty batch holds up nobody else.
final class ReadModelCommitQueue: Sendable {
    /// A group's answer for one batch: its result, or commit it alone.
    enum Outcome: Sendable {
        case done(Result<CheckpointMark, any Error>)
        case alone
    }

    /// What a waiting commit is told: its outcome, or that it leads the next statement.
    enum Turn: Sendable {
        case done(Outcome)
        case lead
    }

    struct Waiter: Sendable {
        let batch: PostgresStatements.CommitReadModels
        let continuation: CheckedContinuation<Turn, Never>
    }

    private struct State: Sendable {
        var leading = false
        var waiting: [Waiter] = []
    }

    private let state = Mutex(State())
    /// Batches that went in a statement with others (for tests: the gathering happened).
    let gathered = Atomic<Int>(0)

    /// A batch and what waits for its outcome (the leader's own: none).
    typealias Queued<Waiting> = (batch: PostgresStatements.CommitReadModels, waiter: Waiting)

    /// Commits `batch` with whatever queued beside it and answers its outcome (`.alone`: the
    /// caller commits it by itself); `run` commits one group (one statement) and answers each
    /// batch's outcome, in order.
    func commit(
        _ batch: PostgresStatements.CommitReadModels, run: @escaping @Sendable ([PostgresStatements.CommitReadModels]) async -> [Outcome]
    ) async -> Outcome {
        let leads = state.withLock { state in
            if state.leading { return false }
            state.leading = true
            return true
        }
        if !leads {
            let turn = await withCheckedContinuation { continuation in
                let now = state.withLock { state in
                    if state.leading {
                        state.waiting.append(Waiter(batch: batch, continuation: continuation))
                        return false
                    }
                    state.leading = true
                    return true
                }
                if now { continuation.resume(returning: .lead) }
            }
            if case .done(let outcome) = turn { return outcome }
        }
        // Leading: this batch and everything queued, in groups of distinct checkpoints and keys.
        let queued = state.withLock { state in
            defer { state.waiting = [] }
            return state.waiting
        }
        // The leader's batch is first, so in the first group, whose answer replaces this.
        var mine = Outcome.alone
        var pending: [Queued<Waiter?>] = [(batch, nil)] + queued.map { ($0.batch, $0) }
        while !pending.isEmpty {
            let (group, rest) = Self.disjoint(pending)
            pending = rest
            if group.count > 1 { gathered.add(group.count, ordering: .relaxed) }
            let batches = group.map(\.batch)
            let results = await Task { await run(batches) }.value
            for (entry, result) in zip(group, results) {
                if let waiter = entry.waiter {
                    waiter.continuation.resume(returning: .done(result))
                } else {
                    mine = result
                }
            }
        }
        let next = state.withLock { state -> Waiter? in
            guard !state.waiting.isEmpty else {
                state.leading = false
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.continuation.resume(returning: .lead)
        return mine
    }

    /// The first entries that name distinct checkpoints and write distinct documents (one
    /// statement cannot write a row twice), and the rest, in their order.
    static func disjoint<Waiting>(_ entries: [Queued<Waiting>]) -> (group: [Queued<Waiting>], rest: [Queued<Waiting>]) {
        var names: Set<String> = []
        var documents: Set<String> = []
        var group: [Queued<Waiting>] = []
        var rest: [Queued<Waiting>] = []
        for entry in entries {
            let batch = entry.batch
            let keys = batch.documents.written
            if names.contains(batch.checkpoint) || keys.contains(where: documents.contains) {
                rest.append(entry)
            } else {
                names.insert(batch.checkpoint)
                documents.formUnion(keys)
                group.append(entry)
            }
        }
        return (group, rest)
    }
}
