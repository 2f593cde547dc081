public import Domain
public import EventStore
public import Foundation

extension StreamNames {
    /// One expected visitor: `visita-<id>`.
    public static func visita(_ id: Visita.ID) -> StreamName { StreamName(category: Visita.Catalogo.category, id: id.description) }
}

/// A visit as its host and the front desk read it. `nome` and `email` are stored sealed; the
/// service opens them for whoever may see them (nil once erased).
public struct VisitaView: Codable, Sendable, Equatable {
    public let id: String
    /// The host.
    public let usuarioId: String
    public let unidadeId: String
    public let dia: String
    public let chegadaPrevista: Date
    public var situacao: Visita.Situacao
    public var nome: String?
    public var email: String?
    public let registradaEm: Date
    /// Who registered it: the host, or the front desk for a visitor who came unannounced.
    public let registradaPor: String
    public var chegouEm: Date?
    public var saiuEm: Date?
    public var canceladaEm: Date?
    /// Who recorded the arrival (an admin at the front desk).
    public var recebidaPor: String?
    public var dadosApagados: Bool

    public init(_ e: Visita.Registrada) {
        id = e.registro.visitaId.description
        usuarioId = e.registro.usuarioId
        unidadeId = e.registro.unidadeId.lowercasedString
        dia = e.registro.dia
        chegadaPrevista = e.registro.chegadaPrevista
        situacao = .esperada
        nome = e.registro.nome
        email = e.registro.email
        registradaEm = e.em
        registradaPor = e.por
        dadosApagados = false
    }

    /// The view of an aggregate's state (what a command answers before the projection catches up).
    public init(_ dados: Visita.Dados) {
        self.init(Visita.Registrada(dados.registro, por: dados.registradaPor, em: dados.registradaEm))
        situacao = dados.situacao
        chegouEm = dados.chegouEm
        recebidaPor = dados.recebidaPor
        saiuEm = dados.saiuEm
        canceladaEm = dados.canceladaEm
        if dados.dadosApagados { apagar() }
    }

    /// Folds one event after ``Visita/Registrada`` into the view.
    public mutating func registrar(_ event: Visita.Event) {
        switch event {
        case .registrada: return
        case .cancelada(let e):
            situacao = .cancelada
            canceladaEm = e.em
        case .chegou(let e):
            situacao = .presente
            chegouEm = e.em
            recebidaPor = e.por
        case .saiu(let e):
            situacao = .saiu
            saiuEm = e.em
        case .dadosApagados: apagar()
        }
    }

    mutating func apagar() {
        dadosApagados = true
        nome = nil
        email = nil
    }
}

/// When a visit's visitor data is due for erasure: an hour after a cancellation, otherwise once
/// the visitor log's retention after the expected arrival is over (``Visita/Dados/retencaoAte``).
public struct VisitaRetencaoView: Codable, Sendable, Equatable {
    public let visitaId: String
    public let vence: Date
}

public enum VisitasReadModel {
    public static let visitas = "visitas"
    public static let porAnfitriao = "visitas_anfitriao"
    public static let retencao = "visitas_retencao"

    /// The front desk's list of a unit's day (`visitas`, grouped `<unidadeId>|<dia>`), the host's
    /// visits (`visitas_anfitriao`, grouped by host) and the erasure timers (`visitas_retencao`,
    /// group `prazo`, by due time); every list ordered by the expected arrival.
    public static let projection = Projection(
        name: "visitas", collections: [visitas, porAnfitriao, retencao], types: Visita.Catalogo.todos.types
    ) { recorded, batch in
        guard let event = try Visita.Event.decode(type: recorded.type, data: recorded.data, using: EventJSON.decoder) else { return }
        switch event {
        case .registrada(let e):
            let view = VisitaView(e)
            try save(view, batch)
            try prazo(view.id, vence: e.registro.chegadaPrevista.addingTimeInterval(Visita.retencao), batch)
        case .cancelada(let e), .chegou(let e), .saiu(let e), .dadosApagados(let e):
            guard var view = try await batch.get(VisitaView.self, visitas, e.visitaId.description) else { return }
            view.registrar(event)
            try save(view, batch)
            if case .cancelada = event { try prazo(view.id, vence: e.em.addingTimeInterval(Visita.guardaAposCancelamento), batch) }
            if case .dadosApagados = event { batch.delete(retencao, view.id) }
        }
    }

    public static func grupo(unidade: String, dia: String) -> String { "\(unidade)|\(dia)" }

    private static func prazo(_ id: String, vence: Date, _ batch: ProjectionBatch) throws {
        try batch.put(VisitaRetencaoView(visitaId: id, vence: vence), retencao, id, grupo: "prazo", ordem: ReservasReadModel.ordem(vence))
    }

    private static func save(_ view: VisitaView, _ batch: ProjectionBatch) throws {
        let ordem = ReservasReadModel.ordem(view.chegadaPrevista)
        try batch.put(view, visitas, view.id, grupo: grupo(unidade: view.unidadeId, dia: view.dia), ordem: ordem)
        try batch.put(view, porAnfitriao, view.id, grupo: view.usuarioId, ordem: ordem)
    }
}
