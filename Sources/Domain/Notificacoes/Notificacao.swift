public import Foundation

/// A notice to a member (`notificacao-<id>`): sent by e-mail and kept in the member's in-app
/// inbox, or failed after its retries. Events never hold the address: only who, what and why.
public enum Notificacao {
    public enum Tipo: String, Codable, Sendable, CaseIterable {
        case boasVindas = "boas_vindas"
        case reservaConfirmada = "reserva_confirmada"
        case pagamentoRecebido = "pagamento_recebido"
        case lembrete
        case cancelamento
        case reembolso
        case noShow = "no_show"
        /// A hold whose payment did not arrive in time.
        case expiracao
        /// A subscription's charge: paid, declined (dunning), suspension, reactivation.
        case assinatura
        /// An invitation to a company, to an address that may have no account yet.
        case convite
        /// A visitor: the invitation to the visitor's address, the arrival to the host.
        case visita
        /// A letter or parcel that waits for the member at the front desk.
        case correspondencia
        /// The team's reply to a member's help-desk request, or its resolution.
        case chamado
        /// A place in a community event (signed up, or freed from the waiting list), or the
        /// event's cancellation.
        case encontro
        /// A prospect's tour (to the address they typed): the confirmation, or its cancellation.
        case tour
        /// A booking moved to another time (by the member or the front desk).
        case remarcacao
    }

    public struct Enviada: Codable, Sendable, Equatable {
        public let notificacaoId: UUID
        public let usuarioId: String
        public let tipo: Tipo
        public let canal: String
        public let titulo: String
        /// The in-app text.
        public let texto: String
        public let reservaId: UUID?
        public let messageId: String
        public let tentativas: Int
        public let em: Date

        public init(
            notificacaoId: UUID, usuarioId: String, tipo: Tipo, canal: String, titulo: String, texto: String, reservaId: UUID?,
            messageId: String, tentativas: Int, em: Date
        ) {
            self.notificacaoId = notificacaoId
            self.usuarioId = usuarioId
            self.tipo = tipo
            self.canal = canal
            self.titulo = titulo
            self.texto = texto
            self.reservaId = reservaId
            self.messageId = messageId
            self.tentativas = tentativas
            self.em = em
        }
    }

    public struct Falhou: Codable, Sendable, Equatable {
        public let notificacaoId: UUID
        public let usuarioId: String
        public let tipo: Tipo
        public let canal: String
        public let titulo: String
        public let texto: String
        public let reservaId: UUID?
        public let erro: String
        public let tentativas: Int
        public let em: Date

        public init(
            notificacaoId: UUID, usuarioId: String, tipo: Tipo, canal: String, titulo: String, texto: String, reservaId: UUID?,
            erro: String, tentativas: Int, em: Date
        ) {
            self.notificacaoId = notificacaoId
            self.usuarioId = usuarioId
            self.tipo = tipo
            self.canal = canal
            self.titulo = titulo
            self.texto = texto
            self.reservaId = reservaId
            self.erro = erro
            self.tentativas = tentativas
            self.em = em
        }
    }

    /// The member read their inbox: every notice up to `ate` is read.
    public struct Lidas: Codable, Sendable, Equatable {
        public let usuarioId: String
        public let ate: Date

        public init(usuarioId: String, ate: Date) {
            self.usuarioId = usuarioId
            self.ate = ate
        }
    }

    public enum Event: PayloadEvent, Equatable {
        case enviada(Enviada)
        case falhou(Falhou)
        case lidas(Lidas)

        public var kind: EventKind {
            switch self {
            case .enviada: Catalogo.enviada
            case .falhou: Catalogo.falhou
            case .lidas: Catalogo.lidas
            }
        }

        public var payload: any Encodable & Sendable {
            switch self {
            case .enviada(let payload): payload
            case .falhou(let payload): payload
            case .lidas(let payload): payload
            }
        }

        public static let decoders = EventDecoders<Event>([
            .kind(Catalogo.enviada, Enviada.self) { .enviada($0) },
            .kind(Catalogo.falhou, Falhou.self) { .falhou($0) },
            .kind(Catalogo.lidas, Lidas.self) { .lidas($0) },
        ])
    }
}
