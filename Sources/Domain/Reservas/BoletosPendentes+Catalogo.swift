extension BoletosPendentes {
    /// The events of `boletos-…` streams: the one place their stored type strings are written.
    public enum Catalogo: EventCatalog {
        public static let categoria = "boletos"

        public static let registrado = EventKind(
            "BoletoPendenteRegistrado", categoria: categoria, contexto: .reservas, rotulo: "Boleto pendente registrado")

        public static let todos = [registrado]
    }
}
