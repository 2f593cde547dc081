public import Foundation

/// The double-entry ledger (razão) of the financeiro context: every invoice paid and every
/// credit note becomes one ``Lancamento`` whose debits equal its credits.
///
/// Scheme (cash basis; revenue is recognised when the invoice is paid, which is when it is issued):
/// - invoice paid: D caixa `valor`; C receita de serviços `valor − iss`; C ISS a recolher `iss`;
/// - credit note (refund): D reembolsos `valor − issDevolvido`; D ISS a recolher `issDevolvido`;
///   C caixa `valor`.
/// `reembolsos` is a contra-revenue account (deduções da receita): net revenue is receita de
/// serviços minus reembolsos; ISS a recolher is what the unit owes the municipality.
public enum Razao {
    /// An account of the chart; the raw value is the stored and exported name.
    public enum Conta: String, Codable, Sendable, CaseIterable, Comparable {
        case caixa
        case receitaDeServicos = "receita_de_servicos"
        case issARecolher = "iss_a_recolher"
        case reembolsos

        public enum Natureza: String, Codable, Sendable {
            /// Grows with debits (assets, deductions).
            case devedora
            /// Grows with credits (revenue, liabilities).
            case credora
        }

        public var natureza: Natureza {
            switch self {
            case .caixa, .reembolsos: .devedora
            case .receitaDeServicos, .issARecolher: .credora
            }
        }

        /// The account's name as an accountant reads it.
        public var nome: String {
            switch self {
            case .caixa: "Caixa"
            case .receitaDeServicos: "Receita de serviços"
            case .issARecolher: "ISS a recolher"
            case .reembolsos: "Reembolsos (deduções da receita)"
            }
        }

        public static func < (lhs: Conta, rhs: Conta) -> Bool {
            allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
        }
    }

    /// One line of a lançamento: an amount on one side of one account.
    public struct Partida: Codable, Sendable, Equatable {
        public let conta: Conta
        public let debito: Money
        public let credito: Money

        public init(conta: Conta, debito: Money, credito: Money) {
            self.conta = conta
            self.debito = debito
            self.credito = credito
        }

        public static func debito(_ conta: Conta, _ valor: Money) -> Partida { Partida(conta: conta, debito: valor, credito: .zero) }
        public static func credito(_ conta: Conta, _ valor: Money) -> Partida { Partida(conta: conta, debito: .zero, credito: valor) }
    }

    /// Why a set of partidas is not a lançamento.
    public enum Falha: Error, Equatable, Sendable {
        case semPartidas
        /// A negative amount, or a line with both sides (or neither) filled in.
        case partidaInvalida(conta: Conta)
        case desbalanceado(debitos: Money, creditos: Money)
    }

    /// What a lançamento books: an invoice or a credit note, by id and number.
    public struct Origem: Codable, Sendable, Equatable {
        public enum Tipo: String, Codable, Sendable {
            case fatura
            case notaDeCredito = "nota_de_credito"
        }

        public let tipo: Tipo
        public let documentoId: UUID
        public let numero: Int

        public init(tipo: Tipo, documentoId: UUID, numero: Int) {
            self.tipo = tipo
            self.documentoId = documentoId
            self.numero = numero
        }

        /// `F-12`, `NC-3`: the document as printed.
        public var codigo: String { "\(tipo == .fatura ? Fatura.serie : Fatura.NotaDeCredito.serie)-\(numero)" }
    }

    /// A balanced journal entry: Σ debits == Σ credits, every amount ≥ 0, each line on one side.
    /// Only the validating initialiser (also used when decoding) makes one.
    public struct Lancamento: Codable, Sendable, Equatable {
        public let id: UUID
        public let unidadeId: Unidade.ID
        /// 1, 2, 3, … within the unit's ledger (gapless, like the invoice numbers).
        public let sequencia: Int
        public let origem: Origem
        /// Portuguese text: what happened, for the accountant.
        public let historico: String
        public let partidas: [Partida]
        /// The unit's local date of the entry.
        public let data: DataLocal
        public let em: Date

        public init(
            id: UUID, unidadeId: Unidade.ID, sequencia: Int, origem: Origem, historico: String, partidas: [Partida],
            data: DataLocal, em: Date
        ) throws(Falha) {
            guard !partidas.isEmpty else { throw .semPartidas }
            for partida in partidas {
                let lados = (partida.debito > .zero ? 1 : 0) + (partida.credito > .zero ? 1 : 0)
                guard !partida.debito.isNegative, !partida.credito.isNegative, lados == 1 else {
                    throw .partidaInvalida(conta: partida.conta)
                }
            }
            let debitos = partidas.reduce(Money.zero) { $0 + $1.debito }
            let creditos = partidas.reduce(Money.zero) { $0 + $1.credito }
            guard debitos == creditos else { throw .desbalanceado(debitos: debitos, creditos: creditos) }
            self.id = id
            self.unidadeId = unidadeId
            self.sequencia = sequencia
            self.origem = origem
            self.historico = historico
            self.partidas = partidas
            self.data = data
            self.em = em
        }

        public var debitos: Money { partidas.reduce(.zero) { $0 + $1.debito } }
        public var creditos: Money { partidas.reduce(.zero) { $0 + $1.credito } }

