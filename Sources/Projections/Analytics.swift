import Domain
import EventStore
import Foundation

/// Analytics for operators: occupancy per space per local day and per hour of the week,
/// revenue per space type, no-show and cancellation rates, average lead time and top members
/// (the definitions are on ``AnalyticsModel``). It reads events of espacos, reservas,
/// pagamentos and checkin and emits none.
///
/// Two ways to the same documents, through the same fold: ``projection`` keeps them as events
/// arrive (the runner), ``rebuild(store:leitores:lote:progress:)`` replays the whole store in
/// memory and writes them once (`coworkflow replay analytics`).
public enum AnalyticsReadModel {
    public static let unidades = "analytics_unidades"
    public static let espacos = "analytics_espacos"
    public static let ocupacao = "analytics_ocupacao"
    public static let semana = "analytics_ocupacao_semana"
    public static let receita = "analytics_receita"
    public static let membrosPorHoras = "analytics_membros_horas"
    public static let membrosPorReceita = "analytics_membros_receita"
    public static let indicadores = "analytics_indicadores"
    static let controle = "analytics_controle"

    /// The key of the platform-wide counters in ``indicadores``.
    public static let geral = "geral"
    static let marcador = "reconstrucao"

    public static let colecoes = [unidades, espacos, ocupacao, semana, receita, membrosPorHoras, membrosPorReceita, indicadores, controle]

    /// `<espaco>|<yyyy-mm>`.
    public static func chaveDeOcupacao(_ espaco: String, _ mes: String) -> String { "\(espaco)|\(mes)" }

    /// Sorts descending when compared as text (ties by key): a ranking's `ordem`.
    static func ordemDecrescente(_ valor: Int64) -> String {
        let limite: Int64 = 500_000_000_000_000_000
        return CalendarioAnalitico.pad(Int(limite - min(max(valor, -limite + 1), limite - 1)), 18)
    }

    /// The incremental read model, for the ``ProjectionRunner``: per event, it loads the
    /// documents the event touches (and, for a confirmation, cancellation, expiry, move or
    /// no-show, the booking's earlier events from its stream, moves included; for a cancellation
    /// or a move, its no-show too), folds, and puts them back.
    public static let projection = Projection(
        name: "analytics", collections: colecoes, types: AnalyticsFact.tipos, histories: historias
    ) { recorded, batch in
        try await aplicar(recorded, batch)
    }

    /// The histories ``aplicar(_:_:)`` reads for an event (``AnalyticsFact/reservaComHistoria``),
    /// from its type and stream: a booking's outcome is in the booking's stream (a cancellation
    /// or a move reads the no-show in its check-in stream too), a no-show in the check-in's.
    static func historias(_ recorded: RecordedEvent) -> [StreamName] {
        let stream = recorded.stream
        guard let id = Reserva.ID(String(stream.rawValue.dropFirst(stream.category.count + 1))) else { return [] }
        switch (stream.category, AnalyticsFact.porTipo[recorded.type]) {
        case ("reserva", .reservaCancelada), ("reserva", .reservaRemarcada): return [stream, StreamNames.checkin(id)]
        case ("reserva", .reservaConfirmada), ("reserva", .reservaExpirada): return [stream]
        case ("checkin", .noShowRegistrado): return [StreamNames.reserva(id)]
        default: return []
        }
    }

    /// A fast rebuild that died before its last batch left some documents written and others
    /// not; folding onto them would count twice.
    public struct RebuildIncomplete: Error, CustomStringConvertible {
        public var description: String {
            "the analytics documents are half-written by an interrupted rebuild: run `coworkflow replay analytics`"
        }
    }

    static func aplicar(_ recorded: RecordedEvent, _ batch: ProjectionBatch) async throws {
        guard let fato = try fato(recorded) else { return }
        if try await batch.get(AnalyticsReconstrucao.self, controle, marcador) != nil { throw RebuildIncomplete() }
        // Known absent: recording its deletion makes the batch answer later events of this
        // batch from memory (one read per batch, not per event); deleting no row is harmless.
        batch.delete(controle, marcador)
        var modelo = AnalyticsModel()
        if let reserva = fato.reservaComHistoria {
            var anteriores = try await batch.history(StreamNames.reserva(Reserva.ID(reserva)))
            let leOCheckin =
                switch fato {
                case .reservaCancelada, .reservaRemarcada: true
                default: false
                }
            if leOCheckin {
                // A no-show before it (in the check-in's stream) freed part of the slot already:
                // a cancellation takes back only the rest, a move moves nothing (as a replay,
                // which folds it, does; reservas refuses a move once the booking started).
                anteriores += try await batch.history(StreamNames.checkin(Reserva.ID(reserva)))
                anteriores.sort { $0.position < $1.position }
            }
            for anterior in anteriores where anterior.position < recorded.position {
                if let antes = try self.fato(anterior) { modelo.evoluirReserva(antes) }
            }
        }
        var lidas = Set<AnalyticsModel.Chave>()
        // The space first: the unit may come from the space's document.
        for _ in 0..<2 {
            let (espaco, unidade) = modelo.contexto(de: fato)
            for chave in [espaco.map(AnalyticsModel.Chave.espaco), unidade.map(AnalyticsModel.Chave.unidade)].compactMap({ $0 })
            where lidas.insert(chave).inserted {
                try await modelo.carregar(chave, de: batch)
            }
        }
        let efeitos = modelo.efeitos(de: fato)
        var escritas: [AnalyticsModel.Chave] = []
        for efeito in efeitos {
            for chave in modelo.chaves(efeito) where !escritas.contains(chave) {
                escritas.append(chave)
                if lidas.insert(chave).inserted { try await modelo.carregar(chave, de: batch) }
            }
        }
        modelo.aplicar(efeitos)
        modelo.evoluirReserva(fato)
        for chave in escritas {
            for documento in modelo.documentos(chave) {
                try batch.put(documento.valor, documento.colecao, documento.chave, grupo: documento.grupo, ordem: documento.ordem)
            }
        }
    }

    static func fato(_ recorded: RecordedEvent) throws(AnalyticsDecodingError) -> AnalyticsFact? {
        try fato(EventPayload(recorded))
    }

    static func fato(_ recorded: EventPayload) throws(AnalyticsDecodingError) -> AnalyticsFact? {
        do {
            return try AnalyticsFact.decode(type: recorded.type, data: recorded.data)
        } catch var error {
            error.evento = "\(recorded.stream) v\(recorded.version), position \(recorded.position)"
            throw error
        }
    }
}
