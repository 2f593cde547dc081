extension Pacote {
    /// The events of `pacote-…` streams: the one place their stored type strings are written.
    public enum Catalogo: EventCatalog {
        public static let category = "pacote"

        public static let criado = EventKind("PacoteCriado", category: category, context: .assinaturas, label: "Pacote de créditos criado")
        public static let arquivado = EventKind("PacoteArquivado", category: category, context: .assinaturas, label: "Pacote de créditos arquivado")

        public static let todos = [criado, arquivado]
    }
}
