extension Usuario {
    /// The events of `usuario-…` streams: the one place their stored type strings are written.
    public enum Catalogo: EventCatalog {
        public static let categoria = "usuario"

        public static let registrado = EventKind("UsuarioRegistrado", categoria: categoria, contexto: .usuarios, rotulo: "Conta criada")
        public static let loginRealizado = EventKind("LoginRealizado", categoria: categoria, contexto: .usuarios, rotulo: "Login feito")
        public static let loginFalhou = EventKind("LoginFalhou", categoria: categoria, contexto: .usuarios, rotulo: "Tentativa de login recusada")
        public static let senhaAlterada = EventKind("SenhaAlterada", categoria: categoria, contexto: .usuarios, rotulo: "Senha alterada")
        public static let promovido = EventKind(
            "UsuarioPromovido", categoria: categoria, contexto: .usuarios, rotulo: "Conta promovida a administrador(a)")
        public static let desativado = EventKind("UsuarioDesativado", categoria: categoria, contexto: .usuarios, rotulo: "Conta desativada")
        public static let dadosPessoaisApagados = EventKind(
            "DadosPessoaisApagados", categoria: categoria, contexto: .usuarios, rotulo: "Dados pessoais apagados")
        public static let planoDefinido = EventKind("PlanoDefinido", categoria: categoria, contexto: .usuarios, rotulo: "Plano definido")

        public static let todos = [
            registrado, loginRealizado, loginFalhou, senhaAlterada, promovido, desativado, dadosPessoaisApagados, planoDefinido,
        ]
    }
}
