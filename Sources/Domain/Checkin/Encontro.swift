public import Foundation

/// A community event at a unit (`encontro-<id>`): a talk, a workshop, a happy hour. The team (an
/// admin) publishes it with a number of places; members sign up while there is room and join a
/// waiting list when it is full; a member who gives up their place hands it to the first on the
/// list, in the same append. ("Evento" is the event log's word in this code base: hence
/// "encontro"; the web app says "Eventos".)
///
/// Every place is counted in the one stream, so no two sign-ups take the last place: the
/// second one's append conflicts, is decided again on the new state and joins the list.
public enum Encontro {
    public typealias ID = Identifier<Encontro>

    public static let tamanhoMaximoDoTitulo = 120
    public static let tamanhoMaximoDaDescricao = 2_000
    public static let tamanhoMaximoDoLocal = 120
    /// Places an event may offer (bounds its document).
    public static let vagasMaximas = 300
    /// People a full event's waiting list holds.
    public static let esperaMaxima = 50
    /// Times one member may sign up to one event (giving up in between): bounds the stream, and
    /// the notices a member taking and leaving a place would send those who wait.
    public static let inscricoesPorMembro = 3
    /// The longest event, in seconds (12 hours).
    public static let duracaoMaxima: TimeInterval = 12 * 3_600

    /// What the team publishes. Texts are trimmed; the description and the place are optional.
    public struct Publicado: Codable, Sendable, Equatable {
        public let encontroId: ID
        public let unidadeId: UUID
        public let titulo: String
        public let descricao: String?
        /// Where in the unit ("Auditório, 2º andar").
        public let local: String?
        public let inicio: Date
        public let fim: Date
        public let vagas: Int
        public let por: String
        public let em: Date

        public init(
            encontroId: ID, unidadeId: UUID, titulo: String, descricao: String?, local: String?, inicio: Date, fim: Date, vagas: Int,
            por: String, em: Date
        ) {
            self.encontroId = encontroId
            self.unidadeId = unidadeId
            self.titulo = titulo
            self.descricao = descricao
            self.local = local
            self.inicio = inicio
            self.fim = fim
            self.vagas = vagas
            self.por = por
            self.em = em
        }
    }

    /// The team's change of the texts or the places (the time is not changed: an event at
    /// another time is another event, and its people are told when this one is cancelled).
    public struct Alterado: Codable, Sendable, Equatable {
        public let encontroId: ID
        public let unidadeId: UUID
        public let titulo: String
        public let descricao: String?
        public let local: String?
        public let vagas: Int
        public let por: String
        public let em: Date
    }

    public struct Cancelado: Codable, Sendable, Equatable {
        public let encontroId: ID
        public let unidadeId: UUID
        public let motivo: String?
        public let por: String
        public let em: Date
    }

    /// A member signed up: with a place, or on the waiting list (`naEspera`).
    public struct Inscrito: Codable, Sendable, Equatable {
        public let encontroId: ID
        public let usuarioId: String
        public let unidadeId: UUID
        public let naEspera: Bool
        public let em: Date
    }

    /// Why a member's sign-up ended.
    public enum Razao: String, Codable, Sendable, CaseIterable {
        /// The member gave it up.
        case desistencia
        /// The team cancelled the event (its people are told).
        case encontroCancelado = "encontro_cancelado"
        /// The member's account was erased (LGPD).
        case contaApagada = "conta_apagada"
    }

    public struct Desistiu: Codable, Sendable, Equatable {
        public let encontroId: ID
        public let usuarioId: String
        public let unidadeId: UUID
        public let razao: Razao
        /// They had a place (the calendar invitation to withdraw), not a place in the waiting list.
        public let tinhaVaga: Bool
        public let por: String
        public let em: Date
    }

    /// The first on the waiting list got a place (someone gave theirs up, or the team added places).
    public struct VagaConcedida: Codable, Sendable, Equatable {
        public let encontroId: ID
        public let usuarioId: String
        public let unidadeId: UUID
        public let em: Date
    }

