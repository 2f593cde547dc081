import Domain
public import EventStore

/// Which service an event belongs to, and so its routing key `<service>.<EventType>`.
///
/// The service that appended the event names itself in the metadata (`service`); an event
/// without it is routed by its stream's category, mapped to the owning service where the
/// category is not the service's own name.
public enum EventRouting {
    /// The context that owns each stream category, from the event catalogs.
    public static let owners: [String: String] = Catalogos.owners.mapValues(\.rawValue)

    public static func service(of event: RecordedEvent) -> String {
        if let service = event.metadata.service, !service.isEmpty { return service }
        let category = event.stream.category
        return owners[category] ?? category
    }

    public static func routingKey(of event: RecordedEvent) -> String {
        Topology.routingKey(service: service(of: event), eventType: event.type)
    }
}
