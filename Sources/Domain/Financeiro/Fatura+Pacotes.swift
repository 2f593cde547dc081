public import Foundation

extension Fatura {
    /// A bundle's purchase that was paid, with what its invoice says.
    public struct PacotePago: Sendable, Equatable {
        public let compraId: UUID
        public let titular: String
        public let unidadeId: Unidade.ID
        public let pacoteId: UUID
        public let pacote: Pacote.Oferta
        /// `cartao`, `pix` or `boleto`.
        public let metodo: String
        public let valor: Money
        public let pagoEm: Date

        public init(
            compraId: UUID, titular: String, unidadeId: Unidade.ID, pacoteId: UUID, pacote: Pacote.Oferta, metodo: String, valor: Money, pagoEm: Date
        ) {
            self.compraId = compraId
            self.titular = titular
            self.unidadeId = unidadeId
            self.pacoteId = pacoteId
            self.pacote = pacote
            self.metodo = metodo
            self.valor = valor
            self.pagoEm = pagoEm
        }
    }

    /// The invoice of a paid bundle, numbered in the same sequence as the other invoices
    /// (issued and paid at once: we invoice on payment).
    public struct PacoteFaturado: Codable, Sendable, Equatable {
        public let faturaId: ID
        public let unidadeId: Unidade.ID
        public let numero: Int
        public let compraId: UUID
        public let usuarioId: String
        public let pacoteId: UUID
        public let pacote: Pacote.Oferta
        public let metodo: String
        public let valor: Money
        public let aliquotaISSBP: Int64
        public let iss: Money
        public let pagoEm: Date
        public let data: DataLocal
        public let em: Date
    }

    /// The revenue line a bundle's invoice counts under, beside the space types and plans.
    public static let tipoDoPacote = "pacote"
}

extension Razao {
    /// The entry of a bundle's invoice: the same lines as a booking's.
    public static func lancamento(de fatura: Fatura.PacoteFaturado, id: UUID, sequencia: Int) throws(Falha) -> Lancamento {
        let origem = Origem(tipo: .fatura, documentoId: fatura.faturaId.rawValue, numero: fatura.numero)
        return try Lancamento(
            id: id, unidadeId: fatura.unidadeId, sequencia: sequencia, origem: origem,
            historico: "Recebimento da fatura \(origem.codigo) via \(fatura.metodo), pacote \(fatura.pacote.nome) "
                + "(compra \(fatura.compraId.lowercasedString)); ISS de \(percentual(fatura.aliquotaISSBP)) a recolher",
            partidas: partidas(deFatura: fatura.valor, iss: fatura.iss), data: fatura.data, em: fatura.em)
    }
}
