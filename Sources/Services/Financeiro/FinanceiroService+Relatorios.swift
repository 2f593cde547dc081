public import Domain
import Foundation
public import Projections

// MARK: Reports

/// Revenue of a period: per local day (every day of the period, zeros included), per space
/// type, and in total. Amounts in integer centavos.
public struct RelatorioDeReceita: Codable, Sendable, Equatable {
    /// One row of the report: `data` on rows per day, `tipoDeEspaco` on rows per space type,
    /// neither on the totals.
    public struct Linha: Codable, Sendable, Equatable {
        public var data: DataLocal?
        public var tipoDeEspaco: String?
        /// Invoiced.
        public var bruto: Money = .zero
        /// Refunded (credit notes).
        public var reembolsos: Money = .zero
        /// `bruto − reembolsos`.
        public var liquido: Money = .zero
        /// ISS owed: `issFaturado − issDevolvido`.
        public var iss: Money = .zero
        public var issFaturado: Money = .zero
        public var issDevolvido: Money = .zero
        public var faturas = 0
        public var notasDeCredito = 0

        init(data: DataLocal? = nil, tipoDeEspaco: String? = nil) {
            self.data = data
            self.tipoDeEspaco = tipoDeEspaco
        }

        mutating func somar(_ dia: ReceitaDiariaView) {
            bruto = bruto + dia.bruto
            reembolsos = reembolsos + dia.reembolsos
            issFaturado = issFaturado + dia.issFaturado
            issDevolvido = issDevolvido + dia.issDevolvido
            liquido = bruto - reembolsos
            iss = issFaturado - issDevolvido
            faturas += dia.faturas
            notasDeCredito += dia.notasDeCredito
        }
    }

    public let de: DataLocal
    public let ate: DataLocal
    /// nil: every unit.
    public let unidadeId: String?
    public let porDia: [Linha]
    public let porTipoDeEspaco: [Linha]
    public let totais: Linha
}

/// The ledger's balances per account, of one unit or of all.
public struct RazaoView: Codable, Sendable, Equatable {
    public struct Conta: Codable, Sendable, Equatable {
        /// `caixa`, `receita_de_servicos`, `iss_a_recolher`, `reembolsos`.
        public let conta: String
        public let nome: String
        /// `devedora` or `credora`: the side `saldo` is counted on.
        public let natureza: String
        public let debitos: Money
        public let creditos: Money
        public let saldo: Money
    }

    /// nil: every unit.
    public let unidadeId: String?
    public let contas: [Conta]
    public let totalDebitos: Money
    public let totalCreditos: Money
    /// Σ debits == Σ credits (always true unless something is badly wrong).
    public let equilibrado: Bool
    public let lancamentos: Int
}

/// Documents that have a local date their list is sorted by.
protocol Datado: Decodable {
    var data: DataLocal { get }
}

extension FaturaView: Datado {}
extension DocumentoFiscalView: Datado {}
extension ReceitaDiariaView: Datado {}
extension Razao.Lancamento: Datado {}

/// A period of local dates, both ends included; an open end is nil.
struct Periodo {
    var de: DataLocal?
    var ate: DataLocal?
}
