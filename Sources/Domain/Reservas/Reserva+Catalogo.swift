extension Reserva {
    /// The events of `reserva-…` streams: the one place their stored type strings are written.
    public enum Catalogo: EventCatalog {
        public static let categoria = "reserva"

        public static let solicitada = EventKind("ReservaSolicitada", categoria: categoria, contexto: .reservas, rotulo: "Reserva solicitada")
        public static let confirmada = EventKind("ReservaConfirmada", categoria: categoria, contexto: .reservas, rotulo: "Reserva confirmada")
        public static let cancelada = EventKind("ReservaCancelada", categoria: categoria, contexto: .reservas, rotulo: "Reserva cancelada")
        public static let expirada = EventKind("ReservaExpirada", categoria: categoria, contexto: .reservas, rotulo: "Reserva expirada")
        public static let concluida = EventKind("ReservaConcluida", categoria: categoria, contexto: .reservas, rotulo: "Reserva concluída")

        public static let todos = [solicitada, confirmada, cancelada, expirada, concluida]
    }
}
