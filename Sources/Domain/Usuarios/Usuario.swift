public import Foundation

/// An account: registration, role, login attempts (with the brute-force lock), deactivation,
/// password changes and LGPD erasure. Personal fields (name, e-mail) arrive sealed: the domain
/// never sees them in clear and erasure destroys the key, not the events.
extension Usuario {
    public typealias ID = Identifier<Usuario>

    public enum Papel: String, Codable, Sendable, CaseIterable {
        case membro
        case admin
    }

    /// A password as stored: PBKDF2-HMAC-SHA256 output, its salt and round count (base64).
    public struct Senha: Codable, Sendable, Equatable {
        public let hash: String
        public let salt: String
        public let iteracoes: Int

        public init(hash: String, salt: String, iteracoes: Int) {
            self.hash = hash
            self.salt = salt
            self.iteracoes = iteracoes
        }
    }

    /// After this many failed logins within ``janelaDeFalhas`` the account locks for
    /// ``duracaoDoBloqueio``.
    public static let falhasAteBloqueio = 5
    public static let janelaDeFalhas: TimeInterval = 15 * 60
    public static let duracaoDoBloqueio: TimeInterval = 15 * 60

    public enum Command: Sendable, Equatable {
        case registrar(id: ID, nome: String, email: String, senha: Senha, papel: Papel, em: Date)
        /// The caller checked the password (hashing is not the domain's job) and says if it matched.
        case entrar(senhaConfere: Bool, em: Date)
        case trocarSenha(nova: Senha, em: Date)
        case promover(por: String, em: Date)
        case desativar(por: String, em: Date)
        case apagarDadosPessoais(em: Date)
        /// Puts the member on a plan (nil: none); a plan's price rules then apply to their bookings.
        case definirPlano(String?, por: String, em: Date)
    }

    public struct Registrado: Codable, Sendable, Equatable {
        public let usuarioId: ID
        /// Sealed by the vault (`pii:v1:…`): readable only while the account's key exists.
        public let nome: String
        public let email: String
        public let senha: Senha
        public let papel: Papel
        public let em: Date

        public init(usuarioId: ID, nome: String, email: String, senha: Senha, papel: Papel, em: Date) {
            self.usuarioId = usuarioId
            self.nome = nome
            self.email = email
            self.senha = senha
            self.papel = papel
            self.em = em
        }
    }

    public struct LoginRealizado: Codable, Sendable, Equatable {
        public let usuarioId: ID
        public let em: Date

        public init(usuarioId: ID, em: Date) {
            self.usuarioId = usuarioId
            self.em = em
        }
    }

    public struct LoginFalhou: Codable, Sendable, Equatable {
        public let usuarioId: ID
        public let em: Date
        /// Set when this failure locked the account.
        public let bloqueadoAte: Date?

        public init(usuarioId: ID, em: Date, bloqueadoAte: Date?) {
            self.usuarioId = usuarioId
            self.em = em
            self.bloqueadoAte = bloqueadoAte
        }
    }

    public struct SenhaAlterada: Codable, Sendable, Equatable {
        public let usuarioId: ID
        public let senha: Senha
        public let em: Date

        public init(usuarioId: ID, senha: Senha, em: Date) {
            self.usuarioId = usuarioId
            self.senha = senha
            self.em = em
        }
    }

    public struct Promovido: Codable, Sendable, Equatable {
        public let usuarioId: ID
        public let papel: Papel
        public let por: String
        public let em: Date

        public init(usuarioId: ID, papel: Papel, por: String, em: Date) {
            self.usuarioId = usuarioId
            self.papel = papel
            self.por = por
            self.em = em
        }
    }

    public struct Desativado: Codable, Sendable, Equatable {
        public let usuarioId: ID
        public let por: String
        public let em: Date

        public init(usuarioId: ID, por: String, em: Date) {
            self.usuarioId = usuarioId
            self.por = por
            self.em = em
        }
    }

    public struct DadosPessoaisApagados: Codable, Sendable, Equatable {
        public let usuarioId: ID
        public let em: Date

