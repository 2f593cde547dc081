import Domain
import EventStore
import Foundation
import Synchronization

/// Loads an aggregate's stream, folds it, and appends what its decider decides, with the
/// version it read as the expected version; a concurrent writer makes it read and decide again.
struct AggregateStore<Command, State: Sendable, Event: DomainEvent, Failure: Error>: Sendable {
    let store: any EventLog
    let decider: Decider<Command, State, Event, Failure>
    /// Folded states kept between loads (nil: every load folds the whole stream).
    let cache: StateCache?
    let decode: @Sendable (RecordedEvent) throws -> Event?

    init(
        store: any EventLog, decider: Decider<Command, State, Event, Failure>, cache: StateCache? = nil,
        decode: @escaping @Sendable (RecordedEvent) throws -> Event?
    ) {
        self.store = store
        self.decider = decider
        self.cache = cache
        self.decode = decode
    }

    /// The stream's state and version. With a cache, only the events after the cached version
    /// are read and folded: events never change once stored, so a folded prefix stays true.
    /// With `prefetched` events that cover them, nothing is read. With `staleness`, a cached
    /// state that a read found current less than that long ago is answered without a read (a
    /// check that another check made just before, ADR 0005); without it, the store is asked.
    func load(_ stream: StreamName, prefetched: Prefetched? = nil, staleness: Duration? = nil) async throws -> (state: State, version: Int64) {
        if let staleness, let cache, let (state, version) = cache.state(of: stream, as: State.self, confirmedWithin: staleness) {
            return (state, version)
        }
        var (state, version) = cached(stream) ?? (decider.initialState, 0)
        // When the read began: what it finds was the stream's end at least then.
        let asked = ContinuousClock.now
        let events =
            if let ahead = prefetched?.events(of: stream, after: version) { ahead } else {
                try await store.readStream(stream, from: version + 1)
            }
        for recorded in events {
            if let event = try decode(recorded) { state = decider.evolve(state, event) }
        }
        if let last = events.last {
            version = last.version
            cache?.keep(state, version: version, of: stream, confirmed: prefetched == nil ? asked : nil)
        } else if prefetched == nil, version > 0 {
            cache?.confirm(State.self, version: version, of: stream, at: asked)
        }
        return (state, version)
    }

    /// The state and version kept for `stream`, without reading anything (nil when none is).
    func cached(_ stream: StreamName) -> (State, Int64)? {
        cache?.state(of: stream, as: State.self)
    }

    /// What ``load(_:prefetched:)`` of `stream` would read: from the version after the cached one.
    func read(_ stream: StreamName) -> StreamRead {
        StreamRead(stream, from: (cached(stream)?.1 ?? 0) + 1)
    }
}

/// The events of several streams read in one round trip (``EventStore/readStreams(_:)``) ahead
/// of the loads that fold them, as of that read: a load uses them when they cover what it would
/// read itself, and reads the store otherwise.
struct Prefetched: Sendable {
    private let reads: [StreamName: (from: Int64, events: [RecordedEvent])]

    static func read(_ reads: [StreamRead], from store: any EventLog) async throws -> Prefetched {
        let merged = StreamRead.merged(reads)
        let events = try await store.readStreams(merged)
        return Prefetched(reads: Dictionary(uniqueKeysWithValues: merged.map { ($0.stream, ($0.version, events[$0.stream] ?? [])) }))
    }

    /// Whether it holds what `reads` would read: each of their streams, from their version or before.
    func covers(_ asked: [StreamRead]) -> Bool {
        asked.allSatisfy { read in reads[read.stream].map { $0.from <= read.version } ?? false }
    }

    /// The events after `version`, when the read began at or before the one after it.
    func events(of stream: StreamName, after version: Int64) -> [RecordedEvent]? {
        guard let read = reads[stream], read.from <= version + 1 else { return nil }
        return read.events.filter { $0.version > version }
    }
}

