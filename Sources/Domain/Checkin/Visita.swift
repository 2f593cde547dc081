public import Foundation

/// A visitor a member expects at a unit (`visita-<id>`): the member registers who is coming and
/// when; the front desk records the arrival and the departure; the member may cancel before the
/// arrival. The visitor's name and e-mail arrive sealed under the visit's own key (the domain
/// never sees them in clear), erased by a timer an hour after the visit is cancelled (time for
/// the visitor to be told) or once the visitor log's retention after the expected arrival has
/// passed.
///
/// esperada → presente → saiu; esperada → cancelada.
public enum Visita {
    public typealias ID = Identifier<Visita>

    /// The actor of what the system does on its own (the retention timer).
    public static let sistema = "system:visitas"
    /// How long before the expected arrival a visit may be registered and how far ahead.
    public static let atrasoAdmitido: TimeInterval = 60 * 60
    public static let antecedenciaMaxima: TimeInterval = 180 * 24 * 60 * 60
    /// The front desk may record an arrival at most this long before the expected time.
    public static let chegadaAntecipada: TimeInterval = 12 * 60 * 60
    /// The visitor's name and e-mail are kept this long after the expected arrival (the unit's
    /// visitor log), then erased.
    public static let retencao: TimeInterval = 30 * 24 * 60 * 60
    /// A cancelled visit's visitor data is erased this long after the cancellation: time for
    /// notificacoes to tell the visitor (it opens their address).
    public static let guardaAposCancelamento: TimeInterval = 60 * 60

    public enum Situacao: String, Codable, Sendable, CaseIterable {
        /// Registered; not arrived yet.
        case esperada
        /// The front desk recorded the arrival.
        case presente
        /// The front desk recorded the departure.
        case saiu
        /// The host cancelled it before the arrival.
        case cancelada
    }

    /// What the host registers: where and when, and who (sealed).
    public struct Registro: Codable, Sendable, Equatable {
        public let visitaId: ID
        /// The member who expects the visitor (the host).
        public let usuarioId: String
        public let unidadeId: UUID
        /// The expected arrival, and its local day at the unit (`AAAA-MM-DD`, for the front desk's list).
        public let chegadaPrevista: Date
        public let dia: String
        /// Sealed (`pii:v1:<visitaId>:…`); an erased one reads back as nothing.
        public let nome: String
        public let email: String?

        public init(visitaId: ID, usuarioId: String, unidadeId: UUID, chegadaPrevista: Date, dia: String, nome: String, email: String?) {
            self.visitaId = visitaId
            self.usuarioId = usuarioId
            self.unidadeId = unidadeId
            self.chegadaPrevista = chegadaPrevista
            self.dia = dia
            self.nome = nome
            self.email = email
        }
    }

    public enum Command: Sendable, Equatable {
        /// `por`: the host, or the front desk registering a visitor who came unannounced.
        case registrar(Registro, por: String, em: Date)
        /// The host (or an admin) cancels a visit that has not arrived. Cancelling twice is a no-op.
        case cancelar(por: String, em: Date)
        /// The front desk: the visitor arrived, then left.
        case registrarChegada(por: String, em: Date)
        case registrarSaida(por: String, em: Date)
        /// The retention timer: the visitor's data was erased. Twice is a no-op.
        case apagarDados(em: Date)
        /// An operator, at the visitor's request (LGPD): the data erased now, whatever the
        /// visit's state. Twice is a no-op.
        case apagarAgora(por: String, em: Date)
    }

    public enum Failure: Error, Equatable, Sendable {
        case inexistente
        /// The expected arrival is more than ``atrasoAdmitido`` in the past.
        case noPassado
        /// The expected arrival is more than ``antecedenciaMaxima`` ahead.
        case longeDemais
        case jaRegistrada
        case cancelada
        case jaChegou
        case jaSaiu
        /// A departure before the arrival.
        case semChegada
        /// An arrival recorded too long before the expected time; the desk may record it from `aPartirDe`.
        case cedoDemais(aPartirDe: Date)
        /// Retention is not over until `em`.
        case retencaoNaoVenceu(em: Date)
    }
}
