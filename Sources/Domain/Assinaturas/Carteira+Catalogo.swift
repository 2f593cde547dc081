import Foundation

extension Carteira {
    /// The events of `creditos-…` streams: the one place their stored type strings are written.
    public enum Catalogo: EventCatalog {
        public static let category = "creditos"

        public static let concedidos = EventKind("CreditosConcedidos", category: category, context: .assinaturas, label: "Créditos concedidos")
        public static let consumidos = EventKind(
            "CreditosConsumidos", version: 2, category: category, context: .assinaturas, label: "Créditos usados numa reserva")
        public static let restituidos = EventKind(
            "CreditosRestituidos", category: category, context: .assinaturas, label: "Créditos devolvidos por uma reserva encerrada")
        public static let expirados = EventKind("CreditosExpirados", category: category, context: .assinaturas, label: "Créditos expirados")
        public static let ajustados = EventKind(
            "CreditosAjustados", version: 2, category: category, context: .assinaturas, label: "Créditos ajustados pela operação")

        public static let usoRemarcado = EventKind(
            "CreditosUsoRemarcado", category: category, context: .assinaturas, label: "Uso dos créditos da empresa passado a outro mês")

        public static let todos = [concedidos, consumidos, restituidos, expirados, ajustados, usoRemarcado]

        /// Version 1 of `consumidos` had no beneficiary: every wallet was one member's, spent by
        /// them. Version 1 of `ajustados` never closed a lot (no refunded bundles).
        public static let upcasts = [
            Upcast(consumidos, from: 1) { objeto in
                if objeto["beneficiario"] == nil { objeto["beneficiario"] = NSNull() }
                if objeto["mes"] == nil { objeto["mes"] = NSNull() }
            },
            Upcast(ajustados, from: 1) { objeto in
                if objeto["encerrado"] == nil { objeto["encerrado"] = NSNull() }
            },
        ]
    }
}
