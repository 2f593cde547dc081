import Foundation

extension Fatura {
    /// The events of `faturas-…` streams: the one place their stored type strings are written.
    public enum Catalogo: EventCatalog {
        public static let category = "faturas"

        public static let emitida = EventKind("FaturaEmitida", category: category, context: .financeiro, label: "Fatura emitida")
        public static let paga = EventKind("FaturaPaga", category: category, context: .financeiro, label: "Fatura paga")
        public static let notaDeCreditoEmitida = EventKind(
            "NotaDeCreditoEmitida", version: 2, category: category, context: .financeiro, label: "Nota de crédito emitida")
        public static let assinaturaFaturada = EventKind(
            "FaturaDeAssinaturaEmitida", category: category, context: .financeiro, label: "Fatura de assinatura emitida")
        public static let pacoteFaturado = EventKind(
            "FaturaDePacoteEmitida", category: category, context: .financeiro, label: "Fatura de pacote de créditos emitida")
        public static let contabilizado = EventKind(
            "LancamentoContabilizado", category: category, context: .financeiro, label: "Lançamento contabilizado")

        public static let todos = [emitida, paga, notaDeCreditoEmitida, assinaturaFaturada, pacoteFaturado, contabilizado]

        /// Version 1 of a credit note was always a booking's: no purchase, no bundle.
        public static let upcasts = [
            Upcast(notaDeCreditoEmitida, from: 1) { objeto in
                if objeto["compraId"] == nil { objeto["compraId"] = NSNull() }
                if objeto["pacoteId"] == nil { objeto["pacoteId"] = NSNull() }
            }
        ]
    }
}
