public import EventStore
public import Foundation
public import Logging
import Synchronization

/// Runs one projection: reads the global order from its checkpoint, applies each batch of
/// events and commits the documents with the new checkpoint in one transaction. One active
/// runner per projection among all replicas (a lease); the others wait to take over.
public final class ProjectionRunner: Sendable {
    public let projection: Projection
    let store: any ProjectionStore
    let batchSize: Int
    let logger: Logger
    /// How long a checkpoint may stay unsaved while the batches read bring nothing this
    /// projection reads (``Laziness``).
    let idleCommitInterval: Duration
    /// The position of the last event applied, which ``waitUntil(_:timeout:)`` waits on.
    private let applied = WatchedValue(GlobalPosition.start)
    private let failing = Mutex<Failing?>(nil)
    /// Since when ``run()`` waits for the projection's lease (nil while it holds it).
    private let waitingForLease = Mutex<ContinuousClock.Instant?>(nil)
    /// How it lets batches gather under load (nil: it reads again as soon as it committed).
    let gathering: Gathering?

    /// How a runner under load lets a batch gather: after a pass that read at least `from`
    /// events (of any type: the log is busy), it waits for the process's next ``Beat`` of `wait`
    /// before reading again, so that what arrives meanwhile is applied and committed together
    /// (one transaction, each document written once) instead of in as many small batches as the
    /// runner could turn round, and every runner of the process reads the next batch at the
    /// same moment from the same position: one shared read for all of them (the relay keeps a
    /// beat of its own, 20 ms by default, whose ticks include these). Under
    /// load its read model is then up to `wait` later; a runner that reads fewer events (one
    /// booking now and then) never waits.
    public struct Gathering: Sendable, Equatable {
        public let wait: Duration
        public let from: Int

        public init(wait: Duration, from: Int = 4) {
            self.wait = wait
            self.from = from
        }

        /// The product's: 60 ms, from 4 events (docs/benchmarks.md, session 44: under a load
        /// of bookings it took a fifth of their CPU and a statement each; session 51: on the
        /// beat, a read shared by every runner; session 63: 60 ms rather than 20, since what a
        /// pass costs is paid per pass, and on a slow machine a 20 ms batch held a few bookings).
        public static let underLoad = Gathering(wait: .milliseconds(60))
    }

    /// Why the runner is not following the log now (an event it cannot apply, the store out of
    /// reach…: the last reason), since when and how many attempts in a row failed; nil once a
    /// pass over the log succeeds. Health reports it: a read model that stopped moving is
    /// otherwise only a line in the logs.
    public struct Failing: Sendable, Equatable {
        public let description: String
        public let since: Date
        public let attempts: Int
    }

    /// Not reported by a replica that has waited for the lease for over 2 s: another holds it
    /// and follows, whatever made this one let go.
    public var failure: Failing? {
        if let since = waitingForLease.withLock({ $0 }), ContinuousClock.now - since > .seconds(2) { return nil }
        return failing.withLock { $0 }
    }

    public init(
        _ projection: Projection, store: any ProjectionStore, batchSize: Int = 500, idleCommitInterval: Duration = .milliseconds(100),
        gathering: Gathering? = nil, logger: Logger
    ) {
        self.projection = projection
        self.store = store
        self.batchSize = batchSize
        self.idleCommitInterval = idleCommitInterval
        self.gathering = gathering
        self.logger = logger
    }

    /// The position of the last event this runner has applied: its read model shows every
    /// event up to it (the batches since its last commit held nothing it reads).
    public var position: GlobalPosition { applied.value }

    /// Follows the store until cancelled, holding the projection's lease.
    public func run() async throws {
        while !Task.isCancelled {
            do {
                waitingForLease.withLock { $0 = .now }
                try await store.whileHolding(lease: projection.checkpoint, retryEvery: .seconds(1)) {
                    self.waitingForLease.withLock { $0 = nil }
                    try await self.follow()
                }
            } catch let error as EventStoreError where error.code == .checkpointMoved {
                // A rebuild was swapped in (or a replica wrote after this one lost its lease):
                // nothing of this batch was written; follow again from the checkpoint as it is.
                if Task.isCancelled { return }
                logger.notice(
                    "projection \(projection.name): its checkpoint was moved by another writer (a rebuild swapped in, or a replica); following from it"
                )
            } catch {
                // Only this task's own cancellation stops the runner: a CancellationError from
                // work it shared with another (a read another runner gave up) is retried.
                if Task.isCancelled { return }
                let description = String(describing: error)
                let (before, now) = failing.withLock { failing -> (Failing?, Failing) in
                    let before = failing
                    let now = Failing(description: description, since: before?.since ?? Date(), attempts: (before?.attempts ?? 0) + 1)
                    failing = now
                    return (before, now)
                }
                // 1 s, doubling to 10 s while the failures go on; logged when the reason changes
                // and every 30 attempts, not every second.
                let pause = Duration.seconds(min(10, 1 << min(now.attempts - 1, 4)))
                if before?.description != description || now.attempts % 30 == 0 {
                    logger.error("projection \(projection.name) stopped (attempt \(now.attempts)): \(error); trying again in \(pause)")
                }
                try? await Task.sleep(for: pause)
            }
        }
    }

