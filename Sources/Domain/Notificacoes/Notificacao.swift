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

    public enum Event: DomainEvent, Equatable {
        case enviada(Enviada)
        case falhou(Falhou)
        case lidas(Lidas)

        public var eventType: String {
            switch self {
            case .enviada: "NotificacaoEnviada"
            case .falhou: "NotificacaoFalhou"
            case .lidas: "NotificacoesLidas"
            }
        }

        public func encode(to encoder: any Encoder) throws {
            switch self {
            case .enviada(let payload): try payload.encode(to: encoder)
            case .falhou(let payload): try payload.encode(to: encoder)
            case .lidas(let payload): try payload.encode(to: encoder)
            }
        }

        public init(from decoder: any Decoder) throws {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "decode with Notificacao.Event.decode(type:data:)"))
        }

        public static func decode(type: String, data: Data, using decoder: JSONDecoder) throws -> Event? {
            switch type {
            case "NotificacaoEnviada": .enviada(try decoder.decode(Enviada.self, from: data))
            case "NotificacaoFalhou": .falhou(try decoder.decode(Falhou.self, from: data))
            case "NotificacoesLidas": .lidas(try decoder.decode(Lidas.self, from: data))
            default: nil
            }
        }
    }
}
