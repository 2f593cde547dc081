extension Empresa {
    /// The events of `empresa-…` streams: the one place their stored type strings are written.
    public enum Catalogo: EventCatalog {
        public static let category = "empresa"

        public static let cadastrada = EventKind("EmpresaCadastrada", category: category, context: .assinaturas, label: "Empresa cadastrada")
        public static let atualizada = EventKind(
            "EmpresaAtualizada", category: category, context: .assinaturas, label: "Cadastro da empresa atualizado")
        public static let conviteEnviado = EventKind(
            "ConviteEnviado", category: category, context: .assinaturas, label: "Convite para a empresa enviado")
        public static let conviteRevogado = EventKind(
            "ConviteRevogado", category: category, context: .assinaturas, label: "Convite para a empresa revogado")
        public static let conviteAceito = EventKind(
            "ConviteAceito", category: category, context: .assinaturas, label: "Convite para a empresa aceito")
        public static let papelDefinido = EventKind(
            "PapelNaEmpresaDefinido", category: category, context: .assinaturas, label: "Papel na empresa alterado")
        public static let removido = EventKind("IntegranteRemovido", category: category, context: .assinaturas, label: "Pessoa saiu da empresa")

        public static let limiteDefinido = EventKind(
            "LimiteMensalDefinido", category: category, context: .assinaturas, label: "Limite mensal nos créditos da empresa definido")

        public static let todos = [cadastrada, atualizada, conviteEnviado, conviteRevogado, conviteAceito, papelDefinido, removido, limiteDefinido]
    }
}

extension Vinculo {
    /// The events of `vinculo-…` streams.
    public enum Catalogo: EventCatalog {
        public static let category = "vinculo"

        public static let criado = EventKind("VinculoComEmpresaCriado", category: category, context: .assinaturas, label: "Entrou numa empresa")
        public static let encerrado = EventKind("VinculoComEmpresaEncerrado", category: category, context: .assinaturas, label: "Saiu da empresa")

        public static let todos = [criado, encerrado]
    }
}
