public import Domain
public import EventStore
public import Foundation

extension StreamNames {
    /// One letter or parcel held at the front desk: `encomenda-<id>`.
    public static func encomenda(_ id: Encomenda.ID) -> StreamName { StreamName(category: Encomenda.Catalogo.category, id: id.description) }
}

/// A letter or parcel as the front desk and its recipient read it.
public struct EncomendaView: Codable, Sendable, Equatable {
    public let id: String
    /// The recipient.
    public let usuarioId: String
    public let unidadeId: String
    public let tipo: Encomenda.Tipo
    /// Sealed in the log and here (under the recipient's key); the service opens them.
    public var remetente: String?
    public var observacao: String?
    public var situacao: Encomenda.Situacao
    public let registradaEm: Date
    /// Who at the desk registered it.
    public let registradaPor: String
    public var retiradaEm: Date?
    /// Who at the desk handed it over.
    public var entreguePor: String?
    public var canceladaEm: Date?

    public init(_ e: Encomenda.Registrada) {
        id = e.encomendaId.description
        usuarioId = e.usuarioId
        unidadeId = e.unidadeId.lowercasedString
        tipo = e.tipo
        remetente = e.remetente
        observacao = e.observacao
        situacao = .aguardando
        registradaEm = e.em
        registradaPor = e.por
    }

    /// The view of an aggregate's state (what a command answers before the projection catches up).
    public init(_ dados: Encomenda.Dados) {
        self.init(dados.registro)
        situacao = dados.situacao
        retiradaEm = dados.retiradaEm
        entreguePor = dados.entreguePor
        canceladaEm = dados.canceladaEm
    }

    /// Folds one event after ``Encomenda/Registrada`` into the view.
    public mutating func registrar(_ event: Encomenda.Event) {
        switch event {
        case .registrada: return
        case .retirada(let e):
            situacao = .retirada
            retiradaEm = e.em
            entreguePor = e.por
        case .cancelada(let e):
            situacao = .cancelada
            canceladaEm = e.em
        }
    }
}

public enum EncomendasReadModel {
    /// What waits at each unit's desk (grouped by unit, oldest first); a letter leaves the list
    /// when it is handed over or cancelled.
    public static let aguardando = "encomendas_aguardando"
    /// Every letter of a unit (grouped by unit, newest first): the desk's log.
    public static let daUnidade = "encomendas_unidade"
    /// Every letter of a member (grouped by member, newest first).
    public static let doMembro = "encomendas_membro"

    public static let projection = Projection(
        name: "encomendas", collections: [aguardando, daUnidade, doMembro], types: Encomenda.Catalogo.todos.types
    ) { recorded, batch in
        guard let event = try Encomenda.Event.decode(type: recorded.type, data: recorded.data, using: EventJSON.decoder) else { return }
        switch event {
        case .registrada(let e):
            try save(EncomendaView(e), batch)
        case .retirada(let e), .cancelada(let e):
            guard var view = try await batch.get(EncomendaView.self, doMembro, e.encomendaId.description) else { return }
            view.registrar(event)
            try save(view, batch)
        }
    }

    private static func save(_ view: EncomendaView, _ batch: ProjectionBatch) throws {
        let ordem = ReservasReadModel.ordem(view.registradaEm)
        // Newest first, as the analytics rankings sort (milliseconds, descending as text).
        let recente = AnalyticsReadModel.ordemDecrescente(Int64((view.registradaEm.timeIntervalSince1970 * 1_000).rounded()))
        if view.situacao == .aguardando {
            try batch.put(view, aguardando, view.id, grupo: view.unidadeId, ordem: ordem)
        } else {
            batch.delete(aguardando, view.id)
        }
        try batch.put(view, daUnidade, view.id, grupo: view.unidadeId, ordem: recente)
        try batch.put(view, doMembro, view.id, grupo: view.usuarioId, ordem: recente)
    }
}
