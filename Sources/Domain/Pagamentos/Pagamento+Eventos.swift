public import Foundation

extension Pagamento {
    public struct Iniciado: Codable, Sendable, Equatable {
        public let pagamentoId: ID
        public let reservaId: UUID
        public let usuarioId: String
        public let unidadeId: UUID
        public let espacoId: UUID
        public let metodo: MetodoDePagamento
        public let valor: Money
        /// Nil when there was nothing to charge.
        public let cobrancaId: String?
        public let pix: Pix?
        public let boleto: Boleto?
        public let expiraEm: Date
        public let em: Date
    }

    public struct Confirmado: Codable, Sendable, Equatable {
        public let pagamentoId: ID
        public let reservaId: UUID
        public let usuarioId: String
        public let unidadeId: UUID
        public let espacoId: UUID
        public let metodo: MetodoDePagamento
        public let valor: Money
        public let cobrancaId: String?
        public let em: Date
    }

    public struct Recusado: Codable, Sendable, Equatable {
        public let pagamentoId: ID
        public let reservaId: UUID
        public let motivo: String
        public let em: Date
    }

    public struct Cancelado: Codable, Sendable, Equatable {
        public let pagamentoId: ID
        public let reservaId: UUID
        public let motivo: String
        public let em: Date
    }

    public struct ReembolsoSolicitado: Codable, Sendable, Equatable {
        public let pagamentoId: ID
        public let reservaId: UUID
        public let reembolsoId: UUID
        public let cobrancaId: String?
        public let valor: Money
        public let motivo: String
        public let em: Date
    }

    public struct ReembolsoConcluido: Codable, Sendable, Equatable {
        public let pagamentoId: ID
        public let reservaId: UUID
        public let reembolsoId: UUID
        public let usuarioId: String
        public let unidadeId: UUID
        public let espacoId: UUID
        public let valor: Money
        public let em: Date
    }

    public enum Event: PayloadEvent, Equatable {
        case iniciado(Iniciado)
        case confirmado(Confirmado)
        case recusado(Recusado)
        case cancelado(Cancelado)
        case reembolsoSolicitado(ReembolsoSolicitado)
        case reembolsoConcluido(ReembolsoConcluido)

        public var kind: EventKind {
            switch self {
            case .iniciado: Catalogo.iniciado
            case .confirmado: Catalogo.confirmado
            case .recusado: Catalogo.recusado
            case .cancelado: Catalogo.cancelado
            case .reembolsoSolicitado: Catalogo.reembolsoSolicitado
            case .reembolsoConcluido: Catalogo.reembolsoConcluido
            }
        }

        public var payload: any Encodable & Sendable {
            switch self {
            case .iniciado(let payload): payload
            case .confirmado(let payload): payload
            case .recusado(let payload): payload
            case .cancelado(let payload): payload
            case .reembolsoSolicitado(let payload): payload
            case .reembolsoConcluido(let payload): payload
            }
        }

        public static let decoders = EventDecoders<Event>([
            .kind(Catalogo.iniciado, Iniciado.self) { .iniciado($0) },
            .kind(Catalogo.confirmado, Confirmado.self) { .confirmado($0) },
            .kind(Catalogo.recusado, Recusado.self) { .recusado($0) },
            .kind(Catalogo.cancelado, Cancelado.self) { .cancelado($0) },
            .kind(Catalogo.reembolsoSolicitado, ReembolsoSolicitado.self) { .reembolsoSolicitado($0) },
            .kind(Catalogo.reembolsoConcluido, ReembolsoConcluido.self) { .reembolsoConcluido($0) },
        ])
    }
}
