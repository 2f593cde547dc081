public import Foundation

extension Assinatura {
    public struct Iniciada: Codable, Sendable, Equatable {
        public let assinaturaId: UUID
        public let titular: String
        public let plano: Plano.Referencia
        public let termos: Plano.Termos
        public let unidadeId: UUID?
        public let cobranca: Cobranca
        public let fusoHorario: String
        public let inicio: DataLocal
        public let por: String
        public let em: Date
    }

    public struct CicloIniciado: Codable, Sendable, Equatable {
        public let assinaturaId: UUID
        public let titular: String
        public let ciclo: Ciclo
        public let em: Date
    }

    public struct AlteracaoAgendada: Codable, Sendable, Equatable {
        public let assinaturaId: UUID
        public let titular: String
        public let agendamento: Agendamento
        public let por: String
        public let em: Date
    }

    public struct AlteracaoDesfeita: Codable, Sendable, Equatable {
        public let assinaturaId: UUID
        public let titular: String
        public let tipo: TipoDeAlteracao
        public let por: String
        public let em: Date
    }

    /// An upgrade in the middle of cycle `ciclo`: `cobrancaCentavos` is the difference of the
    /// fees for the rest of it, `lotes` the extra credits for the rest of it.
    public struct PlanoTrocado: Codable, Sendable, Equatable {
        public let assinaturaId: UUID
        public let titular: String
        public let ciclo: Int
        public let de: Plano.Referencia
        public let para: Plano.Referencia
        public let termos: Plano.Termos
        public let proporcaoBP: Int64
        public let cobrancaCentavos: Int64
        public let lotes: [Carteira.Lote]
        public let por: String
        public let em: Date
    }

    public struct Pausada: Codable, Sendable, Equatable {
        public let assinaturaId: UUID
        public let titular: String
        public let em: Date
    }

    public struct Retomada: Codable, Sendable, Equatable {
        public let assinaturaId: UUID
        public let titular: String
        public let por: String
        public let em: Date
    }

    public enum MotivoDoEncerramento: String, Codable, Sendable {
        /// Cancelled by the holder or an operator (at the end of the cycle, or before the first).
        case cancelamento
        /// Still suspended when the cycle ended.
        case inadimplencia
    }

    public struct Encerrada: Codable, Sendable, Equatable {
        public let assinaturaId: UUID
        public let titular: String
        public let motivo: MotivoDoEncerramento
        public let em: Date
    }

    public struct CobrancaConfirmada: Codable, Sendable, Equatable {
        public let assinaturaId: UUID
        public let titular: String
        public let ciclo: Int
        public let em: Date
    }

    public struct CobrancaRecusada: Codable, Sendable, Equatable {
        public let assinaturaId: UUID
        public let titular: String
        public let ciclo: Int
        /// 1 for the first failure, then one per retry.
        public let tentativa: Int
        public let motivo: String
        /// Nil when no retry is left.
        public let proximaTentativa: Date?
        public let em: Date
    }

    /// Pagamentos made a cycle's charge at the provider.
    public struct CobrancaEmitida: Codable, Sendable, Equatable {
        public let assinaturaId: UUID
        public let titular: String
        public let emissao: Emissao
        public let em: Date
    }

    /// A failed charge is due for its next attempt (`tentativa`): pagamentos makes it.
    public struct CobrancaReapresentada: Codable, Sendable, Equatable {
        public let assinaturaId: UUID
        public let titular: String
        public let ciclo: Int
        public let tentativa: Int
        public let em: Date
    }

    public struct Suspensa: Codable, Sendable, Equatable {
        public let assinaturaId: UUID
        public let titular: String
        public let ciclo: Int
        public let em: Date
    }

    public struct Reativada: Codable, Sendable, Equatable {
        public let assinaturaId: UUID
        public let titular: String
        public let em: Date
    }

    public enum Event: PayloadEvent, Equatable {
        case iniciada(Iniciada)
        case cicloIniciado(CicloIniciado)
        case alteracaoAgendada(AlteracaoAgendada)
        case alteracaoDesfeita(AlteracaoDesfeita)
        case planoTrocado(PlanoTrocado)
        case pausada(Pausada)
        case retomada(Retomada)
        case encerrada(Encerrada)
        case cobrancaConfirmada(CobrancaConfirmada)
        case cobrancaRecusada(CobrancaRecusada)
        case suspensa(Suspensa)
        case reativada(Reativada)
        case cobrancaEmitida(CobrancaEmitida)
        case cobrancaReapresentada(CobrancaReapresentada)

        public var kind: EventKind {
            switch self {
            case .iniciada: Catalogo.iniciada
            case .cicloIniciado: Catalogo.cicloIniciado
            case .alteracaoAgendada: Catalogo.alteracaoAgendada
            case .alteracaoDesfeita: Catalogo.alteracaoDesfeita
            case .planoTrocado: Catalogo.planoTrocado
            case .pausada: Catalogo.pausada
            case .retomada: Catalogo.retomada
            case .encerrada: Catalogo.encerrada
            case .cobrancaConfirmada: Catalogo.cobrancaConfirmada
            case .cobrancaRecusada: Catalogo.cobrancaRecusada
            case .suspensa: Catalogo.suspensa
            case .reativada: Catalogo.reativada
            case .cobrancaEmitida: Catalogo.cobrancaEmitida
            case .cobrancaReapresentada: Catalogo.cobrancaReapresentada
            }
        }

        public var payload: any Encodable & Sendable {
            switch self {
            case .iniciada(let payload): payload
            case .cicloIniciado(let payload): payload
            case .alteracaoAgendada(let payload): payload
            case .alteracaoDesfeita(let payload): payload
            case .planoTrocado(let payload): payload
            case .pausada(let payload): payload
            case .retomada(let payload): payload
            case .encerrada(let payload): payload
            case .cobrancaConfirmada(let payload): payload
            case .cobrancaRecusada(let payload): payload
            case .suspensa(let payload): payload
            case .reativada(let payload): payload
            case .cobrancaEmitida(let payload): payload
            case .cobrancaReapresentada(let payload): payload
            }
        }

        public static let decoders = EventDecoders<Event>([
            .kind(Catalogo.iniciada, Iniciada.self) { .iniciada($0) },
            .kind(Catalogo.cicloIniciado, CicloIniciado.self) { .cicloIniciado($0) },
            .kind(Catalogo.alteracaoAgendada, AlteracaoAgendada.self) { .alteracaoAgendada($0) },
            .kind(Catalogo.alteracaoDesfeita, AlteracaoDesfeita.self) { .alteracaoDesfeita($0) },
            .kind(Catalogo.planoTrocado, PlanoTrocado.self) { .planoTrocado($0) },
            .kind(Catalogo.pausada, Pausada.self) { .pausada($0) },
            .kind(Catalogo.retomada, Retomada.self) { .retomada($0) },
            .kind(Catalogo.encerrada, Encerrada.self) { .encerrada($0) },
            .kind(Catalogo.cobrancaConfirmada, CobrancaConfirmada.self) { .cobrancaConfirmada($0) },
            .kind(Catalogo.cobrancaRecusada, CobrancaRecusada.self) { .cobrancaRecusada($0) },
            .kind(Catalogo.suspensa, Suspensa.self) { .suspensa($0) },
            .kind(Catalogo.reativada, Reativada.self) { .reativada($0) },
            .kind(Catalogo.cobrancaEmitida, CobrancaEmitida.self) { .cobrancaEmitida($0) },
            .kind(Catalogo.cobrancaReapresentada, CobrancaReapresentada.self) { .cobrancaReapresentada($0) },
        ])
    }
}
