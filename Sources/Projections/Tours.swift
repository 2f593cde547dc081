public import Domain
public import EventStore
public import Foundation

extension StreamNames {
    /// One prospect's tour: `tour-<id>`.
    public static func tour(_ id: Tour.ID) -> StreamName { StreamName(category: Tour.Catalogo.category, id: id.description) }

    /// The tours of a unit's local day (`agendadetours-<unidade>-<AAAA-MM-DD>`).
    public static func agendaDeTours(unidade: UUID, dia: DataLocal) -> StreamName {
        StreamName(category: AgendaDeTours.Catalogo.category, id: "\(unidade.lowercasedString)-\(dia.description)")
    }

    /// How a unit takes tours: `configuracaodetours-<unidade>`.
    public static func configuracaoDeTours(_ unidade: UUID) -> StreamName {
        StreamName(category: ConfiguracaoDeTours.Catalogo.category, id: unidade.lowercasedString)
    }
}

/// A tour as the team reads it. The prospect's contact, the team's note and the cancellation's
/// reason are stored sealed; the service opens them for the team (nil once erased).
public struct TourView: Codable, Sendable, Equatable {
    public let id: String
    public let unidadeId: String
    public let dia: String
    public let inicio: Date
    public let fim: Date
    public var situacao: Tour.Situacao
    public let origem: Tour.Origem
    public var nome: String?
    public var email: String?
    public var telefone: String?
    public var empresa: String?
    public let interesse: Tour.Interesse?
    public let pessoas: Int
    public var mensagem: String?
    public let agendadoEm: Date
    /// The admin who booked it for a phone lead; nil from the public site.
    public let agendadoPor: String?
    public var nota: String?
    public var concluidoEm: Date?
    public var concluidoPor: String?
    public var canceladoEm: Date?
    /// ``Tour/visitante`` (the prospect) or the admin who cancelled.
    public var canceladoPor: String?
    public var motivo: String?
    public var dadosApagados: Bool

    public init(_ e: Tour.Agendado) {
        id = e.tourId.description
        unidadeId = e.unidadeId.lowercasedString
        dia = e.dia
        inicio = e.inicio
        fim = e.fim
        situacao = .agendado
        origem = e.origem
        nome = e.contato.nome
        email = e.contato.email
        telefone = e.contato.telefone
        empresa = e.contato.empresa
        interesse = e.interesse
        pessoas = e.pessoas
        mensagem = e.contato.mensagem
        agendadoEm = e.em
        agendadoPor = e.por
        dadosApagados = false
    }

    /// The view of an aggregate's state (what a command answers before the projection catches up).
    public init(_ dados: Tour.Dados) {
        self.init(dados.agendado)
        if let cancelado = dados.cancelado { registrar(.cancelado(cancelado)) }
        if let concluido = dados.concluido { registrar(dados.situacao == .ausente ? .ausente(concluido) : .realizado(concluido)) }
        if dados.dadosApagados { apagar() }
    }

    /// Folds one event after ``Tour/Agendado`` into the view.
    public mutating func registrar(_ event: Tour.Event) {
        switch event {
        case .agendado: return
        case .cancelado(let e):
            situacao = .cancelado
            canceladoEm = e.em
            canceladoPor = e.por
            motivo = e.motivo
        case .realizado(let e), .ausente(let e):
            if case .realizado = event { situacao = .realizado } else { situacao = .ausente }
            concluidoEm = e.em
            concluidoPor = e.por
            nota = e.nota
        case .dadosApagados: apagar()
        }
    }

    mutating func apagar() {
        dadosApagados = true
        nome = nil
        email = nil
        telefone = nil
        empresa = nil
        mensagem = nil
        nota = nil
        motivo = nil
    }
}

/// When a tour's contact is due for erasure (``Tour/Dados/retencaoAte``).
public struct TourRetencaoView: Codable, Sendable, Equatable {
    public let tourId: String
    public let vence: Date
}

public enum ToursReadModel {
    public static let tours = "tours"
    public static let retencao = "tours_retencao"

    /// The team's list of a unit's day (`tours`, grouped `<unidadeId>|<dia>`, by start) and the
    /// erasure timers (`tours_retencao`, group `prazo`, by due time).
    public static let projection = Projection(
        name: "tours", collections: [tours, retencao], types: Tour.Catalogo.todos.types
    ) { recorded, batch in
        guard let event = try Tour.Event.decode(type: recorded.type, data: recorded.data, using: EventJSON.decoder) else { return }
        if case .agendado(let e) = event {
            let view = TourView(e)
            try save(view, batch)
            try prazo(view.id, vence: e.inicio.addingTimeInterval(Tour.retencao), batch)
            return
        }
        guard var view = try await batch.get(TourView.self, tours, event.tourId.description) else { return }
        view.registrar(event)
        try save(view, batch)
        switch event {
        case .cancelado(let e) where !view.dadosApagados:
            try prazo(view.id, vence: e.em.addingTimeInterval(Tour.guardaAposCancelamento), batch)
        case .dadosApagados: batch.delete(retencao, view.id)
        default: break
        }
    }

    public static func grupo(unidade: String, dia: String) -> String { "\(unidade)|\(dia)" }

    private static func prazo(_ id: String, vence: Date, _ batch: ProjectionBatch) throws {
        try batch.put(TourRetencaoView(tourId: id, vence: vence), retencao, id, grupo: "prazo", ordem: ReservasReadModel.ordem(vence))
    }

    private static func save(_ view: TourView, _ batch: ProjectionBatch) throws {
        try batch.put(view, tours, view.id, grupo: grupo(unidade: view.unidadeId, dia: view.dia), ordem: ReservasReadModel.ordem(view.inicio))
    }
}
