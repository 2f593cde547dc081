public import Foundation

/// A guided tour of a unit for a prospect (`tour-<id>`): someone who is not a member yet books a
/// time on the public site (or the team books it for a phone lead); the team receives them and
/// records how it went (done, with a note, or a no-show); either side may cancel before the
/// start. The prospect's contact arrives sealed under the tour's own key (the domain never sees
/// it in clear) and is erased by a timer once the sales follow-up is over (``retencao`` after the
/// start), an hour after a cancellation, or at once at the prospect's request.
///
/// The places of a unit's day are counted in ``AgendaDeTours`` (`agendadetours-<unidade>-<dia>`):
/// a booking and a cancellation append to both streams at once.
///
/// agendado → realizado | ausente; agendado → cancelado.
public enum Tour {
    public typealias ID = Identifier<Tour>

    /// The actor of what the system does on its own (the retention timer).
    public static let sistema = "system:tours"
    /// What a prospect's own cancellation names as its author (they have no account).
    public static let visitante = "visitante"
    /// How soon a prospect may book on the public site (the team may book from now on).
    public static let antecedenciaMinima: TimeInterval = 60 * 60
    /// How far ahead a tour may be booked.
    public static let antecedenciaMaxima: TimeInterval = 60 * 24 * 60 * 60
    /// How far ahead a tour is booked at least: from the public site ``antecedenciaMinima``; by
    /// the team (`equipe`: a prospect at the desk, a phone lead), any time not begun.
    public static func antecedencia(equipe: Bool) -> TimeInterval { equipe ? 0 : antecedenciaMinima }
    /// The team may record a tour as done from this long before its start (a prospect who came early).
    public static let realizacaoAntecipada: TimeInterval = 60 * 60
    /// The prospect's contact is kept this long after the tour's start (the sales follow-up), then erased.
    public static let retencao: TimeInterval = 90 * 24 * 60 * 60
    /// A cancelled tour's contact is erased this long after the cancellation: time for
    /// notificacoes to tell the prospect (it opens their address).
    public static let guardaAposCancelamento: TimeInterval = 60 * 60

    public static let tamanhoMaximoDoNome = 120
    public static let tamanhoMaximoDaEmpresa = 120
    public static let tamanhoMaximoDoTelefone = 30
    public static let tamanhoMaximoDaMensagem = 1_000
    public static let tamanhoMaximoDaNota = 1_000
    public static let tamanhoMaximoDoMotivo = 300
    public static let pessoasMaximas = 50

    public enum Situacao: String, Codable, Sendable, CaseIterable {
        /// Booked; not happened yet.
        case agendado
        /// The team received the prospect.
        case realizado
        /// The prospect did not come.
        case ausente
        /// Cancelled by the prospect or the team before the start.
        case cancelado
    }

    /// What the prospect is looking for (the team's first question).
    public enum Interesse: String, Codable, Sendable, CaseIterable {
        case posicaoFlexivel = "posicao_flexivel"
        case posicaoFixa = "posicao_fixa"
        case salaPrivativa = "sala_privativa"
        case salaDeReuniao = "sala_de_reuniao"
        case escritorioVirtual = "escritorio_virtual"
        case outro
    }

    /// Where the booking came from: the public site, or the team (a phone lead).
    public enum Origem: String, Codable, Sendable, CaseIterable {
        case site
        case equipe
    }

    /// The prospect's contact, every field sealed (`pii:v1:<tourId>:…`); an erased one reads
    /// back as nothing.
    public struct Contato: Codable, Sendable, Equatable {
        public let nome: String
        public let email: String
        public let telefone: String?
        public let empresa: String?
        public let mensagem: String?

        public init(nome: String, email: String, telefone: String?, empresa: String?, mensagem: String?) {
            self.nome = nome
            self.email = email
            self.telefone = telefone
            self.empresa = empresa
            self.mensagem = mensagem
        }
    }

    /// A booked tour: where, when (and its local day at the unit, for the team's list), who.
    public struct Agendado: Codable, Sendable, Equatable {
        public let tourId: ID
        public let unidadeId: UUID
        public let dia: String
        public let inicio: Date
        public let fim: Date
        public let origem: Origem
        public let interesse: Interesse?
        public let pessoas: Int
        public let contato: Contato
        /// The admin who booked it for a phone lead; nil from the public site.
        public let por: String?
        public let em: Date

