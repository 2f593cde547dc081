public import Crypto
public import Domain
public import EventStore
public import Foundation
import Projections

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

    private var usuarios: AggregateStore<Usuario.Command, Usuario.State, Usuario.Event, Usuario.Failure> {
        // Cached: the state holds personal fields sealed, and erasing deletes the key that opens
        // them, so a cached state reads them as erased too.
        AggregateStore(store: store, decider: Usuario.decider, cache: contas) { recorded in
            try Usuario.Event.decode(type: recorded.type, data: recorded.data, using: EventJSON.decoder)
        }
    }

    private var claims: AggregateStore<EmailClaim.Command, EmailClaim.State, EmailClaim.Event, EmailClaim.Failure> {
        AggregateStore(store: store, decider: EmailClaim.decider) { recorded in
            try recorded.decode(EmailClaim.Event.self)
        }
    }

    private func metadata(_ context: Caller, actor: String?) -> EventMetadata {
        EventMetadata(actor: context.usuario ?? actor, requestId: context.requestId, service: Self.service)
    }

    // MARK: Validation

    static func validNome(_ nome: String) throws(ServiceError) -> String {
        let trimmed = nome.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .invalido("nome", "o nome não pode ficar em branco") }
        if let problema = TextoLivre.problema(trimmed, maximo: 200) { throw .invalido("nome", TextoLivre.mensagem(problema, campo: "nome", maximo: 200)) }
        // Control characters (a NUL, a line break) would end up in e-mail headers.
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .invalido("nome", "o nome tem caracteres de controle")
        }
        return trimmed
    }

    static func validEmail(_ email: String) throws(ServiceError) -> String {
        let normalised = EmailClaim.normalise(email)
        let parts = normalised.split(separator: "@", omittingEmptySubsequences: false)
        guard normalised.count <= 254, parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
            !parts[1].hasPrefix("."), !parts[1].hasSuffix("."), !normalised.contains(where: \.isWhitespace)
        else { throw .invalido("email", "'\(email.prefix(80))' não é um endereço de e-mail válido") }
        // What the mailer can deliver to: ASCII, no quoted or bracketed forms.
        guard EmailAddress.isValid(normalised) else {
            throw .invalido("email", "'\(email.prefix(80))' não é um endereço de e-mail que possamos usar: use só letras sem acento, números e . _ + -")
        }
        return normalised
    }

    static func validSenha(_ senha: String, campo: String = "senha") throws(ServiceError) {
        guard senha.count >= 8 else { throw .invalido(campo, "a senha precisa de pelo menos 8 caracteres") }
        guard senha.utf8.count <= 4_096 else { throw .invalido(campo, "a senha tem mais de 4096 bytes") }
        guard senha.contains(where: { !$0.isWhitespace }) else { throw .invalido(campo, "a senha não pode ser só de espaços") }
    }

    // MARK: Commands

    /// Creates an account. 409 `email_em_uso` when the address has an account already.
    public func registrar(
        nome: String, email: String, senha: String, papel: Usuario.Papel = .membro, context: Caller
    ) async throws -> Perfil {
        let nome = try Self.validNome(nome)
        let email = try Self.validEmail(email)
        try Self.validSenha(senha)
        let id = Usuario.ID(UUID())
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
                try await store.append([
                    StreamWrite(stream: claimStream, expected: .after(claim.version), events: try Events.new(claimed, at: now, metadata: meta)),
                    StreamWrite(stream: Self.stream(id), expected: .noStream, events: try Events.new(registered, at: now, metadata: meta)),
                ])
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
                try await store.append(to: Self.stream(id), expected: .after(version), events: try Events.new(events, at: now, metadata: metadata(context, actor: id.description)))
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
                try await store.append(to: Self.stream(id), expected: .after(version), events: try Events.new(events, at: now, metadata: metadata(context, actor: usuario)))
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
        try await store.append(to: Self.stream(id), expected: .after(version), events: try Events.new(events, at: now, metadata: metadata(context, actor: "sistema")))
    }

    /// Puts a member on a plan (nil: takes them off it): the plan's price rules then apply to
    /// their quotes and bookings. Setting the plan they have is harmless.
    public func definirPlano(usuario: String, plano: String?, context: Caller) async throws -> Perfil {
        guard let id = Usuario.ID(usuario) else { throw ServiceError.naoEncontrado("conta não encontrada") }
        let now = clock.now
        let state = try await usuarios.handle(Self.stream(id), at: now, metadata: metadata(context, actor: "sistema"), failure: { failure in
            switch failure {
            case .planoInvalido: ServiceError.invalido("plano", "o nome do plano deve ter de 1 a 100 caracteres (ou null, para tirar o plano)")
            case .contaDesativada: ServiceError.conflito("conta_desativada", "esta conta foi desativada")
            default: ServiceError.naoEncontrado("conta não encontrada")
            }
        }) { _ in .definirPlano(plano, por: context.usuario ?? "sistema", em: now) }
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
        try await store.append(to: Self.stream(id), expected: .after(version), events: try Events.new(events, at: now, metadata: metadata(context, actor: "sistema")))
    }

    /// 409 when `state` is the only active admin: deactivating or erasing it would leave nobody
    /// to run the operation (only `coworkflow admin create` on a server could recover). The
    /// accounts list names the other admins; each one's own stream says whether it still is
    /// one, since the list lags (an admin deactivated a moment ago still shows as active there).
    /// Two admins removing each other at the same instant could still both pass.
    private func mantemUmAdmin(_ state: Usuario.State, _ acao: String) async throws {
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

    // MARK: LGPD

    /// Erases my personal data: the account and its e-mail claim record the erasure, then the
    /// vault key is destroyed, so every sealed field in every event becomes unreadable, and the
    /// kept Idempotency-Key answers that name the account are forgotten. Login
    /// fails afterwards and the address may register again. Safe to retry.
    public func apagar(usuario: String, context: Caller) async throws {
        guard let id = Usuario.ID(usuario) else { throw ServiceError.naoAutenticado }
        let (state, version) = try await usuarios.load(Self.stream(id))
        switch state {
        case .inexistente:
            throw ServiceError.naoEncontrado("conta não encontrada")
        case .apagado:
            _ = try await vault.erase(subject: id.rawValue)
            try await store.forgetRequestKeys(mentioning: id.description)
            return
        case .existente(let conta):
            try await mantemUmAdmin(state, "apagar")
            let now = clock.now
            let meta = metadata(context, actor: usuario)
            var writes: [StreamWrite] = []
            let erased = try Usuario.decider.decide(.apagarDadosPessoais(em: now), state)
            writes.append(StreamWrite(stream: Self.stream(id), expected: .after(version), events: try Events.new(erased, at: now, metadata: meta)))
            if let email = try await vault.open(SealedField(rawValue: conta.email)).value {
                let stream = claimStream(email)
                let claim = try await claims.load(stream)
                if let released = try? EmailClaim.decider.decide(.liberar(usuario: id), claim.state) {
                    writes.append(StreamWrite(stream: stream, expected: .after(claim.version), events: try Events.new(released, at: now, metadata: meta)))
                }
            }
            do {
                try await store.append(writes)
            } catch is WrongExpectedVersion {
                throw ServiceError.conflito("conflito_de_versao", "a conta mudou durante o pedido; tente de novo")
            }
            _ = try await vault.erase(subject: id.rawValue)
            // Idempotency-Key answers kept for retries (the registration's, an admin's) hold the
            // name and e-mail in clear; every one that names the account goes.
            try await store.forgetRequestKeys(mentioning: id.description)
        }
    }

    /// The checkpoint of ``concluirApagamentos(lote:)`` over the `usuario` streams.
    public static let apagamentos = "usuarios:apagamentos"

    /// Finishes every erasure whose event is stored: destroys the account's vault key and
    /// forgets the kept Idempotency-Key answers that name it. ``apagar(usuario:context:)`` does
    /// both right after its append; this finishes an erasure whose process stopped between the
    /// append and the key (the event says the data is gone; until the key goes, it is not).
    /// Reads the `usuario` streams in global order from its checkpoint, which moves only after
    /// a batch's keys are gone: run by a timer (lease `usuarios:apagamentos`), every second.
    public func concluirApagamentos(lote: Int = 500) async throws {
        var position = try await store.checkpoint(Self.apagamentos)
        while true {
            let events = try await store.readCategory("usuario", after: position, limit: lote)
            guard let last = events.last else { return }
            for event in events where event.type == Usuario.Catalogo.dadosPessoaisApagados.type {
                // An erasure that cannot be read holds the checkpoint (and is logged by the
                // timer every second): skipping it could leave a key alive.
                guard case .dadosPessoaisApagados(let apagados)? = try Usuario.Event.decode(type: event.type, data: event.data, using: EventJSON.decoder)
                else { continue }
                let id = apagados.usuarioId
                _ = try await vault.erase(subject: id.rawValue)
                try await store.forgetRequestKeys(mentioning: id.description)
            }
            try await store.saveCheckpoint(Self.apagamentos, last.position)
            position = last.position
            guard events.count == lote else { return }
        }
    }

    /// Everything kept about me: the profile, my account's events (sealed fields opened,
    /// password hashes left out) and every event I caused elsewhere.
    public func exportar(usuario: String) async throws -> Data {
        let perfil = try await perfil(usuario: usuario)
        guard let id = Usuario.ID(usuario) else { throw ServiceError.naoAutenticado }
        var conta: [[String: Any]] = []
        for event in try await store.readStream(Self.stream(id)) {
            conta.append(["tipo": event.type, "em": event.occurredAt.formatted(.iso8601), "dados": try await aberto(event, de: id)])
        }
        // What the member did, and what happened about them: any event that names them (a
        // payment, a check-in, an e-mail, an invoice) or belongs to one of their bookings (its
        // correlation id is the booking's), read through the members' index, not the whole log.
        var atividade: [[String: Any]] = []
        var pagamentos: [RecordedEvent] = []
        for (event, _) in try await trilha(id.description) where event.stream != Self.stream(id) {
            if event.stream.category == "pagamento" { pagamentos.append(event) }
            atividade.append([
                "tipo": event.type, "stream": event.stream.rawValue, "em": event.occurredAt.formatted(.iso8601),
                // Other services' payloads hold no sealed field: a text in the sealed form
                // there is free text someone typed, and stays text.
                "dados": try JSONSerialization.jsonObject(with: event.data),
            ])
        }
        let document: [String: Any] = [
            "perfil": [
                "id": perfil.id, "nome": perfil.nome, "email": perfil.email, "papel": perfil.papel, "ativo": perfil.ativo,
                "registradoEm": perfil.registradoEm.formatted(.iso8601),
            ],
            "conta": conta, "atividade": atividade, "geradoEm": clock.now.formatted(.iso8601),
            "resumo": try await resumo(perfil, id: id, pagamentos: pagamentos),
        ]
        return try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])
    }

    /// The export's readable part, in Portuguese and in the units' time zones: who we know the
    /// member as, their bookings (space, when, status, total), payments and refunds, and the
    /// notices sent to them; the raw events beside it are the whole record.
    private func resumo(_ perfil: Perfil, id: Usuario.ID, pagamentos: [RecordedEvent]) async throws -> [String: Any] {
        func todos(_ colecao: String, grupo: String) async throws -> [Data] {
            var docs: [Data] = []
            while true {
                let lote = try await store.documents(colecao, grupo: grupo, limit: 500, offset: docs.count)
                docs += lote
                guard lote.count == 500 else { return docs }
            }
        }
        let decoder = ReadModelJSON.decoder
        var catalogo = LeituraDoCatalogo(store: store)
        func lugar(_ espacoId: String) async throws -> (espaco: String, unidade: UnidadeView?) {
            guard let espaco = try await catalogo.espaco(espacoId) else { return ("espaço", nil) }
            return (espaco.nome, try await catalogo.unidade(espaco.unidadeId))
        }
        let status: [Reserva.Status: String] = [
            .solicitada: "aguardando pagamento", .confirmada: "confirmada", .cancelada: "cancelada", .expirada: "expirada", .concluida: "concluída",
        ]
        var reservas: [[String: Any]] = [], quandoDaReserva: [String: String] = [:]
        for doc in try await todos(ReservasReadModel.reservas, grupo: id.description) {
            let reserva = try decoder.decode(ReservaView.self, from: doc)
            let (espaco, unidade) = try await lugar(reserva.espacoId)
            let quando = (try? TimeRange(start: reserva.inicio, end: reserva.fim)).map { NotificacoesService.quando($0, fuso: unidade?.fusoHorario) } ?? ""
            quandoDaReserva[reserva.id] = "\(espaco), \(quando)"
            reservas.append([
                "espaco": espaco, "unidade": unidade?.nome ?? "", "quando": quando, "situacao": status[reserva.status] ?? reserva.status.rawValue,
                "total": reserva.total.description,
            ])
        }
        var movimentos: [[String: Any]] = []
        for event in pagamentos {
            guard let pagamento = try Pagamento.Event.decode(type: event.type, data: event.data, using: EventJSON.decoder) else { continue }
            let (oque, valor, reserva): (String, Money?, UUID) = switch pagamento {
            case .confirmado(let e): ("pagamento recebido (\(e.metodo.rawValue))", e.valor, e.reservaId)
            case .recusado(let e): ("pagamento recusado", nil, e.reservaId)
            case .reembolsoConcluido(let e): ("reembolso concluído", e.valor, e.reservaId)
            default: ("", nil, UUID())
            }
            guard !oque.isEmpty else { continue }
            var linha: [String: Any] = [
                "o_que": oque, "em": event.occurredAt.formatted(.iso8601),
                "reserva": quandoDaReserva[reserva.uuidString.lowercased()] ?? "uma reserva",
            ]
            if let valor { linha["valor"] = valor.description }
            movimentos.append(linha)
        }
        var avisos: [[String: Any]] = []
        for doc in try await todos(NotificacoesReadModel.caixa, grupo: id.description) {
            let aviso = try decoder.decode(NotificacaoView.self, from: doc)
            avisos.append(["titulo": aviso.titulo, "em": aviso.em.formatted(.iso8601), "por": aviso.canal == "email" ? "e-mail e na sua caixa" : aviso.canal])
        }
        return [
            "comoConhecemosVoce": [
                "nome": perfil.nome, "email": perfil.email, "papel": perfil.papel, "cadastroEm": perfil.registradoEm.formatted(.iso8601),
                "plano": perfil.plano ?? "nenhum",
            ],
            "reservas": reservas, "pagamentos": movimentos, "avisos": avisos,
            "consentimentos": "A CoworkFlow trata seus dados para executar o contrato das suas reservas (cadastro, pagamento, acesso, notas fiscais) "
                + "e não registra outros consentimentos. Você pode apagar seus dados pessoais em Meus dados.",
        ]
    }

    /// Every event that is `usuario`'s (``TrilhasReadModel/sujeitos(_:dono:)``), in global order,
    /// each with whether they did it: the index up to its checkpoint, read stream by stream,
    /// then the log's tail after the checkpoint by the same rule (usually a few events; the
    /// whole log only before the index was ever built).
    func trilha(_ usuario: String) async throws -> [(RecordedEvent, ator: Bool)] {
        let membro = usuario.lowercased()
        let checkpoint = try await store.checkpoint(TrilhasReadModel.projection.checkpoint)
        var entradas: [GlobalPosition: Bool] = [:]
        var streams: Set<StreamName> = []
        while true {
            let docs = try await store.documents(TrilhasReadModel.trilhas, grupo: membro, limit: 500, offset: entradas.count)
            for doc in docs {
                let entrada = try ReadModelJSON.decoder.decode(TrilhasReadModel.Entrada.self, from: doc)
                entradas[entrada.posicao] = entrada.ator
                streams.insert(StreamName(entrada.stream))
            }
            guard docs.count == 500 else { break }
        }
        var eventos: [(RecordedEvent, ator: Bool)] = []
        for (_, lidos) in try await store.readStreams(streams.map { StreamRead($0, from: 1) }) {
            for event in lidos { if let ator = entradas[event.position] { eventos.append((event, ator)) } }
        }
        eventos.sort { $0.0.position < $1.0.position }
        // The tail the index has not reached.
        var donos: [UUID: String] = [:]
        var posicao = checkpoint
        while true {
            let lote = try await store.readAll(after: posicao, limit: 1_000)
            for event in lote {
                if event.type == Reserva.Catalogo.solicitada.type, let reserva = event.metadata.correlationId, let ator = event.metadata.actor {
                    donos[reserva] = ator.lowercased()
                }
                let sujeitos = try await TrilhasReadModel.sujeitos(event) { reserva in
                    if let dono = donos[reserva] { return dono }
                    return try await store.document(TrilhasReadModel.donos, key: reserva.uuidString.lowercased()).flatMap {
                        try ReadModelJSON.decoder.decode(TrilhasReadModel.Dono.self, from: $0).usuario
                    }
                }
                if let ator = sujeitos[membro] { eventos.append((event, ator)) }
            }
            guard lote.count == 1_000, let ultimo = lote.last else { break }
            posicao = ultimo.position
        }
        return eventos
    }

    /// An event of `id`'s own account as exported: password hashes dropped, and the sealed
    /// fields opened where the schema puts them (the registration's name and e-mail), only
    /// when sealed for `id`. Nothing else is opened: a string elsewhere that looks sealed is
    /// text, whoever wrote it.
    private func aberto(_ event: RecordedEvent, de id: Usuario.ID) async throws -> Any {
        guard var dados = try JSONSerialization.jsonObject(with: event.data) as? [String: Any] else {
            return try JSONSerialization.jsonObject(with: event.data)
        }
        dados["senha"] = nil
        if case .registrado(let registrado)? = try Usuario.Event.decode(type: event.type, data: event.data, using: EventJSON.decoder) {
            for (campo, valor) in [("nome", registrado.nome), ("email", registrado.email)] {
                let selado = SealedField(rawValue: valor)
                guard selado.subject == id.rawValue else { continue }
                dados[campo] = try await vault.open(selado).value ?? "(apagado)"
            }
        }
        return dados
    }

    // MARK: Admin queries

    /// Accounts, oldest first, optionally those whose e-mail contains `email`; 50 per page.
    /// The accounts, oldest first, 50 per page, from the `usuarios` read model. A filter by
    /// part of the e-mail opens every account's sealed e-mail (they are not searchable sealed).
    public func listar(email filtro: String?, pagina: Int) async throws -> Pagina<Perfil> {
        let page = min(max(1, pagina), 1_000_000), size = 50
        let colecao = UsuariosReadModel.contas
        let decoder = ReadModelJSON.decoder
        guard let filtro, !filtro.isEmpty else {
            let docs = try await store.documents(colecao, grupo: nil, limit: size, offset: (page - 1) * size)
            var perfis: [Perfil] = []
            for doc in docs { perfis.append(try await perfil(of: try decoder.decode(ContaView.self, from: doc))) }
            return Pagina(itens: perfis, total: try await store.count(colecao, grupo: nil), pagina: page)
        }
        let procurado = EmailClaim.normalise(filtro)
        var encontrados: [Perfil] = []
        var offset = 0
        while true {
            let docs = try await store.documents(colecao, grupo: nil, limit: 500, offset: offset)
            for doc in docs {
                let perfil = try await perfil(of: try decoder.decode(ContaView.self, from: doc))
                if perfil.email.contains(procurado) { encontrados.append(perfil) }
            }
            guard docs.count == 500 else { break }
            offset += 500
        }
        return Pagina(itens: Array(encontrados.dropFirst((page - 1) * size).prefix(size)), total: encontrados.count, pagina: page)
    }

    /// One account for an admin (the screens show member names by id): 404 for an unknown or
    /// malformed id.
    public func consultar(usuario: String) async throws -> Perfil {
        guard let id = Usuario.ID(usuario),
            let doc = try await store.document(UsuariosReadModel.contas, key: id.description)
        else { throw ServiceError.naoEncontrado("conta não encontrada") }
        return try await perfil(of: try ReadModelJSON.decoder.decode(ContaView.self, from: doc))
    }

    func perfil(of conta: ContaView) async throws -> Perfil {
        Perfil(
            id: conta.id, nome: try await vault.open(SealedField(rawValue: conta.nome)).value ?? "",
            email: try await vault.open(SealedField(rawValue: conta.email)).value ?? "", papel: conta.papel,
            ativo: conta.ativo, registradoEm: conta.registradoEm, plano: conta.plano)
    }

    public struct Registro: Codable, Sendable {
        public let id: String
        public let tipo: String
        public let stream: String
        public let em: Date
        public let ator: String?
        public let requestId: String?
        public let servico: String?
    }

    /// The audit trail is the event log: newest first, filtered by actor, type and time; 50 per page.
    public func auditoria(usuario: String?, tipo: String?, desde: Date?, ate: Date?, pagina: Int) async throws -> Pagina<Registro> {
        if let desde, let ate, desde > ate {
            throw ServiceError.requisicaoInvalida("'desde' deve ser anterior ou igual a 'ate'", detalhes: ["campo": "desde"])
        }
        var registros: [Registro] = []
        func registrar(_ event: RecordedEvent) {
            if let tipo, event.type != tipo { return }
            if let desde, event.occurredAt < desde { return }
            if let ate, event.occurredAt >= ate { return }
            let metadata = event.metadata
            if let usuario, metadata.actor?.lowercased() != usuario.lowercased() { return }
            registros.append(Registro(
                id: event.eventId.uuidString.lowercased(), tipo: event.type, stream: event.stream.rawValue, em: event.occurredAt,
                ator: metadata.actor, requestId: metadata.requestId, servico: metadata.service))
        }
        if let usuario, Usuario.ID(usuario) != nil {
            // One member's actions: their trail, not the whole log.
            for (event, ator) in try await trilha(usuario) where ator { registrar(event) }
        } else {
            try await store.forEachEvent { registrar($0) }
        }
        registros.reverse()
        let page = min(max(1, pagina), 1_000_000), size = 50
        return Pagina(itens: Array(registros.dropFirst((page - 1) * size).prefix(size)), total: registros.count, pagina: page)
    }

    /// The account's current role, or nil when it is deactivated, erased or unknown, or when
    /// the token was issued before the account's last password change: a token only counts
    /// while its account does (tokens outlive deactivation otherwise), and changing a password
    /// ends every other session. `iat` travels as seconds in a double; a millisecond of
    /// tolerance keeps the token issued with the change itself.
    public func papelAtual(usuario: String, emitidoEm: Date? = nil) async throws -> String? {
        try await acesso(usuario: usuario, emitidoEm: emitidoEm)?.papel
    }

    /// A bearer token's subject, checked against this service's clock (which issued it); nil
    /// when it is malformed, forged or expired.
    public func verificar(token: String) async -> TokenIssuer.Subject? {
        await tokens.verify(token, now: clock.now)
    }

    /// ``papelAtual(usuario:emitidoEm:)`` with the member's plan, from the same read. With
    /// `staleness`, an account a read found current less than that long ago is not read again
    /// (a service behind the gateway, which has just checked it: ADR 0005).
    public func acesso(usuario: String, emitidoEm: Date? = nil, staleness: Duration? = nil) async throws -> (papel: String, plano: String?)? {
        guard let id = Usuario.ID(usuario), case .existente(let conta) = try await usuarios.load(Self.stream(id), staleness: staleness).state,
            conta.ativo
        else { return nil }
        if let alterada = conta.senhaAlteradaEm, let emitidoEm, emitidoEm.addingTimeInterval(0.001) < alterada { return nil }
        return (conta.papel.rawValue, conta.plano)
    }

    /// Whether `usuario`'s personal data was erased (the account is gone for good).
    public func apagada(usuario: String) async throws -> Bool {
        try await apagada(usuario: usuario, prefetched: nil)
    }

    /// ``apagada(usuario:)`` from `prefetched` when it holds the account's read
    /// (``leituraDaConta(_:)``).
    func apagada(usuario: String, prefetched: Prefetched?) async throws -> Bool {
        guard let id = Usuario.ID(usuario), case .apagado = try await usuarios.load(Self.stream(id), prefetched: prefetched).state else {
            return false
        }
        return true
    }

    /// What loading `usuario`'s account reads (nil for an id that names no account).
    func leituraDaConta(_ usuario: String) -> StreamRead? {
        Usuario.ID(usuario).map { usuarios.read(Self.stream($0)) }
    }

    /// The account that holds `email`, if any.
    public func usuarioId(email: String) async throws -> String? {
        guard case .reivindicado(let id) = try await claims.load(claimStream(EmailClaim.normalise(email))).state else { return nil }
        return id.description
    }

    // MARK: Queries

    public func perfil(usuario: String) async throws -> Perfil {
        guard let id = Usuario.ID(usuario), case .existente(let conta) = try await usuarios.load(Self.stream(id)).state else {
            throw ServiceError.naoEncontrado("conta não encontrada")
        }
        return try await perfil(of: conta)
    }

    func perfil(of conta: Usuario.Conta) async throws -> Perfil {
        Perfil(
            id: conta.id.description, nome: try await vault.open(SealedField(rawValue: conta.nome)).value ?? "",
            email: try await vault.open(SealedField(rawValue: conta.email)).value ?? "", papel: conta.papel.rawValue,
            ativo: conta.ativo, registradoEm: conta.registradoEm, plano: conta.plano)
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
