public import Foundation

/// The bounded contexts: each owns its streams and events and is one deployable in the
/// distributed mode (its name is the service's name and the first part of its routing keys;
/// `App`'s `Deployable` is this enum).
public enum Contexto: String, Sendable, Hashable, CaseIterable {
    case usuarios, espacos, precos, reservas, pagamentos, checkin, notificacoes, financeiro, analytics, assinaturas
}

/// One stored event type, as its context's catalog declares it: the stable type string stored
/// with every event (never renamed), the payload's current schema version, the stream category
/// it is appended to, the context that owns it, and how people read it in the audit trail.
///
/// Every other place that needs an event's type (decoding, routing keys, bindings, projections,
/// analytics, labels) takes it from a kind, never from a string literal: a kind that no catalog
/// lists fails `CatalogTests`, and a kind that is renamed or removed does not compile.
public struct EventKind: Sendable, Hashable, CustomStringConvertible {
    /// The stored type string, e.g. `ReservaSolicitada`.
    public let type: String
    /// The payload's current schema version; older stored versions are read through
    /// ``Upcast`` steps of the catalog.
    public let schemaVersion: Int
    /// The category of the streams it is appended to (`reserva` of `reserva-<id>`).
    public let category: String
    public let context: Contexto
    /// In Portuguese, for people (the audit trail).
    public let label: String

    public init(_ type: String, version: Int = 1, category: String, context: Contexto, label: String) {
        self.type = type
        self.schemaVersion = version
        self.category = category
        self.context = context
        self.label = label
    }

    public var description: String { type }

    /// `case Reserva.Catalogo.solicitada:` in a `switch` over a stored type string.
    public static func ~= (kind: EventKind, type: String) -> Bool { kind.type == type }
}

extension Collection<EventKind> {
    /// The stored type strings of these kinds.
    public var types: Set<String> { Set(map(\.type)) }
}

/// A step that reads a stored payload of `type` at `version` and gives it at `version + 1`: how
/// an old shape stays readable when a payload changes (the store applies the chain on read).
public struct Upcast: Sendable {
    public let type: String
    public let version: Int
    public let edit: @Sendable (inout [String: Any]) throws -> Void

    public init(_ kind: EventKind, from version: Int, _ edit: @escaping @Sendable (inout [String: Any]) throws -> Void) {
        self.type = kind.type
        self.version = version
        self.edit = edit
    }
}

/// What reads a stored payload back into a value: Foundation's `JSONDecoder`, or the store's
/// `EventDecoder`, which reads the same JSON to the same values without building a tree.
public protocol PayloadDecoder: Sendable {
    func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T
}

extension JSONDecoder: PayloadDecoder {}

/// A context's list of its events: what `Catalogos` gathers for the checks and the wiring.
public protocol EventCatalog {
    static var todos: [EventKind] { get }
    /// Steps from older stored shapes to the current ones (empty: every kind is at version 1
    /// or was never stored in another shape).
    static var upcasts: [Upcast] { get }
}

extension EventCatalog {
    public static var upcasts: [Upcast] { [] }
}

/// An event enum whose every case is one ``EventKind`` of a catalog.
public protocol CatalogedEvent: DomainEvent {
    /// The kind of this value.
    var kind: EventKind { get }
    /// How to read each kind this enum can be back from its stored payload.
    static var decoders: EventDecoders<Self> { get }
}

extension CatalogedEvent {
    public var eventType: String { kind.type }
    public var eventSchemaVersion: Int { kind.schemaVersion }

    /// The stored type strings of every kind this enum can be (for readers that filter by type).
    public static var tipos: Set<String> { decoders.kinds.types }

    /// Reads a stored event back; nil for a type this enum does not know.
    public static func decode(type: String, data: Data, using decoder: some PayloadDecoder) throws -> Self? {
        try decoders.decode(type: type, data: data, using: decoder)
    }
}

/// An event enum that stores only its case's payload (the type string says which case it is):
/// the enum pattern every aggregate uses, written once.
public protocol PayloadEvent: CatalogedEvent {
    /// The case's payload, which is what is stored.
    var payload: any Encodable & Sendable { get }
}

extension PayloadEvent {
    public func encode(to encoder: any Encoder) throws { try payload.encode(to: encoder) }

    public init(from decoder: any Decoder) throws {
        throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "decode with \(Self.self).decode(type:data:using:)"))
    }
}

/// For each kind of an event enum, how its stored payload becomes the enum's case.
public struct EventDecoders<Event>: Sendable {
    public struct Entry: Sendable {
        let eventKind: EventKind
        let read: @Sendable (Data, any PayloadDecoder) throws -> Event

        /// `kind`'s payload is a `P`, and `wrap` makes the case of it.
        public static func kind<P: Decodable & Sendable>(_ kind: EventKind, _ payload: P.Type, _ wrap: @escaping @Sendable (P) -> Event) -> Entry {
            Entry(eventKind: kind) { data, decoder in wrap(try decoder.decode(P.self, from: data)) }
        }

        /// `kind`'s stored form is the enum's own coding (an enum with synthesized `Codable`).
        public static func kind(_ kind: EventKind) -> Entry where Event: Decodable & Sendable {
            Entry(eventKind: kind) { data, decoder in try decoder.decode(Event.self, from: data) }
        }
    }

    private let byType: [String: Entry]
    /// The kinds, in the order given.
    public let kinds: [EventKind]

    public init(_ entries: [Entry]) {
        kinds = entries.map(\.eventKind)
        byType = Dictionary(entries.map { ($0.eventKind.type, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public func decode(type: String, data: Data, using decoder: some PayloadDecoder) throws -> Event? {
        try byType[type]?.read(data, decoder)
    }
}
