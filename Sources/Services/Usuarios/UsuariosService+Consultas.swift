import Domain
import EventStore
public import Foundation
import Projections

extension UsuariosService {
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
        /// The type in words, from its context's catalog (the type itself for one no catalog lists).
        public let rotulo: String
        public let stream: String
        public let em: Date
        public let ator: String?
        public let requestId: String?
        public let servico: String?
    }

    /// A stored event type as people read it: the audit trail's filter.
    public struct TipoDeEvento: Codable, Sendable {
        public let tipo: String
        public let rotulo: String
        public let contexto: String
    }

    /// Every stored event type, from the catalogs, in the order people read them.
    public func tiposDeEvento() -> [TipoDeEvento] {
        Catalogos.kinds.map { TipoDeEvento(tipo: $0.type, rotulo: $0.label, contexto: $0.context.rawValue) }
            .sorted { $0.rotulo.localizedStandardCompare($1.rotulo) == .orderedAscending }
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
            registros.append(
                Registro(
                    id: event.eventId.lowercasedString, tipo: event.type, rotulo: Catalogos.kind(event.type)?.label ?? event.type,
                    stream: event.stream.rawValue, em: event.occurredAt,
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
        try await acesso(usuario: usuario, emitidoEm: emitidoEm, staleness: staleness, prefetched: nil)
    }

    /// ``acesso(usuario:emitidoEm:staleness:)`` from `prefetched` when it holds the account's
    /// read (``leituraDaConta(_:)``).
    func acesso(usuario: String, emitidoEm: Date?, staleness: Duration?, prefetched: Prefetched?) async throws -> (papel: String, plano: String?)? {
        guard let id = Usuario.ID(usuario),
            case .existente(let conta) = try await usuarios.load(Self.stream(id), prefetched: prefetched, staleness: staleness).state,
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
}
