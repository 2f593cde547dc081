public import Foundation

/// A letter or parcel held at a unit's front desk for a member (`encomenda-<id>`): the desk
/// registers what arrived and for whom; the member is told; the desk records the hand-over when
/// the member picks it up, or cancels a registration made by mistake.
///
/// aguardando → retirada; aguardando → cancelada.
public enum Encomenda {
    public typealias ID = Identifier<Encomenda>

    public static let tamanhoMaximoDoRemetente = 120
    public static let tamanhoMaximoDaObservacao = 500

    public enum Tipo: String, Codable, Sendable, CaseIterable {
        case carta
        case pacote
        case outro
    }

    public enum Situacao: String, Codable, Sendable, CaseIterable {
        /// At the desk, waiting for the member.
        case aguardando
        /// Handed over to the member.
        case retirada
        /// Registered by mistake: nothing waits.
        case cancelada
    }

    /// What the desk registers. `usuarioId` is the recipient (top level in the stored payload,
    /// so the member's trail and data export find every event of it).
    public struct Registrada: Codable, Sendable, Equatable {
        public let encomendaId: ID
        public let usuarioId: String
        public let unidadeId: UUID
        public let tipo: Tipo
        /// Who sent it, as the label reads ("Correios", "Amazon"); optional.
        public let remetente: String?
        /// The desk's note: where it is kept, its size.
        public let observacao: String?
        public let por: String
        public let em: Date

        public init(
            encomendaId: ID, usuarioId: String, unidadeId: UUID, tipo: Tipo, remetente: String?, observacao: String?, por: String, em: Date
        ) {
            self.encomendaId = encomendaId
            self.usuarioId = usuarioId
            self.unidadeId = unidadeId
            self.tipo = tipo
            self.remetente = remetente
            self.observacao = observacao
            self.por = por
            self.em = em
        }
    }

    /// A hand-over or a cancellation: the recipient and the unit again (for the trail and the
    /// lists), who at the desk did it, and when.
    public struct Ocorrencia: Codable, Sendable, Equatable {
        public let encomendaId: ID
        public let usuarioId: String
        public let unidadeId: UUID
        public let por: String
        public let em: Date

        public init(_ registrada: Registrada, por: String, em: Date) {
            encomendaId = registrada.encomendaId
            usuarioId = registrada.usuarioId
            unidadeId = registrada.unidadeId
            self.por = por
            self.em = em
        }
    }

    public enum Command: Sendable, Equatable {
        case registrar(Registrada)
        /// The member picked it up; `por` is the desk.
        case entregar(por: String, em: Date)
        /// Registered by mistake. Twice is a no-op.
        case cancelar(por: String, em: Date)
    }

    public enum Failure: Error, Equatable, Sendable {
        case inexistente
        case jaRegistrada
        case jaRetirada
        case cancelada
    }

    public struct Dados: Sendable, Equatable {
        public var registro: Registrada
        public var situacao: Situacao
        public var retiradaEm: Date?
        /// Who at the desk handed it over.
        public var entreguePor: String?
        public var canceladaEm: Date?
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
        case registrada(Registrada)
        case retirada(Ocorrencia)
        case cancelada(Ocorrencia)

        public var kind: EventKind {
            switch self {
            case .registrada: Catalogo.registrada
            case .retirada: Catalogo.retirada
            case .cancelada: Catalogo.cancelada
            }
        }

        public var payload: any Encodable & Sendable {
            switch self {
            case .registrada(let payload): payload
            case .retirada(let payload): payload
            case .cancelada(let payload): payload
            }
        }

        public static let decoders = EventDecoders<Event>([
            .kind(Catalogo.registrada, Registrada.self) { .registrada($0) },
            .kind(Catalogo.retirada, Ocorrencia.self) { .retirada($0) },
            .kind(Catalogo.cancelada, Ocorrencia.self) { .cancelada($0) },
        ])
    }

    public static let decider = Decider<Command, State, Event, Failure>(
        initialState: .inexistente,
        decide: { command, state throws(Failure) in
            switch (command, state) {
            case (.registrar(let registrada), .inexistente):
                return [.registrada(registrada)]
            case (.registrar, .existente):
                throw .jaRegistrada
            case (_, .inexistente):
                throw .inexistente
            case (.entregar(let por, let em), .existente(let dados)):
                switch dados.situacao {
                case .aguardando: return [.retirada(Ocorrencia(dados.registro, por: por, em: em))]
                case .retirada: throw .jaRetirada
                case .cancelada: throw .cancelada
                }
            case (.cancelar(let por, let em), .existente(let dados)):
                switch dados.situacao {
                case .aguardando: return [.cancelada(Ocorrencia(dados.registro, por: por, em: em))]
                case .retirada: throw .jaRetirada
                case .cancelada: return []
                }
            }
        },
        evolve: { state, event in
            switch (state, event) {
            case (.inexistente, .registrada(let e)):
                return .existente(Dados(registro: e, situacao: .aguardando))
            case (.existente(var dados), .retirada(let e)):
                dados.situacao = .retirada
                dados.retiradaEm = e.em
                dados.entreguePor = e.por
                return .existente(dados)
            case (.existente(var dados), .cancelada(let e)):
                dados.situacao = .cancelada
                dados.canceladaEm = e.em
                return .existente(dados)
            default:
                return state
            }
        },
        isTerminal: { state in state.dados.map { $0.situacao != .aguardando } ?? false })
}
