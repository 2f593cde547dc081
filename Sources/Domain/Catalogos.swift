public import Foundation

/// Every context's event catalog together: what the wiring derives routing keys, stream owners
/// and upcasters from, and what `CatalogTests` checks (each stored type listed once).
public enum Catalogos {
    /// One catalog and the event enum that stores its kinds.
    public struct Entrada: Sendable {
        /// The catalog's kinds, in its order.
        public let catalogo: [EventKind]
        /// The kinds the enum decodes, in its order: `CatalogTests` holds the two equal.
        public let decodificados: [EventKind]
        let upcasts: [Upcast]
        let ler: @Sendable (String, Data, any PayloadDecoder) throws -> (any DomainEvent)?

        static func de<C: EventCatalog, E: CatalogedEvent>(_: C.Type, _: E.Type) -> Entrada {
            Entrada(
                catalogo: C.todos, decodificados: E.decoders.kinds, upcasts: C.upcasts,
                ler: { try E.decode(type: $0, data: $1, using: $2) })
        }
    }

    /// Every catalog, context by context: a new aggregate's catalog is one line here.
    public static let entradas: [Entrada] = [
        .de(Usuario.Catalogo.self, Usuario.Event.self), .de(EmailClaim.Catalogo.self, EmailClaim.Event.self),
        .de(Unidade.Catalogo.self, Unidade.Event.self), .de(Espaco.Catalogo.self, Espaco.Event.self),
        .de(TabelaDePreco.Catalogo.self, TabelaDePreco.Event.self), .de(Cupom.Catalogo.self, Cupom.Event.self),
        .de(Reserva.Catalogo.self, Reserva.Event.self), .de(Agenda.Catalogo.self, Agenda.Event.self),
        .de(BoletosPendentes.Catalogo.self, BoletosPendentes.Event.self),
        .de(SerieDeReservas.Catalogo.self, SerieDeReservas.Event.self), .de(Pagamento.Catalogo.self, Pagamento.Event.self),
        .de(Checkin.Catalogo.self, Checkin.Event.self), .de(Visita.Catalogo.self, Visita.Event.self),
        .de(Encomenda.Catalogo.self, Encomenda.Event.self),
        .de(Chamado.Catalogo.self, Chamado.Event.self), .de(Encontro.Catalogo.self, Encontro.Event.self),
        .de(Tour.Catalogo.self, Tour.Event.self), .de(AgendaDeTours.Catalogo.self, AgendaDeTours.Event.self),
        .de(ConfiguracaoDeTours.Catalogo.self, ConfiguracaoDeTours.Event.self),
        .de(Notificacao.Catalogo.self, Notificacao.Event.self),
        .de(Fatura.Catalogo.self, Fatura.Event.self), .de(Carteira.Catalogo.self, Carteira.Event.self),
        .de(Plano.Catalogo.self, Plano.Event.self), .de(Assinatura.Catalogo.self, Assinatura.Event.self),
        .de(Empresa.Catalogo.self, Empresa.Event.self), .de(Vinculo.Catalogo.self, Vinculo.Event.self),
        .de(Pacote.Catalogo.self, Pacote.Event.self), .de(CompraDePacote.Catalogo.self, CompraDePacote.Event.self),
    ]

    /// Every stored event type, context by context.
    public static let kinds: [EventKind] = entradas.flatMap(\.catalogo)

    /// Every step from an older stored payload shape to the current one.
    public static let upcasts: [Upcast] = entradas.flatMap(\.upcasts)

    private static let porTipo = Dictionary(kinds.map { ($0.type, $0) }, uniquingKeysWith: { first, _ in first })

    /// The kind stored as `type`, or nil for a type no catalog lists.
    public static func kind(_ type: String) -> EventKind? { porTipo[type] }

    /// The context that owns the streams of each category.
    public static let owners: [String: Contexto] = Dictionary(kinds.map { ($0.category, $0.context) }, uniquingKeysWith: { first, _ in first })

    /// Reads any stored event back through its context's event enum (after upcasting); nil for
    /// a type no catalog lists.
    public static func decode(type: String, data: Data, using decoder: some PayloadDecoder) throws -> (any DomainEvent)? {
        for entrada in entradas { if let event = try entrada.ler(type, data, decoder) { return event } }
        return nil
    }

    /// The kinds each event enum decodes, enum by enum: each must be its catalog's list.
    public static var decodificados: [(catalogo: [EventKind], enum: [EventKind])] { entradas.map { ($0.catalogo, $0.decodificados) } }

}
