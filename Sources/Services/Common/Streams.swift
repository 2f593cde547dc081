import Domain
import EventStore
import Foundation

/// Loads an aggregate's stream, folds it, and appends what its decider decides, with the
/// version it read as the expected version; a concurrent writer makes it read and decide again.
struct AggregateStore<Command, State: Sendable, Event: DomainEvent, Failure: Error>: Sendable {
    let store: any EventStore
    let decider: Decider<Command, State, Event, Failure>
    let decode: @Sendable (RecordedEvent) throws -> Event?

    func load(_ stream: StreamName) async throws -> (state: State, version: Int64) {
        let events = try await store.readStream(stream)
        var state = decider.initialState
        for recorded in events {
            if let event = try decode(recorded) { state = decider.evolve(state, event) }
        }
        return (state, events.last?.version ?? 0)
    }
}

/// Turns domain events into store events, each with a fresh id, the instant and the metadata.
enum Events {
    static func new<E: DomainEvent>(_ events: [E], at instant: Date, metadata: EventMetadata) throws -> [NewEvent] {
        try events.map { try NewEvent(eventId: UUID(), event: $0, metadata: metadata, occurredAt: instant) }
    }
}

extension ExpectedVersion {
    /// The expectation for a stream read at `version` (0 = it did not exist).
    static func after(_ version: Int64) -> ExpectedVersion { version == 0 ? .noStream : .exact(version) }
}
