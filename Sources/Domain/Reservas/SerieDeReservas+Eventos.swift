public import Foundation

extension SerieDeReservas {
    public struct Criada: Codable, Sendable, Equatable {
        public let serie: Criacao
        /// The member, or the operator who booked for them.
        public let por: String
        public let em: Date

        public init(_ serie: Criacao, por: String, em: Date) {
            self.serie = serie
            self.por = por
            self.em = em
        }
    }

    /// The bookings of occurrences `aPartirDe` on that a cancellation of the series cancelled
    /// (each with its own `ReservaCancelada`, under its own terms; the ones already over,
    /// started or cancelled are not among them).
    public struct Cancelada: Codable, Sendable, Equatable {
        public let serieId: ID
        public let usuarioId: String
        public let aPartirDe: Int
        public let canceladas: [Reserva.ID]
        public let por: String
        public let motivo: String?
        public let em: Date

        public init(serieId: ID, usuarioId: String, aPartirDe: Int, canceladas: [Reserva.ID], por: String, motivo: String?, em: Date) {
            self.serieId = serieId
            self.usuarioId = usuarioId
            self.aPartirDe = aPartirDe
            self.canceladas = canceladas
            self.por = por
            self.motivo = motivo
            self.em = em
        }
    }

    /// The bookings of occurrences `aPartirDe` on that a move of the series moved, in one append
    /// with each one's own `ReservaRemarcada` (``Reserva/Remarcada/daSerie``): all of them or
    /// none.
    public struct Remarcada: Codable, Sendable, Equatable {
        public struct Movida: Codable, Sendable, Equatable {
            public let reservaId: Reserva.ID
            public let de: TimeRange
            public let para: TimeRange

            public init(reservaId: Reserva.ID, de: TimeRange, para: TimeRange) {
                self.reservaId = reservaId
                self.de = de
                self.para = para
            }
        }

        public let serieId: ID
        public let usuarioId: String
        public let aPartirDe: Int
        public let movidas: [Movida]
        /// The member, or the operator who moved them.
        public let por: String
        public let em: Date

        public init(serieId: ID, usuarioId: String, aPartirDe: Int, movidas: [Movida], por: String, em: Date) {
            self.serieId = serieId
            self.usuarioId = usuarioId
            self.aPartirDe = aPartirDe
            self.movidas = movidas
            self.por = por
            self.em = em
        }
    }

    public enum Event: PayloadEvent, Equatable {
        case criada(Criada)
        case cancelada(Cancelada)
        case remarcada(Remarcada)

        public var kind: EventKind {
            switch self {
            case .criada: Catalogo.criada
            case .cancelada: Catalogo.cancelada
            case .remarcada: Catalogo.remarcada
            }
        }

        public var payload: any Encodable & Sendable {
            switch self {
            case .criada(let payload): payload
            case .cancelada(let payload): payload
            case .remarcada(let payload): payload
            }
        }

        public static let decoders = EventDecoders<Event>([
            .kind(Catalogo.criada, Criada.self) { .criada($0) },
            .kind(Catalogo.cancelada, Cancelada.self) { .cancelada($0) },
            .kind(Catalogo.remarcada, Remarcada.self) { .remarcada($0) },
        ])
    }

    public struct Dados: Sendable, Equatable {
        public var serie: Criacao
        public var criadaPor: String
        public var criadaEm: Date
        /// The member's cancellations, oldest first.
        public var cancelamentos: [Cancelada]
        /// Its moves, oldest first.
        public var remarcacoes: [Remarcada] = []

        public var id: ID { serie.serieId }
    }

    public enum State: Sendable, Equatable {
        case inexistente
        case existente(Dados)

        public var dados: Dados? {
            if case .existente(let dados) = self { return dados }
            return nil
        }
    }

