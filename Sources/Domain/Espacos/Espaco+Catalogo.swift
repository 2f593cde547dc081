extension Espaco {
    /// The events of `espaco-…` streams: the one place their stored type strings are written.
    public enum Catalogo: EventCatalog {
        public static let category = "espaco"

        public static let cadastrado = EventKind("EspacoCadastrado", category: category, context: .espacos, label: "Espaço cadastrado")
        public static let atualizado = EventKind("EspacoAtualizado", category: category, context: .espacos, label: "Espaço atualizado")
        public static let horarioDefinido = EventKind(
            "HorarioDefinido", category: category, context: .espacos, label: "Horário de funcionamento definido")
        public static let bloqueioAgendado = EventKind("BloqueioAgendado", category: category, context: .espacos, label: "Bloqueio agendado")
        public static let bloqueioRemovido = EventKind("BloqueioRemovido", category: category, context: .espacos, label: "Bloqueio removido")
        public static let bloqueioEncurtado = EventKind(
            "BloqueioEncurtado", category: category, context: .espacos, label: "Bloqueio encurtado")
        public static let desativado = EventKind("EspacoDesativado", category: category, context: .espacos, label: "Espaço desativado")
        public static let reativado = EventKind("EspacoReativado", category: category, context: .espacos, label: "Espaço reativado")

        public static let todos = [
            cadastrado, atualizado, horarioDefinido, bloqueioAgendado, bloqueioRemovido, bloqueioEncurtado, desativado, reativado,
        ]
    }
}
