extension EmailClaim {
    /// The events of `emailclaim-…` streams: the one place their stored type strings are written.
    public enum Catalogo: EventCatalog {
        public static let category = "emailclaim"

        public static let reivindicado = EventKind(
            "EmailReivindicado", category: category, context: .usuarios, label: "E-mail registrado para uma conta")
        public static let liberado = EventKind("EmailLiberado", category: category, context: .usuarios, label: "E-mail liberado")

        public static let todos = [reivindicado, liberado]
    }
}
