extension Reserva {
    /// The events of `reserva-…` streams: the one place their stored type strings are written.
    public enum Catalogo: EventCatalog {
        public static let category = "reserva"

        public static let solicitada = EventKind("ReservaSolicitada", category: category, context: .reservas, label: "Reserva solicitada")
        public static let confirmada = EventKind("ReservaConfirmada", category: category, context: .reservas, label: "Reserva confirmada")
        public static let cancelada = EventKind("ReservaCancelada", category: category, context: .reservas, label: "Reserva cancelada")
        public static let expirada = EventKind("ReservaExpirada", category: category, context: .reservas, label: "Reserva expirada")
        public static let concluida = EventKind("ReservaConcluida", category: category, context: .reservas, label: "Reserva concluída")

        public static let remarcada = EventKind("ReservaRemarcada", category: category, context: .reservas, label: "Reserva remarcada")

        public static let todos = [solicitada, confirmada, cancelada, expirada, concluida, remarcada]
    }
}
