extension Checkin {
    /// The events of `checkin-…` streams: the one place their stored type strings are written.
    public enum Catalogo: EventCatalog {
        public static let category = "checkin"

        public static let liberado = EventKind("CheckinLiberado", category: category, context: .checkin, label: "Check-in liberado")
        public static let realizado = EventKind("CheckinRealizado", category: category, context: .checkin, label: "Check-in feito")
        public static let checkoutRealizado = EventKind("CheckoutRealizado", category: category, context: .checkin, label: "Checkout feito")
        public static let noShowRegistrado = EventKind("NoShowRegistrado", category: category, context: .checkin, label: "Ausência registrada")
        public static let revogado = EventKind("CheckinRevogado", category: category, context: .checkin, label: "Check-in cancelado")

        public static let remarcado = EventKind("CheckinRemarcado", category: category, context: .checkin, label: "Check-in remarcado")

        public static let todos = [liberado, realizado, checkoutRealizado, noShowRegistrado, revogado, remarcado]
    }
}
