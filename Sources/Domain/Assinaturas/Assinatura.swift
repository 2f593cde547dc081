public import Foundation

/// A holder's membership (`assinatura-<titular>`): the plan, its cycles, what is scheduled for
/// the end of the cycle (a cancellation, a pause, a downgrade) and the state of its charges.
///
/// Monthly cycles follow calendar months: a subscription that starts on the 10th pays and
/// receives credits for the rest of that month in proportion to its days, then one whole month
/// at a time from the 1st. Yearly cycles run from the start date, a year each. Each cycle keeps
/// the plan version in force on its first day.
public enum Assinatura {
    public enum Metodo: String, Codable, Sendable, CaseIterable {
        case cartao
        case pixAutomatico = "pix_automatico"
        case boleto
    }

    /// How the cycles are paid: a card on file is a token of the payment provider.
    public struct Cobranca: Codable, Sendable, Equatable {
        public let metodo: Metodo
        public let cartaoToken: String?

        public init(metodo: Metodo, cartaoToken: String? = nil) {
            self.metodo = metodo
            self.cartaoToken = cartaoToken
        }
    }

    public enum Status: String, Codable, Sendable {
        /// Subscribed to start on a later date: no cycle yet.
        case agendada
        case ativa
        /// No cycles, no charges, no benefits until resumed.
        case pausada
        /// A charge failed through every retry: no benefits until paid.
        case suspensa
        case encerrada
    }

    public enum TipoDeAlteracao: String, Codable, Sendable, CaseIterable {
        case cancelamento, pausa, troca
    }

    /// A change that takes effect when the cycle ends.
    public struct Agendamento: Codable, Sendable, Equatable {
        public let tipo: TipoDeAlteracao
        /// The plan of a downgrade.
        public let plano: Plano.Referencia?
        public let efeitoEm: DataLocal
    }

    /// One paid period and what it granted.
    public struct Ciclo: Codable, Sendable, Equatable {
        public let numero: Int
        public let inicio: DataLocal
        /// The first day after it.
        public let fim: DataLocal
        public let plano: Plano.Referencia
        public let termos: Plano.Termos
        /// The share of a whole cycle it covers (10,000 = all of it): the first, partial
        /// month's, or a resumed one's.
        public let proporcaoBP: Int64
        /// What the cycle costs: its fee in proportion, plus the setup fee on the first.
        public let valorCentavos: Int64
        public let adesaoCentavos: Int64
        /// The prorated differences of upgrades in the cycle before, charged with this one
        /// (included in `valorCentavos`).
        public let trocasCentavos: Int64
        /// The credits it grants (``Carteira/Lote``, origin ``Carteira/Origem/plano``).
        public let lotes: [Carteira.Lote]
        /// Unused credits of the cycle before that roll into this one, up to `maximo` each.
        public let transportes: [Transporte]
    }

    /// Up to `maximo` of what lot `de` has left moves into a new lot (`lote`, whose quantity
    /// is that maximum; the wallet grants what there is).
    public struct Transporte: Codable, Sendable, Equatable {
        public let de: UUID
        public let maximo: Int64
        public let lote: Carteira.Lote
    }

    /// A failed charge and its retries.
    public struct Inadimplencia: Codable, Sendable, Equatable {
        public let ciclo: Int
        public let primeiraFalha: Date
        public let tentativas: Int
        /// When the next attempt is due; nil once retries are over (the subscription is suspended).
        public let proximaTentativa: Date?

        public init(ciclo: Int, primeiraFalha: Date, tentativas: Int, proximaTentativa: Date?) {
            self.ciclo = ciclo
            self.primeiraFalha = primeiraFalha
            self.tentativas = tentativas
            self.proximaTentativa = proximaTentativa
        }
    }

    /// A charge made at the payment provider for a cycle (its `tentativa`-th attempt).
    public struct Emissao: Codable, Sendable, Equatable {
        public let ciclo: Int
        public let tentativa: Int
        /// Our reference at the provider: `assinatura:<titular>:<ciclo>:<tentativa>`.
        public let referencia: String
        public let cobranca: Pagamento.Cobranca
        public let valorCentavos: Int64

        public init(ciclo: Int, tentativa: Int, referencia: String, cobranca: Pagamento.Cobranca, valorCentavos: Int64) {
            self.ciclo = ciclo
            self.tentativa = tentativa
            self.referencia = referencia
            self.cobranca = cobranca
            self.valorCentavos = valorCentavos
        }
    }

