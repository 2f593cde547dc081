extension EmailClaim {
    /// The events of `emailclaim-…` streams: the one place their stored type strings are written.
    public enum Catalogo: EventCatalog {
        public static let categoria = "emailclaim"

        public static let reivindicado = EventKind(
            "EmailReivindicado", categoria: categoria, contexto: .usuarios, rotulo: "E-mail registrado para uma conta")
        public static let liberado = EventKind("EmailLiberado", categoria: categoria, contexto: .usuarios, rotulo: "E-mail liberado")

        public static let todos = [reivindicado, liberado]
    }
}
