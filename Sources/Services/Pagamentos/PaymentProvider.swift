public import Domain
public import Foundation

/// What we ask a payment provider to charge.
public struct PedidoDeCobranca: Codable, Sendable, Equatable {
    /// Our payment id: the provider keeps one charge per reference, so asking twice is safe.
    public let referencia: String
    public let valor: Money
    public let metodo: MetodoDePagamento
    /// The provider's token for the member's card (card payments only).
    public let cartaoToken: String?
    public let descricao: String
    /// When the booking's hold runs out: PIX and boleto charges are not payable after it.
    public let expiraEm: Date

    public init(referencia: String, valor: Money, metodo: MetodoDePagamento, cartaoToken: String?, descricao: String, expiraEm: Date) {
        self.referencia = referencia
        self.valor = valor
        self.metodo = metodo
        self.cartaoToken = cartaoToken
        self.descricao = descricao
        self.expiraEm = expiraEm
    }
}

/// A payment service provider (PSP). Results arrive later, by webhook: a charge created here is
/// pending until the provider calls `POST /api/pagamentos/webhooks/<provider>`.
///
/// Every call is idempotent on our ids (the reference, the refund id), because a reactor may
/// call again after a crash between the call and the commit of its effect.
public protocol PaymentProvider: Sendable {
    /// Creates the charge for `pedido.referencia`, or returns the one created before.
    func criarCobranca(_ pedido: PedidoDeCobranca) async throws -> Pagamento.Cobranca
    /// Withdraws a pending charge (the booking ended unpaid). A charge that was paid meanwhile
    /// cannot be withdrawn: `.paga` says so (its notice may not have reached us yet), and the
    /// money has to be refunded. A charge already withdrawn, declined or expired is `.cancelada`.
    func cancelarCobranca(_ cobrancaId: String) async throws -> CancelamentoDeCobranca
    /// Gives `valor` of a paid charge back; the provider confirms by webhook.
    func reembolsar(cobrancaId: String, reembolsoId: UUID, valor: Money) async throws
    /// Where a refund asked with ``reembolsar(cobrancaId:reembolsoId:valor:)`` stands, as the
    /// provider's refund query answers (the PIX API's `GET /pix/{e2eid}/devolucao/{id}`): what
    /// reconciles a refund whose notice never arrived.
    func reembolso(cobrancaId: String, reembolsoId: UUID) async throws -> SituacaoDoReembolso
}

/// A refund as the provider sees it.
public enum SituacaoDoReembolso: Sendable, Equatable {
    /// Asked, not yet paid out.
    case emProcessamento
    /// Paid out: `valor` went back to the payer.
    case concluido(valor: Money)
    /// The provider has no refund of that id for that charge (it was never asked, or the
    /// provider lost it).
    case desconhecido
}

/// What withdrawing a charge found.
public enum CancelamentoDeCobranca: Sendable, Equatable {
    /// Withdrawn now, or no longer payable (declined, expired, withdrawn before).
    case cancelada
    /// Paid before it could be withdrawn: `valor` was received.
    case paga(valor: Money)
}

/// A provider that refused a call or could not be reached.
public struct PaymentProviderError: Error, CustomStringConvertible {
    public let operacao: String
    /// The provider's own answer code, for the log (an HTTP provider's status; nil: the
    /// provider was not reached). Nothing branches on it: a failed call is a failed call.
    public let codigoDoProvedor: Int?
    public let mensagem: String

    public init(operacao: String, codigoDoProvedor: Int?, mensagem: String) {
        self.operacao = operacao
        self.codigoDoProvedor = codigoDoProvedor
        self.mensagem = mensagem
    }

    public var description: String { "payment provider: \(operacao) failed (\(codigoDoProvedor.map(String.init) ?? "unreachable")): \(mensagem)" }
}
