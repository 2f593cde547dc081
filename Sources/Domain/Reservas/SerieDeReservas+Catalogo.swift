extension SerieDeReservas {
    /// The events of `serie-…` streams: the one place their stored type strings are written.
    public enum Catalogo: EventCatalog {
        public static let category = "serie"

        public static let criada = EventKind("SerieDeReservasCriada", category: category, context: .reservas, label: "Série de reservas criada")
        public static let cancelada = EventKind(
            "SerieDeReservasCancelada", category: category, context: .reservas, label: "Série de reservas cancelada")

        public static let remarcada = EventKind(
            "SerieDeReservasRemarcada", category: category, context: .reservas, label: "Série de reservas remarcada")

        public static let todos = [criada, cancelada, remarcada]
    }
}
