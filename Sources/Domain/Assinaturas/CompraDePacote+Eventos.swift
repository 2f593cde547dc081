public import Foundation

extension CompraDePacote {
    public struct Solicitada: Codable, Sendable, Equatable {
        public let compraId: UUID
        public let titular: String
        public let pacoteId: UUID
        /// The bundle as it was sold at that moment.
        public let oferta: Pacote.Oferta
        public let metodo: MetodoDePagamento
        /// The provider's token of the member's card (card purchases only).
        public let cartaoToken: String?
        public let em: Date
    }

    public struct CobrancaEmitida: Codable, Sendable, Equatable {
        public let compraId: UUID
        public let titular: String
        public let emissao: Emissao
        public let em: Date
    }

    /// Paid: `lote` is granted to the holder's wallet in the same append.
    public struct Paga: Codable, Sendable, Equatable {
        public let compraId: UUID
        public let titular: String
        public let cobrancaId: String
        public let lote: Carteira.Lote
        public let em: Date
    }

    public struct Recusada: Codable, Sendable, Equatable {
        public let compraId: UUID
        public let titular: String
        public let cobrancaId: String
        public let motivo: String
        public let em: Date
    }

    /// Its PIX or boleto was not paid in time.
    public struct Expirada: Codable, Sendable, Equatable {
        public let compraId: UUID
        public let titular: String
        public let cobrancaId: String
        public let em: Date
    }

    public enum Event: PayloadEvent, Equatable {
        case solicitada(Solicitada)
        case cobrancaEmitida(CobrancaEmitida)
        case paga(Paga)
        case recusada(Recusada)
        case expirada(Expirada)

        public var kind: EventKind {
            switch self {
            case .solicitada: Catalogo.solicitada
            case .cobrancaEmitida: Catalogo.cobrancaEmitida
            case .paga: Catalogo.paga
            case .recusada: Catalogo.recusada
            case .expirada: Catalogo.expirada
            }
        }

        public var payload: any Encodable & Sendable {
            switch self {
            case .solicitada(let payload): payload
            case .cobrancaEmitida(let payload): payload
            case .paga(let payload): payload
            case .recusada(let payload): payload
            case .expirada(let payload): payload
            }
        }

        public static let decoders = EventDecoders<Event>([
            .kind(Catalogo.solicitada, Solicitada.self) { .solicitada($0) },
            .kind(Catalogo.cobrancaEmitida, CobrancaEmitida.self) { .cobrancaEmitida($0) },
            .kind(Catalogo.paga, Paga.self) { .paga($0) },
            .kind(Catalogo.recusada, Recusada.self) { .recusada($0) },
            .kind(Catalogo.expirada, Expirada.self) { .expirada($0) },
        ])
    }
}