    /// A duplicate payment given back, and when the provider paid it out.
    public struct Devolucao: Sendable, Equatable {
        public let pedida: PagamentoDuplicadoDevolvido
        public var concluidaEm: Date?
    }

    /// The provider's reference of a cycle's charge attempt.
    public static func referencia(titular: String, ciclo: Int, tentativa: Int) -> String { "assinatura:\(titular):\(ciclo):\(tentativa)" }

    /// The holder, cycle and attempt a reference names (nil: not a subscription's).
    public static func referencia(_ texto: String) -> (titular: String, ciclo: Int, tentativa: Int)? {
        let partes = texto.split(separator: ":", omittingEmptySubsequences: false)
        guard partes.count == 4, partes[0] == "assinatura", !partes[1].isEmpty, let ciclo = Int(partes[2]), let tentativa = Int(partes[3]),
            ciclo > 0, tentativa > 0
        else { return nil }
        return (String(partes[1]), ciclo, tentativa)
    }

    /// What the refund reconciliation knows a holder's subscription by (`assinatura:<titular>`):
    /// its refunds (duplicate payments given back) are told apart by their ids.
    public static func referencia(titular: String) -> String { "assinatura:\(titular)" }

    /// The holder ``referencia(titular:)`` names (nil: not one).
    public static func titular(daReferencia texto: String) -> String? {
        let partes = texto.split(separator: ":", omittingEmptySubsequences: false)
        guard partes.count == 2, partes[0] == "assinatura", !partes[1].isEmpty else { return nil }
        return String(partes[1])
    }

    /// Days after the first failed charge when it is tried again; after the last, suspension.
    public static let retentativasEmDias = [1, 3, 7]

    public struct Dados: Sendable, Equatable {
        public let assinaturaId: UUID
        public let titular: String
        public var plano: Plano.Referencia
        public var termos: Plano.Termos
        public let unidadeId: UUID?
        public var cobranca: Cobranca
        /// People covered (a company's subscription): the fee and credits are the plan's times this.
        public let assentos: Int
        public let fusoHorario: String
        public let inicio: DataLocal
        public var ciclo: Ciclo?
        public var status: Status
        public var agendamento: Agendamento?
        public var inadimplencia: Inadimplencia?
        /// Cycles paid (numbers); a cycle of no value counts as paid.
        public var pagos: Set<Int>
        /// Upgrades in the current cycle (their credits' lots need their own ids).
        public var trocasNoCiclo: Int
        /// Upgrades' prorated differences not charged yet: they go with the next cycle's charge.
        public var trocasPendentesCentavos: Int64
        /// The charges made for each cycle, in the order made.
        public var emissoes: [Int: [Emissao]]
        /// The latest attempt asked for, per cycle (1 when the cycle opened, more by retries).
        public var tentativasPedidas: [Int: Int]
        /// Duplicate payments given back (a cycle recorded as paid by an operator and also paid at
        /// the provider), by refund id, and when the provider paid each out (nil: not yet).
        public var devolucoes: [UUID: Devolucao] = [:]

        /// A retry of a failed charge is due and not asked for yet.
        /// The current cycle, when its charge failed and no attempt is in flight: a new means of
        /// payment is tried on it at once (active in dunning, or suspended).
        public var cicloEmCobranca: Int? {
            guard status == .ativa || status == .suspensa, let inadimplencia, inadimplencia.ciclo == ciclo?.numero,
                !pagos.contains(inadimplencia.ciclo), (tentativasPedidas[inadimplencia.ciclo] ?? 1) <= inadimplencia.tentativas
            else { return nil }
            return inadimplencia.ciclo
        }

        public var retentativaPendente: Bool {
            guard status == .ativa || status == .suspensa, let inadimplencia, inadimplencia.proximaTentativa != nil else { return false }
            return (tentativasPedidas[inadimplencia.ciclo] ?? 1) <= inadimplencia.tentativas
        }

        public var fuso: TimeZone { Unidade.fuso(fusoHorario) }

        /// The plan the next cycle uses: a scheduled downgrade's, or the current one.
        public var proximoPlano: UUID {
            if let agendamento, agendamento.tipo == .troca, let plano = agendamento.plano { return plano.planoId }
            return plano.planoId
        }