        public init(usuarioId: ID, em: Date) {
            self.usuarioId = usuarioId
            self.em = em
        }
    }

    public struct PlanoDefinido: Codable, Sendable, Equatable {
        public let usuarioId: ID
        /// Nil: the member left their plan.
        public let plano: String?
        public let por: String
        public let em: Date

        public init(usuarioId: ID, plano: String?, por: String, em: Date) {
            self.usuarioId = usuarioId
            self.plano = plano
            self.por = por
            self.em = em
        }
    }

    public enum Event: PayloadEvent, Equatable {
        case registrado(Registrado)
        case loginRealizado(LoginRealizado)
        case loginFalhou(LoginFalhou)
        case senhaAlterada(SenhaAlterada)
        case promovido(Promovido)
        case desativado(Desativado)
        case dadosPessoaisApagados(DadosPessoaisApagados)
        case planoDefinido(PlanoDefinido)

        public var kind: EventKind {
            switch self {
            case .registrado: Catalogo.registrado
            case .loginRealizado: Catalogo.loginRealizado
            case .loginFalhou: Catalogo.loginFalhou
            case .senhaAlterada: Catalogo.senhaAlterada
            case .promovido: Catalogo.promovido
            case .desativado: Catalogo.desativado
            case .dadosPessoaisApagados: Catalogo.dadosPessoaisApagados
            case .planoDefinido: Catalogo.planoDefinido
            }
        }

        public var payload: any Encodable & Sendable {
            switch self {
            case .registrado(let payload): payload
            case .loginRealizado(let payload): payload
            case .loginFalhou(let payload): payload
            case .senhaAlterada(let payload): payload
            case .promovido(let payload): payload
            case .desativado(let payload): payload
            case .dadosPessoaisApagados(let payload): payload
            case .planoDefinido(let payload): payload
            }
        }

        public static let decoders = EventDecoders<Event>([
            .kind(Catalogo.registrado, Registrado.self) { .registrado($0) },
            .kind(Catalogo.loginRealizado, LoginRealizado.self) { .loginRealizado($0) },
            .kind(Catalogo.loginFalhou, LoginFalhou.self) { .loginFalhou($0) },
            .kind(Catalogo.senhaAlterada, SenhaAlterada.self) { .senhaAlterada($0) },
            .kind(Catalogo.promovido, Promovido.self) { .promovido($0) },
            .kind(Catalogo.desativado, Desativado.self) { .desativado($0) },
            .kind(Catalogo.dadosPessoaisApagados, DadosPessoaisApagados.self) { .dadosPessoaisApagados($0) },
            .kind(Catalogo.planoDefinido, PlanoDefinido.self) { .planoDefinido($0) },
        ])
    }

    public struct Conta: Sendable, Equatable {
        public var id: ID
        public var nome: String
        public var email: String
        public var senha: Senha
        public var papel: Papel
        public var ativo: Bool
        public var registradoEm: Date
        /// Failed logins not yet cleared by a success, newest last.
        public var falhas: [Date]
        public var bloqueadoAte: Date?
        /// The last password change: tokens issued before it no longer count.
        public var senhaAlteradaEm: Date?
        /// The member's plan, whose price rules apply to their bookings (nil: none).
        public var plano: String?
    }

    /// A plan's name: trimmed, 1 to 100 characters (as a plan price rule names it).
    public static func planoValido(_ plano: String?) -> String?? {
        guard let plano else { return .some(nil) }
        let nome = plano.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !nome.isEmpty, TextoLivre.cabe(plano, maximo: 100) else { return nil }
        return .some(nome)
    }

    public enum State: Sendable, Equatable {
        case inexistente
        case existente(Conta)
        /// Personal data erased: the account is gone for good.
        case apagado(ID)
    }

    public enum Failure: Error, Equatable, Sendable {
        case jaRegistrado
        case naoEncontrado
        case contaDesativada
        case contaBloqueada(ate: Date)
        case jaEhAdmin
        case jaDesativado
        case planoInvalido
    }

