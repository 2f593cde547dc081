public import Foundation

/// One space's agenda for one local day (`agenda-<espaco>-<yyyy-mm-dd>`): the bookings holding
/// time on it. This stream is what makes double booking impossible: a booking appends to every
/// day it touches in one atomic multi-stream append, with the version it read as the expected
/// version, so two bookings deciding on the same day cannot both commit.
///
/// A block of the space (maintenance, holiday) is written to the same streams, in the same
/// append as the space's own `BloqueioAgendado`: a block and a booking decided at the same
/// instant meet here, and whichever commits second is refused. So does a change of a shared
/// space's capacity (`AgendaCapacidadeDefinida` on every day a booking could still take): a
/// booking decided on the old capacity and the change cannot both commit, and from then on the
/// day's own capacity is the limit its bookings are held to.
public enum Agenda {
    /// Bookings may overlap up to `limite` at any instant: 1 for rooms, `capacidade` for shared desks.
    public enum Command: Sendable, Equatable {
        /// `revisao`: the version of the space's stream the request read `limite` from.
        case ocupar(reserva: UUID, intervalo: TimeRange, limite: Int, revisao: Int64 = 0, em: Date)
        case liberar(reserva: UUID, em: Date)
        /// Refused while a booking holds part of `intervalo`.
        case bloquear(bloqueio: UUID, intervalo: TimeRange, em: Date)
        case desbloquear(bloqueio: UUID, em: Date)
        /// The block now ends at `fim`, which falls in this day: the day keeps what of it comes
        /// before `fim` (recorded as unblocked and blocked again with the shorter interval, in one
        /// append). The days that begin at or after `fim` are sent ``desbloquear(bloqueio:em:)``.
        case encurtar(bloqueio: UUID, fim: Date, em: Date)
        /// A shared space's new capacity for the day, from the space's `revisao` (its stream's
        /// version with the change); a decrease (below `anterior`, the space's capacity before)
        /// is refused while the day's bookings take more seats than that at some instant from
        /// `desde` on (those that ended hold none).
        case definirCapacidade(capacidade: Int, anterior: Int, revisao: Int64, desde: Date, em: Date)
    }

    public struct Ocupada: Codable, Sendable, Equatable {
        public let reservaId: UUID
        public let espacoId: UUID
        public let data: DataLocal
        /// The whole booking, not just this day's part.
        public let intervalo: TimeRange
        public let em: Date

        public init(reservaId: UUID, espacoId: UUID, data: DataLocal, intervalo: TimeRange, em: Date) {
            self.reservaId = reservaId
            self.espacoId = espacoId
            self.data = data
            self.intervalo = intervalo
            self.em = em
        }
    }

    public struct Liberada: Codable, Sendable, Equatable {
        public let reservaId: UUID
        public let espacoId: UUID
        public let data: DataLocal
        public let em: Date

        public init(reservaId: UUID, espacoId: UUID, data: DataLocal, em: Date) {
            self.reservaId = reservaId
            self.espacoId = espacoId
            self.data = data
            self.em = em
        }
    }

    public struct Bloqueada: Codable, Sendable, Equatable {
        public let bloqueioId: UUID
        public let espacoId: UUID
        public let data: DataLocal
        /// The whole block, not just this day's part.
        public let intervalo: TimeRange
        public let em: Date

        public init(bloqueioId: UUID, espacoId: UUID, data: DataLocal, intervalo: TimeRange, em: Date) {
            self.bloqueioId = bloqueioId
            self.espacoId = espacoId
            self.data = data
            self.intervalo = intervalo
            self.em = em
        }
    }

    public struct Desbloqueada: Codable, Sendable, Equatable {
        public let bloqueioId: UUID
        public let espacoId: UUID
        public let data: DataLocal
        public let em: Date

        public init(bloqueioId: UUID, espacoId: UUID, data: DataLocal, em: Date) {
            self.bloqueioId = bloqueioId
            self.espacoId = espacoId
            self.data = data
            self.em = em
        }
    }

