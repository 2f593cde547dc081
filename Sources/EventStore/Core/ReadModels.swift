public import Foundation

/// One document write of a projection: `doc` nil deletes the row.
public struct ReadModelChange: Sendable, Equatable {
    public let collection: String
    public let key: String
    /// A secondary key lists are filtered by (a user, a unit and day), or nil.
    public let grupo: String?
    /// What lists sort by (then the key): an instant in ISO 8601, a name.
    public let ordem: String
    public let doc: Data?

    public init(collection: String, key: String, grupo: String?, ordem: String = "", doc: Data?) {
        self.collection = collection
        self.key = key
        self.grupo = grupo
        self.ordem = ordem
        self.doc = doc
    }
}

/// Read models: JSON documents in the store's own database (separate table `read_models`),
/// written by projections together with their checkpoint in one transaction, so a projection's
/// effect is exactly once however often it is interrupted.
public protocol ReadModelStore: Sendable {
    func document(_ collection: String, key: String) async throws -> Data?

    /// A page of documents, sorted by `ordem` then key; all of the collection when `grupo` is nil.
    func documents(_ collection: String, grupo: String?, limit: Int, offset: Int) async throws -> [Data]

    func count(_ collection: String, grupo: String?) async throws -> Int

    /// Writes `changes` in order and moves checkpoint `name` to `position`, in one transaction.
    /// With `previous`, only when the checkpoint still stands there (``GlobalPosition/start``:
    /// none saved); otherwise nothing is written and this throws
    /// ``EventStoreError/Code/checkpointMoved``: another reader of the same name (a replica
    /// that took over a lease this one lost) committed meanwhile, and this batch is stale.
    func commit(_ changes: [ReadModelChange], checkpoint name: String, at position: GlobalPosition, from previous: GlobalPosition?) async throws

    /// Empties `collections` and removes checkpoint `name` in one transaction: a rebuild from zero.
    func reset(collections: [String], checkpoint name: String) async throws
}

extension ReadModelStore {
    /// Writes `changes` and moves checkpoint `name` to `position`, wherever it stood.
    public func commit(_ changes: [ReadModelChange], checkpoint name: String, at position: GlobalPosition) async throws {
        try await commit(changes, checkpoint: name, at: position, from: nil)
    }
}
