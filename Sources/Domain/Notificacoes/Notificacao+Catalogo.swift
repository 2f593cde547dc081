extension Notificacao {
    /// The events of `notificacao-…` streams: the one place their stored type strings are written.
    public enum Catalogo: EventCatalog {
        public static let category = "notificacao"

        public static let enviada = EventKind("NotificacaoEnviada", category: category, context: .notificacoes, label: "Notificação enviada")
        public static let falhou = EventKind("NotificacaoFalhou", category: category, context: .notificacoes, label: "Notificação não entregue")
        public static let lidas = EventKind("NotificacoesLidas", category: category, context: .notificacoes, label: "Notificações lidas")

        public static let todos = [enviada, falhou, lidas]
    }
}
