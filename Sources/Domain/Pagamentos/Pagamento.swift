public import Foundation

/// How a member pays.
public enum MetodoDePagamento: String, Codable, Sendable, CaseIterable {
    case pix, cartao, boleto
    /// Paid at the reception desk (cash, the desk's card machine), as an operator records it
    /// when booking for a member: no charge at the provider, confirmed at once, and a refund is
    /// handed back at the desk.
    case manual

    /// The methods the payment provider charges (a member's own choice).
    public static let doProvedor: [MetodoDePagamento] = [.pix, .cartao, .boleto]
}

/// The payment of one booking (`pagamento-<reservaId>`: its id is the booking's): a charge at the
/// payment provider, confirmed or declined by the provider's webhook, cancelled when the booking
/// ends unpaid, and refunded (in parts) when a paid booking is cancelled.
public enum Pagamento {
    public typealias ID = Identifier<Pagamento>

    public enum Status: String, Codable, Sendable {
        /// Waiting for the member to pay (PIX, boleto) or for the card network.
        case pendente
        case confirmado
        case recusado
        /// The booking ended before it was paid; the charge was withdrawn.
        case cancelado
    }

    /// PIX: the transaction id (26–35 alphanumerics) and the copy-and-paste payload.
    public struct Pix: Codable, Sendable, Equatable {
        public let txid: String
        public let copiaECola: String

        public init(txid: String, copiaECola: String) {
            self.txid = txid
            self.copiaECola = copiaECola
        }
    }

    /// Boleto: the 47-digit line a member types and its due date.
    public struct Boleto: Codable, Sendable, Equatable {
        public let linhaDigitavel: String
        public let vencimento: Date

        public init(linhaDigitavel: String, vencimento: Date) {
            self.linhaDigitavel = linhaDigitavel
            self.vencimento = vencimento
        }

        /// A boleto is paid at a bank or in an app, and the payment reaches the provider up to a
        /// day later: a booking paid by boleto holds its slot for `prazo` (never past its
        /// start), the boleto falls due `compensacao` before the hold ends, and a booking must
        /// start at least `antecedenciaMinima` ahead (a day to pay, a day to clear).
        public static let prazo: TimeInterval = 3 * 24 * 3600
        public static let compensacao: TimeInterval = 24 * 3600
        public static let antecedenciaMinima: TimeInterval = 2 * 24 * 3600
    }

    /// A charge as the provider created it.
    public struct Cobranca: Codable, Sendable, Equatable {
        public let cobrancaId: String
        public let metodo: MetodoDePagamento
        public let pix: Pix?
        public let boleto: Boleto?

        public init(cobrancaId: String, metodo: MetodoDePagamento, pix: Pix? = nil, boleto: Boleto? = nil) {
            self.cobrancaId = cobrancaId
            self.metodo = metodo
            self.pix = pix
            self.boleto = boleto
        }
    }

    /// Who pays what, for which booking.
    public struct Pedido: Codable, Sendable, Equatable {
        public let pagamentoId: ID
        public let reservaId: UUID
        public let usuarioId: String
        public let unidadeId: UUID
        public let espacoId: UUID
        public let valor: Money
        /// When the booking's hold runs out: the charge is worthless after it.
        public let expiraEm: Date

        public init(pagamentoId: ID, reservaId: UUID, usuarioId: String, unidadeId: UUID, espacoId: UUID, valor: Money, expiraEm: Date) {
            self.pagamentoId = pagamentoId
            self.reservaId = reservaId
            self.usuarioId = usuarioId
            self.unidadeId = unidadeId
            self.espacoId = espacoId
            self.valor = valor
            self.expiraEm = expiraEm
        }
    }

    public enum Command: Sendable, Equatable {
        /// Records the charge the provider created (nil: nothing to charge, confirmed at once).
        case iniciar(Pedido, cobranca: Cobranca?, metodo: MetodoDePagamento, em: Date)
        /// The provider says the charge was paid.
        case confirmar(cobrancaId: String, valor: Money, em: Date)
        case recusar(cobrancaId: String, motivo: String, em: Date)
        /// Refused before any charge is made (the member's account was erased meanwhile): the
        /// payment starts and is declined at once, and the booking is released as on a decline.
        case recusarSemCobrar(Pedido, metodo: MetodoDePagamento, motivo: String, em: Date)
        /// The booking ended unpaid.
        case cancelar(motivo: String, em: Date)
        /// Gives back `valor` (a new refund with its own id); nil `valor` = all that is left.
        case reembolsar(reembolsoId: UUID, valor: Money?, motivo: String, em: Date)
        /// The provider says the refund reached the member.
        case concluirReembolso(reembolsoId: UUID, em: Date)
    }

    public enum Failure: Error, Equatable, Sendable {
        case jaIniciado
        case naoEncontrado
        /// The webhook names another charge than this payment's.
        case cobrancaDiferente
        /// The provider reports a different amount from the one charged.
        case valorDivergente(esperado: Money, recebido: Money)
        case transicaoInvalida(status: Status)
        /// More than what was paid and not yet refunded.
        case reembolsoExcedente(disponivel: Money)
        case reembolsoDesconhecido
    }
}
