extension TabelaDePreco {
    /// The events of `tabela-…` streams: the one place their stored type strings are written.
    public enum Catalogo: EventCatalog {
        public static let categoria = "tabela"

        public static let definida = EventKind("TabelaDePrecoDefinida", categoria: categoria, contexto: .precos, rotulo: "Tabela de preços definida")
        public static let regraAdicionada = EventKind(
            "RegraDePrecoAdicionada", categoria: categoria, contexto: .precos, rotulo: "Regra de preço adicionada")
        public static let regraRemovida = EventKind(
            "RegraDePrecoRemovida", categoria: categoria, contexto: .precos, rotulo: "Regra de preço removida")

        public static let todos = [definida, regraAdicionada, regraRemovida]
    }
}