    public struct CapacidadeDefinida: Codable, Sendable, Equatable {
        public let espacoId: UUID
        public let data: DataLocal
        public let capacidade: Int
        /// The space's stream version with this change.
        public let revisao: Int64
        public let em: Date

        public init(espacoId: UUID, data: DataLocal, capacidade: Int, revisao: Int64, em: Date) {
            self.espacoId = espacoId
            self.data = data
            self.capacidade = capacidade
            self.revisao = revisao
            self.em = em
        }
    }

    public enum Event: PayloadEvent, Equatable {
        case ocupada(Ocupada)
        case liberada(Liberada)
        case bloqueada(Bloqueada)
        case desbloqueada(Desbloqueada)
        case capacidadeDefinida(CapacidadeDefinida)

        public var kind: EventKind {
            switch self {
            case .ocupada: Catalogo.ocupada
            case .liberada: Catalogo.liberada
            case .bloqueada: Catalogo.bloqueada
            case .desbloqueada: Catalogo.desbloqueada
            case .capacidadeDefinida: Catalogo.capacidadeDefinida
            }
        }

        public var payload: any Encodable & Sendable {
            switch self {
            case .ocupada(let payload): payload
            case .liberada(let payload): payload
            case .bloqueada(let payload): payload
            case .desbloqueada(let payload): payload
            case .capacidadeDefinida(let payload): payload
            }
        }

        public static let decoders = EventDecoders<Event>([
            .kind(Catalogo.ocupada, Ocupada.self) { .ocupada($0) },
            .kind(Catalogo.liberada, Liberada.self) { .liberada($0) },
            .kind(Catalogo.bloqueada, Bloqueada.self) { .bloqueada($0) },
            .kind(Catalogo.desbloqueada, Desbloqueada.self) { .desbloqueada($0) },
            .kind(Catalogo.capacidadeDefinida, CapacidadeDefinida.self) { .capacidadeDefinida($0) },
        ])
    }

    /// The bookings holding time on the day, by booking id, the blocks closing it, and the
    /// capacity the last change of the space's capacity wrote here, with the space's version
    /// then (a booking that read an older space is held to it; one that read the space since
    /// takes the space's capacity: a later change may not have reached this far).
    public struct State: Sendable, Equatable {
        public var espacoId: UUID?
        public var data: DataLocal?
        public var ocupacoes: [UUID: TimeRange] = [:]
        public var bloqueios: [UUID: TimeRange] = [:]
        public var capacidade: Int?
        public var capacidadeRevisao: Int64 = 0

        public init() {}
    }

    public enum Failure: Error, Equatable, Sendable {
        /// The slot is full at some instant of the interval; `conflitos` are the bookings in the way.
        case indisponivel(conflitos: [UUID])
        /// A block of the space closes part of the interval.
        case bloqueada(bloqueios: [UUID])
        /// The day's bookings take `pico` seats at once, more than the capacity asked for.
        case capacidadeExcedida(pico: Int)
    }

    /// The most bookings overlapping at any single instant inside `intervalo` (back-to-back
    /// bookings do not overlap).
    public static func picoDeOcupacao(em intervalo: TimeRange, ocupacoes: some Sequence<TimeRange>) -> Int {
        Intervalos.maximoSimultaneo(ocupacoes.compactMap { $0.intersection(intervalo) })
    }