    /// Holding the lease: the checkpoint is read once (another replica may have moved it),
    /// then kept in memory.
    private func follow() async throws {
        var saved = try await store.checkpointMark(projection.checkpoint)
        var position = saved.position
        // The documents are as of this checkpoint, also when a rebuild brought it back.
        applied.set(position)
        // Dropped with the lease: another holder may have written meanwhile.
        let cache = DocumentCache(collections: projection.collections)
        let lazily = Laziness(interval: idleCommitInterval)
        while !Task.isCancelled {
            let seen = store.changes.generation
            let read: Int
            (read, position, saved) = try await apply(
                after: position, saved: saved, lazily: lazily, target: .live(projection), cache: cache)
            if failing.withLock({ failing in
                defer { failing = nil }
                return failing != nil
            }) {
                logger.notice("projection \(projection.name) follows the log again")
            }
            if saved.position != position, lazily.due {
                // Batches with nothing this projection reads: their checkpoint, now and then.
                saved = try await store.commit([], checkpoint: projection.checkpoint, at: position, from: saved)
                lazily.saved()
            }
            if read == 0 {
                let wait: Duration = saved.position == position ? .milliseconds(500) : idleCommitInterval
                _ = await store.changes.wait(after: seen, timeout: wait)
            } else if let gathering, read >= gathering.from {
                // Also when none of them was of its types: a runner that read again at once
                // would read alone, a few events later than the others.
                try? await Task.sleep(until: Beat.next(gathering.wait), clock: .continuous)
            }
        }
    }

    /// Applies every event readable now; returns how many events it read. For start-up and
    /// tools: never while ``run()`` of the same projection is active anywhere.
    @discardableResult
    public func catchUp() async throws -> Int {
        let checkpoint = try await store.checkpointMark(projection.checkpoint)
        return try await apply(after: checkpoint.position, saved: checkpoint, lazily: nil, target: .live(projection)).read
    }

    /// When a runner that is following the log saves a checkpoint nothing it reads moved.
    final class Laziness {
        let interval: Duration
        private var last = ContinuousClock.now

        init(interval: Duration) { self.interval = interval }

        /// The checkpoint has gone unsaved for the interval.
        var due: Bool { ContinuousClock.now - last >= interval }

        func saved() { last = .now }
    }

    /// Applies the batches readable after `start`, committing each batch's documents with its
    /// checkpoint (fenced on `saved`, the checkpoint's mark as last committed). With `lazily`, a batch
    /// with no event this projection reads is committed only when the checkpoint has gone
    /// unsaved for its interval: otherwise its position is kept in memory (for
    /// ``waitUntil(_:timeout:)``) and saved with the next batch that writes, or by the caller.
    /// Returns the events read, the position applied and the checkpoint's mark as saved.
    private func apply(
        after start: GlobalPosition, saved: CheckpointMark, lazily: Laziness?, target: ProjectionTarget, cache: DocumentCache? = nil,
        progress report: (Int) -> Void = { _ in }
    ) async throws -> (read: Int, position: GlobalPosition, saved: CheckpointMark) {
        var position = start
        var saved = saved
        if target.isLive { applied.update { $0 = max($0, position) } }
        var total = 0
        while true {
            // Following the log (`lazily`), its reads are shared with the process's other
            // followers, and a batch kept from a read a moment ago may be short of what is
            // readable now: the next pass reads on from it. Catching up and rebuilding must stop
            // only where the log ends now, so they ask the store itself.
            let events =
                lazily != nil
                ? try await store.readAllShared(after: position, limit: batchSize) : try await store.readAll(after: position, limit: batchSize)
            guard let last = events.last else { break }
            let batch = ProjectionBatch(store: store, cache: cache, target: target)
            if let histories = projection.histories {
                // Every event this batch applies came before now: each history read now holds
                // what came before each of them.
                let reads = events.lazy.filter { self.projection.reads($0.type) }.flatMap(histories).map { StreamRead($0, from: 1) }
                if !reads.isEmpty { batch.histories = try await store.readStreams(Array(reads)) }
            }
            if let documents = projection.documents {
                try await batch.prefetch(events.lazy.filter { self.projection.reads($0.type) }.flatMap(documents))
            }
            var relevant = false
            for (index, event) in events.enumerated() where projection.reads(event.type) {
                relevant = true
                do {
                    try await projection.apply(event, batch)
                } catch let error as DecodingError {
                    // An event the projection cannot read stops it here (skipping would build
                    // a wrong read model in silence): name it, so an operator can find it.
                    // Other errors (the database, an interrupted rebuild) are not the event's.
                    // What its batch held before it is committed first: the read model stops
                    // at the event, not at the start of the batch it came in (a booking made a
                    // moment before shows, and the timers that read it see it).
                    if index > 0 {
                        let before = ProjectionBatch(store: store, cache: cache, target: target)
                        for earlier in events[..<index] where projection.reads(earlier.type) { try await projection.apply(earlier, before) }
                        let upTo = events[index - 1].position
                        _ = try await store.commit(try before.changes(), checkpoint: target.checkpoint, at: upTo, from: saved)
                        before.keepCommitted()
                        if target.isLive { applied.set(upTo) }
                    }
                    throw ProjectionFailure(projection: projection.name, event: event, underlying: error)
                }
            }
            if relevant || lazily?.due ?? true {
                // Fenced: if another replica took this projection over (a lease lost unnoticed)
                // or a rebuild ran, and wrote the checkpoint meanwhile, this batch is stale and is
                // not written.
                saved = try await store.commit(try batch.changes(), checkpoint: target.checkpoint, at: last.position, from: saved)
                batch.keepCommitted()
                lazily?.saved()
            }
            position = last.position
            if target.isLive {
                applied.set(position)
            }
            total += events.count
            report(total)
            if events.count < batchSize { break }
        }
        return (total, position, saved)
    }

