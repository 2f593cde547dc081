extension Tour {
    /// The events of `tour-…` streams: the one place their stored type strings are written.
    public enum Catalogo: EventCatalog {
        public static let category = "tour"

        public static let agendado = EventKind("TourAgendado", category: category, context: .checkin, label: "Tour agendado")
        public static let cancelado = EventKind("TourCancelado", category: category, context: .checkin, label: "Tour cancelado")
        public static let realizado = EventKind("TourRealizado", category: category, context: .checkin, label: "Tour realizado")
        public static let ausente = EventKind("TourSemComparecimento", category: category, context: .checkin, label: "Tour sem comparecimento")
        public static let dadosApagados = EventKind(
            "DadosDoTourApagados", category: category, context: .checkin, label: "Dados do interessado apagados")

        public static let todos = [agendado, cancelado, realizado, ausente, dadosApagados]
    }
}

extension AgendaDeTours {
    /// The events of `agendadetours-…` streams.
    public enum Catalogo: EventCatalog {
        public static let category = "agendadetours"

        public static let ocupado = EventKind("HorarioDeTourOcupado", category: category, context: .checkin, label: "Horário de tour ocupado")
        public static let liberado = EventKind("HorarioDeTourLiberado", category: category, context: .checkin, label: "Horário de tour liberado")

        public static let todos = [ocupado, liberado]
    }
}

extension ConfiguracaoDeTours {
    /// The events of `configuracaodetours-…` streams.
    public enum Catalogo: EventCatalog {
        public static let category = "configuracaodetours"

        public static let definida = EventKind("ToursConfigurados", category: category, context: .checkin, label: "Tours da unidade configurados")

        public static let todos = [definida]
    }
}
