public import EventStore
public import Foundation

/// A read model: a fold of some event types into documents of its collections.
///
/// `apply` sees each event once per rebuild, in global order, and writes through the batch;
/// the runner commits the batch's writes with its checkpoint in one transaction.
public struct Projection: Sendable {
    public let name: String
    /// The collections it owns (replaced whole by a rebuild).
    public let collections: [String]
    /// The stored event types it reads; the others are skipped without being decoded.
    public let types: Set<String>
    /// It reads every event, whatever its type (an index over the whole log).
    public let todos: Bool
    /// Whether a request that wrote waits for it before answering (read-your-writes): true
    /// for what the caller reads back; false for an index whose readers take the log's tail
    /// after its checkpoint themselves.
    public let esperada: Bool
    /// The streams whose history ``apply`` reads (``ProjectionBatch/history(_:)``) for an
    /// event, told from its type and stream alone (nothing decoded): the runner reads those of
    /// a whole batch in one query before applying it, instead of one round trip per event,
    /// each queued behind the other runners' for a connection. Only for a projection that
    /// folds the events of such a history that come before the one it applies: the history it
    /// is handed is the stream as it was when the batch began. Nil: none.
    public let histories: (@Sendable (RecordedEvent) -> [StreamName])?
    /// The documents of its own collections ``apply`` will get for an event, as far as they
    /// can be told without decoding its payload: the runner reads those of a whole batch that
    /// neither the batch nor its cache holds in one query per collection (a runner that just
    /// took its lease over starts with no cache, and would otherwise ask once per event). A
    /// document named and not asked for costs only its read. Nil: none.
    public let documents: (@Sendable (RecordedEvent) -> [(collection: String, key: String)])?
    public let apply: @Sendable (RecordedEvent, ProjectionBatch) async throws -> Void

    public init(
        name: String, collections: [String], types: Set<String>, todos: Bool = false, esperada: Bool = true,
        histories: (@Sendable (RecordedEvent) -> [StreamName])? = nil,
        documents: (@Sendable (RecordedEvent) -> [(collection: String, key: String)])? = nil,
        apply: @escaping @Sendable (RecordedEvent, ProjectionBatch) async throws -> Void
    ) {
        self.name = name
        self.collections = collections
        self.types = types
        self.todos = todos
        self.esperada = esperada
        self.histories = histories
        self.documents = documents
        self.apply = apply
    }

    /// Whether it reads events of `type`.
    public func reads(_ type: String) -> Bool { todos || types.contains(type) }

    /// The checkpoint name in `subscription_checkpoints`.
    public var checkpoint: String { "projection:\(name)" }
}

/// A read-model document a batch or a runner's cache holds: the value a projection put or read,
/// its stored bytes, or both. A put value is encoded once, when its batch commits, however many
/// events of the batch changed it; a `get` of the type it holds takes the value as it is, with no
/// decoding.
struct HeldDocument {
    /// The value as last put or read; nil when only the bytes are known.
    var value: (any Encodable)?
    /// The stored bytes (``ReadModelJSON``); nil until a put value is encoded.
    var json: Data?

    init(json: Data) {
        self.json = json
    }

    init(value: any Encodable) {
        self.value = value
    }

    /// The stored bytes, encoding the value once.
    mutating func encoded() throws -> Data {
        if let json { return json }
        guard let value else { preconditionFailure("a held document has a value or its bytes") }
        let data = try ReadModelJSON.encode(value)
        json = data
        return data
    }

    /// The document as `T`: the held value when it is one, else its bytes decoded (and kept).
    mutating func decoded<T: Decodable>(_ type: T.Type) throws -> T {
        if let value = value as? T { return value }
        let decoded = try ReadModelJSON.decoder.decode(T.self, from: try encoded())
        if let encodable = decoded as? any Encodable { value = encodable }
        return decoded
    }
}

/// The writes of one batch of events, readable before they commit (a later event in the batch
/// sees what an earlier one wrote). Used by one runner task at a time.
public final class ProjectionBatch {
    private struct Entry {
        var grupo: String?
        var ordem: String
        /// nil: deleted.
        var doc: HeldDocument?
    }

    private struct Key: Hashable {
        let collection: String
        let key: String
    }

    let store: any ProjectionStore
    let cache: DocumentCache?
    /// Where the projection's own collections are written and read: themselves, or the staged
    /// collections of a rebuild (``ProjectionRunner/rebuild(progress:)``).
    let target: ProjectionTarget
    private var entries: [Key: Entry] = [:]
    private var order: [Key] = []
    /// Histories read for the whole batch before it was applied (``Projection/histories``).
    var histories: [StreamName: [RecordedEvent]] = [:]
    /// Documents read for the whole batch before it was applied (``Projection/documents``);
    /// `.some(nil)`: known to be absent.
    private var prefetched: [Key: HeldDocument?] = [:]

