public import Foundation

extension Empresa {
    public struct Cadastrada: Codable, Sendable, Equatable {
        public let empresaId: UUID
        public let cadastro: Cadastro
        /// The first manager, if the operator named one.
        public let gestor: String?
        public let por: String
        public let em: Date
    }

    public struct Atualizada: Codable, Sendable, Equatable {
        public let empresaId: UUID
        public let cadastro: Cadastro
        public let por: String
        public let em: Date
    }

    public struct ConviteEnviado: Codable, Sendable, Equatable {
        public let empresaId: UUID
        public let convite: Convite
    }

    public struct ConviteRevogado: Codable, Sendable, Equatable {
        public let empresaId: UUID
        public let conviteId: UUID
        public let por: String
        public let em: Date
    }

    public struct ConviteAceito: Codable, Sendable, Equatable {
        public let empresaId: UUID
        public let conviteId: UUID
        public let usuarioId: String
        public let papel: Papel
        public let em: Date
    }

    public struct PapelDefinido: Codable, Sendable, Equatable {
        public let empresaId: UUID
        public let usuarioId: String
        public let papel: Papel
        public let por: String
        public let em: Date
    }

    public struct Removido: Codable, Sendable, Equatable {
        public let empresaId: UUID
        public let usuarioId: String
        /// The role the person had.
        public let papel: Papel
        public let por: String
        public let em: Date
    }

    public struct LimiteDefinido: Codable, Sendable, Equatable {
        public let empresaId: UUID
        public let usuarioId: String
        public let limite: Carteira.Limite
        public let por: String
        public let em: Date
    }

    public enum Event: PayloadEvent, Equatable {
        case cadastrada(Cadastrada)
        case atualizada(Atualizada)
        case conviteEnviado(ConviteEnviado)
        case conviteRevogado(ConviteRevogado)
        case conviteAceito(ConviteAceito)
        case papelDefinido(PapelDefinido)
        case removido(Removido)
        case limiteDefinido(LimiteDefinido)

        public var kind: EventKind {
            switch self {
            case .cadastrada: Catalogo.cadastrada
            case .atualizada: Catalogo.atualizada
            case .conviteEnviado: Catalogo.conviteEnviado
            case .conviteRevogado: Catalogo.conviteRevogado
            case .conviteAceito: Catalogo.conviteAceito
            case .papelDefinido: Catalogo.papelDefinido
            case .removido: Catalogo.removido
            case .limiteDefinido: Catalogo.limiteDefinido
            }
        }

        public var payload: any Encodable & Sendable {
            switch self {
            case .cadastrada(let payload): payload
            case .atualizada(let payload): payload
            case .conviteEnviado(let payload): payload
            case .conviteRevogado(let payload): payload
            case .conviteAceito(let payload): payload
            case .papelDefinido(let payload): payload
            case .removido(let payload): payload
            case .limiteDefinido(let payload): payload
            }
        }

        public static let decoders = EventDecoders<Event>([
            .kind(Catalogo.cadastrada, Cadastrada.self) { .cadastrada($0) },
            .kind(Catalogo.atualizada, Atualizada.self) { .atualizada($0) },
            .kind(Catalogo.conviteEnviado, ConviteEnviado.self) { .conviteEnviado($0) },
            .kind(Catalogo.conviteRevogado, ConviteRevogado.self) { .conviteRevogado($0) },
            .kind(Catalogo.conviteAceito, ConviteAceito.self) { .conviteAceito($0) },
            .kind(Catalogo.papelDefinido, PapelDefinido.self) { .papelDefinido($0) },
            .kind(Catalogo.removido, Removido.self) { .removido($0) },
            .kind(Catalogo.limiteDefinido, LimiteDefinido.self) { .limiteDefinido($0) },
        ])
    }
}

extension Vinculo {
    public enum Event: PayloadEvent, Equatable {
        case criado(Criado)
        case encerrado(Encerrado)

        public var kind: EventKind {
            switch self {
            case .criado: Catalogo.criado
            case .encerrado: Catalogo.encerrado
            }
        }

        public var payload: any Encodable & Sendable {
            switch self {
            case .criado(let payload): payload
            case .encerrado(let payload): payload
            }
        }

        public static let decoders = EventDecoders<Event>([
            .kind(Catalogo.criado, Criado.self) { .criado($0) },
            .kind(Catalogo.encerrado, Encerrado.self) { .encerrado($0) },
        ])
    }

    public static let decider = Decider<Command, State, Event, Failure>(
        initialState: nil,
        decide: { command, state throws(Failure) in
            switch command {
            case .vincular(let usuario, let empresa, let em):
                if state == empresa { return [] }
                if let outra = state { throw .outraEmpresa(outra) }
                return [.criado(Criado(usuarioId: usuario, empresaId: empresa, em: em))]
            case .desvincular(let usuario, let empresa, let em):
                guard state == empresa else { return [] }
                return [.encerrado(Encerrado(usuarioId: usuario, empresaId: empresa, em: em))]
            }
        },
        evolve: { state, event in
            switch event {
            case .criado(let e): e.empresaId
            case .encerrado(let e): state == e.empresaId ? nil : state
            }
        })
}
