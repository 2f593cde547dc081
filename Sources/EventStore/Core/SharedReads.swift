import Synchronization

/// The global-order reads a process's followers of the log share
/// (``EventFeed/readAllShared(after:limit:)``): the projection runners, the relay and the
/// embedded bus's consumers wake on the same append or beat and ask for the same batch, so one
/// read answers them all ("single flight"), and a batch read recently is answered again from
/// memory. That is safe because a global-order read after a position only ever grows: a later
/// read returns the earlier one's events first, so an earlier (shorter) answer is still a true
/// prefix, and the reader comes back for the rest. A caller must therefore move past what it
/// was given, never ask the same position again for more.
///
/// Each store keeps one and hands it its own unshared read; PostgreSQL's and SQLite's
/// ``EventFeed/readAllShared(after:limit:)`` are this (docs/benchmarks.md, sessions 51 and 64).
public final class SharedReads: Sendable {
    private let recent = Mutex(Recent())

    public init() {}

    /// `readAll`'s events after `position`, up to `limit`: from a read of the same position and
    /// limit that is running or was made recently, or from a new one that later callers join.
    public func read(
        after position: GlobalPosition, limit: Int,
        _ readAll: @escaping @Sendable (GlobalPosition, Int) async throws -> [RecordedEvent]
    ) async throws -> [RecordedEvent] {
        let key = Key(after: position, limit: limit)
        let (read, started) = recent.withLock { recent in
            if let shared = recent.reads[key] { return (shared, false) }
            let read = Task { try await readAll(position, limit) }
            recent.add(key, read)
            return (read, true)
        }
        do {
            // The read runs in its own task: a cancelled reader (a runner at shutdown) cancels
            // it, or it would wait for a connection from a pool that may have stopped.
            let events: [RecordedEvent]
            do {
                events = try await withTaskCancellationHandler {
                    try await read.value
                } onCancel: {
                    read.cancel()
                }
            } catch is CancellationError where !Task.isCancelled {
                // Another reader of it was cancelled (its runner stopped or lost its lease) and
                // took the shared read with it, whoever started it; this one was not: it reads
                // for itself, and a read that was cancelled is not kept.
                if started { recent.withLock { $0.remove(key) } }
                return try await readAll(position, limit)
            }
            // An empty answer is only true for now: the next wake-up must ask the store.
            if events.isEmpty, started { recent.withLock { $0.remove(key) } }
            // One this reader joined may have begun before the append that woke it: nothing
            // there is asked again, or the reader would wait for a ring that already came.
            if events.isEmpty, !started { return try await readAll(position, limit) }
            return events
        } catch {
            if started { recent.withLock { $0.remove(key) } }
            throw error
        }
    }

    /// Whether a read of this position and limit is running or kept (for tests).
    func holds(after position: GlobalPosition, limit: Int) -> Bool {
        recent.withLock { $0.reads[Key(after: position, limit: limit)] != nil }
    }

    struct Key: Hashable {
        let after: GlobalPosition
        let limit: Int
    }

    /// The last reads, oldest first.
    struct Recent: ~Copyable {
        /// Enough for every follower of a process to find the batch the others read.
        static let capacity = 64
        private(set) var reads: [Key: Task<[RecordedEvent], any Error>] = [:]
        private var order: [Key] = []

        mutating func add(_ key: Key, _ read: Task<[RecordedEvent], any Error>) {
            reads[key] = read
            order.append(key)
            while order.count > Self.capacity { reads[order.removeFirst()] = nil }
        }

        mutating func remove(_ key: Key) {
            reads[key] = nil
            order.removeAll { $0 == key }
        }
    }
}
