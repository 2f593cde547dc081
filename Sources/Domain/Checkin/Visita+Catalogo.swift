extension Visita {
    /// The events of `visita-…` streams: the one place their stored type strings are written.
    public enum Catalogo: EventCatalog {
        public static let category = "visita"

        public static let registrada = EventKind("VisitaRegistrada", category: category, context: .checkin, label: "Visitante registrado")
        public static let cancelada = EventKind("VisitaCancelada", category: category, context: .checkin, label: "Visita cancelada")
        public static let chegou = EventKind("VisitanteChegou", category: category, context: .checkin, label: "Visitante chegou")
        public static let saiu = EventKind("VisitanteSaiu", category: category, context: .checkin, label: "Visitante saiu")
        public static let dadosApagados = EventKind(
            "DadosDoVisitanteApagados", category: category, context: .checkin, label: "Dados do visitante apagados")

        public static let todos = [registrada, cancelada, chegou, saiu, dadosApagados]
    }
}
