extension Checkin {
    /// The events of `checkin-…` streams: the one place their stored type strings are written.
    public enum Catalogo: EventCatalog {
        public static let categoria = "checkin"

        public static let liberado = EventKind("CheckinLiberado", categoria: categoria, contexto: .checkin, rotulo: "Check-in liberado")
        public static let realizado = EventKind("CheckinRealizado", categoria: categoria, contexto: .checkin, rotulo: "Check-in feito")
        public static let checkoutRealizado = EventKind("CheckoutRealizado", categoria: categoria, contexto: .checkin, rotulo: "Checkout feito")
        public static let noShowRegistrado = EventKind("NoShowRegistrado", categoria: categoria, contexto: .checkin, rotulo: "Ausência registrada")
        public static let revogado = EventKind("CheckinRevogado", categoria: categoria, contexto: .checkin, rotulo: "Check-in cancelado")

        public static let todos = [liberado, realizado, checkoutRealizado, noShowRegistrado, revogado]
    }
}
