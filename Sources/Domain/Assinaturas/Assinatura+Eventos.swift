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
        /// People covered (version 2; version 1 is one): `termos` are already the plan's times this.
        public let assentos: Int
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
        /// The provider's charge that was paid; null when an operator recorded the payment
        /// (a transfer, cash).
        public let cobrancaId: String?
        public let em: Date

        enum CodingKeys: String, CodingKey { case assinaturaId, titular, ciclo, cobrancaId, em }

        public init(assinaturaId: UUID, titular: String, ciclo: Int, cobrancaId: String?, em: Date) {
            self.assinaturaId = assinaturaId
            self.titular = titular
            self.ciclo = ciclo
            self.cobrancaId = cobrancaId
            self.em = em
        }

        /// `cobrancaId` is written even when null: the stored shape says who recorded it.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(assinaturaId, forKey: .assinaturaId)
            try c.encode(titular, forKey: .titular)
            try c.encode(ciclo, forKey: .ciclo)
            try c.encode(cobrancaId, forKey: .cobrancaId)
            try c.encode(em, forKey: .em)
        }

        /// The key must be there (null or a charge): a payload without it is version 1, which
        /// the catalog's upcaster fills in.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            guard c.contains(.cobrancaId) else {
                throw DecodingError.keyNotFound(CodingKeys.cobrancaId, .init(codingPath: c.codingPath, debugDescription: "cobrancaId ausente"))
            }
            self.init(
                assinaturaId: try c.decode(UUID.self, forKey: .assinaturaId), titular: try c.decode(String.self, forKey: .titular),
                ciclo: try c.decode(Int.self, forKey: .ciclo),
                cobrancaId: try c.decodeNil(forKey: .cobrancaId) ? nil : try c.decode(String.self, forKey: .cobrancaId),
                em: try c.decode(Date.self, forKey: .em))
        }
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

    /// A cycle an operator recorded as paid (a transfer, cash) was also paid at the provider:
    /// that charge's `valorCentavos` is given back (the provider confirms by webhook).
    public struct PagamentoDuplicadoDevolvido: Codable, Sendable, Equatable {
        public let assinaturaId: UUID
        public let titular: String
        public let ciclo: Int
        public let cobrancaId: String
        public let reembolsoId: UUID
        public let valorCentavos: Int64
        public let em: Date

        public init(assinaturaId: UUID, titular: String, ciclo: Int, cobrancaId: String, reembolsoId: UUID, valorCentavos: Int64, em: Date) {
            self.assinaturaId = assinaturaId
            self.titular = titular
            self.ciclo = ciclo
            self.cobrancaId = cobrancaId
            self.reembolsoId = reembolsoId
            self.valorCentavos = valorCentavos
            self.em = em
        }
    }

    /// The provider paid a duplicate payment's refund out (its notice, or its answer when asked
    /// about a refund whose notice never came): the money is back with the holder.
    public struct DevolucaoConcluida: Codable, Sendable, Equatable {
        public let assinaturaId: UUID
        public let titular: String
        public let ciclo: Int
        public let cobrancaId: String
        public let reembolsoId: UUID
        public let valorCentavos: Int64
        public let em: Date

        public init(assinaturaId: UUID, titular: String, ciclo: Int, cobrancaId: String, reembolsoId: UUID, valorCentavos: Int64, em: Date) {
            self.assinaturaId = assinaturaId
            self.titular = titular
            self.ciclo = ciclo
            self.cobrancaId = cobrancaId
            self.reembolsoId = reembolsoId
            self.valorCentavos = valorCentavos
            self.em = em
        }
    }

    /// The holder's means of payment from now on (a card on file is a provider's token).
    public struct CobrancaAlterada: Codable, Sendable, Equatable {
        public let assinaturaId: UUID
        public let titular: String
        public let cobranca: Cobranca
        public let por: String
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
        case cobrancaAlterada(CobrancaAlterada)
        case duplicadoDevolvido(PagamentoDuplicadoDevolvido)
        case devolucaoConcluida(DevolucaoConcluida)

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
            case .cobrancaAlterada: Catalogo.cobrancaAlterada
            case .duplicadoDevolvido: Catalogo.duplicadoDevolvido
            case .devolucaoConcluida: Catalogo.devolucaoConcluida
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
            case .cobrancaAlterada(let payload): payload
            case .duplicadoDevolvido(let payload): payload
            case .devolucaoConcluida(let payload): payload
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
            .kind(Catalogo.cobrancaAlterada, CobrancaAlterada.self) { .cobrancaAlterada($0) },
            .kind(Catalogo.duplicadoDevolvido, PagamentoDuplicadoDevolvido.self) { .duplicadoDevolvido($0) },
            .kind(Catalogo.devolucaoConcluida, DevolucaoConcluida.self) { .devolucaoConcluida($0) },
        ])
    }
}
