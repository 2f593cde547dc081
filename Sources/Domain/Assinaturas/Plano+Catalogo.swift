extension Plano {
    /// The events of `plano-…` streams: the one place their stored type strings are written.
    public enum Catalogo: EventCatalog {
        public static let category = "plano"

        public static let criado = EventKind("PlanoCriado", category: category, context: .assinaturas, label: "Plano criado")
        public static let revisado = EventKind("PlanoRevisado", category: category, context: .assinaturas, label: "Nova versão de plano")
        public static let arquivado = EventKind("PlanoArquivado", category: category, context: .assinaturas, label: "Plano arquivado")

        public static let todos = [criado, revisado, arquivado]
    }
}