    public enum Command: Sendable, Equatable {
        case publicar(Publicado)
        case alterar(titulo: String, descricao: String?, local: String?, vagas: Int, por: String, em: Date)
        /// Twice is a no-op.
        case cancelar(motivo: String?, por: String, em: Date)
        /// Signed up already (with a place or waiting): a no-op.
        case inscrever(usuarioId: String, em: Date)
        /// Not signed up: a no-op.
        case desistir(usuarioId: String, razao: Razao, por: String, em: Date)
    }

    public enum Failure: Error, Equatable, Sendable {
        case inexistente
        case jaPublicado
        case tituloInvalido
        case descricaoInvalida
        case localInvalido
        case vagasInvalidas
        /// The end is not after the start, or the event lasts more than ``duracaoMaxima``.
        case periodoInvalido
        /// Published with a start already past.
        case noPassado
        case cancelado
        /// It has started: nobody signs up, gives up, changes or cancels it any more.
        case iniciado
        /// Fewer places than people who have one.
        case vagasAbaixoDosInscritos(confirmados: Int)
        /// Full, and its waiting list too.
        case lotado
        /// The member signed up ``inscricoesPorMembro`` times already.
        case inscricoesDemais
    }

    public struct Pessoa: Sendable, Equatable {
        public let usuarioId: String
        public let em: Date
    }

    public struct Dados: Sendable, Equatable {
        public var publicado: Publicado
        public var titulo: String
        public var descricao: String?
        public var local: String?
        public var vagas: Int
        /// Who has a place, in the order they got it.
        public var confirmados: [Pessoa]
        /// Who waits, first come first served.
        public var espera: [Pessoa]
        public var cancelado: Cancelado?
        /// How many times each member signed up.
        public var inscricoes: [String: Int] = [:]

        public func situacao(de usuario: String) -> Situacao? {
            if confirmados.contains(where: { $0.usuarioId == usuario }) { return .confirmada }
            if espera.contains(where: { $0.usuarioId == usuario }) { return .espera }
            return nil
        }
    }

    /// A member's sign-up.
    public enum Situacao: String, Codable, Sendable, CaseIterable {
        case confirmada
        case espera
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
        case publicado(Publicado)
        case alterado(Alterado)
        case cancelado(Cancelado)
        case inscrito(Inscrito)
        case desistiu(Desistiu)
        case vagaConcedida(VagaConcedida)

        public var kind: EventKind {
            switch self {
            case .publicado: Catalogo.publicado
            case .alterado: Catalogo.alterado
            case .cancelado: Catalogo.cancelado
            case .inscrito: Catalogo.inscrito
            case .desistiu: Catalogo.desistiu
            case .vagaConcedida: Catalogo.vagaConcedida
            }
        }

        public var payload: any Encodable & Sendable {
            switch self {
            case .publicado(let payload): payload
            case .alterado(let payload): payload
            case .cancelado(let payload): payload
            case .inscrito(let payload): payload
            case .desistiu(let payload): payload
            case .vagaConcedida(let payload): payload
            }
        }

        /// The event it happened to.
        public var encontroId: ID {
            switch self {
            case .publicado(let e): e.encontroId
            case .alterado(let e): e.encontroId
            case .cancelado(let e): e.encontroId
            case .inscrito(let e): e.encontroId
            case .desistiu(let e): e.encontroId
            case .vagaConcedida(let e): e.encontroId
            }
        }

        public static let decoders = EventDecoders<Event>([
            .kind(Catalogo.publicado, Publicado.self) { .publicado($0) },
            .kind(Catalogo.alterado, Alterado.self) { .alterado($0) },
            .kind(Catalogo.cancelado, Cancelado.self) { .cancelado($0) },
            .kind(Catalogo.inscrito, Inscrito.self) { .inscrito($0) },
            .kind(Catalogo.desistiu, Desistiu.self) { .desistiu($0) },
            .kind(Catalogo.vagaConcedida, VagaConcedida.self) { .vagaConcedida($0) },
        ])
    }

