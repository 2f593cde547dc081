public import EventStore

/// What a projection runner asks of the store: the feed it follows, the streams a projection
/// may read, the read models it commits to with its checkpoint, and the lease that makes it
/// the only runner of its projection.
public typealias ProjectionStore = EventLog & EventFeed & ReadModelStore & Leases
