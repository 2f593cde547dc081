public import Domain
import EventStore
import Foundation
import Projections

extension UsuariosService {
    // MARK: Commands

    /// Creates an account. 409 `email_em_uso` when the address has an account already.
    public func registrar(
        nome: String, email: String, senha: String, papel: Usuario.Papel = .membro, context: Caller
    ) async throws -> Perfil {
        let nome = try Self.validNome(nome)
        let email = try Self.validEmail(email)
        try Self.validSenha(senha)
        let id = Usuario.ID(EventIDs.random())
        let claimStream = claimStream(email)
        // An address already taken is refused before the password is hashed (~0.15 s of CPU a
        // try, which a loop of registrations with a known address would otherwise buy for
        // nothing) and before a key is made for an id that will never be used.
        var loaded: (state: EmailClaim.State, version: Int64)? = try await claims.load(claimStream)
        if let loaded, (try? EmailClaim.decider.decide(.reivindicar(usuario: id), loaded.state)) == nil {
            throw ServiceError.conflito("email_em_uso", "já existe uma conta com este e-mail")
        }
        let hash = try await passwords.hash(senha)
        let sealedNome = try await vault.seal(nome, for: id.rawValue)
        let sealedEmail = try await vault.seal(email, for: id.rawValue)
        let now = clock.now
        let meta = metadata(context, actor: id.description)
        for attempt in 1...5 {
            let claim: (state: EmailClaim.State, version: Int64)
            if let first = loaded { claim = first } else { claim = try await claims.load(claimStream) }
            loaded = nil
            let claimed: [EmailClaim.Event]
            do {
                claimed = try EmailClaim.decider.decide(.reivindicar(usuario: id), claim.state)
            } catch {
                throw ServiceError.conflito("email_em_uso", "já existe uma conta com este e-mail")
            }
            let registered: [Usuario.Event]
            do {
                registered = try Usuario.decider.decide(
                    .registrar(id: id, nome: sealedNome.rawValue, email: sealedEmail.rawValue, senha: hash, papel: papel, em: now),
                    .inexistente)
            } catch {
                throw ServiceError.conflito("ja_registrado", "conta já registrada")
            }
            do {
                try await store.append(
                    [
                        StreamWrite(stream: claimStream, expected: .after(claim.version), events: try Events.new(claimed, at: now, metadata: meta)),
                        StreamWrite(stream: Self.stream(id), expected: .noStream, events: try Events.new(registered, at: now, metadata: meta)),
                    ], receipt: context.receipt)
                return Perfil(id: id.description, nome: nome, email: email, papel: papel.rawValue, ativo: true, registradoEm: now)
            } catch is WrongExpectedVersion where attempt < 5 {
                continue  // someone claimed or released the address meanwhile: decide again
            }
        }
        throw ServiceError.conflito("email_em_uso", "o e-mail está sendo registrado por outra requisição; tente de novo")
    }

    /// Checks the password and returns a token. Wrong e-mail or password: 401 (the same answer
    /// for both); a locked account: 423 with Retry-After; a deactivated one: 403.
    public func entrar(email: String, senha: String, context: Caller) async throws -> Sessao {
        let invalid = ServiceError(.naoAutenticado, codigo: "credenciais_invalidas", mensagem: "e-mail ou senha inválidos")
        let email = EmailClaim.normalise(email)
        guard case .reivindicado(let id) = try await claims.load(claimStream(email)).state else {
            // Spend the same time as a real check, so timing does not reveal which addresses exist.
            _ = try? await passwords.verify(senha, against: Self.decoy)
            throw invalid
        }
        var checked: (hash: Usuario.Senha, matches: Bool)?
        for attempt in 1...5 {
            let (state, version) = try await usuarios.load(Self.stream(id))
            guard case .existente(let conta) = state else { throw invalid }
            let now = clock.now
            if let until = conta.bloqueadoAte, until > now { throw Self.locked(until: until, now: now) }
            let matches = try await confere(senha, conta.senha, &checked)
            let events: [Usuario.Event]
            do {
                events = try Usuario.decider.decide(.entrar(senhaConfere: matches, em: now), state)
            } catch .contaBloqueada(let until) {
                throw Self.locked(until: until, now: now)
            } catch .contaDesativada {
                // Only someone who knows the password learns that the account is deactivated
                // (a wrong guess is a failed login, counted towards the lock, as on any account).
                throw ServiceError.proibido("esta conta foi desativada")
            } catch {
                throw invalid
            }
            do {
                try await store.append(
                    to: Self.stream(id), expected: .after(version),
                    events: try Events.new(events, at: now, metadata: metadata(context, actor: id.description)), receipt: context.receipt)
            } catch is WrongExpectedVersion where attempt < 5 {
                continue
            }
            switch events.first {
            case .loginRealizado:
                // Never before the last password change (recorded at the next whole second).
                let emitido = max(now, conta.senhaAlteradaEm ?? now)
                let (token, expiry) = try await tokens.issue(usuario: id.description, papel: conta.papel.rawValue, now: emitido)
                return Sessao(token: token, expiraEm: expiry, usuario: try await perfil(of: conta))
            case .loginFalhou(let failure):
                if let until = failure.bloqueadoAte { throw Self.locked(until: until, now: now) }
                throw invalid
            default:
                throw invalid
            }
        }
        throw ServiceError.indisponivel("muitas tentativas simultâneas; tente de novo")
    }

