public import EventStore

/// What a service asks of the store: its aggregates' streams, the read models it answers from
/// and the projections' checkpoints it waits on to read its own writes. Services that follow
/// the whole log or forget request keys (usuarios, reservas) name those ports besides.
public typealias ServiceStore = EventLog & Checkpoints & ReadModelStore
