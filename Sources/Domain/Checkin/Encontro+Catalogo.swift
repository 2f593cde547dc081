extension Encontro {
    /// The events of `encontro-…` streams: the one place their stored type strings are written.
    public enum Catalogo: EventCatalog {
        public static let category = "encontro"

        public static let publicado = EventKind("EncontroPublicado", category: category, context: .checkin, label: "Evento publicado")
        public static let alterado = EventKind("EncontroAlterado", category: category, context: .checkin, label: "Evento alterado")
        public static let cancelado = EventKind("EncontroCancelado", category: category, context: .checkin, label: "Evento cancelado")
        public static let inscrito = EventKind("InscricaoNoEncontro", category: category, context: .checkin, label: "Inscrição no evento")
        public static let desistiu = EventKind(
            "InscricaoNoEncontroCancelada", category: category, context: .checkin, label: "Inscrição no evento cancelada")
        public static let vagaConcedida = EventKind(
            "VagaNoEncontroConcedida", category: category, context: .checkin, label: "Vaga no evento concedida (lista de espera)")

        public static let todos = [publicado, alterado, cancelado, inscrito, desistiu, vagaConcedida]
    }
}
