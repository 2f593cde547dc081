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

    public enum Event: DomainEvent, Equatable {
        case iniciado(Iniciado)
        case confirmado(Confirmado)
        case recusado(Recusado)
        case cancelado(Cancelado)
        case reembolsoSolicitado(ReembolsoSolicitado)
        case reembolsoConcluido(ReembolsoConcluido)

        public var eventType: String {
            switch self {
            case .iniciado: "PagamentoIniciado"
            case .confirmado: "PagamentoConfirmado"
            case .recusado: "PagamentoRecusado"
            case .cancelado: "PagamentoCancelado"
            case .reembolsoSolicitado: "ReembolsoSolicitado"
            case .reembolsoConcluido: "ReembolsoConcluido"
            }
        }

        public func encode(to encoder: any Encoder) throws {
            switch self {
            case .iniciado(let payload): try payload.encode(to: encoder)
            case .confirmado(let payload): try payload.encode(to: encoder)
            case .recusado(let payload): try payload.encode(to: encoder)
            case .cancelado(let payload): try payload.encode(to: encoder)
            case .reembolsoSolicitado(let payload): try payload.encode(to: encoder)
            case .reembolsoConcluido(let payload): try payload.encode(to: encoder)
            }
        }

        public init(from decoder: any Decoder) throws {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "decode with Pagamento.Event.decode(type:data:)"))
        }

        public static func decode(type: String, data: Data, using decoder: JSONDecoder) throws -> Event? {
            switch type {
            case "PagamentoIniciado": .iniciado(try decoder.decode(Iniciado.self, from: data))
            case "PagamentoConfirmado": .confirmado(try decoder.decode(Confirmado.self, from: data))
            case "PagamentoRecusado": .recusado(try decoder.decode(Recusado.self, from: data))
            case "PagamentoCancelado": .cancelado(try decoder.decode(Cancelado.self, from: data))
            case "ReembolsoSolicitado": .reembolsoSolicitado(try decoder.decode(ReembolsoSolicitado.self, from: data))
            case "ReembolsoConcluido": .reembolsoConcluido(try decoder.decode(ReembolsoConcluido.self, from: data))
            default: nil
            }
        }
    }
}
