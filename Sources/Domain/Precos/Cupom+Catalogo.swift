extension Cupom {
    /// The events of `cupom-…` streams: the one place their stored type strings are written.
    public enum Catalogo: EventCatalog {
        public static let category = "cupom"

        public static let criado = EventKind("CupomCriado", category: category, context: .precos, label: "Cupom criado")
        public static let usado = EventKind("CupomUsado", category: category, context: .precos, label: "Cupom usado")
        public static let devolvido = EventKind("CupomDevolvido", category: category, context: .precos, label: "Cupom devolvido")
        public static let desativado = EventKind("CupomDesativado", category: category, context: .precos, label: "Cupom desativado")
        public static let reativado = EventKind("CupomReativado", category: category, context: .precos, label: "Cupom reativado")

        public static let todos = [criado, usado, devolvido, desativado, reativado]
    }
}
