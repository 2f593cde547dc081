public import Foundation

extension Fatura {
    /// A subscription cycle's charge that was paid, with what its invoice says.
    public struct CicloPago: Sendable, Equatable {
        public let assinaturaId: UUID
        public let titular: String
        public let unidadeId: Unidade.ID
        public let ciclo: Int
        public let plano: Plano.Referencia
        /// The cycle's first day and the first day after it.
        public let inicio: DataLocal
        public let fim: DataLocal
        /// `cartao`, `pix_automatico`, `boleto`, or `manual` (recorded by an operator).
        public let metodo: String
        /// The fee (in proportion), the setup fee, an upgrade's difference: they add up to `valor`.
        public let itens: [Reserva.LinhaDePreco]
        public let valor: Money
        public let pagoEm: Date

        public init(
            assinaturaId: UUID, titular: String, unidadeId: Unidade.ID, ciclo: Int, plano: Plano.Referencia, inicio: DataLocal,
            fim: DataLocal, metodo: String, itens: [Reserva.LinhaDePreco], valor: Money, pagoEm: Date
        ) {
            self.assinaturaId = assinaturaId
            self.titular = titular
            self.unidadeId = unidadeId
            self.ciclo = ciclo
            self.plano = plano
            self.inicio = inicio
            self.fim = fim
            self.metodo = metodo
            self.itens = itens
            self.valor = valor
            self.pagoEm = pagoEm
        }

        /// What the book remembers of it: one invoice per cycle of a subscription.
        var chave: String { Fatura.chave(assinatura: assinaturaId, ciclo: ciclo) }
    }

    static func chave(assinatura: UUID, ciclo: Int) -> String { "\(assinatura.lowercasedString)|\(ciclo)" }

    /// The invoice of a subscription's paid cycle, numbered in the same sequence as the
    /// bookings' invoices (issued and paid at once: we invoice on payment). Its service is
    /// the plan's cycle, from `inicio` to the day before `fim`.
    public struct AssinaturaFaturada: Codable, Sendable, Equatable {
        public let faturaId: ID
        public let unidadeId: Unidade.ID
        public let numero: Int
        public let assinaturaId: UUID
        public let usuarioId: String
        public let ciclo: Int
        public let plano: Plano.Referencia
        public let inicio: DataLocal
        public let fim: DataLocal
        public let metodo: String
        public let itens: [Reserva.LinhaDePreco]
        public let valor: Money
        public let aliquotaISSBP: Int64
        public let iss: Money
        public let pagoEm: Date
        public let data: DataLocal
        public let em: Date

        public init(
            faturaId: ID, unidadeId: Unidade.ID, numero: Int, assinaturaId: UUID, usuarioId: String, ciclo: Int, plano: Plano.Referencia,
            inicio: DataLocal, fim: DataLocal, metodo: String, itens: [Reserva.LinhaDePreco], valor: Money, aliquotaISSBP: Int64, iss: Money,
            pagoEm: Date, data: DataLocal,
            em: Date
        ) {
            self.faturaId = faturaId
            self.unidadeId = unidadeId
            self.numero = numero
            self.assinaturaId = assinaturaId
            self.usuarioId = usuarioId
            self.ciclo = ciclo
            self.plano = plano
            self.inicio = inicio
            self.fim = fim
            self.metodo = metodo
            self.itens = itens
            self.valor = valor
            self.aliquotaISSBP = aliquotaISSBP
            self.iss = iss
            self.pagoEm = pagoEm
            self.data = data
            self.em = em
        }
    }

    /// The revenue line a subscription's invoice counts under, beside the space types.
    public static let tipoDaAssinatura = "plano"
}

extension Razao {
    /// The entry of a subscription cycle's invoice: the same lines as a booking's.
    public static func lancamento(de fatura: Fatura.AssinaturaFaturada, id: UUID, sequencia: Int) throws(Falha) -> Lancamento {
        let origem = Origem(tipo: .fatura, documentoId: fatura.faturaId.rawValue, numero: fatura.numero)
        return try Lancamento(
            id: id, unidadeId: fatura.unidadeId, sequencia: sequencia, origem: origem,
            historico: "Recebimento da fatura \(origem.codigo) via \(fatura.metodo), plano \(fatura.plano.nome), ciclo \(fatura.ciclo) "
                + "(\(fatura.inicio) a \(fatura.fim.adding(dias: -1))) da assinatura \(fatura.assinaturaId.lowercasedString); "
                + "ISS de \(percentual(fatura.aliquotaISSBP)) a recolher",
            partidas: partidas(deFatura: fatura.valor, iss: fatura.iss), data: fatura.data, em: fatura.em)
    }
}
