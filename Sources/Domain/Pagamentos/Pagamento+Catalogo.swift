extension Pagamento {
    /// The events of `pagamento-…` streams: the one place their stored type strings are written.
    public enum Catalogo: EventCatalog {
        public static let category = "pagamento"

        public static let iniciado = EventKind("PagamentoIniciado", category: category, context: .pagamentos, label: "Pagamento iniciado")
        public static let confirmado = EventKind("PagamentoConfirmado", category: category, context: .pagamentos, label: "Pagamento confirmado")
        public static let recusado = EventKind("PagamentoRecusado", category: category, context: .pagamentos, label: "Pagamento recusado")
        public static let cancelado = EventKind("PagamentoCancelado", category: category, context: .pagamentos, label: "Pagamento cancelado")
        public static let reembolsoSolicitado = EventKind(
            "ReembolsoSolicitado", category: category, context: .pagamentos, label: "Reembolso solicitado")
        public static let reembolsoConcluido = EventKind(
            "ReembolsoConcluido", category: category, context: .pagamentos, label: "Reembolso concluído")

        public static let todos = [iniciado, confirmado, recusado, cancelado, reembolsoSolicitado, reembolsoConcluido]
    }
}
