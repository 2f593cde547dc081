extension Agenda {
    /// The events of `agenda-…` streams: the one place their stored type strings are written.
    public enum Catalogo: EventCatalog {
        public static let categoria = "agenda"

        public static let ocupada = EventKind("AgendaOcupada", categoria: categoria, contexto: .reservas, rotulo: "Horário ocupado na agenda")
        public static let liberada = EventKind("AgendaLiberada", categoria: categoria, contexto: .reservas, rotulo: "Horário liberado na agenda")
        public static let bloqueada = EventKind("AgendaBloqueada", categoria: categoria, contexto: .reservas, rotulo: "Agenda bloqueada")
        public static let desbloqueada = EventKind("AgendaDesbloqueada", categoria: categoria, contexto: .reservas, rotulo: "Agenda desbloqueada")
        public static let capacidadeDefinida = EventKind(
            "AgendaCapacidadeDefinida", categoria: categoria, contexto: .reservas, rotulo: "Capacidade da agenda definida")

        public static let todos = [ocupada, liberada, bloqueada, desbloqueada, capacidadeDefinida]
    }
}
