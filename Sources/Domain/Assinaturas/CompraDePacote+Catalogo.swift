extension CompraDePacote {
    /// The events of `compra-…` streams: the one place their stored type strings are written.
    public enum Catalogo: EventCatalog {
        public static let category = "compra"

        public static let solicitada = EventKind(
            "CompraDePacoteSolicitada", category: category, context: .assinaturas, label: "Compra de pacote de créditos pedida")
        public static let cobrancaEmitida = EventKind(
            "CobrancaDeCompraEmitida", category: category, context: .assinaturas, label: "Cobrança de compra de pacote emitida no provedor")
        public static let paga = EventKind("CompraDePacotePaga", category: category, context: .assinaturas, label: "Compra de pacote paga")
        public static let recusada = EventKind(
            "CompraDePacoteRecusada", category: category, context: .assinaturas, label: "Compra de pacote recusada pelo provedor")

        public static let expirada = EventKind(
            "CompraDePacoteExpirada", category: category, context: .assinaturas, label: "Compra de pacote expirada sem pagamento")

        public static let reembolsada = EventKind(
            "CompraDePacoteReembolsada", category: category, context: .assinaturas, label: "Compra de pacote reembolsada pela operação")

        public static let reembolsoConcluido = EventKind(
            "ReembolsoDeCompraConcluido", category: category, context: .assinaturas,
            label: "Reembolso de compra de pacote pago pelo provedor")

        public static let todos = [solicitada, cobrancaEmitida, paga, recusada, expirada, reembolsada, reembolsoConcluido]
    }
}