    static func criar(_ serie: Criacao, por: String, em: Date) throws(Failure) -> [Event] {
        guard (2...maximoDeOcorrencias).contains(serie.ocorrencias.count),
            serie.ocorrencias.map(\.numero) == Array(1...serie.ocorrencias.count)
        else { throw .quantidade }
        let reservas = serie.ocorrencias.compactMap(\.reservaId)
        guard Set(reservas).count == reservas.count else { throw .reservaAlheia }
        guard !reservas.isEmpty else { throw .nenhumaReservada }
        return [.criada(Criada(serie, por: por, em: em))]
    }

    static func cancelar(
        _ dados: Dados, aPartirDe: Int, canceladas: [Reserva.ID], por: String, motivo: String?, em: Date
    ) throws(Failure) -> [Event] {
        guard dados.serie.ocorrencias.contains(where: { $0.numero == aPartirDe }) else { throw .ocorrenciaInexistente }
        let daSerie = Set(dados.serie.ocorrencias.filter { $0.numero >= aPartirDe }.compactMap(\.reservaId))
        guard canceladas.allSatisfy(daSerie.contains) else { throw .reservaAlheia }
        // Each booking once, and not one an earlier cancellation of the series already named.
        let antes = Set(dados.cancelamentos.flatMap(\.canceladas))
        var vistas: Set<Reserva.ID> = []
        let canceladas = canceladas.filter { !antes.contains($0) && vistas.insert($0).inserted }
        guard !canceladas.isEmpty else { return [] }
        return [
            .cancelada(
                Cancelada(
                    serieId: dados.id, usuarioId: dados.serie.usuarioId, aPartirDe: aPartirDe, canceladas: canceladas, por: por, motivo: motivo,
                    em: em))
        ]
    }

    static func remarcar(_ dados: Dados, aPartirDe: Int, movidas: [Remarcada.Movida], por: String, em: Date) throws(Failure) -> [Event] {
        guard dados.serie.ocorrencias.contains(where: { $0.numero == aPartirDe }) else { throw .ocorrenciaInexistente }
        let daSerie = Set(dados.serie.ocorrencias.filter { $0.numero >= aPartirDe }.compactMap(\.reservaId))
        let ids = movidas.map(\.reservaId)
        guard ids.allSatisfy(daSerie.contains), Set(ids).count == ids.count else { throw .reservaAlheia }
        guard !movidas.isEmpty else { return [] }
        return [.remarcada(Remarcada(serieId: dados.id, usuarioId: dados.serie.usuarioId, aPartirDe: aPartirDe, movidas: movidas, por: por, em: em))]
    }

    public static let decider = Decider<Command, State, Event, Failure>(
        initialState: .inexistente,
        decide: { command, state throws(Failure) in
            switch (command, state) {
            case (.criar(let serie, let por, let em), .inexistente):
                return try criar(serie, por: por, em: em)
            case (.criar, .existente):
                throw .jaExiste
            case (.cancelar, .inexistente):
                throw .inexistente
            case (.cancelar(let aPartirDe, let canceladas, let por, let motivo, let em), .existente(let dados)):
                return try cancelar(dados, aPartirDe: aPartirDe, canceladas: canceladas, por: por, motivo: motivo, em: em)
            case (.remarcar, .inexistente):
                throw .inexistente
            case (.remarcar(let aPartirDe, let movidas, let por, let em), .existente(let dados)):
                return try remarcar(dados, aPartirDe: aPartirDe, movidas: movidas, por: por, em: em)
            }
        },
        evolve: { state, event in
            switch (state, event) {
            case (.inexistente, .criada(let e)):
                return .existente(Dados(serie: e.serie, criadaPor: e.por, criadaEm: e.em, cancelamentos: []))
            case (.existente(var dados), .cancelada(let e)):
                dados.cancelamentos.append(e)
                return .existente(dados)
            case (.existente(var dados), .remarcada(let e)):
                dados.remarcacoes.append(e)
                return .existente(dados)
            default:
                return state
            }
        })
}
