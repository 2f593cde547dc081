public import Foundation

/// How a unit takes tours (`configuracaodetours-<unidade>`): whether it does, how long a tour
/// lasts, how many at the same time, and the weekly hours they start in (the unit's wall
/// clock). Until the team sets it, ``Configuracao/padrao``.
public enum ConfiguracaoDeTours {
    public struct Configuracao: Codable, Sendable, Equatable {
        public let ativo: Bool
        public let duracaoMinutos: Int
        /// Tours at the same time (the people who can receive them).
        public let simultaneos: Int
        public let horario: Espaco.HorarioSemanal
        /// The team's mailbox (e.g. the front desk's), told of each tour booked on the public site
        /// and of each the prospect cancels; nil: nobody is told (the day's list shows them).
        public let emailDaEquipe: String?

        public init(ativo: Bool, duracaoMinutos: Int, simultaneos: Int, horario: Espaco.HorarioSemanal, emailDaEquipe: String? = nil) {
            self.ativo = ativo
            self.duracaoMinutos = duracaoMinutos
            self.simultaneos = simultaneos
            self.horario = horario
            self.emailDaEquipe = emailDaEquipe
        }

        /// 15 minutes to 3 hours, in steps of 15.
        public static let duracoes = 15...180
        public static let simultaneosMaximos = 20

        /// Active, 30 minutes, one at a time, Monday to Friday 09:00–18:00.
        public static let padrao: Configuracao = {
            let util = [Espaco.Faixa(abre: 9 * 60, fecha: 18 * 60)]
            let horario = (try? Espaco.HorarioSemanal([.segunda: util, .terca: util, .quarta: util, .quinta: util, .sexta: util])) ?? .fechado
            return Configuracao(ativo: true, duracaoMinutos: 30, simultaneos: 1, horario: horario)
        }()

        /// The tours of local day `dia`: back to back from each opening range's start, each
        /// ending within its range, earliest first. None when the unit takes no tours.
        public func horarios(em dia: DataLocal, fuso: TimeZone) -> [TimeRange] {
            guard ativo, duracaoMinutos > 0 else { return [] }
            var horarios: [TimeRange] = []
            for faixa in horario.faixas(de: dia.diaDaSemana) {
                var minuto = faixa.abre
                while minuto + duracaoMinutos <= faixa.fecha {
                    // A time the clock skips (DST) may fold two slots into one instant: kept once.
                    if let slot = try? TimeRange(
                        start: dia.instante(minutos: minuto, em: fuso), end: dia.instante(minutos: minuto + duracaoMinutos, em: fuso)),
                        horarios.last.map({ $0.start < slot.start }) ?? true
                    {
                        horarios.append(slot)
                    }
                    minuto += duracaoMinutos
                }
            }
            return horarios
        }
    }

    /// The team set how the unit takes tours.
    public struct Definida: Codable, Sendable, Equatable {
        public let unidadeId: UUID
        public let configuracao: Configuracao
        public let por: String
        public let em: Date

        public init(unidadeId: UUID, configuracao: Configuracao, por: String, em: Date) {
            self.unidadeId = unidadeId
            self.configuracao = configuracao
            self.por = por
            self.em = em
        }
    }

    public enum Command: Sendable, Equatable {
        /// The same configuration again is a no-op.
        case definir(Definida)
    }

    public enum Failure: Error, Equatable, Sendable {
        case duracaoInvalida
        case simultaneosInvalidos
    }

    /// The configuration set last (nil: never set, ``Configuracao/padrao`` applies).
    public typealias State = Configuracao?

    public enum Event: PayloadEvent, Equatable {
        case definida(Definida)

        public var kind: EventKind { Catalogo.definida }
        public var payload: any Encodable & Sendable {
            switch self {
            case .definida(let payload): payload
            }
        }

        public static let decoders = EventDecoders<Event>([.kind(Catalogo.definida, Definida.self) { .definida($0) }])
    }