        public init(
            tourId: ID, unidadeId: UUID, dia: String, inicio: Date, fim: Date, origem: Origem, interesse: Interesse?, pessoas: Int,
            contato: Contato, por: String?, em: Date
        ) {
            self.tourId = tourId
            self.unidadeId = unidadeId
            self.dia = dia
            self.inicio = inicio
            self.fim = fim
            self.origem = origem
            self.interesse = interesse
            self.pessoas = pessoas
            self.contato = contato
            self.por = por
            self.em = em
        }
    }

    /// Cancelled before the start: by the prospect (`por` ``visitante``) or an admin, with the
    /// team's reason (sealed under the tour's key: it may speak of the prospect).
    public struct Cancelado: Codable, Sendable, Equatable {
        public let tourId: ID
        public let unidadeId: UUID
        public let dia: String
        public let inicio: Date
        public let por: String
        public let motivo: String?
        public let em: Date

        public var pelaEquipe: Bool { por != Tour.visitante }
    }

    /// How it went: done (with the team's note, sealed) or a no-show.
    public struct Concluido: Codable, Sendable, Equatable {
        public let tourId: ID
        public let unidadeId: UUID
        public let dia: String
        public let inicio: Date
        public let nota: String?
        public let por: String
        public let em: Date
    }

    public struct DadosApagados: Codable, Sendable, Equatable {
        public let tourId: ID
        public let unidadeId: UUID
        public let dia: String
        public let por: String
        public let em: Date
    }

    public enum Command: Sendable, Equatable {
        /// The public site (`por` nil, from ``antecedenciaMinima`` ahead) or the team.
        case agendar(Agendado)
        /// Twice is a no-op.
        case cancelar(por: String, motivo: String?, em: Date)
        case realizar(nota: String?, por: String, em: Date)
        case registrarAusencia(por: String, em: Date)
        /// The retention timer. Twice is a no-op.
        case apagarDados(em: Date)
        /// An operator, at the prospect's request (LGPD): whatever the tour's state. Twice is a no-op.
        case apagarAgora(por: String, em: Date)
    }

    public enum Failure: Error, Equatable, Sendable {
        case inexistente
        case jaAgendado
        /// The start is past, or (from the public site) less than ``antecedenciaMinima`` ahead.
        case cedoDemaisParaAgendar
        /// More than ``antecedenciaMaxima`` ahead.
        case longeDemais
        case cancelado
        /// Done or a no-show already.
        case concluido
        /// A cancellation after the start.
        case iniciado
        /// Recorded as done before ``realizacaoAntecipada`` ahead of the start, or as a no-show
        /// before the start: from `aPartirDe`.
        case cedoDemais(aPartirDe: Date)
        case retencaoNaoVenceu(em: Date)
    }

    public struct Dados: Sendable, Equatable {
        public var agendado: Agendado
        public var situacao: Situacao
        public var cancelado: Cancelado?
        public var concluido: Concluido?
        public var dadosApagados: Bool

        public var id: ID { agendado.tourId }

        /// When the contact's retention ends: an hour after a cancellation, otherwise
        /// ``Tour/retencao`` after the start.
        public var retencaoAte: Date {
            cancelado.map { $0.em.addingTimeInterval(guardaAposCancelamento) } ?? agendado.inicio.addingTimeInterval(retencao)
        }
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
        case agendado(Agendado)
        case cancelado(Cancelado)
        case realizado(Concluido)
        case ausente(Concluido)
        case dadosApagados(DadosApagados)

        public var kind: EventKind {
            switch self {
            case .agendado: Catalogo.agendado
            case .cancelado: Catalogo.cancelado
            case .realizado: Catalogo.realizado
            case .ausente: Catalogo.ausente
            case .dadosApagados: Catalogo.dadosApagados
            }
        }

        public var payload: any Encodable & Sendable {
            switch self {
            case .agendado(let payload): payload
            case .cancelado(let payload): payload
            case .realizado(let payload): payload
            case .ausente(let payload): payload
            case .dadosApagados(let payload): payload
            }
        }

        public var tourId: ID {
            switch self {
            case .agendado(let e): e.tourId
            case .cancelado(let e): e.tourId
            case .realizado(let e), .ausente(let e): e.tourId
            case .dadosApagados(let e): e.tourId
            }
        }

