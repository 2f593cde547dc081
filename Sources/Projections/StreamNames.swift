public import Domain
public import EventStore
public import Foundation

/// Where each aggregate lives: `category-id`, never personal data in a name.
public enum StreamNames {
    public static func unidade(_ id: Unidade.ID) -> StreamName { StreamName(category: "unidade", id: id.description) }
    public static func espaco(_ id: Espaco.ID) -> StreamName { StreamName(category: "espaco", id: id.description) }
    /// The price table of a space.
    public static func tabela(_ espaco: Espaco.ID) -> StreamName { StreamName(category: "tabela", id: espaco.description) }
    /// Named by the normalised code (`Cupom.normalizarCodigo`).
    public static func cupom(_ codigo: String) -> StreamName { StreamName(category: "cupom", id: codigo) }
    public static func reserva(_ id: Reserva.ID) -> StreamName { StreamName(category: "reserva", id: id.description) }
    /// A recurring booking (``SerieDeReservas``).
    public static func serie(_ id: SerieDeReservas.ID) -> StreamName {
        StreamName(category: SerieDeReservas.Catalogo.category, id: id.description)
    }
    /// The bookings a member made to be paid by boleto (``BoletosPendentes``), by account id.
    public static func boletos(_ usuario: String) -> StreamName { StreamName(category: "boletos", id: usuario) }
    /// One space's agenda for one local day: `agenda-<espaco>-<yyyy-mm-dd>`.
    public static func agenda(_ espaco: UUID, _ data: DataLocal) -> StreamName {
        StreamName(category: "agenda", id: "\(espaco.lowercasedString)-\(data)")
    }
}

/// Folds a stored stream with a decider, decoding with the aggregate's own decoder.
public func fold<C, S: Sendable, E, F: Error>(
    _ events: [RecordedEvent], _ decider: Decider<C, S, E, F>, decode: (String, Data, EventDecoder) throws -> E?
) throws -> S {
    var state = decider.initialState
    let decoder = EventJSON.decoder
    for recorded in events {
        if let event = try decode(recorded.type, recorded.data, decoder) { state = decider.evolve(state, event) }
    }
    return state
}
