extension Encomenda {
    /// The events of `encomenda-…` streams: the one place their stored type strings are written.
    public enum Catalogo: EventCatalog {
        public static let category = "encomenda"

        public static let registrada = EventKind(
            "EncomendaRegistrada", category: category, context: .checkin, label: "Correspondência registrada na recepção")
        public static let retirada = EventKind("EncomendaRetirada", category: category, context: .checkin, label: "Correspondência retirada")
        public static let cancelada = EventKind("EncomendaCancelada", category: category, context: .checkin, label: "Correspondência cancelada")

        public static let todos = [registrada, retirada, cancelada]
    }
}