        private enum CodingKeys: String, CodingKey { case id, unidadeId, sequencia, origem, historico, partidas, data, em }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            do {
                try self.init(
                    id: try c.decode(UUID.self, forKey: .id), unidadeId: try c.decode(Unidade.ID.self, forKey: .unidadeId),
                    sequencia: try c.decode(Int.self, forKey: .sequencia), origem: try c.decode(Origem.self, forKey: .origem),
                    historico: try c.decode(String.self, forKey: .historico), partidas: try c.decode([Partida].self, forKey: .partidas),
                    data: try c.decode(DataLocal.self, forKey: .data), em: try c.decode(Date.self, forKey: .em))
            } catch let falha as Falha {
                throw DecodingError.dataCorruptedError(forKey: .partidas, in: c, debugDescription: "lançamento inválido: \(falha)")
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id)
            try c.encode(unidadeId, forKey: .unidadeId)
            try c.encode(sequencia, forKey: .sequencia)
            try c.encode(origem, forKey: .origem)
            try c.encode(historico, forKey: .historico)
            try c.encode(partidas, forKey: .partidas)
            try c.encode(data, forKey: .data)
            try c.encode(em, forKey: .em)
        }
    }

    /// The lines of an invoice paid: D caixa valor; C receita valor − iss; C ISS a recolher iss
    /// (zero lines left out).
    public static func partidas(deFatura valor: Money, iss: Money) -> [Partida] {
        [.debito(.caixa, valor), .credito(.receitaDeServicos, valor - iss), .credito(.issARecolher, iss)]
            .filter { $0.debito != .zero || $0.credito != .zero }
    }

    /// The lines of a credit note: D reembolsos valor − issDevolvido; D ISS a recolher
    /// issDevolvido; C caixa valor (zero lines left out).
    public static func partidas(deNota valor: Money, issDevolvido: Money) -> [Partida] {
        [.debito(.reembolsos, valor - issDevolvido), .debito(.issARecolher, issDevolvido), .credito(.caixa, valor)]
            .filter { $0.debito != .zero || $0.credito != .zero }
    }

    /// The entry of an invoice paid (see the scheme above).
    public static func lancamento(de fatura: Fatura.Emitida, id: UUID, sequencia: Int) throws(Falha) -> Lancamento {
        let origem = Origem(tipo: .fatura, documentoId: fatura.faturaId.rawValue, numero: fatura.numero)
        return try Lancamento(
            id: id, unidadeId: fatura.unidadeId, sequencia: sequencia, origem: origem,
            historico: "Recebimento da fatura \(origem.codigo) via \(fatura.metodo), reserva \(fatura.reservaId.lowercasedString); "
                + "ISS de \(percentual(fatura.aliquotaISSBP)) a recolher",
            partidas: partidas(deFatura: fatura.valor, iss: fatura.iss), data: fatura.data, em: fatura.em)
    }

    /// The entry of a credit note (see the scheme above).
    public static func lancamento(de nota: Fatura.NotaDeCreditoEmitida, id: UUID, sequencia: Int) throws(Falha) -> Lancamento {
        let origem = Origem(tipo: .notaDeCredito, documentoId: nota.notaId.rawValue, numero: nota.numero)
        let fatura = Origem(tipo: .fatura, documentoId: nota.faturaId.rawValue, numero: nota.numeroDaFatura)
        return try Lancamento(
            id: id, unidadeId: nota.unidadeId, sequencia: sequencia, origem: origem,
            historico: "Reembolso \(nota.reembolsoId.lowercasedString) da fatura \(fatura.codigo) (nota de crédito \(origem.codigo)), "
                + "\(nota.compraId.map { "compra de pacote \($0.lowercasedString)" } ?? "reserva \(nota.reservaId?.lowercasedString ?? "-")"); "
                + "estorno do ISS correspondente",
            partidas: partidas(deNota: nota.valor, issDevolvido: nota.iss), data: nota.data, em: nota.em)
    }

    /// `500` → `5,00%`.
    public static func percentual(_ basisPoints: Int64) -> String {
        let (inteiro, resto) = basisPoints.quotientAndRemainder(dividingBy: 100)
        return "\(inteiro),\(resto < 10 ? "0" : "")\(resto)%"
    }

    /// One account's movements and balance.
    public struct Saldo: Codable, Sendable, Equatable {
        public let conta: Conta
        public var debitos: Money
        public var creditos: Money

        public init(conta: Conta, debitos: Money = .zero, creditos: Money = .zero) {
            self.conta = conta
            self.debitos = debitos
            self.creditos = creditos
        }

        /// The balance on the account's natural side (positive is normal).
        public var saldo: Money { conta.natureza == .devedora ? debitos - creditos : creditos - debitos }

        public mutating func lancar(_ partida: Partida) {
            debitos = debitos + partida.debito
            creditos = creditos + partida.credito
        }
    }

    /// Every account's balance after `lancamentos` (accounts without movement at zero).
    public static func saldos(_ lancamentos: some Sequence<Lancamento>) -> [Conta: Saldo] {
        var saldos = Dictionary(uniqueKeysWithValues: Conta.allCases.map { ($0, Saldo(conta: $0)) })
        for lancamento in lancamentos {
            for partida in lancamento.partidas { saldos[partida.conta]?.lancar(partida) }
        }
        return saldos
    }
}
