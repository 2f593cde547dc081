public import Foundation

extension Fatura {
    /// An invoice was issued for a paid booking. `iss` is `valor × aliquotaISSBP / 10,000`
    /// rounded half up; `data` is the unit's local date of `em`.
    public struct Emitida: Codable, Sendable, Equatable {
        public let faturaId: ID
        public let unidadeId: Unidade.ID
        public let numero: Int
        public let reservaId: UUID
        public let pagamentoId: UUID
        public let usuarioId: String
        public let espacoId: UUID
        public let tipoDeEspaco: String
        public let metodo: String
        public let valor: Money
        public let aliquotaISSBP: Int64
        public let iss: Money
        public let data: DataLocal
        public let em: Date

        public init(
            faturaId: ID, unidadeId: Unidade.ID, numero: Int, reservaId: UUID, pagamentoId: UUID, usuarioId: String, espacoId: UUID,
            tipoDeEspaco: String, metodo: String, valor: Money, aliquotaISSBP: Int64, iss: Money, data: DataLocal, em: Date
        ) {
            self.faturaId = faturaId
            self.unidadeId = unidadeId
            self.numero = numero
            self.reservaId = reservaId
            self.pagamentoId = pagamentoId
            self.usuarioId = usuarioId
            self.espacoId = espacoId
            self.tipoDeEspaco = tipoDeEspaco
            self.metodo = metodo
            self.valor = valor
            self.aliquotaISSBP = aliquotaISSBP
            self.iss = iss
            self.data = data
            self.em = em
        }
    }

    /// The invoice was paid (`pagoEm`: when the payment confirmed). Carries the invoice's
    /// fields so readers need nothing else.
    public struct Paga: Codable, Sendable, Equatable {
        public let faturaId: ID
        public let unidadeId: Unidade.ID
        public let numero: Int
        public let reservaId: UUID
        public let pagamentoId: UUID
        public let usuarioId: String
        public let espacoId: UUID
        public let tipoDeEspaco: String
        public let metodo: String
        public let valor: Money
        public let aliquotaISSBP: Int64
        public let iss: Money
        public let pagoEm: Date
        public let data: DataLocal
        public let em: Date

        public init(_ fatura: Emitida, pagoEm: Date) {
            faturaId = fatura.faturaId
            unidadeId = fatura.unidadeId
            numero = fatura.numero
            reservaId = fatura.reservaId
            pagamentoId = fatura.pagamentoId
            usuarioId = fatura.usuarioId
            espacoId = fatura.espacoId
            tipoDeEspaco = fatura.tipoDeEspaco
            metodo = fatura.metodo
            valor = fatura.valor
            aliquotaISSBP = fatura.aliquotaISSBP
            iss = fatura.iss
            self.pagoEm = pagoEm
            data = fatura.data
            em = fatura.em
        }
    }

    /// A credit note for a refund of `valor` against invoice `numeroDaFatura`; `iss` is the ISS
    /// it reverts. `numero` counts credit notes (NC-1, NC-2, …), separately from invoices.
    public struct NotaDeCreditoEmitida: Codable, Sendable, Equatable {
        public let notaId: NotaDeCredito.ID
        public let unidadeId: Unidade.ID
        public let numero: Int
        public let faturaId: ID
        public let numeroDaFatura: Int
        public let reembolsoId: UUID
        public let reservaId: UUID
        public let pagamentoId: UUID
        public let usuarioId: String
        public let espacoId: UUID
        public let tipoDeEspaco: String
        public let valor: Money
        public let aliquotaISSBP: Int64
        public let iss: Money
        /// What is left of the invoice to refund after this note.
        public let saldoDaFatura: Money
        public let data: DataLocal
        public let em: Date

        public init(
            notaId: NotaDeCredito.ID, unidadeId: Unidade.ID, numero: Int, faturaId: ID, numeroDaFatura: Int, reembolsoId: UUID,
            reservaId: UUID, pagamentoId: UUID, usuarioId: String, espacoId: UUID, tipoDeEspaco: String, valor: Money,
            aliquotaISSBP: Int64, iss: Money, saldoDaFatura: Money, data: DataLocal, em: Date
        ) {
            self.notaId = notaId
            self.unidadeId = unidadeId
            self.numero = numero
            self.faturaId = faturaId
            self.numeroDaFatura = numeroDaFatura
            self.reembolsoId = reembolsoId
            self.reservaId = reservaId
            self.pagamentoId = pagamentoId
            self.usuarioId = usuarioId
            self.espacoId = espacoId
            self.tipoDeEspaco = tipoDeEspaco
            self.valor = valor
            self.aliquotaISSBP = aliquotaISSBP
            self.iss = iss
            self.saldoDaFatura = saldoDaFatura
            self.data = data
            self.em = em
        }
    }

    public enum Event: PayloadEvent, Equatable {
        case emitida(Emitida)
        case paga(Paga)
        case notaDeCreditoEmitida(NotaDeCreditoEmitida)
        case assinaturaFaturada(AssinaturaFaturada)
        case pacoteFaturado(PacoteFaturado)
        /// The ledger entry of the document decided with it.
        case contabilizado(Razao.Lancamento)

        public var kind: EventKind {
            switch self {
            case .emitida: Catalogo.emitida
            case .paga: Catalogo.paga
            case .notaDeCreditoEmitida: Catalogo.notaDeCreditoEmitida
            case .assinaturaFaturada: Catalogo.assinaturaFaturada
            case .pacoteFaturado: Catalogo.pacoteFaturado
            case .contabilizado: Catalogo.contabilizado
            }
        }

        public var payload: any Encodable & Sendable {
            switch self {
            case .emitida(let payload): payload
            case .paga(let payload): payload
            case .notaDeCreditoEmitida(let payload): payload
            case .assinaturaFaturada(let payload): payload
            case .pacoteFaturado(let payload): payload
            case .contabilizado(let payload): payload
            }
        }

        public static let decoders = EventDecoders<Event>([
            .kind(Catalogo.emitida, Emitida.self) { .emitida($0) },
            .kind(Catalogo.paga, Paga.self) { .paga($0) },
            .kind(Catalogo.notaDeCreditoEmitida, NotaDeCreditoEmitida.self) { .notaDeCreditoEmitida($0) },
            .kind(Catalogo.assinaturaFaturada, AssinaturaFaturada.self) { .assinaturaFaturada($0) },
            .kind(Catalogo.pacoteFaturado, PacoteFaturado.self) { .pacoteFaturado($0) },
            .kind(Catalogo.contabilizado, Razao.Lancamento.self) { .contabilizado($0) },
        ])
    }
}
