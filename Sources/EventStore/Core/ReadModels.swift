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

    /// The documents of `collection` under `keys`, by key (a key with none is left out), in one
    /// read: a projection's batch asks for what its events will read at once, not one round
    /// trip (or, embedded, one hop to a reader thread) each.
    func documents(_ collection: String, keys: [String]) async throws -> [String: Data]

    /// A page of documents, sorted by `ordem` then key; all of the collection when `grupo` is nil.
    func documents(_ collection: String, grupo: String?, limit: Int, offset: Int) async throws -> [Data]

    func count(_ collection: String, grupo: String?) async throws -> Int

    /// Where checkpoint `name` stands and which write left it there (``CheckpointMark/none``:
    /// never saved). A fenced ``commit(_:checkpoint:at:from:)`` starts from it.
    func checkpointMark(_ name: String) async throws -> CheckpointMark

    /// Writes `changes` in order and moves checkpoint `name` to `position`, in one transaction,
    /// and returns the checkpoint's new mark. With `previous`, only when the checkpoint is still
    /// as that mark left it; otherwise nothing is written and this throws
    /// ``EventStoreError/Code/checkpointMoved``: another reader of the same name (a replica
    /// that took over a lease this one lost, or a rebuild) wrote it meanwhile, and this batch is
    /// stale — also when that write left it at the same position.
    @discardableResult
    func commit(
        _ changes: [ReadModelChange], checkpoint name: String, at position: GlobalPosition, from previous: CheckpointMark?
    ) async throws
        -> CheckpointMark

    /// Empties `collections` and moves checkpoint `name` back to the start, in one transaction:
    /// a rebuild from zero. Returns the checkpoint's new mark, the rebuild's first fence: it is
    /// written (saved if it never was), so a batch fenced on any earlier mark, ``CheckpointMark/none``
    /// included, is refused whatever position the rebuild reaches.
    @discardableResult
    func reset(collections: [String], checkpoint name: String) async throws -> CheckpointMark

    /// Swaps a read model built beside the live one into its place, in one transaction: each
    /// pair's `live` collection is emptied and takes the documents of its `staged` one, and
    /// checkpoint `name` moves to where checkpoint `staged` stands (a new write: a batch fenced
    /// on any earlier mark of `name` is refused, so a runner still following the old documents
    /// starts again from the new checkpoint). Readers see the old documents, then the new ones,
    /// never a mix.
    ///
    /// Only when checkpoint `staged` is still as `mark` (the builder's last commit) left it:
    /// otherwise another builder wrote it (``EventStoreError/Code/checkpointMoved``), or it was
    /// never saved (``EventStoreError/Code/nothingStaged``). Only when the build is at least as
    /// far as the live checkpoint, so that nothing the live runner applied goes missing
    /// (``EventStoreError/Code/stagedBehind``: catch up, then try again). Checkpoint `staged` is
    /// then written back to the start (a new mark, so promoting twice is refused). Returns the
    /// new mark of `name`.
    @discardableResult
    func promote(
        _ collections: [StagedCollection], checkpoint name: String, from staged: String, at mark: CheckpointMark
    ) async throws
        -> CheckpointMark
}

/// A collection built beside the live one (a rebuild), and the live collection it replaces.
public struct StagedCollection: Sendable, Hashable {
    public let staged: String
    public let live: String

    public init(staged: String, live: String) {
        self.staged = staged
        self.live = live
    }
}

extension ReadModelStore {
    /// Writes `changes` and moves checkpoint `name` to `position`, wherever it stood.
    public func commit(_ changes: [ReadModelChange], checkpoint name: String, at position: GlobalPosition) async throws {
        try await commit(changes, checkpoint: name, at: position, from: nil)
    }
}

/// A checkpoint as one write left it: its position and that write's token. Every write of a
/// checkpoint gets a new token, also one that leaves the position where it was: a rebuild that
/// ends exactly where a replica which lost its lease stood must still fence that replica out,
/// which a fence on the position alone would not (it went away and came back: A-B-A).
/// PostgreSQL's token is the writing transaction's id (the row's `xmin`: it recurs only after
/// about four billion transactions); the embedded store counts the checkpoint's writes.
public struct CheckpointMark: Sendable, Hashable, CustomStringConvertible {
    public let position: GlobalPosition
    public let token: Int64

    public init(position: GlobalPosition, token: Int64) {
        self.position = position
        self.token = token
    }

    /// A checkpoint never saved.
    public static let none = CheckpointMark(position: .start, token: 0)

    public var description: String { "\(position) (write \(token))" }
}