    /// The texts trimmed, a blank optional one nil; or what is wrong. Lengths count the text as
    /// sent (``TextoLivre``).
    static func textos(titulo: String, descricao: String?, local: String?) throws(Failure) -> (String, String?, String?) {
        let limpo = titulo.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !limpo.isEmpty, TextoLivre.cabe(titulo, maximo: tamanhoMaximoDoTitulo) else { throw .tituloInvalido }
        if let descricao, !TextoLivre.cabe(descricao, maximo: tamanhoMaximoDaDescricao) { throw .descricaoInvalida }
        if let local, !TextoLivre.cabe(local, maximo: tamanhoMaximoDoLocal) { throw .localInvalido }
        func opcional(_ texto: String?) -> String? {
            guard let texto = texto?.trimmingCharacters(in: .whitespacesAndNewlines), !texto.isEmpty else { return nil }
            return texto
        }
        return (limpo, opcional(descricao), opcional(local))
    }

    static func desistiu(_ p: Publicado, _ usuario: String, _ razao: Razao, tinhaVaga: Bool, por: String, em: Date) -> Event {
        .desistiu(
            Desistiu(encontroId: p.encontroId, usuarioId: usuario, unidadeId: p.unidadeId, razao: razao, tinhaVaga: tinhaVaga, por: por, em: em))
    }

