public import Foundation

extension Pacote {
    public struct Criado: Codable, Sendable, Equatable {
        public let pacoteId: UUID
        public let oferta: Oferta
        public let descricao: String?
        public let por: String
        public let em: Date
    }

    public struct Arquivado: Codable, Sendable, Equatable {
        public let pacoteId: UUID
        public let por: String
        public let em: Date
    }

    public enum Event: PayloadEvent, Equatable {
        case criado(Criado)
        case arquivado(Arquivado)

        public var kind: EventKind {
            switch self {
            case .criado: Catalogo.criado
            case .arquivado: Catalogo.arquivado
            }
        }

        public var payload: any Encodable & Sendable {
            switch self {
            case .criado(let payload): payload
            case .arquivado(let payload): payload
            }
        }

        public static let decoders = EventDecoders<Event>([
            .kind(Catalogo.criado, Criado.self) { .criado($0) },
            .kind(Catalogo.arquivado, Arquivado.self) { .arquivado($0) },
        ])
    }
}
