public import Domain
public import EventStore
public import Foundation

extension StreamNames {
    /// One request to a unit's team (the help desk): `chamado-<id>`.
    public static func chamado(_ id: Chamado.ID) -> StreamName { StreamName(category: Chamado.Catalogo.category, id: id.description) }
}

/// A help-desk request as its author and the unit's team read it. The texts are sealed in the
/// log and here (under the author's key); the service opens them.
public struct ChamadoView: Codable, Sendable, Equatable {
    public struct Mensagem: Codable, Sendable, Equatable {
        public var texto: String?
        /// Who wrote it (a user id: the author, or an admin of the team).
        public let por: String
        public let daEquipe: Bool
        public let em: Date
    }

    /// Who must act next.
    public enum Aguardando: String, Codable, Sendable, CaseIterable {
        /// The member wrote last (or only opened it).
        case equipe
        /// The team replied.
        case membro
    }

    public let id: String
    /// The author.
    public let usuarioId: String
    /// The author's name, filled in by the service for the team (not stored).
    public var autor: String?
    public let unidadeId: String
    public let categoria: Chamado.Categoria
    public var assunto: String?
    public var descricao: String?
    public var situacao: Chamado.Situacao
    public var aguardando: Aguardando?
    public let abertoEm: Date
    public var atualizadoEm: Date
    public var resolvidoEm: Date?
    public var resolvidoPor: String?
    public var mensagens: [Mensagem]

    public init(_ e: Chamado.Aberto) {
        id = e.chamadoId.description
        usuarioId = e.usuarioId
        unidadeId = e.unidadeId.lowercasedString
        categoria = e.categoria
        assunto = e.assunto
        descricao = e.descricao
        situacao = .aberto
        aguardando = .equipe
        abertoEm = e.em
        atualizadoEm = e.em
        mensagens = []
    }

    /// The view of an aggregate's state (what a command answers before the projection catches up).
    public init(_ dados: Chamado.Dados) {
        self.init(dados.abertura)
        for mensagem in dados.mensagens { registrar(.respondido(mensagem)) }
        situacao = dados.situacao
        aguardando = dados.situacao == .resolvido ? nil : aguardando
        atualizadoEm = dados.atualizadoEm
        resolvidoEm = dados.resolvidoEm
        resolvidoPor = dados.resolvidoPor
    }

    /// Folds one event after ``Chamado/Aberto`` into the view.
    public mutating func registrar(_ event: Chamado.Event) {
        switch event {
        case .aberto: return
        case .respondido(let e):
            mensagens.append(Mensagem(texto: e.texto, por: e.por, daEquipe: e.daEquipe, em: e.em))
            atualizadoEm = e.em
            if situacao == .aberto { aguardando = e.daEquipe ? .membro : .equipe }
        case .resolvido(let e):
            situacao = .resolvido
            aguardando = nil
            resolvidoEm = e.em
            resolvidoPor = e.por
            atualizadoEm = e.em
        case .reaberto(let e):
            situacao = .aberto
            aguardando = .equipe
            resolvidoEm = nil
            resolvidoPor = nil
            atualizadoEm = e.em
        }
    }
}

public enum ChamadosReadModel {
    /// The open requests of each unit (grouped by unit, oldest first): the team's queue.
    public static let abertos = "chamados_abertos"
    /// Every request of a unit (grouped by unit, newest first).
    public static let daUnidade = "chamados_unidade"
    /// Every request of a member (grouped by member, newest first).
    public static let doMembro = "chamados_membro"

    public static let projection = Projection(
        name: "chamados", collections: [abertos, daUnidade, doMembro], types: Chamado.Catalogo.todos.types
    ) { recorded, batch in
        guard let event = try Chamado.Event.decode(type: recorded.type, data: recorded.data, using: EventJSON.decoder) else { return }
        switch event {
        case .aberto(let e):
            try save(ChamadoView(e), batch)
        case .respondido(let e):
            try await update(e.chamadoId, event, batch)
        case .resolvido(let e), .reaberto(let e):
            try await update(e.chamadoId, event, batch)
        }
    }

    private static func update(_ id: Chamado.ID, _ event: Chamado.Event, _ batch: ProjectionBatch) async throws {
        guard var view = try await batch.get(ChamadoView.self, doMembro, id.description) else { return }
        view.registrar(event)
        try save(view, batch)
    }

    private static func save(_ view: ChamadoView, _ batch: ProjectionBatch) throws {
        // Newest first, as the analytics rankings sort (milliseconds, descending as text).
        let recente = AnalyticsReadModel.ordemDecrescente(Int64((view.abertoEm.timeIntervalSince1970 * 1_000).rounded()))
        if view.situacao == .aberto {
            try batch.put(view, abertos, view.id, grupo: view.unidadeId, ordem: ReservasReadModel.ordem(view.abertoEm))
        } else {
            batch.delete(abertos, view.id)
        }
        try batch.put(view, daUnidade, view.id, grupo: view.unidadeId, ordem: recente)
        try batch.put(view, doMembro, view.id, grupo: view.usuarioId, ordem: recente)
    }
}
