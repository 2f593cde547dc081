extension Chamado {
    /// The events of `chamado-…` streams: the one place their stored type strings are written.
    public enum Catalogo: EventCatalog {
        public static let category = "chamado"

        public static let aberto = EventKind("ChamadoAberto", category: category, context: .checkin, label: "Chamado aberto")
        public static let respondido = EventKind("ChamadoRespondido", category: category, context: .checkin, label: "Mensagem no chamado")
        public static let resolvido = EventKind("ChamadoResolvido", category: category, context: .checkin, label: "Chamado resolvido")
        public static let reaberto = EventKind("ChamadoReaberto", category: category, context: .checkin, label: "Chamado reaberto")

        public static let todos = [aberto, respondido, resolvido, reaberto]
    }
}
