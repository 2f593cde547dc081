import Domain
public import Foundation

/// Turns stored payloads of old schema versions into the current one on read.
///
/// An upcaster takes one event type from version N to N+1; chains run in order, so a
/// version-1 event reaches version 3 through the 1→2 and 2→3 steps.
public struct Upcasters: Sendable {
    public typealias Step = @Sendable (Data) throws -> Data

    private var steps: [Key: Step] = [:]

    private struct Key: Hashable {
        let type: String
        let version: Int
    }

    public init() {}

    /// Registers the step that reads `type` at `version` and returns it at `version + 1`.
    public mutating func register(_ type: String, from version: Int, _ step: @escaping Step) {
        steps[Key(type: type, version: version)] = step
    }

    /// A JSON-object step: edit the decoded object in place.
    public mutating func register(
        _ type: String, from version: Int, editing edit: @escaping @Sendable (inout [String: Any]) throws -> Void
    ) {
        register(type, from: version) { data in
            guard var object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw EventStoreError(.corruptRow, "payload of \(type) v\(version) is not a JSON object")
            }
            try edit(&object)
            return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        }
    }

    public var isEmpty: Bool { steps.isEmpty }

    /// The steps every context's event catalog declares (``Catalogos/upcasts``): what the
    /// stores read with unless told otherwise.
    public static let catalogo: Upcasters = {
        var upcasters = Upcasters()
        for upcast in Catalogos.upcasts { upcasters.register(upcast.type, from: upcast.version, editing: upcast.edit) }
        return upcasters
    }()

    func upcast(_ event: RecordedEvent) throws -> RecordedEvent {
        guard let (data, version) = try upcast(type: event.type, version: event.schemaVersion, data: event.data) else { return event }
        return event.replacing(data: data, schemaVersion: version)
    }

    /// Whether a stored event of `type` at `version` has a step to take.
    private func applies(_ type: String, _ version: Int) -> Bool { steps[Key(type: type, version: version)] != nil }

    /// The events as read when none is of an old shape (the usual case: no copy of the batch).
    func upcast(_ events: [RecordedEvent]) throws -> [RecordedEvent] {
        guard !steps.isEmpty, events.contains(where: { applies($0.type, $0.schemaVersion) }) else { return events }
        return try events.map(upcast)
    }

    func upcast(_ payloads: [EventPayload]) throws -> [EventPayload] {
        guard !steps.isEmpty, payloads.contains(where: { applies($0.type, $0.schemaVersion) }) else { return payloads }
        return try payloads.map { payload in
            guard let (data, version) = try upcast(type: payload.type, version: payload.schemaVersion, data: payload.data) else { return payload }
            return EventPayload(
                position: payload.position, stream: payload.stream, version: payload.version, type: payload.type, schemaVersion: version, data: data)
        }
    }

    /// The payload at the current version, or nil when no step applies.
    public func upcast(type: String, version: Int, data: Data) throws -> (Data, Int)? {
        guard !steps.isEmpty else { return nil }
        var data = data
        var current = version
        while let step = steps[Key(type: type, version: current)] {
            data = try step(data)
            current += 1
        }
        return current == version ? nil : (data, current)
    }
}
