public import Foundation

extension Visita {
    /// A visitor registered by their host (`por` is the host, or an admin registering for them).
    public struct Registrada: Codable, Sendable, Equatable {
        public let registro: Registro
        public let por: String
        public let em: Date

        public init(_ registro: Registro, por: String, em: Date) {
            self.registro = registro
            self.por = por
            self.em = em
        }
    }

    /// Who the visit concerns and who acted when; shared by the events after ``Registrada``.
    /// `usuarioId` is the host's, so the host's export and audit trail find these events.
    public struct Ocorrencia: Codable, Sendable, Equatable {
        public let visitaId: ID
        public let usuarioId: String
        public let unidadeId: UUID
        public let dia: String
        public let chegadaPrevista: Date
        public let por: String
        public let em: Date

        public init(_ registro: Registro, por: String, em: Date) {
            visitaId = registro.visitaId
            usuarioId = registro.usuarioId
            unidadeId = registro.unidadeId
            dia = registro.dia
            chegadaPrevista = registro.chegadaPrevista
            self.por = por
            self.em = em
        }
    }

    public enum Event: PayloadEvent, Equatable {
        case registrada(Registrada)
        case cancelada(Ocorrencia)
        case chegou(Ocorrencia)
        case saiu(Ocorrencia)
        case dadosApagados(Ocorrencia)

        public var kind: EventKind {
            switch self {
            case .registrada: Catalogo.registrada
            case .cancelada: Catalogo.cancelada
            case .chegou: Catalogo.chegou
            case .saiu: Catalogo.saiu
            case .dadosApagados: Catalogo.dadosApagados
            }
        }

        public var payload: any Encodable & Sendable {
            switch self {
            case .registrada(let payload): payload
            case .cancelada(let payload): payload
            case .chegou(let payload): payload
            case .saiu(let payload): payload
            case .dadosApagados(let payload): payload
            }
        }

        public static let decoders = EventDecoders<Event>([
            .kind(Catalogo.registrada, Registrada.self) { .registrada($0) },
            .kind(Catalogo.cancelada, Ocorrencia.self) { .cancelada($0) },
            .kind(Catalogo.chegou, Ocorrencia.self) { .chegou($0) },
            .kind(Catalogo.saiu, Ocorrencia.self) { .saiu($0) },
            .kind(Catalogo.dadosApagados, Ocorrencia.self) { .dadosApagados($0) },
        ])
    }
}