    /// Whether `senha` matches `hash`, checked once per stored hash across a command's retries
    /// (a retry after a concurrent write to the account does not spend 600,000 rounds again).
    private func confere(_ senha: String, _ hash: Usuario.Senha, _ checked: inout (hash: Usuario.Senha, matches: Bool)?) async throws -> Bool {
        if let checked, checked.hash == hash { return checked.matches }
        let matches = try await passwords.verify(senha, against: hash)
        checked = (hash, matches)
        return matches
    }

    /// Changes the password after checking the current one, and ends every session: the tokens
    /// issued before the change stop working (``papelAtual(usuario:emitidoEm:)``). The answer is
    /// a new session for the device that made the change.
    public func trocarSenha(usuario: String, atual: String, nova: String, context: Caller) async throws -> Sessao {
        try Self.validSenha(nova, campo: "novaSenha")
        guard nova != atual else { throw ServiceError.invalido("novaSenha", "a nova senha deve ser diferente da atual") }
        guard let id = Usuario.ID(usuario) else { throw ServiceError.naoAutenticado }
        // A wrong current password counts as a failed login (recorded, and toward the lock): a
        // stolen session must not become a way to guess the password without limit. Every wrong
        // guess is recorded, also among concurrent ones (a conflict reads the account again;
        // the hashes are computed once).
        var checked: (hash: Usuario.Senha, matches: Bool)?
        var novo: Usuario.Senha?
        for _ in 1...10 {
            let (state, version) = try await usuarios.load(Self.stream(id))
            guard case .existente(let conta) = state else { throw ServiceError.naoEncontrado("conta não encontrada") }
            let now = clock.now
            if let until = conta.bloqueadoAte, until > now { throw Self.locked(until: until, now: now) }
            let matches = try await confere(atual, conta.senha, &checked)
            let events: [Usuario.Event]
            if matches {
                let hash: Usuario.Senha
                if let novo { hash = novo } else { hash = try await passwords.hash(nova) }
                novo = hash
                do {
                    events = try Usuario.decider.decide(.trocarSenha(nova: hash, em: Self.sessoesAte(now)), state)
                } catch {
                    throw ServiceError.proibido("esta conta foi desativada")
                }
            } else {
                guard let failed = try? Usuario.decider.decide(.entrar(senhaConfere: false, em: now), state) else {
                    throw ServiceError(.proibido, codigo: "senha_incorreta", mensagem: "a senha atual não confere")
                }
                events = failed
            }
            do {
                try await store.append(
                    to: Self.stream(id), expected: .after(version),
                    events: try Events.new(events, at: now, metadata: metadata(context, actor: usuario)), receipt: context.receipt)
            } catch is WrongExpectedVersion {
                continue
            }
            guard matches else {
                if case .loginFalhou(let failure)? = events.first, let until = failure.bloqueadoAte { throw Self.locked(until: until, now: now) }
                throw ServiceError(.proibido, codigo: "senha_incorreta", mensagem: "a senha atual não confere")
            }
            // Issued at the change's instant, the first one the change lets through.
            let (token, expiry) = try await tokens.issue(usuario: id.description, papel: conta.papel.rawValue, now: Self.sessoesAte(now))
            return Sessao(token: token, expiraEm: expiry, usuario: try await perfil(of: conta))
        }
        throw ServiceError.indisponivel("muitas alterações simultâneas nesta conta; tente de novo")
    }