    public static let decider = Decider<Command, State, Event, Failure>(
        initialState: .inexistente,
        decide: { command, state throws(Failure) in
            switch (command, state) {
            case (.registrar(let id, let nome, let email, let senha, let papel, let em), .inexistente):
                return [.registrado(Registrado(usuarioId: id, nome: nome, email: email, senha: senha, papel: papel, em: em))]
            case (.registrar, _):
                throw .jaRegistrado
            case (_, .inexistente), (_, .apagado):
                throw .naoEncontrado
            case (.entrar(let confere, let em), .existente(let conta)):
                if let ate = conta.bloqueadoAte, ate > em { throw .contaBloqueada(ate: ate) }
                if confere {
                    guard conta.ativo else { throw .contaDesativada }
                    return [.loginRealizado(LoginRealizado(usuarioId: conta.id, em: em))]
                }
                // A wrong guess counts towards the lock on a deactivated account too: otherwise
                // its password could be guessed without limit.
                let recentes = conta.falhas.filter { em.timeIntervalSince($0) < janelaDeFalhas } + [em]
                let bloqueio = recentes.count >= falhasAteBloqueio ? em.addingTimeInterval(duracaoDoBloqueio) : nil
                return [.loginFalhou(LoginFalhou(usuarioId: conta.id, em: em, bloqueadoAte: bloqueio))]
            case (.trocarSenha(let nova, let em), .existente(let conta)):
                guard conta.ativo else { throw .contaDesativada }
                return [.senhaAlterada(SenhaAlterada(usuarioId: conta.id, senha: nova, em: em))]
            case (.promover(let por, let em), .existente(let conta)):
                guard conta.ativo else { throw .contaDesativada }
                guard conta.papel != .admin else { throw .jaEhAdmin }
                return [.promovido(Promovido(usuarioId: conta.id, papel: .admin, por: por, em: em))]
            case (.desativar(let por, let em), .existente(let conta)):
                guard conta.ativo else { throw .jaDesativado }
                return [.desativado(Desativado(usuarioId: conta.id, por: por, em: em))]
            case (.apagarDadosPessoais(let em), .existente(let conta)):
                return [.dadosPessoaisApagados(DadosPessoaisApagados(usuarioId: conta.id, em: em))]
            case (.definirPlano(let plano, let por, let em), .existente(let conta)):
                guard conta.ativo else { throw .contaDesativada }
                guard let valido = planoValido(plano) else { throw .planoInvalido }
                guard valido != conta.plano else { return [] }
                return [.planoDefinido(PlanoDefinido(usuarioId: conta.id, plano: valido, por: por, em: em))]
            }
        },
        evolve: { state, event in
            switch (state, event) {
            case (_, .registrado(let e)):
                return .existente(
                    Conta(
                        id: e.usuarioId, nome: e.nome, email: e.email, senha: e.senha, papel: e.papel, ativo: true,
                        registradoEm: e.em, falhas: [], bloqueadoAte: nil))
            case (.existente(var conta), .loginRealizado):
                conta.falhas = []
                conta.bloqueadoAte = nil
                return .existente(conta)
            case (.existente(var conta), .loginFalhou(let e)):
                // A lock starts a fresh count once it ends.
                conta.falhas = e.bloqueadoAte == nil ? conta.falhas.filter { e.em.timeIntervalSince($0) < janelaDeFalhas } + [e.em] : []
                if let ate = e.bloqueadoAte { conta.bloqueadoAte = ate }
                return .existente(conta)
            case (.existente(var conta), .senhaAlterada(let e)):
                conta.senha = e.senha
                conta.senhaAlteradaEm = e.em
                return .existente(conta)
            case (.existente(var conta), .promovido(let e)):
                conta.papel = e.papel
                return .existente(conta)
            case (.existente(var conta), .desativado):
                conta.ativo = false
                return .existente(conta)
            case (.existente(let conta), .dadosPessoaisApagados):
                return .apagado(conta.id)
            case (.existente(var conta), .planoDefinido(let e)):
                conta.plano = e.plano
                return .existente(conta)
            default:
                return state
            }
        },
        isTerminal: { state in
            if case .apagado = state { return true }
            return false
        }
    )
}