/// Folded aggregate states of recently used streams, with the version each was folded to.
///
/// Never for a state that holds personal data in the clear: an erased person's fields must read
/// as erased, and a cached state would still hold them (sealed fields are fine: erasing deletes
/// the key that opens them). Bounded: when full, it starts over.
final class StateCache: Sendable {
    private struct Key: Hashable {
        let stream: StreamName
        let type: ObjectIdentifier
    }

    private struct Entry: @unchecked Sendable {
        // Only ever a `State: Sendable` put in by ``keep(_:version:of:confirmed:)``.
        let state: Any
        let version: Int64
        /// When a read of the store last found `version` to be the stream's end (the read's
        /// start); nil when the state came from elsewhere (a prefetch, an append).
        var confirmed: ContinuousClock.Instant?
    }

    private let entries = Mutex<[Key: Entry]>([:])
    let capacity: Int

    init(capacity: Int = 10_000) {
        self.capacity = capacity
    }

    func state<State: Sendable>(of stream: StreamName, as type: State.Type) -> (State, Int64)? {
        let entry = entries.withLock { $0[Key(stream: stream, type: ObjectIdentifier(type))] }
        guard let entry, let state = entry.state as? State else { return nil }
        return (state, entry.version)
    }

    /// The state kept for `stream` when a read found it current less than `staleness` ago.
    func state<State: Sendable>(of stream: StreamName, as type: State.Type, confirmedWithin staleness: Duration) -> (State, Int64)? {
        let now = ContinuousClock.now
        let entry = entries.withLock { $0[Key(stream: stream, type: ObjectIdentifier(type))] }
        guard let entry, let confirmed = entry.confirmed, now - confirmed < staleness, let state = entry.state as? State else { return nil }
        return (state, entry.version)
    }

    func keep<State: Sendable>(_ state: State, version: Int64, of stream: StreamName, confirmed: ContinuousClock.Instant? = nil) {
        entries.withLock { entries in
            let key = Key(stream: stream, type: ObjectIdentifier(State.self))
            // Another load may have folded further meanwhile: keep the newer one.
            if let current = entries[key], current.version >= version { return }
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = Entry(state: state, version: version, confirmed: confirmed)
        }
    }

    /// A read that began at `instant` found nothing after `version`: the kept state (if it is
    /// still that version) was the stream's end then.
    func confirm<State: Sendable>(_ type: State.Type, version: Int64, of stream: StreamName, at instant: ContinuousClock.Instant) {
        entries.withLock { entries in
            let key = Key(stream: stream, type: ObjectIdentifier(type))
            guard var entry = entries[key], entry.version == version else { return }
            if let confirmed = entry.confirmed, confirmed >= instant { return }
            entry.confirmed = instant
            entries[key] = entry
        }
    }
}

/// Turns domain events into store events, each with a fresh id, the instant and the metadata.
enum Events {
    static func new<E: DomainEvent>(_ events: [E], at instant: Date, metadata: EventMetadata) throws -> [NewEvent] {
        try events.map { try NewEvent(eventId: EventIDs.next(), event: $0, metadata: metadata, occurredAt: instant) }
    }

    /// Like ``new(_:at:metadata:)`` with ids derived from `cause` (an event id, a webhook
    /// notice id) and the position: a reaction decided again for the same cause writes the same
    /// ids, which the store takes once.
    static func derived<E: DomainEvent>(_ events: [E], from cause: String, at instant: Date, metadata: EventMetadata) throws -> [NewEvent] {
        try events.enumerated().map { index, event in
            // The service names the reaction: two services reacting to one cause never collide.
            try NewEvent(eventId: derivedId(metadata.service ?? "", cause, index), event: event, metadata: metadata, occurredAt: instant)
        }
    }

