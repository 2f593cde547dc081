extension Notificacao {
    /// The events of `notificacao-…` streams: the one place their stored type strings are written.
    public enum Catalogo: EventCatalog {
        public static let categoria = "notificacao"

        public static let enviada = EventKind("NotificacaoEnviada", categoria: categoria, contexto: .notificacoes, rotulo: "Notificação enviada")
        public static let falhou = EventKind("NotificacaoFalhou", categoria: categoria, contexto: .notificacoes, rotulo: "Notificação não entregue")
        public static let lidas = EventKind("NotificacoesLidas", categoria: categoria, contexto: .notificacoes, rotulo: "Notificações lidas")

        public static let todos = [enviada, falhou, lidas]
    }
}
