public import Foundation

/// A member's request to a unit's team (`chamado-<id>`), the help desk: "a internet caiu na sala
/// 3". The member opens it; the team (an admin) and the member exchange messages; either marks it
/// resolved; the member's message on a resolved request opens it again.
///
/// aberto → resolvido → aberto (the member writes again) …
public enum Chamado {
    public typealias ID = Identifier<Chamado>

    public static let tamanhoMaximoDoAssunto = 120
    public static let tamanhoMaximoDaMensagem = 2_000
    /// Messages a request holds: past it, a new request is opened (bounds the stream a read folds).
    public static let mensagensMaximas = 100

    public enum Categoria: String, Codable, Sendable, CaseIterable {
        case internet
        case limpeza
        case manutencao
        case climatizacao
        case impressao
        case acesso
        case outro
    }

    public enum Situacao: String, Codable, Sendable, CaseIterable {
        case aberto
        case resolvido
    }

    /// What the member opens. `usuarioId` (the author) and `unidadeId` are at the top of every
    /// event of the stream, so the member's trail and data export find all of it. The subject and
    /// the description are sealed under the author's key by the service.
    public struct Aberto: Codable, Sendable, Equatable {
        public let chamadoId: ID
        public let usuarioId: String
        public let unidadeId: UUID
        public let categoria: Categoria
        public let assunto: String
        public let descricao: String
        public let em: Date

        public init(chamadoId: ID, usuarioId: String, unidadeId: UUID, categoria: Categoria, assunto: String, descricao: String, em: Date) {
            self.chamadoId = chamadoId
            self.usuarioId = usuarioId
            self.unidadeId = unidadeId
            self.categoria = categoria
            self.assunto = assunto
            self.descricao = descricao
            self.em = em
        }
    }

    /// A message: the author's or the team's (`daEquipe`), its text sealed under the author's key.
    /// `mensagemId` makes a retried message the same one (derived from the writer's
    /// `Idempotency-Key`).
    public struct Respondido: Codable, Sendable, Equatable {
        public let chamadoId: ID
        public let usuarioId: String
        public let unidadeId: UUID
        public let mensagemId: UUID
        public let texto: String
        public let por: String
        public let daEquipe: Bool
        public let em: Date

        public init(_ aberto: Aberto, mensagemId: UUID, texto: String, por: String, daEquipe: Bool, em: Date) {
            chamadoId = aberto.chamadoId
            usuarioId = aberto.usuarioId
            unidadeId = aberto.unidadeId
            self.mensagemId = mensagemId
            self.texto = texto
            self.por = por
            self.daEquipe = daEquipe
            self.em = em
        }
    }

    /// Resolved or reopened: by whom (the team's admin or the author) and when.
    public struct Ocorrencia: Codable, Sendable, Equatable {
        public let chamadoId: ID
        public let usuarioId: String
        public let unidadeId: UUID
        public let por: String
        public let daEquipe: Bool
        public let em: Date

        public init(_ aberto: Aberto, por: String, daEquipe: Bool, em: Date) {
            chamadoId = aberto.chamadoId
            usuarioId = aberto.usuarioId
            unidadeId = aberto.unidadeId
            self.por = por
            self.daEquipe = daEquipe
            self.em = em
        }
    }

    public enum Command: Sendable, Equatable {
        case abrir(Aberto)
        /// A message (`texto` already sealed). The author's reopens a resolved request; the
        /// team's on a resolved one is refused; one already written (its `mensagemId`) is a no-op.
        case responder(mensagemId: UUID, texto: String, por: String, daEquipe: Bool, em: Date)
        /// Twice is a no-op.
        case resolver(por: String, daEquipe: Bool, em: Date)
    }

    public enum Failure: Error, Equatable, Sendable {
        case inexistente
        case jaAberto
        case resolvido
        case mensagensDemais
    }

    public struct Dados: Sendable, Equatable {
        public var abertura: Aberto
        public var situacao: Situacao
        public var mensagens: [Respondido]
        public var resolvidoEm: Date?
        public var resolvidoPor: String?
        public var atualizadoEm: Date
    }

    public enum State: Sendable, Equatable {
        case inexistente
        case existente(Dados)

        public var dados: Dados? {
            if case .existente(let dados) = self { return dados }
            return nil
        }
    }

    public enum Event: PayloadEvent, Equatable {
        case aberto(Aberto)
        case respondido(Respondido)
        case resolvido(Ocorrencia)
        case reaberto(Ocorrencia)

        public var kind: EventKind {
            switch self {
            case .aberto: Catalogo.aberto
            case .respondido: Catalogo.respondido
            case .resolvido: Catalogo.resolvido
            case .reaberto: Catalogo.reaberto
            }
        }

        public var payload: any Encodable & Sendable {
            switch self {
            case .aberto(let payload): payload
            case .respondido(let payload): payload
            case .resolvido(let payload): payload
            case .reaberto(let payload): payload
            }
        }

        public static let decoders = EventDecoders<Event>([
            .kind(Catalogo.aberto, Aberto.self) { .aberto($0) },
            .kind(Catalogo.respondido, Respondido.self) { .respondido($0) },
            .kind(Catalogo.resolvido, Ocorrencia.self) { .resolvido($0) },
            .kind(Catalogo.reaberto, Ocorrencia.self) { .reaberto($0) },
        ])
    }

    public static let decider = Decider<Command, State, Event, Failure>(
        initialState: .inexistente,
        decide: { command, state throws(Failure) in
            switch (command, state) {
            case (.abrir(let aberto), .inexistente):
                return [.aberto(aberto)]
            case (.abrir, .existente):
                throw .jaAberto
            case (_, .inexistente):
                throw .inexistente
            case (.responder(let mensagemId, let texto, let por, let daEquipe, let em), .existente(let dados)):
                guard !dados.mensagens.contains(where: { $0.mensagemId == mensagemId }) else { return [] }
                guard dados.mensagens.count < mensagensMaximas else { throw .mensagensDemais }
                let mensagem = Event.respondido(
                    Respondido(dados.abertura, mensagemId: mensagemId, texto: texto, por: por, daEquipe: daEquipe, em: em))
                guard dados.situacao == .resolvido else { return [mensagem] }
                if daEquipe { throw .resolvido }
                return [.reaberto(Ocorrencia(dados.abertura, por: por, daEquipe: false, em: em)), mensagem]
            case (.resolver(let por, let daEquipe, let em), .existente(let dados)):
                guard dados.situacao == .aberto else { return [] }
                return [.resolvido(Ocorrencia(dados.abertura, por: por, daEquipe: daEquipe, em: em))]
            }
        },
        evolve: { state, event in
            switch (state, event) {
            case (.inexistente, .aberto(let e)):
                return .existente(Dados(abertura: e, situacao: .aberto, mensagens: [], atualizadoEm: e.em))
            case (.existente(var dados), .respondido(let e)):
                dados.mensagens.append(e)
                dados.atualizadoEm = e.em
                return .existente(dados)
            case (.existente(var dados), .resolvido(let e)):
                dados.situacao = .resolvido
                dados.resolvidoEm = e.em
                dados.resolvidoPor = e.por
                dados.atualizadoEm = e.em
                return .existente(dados)
            case (.existente(var dados), .reaberto(let e)):
                dados.situacao = .aberto
                dados.resolvidoEm = nil
                dados.resolvidoPor = nil
                dados.atualizadoEm = e.em
                return .existente(dados)
            default:
                return state
            }
        })
}
