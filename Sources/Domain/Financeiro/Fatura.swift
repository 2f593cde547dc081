public import Foundation

/// A unit's invoice book (`faturas-<unidade>`): one fatura per paid booking, numbered 1, 2, 3, …
/// per unit, and one nota de crédito per refund, numbered NC-1, NC-2, … in its own sequence.
///
/// The numbers come from the folded stream and the handler appends with the exact version it
/// read, so two decisions on the same book cannot both commit: numbering is gapless and never
/// repeats under any concurrency. The ledger entry of each document (``Razao/Lancamento``) is
/// decided with it and lives in the same stream, so one append holds a document and its
/// entry and the ledger is gapless too. Every document's `em` is never before the previous
/// one's, so number order is chronological order.
public enum Fatura {
    public typealias ID = Identifier<Fatura>

    /// How invoices are printed: `F-12`.
    public static let serie = "F"

    public enum NotaDeCredito {
        public typealias ID = Identifier<NotaDeCredito>
        /// How credit notes are printed: `NC-3`.
        public static let serie = "NC"
    }

    /// A confirmed payment, with what the invoice needs to say about its booking.
    public struct Pagamento: Sendable, Equatable {
        public let pagamentoId: UUID
        public let reservaId: UUID
        public let usuarioId: String
        public let unidadeId: Unidade.ID
        public let espacoId: UUID
        /// `Espaco.Tipo` raw value (`sala_reuniao`, …), for revenue by space type.
        public let tipoDeEspaco: String
        /// `pix`, `cartao` or `boleto`.
        public let metodo: String
        public let valor: Money
        public let pagoEm: Date

        public init(
            pagamentoId: UUID, reservaId: UUID, usuarioId: String, unidadeId: Unidade.ID, espacoId: UUID, tipoDeEspaco: String,
            metodo: String, valor: Money, pagoEm: Date
        ) {
            self.pagamentoId = pagamentoId
            self.reservaId = reservaId
            self.usuarioId = usuarioId
            self.unidadeId = unidadeId
            self.espacoId = espacoId
            self.tipoDeEspaco = tipoDeEspaco
            self.metodo = metodo
            self.valor = valor
            self.pagoEm = pagoEm
        }
    }

    /// A refund paid back to the member.
    public struct Reembolso: Sendable, Equatable {
        public let reembolsoId: UUID
        public let pagamentoId: UUID
        public let unidadeId: Unidade.ID
        public let valor: Money
        public let reembolsadoEm: Date

        public init(reembolsoId: UUID, pagamentoId: UUID, unidadeId: Unidade.ID, valor: Money, reembolsadoEm: Date) {
            self.reembolsoId = reembolsoId
            self.pagamentoId = pagamentoId
            self.unidadeId = unidadeId
            self.valor = valor
            self.reembolsadoEm = reembolsadoEm
        }
    }

    public enum Command: Sendable, Equatable {
        /// Invoices a paid booking: FaturaEmitida, FaturaPaga (we invoice on payment) and its
        /// LancamentoContabilizado. Again for the same payment: no events.
        case emitir(Pagamento, faturaId: ID, lancamentoId: UUID, aliquotaISSBP: Int64, fuso: TimeZone, em: Date)
        /// Credits a refund against the payment's invoice (a bundle's: `pagamentoId` is the
        /// purchase's id): NotaDeCreditoEmitida and its LancamentoContabilizado. Again for the
        /// same refund: no events.
        case emitirNotaDeCredito(Reembolso, notaId: NotaDeCredito.ID, lancamentoId: UUID, fuso: TimeZone, em: Date)
        /// Invoices a subscription's paid cycle: AssinaturaFaturada and its
        /// LancamentoContabilizado. Again for the same cycle: no events.
        case faturarCiclo(CicloPago, faturaId: ID, lancamentoId: UUID, aliquotaISSBP: Int64, fuso: TimeZone, em: Date)
        /// Invoices a paid bundle: PacoteFaturado and its LancamentoContabilizado. Again for
        /// the same purchase: no events.
        case faturarPacote(PacotePago, faturaId: ID, lancamentoId: UUID, aliquotaISSBP: Int64, fuso: TimeZone, em: Date)
    }

    public enum Failure: Error, Equatable, Sendable {
        /// The command names another unit than the book's.
        case outraUnidade(Unidade.ID)
        /// A payment or refund of zero or less.
        case valorInvalido(Money)
        /// Outside 0…10,000 basis points.
        case aliquotaInvalida(Int64)
        /// No invoice of this book for the payment being refunded.
        case faturaNaoEncontrada(pagamentoId: UUID)
        /// The refund is more than what is left of the invoice (`disponivel`).
        case reembolsoExcedeFatura(disponivel: Money)
        /// The ledger entry would not balance (a bug, never a user's doing).
        case lancamentoInvalido(Razao.Falha)
    }

    /// What the book remembers of one invoice that can be refunded: a booking's (`reservaId`,
    /// `espacoId`) or a bundle purchase's (`compraId`, `pacoteId`; its key is the purchase's id).
    public struct Resumo: Sendable, Equatable {
        public let faturaId: ID
        public let numero: Int
        public let reservaId: UUID?
        public let usuarioId: String
        public let espacoId: UUID?
        public let compraId: UUID?
        public let pacoteId: UUID?
        public let tipoDeEspaco: String
        public let valor: Money
        public let aliquotaISSBP: Int64
        public let iss: Money
        public var paga: Bool
        /// Refunded so far, and the ISS those refunds reverted.
        public var reembolsado: Money
        public var issDevolvido: Money

        public init(
            faturaId: ID, numero: Int, reservaId: UUID?, usuarioId: String, espacoId: UUID?, compraId: UUID? = nil, pacoteId: UUID? = nil,
            tipoDeEspaco: String, valor: Money, aliquotaISSBP: Int64, iss: Money, paga: Bool, reembolsado: Money, issDevolvido: Money
        ) {
            self.faturaId = faturaId
            self.numero = numero
            self.reservaId = reservaId
            self.usuarioId = usuarioId
            self.espacoId = espacoId
            self.compraId = compraId
            self.pacoteId = pacoteId
            self.tipoDeEspaco = tipoDeEspaco
            self.valor = valor
            self.aliquotaISSBP = aliquotaISSBP
            self.iss = iss
            self.paga = paga
            self.reembolsado = reembolsado
            self.issDevolvido = issDevolvido
        }

        /// What is left to refund.
        public var disponivel: Money { valor - reembolsado }
    }

    public struct State: Sendable, Equatable {
        /// The last invoice, credit note and ledger entry numbers (0: none yet).
        public var ultimaFatura = 0
        public var ultimaNota = 0
        public var ultimoLancamento = 0
        /// The newest document's instant: later documents are never dated before it.
        public var ultimoEm: Date?
        public var porPagamento: [UUID: Resumo] = [:]
        public var reembolsos: Set<UUID> = []
        /// The subscription cycles invoiced (`assinatura|ciclo`).
        public var ciclos: Set<String> = []
        /// The bundles' purchases invoiced.
        public var compras: Set<UUID> = []

        public init() {}
    }
}
