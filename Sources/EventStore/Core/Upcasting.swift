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

    func upcast(_ event: RecordedEvent) throws -> RecordedEvent {
        guard !steps.isEmpty else { return event }
        var data = event.data
        var version = event.schemaVersion
        while let step = steps[Key(type: event.type, version: version)] {
            data = try step(data)
            version += 1
        }
        return version == event.schemaVersion ? event : event.replacing(data: data, schemaVersion: version)
    }

    func upcast(_ events: [RecordedEvent]) throws -> [RecordedEvent] {
        guard !steps.isEmpty else { return events }
        return try events.map(upcast)
    }
}