    /// Waits until the runner has committed `target` (read-your-writes); false on timeout.
    public func waitUntil(_ target: GlobalPosition, timeout: Duration) async -> Bool {
        await applied.wait(until: { $0 >= target }, timeout: timeout)
    }

    /// Rebuilds the read model from the first event beside the live one, then swaps it in; returns
    /// the events read. The documents are built under staged names (`<collection>~rebuild`,
    /// checkpoint `<checkpoint>~rebuild`) while the live read model goes on being served and
    /// followed; once the build is at least as far as the live checkpoint, one transaction
    /// replaces the live documents and moves the live checkpoint to where the build stands
    /// (``EventStore/ReadModelStore/promote(_:checkpoint:from:at:)``): nothing the live runner
    /// applied goes missing. Readers see the old read model until then, never a partial one; the
    /// live runner's next commit is refused by the new checkpoint and it follows on from there.
    /// Two rebuilds of one projection take turns (a lease of their own, and the promotion is
    /// fenced on the builder's own mark); a failed one empties its staged documents if it can,
    /// and the next rebuild empties them in any case.
    public func rebuild(progress: @escaping @Sendable (Int) -> Void = { _ in }) async throws -> Int {
        // A number no earlier build had (the checkpoint's tokens may start over in the embedded store).
        let staged = ProjectionTarget.staged(projection, geracao: Int64.random(in: 1...Int64.max))
        return try await store.whileHolding(lease: staged.checkpoint, retryEvery: .seconds(1)) { [self] in
            return try await promote(staged, after: .start, saved: try await staged.reset(in: store), progress: progress).read
        }
    }

    /// Applies the log after `position` to the staged build `staged` (its checkpoint as `saved`
    /// left it) until it has caught up, then swaps it in; again while the live runner has moved
    /// past it meanwhile. Returns the events applied and the live checkpoint's new mark. On a
    /// failure the staged documents are emptied, when the store still answers.
    func promote(
        _ staged: ProjectionTarget, after position: GlobalPosition, saved: CheckpointMark, progress: (Int) -> Void = { _ in }
    ) async throws -> (read: Int, promoted: CheckpointMark) {
        var (position, saved, total) = (position, saved, 0)
        var stalled = 0
        do {
            while true {
                let step = try await apply(after: position, saved: saved, lazily: nil, target: staged) { progress(total + $0) }
                (position, saved) = (step.position, step.saved)
                total += step.read
                do {
                    let promoted = try await store.promote(staged.staging, checkpoint: projection.checkpoint, from: staged.checkpoint, at: saved)
                    logger.info("projection \(projection.name): rebuilt and swapped in at \(promoted.position)")
                    return (total, promoted)
                } catch let error as EventStoreError where error.code == .stagedBehind {
                    // The live runner applied an event after the build's last read: read on. A
                    // live checkpoint past anything readable (set by hand, a log restored from
                    // an older backup) would keep it behind for ever: after ~5 s of reading
                    // nothing, give up naming it.
                    try Task.checkCancellation()
                    stalled = step.read == 0 ? stalled + 1 : 0
                    if stalled >= 50 { throw error }
                    if stalled > 0 { try await Task.sleep(for: .milliseconds(100)) }
                }
            }
        } catch {
            await staged.discard(after: error, in: store)
            throw error
        }
    }
}

/// A projection could not apply an event: which projection, which event, and why.
public struct ProjectionFailure: Error, CustomStringConvertible {
    public let projection: String
    public let position: GlobalPosition
    public let stream: StreamName
    public let type: String
    public let eventId: UUID
    public let underlying: any Error

    init(projection: String, event: RecordedEvent, underlying: any Error) {
        self.projection = projection
        position = event.position
        stream = event.stream
        type = event.type
        eventId = event.eventId
        self.underlying = underlying
    }

    public var description: String {
        "projection \(projection) cannot apply \(type) \(eventId.lowercasedString) (stream \(stream), position \(position)): \(underlying)"
    }
}
