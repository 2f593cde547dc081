import GRDB
import Synchronization

/// The embedded store's group commit: the appends of concurrent commands that wait for the
/// writer commit together, in one write transaction, each in a savepoint of its own.
///
/// SQLite has one writer. Under load, appends queue for it, and each one alone would pay a
/// transaction: `BEGIN IMMEDIATE` and `COMMIT` (both compiled again by GRDB each time), and a
/// commit that writes the pages it changed to the log. Those are mostly the same pages for the
/// next append (the end of the events table and of its indexes), so appends committed together
/// write each page once. An append's outcome is its own: one that fails (a wrong expected version,
/// a rejected write) rolls back its savepoint only (`Database.savepoint(_:)`), as it would alone;
/// nothing is answered before the commit, and a failed commit fails every append of its transaction.
final class SQLiteAppendQueue: Sendable {
    private struct Waiting: Sendable {
        let writes: [StreamWrite]
        let continuation: CheckedContinuation<AppendResult, any Error>
    }

    private struct State {
        var waiting: [Waiting] = []
        /// A transaction is on its way to the writer and takes everything waiting when it starts.
        var scheduled = false
    }

    private let state = Mutex(State())
    private let database: DatabasePool
    /// Transactions committed, and the appends they carried, by this store (for the tests: the
    /// metric is the process's, shared by every store in it).
    private let tally = Mutex((transactions: 0, appends: 0))

    init(database: DatabasePool) { self.database = database }

    var transactions: (transactions: Int, appends: Int) { tally.withLock { $0 } }

    /// Appends waiting for the writer.
    var waiting: Int { state.withLock { $0.waiting.count } }

    /// Appends `writes` with whatever else is waiting for the writer; answers once committed.
    func append(_ writes: [StreamWrite]) async throws -> AppendResult {
        try await withCheckedThrowingContinuation { continuation in
            let leads = state.withLock { state in
                state.waiting.append(Waiting(writes: writes, continuation: continuation))
                defer { state.scheduled = true }
                return !state.scheduled
            }
            // A task of its own: the caller's cancellation must not drop the others' appends.
            if leads { Task { await self.commitWaiting() } }
        }
    }

    /// Everything waiting; the next append starts a transaction of its own.
    private func takeWaiting() -> [Waiting] {
        state.withLock { state in
            defer {
                state.waiting = []
                state.scheduled = false
            }
            return state.waiting
        }
    }

    /// One write transaction for the appends waiting when the writer takes it.
    private func commitWaiting() async {
        let taken = Mutex<[Waiting]>([])
        let outcome: Result<[Result<AppendResult, any Error>], any Error>
        do {
            outcome = .success(
                try await database.write { db in
                    let batch = self.takeWaiting()
                    taken.withLock { $0 = batch }
                    // One append alone is the transaction: its failure rolls back the transaction.
                    guard batch.count > 1 else { return try batch.map { .success(try SQLiteEventStore.append($0.writes, in: db)) } }
                    return try batch.map { waiting in try db.savepoint { try SQLiteEventStore.append(waiting.writes, in: db) } }
                })
        } catch {
            outcome = .failure(error)
        }
        var answered = taken.withLock { $0 }
        if answered.isEmpty {
            // The transaction failed before it took anything: answer what waits, or it waits forever.
            answered = takeWaiting()
        }
        switch outcome {
        case .success(let results):
            tally.withLock { $0 = ($0.transactions + 1, $0.appends + answered.count) }
            StoreMetrics.appendsPerCommit.record(answered.count)
            for (waiting, result) in zip(answered, results) { waiting.continuation.resume(with: result) }
        case .failure(let error):
            for waiting in answered { waiting.continuation.resume(throwing: error) }
        }
    }
}
