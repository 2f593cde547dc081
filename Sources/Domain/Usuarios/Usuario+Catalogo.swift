extension Usuario {
    /// The events of `usuario-…` streams: the one place their stored type strings are written.
    public enum Catalogo: EventCatalog {
        public static let category = "usuario"

        public static let registrado = EventKind("UsuarioRegistrado", category: category, context: .usuarios, label: "Conta criada")
        public static let loginRealizado = EventKind("LoginRealizado", category: category, context: .usuarios, label: "Login feito")
        public static let loginFalhou = EventKind("LoginFalhou", category: category, context: .usuarios, label: "Tentativa de login recusada")
        public static let senhaAlterada = EventKind("SenhaAlterada", category: category, context: .usuarios, label: "Senha alterada")
        public static let promovido = EventKind(
            "UsuarioPromovido", category: category, context: .usuarios, label: "Conta promovida a administrador(a)")
        public static let desativado = EventKind("UsuarioDesativado", category: category, context: .usuarios, label: "Conta desativada")
        public static let dadosPessoaisApagados = EventKind(
            "DadosPessoaisApagados", category: category, context: .usuarios, label: "Dados pessoais apagados")
        public static let planoDefinido = EventKind("PlanoDefinido", category: category, context: .usuarios, label: "Plano definido")

        public static let todos = [
            registrado, loginRealizado, loginFalhou, senhaAlterada, promovido, desativado, dadosPessoaisApagados, planoDefinido,
        ]
    }
}