    init(store: any ProjectionStore, cache: DocumentCache?, target: ProjectionTarget) {
        self.store = store
        self.cache = cache
        self.target = target
    }

    /// Which build of the read model this batch writes: nil for the live one, a number of its
    /// own for each rebuild. A document that tells readers the read model changed (a revision
    /// they cache by) carries it, since a rebuild can end at the position the old build stood.
    public var geracao: Int64? { target.geracao }

    /// A whole stream as it is now, or as it was when the batch began when the projection
    /// names it in ``Projection/histories`` (projections that fold an aggregate's state read it).
    public func history(_ stream: StreamName) async throws -> [RecordedEvent] {
        if let events = histories[stream] { return events }
        return try await store.readStream(stream)
    }

    /// The document as this batch, the runner's cache or the store has it. A value put earlier
    /// (in this batch or a committed one the cache kept) comes back as it was put, not decoded
    /// again; a document decoded once is kept decoded.
    public func get<T: Decodable>(_ type: T.Type, _ collection: String, _ key: String) async throws -> T? {
        let collection = target.name(collection)
        let id = Key(collection: collection, key: key)
        if let entry = entries[id] {
            guard var doc = entry.doc else { return nil }
            if let value = doc.value as? T { return value }
            let value = try doc.decoded(T.self)
            entries[id]?.doc = doc
            return value
        }
        var held: HeldDocument?
        if let cached = cache?.document(collection, key) {
            held = cached
        } else if let fetched = prefetched[id] {
            held = fetched
        } else {
            held = try await store.document(collection, key: key).map(HeldDocument.init(json:))
            cache?.keep(collection, key, held)
        }
        guard var doc = held else { return nil }
        // Most gets under load: the value the last batch put, handed back as it is.
        if let value = doc.value as? T { return value }
        let value = try doc.decoded(T.self)
        cache?.remember(collection, key, doc)
        return value
    }

    /// Reads at once the documents of `wanted` that neither this batch nor the runner's cache
    /// holds: one query per collection (``Projection/documents``).
    func prefetch(_ wanted: some Sequence<(collection: String, key: String)>) async throws {
        var missing: [String: Set<String>] = [:]
        for (collection, key) in wanted {
            let collection = target.name(collection)
            let id = Key(collection: collection, key: key)
            guard entries[id] == nil, prefetched[id] == nil, cache?.document(collection, key) == nil else { continue }
            missing[collection, default: []].insert(key)
        }
        for (collection, keys) in missing {
            let found = try await store.documents(collection, keys: Array(keys))
            for key in keys {
                let held = found[key].map(HeldDocument.init(json:))
                prefetched[Key(collection: collection, key: key)] = .some(held)
                cache?.keep(collection, key, held)
            }
        }
    }

    /// Writes `value` under `key`; it is encoded once, when the batch commits.
    public func put<T: Encodable>(_ value: T, _ collection: String, _ key: String, grupo: String? = nil, ordem: String = "") throws {
        record(Key(collection: target.name(collection), key: key), Entry(grupo: grupo, ordem: ordem, doc: HeldDocument(value: value)))
    }

    /// ``put(_:_:_:grupo:ordem:)`` of a document already encoded with `ReadModelJSON.encode(_:)`
    /// (one value kept under several keys is encoded once).
    public func put(json doc: Data, _ collection: String, _ key: String, grupo: String? = nil, ordem: String = "") {
        record(Key(collection: target.name(collection), key: key), Entry(grupo: grupo, ordem: ordem, doc: HeldDocument(json: doc)))
    }

    public func delete(_ collection: String, _ key: String) {
        record(Key(collection: target.name(collection), key: key), Entry(grupo: nil, ordem: "", doc: nil))
    }

    private func record(_ key: Key, _ entry: Entry) {
        if entries.updateValue(entry, forKey: key) == nil { order.append(key) }
    }

    /// What the batch writes, in the order first written, each put value encoded (once).
    func changes() throws -> [ReadModelChange] {
        var changes: [ReadModelChange] = []
        changes.reserveCapacity(order.count)
        for key in order {
            guard let entry = entries[key] else { continue }
            var json: Data?
            if var doc = entry.doc {
                json = try doc.encoded()
                entries[key]?.doc = doc
            }
            changes.append(ReadModelChange(collection: key.collection, key: key.key, grupo: entry.grupo, ordem: entry.ordem, doc: json))
        }
        return changes
    }

    /// Keeps what the batch wrote in the runner's cache, values and bytes, once it committed
    /// (after ``changes()``).
    func keepCommitted() {
        guard let cache else { return }
        for key in order { cache.keep(key.collection, key.key, entries[key]?.doc) }
    }
}

