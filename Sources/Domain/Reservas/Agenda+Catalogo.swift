extension Agenda {
    /// The events of `agenda-…` streams: the one place their stored type strings are written.
    public enum Catalogo: EventCatalog {
        public static let category = "agenda"

        public static let ocupada = EventKind("AgendaOcupada", category: category, context: .reservas, label: "Horário ocupado na agenda")
        public static let liberada = EventKind("AgendaLiberada", category: category, context: .reservas, label: "Horário liberado na agenda")
        public static let bloqueada = EventKind("AgendaBloqueada", category: category, context: .reservas, label: "Agenda bloqueada")
        public static let desbloqueada = EventKind("AgendaDesbloqueada", category: category, context: .reservas, label: "Agenda desbloqueada")
        public static let capacidadeDefinida = EventKind(
            "AgendaCapacidadeDefinida", category: category, context: .reservas, label: "Capacidade da agenda definida")

        public static let todos = [ocupada, liberada, bloqueada, desbloqueada, capacidadeDefinida]
    }
}