    public static let decider = Decider<Command, State, Event, Failure>(
        initialState: nil,
        decide: { command, state throws(Failure) in
            switch command {
            case .definir(let e):
                let c = e.configuracao
                guard Configuracao.duracoes.contains(c.duracaoMinutos), c.duracaoMinutos.isMultiple(of: 15) else { throw .duracaoInvalida }
                guard (1...Configuracao.simultaneosMaximos).contains(c.simultaneos) else { throw .simultaneosInvalidos }
                return state == c ? [] : [.definida(e)]
            }
        },
        evolve: { _, event in
            switch event {
            case .definida(let e): e.configuracao
            }
        })
}

/// The tours of one unit's local day (`agendadetours-<unidade>-<dia>`): which tour holds which
/// time. A booking appends here and to the tour's own stream at once, so two prospects never
/// take more places of a time than the unit has: the second append conflicts and is decided
/// again on the new state.
public enum AgendaDeTours {
    public struct Horario: Codable, Sendable, Equatable {
        public let tourId: Tour.ID
        public let unidadeId: UUID
        public let dia: String
        public let inicio: Date
        public let fim: Date

        public init(tourId: Tour.ID, unidadeId: UUID, dia: String, inicio: Date, fim: Date) {
            self.tourId = tourId
            self.unidadeId = unidadeId
            self.dia = dia
            self.inicio = inicio
            self.fim = fim
        }

        var intervalo: TimeRange? { try? TimeRange(start: inicio, end: fim) }
    }

    /// A tour gave its time back (cancelled).
    public struct Liberado: Codable, Sendable, Equatable {
        public let tourId: Tour.ID
        public let unidadeId: UUID
        public let dia: String
    }

    public enum Command: Sendable, Equatable {
        /// Takes a place of the time, if fewer than `simultaneos` tours overlap it. The same tour
        /// twice is a no-op.
        case ocupar(Horario, simultaneos: Int)
        /// Gives the tour's time back; a tour that holds none is a no-op.
        case liberar(Tour.ID)
    }

    public enum Failure: Error, Equatable, Sendable {
        /// Every place of the time is taken.
        case lotado
    }

    /// The tours holding a time, by id.
    public typealias State = [Tour.ID: Horario]

    /// Places left in `intervalo` with `simultaneos` at once: fewer by each tour that overlaps it.
    public static func vagas(em intervalo: TimeRange, simultaneos: Int, _ state: State) -> Int {
        max(0, simultaneos - state.values.count { $0.intervalo?.overlaps(intervalo) ?? false })
    }

    public enum Event: PayloadEvent, Equatable {
        case ocupado(Horario)
        case liberado(Liberado)

        public var kind: EventKind {
            switch self {
            case .ocupado: Catalogo.ocupado
            case .liberado: Catalogo.liberado
            }
        }

        public var payload: any Encodable & Sendable {
            switch self {
            case .ocupado(let payload): payload
            case .liberado(let payload): payload
            }
        }

        public static let decoders = EventDecoders<Event>([
            .kind(Catalogo.ocupado, Horario.self) { .ocupado($0) },
            .kind(Catalogo.liberado, Liberado.self) { .liberado($0) },
        ])
    }

    public static let decider = Decider<Command, State, Event, Failure>(
        initialState: [:],
        decide: { command, state throws(Failure) in
            switch command {
            case .ocupar(let horario, let simultaneos):
                guard state[horario.tourId] == nil else { return [] }
                guard let intervalo = horario.intervalo, vagas(em: intervalo, simultaneos: simultaneos, state) > 0 else { throw .lotado }
                return [.ocupado(horario)]
            case .liberar(let id):
                guard let horario = state[id] else { return [] }
                return [.liberado(Liberado(tourId: id, unidadeId: horario.unidadeId, dia: horario.dia))]
            }
        },
        evolve: { state, event in
            var state = state
            switch event {
            case .ocupado(let horario): state[horario.tourId] = horario
            case .liberado(let e): state[e.tourId] = nil
            }
            return state
        })
}
