extension Espaco {
    /// The events of `espaco-…` streams: the one place their stored type strings are written.
    public enum Catalogo: EventCatalog {
        public static let categoria = "espaco"

        public static let cadastrado = EventKind("EspacoCadastrado", categoria: categoria, contexto: .espacos, rotulo: "Espaço cadastrado")
        public static let atualizado = EventKind("EspacoAtualizado", categoria: categoria, contexto: .espacos, rotulo: "Espaço atualizado")
        public static let horarioDefinido = EventKind(
            "HorarioDefinido", categoria: categoria, contexto: .espacos, rotulo: "Horário de funcionamento definido")
        public static let bloqueioAgendado = EventKind("BloqueioAgendado", categoria: categoria, contexto: .espacos, rotulo: "Bloqueio agendado")
        public static let bloqueioRemovido = EventKind("BloqueioRemovido", categoria: categoria, contexto: .espacos, rotulo: "Bloqueio removido")
        public static let desativado = EventKind("EspacoDesativado", categoria: categoria, contexto: .espacos, rotulo: "Espaço desativado")
        public static let reativado = EventKind("EspacoReativado", categoria: categoria, contexto: .espacos, rotulo: "Espaço reativado")

        public static let todos = [cadastrado, atualizado, horarioDefinido, bloqueioAgendado, bloqueioRemovido, desativado, reativado]
    }
}
