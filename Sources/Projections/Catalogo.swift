public import Domain
public import EventStore
public import Foundation

public struct UnidadeView: Codable, Sendable, Equatable {
    public let id: String
    public let nome: String
    public let endereco: Unidade.Endereco
    public let fusoHorario: String
    public let politicaDeCancelamento: Unidade.PoliticaDeCancelamento
    /// Absent in documents written before units had it.
    public let operacao: Unidade.Operacao?

    public init(_ dados: Unidade.Dados) {
        id = dados.id.description
        nome = dados.nome
        endereco = dados.endereco
        fusoHorario = dados.fusoHorario
        politicaDeCancelamento = dados.politica
        operacao = dados.operacao
    }
}

public struct EspacoView: Codable, Sendable, Equatable {
    public let id: String
    public let unidadeId: String
    public let nome: String
    public let tipo: Espaco.Tipo
    public let capacidade: Int
    public let comodidades: [String]
    public let fotos: [Espaco.Foto]
    public let regras: Espaco.RegrasDeReserva
    public let horario: Espaco.HorarioSemanal
    public let bloqueios: [Espaco.Bloqueio]
    public let ativo: Bool
    public let cadastradoEm: Date

    public init(_ dados: Espaco.Dados) {
        id = dados.id.description
        unidadeId = dados.unidade.description
        nome = dados.nome
        tipo = dados.tipo
        capacidade = dados.capacidade
        comodidades = dados.comodidades
        fotos = dados.fotos
        regras = dados.regras
        horario = dados.horario
        // Who holds a lease is the operators' to read (`GET /api/admin/espacos/{id}/bloqueios`).
        bloqueios = dados.bloqueios.map(\.publico)
        ativo = dados.ativo
        cadastradoEm = dados.cadastradoEm
    }

    /// Back to the aggregate's data, for the schedule functions.
    public var dados: Espaco.Dados? {
        guard let id = Espaco.ID(id), let unidade = Unidade.ID(unidadeId) else { return nil }
        return Espaco.Dados(
            id: id, unidade: unidade, nome: nome, tipo: tipo, capacidade: capacidade, comodidades: comodidades, fotos: fotos,
            regras: regras, horario: horario, bloqueios: bloqueios, ativo: ativo, cadastradoEm: cadastradoEm)
    }
}

/// Units, spaces and price tables, each document the folded state of its stream.
public enum CatalogoReadModel {
    public static let unidades = "unidades"
    public static let espacos = "espacos"
    public static let tabelas = "tabelas"
    /// One document, key ``revisao``: the position of the last event that changed the catalog.
    /// Readers that keep the catalog in memory reload it when this moves (the checkpoint moves
    /// with every event of the log).
    public static let revisoes = "catalogo_revisao"
    public static let revisao = "catalogo"

    /// The document under ``revisao``: where the catalog last changed, and which build of the
    /// read model wrote it (absent for the live one; a rebuild's own number, since a rebuild
    /// may end at the very position the old build stood and still hold other documents).
    public struct Revisao: Codable, Sendable, Hashable {
        public let transaction: Int64
        public let sequence: Int64
        public let geracao: Int64?

        public init(_ position: GlobalPosition, geracao: Int64?) {
            transaction = position.transaction
            sequence = position.sequence
            self.geracao = geracao
        }

        public var position: GlobalPosition { GlobalPosition(transaction: transaction, sequence: sequence) }
    }

    public static let projection = Projection(
        name: "catalogo", collections: [unidades, espacos, tabelas, revisoes],
        types: [
            Unidade.Catalogo.cadastrada.type, Unidade.Catalogo.atualizada.type,
            Espaco.Catalogo.cadastrado.type, Espaco.Catalogo.atualizado.type, Espaco.Catalogo.horarioDefinido.type,
            Espaco.Catalogo.bloqueioAgendado.type, Espaco.Catalogo.bloqueioRemovido.type, Espaco.Catalogo.bloqueioEncurtado.type,
            Espaco.Catalogo.desativado.type, Espaco.Catalogo.reativado.type,
            TabelaDePreco.Catalogo.definida.type, TabelaDePreco.Catalogo.regraAdicionada.type, TabelaDePreco.Catalogo.regraRemovida.type,
        ]
    ) { recorded, batch in
        // The stream as it is now: a rebuild may run ahead of this event, never behind it.
        let history = try await batch.history(recorded.stream)
        switch recorded.stream.category {
        case "unidade":
            if case .existente(let dados) = try fold(history, Unidade.decider, decode: Unidade.Event.decode) {
                try batch.put(UnidadeView(dados), unidades, dados.id.description, ordem: dados.nome.lowercased())
            }
        case "espaco":
            if case .existente(let dados) = try fold(history, Espaco.decider, decode: Espaco.Event.decode) {
                try batch.put(EspacoView(dados), espacos, dados.id.description, grupo: dados.unidade.description, ordem: dados.nome.lowercased())
            }
        case "tabela":
            if case .definida(let tabela) = try fold(history, TabelaDePreco.decider, decode: TabelaDePreco.Event.decode) {
                try batch.put(tabela, tabelas, tabela.espacoId.lowercasedString)
            }
        default:
            return
        }
        try batch.put(Revisao(recorded.position, geracao: batch.geracao), revisoes, revisao)
    }
}
