extension Cupom {
    /// The events of `cupom-…` streams: the one place their stored type strings are written.
    public enum Catalogo: EventCatalog {
        public static let categoria = "cupom"

        public static let criado = EventKind("CupomCriado", categoria: categoria, contexto: .precos, rotulo: "Cupom criado")
        public static let usado = EventKind("CupomUsado", categoria: categoria, contexto: .precos, rotulo: "Cupom usado")
        public static let devolvido = EventKind("CupomDevolvido", categoria: categoria, contexto: .precos, rotulo: "Cupom devolvido")
        public static let desativado = EventKind("CupomDesativado", categoria: categoria, contexto: .precos, rotulo: "Cupom desativado")
        public static let reativado = EventKind("CupomReativado", categoria: categoria, contexto: .precos, rotulo: "Cupom reativado")

        public static let todos = [criado, usado, devolvido, desativado, reativado]
    }
}
