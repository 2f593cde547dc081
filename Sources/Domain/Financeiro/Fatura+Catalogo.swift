extension Fatura {
    /// The events of `faturas-…` streams: the one place their stored type strings are written.
    public enum Catalogo: EventCatalog {
        public static let categoria = "faturas"

        public static let emitida = EventKind("FaturaEmitida", categoria: categoria, contexto: .financeiro, rotulo: "Fatura emitida")
        public static let paga = EventKind("FaturaPaga", categoria: categoria, contexto: .financeiro, rotulo: "Fatura paga")
        public static let notaDeCreditoEmitida = EventKind(
            "NotaDeCreditoEmitida", categoria: categoria, contexto: .financeiro, rotulo: "Nota de crédito emitida")
        public static let contabilizado = EventKind(
            "LancamentoContabilizado", categoria: categoria, contexto: .financeiro, rotulo: "Lançamento contabilizado")

        public static let todos = [emitida, paga, notaDeCreditoEmitida, contabilizado]
    }
}