    /// The instant a password change made at `now` is recorded with: the next whole second.
    /// Events keep whole seconds (``Instants``), and a token issued earlier in the same second
    /// as the change must not outlive it; tokens issued with or after the change carry this
    /// instant or a later one.
    static func sessoesAte(_ now: Date) -> Date {
        Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down) + 1)
    }

    /// Makes an account an admin. 409 when it is one already.
    public func promover(usuario: String, context: Caller) async throws {
        guard let id = Usuario.ID(usuario) else { throw ServiceError.naoEncontrado("conta não encontrada") }
        let (state, version) = try await usuarios.load(Self.stream(id))
        let now = clock.now
        let events: [Usuario.Event]
        do {
            events = try Usuario.decider.decide(.promover(por: context.usuario ?? "sistema", em: now), state)
        } catch .jaEhAdmin {
            throw ServiceError.conflito("ja_eh_admin", "esta conta já é de administrador")
        } catch .naoEncontrado {
            throw ServiceError.naoEncontrado("conta não encontrada")
        } catch {
            // The account's state, not the caller's rights, is what stands in the way.
            throw ServiceError.conflito("conta_desativada", "esta conta foi desativada; uma conta desativada não pode ser promovida")
        }
        try await store.append(
            to: Self.stream(id), expected: .after(version), events: try Events.new(events, at: now, metadata: metadata(context, actor: "sistema")),
            receipt: context.receipt)
    }

    /// Puts a member on a plan (nil: takes them off it): the plan's price rules then apply to
    /// their quotes and bookings. Setting the plan they have is harmless.
    public func definirPlano(usuario: String, plano: String?, context: Caller) async throws -> Perfil {
        guard let id = Usuario.ID(usuario) else { throw ServiceError.naoEncontrado("conta não encontrada") }
        let now = clock.now
        let state = try await usuarios.handle(
            Self.stream(id), at: now, metadata: metadata(context, actor: "sistema"), receipt: context.receipt,
            failure: { failure in
                switch failure {
                case .planoInvalido: ServiceError.invalido("plano", "o nome do plano deve ter de 1 a 100 caracteres (ou null, para tirar o plano)")
                case .contaDesativada: ServiceError.conflito("conta_desativada", "esta conta foi desativada")
                default: ServiceError.naoEncontrado("conta não encontrada")
                }
            }
        ) { _ in .definirPlano(plano, por: context.usuario ?? "sistema", em: now) }
        guard case .existente(let conta) = state else { throw ServiceError.naoEncontrado("conta não encontrada") }
        return try await perfil(of: conta)
    }

    /// Deactivates an account: it can no longer log in. 409 when it is already inactive.
    public func desativar(usuario: String, context: Caller) async throws {
        guard let id = Usuario.ID(usuario) else { throw ServiceError.naoEncontrado("conta não encontrada") }
        let (state, version) = try await usuarios.load(Self.stream(id))
        try await mantemUmAdmin(state, "desativar")
        let now = clock.now
        let events: [Usuario.Event]
        do {
            events = try Usuario.decider.decide(.desativar(por: context.usuario ?? "sistema", em: now), state)
        } catch .jaDesativado {
            throw ServiceError.conflito("ja_desativado", "esta conta já está desativada")
        } catch {
            throw ServiceError.naoEncontrado("conta não encontrada")
        }
        try await store.append(
            to: Self.stream(id), expected: .after(version), events: try Events.new(events, at: now, metadata: metadata(context, actor: "sistema")),
            receipt: context.receipt)
    }

    /// 409 when `state` is the only active admin: deactivating or erasing it would leave nobody
    /// to run the operation (only `coworkflow admin create` on a server could recover). The
    /// accounts list names the other admins; each one's own stream says whether it still is
    /// one, since the list lags (an admin deactivated a moment ago still shows as active there).
    /// Two admins removing each other at the same instant could still both pass.
    func mantemUmAdmin(_ state: Usuario.State, _ acao: String) async throws {
        guard case .existente(let conta) = state, conta.papel == .admin, conta.ativo else { return }
        let pagina = 500
        var offset = 0
        while true {
            let contas = try await store.documents(UsuariosReadModel.contas, grupo: nil, limit: pagina, offset: offset)
                .map { try ReadModelJSON.decoder.decode(ContaView.self, from: $0) }
            for outra in contas where outra.papel == Usuario.Papel.admin.rawValue && outra.ativo && outra.id != conta.id.description {
                guard let id = Usuario.ID(outra.id), case .existente(let atual) = try await usuarios.load(Self.stream(id)).state else { continue }
                if atual.papel == .admin, atual.ativo { return }
            }
            guard contas.count == pagina else { break }
            offset += pagina
        }
        throw ServiceError.conflito(
            "ultimo_admin", "não é possível \(acao) a única conta de administrador ativa; promova outra conta antes")
    }
}
