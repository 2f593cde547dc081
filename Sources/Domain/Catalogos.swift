public import Foundation

/// Every context's event catalog together: what the wiring derives routing keys, stream owners
/// and upcasters from, and what `CatalogTests` checks (each stored type listed once).
public enum Catalogos {
    /// Every stored event type, context by context.
    public static let kinds: [EventKind] =
        Usuario.Catalogo.todos + EmailClaim.Catalogo.todos
        + Unidade.Catalogo.todos + Espaco.Catalogo.todos
        + TabelaDePreco.Catalogo.todos + Cupom.Catalogo.todos
        + Reserva.Catalogo.todos + Agenda.Catalogo.todos + BoletosPendentes.Catalogo.todos
        + Pagamento.Catalogo.todos + Checkin.Catalogo.todos + Notificacao.Catalogo.todos + Fatura.Catalogo.todos

    /// Every step from an older stored payload shape to the current one.
    public static let upcasts: [Upcast] =
        Usuario.Catalogo.upcasts + EmailClaim.Catalogo.upcasts
        + Unidade.Catalogo.upcasts + Espaco.Catalogo.upcasts
        + TabelaDePreco.Catalogo.upcasts + Cupom.Catalogo.upcasts
        + Reserva.Catalogo.upcasts + Agenda.Catalogo.upcasts + BoletosPendentes.Catalogo.upcasts
        + Pagamento.Catalogo.upcasts + Checkin.Catalogo.upcasts + Notificacao.Catalogo.upcasts + Fatura.Catalogo.upcasts

    private static let porTipo = Dictionary(kinds.map { ($0.type, $0) }, uniquingKeysWith: { first, _ in first })

    /// The kind stored as `type`, or nil for a type no catalog lists.
    public static func kind(_ type: String) -> EventKind? { porTipo[type] }

    /// The context that owns the streams of each category.
    public static let donos: [String: Contexto] = Dictionary(kinds.map { ($0.categoria, $0.contexto) }, uniquingKeysWith: { first, _ in first })

    /// Reads any stored event back through its context's event enum (after upcasting); nil for
    /// a type no catalog lists.
    public static func decode(type: String, data: Data, using decoder: JSONDecoder) throws -> (any DomainEvent)? {
        for read in leitores { if let event = try read(type, data, decoder) { return event } }
        return nil
    }

    private typealias Leitor = @Sendable (String, Data, JSONDecoder) throws -> (any DomainEvent)?
    private static let leitores: [Leitor] = [
        { try Usuario.Event.decode(type: $0, data: $1, using: $2) }, { try EmailClaim.Event.decode(type: $0, data: $1, using: $2) },
        { try Unidade.Event.decode(type: $0, data: $1, using: $2) }, { try Espaco.Event.decode(type: $0, data: $1, using: $2) },
        { try TabelaDePreco.Event.decode(type: $0, data: $1, using: $2) }, { try Cupom.Event.decode(type: $0, data: $1, using: $2) },
        { try Reserva.Event.decode(type: $0, data: $1, using: $2) }, { try Agenda.Event.decode(type: $0, data: $1, using: $2) },
        { try BoletosPendentes.Event.decode(type: $0, data: $1, using: $2) }, { try Pagamento.Event.decode(type: $0, data: $1, using: $2) },
        { try Checkin.Event.decode(type: $0, data: $1, using: $2) }, { try Notificacao.Event.decode(type: $0, data: $1, using: $2) },
        { try Fatura.Event.decode(type: $0, data: $1, using: $2) },
    ]

    /// The kinds each event enum decodes, enum by enum: each must be its catalog's list.
    public static let decodificados: [(catalogo: [EventKind], enum: [EventKind])] = [
        (Usuario.Catalogo.todos, Usuario.Event.decoders.kinds), (EmailClaim.Catalogo.todos, EmailClaim.Event.decoders.kinds),
        (Unidade.Catalogo.todos, Unidade.Event.decoders.kinds), (Espaco.Catalogo.todos, Espaco.Event.decoders.kinds),
        (TabelaDePreco.Catalogo.todos, TabelaDePreco.Event.decoders.kinds), (Cupom.Catalogo.todos, Cupom.Event.decoders.kinds),
        (Reserva.Catalogo.todos, Reserva.Event.decoders.kinds), (Agenda.Catalogo.todos, Agenda.Event.decoders.kinds),
        (BoletosPendentes.Catalogo.todos, BoletosPendentes.Event.decoders.kinds), (Pagamento.Catalogo.todos, Pagamento.Event.decoders.kinds),
        (Checkin.Catalogo.todos, Checkin.Event.decoders.kinds), (Notificacao.Catalogo.todos, Notificacao.Event.decoders.kinds),
        (Fatura.Catalogo.todos, Fatura.Event.decoders.kinds),
    ]

    /// The kinds a context owns.
    public static func kinds(de contexto: Contexto) -> [EventKind] { kinds.filter { $0.contexto == contexto } }
}