    /// The decider for one day; `espacoId` and `data` name the stream it runs on.
    public static func decider(espacoId: UUID, data: DataLocal) -> Decider<Command, State, Event, Failure> {
        Decider(
            initialState: State(),
            decide: { command, state throws(Failure) in
                switch command {
                case .ocupar(let reserva, let intervalo, let limite, let revisao, let em):
                    if state.ocupacoes[reserva] != nil { return [] }
                    // A capacity changed after the request read the space wins over what it read.
                    let limite = if let capacidade = state.capacidade, state.capacidadeRevisao > revisao { capacidade } else { limite }
                    let bloqueios = state.bloqueios.filter { $0.value.overlaps(intervalo) }
                    guard bloqueios.isEmpty else { throw .bloqueada(bloqueios: ordenados(bloqueios.keys)) }
                    let others = state.ocupacoes.filter { $0.value.overlaps(intervalo) }
                    guard picoDeOcupacao(em: intervalo, ocupacoes: others.values) < limite else {
                        throw .indisponivel(conflitos: ordenados(others.keys))
                    }
                    return [.ocupada(Ocupada(reservaId: reserva, espacoId: espacoId, data: data, intervalo: intervalo, em: em))]
                case .liberar(let reserva, let em):
                    guard state.ocupacoes[reserva] != nil else { return [] }
                    return [.liberada(Liberada(reservaId: reserva, espacoId: espacoId, data: data, em: em))]
                case .bloquear(let bloqueio, let intervalo, let em):
                    if state.bloqueios[bloqueio] != nil { return [] }
                    // A booking over by now occupies nothing the block could close (one placed
                    // today, from midnight, after the morning's bookings ended).
                    let reservas = state.ocupacoes.filter { $0.value.overlaps(intervalo) && $0.value.end > em }
                    guard reservas.isEmpty else { throw .indisponivel(conflitos: ordenados(reservas.keys)) }
                    return [.bloqueada(Bloqueada(bloqueioId: bloqueio, espacoId: espacoId, data: data, intervalo: intervalo, em: em))]
                case .desbloquear(let bloqueio, let em):
                    guard state.bloqueios[bloqueio] != nil else { return [] }
                    return [.desbloqueada(Desbloqueada(bloqueioId: bloqueio, espacoId: espacoId, data: data, em: em))]
                case .encurtar(let bloqueio, let fim, let em):
                    guard let atual = state.bloqueios[bloqueio], fim < atual.end else { return [] }
                    let desbloqueada = Agenda.Event.desbloqueada(Desbloqueada(bloqueioId: bloqueio, espacoId: espacoId, data: data, em: em))
                    guard let restante = try? TimeRange(start: atual.start, end: fim) else { return [desbloqueada] }
                    return [
                        desbloqueada,
                        .bloqueada(Bloqueada(bloqueioId: bloqueio, espacoId: espacoId, data: data, intervalo: restante, em: em)),
                    ]
                case .definirCapacidade(let capacidade, let anterior, let revisao, let desde, let em):
                    if state.capacidade == capacidade, state.capacidadeRevisao >= revisao { return [] }
                    if capacidade < anterior {
                        let restantes = state.ocupacoes.values.compactMap { ocupacao in
                            try? TimeRange(start: max(ocupacao.start, desde), end: ocupacao.end)
                        }
                        let pico = Intervalos.maximoSimultaneo(restantes)
                        guard pico <= capacidade else { throw .capacidadeExcedida(pico: pico) }
                    }
                    return [.capacidadeDefinida(CapacidadeDefinida(espacoId: espacoId, data: data, capacidade: capacidade, revisao: revisao, em: em))]
                }
            },
            evolve: { state, event in
                var next = state
                switch event {
                case .ocupada(let e):
                    next.espacoId = e.espacoId
                    next.data = e.data
                    next.ocupacoes[e.reservaId] = e.intervalo
                case .liberada(let e):
                    next.ocupacoes[e.reservaId] = nil
                case .bloqueada(let e):
                    next.espacoId = e.espacoId
                    next.data = e.data
                    next.bloqueios[e.bloqueioId] = e.intervalo
                case .desbloqueada(let e):
                    next.bloqueios[e.bloqueioId] = nil
                case .capacidadeDefinida(let e):
                    next.espacoId = e.espacoId
                    next.data = e.data
                    next.capacidade = e.capacidade
                    next.capacidadeRevisao = e.revisao
                }
                return next
            })
    }

    private static func ordenados(_ ids: some Sequence<UUID>) -> [UUID] {
        ids.sorted { $0.uppercasedString < $1.uppercasedString }
    }
}
