extension BoletosPendentes {
    /// The events of `boletos-…` streams: the one place their stored type strings are written.
    public enum Catalogo: EventCatalog {
        public static let category = "boletos"

        public static let registrado = EventKind(
            "BoletoPendenteRegistrado", category: category, context: .reservas, label: "Boleto pendente registrado")

        public static let todos = [registrado]
    }
}
