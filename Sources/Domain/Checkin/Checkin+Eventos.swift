public import Foundation

extension Checkin {
    /// A code was issued for a confirmed booking, with the window the unit's tolerance gives.
    public struct Liberado: Codable, Sendable, Equatable {
        public let reservaId: Reserva.ID
        public let usuarioId: String
        public let espacoId: UUID
        public let unidadeId: UUID
        public let inicio: Date
        public let fim: Date
        public let codigo: Codigo
        public let janela: Janela
        public let em: Date

        public init(_ reserva: Reservada, codigo: Codigo, janela: Janela, em: Date) {
            reservaId = reserva.reservaId
            usuarioId = reserva.usuarioId
            espacoId = reserva.espacoId
            unidadeId = reserva.unidadeId
            inicio = reserva.intervalo.start
            fim = reserva.intervalo.end
            self.codigo = codigo
            self.janela = janela
            self.em = em
        }

        /// What the booking's QR code carries.
        public var qr: String { Checkin.qr(reservaId: reservaId, codigo: codigo) }
    }

    /// Who the check-in concerns and when; shared by the events after ``Liberado``.
    public struct Ocorrencia: Codable, Sendable, Equatable {
        public let reservaId: Reserva.ID
        public let usuarioId: String
        public let espacoId: UUID
        public let unidadeId: UUID
        /// The booking's interval: a no-show's reader releases what is left of it.
        public let inicio: Date
        public let fim: Date
        /// Who acted: the member, an admin at the front desk, or `system:checkin`.
        public let por: String
        public let em: Date

        public init(_ liberado: Liberado, por: String, em: Date) {
            reservaId = liberado.reservaId
            usuarioId = liberado.usuarioId
            espacoId = liberado.espacoId
            unidadeId = liberado.unidadeId
            inicio = liberado.inicio
            fim = liberado.fim
            self.por = por
            self.em = em
        }
    }

    public enum Event: PayloadEvent, Equatable {
        case liberado(Liberado)
        case realizado(Ocorrencia)
        case checkoutRealizado(Ocorrencia)
        case noShowRegistrado(Ocorrencia)
        case revogado(Ocorrencia)
        /// The booking moved: the same code, its new interval and window (ADR 0021).
        case remarcado(Liberado)

        public var kind: EventKind {
            switch self {
            case .liberado: Catalogo.liberado
            case .realizado: Catalogo.realizado
            case .checkoutRealizado: Catalogo.checkoutRealizado
            case .noShowRegistrado: Catalogo.noShowRegistrado
            case .revogado: Catalogo.revogado
            case .remarcado: Catalogo.remarcado
            }
        }

        public var payload: any Encodable & Sendable {
            switch self {
            case .liberado(let payload): payload
            case .realizado(let payload): payload
            case .checkoutRealizado(let payload): payload
            case .noShowRegistrado(let payload): payload
            case .revogado(let payload): payload
            case .remarcado(let payload): payload
            }
        }

        public static let decoders = EventDecoders<Event>([
            .kind(Catalogo.liberado, Liberado.self) { .liberado($0) },
            .kind(Catalogo.realizado, Ocorrencia.self) { .realizado($0) },
            .kind(Catalogo.checkoutRealizado, Ocorrencia.self) { .checkoutRealizado($0) },
            .kind(Catalogo.noShowRegistrado, Ocorrencia.self) { .noShowRegistrado($0) },
            .kind(Catalogo.revogado, Ocorrencia.self) { .revogado($0) },
            .kind(Catalogo.remarcado, Liberado.self) { .remarcado($0) },
        ])
    }
}
