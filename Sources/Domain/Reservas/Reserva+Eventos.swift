public import Foundation

extension Reserva {
    public struct Solicitada: Codable, Sendable, Equatable {
        public let reservaId: ID
        public let espacoId: UUID
        public let unidadeId: UUID
        public let usuarioId: String
        /// The booking's time: as requested, then as the last ``Remarcada`` moved it (the
        /// stored event keeps the requested time; the booking's state folds the moves in).
        public internal(set) var intervalo: TimeRange
        public internal(set) var dias: [DataLocal]
        /// The accepted price: fixed from here on, whatever happens to the price table.
        public let total: Money
        public let linhas: [LinhaDePreco]
        public let cupom: String?
        public let expiraEm: Date
        /// Absent in bookings made before members could choose (PIX).
        public let pagamento: FormaDePagamento?
        /// The unit's cancellation policy when the member booked: a later change of the unit's
        /// policy does not change the terms of this booking. Absent in bookings made before
        /// it was recorded (the unit's policy at cancellation applies to those).
        public let politica: Unidade.PoliticaDeCancelamento?
        /// The member's credits it spent; absent when it spent none.
        public let creditos: Creditos?
        /// The series it is an occurrence of; absent for a booking of its own.
        public let serie: NaSerie?
        public let em: Date

        public init(_ pedido: Pedido, em: Date) {
            reservaId = pedido.id
            espacoId = pedido.espacoId
            unidadeId = pedido.unidadeId
            usuarioId = pedido.usuarioId
            intervalo = pedido.intervalo
            dias = pedido.dias
            total = pedido.total
            linhas = pedido.linhas
            cupom = pedido.cupom
            expiraEm = pedido.expiraEm
            pagamento = pedido.pagamento
            politica = pedido.politica
            creditos = pedido.creditos
            serie = pedido.serie
            self.em = em
        }
    }

    /// The booking moved to another time of the same space, keeping its price, payment,
    /// credits, check-in code and terms (ADR 0021). Its days' agendas are freed and taken in the
    /// same append.
    public struct Remarcada: Codable, Sendable, Equatable {
        public let reservaId: ID
        public let espacoId: UUID
        public let unidadeId: UUID
        public let usuarioId: String
        /// The time it held, and its days.
        public let de: TimeRange
        public let diasAnteriores: [DataLocal]
        /// The time it holds now, and its days.
        public let para: TimeRange
        public let dias: [DataLocal]
        /// The member, or the operator who moved it.
        public let por: String
        public let em: Date
        /// Moved with the rest of its series (`true`; absent otherwise): the series' record of
        /// the move (``SerieDeReservas/Remarcada``, in the same append) tells the member, once.
        public let daSerie: Bool?

        public init(
            reservaId: ID, espacoId: UUID, unidadeId: UUID, usuarioId: String, de: TimeRange, diasAnteriores: [DataLocal], para: TimeRange,
            dias: [DataLocal], por: String, em: Date, daSerie: Bool? = nil
        ) {
            self.reservaId = reservaId
            self.espacoId = espacoId
            self.unidadeId = unidadeId
            self.usuarioId = usuarioId
            self.de = de
            self.diasAnteriores = diasAnteriores
            self.para = para
            self.dias = dias
            self.por = por
            self.em = em
            self.daSerie = daSerie
        }
    }

    public struct Confirmada: Codable, Sendable, Equatable {
        public let reservaId: ID
        public let pagamentoId: String?
        public let em: Date

        public init(reservaId: ID, pagamentoId: String?, em: Date) {
            self.reservaId = reservaId
            self.pagamentoId = pagamentoId
            self.em = em
        }
    }

    public struct Cancelada: Codable, Sendable, Equatable {
        public let reservaId: ID
        public let por: String
        public let motivo: String?
        /// What was paid (0 when it was never confirmed), the fee kept and the amount to refund.
        public let pago: Money
        public let multa: Money
        public let reembolso: Money
        public let em: Date
        /// True when the cancellation of its series cancelled it (``SerieDeReservas/Cancelada``
        /// names it): the series' one notice tells the member, not one per booking. Absent otherwise.
        public let daSerie: Bool?

        public init(
            reservaId: ID, por: String, motivo: String?, pago: Money, multa: Money, reembolso: Money, em: Date, daSerie: Bool? = nil
        ) {
            self.reservaId = reservaId
            self.por = por
            self.motivo = motivo
            self.pago = pago
            self.multa = multa
            self.reembolso = reembolso
            self.em = em
            self.daSerie = daSerie
        }
    }

    public struct Expirada: Codable, Sendable, Equatable {
        public let reservaId: ID
        public let em: Date

        public init(reservaId: ID, em: Date) {
            self.reservaId = reservaId
            self.em = em
        }
    }

    public struct Concluida: Codable, Sendable, Equatable {
        public let reservaId: ID
        public let em: Date

        public init(reservaId: ID, em: Date) {
            self.reservaId = reservaId
            self.em = em
        }
    }

    public enum Event: PayloadEvent, Equatable {
        case solicitada(Solicitada)
        case confirmada(Confirmada)
        case cancelada(Cancelada)
        case expirada(Expirada)
        case concluida(Concluida)
        case remarcada(Remarcada)

        public var kind: EventKind {
            switch self {
            case .solicitada: Catalogo.solicitada
            case .confirmada: Catalogo.confirmada
            case .cancelada: Catalogo.cancelada
            case .expirada: Catalogo.expirada
            case .concluida: Catalogo.concluida
            case .remarcada: Catalogo.remarcada
            }
        }

        public var payload: any Encodable & Sendable {
            switch self {
            case .solicitada(let payload): payload
            case .confirmada(let payload): payload
            case .cancelada(let payload): payload
            case .expirada(let payload): payload
            case .concluida(let payload): payload
            case .remarcada(let payload): payload
            }
        }

        public static let decoders = EventDecoders<Event>([
            .kind(Catalogo.solicitada, Solicitada.self) { .solicitada($0) },
            .kind(Catalogo.confirmada, Confirmada.self) { .confirmada($0) },
            .kind(Catalogo.cancelada, Cancelada.self) { .cancelada($0) },
            .kind(Catalogo.expirada, Expirada.self) { .expirada($0) },
            .kind(Catalogo.concluida, Concluida.self) { .concluida($0) },
            .kind(Catalogo.remarcada, Remarcada.self) { .remarcada($0) },
        ])
    }
}
