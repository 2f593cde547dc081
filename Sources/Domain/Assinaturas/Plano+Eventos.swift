public import Foundation

extension Plano {
    public struct Criado: Codable, Sendable, Equatable {
        public let planoId: UUID
        public let nome: String
        public let descricao: String?
        public let unidadeId: UUID?
        public let versao: Versao
        public let por: String
        public let em: Date
    }

    public struct Revisado: Codable, Sendable, Equatable {
        public let planoId: UUID
        public let versao: Versao
        public let por: String
        public let em: Date
    }

    public struct Arquivado: Codable, Sendable, Equatable {
        public let planoId: UUID
        public let por: String
        public let em: Date
    }

    public enum Event: PayloadEvent, Equatable {
        case criado(Criado)
        case revisado(Revisado)
        case arquivado(Arquivado)

        public var kind: EventKind {
            switch self {
            case .criado: Catalogo.criado
            case .revisado: Catalogo.revisado
            case .arquivado: Catalogo.arquivado
            }
        }

        public var payload: any Encodable & Sendable {
            switch self {
            case .criado(let payload): payload
            case .revisado(let payload): payload
            case .arquivado(let payload): payload
            }
        }

        public static let decoders = EventDecoders<Event>([
            .kind(Catalogo.criado, Criado.self) { .criado($0) },
            .kind(Catalogo.revisado, Revisado.self) { .revisado($0) },
            .kind(Catalogo.arquivado, Arquivado.self) { .arquivado($0) },
        ])
    }
}
