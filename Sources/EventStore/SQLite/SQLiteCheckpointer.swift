import Dispatch
import GRDB
import GRDBSQLite
import Synchronization

/// Checkpoints the write-ahead log mostly on a connection of its own, not in the writer's commits.
///
/// SQLite's automatic checkpoint runs inside the commit that takes the log past 1,000 pages:
/// that commit (an append a member waits for, and every write queued behind it on the one
/// writer) copies the log's pages into the database file and syncs it first. Here the writer's
/// commit only notes the log's length (`sqlite3_wal_hook`, which replaces the automatic
/// checkpoint on that connection); past ``frames`` pages it wakes this checkpointer, which
/// copies the log on its own serial queue with a passive checkpoint (it never waits for readers
/// or the writer, who go on meanwhile). That copy cannot reach the end of a log the writer goes
/// on writing, and a log is used again from its start only once all of it was copied: so the
/// first commit after the copy finishes the checkpoint itself, copying only what was written
/// meanwhile, as SQLite's automatic checkpoint would have copied all of it.
final class SQLiteCheckpointer: Sendable {
    /// The log's length, in pages, that wakes the checkpointer (SQLite's automatic threshold).
    let frames: Int32
    private let connection: DatabaseQueue
    private let queue = DispatchQueue(label: "coworkflow.sqlite.checkpoint")
    private let running = Atomic<Bool>(false)
    /// The checkpointer copied the log since the writer last finished a checkpoint.
    private let copied = Atomic<Bool>(false)
    private let done = Atomic<Int>(0)
    private let finished = Atomic<Int>(0)

    /// Checkpoints completed by the checkpointer (passive ones: each copies what no reader still needs).
    var checkpoints: Int { done.load(ordering: .relaxed) }
    /// Checkpoints the writer finished in a commit, after a copy of the checkpointer's.
    var finishedInCommits: Int { finished.load(ordering: .relaxed) }
    /// A checkpoint is under way.
    var busy: Bool { running.load(ordering: .acquiring) }

    init(path: String, frames: Int32) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        connection = try DatabaseQueue(path: path, configuration: configuration)
        self.frames = frames
    }

    /// Installs the hook on `writer`, the pool's writing connection; ``remove(from:)`` undoes it.
    func install(on writer: Database) {
        sqlite3_wal_hook(writer.sqliteConnection, walHook, Unmanaged.passRetained(self).toOpaque())
    }

    /// The writer's automatic checkpoint again (SQLite's default), releasing this checkpointer.
    func remove(from writer: Database) {
        sqlite3_wal_autocheckpoint(writer.sqliteConnection, frames)
        Unmanaged.passUnretained(self).release()
    }

    /// After each commit of the writer `db`, with the log's length in pages.
    fileprivate func committed(_ length: Int32, on db: OpaquePointer?, name: UnsafePointer<CChar>?) {
        guard length >= frames else {
            // The log started again: what the checkpointer copied is behind it.
            if copied.load(ordering: .relaxed) { copied.store(false, ordering: .relaxed) }
            return
        }
        guard !running.load(ordering: .acquiring) else { return }
        if copied.exchange(false, ordering: .acquiringAndReleasing) {
            // What was written while the checkpointer copied: few pages, copied here so that the
            // next transaction can start the log again.
            sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
            finished.add(1, ordering: .relaxed)
            return
        }
        // Only the writer sets it (its commits are one at a time); the checkpointer clears it.
        running.store(true, ordering: .releasing)
        queue.async { [self] in
            defer { running.store(false, ordering: .releasing) }
            // A failure (the file closing, a checkpoint of another connection) is retried by
            // the next commit past the threshold.
            if (try? connection.writeWithoutTransaction({ try $0.checkpoint(.passive) })) != nil {
                copied.store(true, ordering: .releasing)
                done.add(1, ordering: .relaxed)
            }
        }
    }
}

/// `sqlite3_wal_hook`'s callback: a C function, its context the checkpointer.
private func walHook(_ context: UnsafeMutableRawPointer?, _ db: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ pages: Int32) -> Int32 {
    if let context { Unmanaged<SQLiteCheckpointer>.fromOpaque(context).takeUnretainedValue().committed(pages, on: db, name: name) }
    return SQLITE_OK
}
