extension TabelaDePreco {
    /// The events of `tabela-…` streams: the one place their stored type strings are written.
    public enum Catalogo: EventCatalog {
        public static let category = "tabela"

        public static let definida = EventKind("TabelaDePrecoDefinida", category: category, context: .precos, label: "Tabela de preços definida")
        public static let regraAdicionada = EventKind(
            "RegraDePrecoAdicionada", category: category, context: .precos, label: "Regra de preço adicionada")
        public static let regraRemovida = EventKind(
            "RegraDePrecoRemovida", category: category, context: .precos, label: "Regra de preço removida")

        public static let todos = [definida, regraAdicionada, regraRemovida]
    }
}
