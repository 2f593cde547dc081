public import Domain
public import EventStore
public import Foundation

/// The reservas service. A booking appends, in ONE atomic multi-stream append, its own
/// `ReservaSolicitada`, an `AgendaOcupada` on every local day's agenda stream it touches (each
/// with the version it read) and the coupon use: two bookings that collide on a day cannot
/// both commit, so double booking is impossible without any lock. A conflict means someone
/// else changed one of those streams: decide again on fresh state.
public final class ReservasService: Sendable {
    let store: any ServiceStore & EventFeed
    let clock: any WallClock
    let precos: PrecosService
    /// How long an unpaid booking holds its slot (by boleto: ``Pagamento/Boleto/prazo``).
    public let prazoDePagamento: TimeInterval
    /// Agendas as last folded: a booking reads only the day's events since.
    let agendas = StateCache()
    /// Bookings of one space and day in this process take turns (see ``StreamTurns``).
    let turnos = StreamTurns()

    public init(store: any ServiceStore & EventFeed, clock: any WallClock, precos: PrecosService, prazoDePagamento: TimeInterval = 15 * 60) {
        self.store = store
        self.clock = clock
        self.precos = precos
        self.prazoDePagamento = prazoDePagamento
    }

    /// Until when a booking asked at `now` for `intervalo`, paid by `metodo`, holds its slot (one
    /// paid at the desk: until it ends).
    /// A boleto: 422 when the booking starts too soon for one to be paid and cleared.
    func expiracao(_ metodo: MetodoDePagamento?, _ intervalo: TimeRange, em now: Date) throws -> Date {
        // Paid at the desk already: pagamentos confirms it as soon as it reacts, and a lag of the
        // bus (down for a while) must not release a slot whose money is in the drawer.
        if metodo == .manual { return max(now.addingTimeInterval(prazoDePagamento), intervalo.end) }
        // (A booking in the past is the booking rule's 422, not the boleto's.)
        guard metodo == .boleto, intervalo.start > now else { return now.addingTimeInterval(prazoDePagamento) }
        guard intervalo.start.timeIntervalSince(now) >= Pagamento.Boleto.antecedenciaMinima else {
            throw ServiceError.invalido(
                "pagamento.metodo",
                "boleto só para reservas que começam daqui a 2 dias ou mais (um dia para pagar, um para compensar); use pix ou cartao")
        }
        return min(now.addingTimeInterval(Pagamento.Boleto.prazo), intervalo.start)
    }

    static let service = "reservas"
    /// Attempts before a hot slot answers 503: each conflict means another booking committed.
    static let tentativas = 40

    /// A member's bookings made to be paid by boleto (at most three unpaid at once).
    var boletos: AggregateStore<BoletosPendentes.Command, BoletosPendentes.State, BoletosPendentes.Event, BoletosPendentes.Failure> {
        AggregateStore(store: store, decider: BoletosPendentes.decider) {
            try BoletosPendentes.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder)
        }
    }

    var reservas: AggregateStore<Reserva.Command, Reserva.State, Reserva.Event, Reserva.Failure> {
        AggregateStore(store: store, decider: Reserva.decider) { try Reserva.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder) }
    }

    /// The check-in of a booking (checkin's stream): a member cannot cancel a booking once present.
    var checkins: AggregateStore<Checkin.Command, Checkin.State, Checkin.Event, Checkin.Failure> {
        AggregateStore(store: store, decider: Checkin.decider) { try Checkin.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder) }
    }

    func agenda(_ espaco: UUID, _ dia: DataLocal) -> AggregateStore<Agenda.Command, Agenda.State, Agenda.Event, Agenda.Failure> {
        AggregateStore(store: store, decider: Agenda.decider(espacoId: espaco, data: dia), cache: agendas) {
            try Agenda.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder)
        }
    }

    public struct PedidoDeReserva: Decodable, Sendable {
        public let espacoId: String
        public let inicio: Date
        public let fim: Date
        public let cupom: String?
        /// PIX when absent; a card needs the provider's `cartaoToken`.
        public let pagamento: Reserva.FormaDePagamento?
        /// The total (centavos) the member was shown, from a quote: when the price is no longer
        /// that (the table or a rule changed, the member's plan ended), the booking is refused
        /// with 409 `preco_alterado` and nothing is held or charged.
        public let totalEsperado: Int64?
        /// Booking for someone else: a member of the company the caller manages (or any member,
        /// for an operator). The booking, its price and credits are theirs; the audit trail
        /// names who booked it.
        public let paraUsuarioId: String?
    }
}
