import Foundation

extension Assinatura {
    /// The events of `assinatura-…` streams: the one place their stored type strings are written.
    public enum Catalogo: EventCatalog {
        public static let category = "assinatura"

        public static let iniciada = EventKind(
            "AssinaturaIniciada", version: 2, category: category, context: .assinaturas, label: "Assinatura contratada")
        public static let cicloIniciado = EventKind("CicloIniciado", category: category, context: .assinaturas, label: "Ciclo de assinatura iniciado")
        public static let alteracaoAgendada = EventKind(
            "AlteracaoAgendada", category: category, context: .assinaturas, label: "Alteração de assinatura agendada para o fim do ciclo")
        public static let alteracaoDesfeita = EventKind(
            "AlteracaoDesfeita", category: category, context: .assinaturas, label: "Alteração de assinatura desfeita")
        public static let planoTrocado = EventKind("PlanoTrocado", category: category, context: .assinaturas, label: "Plano trocado no meio do ciclo")
        public static let pausada = EventKind("AssinaturaPausada", category: category, context: .assinaturas, label: "Assinatura pausada")
        public static let retomada = EventKind("AssinaturaRetomada", category: category, context: .assinaturas, label: "Assinatura retomada")
        public static let encerrada = EventKind("AssinaturaEncerrada", category: category, context: .assinaturas, label: "Assinatura encerrada")
        public static let cobrancaConfirmada = EventKind(
            "CobrancaDeCicloConfirmada", version: 2, category: category, context: .assinaturas, label: "Cobrança de ciclo paga")
        public static let cobrancaRecusada = EventKind(
            "CobrancaDeCicloRecusada", category: category, context: .assinaturas, label: "Cobrança de ciclo recusada")
        public static let suspensa = EventKind(
            "AssinaturaSuspensa", category: category, context: .assinaturas, label: "Assinatura suspensa por falta de pagamento")
        public static let reativada = EventKind(
            "AssinaturaReativada", category: category, context: .assinaturas, label: "Assinatura reativada após pagamento")

        public static let cobrancaEmitida = EventKind(
            "CobrancaDeCicloEmitida", category: category, context: .assinaturas, label: "Cobrança de ciclo emitida no provedor")
        public static let cobrancaReapresentada = EventKind(
            "CobrancaDeCicloReapresentada", category: category, context: .assinaturas, label: "Nova tentativa de cobrança de ciclo")
        public static let cobrancaAlterada = EventKind(
            "FormaDeCobrancaAlterada", category: category, context: .assinaturas, label: "Forma de pagamento da assinatura alterada")
        public static let duplicadoDevolvido = EventKind(
            "PagamentoDeCicloDuplicadoDevolvido", category: category, context: .assinaturas,
            label: "Pagamento de ciclo em duplicidade devolvido")
        public static let devolucaoConcluida = EventKind(
            "DevolucaoDeCicloConcluida", category: category, context: .assinaturas,
            label: "Devolução de pagamento de ciclo paga pelo provedor")

        public static let todos = [
            iniciada, cicloIniciado, alteracaoAgendada, alteracaoDesfeita, planoTrocado, pausada, retomada, encerrada, cobrancaConfirmada,
            cobrancaRecusada, suspensa, reativada, cobrancaEmitida, cobrancaReapresentada, cobrancaAlterada,
            duplicadoDevolvido, devolucaoConcluida,
        ]

        /// Version 1 did not say which charge was paid; it reads as recorded by an operator
        /// (`cobrancaId` null), so its invoice says `manual`. (Version 1 lived for one day
        /// before any deployment.)
        public static let upcasts = [
            Upcast(cobrancaConfirmada, from: 1) { objeto in
                if objeto["cobrancaId"] == nil { objeto["cobrancaId"] = NSNull() }
            },
            // Version 1 had no seats: every subscription was one member's.
            Upcast(iniciada, from: 1) { objeto in
                if objeto["assentos"] == nil { objeto["assentos"] = 1 }
            },
        ]
    }
}
