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
    /// A booking's invoice's names `reservaId` and `espacoId`; a bundle's (version 2) names
    /// `compraId` and `pacoteId` instead, its `pagamentoId` is the purchase's id and its
    /// `tipoDeEspaco` is ``Fatura/tipoDoPacote``.
    public struct NotaDeCreditoEmitida: Codable, Sendable, Equatable {
        public let notaId: NotaDeCredito.ID
        public let unidadeId: Unidade.ID
        public let numero: Int
        public let faturaId: ID
        public let numeroDaFatura: Int
        public let reembolsoId: UUID
        public let reservaId: UUID?
        public let pagamentoId: UUID
        public let usuarioId: String
        public let espacoId: UUID?
        public let compraId: UUID?
        public let pacoteId: UUID?
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
            reservaId: UUID?, pagamentoId: UUID, usuarioId: String, espacoId: UUID?, compraId: UUID? = nil, pacoteId: UUID? = nil,
            tipoDeEspaco: String, valor: Money, aliquotaISSBP: Int64, iss: Money, saldoDaFatura: Money, data: DataLocal, em: Date
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
            self.compraId = compraId
            self.pacoteId = pacoteId
            self.tipoDeEspaco = tipoDeEspaco
            self.valor = valor
            self.aliquotaISSBP = aliquotaISSBP
            self.iss = iss
            self.saldoDaFatura = saldoDaFatura
            self.data = data
            self.em = em
        }

        enum CodingKeys: String, CodingKey {
            case notaId, unidadeId, numero, faturaId, numeroDaFatura, reembolsoId, reservaId, pagamentoId, usuarioId, espacoId, compraId
            case pacoteId, tipoDeEspaco, valor, aliquotaISSBP, iss, saldoDaFatura, data, em
        }

        /// The four ids that name what was refunded are written even when null: version 2's shape.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(notaId, forKey: .notaId)
            try c.encode(unidadeId, forKey: .unidadeId)
            try c.encode(numero, forKey: .numero)
            try c.encode(faturaId, forKey: .faturaId)
            try c.encode(numeroDaFatura, forKey: .numeroDaFatura)
            try c.encode(reembolsoId, forKey: .reembolsoId)
            try c.encode(reservaId, forKey: .reservaId)
            try c.encode(pagamentoId, forKey: .pagamentoId)
            try c.encode(usuarioId, forKey: .usuarioId)
            try c.encode(espacoId, forKey: .espacoId)
            try c.encode(compraId, forKey: .compraId)
            try c.encode(pacoteId, forKey: .pacoteId)
            try c.encode(tipoDeEspaco, forKey: .tipoDeEspaco)
            try c.encode(valor, forKey: .valor)
            try c.encode(aliquotaISSBP, forKey: .aliquotaISSBP)
            try c.encode(iss, forKey: .iss)
            try c.encode(saldoDaFatura, forKey: .saldoDaFatura)
            try c.encode(data, forKey: .data)
            try c.encode(em, forKey: .em)
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
