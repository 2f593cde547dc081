extension Pagamento {
    /// The events of `pagamento-…` streams: the one place their stored type strings are written.
    public enum Catalogo: EventCatalog {
        public static let categoria = "pagamento"

        public static let iniciado = EventKind("PagamentoIniciado", categoria: categoria, contexto: .pagamentos, rotulo: "Pagamento iniciado")
        public static let confirmado = EventKind("PagamentoConfirmado", categoria: categoria, contexto: .pagamentos, rotulo: "Pagamento confirmado")
        public static let recusado = EventKind("PagamentoRecusado", categoria: categoria, contexto: .pagamentos, rotulo: "Pagamento recusado")
        public static let cancelado = EventKind("PagamentoCancelado", categoria: categoria, contexto: .pagamentos, rotulo: "Pagamento cancelado")
        public static let reembolsoSolicitado = EventKind(
            "ReembolsoSolicitado", categoria: categoria, contexto: .pagamentos, rotulo: "Reembolso solicitado")
        public static let reembolsoConcluido = EventKind(
            "ReembolsoConcluido", categoria: categoria, contexto: .pagamentos, rotulo: "Reembolso concluído")

        public static let todos = [iniciado, confirmado, recusado, cancelado, reembolsoSolicitado, reembolsoConcluido]
    }
}
