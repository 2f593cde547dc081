extension Unidade {
    /// The events of `unidade-…` streams: the one place their stored type strings are written.
    public enum Catalogo: EventCatalog {
        public static let category = "unidade"

        public static let cadastrada = EventKind(
            "UnidadeCadastrada", version: 2, category: category, context: .espacos, label: "Unidade cadastrada")
        public static let atualizada = EventKind(
            "UnidadeAtualizada", version: 2, category: category, context: .espacos, label: "Unidade atualizada")

        public static let todos = [cadastrada, atualizada]

        /// Version 1 had no `operacao` (ISS rate, check-in window): every unit then worked with
        /// the defaults, which version 2 writes out.
        public static let upcasts = [cadastrada, atualizada].map { kind in
            Upcast(kind, from: 1) { objeto in
                if objeto["operacao"] == nil { objeto["operacao"] = operacaoPadrao }
            }
        }

        /// ``Operacao/padrao`` as stored JSON.
        private static var operacaoPadrao: [String: Any] {
            [
                "aliquotaISSBP": Operacao.padrao.aliquotaISSBP,
                "janelaDeCheckin": [
                    "antesMinutos": Operacao.padrao.janelaDeCheckin.antesMinutos,
                    "depoisMinutos": Operacao.padrao.janelaDeCheckin.depoisMinutos,
                ],
            ]
        }
    }
}
