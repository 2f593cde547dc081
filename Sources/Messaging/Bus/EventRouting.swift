import Domain
public import EventStore

/// Which service an event belongs to, and so its routing key `<service>.<EventType>`.
///
/// An event a catalog lists belongs to the catalog's context, whoever appended it (pagamentos
/// records a subscription's charge outcome in the subscription's stream; reservas spends
/// credits in the wallet's): consumers bind `Topology.routingKey(kind)`, the same context. Any
/// other event goes by the service that appended it (the metadata's `service`), or else by its
/// stream's category, mapped to the owning service where the category is not its name.
public enum EventRouting {
    /// The context that owns each stream category, from the event catalogs.
    public static let owners: [String: String] = Catalogos.owners.mapValues(\.rawValue)

    public static func service(of event: RecordedEvent) -> String {
        if let kind = Catalogos.kind(event.type) { return kind.context.rawValue }
        if let service = event.metadata.service, !service.isEmpty { return service }
        let category = event.stream.category
        return owners[category] ?? category
    }

    public static func routingKey(of event: RecordedEvent) -> String {
        Topology.routingKey(service: service(of: event), eventType: event.type)
    }
}