    public static let decider = Decider<Command, State, Event, Failure>(
        initialState: .inexistente,
        decide: { command, state throws(Failure) in
            switch (command, state) {
            case (.publicar(let p), .inexistente):
                let (titulo, descricao, local) = try textos(titulo: p.titulo, descricao: p.descricao, local: p.local)
                guard (1...vagasMaximas).contains(p.vagas) else { throw .vagasInvalidas }
                guard p.fim > p.inicio, p.fim.timeIntervalSince(p.inicio) <= duracaoMaxima else { throw .periodoInvalido }
                guard p.inicio > p.em else { throw .noPassado }
                return [
                    .publicado(
                        Publicado(
                            encontroId: p.encontroId, unidadeId: p.unidadeId, titulo: titulo, descricao: descricao, local: local, inicio: p.inicio,
                            fim: p.fim, vagas: p.vagas, por: p.por, em: p.em))
                ]
            case (.publicar, .existente):
                throw .jaPublicado
            case (_, .inexistente):
                throw .inexistente

            case (.alterar(let tituloNovo, let descricaoNova, let localNovo, let vagas, let por, let em), .existente(let dados)):
                guard dados.cancelado == nil else { throw .cancelado }
                guard em < dados.publicado.inicio else { throw .iniciado }
                let (titulo, descricao, local) = try textos(titulo: tituloNovo, descricao: descricaoNova, local: localNovo)
                guard (1...vagasMaximas).contains(vagas) else { throw .vagasInvalidas }
                guard vagas >= dados.confirmados.count else { throw .vagasAbaixoDosInscritos(confirmados: dados.confirmados.count) }
                guard titulo != dados.titulo || descricao != dados.descricao || local != dados.local || vagas != dados.vagas else { return [] }
                let p = dados.publicado
                let promovidos = dados.espera.prefix(max(0, vagas - dados.confirmados.count))
                return [
                    .alterado(
                        Alterado(
                            encontroId: p.encontroId, unidadeId: p.unidadeId, titulo: titulo, descricao: descricao, local: local, vagas: vagas,
                            por: por, em: em))
                ]
                    + promovidos.map {
                        .vagaConcedida(VagaConcedida(encontroId: p.encontroId, usuarioId: $0.usuarioId, unidadeId: p.unidadeId, em: em))
                    }

            case (.cancelar(let motivo, let por, let em), .existente(let dados)):
                guard dados.cancelado == nil else { return [] }
                guard em < dados.publicado.inicio else { throw .iniciado }
                let p = dados.publicado
                let motivo = motivo?.trimmingCharacters(in: .whitespacesAndNewlines)
                // Each person signed up gets an event of their own: their trail lists it, and
                // notificacoes tells each of them.
                return [
                    .cancelado(
                        Cancelado(encontroId: p.encontroId, unidadeId: p.unidadeId, motivo: motivo?.isEmpty == true ? nil : motivo, por: por, em: em))
                ]
                    + dados.confirmados.map { desistiu(p, $0.usuarioId, .encontroCancelado, tinhaVaga: true, por: por, em: em) }
                    + dados.espera.map { desistiu(p, $0.usuarioId, .encontroCancelado, tinhaVaga: false, por: por, em: em) }

            case (.inscrever(let usuario, let em), .existente(let dados)):
                guard dados.cancelado == nil else { throw .cancelado }
                guard em < dados.publicado.inicio else { throw .iniciado }
                guard dados.situacao(de: usuario) == nil else { return [] }
                guard dados.inscricoes[usuario, default: 0] < inscricoesPorMembro else { throw .inscricoesDemais }
                let p = dados.publicado
                let naEspera = dados.confirmados.count >= dados.vagas
                if naEspera, dados.espera.count >= esperaMaxima { throw .lotado }
                return [.inscrito(Inscrito(encontroId: p.encontroId, usuarioId: usuario, unidadeId: p.unidadeId, naEspera: naEspera, em: em))]

            case (.desistir(let usuario, let razao, let por, let em), .existente(let dados)):
                guard dados.cancelado == nil, let situacao = dados.situacao(de: usuario) else { return [] }
                // After the start a place is history: the member's own giving up is refused;
                // an erased account keeps it (its id names nobody).
                guard em < dados.publicado.inicio else {
                    if razao == .desistencia { throw .iniciado }
                    return []
                }
                let p = dados.publicado
                let desistiu = desistiu(p, usuario, razao, tinhaVaga: situacao == .confirmada, por: por, em: em)
                guard situacao == .confirmada, let proximo = dados.espera.first else { return [desistiu] }
                return [
                    desistiu, .vagaConcedida(VagaConcedida(encontroId: p.encontroId, usuarioId: proximo.usuarioId, unidadeId: p.unidadeId, em: em)),
                ]
            }
        },
        evolve: { state, event in
            switch (state, event) {
            case (.inexistente, .publicado(let e)):
                return .existente(
                    Dados(
                        publicado: e, titulo: e.titulo, descricao: e.descricao, local: e.local, vagas: e.vagas, confirmados: [], espera: [],
                        cancelado: nil))
            case (.existente(var dados), .alterado(let e)):
                dados.titulo = e.titulo
                dados.descricao = e.descricao
                dados.local = e.local
                dados.vagas = e.vagas
                return .existente(dados)
            case (.existente(var dados), .cancelado(let e)):
                dados.cancelado = e
                return .existente(dados)
            case (.existente(var dados), .inscrito(let e)):
                dados.inscricoes[e.usuarioId, default: 0] += 1
                if e.naEspera {
                    dados.espera.append(Pessoa(usuarioId: e.usuarioId, em: e.em))
                } else {
                    dados.confirmados.append(Pessoa(usuarioId: e.usuarioId, em: e.em))
                }
                return .existente(dados)
            case (.existente(var dados), .desistiu(let e)):
                dados.confirmados.removeAll { $0.usuarioId == e.usuarioId }
                dados.espera.removeAll { $0.usuarioId == e.usuarioId }
                return .existente(dados)
            case (.existente(var dados), .vagaConcedida(let e)):
                dados.espera.removeAll { $0.usuarioId == e.usuarioId }
                dados.confirmados.append(Pessoa(usuarioId: e.usuarioId, em: e.em))
                return .existente(dados)
            default:
                return state
            }
        })
}