        public static let decoders = EventDecoders<Event>([
            .kind(Catalogo.agendado, Agendado.self) { .agendado($0) },
            .kind(Catalogo.cancelado, Cancelado.self) { .cancelado($0) },
            .kind(Catalogo.realizado, Concluido.self) { .realizado($0) },
            .kind(Catalogo.ausente, Concluido.self) { .ausente($0) },
            .kind(Catalogo.dadosApagados, DadosApagados.self) { .dadosApagados($0) },
        ])
    }

    static func agendar(_ e: Agendado) throws(Failure) -> [Event] {
        guard e.inicio >= e.em.addingTimeInterval(antecedencia(equipe: e.por != nil)) else { throw .cedoDemaisParaAgendar }
        guard e.inicio <= e.em.addingTimeInterval(antecedenciaMaxima) else { throw .longeDemais }
        return [.agendado(e)]
    }

    static func concluir(_ dados: Dados, compareceu: Bool, nota: String?, por: String, em: Date) throws(Failure) -> [Event] {
        switch dados.situacao {
        case .agendado: break
        case .cancelado: throw .cancelado
        case .realizado, .ausente: throw .concluido
        }
        let a = dados.agendado
        let aPartirDe = compareceu ? a.inicio.addingTimeInterval(-realizacaoAntecipada) : a.inicio
        guard em >= aPartirDe else { throw .cedoDemais(aPartirDe: aPartirDe) }
        // Once the contact is erased, no new text about the prospect is kept.
        let nota = dados.dadosApagados ? nil : nota
        let concluido = Concluido(tourId: a.tourId, unidadeId: a.unidadeId, dia: a.dia, inicio: a.inicio, nota: nota, por: por, em: em)
        return [compareceu ? .realizado(concluido) : .ausente(concluido)]
    }

    static func cancelar(_ dados: Dados, por: String, motivo: String?, em: Date) throws(Failure) -> [Event] {
        switch dados.situacao {
        case .agendado: break
        case .cancelado: return []
        case .realizado, .ausente: throw .concluido
        }
        let a = dados.agendado
        guard em < a.inicio else { throw .iniciado }
        let motivo = dados.dadosApagados ? nil : motivo
        return [.cancelado(Cancelado(tourId: a.tourId, unidadeId: a.unidadeId, dia: a.dia, inicio: a.inicio, por: por, motivo: motivo, em: em))]
    }

    static func apagados(_ dados: Dados, por: String, em: Date) -> [Event] {
        let a = dados.agendado
        return dados.dadosApagados ? [] : [.dadosApagados(DadosApagados(tourId: a.tourId, unidadeId: a.unidadeId, dia: a.dia, por: por, em: em))]
    }

    public static let decider = Decider<Command, State, Event, Failure>(
        initialState: .inexistente,
        decide: { command, state throws(Failure) in
            switch (command, state) {
            case (.agendar(let e), .inexistente): return try agendar(e)
            case (.agendar, .existente): throw .jaAgendado
            case (_, .inexistente): throw .inexistente
            case (.cancelar(let por, let motivo, let em), .existente(let dados)): return try cancelar(dados, por: por, motivo: motivo, em: em)
            case (.realizar(let nota, let por, let em), .existente(let dados)):
                return try concluir(dados, compareceu: true, nota: nota, por: por, em: em)
            case (.registrarAusencia(let por, let em), .existente(let dados)):
                return try concluir(dados, compareceu: false, nota: nil, por: por, em: em)
            case (.apagarDados(let em), .existente(let dados)):
                guard dados.dadosApagados || em >= dados.retencaoAte else { throw .retencaoNaoVenceu(em: dados.retencaoAte) }
                return apagados(dados, por: sistema, em: em)
            case (.apagarAgora(let por, let em), .existente(let dados)):
                return apagados(dados, por: por, em: em)
            }
        },
        evolve: { state, event in
            switch (state, event) {
            case (.inexistente, .agendado(let e)):
                return .existente(Dados(agendado: e, situacao: .agendado, dadosApagados: false))
            case (.existente(var dados), .cancelado(let e)):
                dados.situacao = .cancelado
                dados.cancelado = e
                return .existente(dados)
            case (.existente(var dados), .realizado(let e)):
                dados.situacao = .realizado
                dados.concluido = e
                return .existente(dados)
            case (.existente(var dados), .ausente(let e)):
                dados.situacao = .ausente
                dados.concluido = e
                return .existente(dados)
            case (.existente(var dados), .dadosApagados):
                dados.dadosApagados = true
                return .existente(dados)
            default:
                return state
            }
        },
        isTerminal: { state in state.dados?.dadosApagados ?? false })
}