    /// Derived from `cause` when a reaction writes them (see ``derived(_:from:at:metadata:)``),
    /// fresh otherwise.
    static func make<E: DomainEvent>(_ events: [E], cause: String?, at instant: Date, metadata: EventMetadata) throws -> [NewEvent] {
        if let cause { try derived(events, from: cause, at: instant, metadata: metadata) } else { try new(events, at: instant, metadata: metadata) }
    }

    /// A name-based UUID from the parts (``EventIDs/derived(_:)``).
    static func derivedId(_ parts: any CustomStringConvertible...) -> UUID {
        EventIDs.derived(parts.map(\.description))
    }
}

extension ExpectedVersion {
    /// The expectation for a stream read at `version` (0 = it did not exist).
    static func after(_ version: Int64) -> ExpectedVersion { version == 0 ? .noStream : .exact(version) }
}

extension AggregateStore {
    /// Loads the stream, decides `command(state)` and appends the events with the version it
    /// read; a concurrent writer makes it read and decide again (up to 5 times). Returns the
    /// state after the events (unchanged when the decider had nothing to say); what it appended
    /// goes on `receipt`.
    @discardableResult
    func handle(
        _ stream: StreamName, at instant: Date, metadata: EventMetadata, receipt: WriteReceipt?,
        failure: (Failure) -> ServiceError, _ command: (State) throws -> Command
    ) async throws -> State {
        for _ in 1...5 {
            let (state, version) = try await load(stream)
            let events: [Event]
            do {
                events = try decider.decide(try command(state), state)
            } catch let error as Failure {
                throw failure(error)
            }
            guard !events.isEmpty else { return state }
            do {
                try await store.append(
                    to: stream, expected: .after(version), events: try Events.new(events, at: instant, metadata: metadata), receipt: receipt)
                return events.reduce(state, decider.evolve)
            } catch is WrongExpectedVersion {
                // The fifth collision is the caller's 409, not the store's error.
                continue
            }
        }
        throw ServiceError.conflito("conflito_de_versao", "o recurso mudou durante a operação; tente de novo")
    }

    /// The folded state, or a 404 with `mensagem` when the stream does not exist.
    func existing(_ stream: StreamName, naoEncontrado mensagem: String) async throws -> State {
        let (state, version) = try await load(stream)
        guard version > 0 else { throw ServiceError.naoEncontrado(mensagem) }
        return state
    }
}

/// One task at a time per stream in this process: a booking waits for another on the same day
/// of the same space instead of colliding with it in the store, where a collision costs a
/// refused insert, a recovery query and a fresh read. Replicas still race through the store's
/// expected versions; this only orders the requests of one process, first come first served.
final class StreamTurns: Sendable {
    private let waiting = Mutex<[StreamName: [CheckedContinuation<Void, Never>]]>([:])

    init() {}

    /// Runs `body` holding the turn of every stream in `streams` (taken in name order, so two
    /// multi-day bookings cannot wait for each other).
    func withTurn<T>(of streams: [StreamName], _ body: () async throws -> T) async throws -> T {
        let ordered = Set(streams).sorted { $0.rawValue < $1.rawValue }
        for stream in ordered { await take(stream) }
        defer { for stream in ordered.reversed() { hand(stream) } }
        return try await body()
    }

    private func take(_ stream: StreamName) async {
        await withCheckedContinuation { (turn: CheckedContinuation<Void, Never>) in
            let free = waiting.withLock { waiting -> Bool in
                guard waiting[stream] != nil else {
                    waiting[stream] = []
                    return true
                }
                waiting[stream]?.append(turn)
                return false
            }
            if free { turn.resume() }
        }
    }

    private func hand(_ stream: StreamName) {
        let next = waiting.withLock { waiting -> CheckedContinuation<Void, Never>? in
            guard let queue = waiting[stream], let first = queue.first else {
                waiting[stream] = nil
                return nil
            }
            waiting[stream] = Array(queue.dropFirst())
            return first
        }
        next?.resume()
    }
}