        /// When the timer has something to do: the start of the first cycle, the end of the
        /// current one, or the next retry of a failed charge. Nil when paused or ended.
        public var proximoPrazo: Date? {
            switch status {
            case .pausada, .encerrada: return nil
            case .agendada: return inicio.instante(minutos: 0, em: fuso)
            case .ativa, .suspensa:
                let fim = ciclo.map { $0.fim.instante(minutos: 0, em: fuso) }
                let retentativa = retentativaPendente ? inadimplencia?.proximaTentativa : nil
                return [fim, retentativa].compactMap { $0 }.min()
            }
        }

        /// Whether the plan's benefits (discount, plan credits) apply now.
        public var beneficiosAtivos: Bool { status == .ativa }
    }

    public enum State: Sendable, Equatable {
        case nenhuma
        case existente(Dados)

        public var dados: Dados? {
            guard case .existente(let dados) = self else { return nil }
            return dados
        }
    }

    public enum Command: Sendable, Equatable {
        /// `plano` is the plan's whole state: the version in force on `inicio` applies.
        /// `assentos`: people covered (a company's subscription; 1 for a member's).
        case assinar(
            assinaturaId: UUID, titular: String, plano: Plano.Dados, inicio: DataLocal, hoje: DataLocal, cobranca: Cobranca, fusoHorario: String,
            por: String, em: Date, assentos: Int = 1)
        /// Opens the next cycle when the current one has ended (the first, when its start has
        /// come), with the version of `plano` in force on its first day; or ends, pauses or
        /// switches plan as scheduled. `plano` is the plan of ``Dados/proximoPlano``.
        case renovar(plano: Plano.Dados, em: Date)
        /// At the end of the cycle (at once, before the first cycle).
        case cancelar(por: String, em: Date)
        /// From the end of the cycle.
        case pausar(por: String, em: Date)
        /// Takes back what was scheduled.
        case desfazer(TipoDeAlteracao, por: String, em: Date)
        /// A paused subscription starts a new cycle today, in proportion.
        case retomar(plano: Plano.Dados, hoje: DataLocal, por: String, em: Date)
        /// A dearer plan of the same period takes effect now (the rest of the cycle in
        /// proportion: the difference is charged and the extra credits granted); any other
        /// change at the end of the cycle.
        case trocar(plano: Plano.Dados, hoje: DataLocal, por: String, em: Date)
        /// The charge of cycle `ciclo` was paid (a suspended subscription is active again):
        /// by the provider (`cobrancaId`, which must be the cycle's latest charge) or recorded by
        /// an operator (nil).
        case registrarPagamento(ciclo: Int, cobrancaId: String?, em: Date)
        /// Pagamentos made the `tentativa`-th charge of cycle `ciclo` at the provider.
        case registrarEmissao(Emissao, em: Date)
        /// A failed charge's retry is due: asks pagamentos for the next attempt.
        case reapresentar(em: Date)
        /// The charge of cycle `ciclo` failed: a retry is scheduled, or, retries over, the
        /// subscription is suspended.
        case registrarRecusa(ciclo: Int, cobrancaId: String?, motivo: String, em: Date)
        /// The holder pays from now on with `cobranca` (a new card after a decline, another
        /// method). A cycle in dunning whose last attempt was answered is tried again at once
        /// with it, without waiting for the next retry, also once suspended.
        case alterarCobranca(Cobranca, por: String, em: Date)
        /// The provider paid duplicate payment refund `reembolsoId` out. Again: nothing.
        case concluirDevolucao(reembolsoId: UUID, em: Date)
    }

    public enum Failure: Error, Equatable, Sendable {
        case naoEncontrada
        /// Already subscribed (not ended).
        case jaAssinante
        case planoArquivado
        case inicioInvalido
        case cartaoObrigatorio
        case encerrada
        /// The command does not apply in this status (pausing a paused one, resuming an active one…).
        case statusInvalido(Status)
        case nadaAgendado(TipoDeAlteracao)
        /// Another change is already scheduled for the end of the cycle (undo it first).
        case jaAgendado(TipoDeAlteracao)
        case mesmoPlano
        case cicloDesconhecido(Int)
        /// A provider's notice about a charge that is not the cycle's latest.
        case cobrancaDesconhecida
        /// Seats outside 1…``assentosMaximos``, or so many that a cycle's fee or credits pass their limits.
        case assentosInvalidos
        /// A notice about a refund this subscription never gave back.
        case devolucaoDesconhecida
    }

    /// The most seats one subscription covers.
    public static let assentosMaximos = 1_000

    /// A start at most this many days ahead.
    public static let antecedenciaMaximaEmDias = 90
}
