public import Foundation

extension Carteira {
    public struct Concedidos: Codable, Sendable, Equatable {
        public let titular: String
        public let lote: Lote
        public let por: String
        public let em: Date

        public init(titular: String, lote: Lote, por: String, em: Date) {
            self.titular = titular
            self.lote = lote
            self.por = por
            self.em = em
        }
    }

    public struct Consumidos: Codable, Sendable, Equatable {
        public let titular: String
        public let reservaId: UUID
        public let partes: [Parte]
        /// A company's pool spent by one of its people (version 2; null: the holder's own), and
        /// the month (`AAAA-MM`, the booking's, in its unit's zone) their monthly cap counts it in.
        public let beneficiario: String?
        public let mes: String?
        public let em: Date

        public init(titular: String, reservaId: UUID, partes: [Parte], beneficiario: String? = nil, mes: String? = nil, em: Date) {
            self.titular = titular
            self.reservaId = reservaId
            self.partes = partes
            self.beneficiario = beneficiario
            self.mes = mes
            self.em = em
        }

        enum CodingKeys: String, CodingKey { case titular, reservaId, partes, beneficiario, mes, em }

        /// The two fields are written even when null: version 2's shape.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(titular, forKey: .titular)
            try c.encode(reservaId, forKey: .reservaId)
            try c.encode(partes, forKey: .partes)
            try c.encode(beneficiario, forKey: .beneficiario)
            try c.encode(mes, forKey: .mes)
            try c.encode(em, forKey: .em)
        }
    }

    /// A booking that spent a company's pool moved to another month (ADR 0021): its use of the
    /// pool (`minutos` and `centavos`, what it still holds) counts in `beneficiario`'s month
    /// `para` from now on instead of `de`, under their monthly cap there.
    public struct UsoRemarcado: Codable, Sendable, Equatable {
        public let titular: String
        public let reservaId: UUID
        public let beneficiario: String
        /// The months (`AAAA-MM`, in the booking's unit's zone) it counted in, and counts in now.
        public let de: String
        public let para: String
        public let minutos: Int64
        public let centavos: Int64
        public let em: Date

        public init(
            titular: String, reservaId: UUID, beneficiario: String, de: String, para: String, minutos: Int64, centavos: Int64, em: Date
        ) {
            self.titular = titular
            self.reservaId = reservaId
            self.beneficiario = beneficiario
            self.de = de
            self.para = para
            self.minutos = minutos
            self.centavos = centavos
            self.em = em
        }
    }

    /// A booking ended early: `partes` came back, `retidas` were kept under its cancellation
    /// policy. Either may be empty; the booking holds no credits afterwards.
    public struct Restituidos: Codable, Sendable, Equatable {
        public let titular: String
        public let reservaId: UUID
        public let partes: [Parte]
        public let retidas: [Parte]
        /// True when the booking ended because nobody came (its unit's no-show terms), absent
        /// when it was cancelled or expired.
        public let noShow: Bool?
        public let em: Date

        public init(titular: String, reservaId: UUID, partes: [Parte], retidas: [Parte], noShow: Bool = false, em: Date) {
            self.titular = titular
            self.reservaId = reservaId
            self.partes = partes
            self.retidas = retidas
            self.noShow = noShow ? true : nil
            self.em = em
        }
    }

    public struct Expirados: Codable, Sendable, Equatable {
        public let titular: String
        public let partes: [Parte]
        public let em: Date

        public init(titular: String, partes: [Parte], em: Date) {
            self.titular = titular
            self.partes = partes
            self.em = em
        }
    }

    /// An operator's adjustment: a new lot (`lote`, credits added) or `partes` taken away.
    /// `encerrado`: the lot taken back whole (a refunded bundle's; absent otherwise): what
    /// bookings give back to it later is lost.
    public struct Ajustados: Codable, Sendable, Equatable {
        public let titular: String
        public let lote: Lote?
        public let partes: [Parte]
        public let encerrado: UUID?
        public let motivo: String
        public let por: String
        public let em: Date

        public init(titular: String, lote: Lote?, partes: [Parte], encerrado: UUID? = nil, motivo: String, por: String, em: Date) {
            self.titular = titular
            self.lote = lote
            self.partes = partes
            self.encerrado = encerrado
            self.motivo = motivo
            self.por = por
            self.em = em
        }

        enum CodingKeys: String, CodingKey { case titular, lote, partes, encerrado, motivo, por, em }

        /// `lote` and `encerrado` are written even when null: version 2's shape.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(titular, forKey: .titular)
            try c.encode(lote, forKey: .lote)
            try c.encode(partes, forKey: .partes)
            try c.encode(encerrado, forKey: .encerrado)
            try c.encode(motivo, forKey: .motivo)
            try c.encode(por, forKey: .por)
            try c.encode(em, forKey: .em)
        }
    }

    public enum Event: PayloadEvent, Equatable {
        case concedidos(Concedidos)
        case consumidos(Consumidos)
        case restituidos(Restituidos)
        case expirados(Expirados)
        case ajustados(Ajustados)
        case usoRemarcado(UsoRemarcado)

        public var kind: EventKind {
            switch self {
            case .concedidos: Catalogo.concedidos
            case .consumidos: Catalogo.consumidos
            case .restituidos: Catalogo.restituidos
            case .expirados: Catalogo.expirados
            case .ajustados: Catalogo.ajustados
            case .usoRemarcado: Catalogo.usoRemarcado
            }
        }

        public var payload: any Encodable & Sendable {
            switch self {
            case .concedidos(let payload): payload
            case .consumidos(let payload): payload
            case .restituidos(let payload): payload
            case .expirados(let payload): payload
            case .ajustados(let payload): payload
            case .usoRemarcado(let payload): payload
            }
        }

        public static let decoders = EventDecoders<Event>([
            .kind(Catalogo.concedidos, Concedidos.self) { .concedidos($0) },
            .kind(Catalogo.consumidos, Consumidos.self) { .consumidos($0) },
            .kind(Catalogo.restituidos, Restituidos.self) { .restituidos($0) },
            .kind(Catalogo.expirados, Expirados.self) { .expirados($0) },
            .kind(Catalogo.ajustados, Ajustados.self) { .ajustados($0) },
            .kind(Catalogo.usoRemarcado, UsoRemarcado.self) { .usoRemarcado($0) },
        ])
    }
}
