public import Foundation

/// The bookings one member has made to be paid by boleto, one stream per member
/// (`boletos-<usuario>`). A boleto holds its slot for days, so a member may hold at most
/// ``limite`` such bookings unpaid at once. Each boleto booking appends to this stream in the
/// booking's own atomic append, with the version it read: two boleto bookings of one member at
/// the same instant cannot both pass, whichever process takes them (as a coupon's uses).
///
/// The stream records each booking with the end of its hold. Whether a recorded booking still
/// waits for its payment is for the booking's own stream to say, so the command carries the
/// ones that no longer wait (paid, cancelled or expired before their hold ran out): nothing has
/// to come back to this stream when a booking ends, and a hold that ran out counts no more.
public enum BoletosPendentes {
    /// Bookings one member may hold unpaid by boleto at once.
    public static let limite = 3

    public enum Command: Sendable, Equatable {
        /// Records `reserva`, which holds its slot unpaid until `ate`. `encerradas`: recorded
        /// bookings whose streams say they no longer wait for a payment.
        case registrar(reserva: UUID, usuarioId: String, ate: Date, encerradas: Set<UUID>, em: Date)
    }

    public struct Registrado: Codable, Sendable, Equatable {
        public let usuarioId: String
        public let reservaId: UUID
        /// The end of the booking's hold.
        public let ate: Date
        public let em: Date

        public init(usuarioId: String, reservaId: UUID, ate: Date, em: Date) {
            self.usuarioId = usuarioId
            self.reservaId = reservaId
            self.ate = ate
            self.em = em
        }
    }

    public enum Event: PayloadEvent, Equatable {
        case registrado(Registrado)

        public var kind: EventKind {
            switch self {
            case .registrado: Catalogo.registrado
            }
        }

        public var payload: any Encodable & Sendable {
            switch self {
            case .registrado(let payload): payload
            }
        }

        public static let decoders = EventDecoders<Event>([
            .kind(Catalogo.registrado, Registrado.self) { .registrado($0) }
        ])
    }

    public struct State: Sendable, Equatable {
        /// The recorded bookings whose hold had not run out at the last event, with its end.
        public var reservas: [UUID: Date]

        public init(reservas: [UUID: Date] = [:]) {
            self.reservas = reservas
        }

        /// The recorded bookings whose hold has not run out at `em`: the ones whose streams the
        /// caller must read to learn which still wait.
        public func emAberto(em: Date) -> [UUID] {
            reservas.filter { $0.value > em }.keys.sorted { $0.uppercasedString < $1.uppercasedString }
        }
    }

    public enum Failure: Error, Equatable, Sendable {
        /// The member already holds `pendentes` (≥ ``limite``) bookings unpaid by boleto.
        case limite(pendentes: Int)
    }

    public static let decider = Decider<Command, State, Event, Failure>(
        initialState: State(),
        decide: { command, state throws(Failure) in
            switch command {
            case .registrar(let reserva, let usuarioId, let ate, let encerradas, let em):
                // Recorded already (a retry of the same booking): nothing more.
                if state.reservas[reserva] != nil { return [] }
                let pendentes = state.emAberto(em: em).filter { !encerradas.contains($0) }.count
                guard pendentes < limite else { throw .limite(pendentes: pendentes) }
                return [.registrado(Registrado(usuarioId: usuarioId, reservaId: reserva, ate: ate, em: em))]
            }
        },
        evolve: { state, event in
            switch event {
            case .registrado(let e):
                var state = state
                // Holds that had run out when this one was recorded never count again.
                state.reservas = state.reservas.filter { $0.value > e.em }
                state.reservas[e.reservaId] = e.ate
                return state
            }
        })
}
