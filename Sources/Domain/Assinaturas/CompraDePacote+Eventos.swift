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

    /// An operator refunded it: `valor` goes back through the provider (refund `reembolsoId`
    /// of charge `cobrancaId`; none when zero) and `retirado` of `medida`, what was left of
    /// lot `loteId`, was taken from the wallet in the same append.
    public struct Reembolsada: Codable, Sendable, Equatable {
        public let compraId: UUID
        public let titular: String
        public let pacoteId: UUID
        /// The bundle's name as it was bought.
        public let nome: String
        public let cobrancaId: String
        public let reembolsoId: UUID
        public let valor: Money
        public let loteId: UUID
        public let medida: Carteira.Medida
        public let retirado: Int64
        public let motivo: String
        public let por: String
        public let em: Date

        public init(
            compraId: UUID, titular: String, pacoteId: UUID, nome: String, cobrancaId: String, reembolsoId: UUID, valor: Money, loteId: UUID,
            medida: Carteira.Medida, retirado: Int64, motivo: String, por: String, em: Date
        ) {
            self.compraId = compraId
            self.titular = titular
            self.pacoteId = pacoteId
            self.nome = nome
            self.cobrancaId = cobrancaId
            self.reembolsoId = reembolsoId
            self.valor = valor
            self.loteId = loteId
            self.medida = medida
            self.retirado = retirado
            self.motivo = motivo
            self.por = por
            self.em = em
        }
    }

    /// The provider paid refund `reembolsoId` out (its notice, or its answer when asked about a
    /// refund whose notice never came): the money is back with the buyer.
    public struct ReembolsoConcluido: Codable, Sendable, Equatable {
        public let compraId: UUID
        public let titular: String
        public let reembolsoId: UUID
        public let valor: Money
        public let em: Date

        public init(compraId: UUID, titular: String, reembolsoId: UUID, valor: Money, em: Date) {
            self.compraId = compraId
            self.titular = titular
            self.reembolsoId = reembolsoId
            self.valor = valor
            self.em = em
        }
    }

    public enum Event: PayloadEvent, Equatable {
        case solicitada(Solicitada)
        case cobrancaEmitida(CobrancaEmitida)
        case paga(Paga)
        case recusada(Recusada)
        case expirada(Expirada)
        case reembolsada(Reembolsada)
        case reembolsoConcluido(ReembolsoConcluido)

        public var kind: EventKind {
            switch self {
            case .solicitada: Catalogo.solicitada
            case .cobrancaEmitida: Catalogo.cobrancaEmitida
            case .paga: Catalogo.paga
            case .recusada: Catalogo.recusada
            case .expirada: Catalogo.expirada
            case .reembolsada: Catalogo.reembolsada
            case .reembolsoConcluido: Catalogo.reembolsoConcluido
            }
        }

        public var payload: any Encodable & Sendable {
            switch self {
            case .solicitada(let payload): payload
            case .cobrancaEmitida(let payload): payload
            case .paga(let payload): payload
            case .recusada(let payload): payload
            case .expirada(let payload): payload
            case .reembolsada(let payload): payload
            case .reembolsoConcluido(let payload): payload
            }
        }

        public static let decoders = EventDecoders<Event>([
            .kind(Catalogo.solicitada, Solicitada.self) { .solicitada($0) },
            .kind(Catalogo.cobrancaEmitida, CobrancaEmitida.self) { .cobrancaEmitida($0) },
            .kind(Catalogo.paga, Paga.self) { .paga($0) },
            .kind(Catalogo.recusada, Recusada.self) { .recusada($0) },
            .kind(Catalogo.expirada, Expirada.self) { .expirada($0) },
            .kind(Catalogo.reembolsada, Reembolsada.self) { .reembolsada($0) },
            .kind(Catalogo.reembolsoConcluido, ReembolsoConcluido.self) { .reembolsoConcluido($0) },
        ])
    }
}
