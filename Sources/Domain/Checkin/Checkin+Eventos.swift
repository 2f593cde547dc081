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

    public enum Event: DomainEvent, Equatable {
        case liberado(Liberado)
        case realizado(Ocorrencia)
        case checkoutRealizado(Ocorrencia)
        case noShowRegistrado(Ocorrencia)
        case revogado(Ocorrencia)

        public var eventType: String {
            switch self {
            case .liberado: "CheckinLiberado"
            case .realizado: "CheckinRealizado"
            case .checkoutRealizado: "CheckoutRealizado"
            case .noShowRegistrado: "NoShowRegistrado"
            case .revogado: "CheckinRevogado"
            }
        }

        /// The stored type strings, for projections and bus bindings.
        public static let tipos: Set<String> = ["CheckinLiberado", "CheckinRealizado", "CheckoutRealizado", "NoShowRegistrado", "CheckinRevogado"]

        /// The payload alone is stored; the type string says which case it is.
        public func encode(to encoder: any Encoder) throws {
            switch self {
            case .liberado(let payload): try payload.encode(to: encoder)
            case .realizado(let payload), .checkoutRealizado(let payload), .noShowRegistrado(let payload), .revogado(let payload):
                try payload.encode(to: encoder)
            }
        }

        public init(from decoder: any Decoder) throws {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "decode with Checkin.Event.decode(type:data:)"))
        }

        /// Reads a stored event back; nil for a type this aggregate does not know.
        public static func decode(type: String, data: Data, using decoder: JSONDecoder) throws -> Event? {
            switch type {
            case "CheckinLiberado": .liberado(try decoder.decode(Liberado.self, from: data))
            case "CheckinRealizado": .realizado(try decoder.decode(Ocorrencia.self, from: data))
            case "CheckoutRealizado": .checkoutRealizado(try decoder.decode(Ocorrencia.self, from: data))
            case "NoShowRegistrado": .noShowRegistrado(try decoder.decode(Ocorrencia.self, from: data))
            case "CheckinRevogado": .revogado(try decoder.decode(Ocorrencia.self, from: data))
            default: nil
            }
        }
    }
}