/// Where a runner writes: the live read model, or a rebuild's staged copy of it (its own
/// collections and checkpoint under other names, swapped in at the end by
/// ``EventStore/ReadModelStore/promote(_:checkpoint:from:at:)``).
struct ProjectionTarget: Sendable {
    let checkpoint: String
    /// Live collection → the name it is written under; the same name when absent.
    let names: [String: String]
    let geracao: Int64?

    static func live(_ projection: Projection) -> ProjectionTarget {
        ProjectionTarget(checkpoint: projection.checkpoint, names: [:], geracao: nil)
    }

    /// A rebuild's: `<collection>~rebuild` and `<checkpoint>~rebuild`.
    static func staged(_ projection: Projection, geracao: Int64) -> ProjectionTarget {
        ProjectionTarget(
            checkpoint: projection.checkpoint + "~rebuild",
            names: Dictionary(uniqueKeysWithValues: projection.collections.map { ($0, $0 + "~rebuild") }), geracao: geracao)
    }

    var isLive: Bool { names.isEmpty }

    func name(_ collection: String) -> String { names[collection] ?? collection }

    /// The pairs ``EventStore/ReadModelStore/promote(_:checkpoint:from:at:)`` swaps.
    var staging: [StagedCollection] { names.map { StagedCollection(staged: $0.value, live: $0.key) }.sorted { $0.live < $1.live } }

    /// A build begins: its staged collections emptied, its checkpoint back at the start.
    @discardableResult
    func reset(in store: any ProjectionStore) async throws -> CheckpointMark {
        try await store.reset(collections: staging.map(\.staged), checkpoint: checkpoint)
    }

    /// A build failed with `error`: its staged documents go, when the store answers, unless
    /// another builder wrote the staged checkpoint since (they are that builder's to keep).
    func discard(after error: any Error, in store: any ProjectionStore) async {
        if let error = error as? EventStoreError, error.code == .checkpointMoved { return }
        _ = try? await reset(in: store)
    }
}

/// The documents of its own collections a runner has read or committed, kept while it holds its
/// projection's lease, so a batch reads from the database only what it never saw. Only the
/// lease holder writes those collections; anything else that does (a rebuild) moves the
/// checkpoint, which fails the holder's next fenced commit and drops the cache with the lease.
/// Used by one runner task at a time; bounded by the bytes it holds (eight runners share a
/// projections task's memory), and when full it starts over.
final class DocumentCache {
    private struct Key: Hashable {
        let collection: String
        let key: String
    }

    let collections: Set<String>
    /// The documents' bytes it holds at most (their decoded values are not counted).
    let capacity: Int
    /// `.some(nil)`: known to be absent.
    private var documents: [Key: HeldDocument?] = [:]
    private var bytes = 0

    init(collections: [String], capacity: Int = 8 << 20) {
        self.collections = Set(collections)
        self.capacity = capacity
    }

    /// `.none` when not kept; `.some(nil)` when kept as absent.
    func document(_ collection: String, _ key: String) -> HeldDocument?? {
        documents[Key(collection: collection, key: key)]
    }

    /// Keeps a committed document (its bytes known: ``ProjectionBatch/changes()`` encoded it).
    func keep(_ collection: String, _ key: String, _ doc: HeldDocument?) {
        guard collections.contains(collection) else { return }
        let id = Key(collection: collection, key: key)
        let overhead = collection.utf8.count + key.utf8.count
        if let old = documents.removeValue(forKey: id) { bytes -= Self.size(old) + overhead }
        let size = Self.size(doc) + overhead
        if bytes + size > capacity {
            documents.removeAll(keepingCapacity: true)
            bytes = 0
        }
        documents[id] = .some(doc)
        bytes += size
    }

    /// A kept document, now decoded too: kept again, with its value.
    func remember(_ collection: String, _ key: String, _ doc: HeldDocument) {
        guard documents[Key(collection: collection, key: key)] != nil else { return }
        keep(collection, key, doc)
    }

    /// What a document is counted as: its bytes, and twice as much again for a decoded value
    /// beside them (a guess: Swift's dictionaries, strings and dates take more room than their
    /// JSON), so that values do not take the cache past about its capacity in memory.
    private static func size(_ doc: HeldDocument?) -> Int {
        guard let doc else { return 0 }
        return (doc.json?.count ?? 0) * (doc.value == nil ? 1 : 3)
    }
}

/// How read-model documents are stored: as events are (``EventJSON``: ISO 8601 instants,
/// sorted keys), one coder for every JSON the store keeps.
public typealias ReadModelJSON = EventJSON
