public import Domain
public import EventStore
public import Foundation

extension StreamNames {
    /// One community event at a unit: `encontro-<id>`.
    public static func encontro(_ id: Encontro.ID) -> StreamName { StreamName(category: Encontro.Catalogo.category, id: id.description) }
}

/// A community event as members and the team read it. The document keeps who has a place and
/// who waits (ids only); the service shows members the counts and their own sign-up, the team
/// the names.
public struct EncontroView: Codable, Sendable, Equatable {
    public struct Pessoa: Codable, Sendable, Equatable {
        public let usuarioId: String
        /// The member's name, filled in by the service for the team (not stored).
        public var nome: String?
        public let em: Date
    }

    public let id: String
    public let unidadeId: String
    public var titulo: String
    public var descricao: String?
    public var local: String?
    public let inicio: Date
    public let fim: Date
    public var vagas: Int
    /// How many have a place, and how many wait.
    public var confirmados: Int
    public var naEspera: Int
    public var cancelado: Bool
    public var motivoDoCancelamento: String?
    public let publicadoEm: Date
    /// Who has a place and who waits, in order: for the team (nil in what members read).
    public var inscritos: [Pessoa]?
    public var espera: [Pessoa]?
    /// The caller's sign-up and place in the waiting list (1 is next), filled in by the service.
    public var minhaInscricao: Encontro.Situacao?
    public var posicaoNaEspera: Int?

    public init(_ e: Encontro.Publicado) {
        id = e.encontroId.description
        unidadeId = e.unidadeId.lowercasedString
        titulo = e.titulo
        descricao = e.descricao
        local = e.local
        inicio = e.inicio
        fim = e.fim
        vagas = e.vagas
        confirmados = 0
        naEspera = 0
        cancelado = false
        publicadoEm = e.em
        inscritos = []
        espera = []
    }

    /// The view of an aggregate's state (what a command answers before the projection catches up).
    public init(_ dados: Encontro.Dados) {
        self.init(dados.publicado)
        titulo = dados.titulo
        descricao = dados.descricao
        local = dados.local
        vagas = dados.vagas
        inscritos = dados.confirmados.map { Pessoa(usuarioId: $0.usuarioId, em: $0.em) }
        espera = dados.espera.map { Pessoa(usuarioId: $0.usuarioId, em: $0.em) }
        cancelado = dados.cancelado != nil
        motivoDoCancelamento = dados.cancelado?.motivo
        contar()
    }

    /// Folds one event after ``Encontro/Publicado`` into the view.
    public mutating func registrar(_ event: Encontro.Event) {
        switch event {
        case .publicado: return
        case .alterado(let e):
            titulo = e.titulo
            descricao = e.descricao
            local = e.local
            vagas = e.vagas
        case .cancelado(let e):
            cancelado = true
            motivoDoCancelamento = e.motivo
        case .inscrito(let e):
            if e.naEspera {
                espera = (espera ?? []) + [Pessoa(usuarioId: e.usuarioId, em: e.em)]
            } else {
                inscritos = (inscritos ?? []) + [Pessoa(usuarioId: e.usuarioId, em: e.em)]
            }
        case .desistiu(let e):
            inscritos?.removeAll { $0.usuarioId == e.usuarioId }
            espera?.removeAll { $0.usuarioId == e.usuarioId }
        case .vagaConcedida(let e):
            espera?.removeAll { $0.usuarioId == e.usuarioId }
            inscritos = (inscritos ?? []) + [Pessoa(usuarioId: e.usuarioId, em: e.em)]
        }
        contar()
    }

    private mutating func contar() {
        confirmados = inscritos?.count ?? 0
        naEspera = espera?.count ?? 0
    }
}

public enum EncontrosReadModel {
    /// Every event, grouped by unit, the latest start first (the whole network: no group).
    public static let encontros = "encontros"
    /// Each member's sign-ups (grouped by member): the events an erased account gives up.
    public static let doMembro = "encontros_membro"

    /// A member's sign-up to an event (a place or the waiting list).
    public struct Inscricao: Codable, Sendable, Equatable {
        public let encontroId: String
        public let inicio: Date
    }

    public static let projection = Projection(
        name: "encontros", collections: [encontros, doMembro], types: Encontro.Catalogo.todos.types
    ) { recorded, batch in
        guard let event = try Encontro.Event.decode(type: recorded.type, data: recorded.data, using: EventJSON.decoder) else { return }
        if case .publicado(let e) = event {
            try save(EncontroView(e), batch)
            return
        }
        guard var view = try await batch.get(EncontroView.self, encontros, event.encontroId.description) else { return }
        view.registrar(event)
        try save(view, batch)
        switch event {
        case .inscrito(let e):
            try batch.put(Inscricao(encontroId: view.id, inicio: view.inicio), doMembro, "\(view.id)|\(e.usuarioId)", grupo: e.usuarioId)
        case .desistiu(let e):
            batch.delete(doMembro, "\(view.id)|\(e.usuarioId)")
        default:
            break
        }
    }

    private static func save(_ view: EncontroView, _ batch: ProjectionBatch) throws {
        let ordem = AnalyticsReadModel.ordemDecrescente(Int64((view.inicio.timeIntervalSince1970 * 1_000).rounded()))
        try batch.put(view, encontros, view.id, grupo: view.unidadeId, ordem: ordem)
    }
}
