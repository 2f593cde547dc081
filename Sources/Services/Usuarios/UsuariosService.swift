public import Crypto
public import Domain
public import EventStore
public import Foundation

/// The usuarios service: registration, login (with the brute-force lock), profile and password
/// change. E-mail uniqueness is the claim stream's (`emailclaim-<keyed hash>`), decided and
/// appended atomically with the account's first event; never a read-model check.
public final class UsuariosService: Sendable {
    public struct Perfil: Codable, Sendable, Equatable {
        public let id: String
        public let nome: String
        public let email: String
        public let papel: String
        public let ativo: Bool
        public let registradoEm: Date
        /// The member's plan (its price rules apply to their bookings); absent: none.
        public var plano: String? = nil
    }

    public struct Sessao: Codable, Sendable {
        public let token: String
        public let expiraEm: Date
        public let usuario: Perfil
    }

    let store: any ServiceStore & EventFeed & RequestKeys
    let vault: PersonalDataVault
    /// The vault other services of the process seal personal fields with (invitations' e-mails).
    public var cofre: PersonalDataVault { vault }
    let passwords: PasswordHasher
    public let tokens: TokenIssuer
    let clock: any WallClock
    /// Keys the e-mail hash in claim stream names, so a name does not reveal its address.
    let emailKey: SymmetricKey
    /// Accounts as last folded: checking a token's account reads only what is new.
    let contas = StateCache()

    public init(
        store: any ServiceStore & EventFeed & RequestKeys, vault: PersonalDataVault, passwords: PasswordHasher, tokens: TokenIssuer,
        clock: any WallClock, emailKey: SymmetricKey
    ) {
        self.store = store
        self.vault = vault
        self.passwords = passwords
        self.tokens = tokens
        self.clock = clock
        self.emailKey = emailKey
    }

    static let service = "usuarios"

    // MARK: Streams

    static func stream(_ id: Usuario.ID) -> StreamName { StreamName(category: "usuario", id: id.description) }

    func claimStream(_ normalisedEmail: String) -> StreamName {
        let mac = HMAC<SHA256>.authenticationCode(for: Data(normalisedEmail.utf8), using: emailKey)
        return StreamName(category: "emailclaim", id: mac.map { String(format: "%02x", $0) }.joined())
    }

    var usuarios: AggregateStore<Usuario.Command, Usuario.State, Usuario.Event, Usuario.Failure> {
        // Cached: the state holds personal fields sealed, and erasing deletes the key that opens
        // them, so a cached state reads them as erased too.
        AggregateStore(store: store, decider: Usuario.decider, cache: contas) { recorded in
            try Usuario.Event.decode(type: recorded.type, data: recorded.data, using: EventJSON.decoder)
        }
    }

    var claims: AggregateStore<EmailClaim.Command, EmailClaim.State, EmailClaim.Event, EmailClaim.Failure> {
        AggregateStore(store: store, decider: EmailClaim.decider) { recorded in
            try recorded.decode(EmailClaim.Event.self)
        }
    }

    func metadata(_ context: Caller, actor: String?) -> EventMetadata {
        EventMetadata(actor: context.usuario ?? actor, requestId: context.requestId, service: Self.service)
    }

    // MARK: Validation

    static func validNome(_ nome: String) throws(ServiceError) -> String {
        let trimmed = nome.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .invalido("nome", "o nome não pode ficar em branco") }
        if let problema = TextoLivre.problema(nome, maximo: 200) {
            throw .invalido("nome", TextoLivre.mensagem(problema, campo: "nome", maximo: 200))
        }
        // Control characters (a NUL, a line break) would end up in e-mail headers.
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .invalido("nome", "o nome tem caracteres de controle")
        }
        return trimmed
    }

    static func validEmail(_ email: String) throws(ServiceError) -> String {
        // What the mailer can deliver to (``EmailClaim/enderecoValido(_:)``): ASCII, a dot-atom
        // and a host name, no quoted or bracketed forms.
        guard EmailClaim.enderecoValido(email) else {
            let mensagem =
                email.unicodeScalars.allSatisfy(\.isASCII)
                ? "'\(email.prefix(80))' não é um endereço de e-mail válido"
                : "'\(email.prefix(80))' não é um endereço de e-mail que possamos usar: use só letras sem acento, números e . _ + -"
            throw .invalido("email", mensagem)
        }
        return EmailClaim.normalise(email)
    }

    static func validSenha(_ senha: String, campo: String = "senha") throws(ServiceError) {
        guard senha.count >= 8 else { throw .invalido(campo, "a senha precisa de pelo menos 8 caracteres") }
        guard senha.utf8.count <= 4_096 else { throw .invalido(campo, "a senha tem mais de 4096 bytes") }
        guard senha.contains(where: { !$0.isWhitespace }) else { throw .invalido(campo, "a senha não pode ser só de espaços") }
    }

    // MARK: Helpers

    static func locked(until: Date, now: Date) -> ServiceError {
        let seconds = max(1, Int(until.timeIntervalSince(now).rounded(.up)))
        return ServiceError(
            .bloqueado, codigo: "conta_bloqueada",
            mensagem: "muitas tentativas de login falharam; tente de novo em \(seconds) s",
            detalhes: ["bloqueadaAte": until.formatted(.iso8601)], retryAfter: seconds)
    }

    /// A password record nobody has: verified against when the e-mail is unknown.
    static let decoy = Usuario.Senha(
        hash: Data(repeating: 0, count: 32).base64EncodedString(), salt: Data(repeating: 1, count: 16).base64EncodedString(),
        iteracoes: PasswordHasher.minimumRounds)
}
