import Domain
import EventStore
import Foundation
public import Projections

/// The help desk (ADR 0018): a member opens a request to a unit's team; the team (an admin) and
/// the member write to each other in it; either marks it resolved, and the member's message on a
/// resolved one opens it again. notificacoes tells the member of the team's replies and of the
/// resolution.
extension CheckinService {
    public struct PedidoDeChamado: Decodable, Sendable {
        public let unidadeId: String?
        public let categoria: String?
        public let assunto: String?
        public let descricao: String?
    }

    public struct MensagemDeChamado: Decodable, Sendable {
        public let texto: String?
    }

    /// The member's requests: the open ones (oldest first) and the resolved ones (newest first,
    /// at most ``resolvidosMaximo``).
    public struct MeusChamados: Codable, Sendable {
        public let abertos: [ChamadoView]
        public let resolvidos: [ChamadoView]
    }

    /// A unit's requests for its team.
    public struct ChamadosDaUnidade: Codable, Sendable {
        public let unidadeId: String
        public let itens: [ChamadoView]
    }

    /// Open requests a member may have at once (a request past it is a 409).
    public static let chamadosAbertosMaximos = 10
    /// How many of a member's resolved requests their list shows.
    public static let resolvidosMaximo = 50
    /// How many of a unit's requests the team's log (`situacao=todos`) lists, newest first.
    public static let chamadosNaLista = 200

    var chamados: AggregateStore<Chamado.Command, Chamado.State, Chamado.Event, Chamado.Failure> {
        AggregateStore(store: store, decider: Chamado.decider) {
            try Chamado.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder)
        }
    }

    // MARK: Commands

    /// A member opens a request at a unit: 422 naming the field for a unit that does not exist,
    /// an unknown category, or a subject or description missing or too long; 409
    /// `chamados_abertos_demais` with ``chamadosAbertosMaximos`` open already. A retry with the
    /// same `Idempotency-Key` answers what was written.
    public func abrirChamado(_ pedido: PedidoDeChamado, caller: Caller) async throws -> ChamadoView {
        guard let quem = caller.usuario else { throw ServiceError.naoAutenticado }
        guard let texto = pedido.unidadeId, let unidadeId = UUID(text: texto) else {
            throw ServiceError.invalido("unidadeId", "informe a unidade (id) onde está o problema")
        }
        guard let categoriaTexto = pedido.categoria, let categoria = Chamado.Categoria(rawValue: categoriaTexto) else {
            throw ServiceError.invalido(
                "categoria", "a categoria deve ser uma de: \(Chamado.Categoria.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let assunto = try Self.obrigatorio(pedido.assunto, campo: "assunto", maximo: Chamado.tamanhoMaximoDoAssunto, "escreva o assunto")
        let descricao = try Self.obrigatorio(
            pedido.descricao, campo: "descricao", maximo: Chamado.tamanhoMaximoDaMensagem, "descreva o problema")
        let id = Chamado.ID(caller.idempotencyKey.map { Events.derivedId("chamado", quem, $0) } ?? EventIDs.random())
        let stream = StreamNames.chamado(id)
        // A retry (same member, same key) answers what was written; the key sent with another
        // request is refused.
        if case .existente(let dados) = try await chamados.load(stream).state {
            let escrito = try await aberto(ChamadoView(dados))
            guard dados.abertura.usuarioId == quem, dados.abertura.unidadeId == unidadeId, dados.abertura.categoria == categoria,
                escrito.assunto == assunto, escrito.descricao == descricao
            else {
                throw ServiceError(
                    .invalido, codigo: "chave_de_idempotencia_reutilizada", mensagem: "esta Idempotency-Key já foi usada com outro chamado")
            }
            return escrito
        }
        guard case .existente = try await unidades.load(StreamNames.unidade(Unidade.ID(unidadeId))).state else {
            throw ServiceError.invalido("unidadeId", "a unidade \(unidadeId.lowercasedString) não existe")
        }
        try await dentroDoLimiteDeAbertos(quem)
        // The unit's team reads it next, not only its author.
        caller.receipt?.markShared()
        let now = clock.now
        // Free text may name people or tell of them: sealed under the author's key, erased with
        // their account (ADR 0018).
        let abertura = Chamado.Aberto(
            chamadoId: id, usuarioId: quem, unidadeId: unidadeId, categoria: categoria, assunto: try await selado(assunto, autor: quem),
            descricao: try await selado(descricao, autor: quem), em: now)
        let state: Chamado.State
        do {
            state = try await chamados.handle(
                stream, at: now, metadata: metadata(correlacao: id.rawValue, caller), receipt: caller.receipt, failure: { ServiceError($0) }
            ) { _ in
                .abrir(abertura)
            }
        } catch let error as ServiceError where error.codigo == "chamado_ja_aberto" && caller.idempotencyKey != nil {
            // The same key sent twice at once: the other one wrote it; answer as its retry does.
            return try await abrirChamado(pedido, caller: caller)
        }
        return try await aberto(try Self.chamado(state))
    }

    /// A message from the author or the team (any admin): 404 for anyone else; 422 `texto`;
    /// 409 `chamado_resolvido` for the team on a resolved request (the author's reopens it), 409
    /// `chamado_mensagens_demais` past ``Chamado/mensagensMaximas``.
    public func responderChamado(_ texto: String, _ mensagem: MensagemDeChamado, caller: Caller) async throws -> ChamadoView {
        let corpo = try Self.obrigatorio(mensagem.texto, campo: "texto", maximo: Chamado.tamanhoMaximoDaMensagem, "escreva a mensagem")
        let (id, dados, daEquipe) = try await acessivel(texto, caller: caller)
        // The vault would make a new key for an erased member: their older texts would then fail
        // to open instead of reading as erased, and the reply would outlive the erasure.
        guard let autor = Usuario.ID(dados.abertura.usuarioId), case .existente = try await contas.load(UsuariosService.stream(autor)).state
        else {
            throw ServiceError.conflito("chamado_autor_apagado", "quem abriu este chamado excluiu a conta: não há a quem responder")
        }
        // The author's message on a resolved request reopens it: within the same cap as opening.
        if dados.situacao == .resolvido, !daEquipe {
            try await dentroDoLimiteDeAbertos(dados.abertura.usuarioId)
        }
        let selada = try await selado(corpo, autor: dados.abertura.usuarioId)
        // A retry (same writer, same key) is the message already written, even after the edge's
        // kept answer expired.
        let mensagemId = caller.idempotencyKey.map { Events.derivedId("chamado-mensagem", caller.usuario ?? "", $0) } ?? EventIDs.random()
        return try await noChamado(id, caller: caller) {
            .responder(mensagemId: mensagemId, texto: selada, por: $0, daEquipe: daEquipe, em: $1)
        }
    }

    /// The author or the team marks it resolved (twice changes nothing).
    public func resolverChamado(_ texto: String, caller: Caller) async throws -> ChamadoView {
        let (id, _, daEquipe) = try await acessivel(texto, caller: caller)
        return try await noChamado(id, caller: caller) { .resolver(por: $0, daEquipe: daEquipe, em: $1) }
    }

    private func noChamado(_ id: Chamado.ID, caller: Caller, _ command: (String, Date) -> Chamado.Command) async throws -> ChamadoView {
        // The other side reads it next.
        caller.receipt?.markShared()
        let now = clock.now
        let state = try await chamados.handle(
            StreamNames.chamado(id), at: now, metadata: metadata(correlacao: id.rawValue, caller), receipt: caller.receipt,
            failure: { ServiceError($0) }
        ) { _ in
            command(caller.usuario ?? "admin", now)
        }
        return try await aberto(try Self.chamado(state))
    }

    /// The request, if the caller is its author or an admin (the team); whether the caller
    /// writes as the team (an admin who is not its author). A 404 for anyone else: another
    /// member learns nothing, not even that it exists.
    private func acessivel(_ texto: String, caller: Caller) async throws -> (Chamado.ID, Chamado.Dados, daEquipe: Bool) {
        guard let quem = caller.usuario else { throw ServiceError.naoAutenticado }
        guard let id = Chamado.ID(texto), case .existente(let dados) = try await chamados.load(StreamNames.chamado(id)).state,
            dados.abertura.usuarioId == quem || caller.papel == "admin"
        else {
            throw ServiceError.naoEncontrado("o chamado não existe")
        }
        return (id, dados, dados.abertura.usuarioId != quem)
    }

    // MARK: Queries

    /// The caller's requests.
    public func meusChamados(caller: Caller) async throws -> MeusChamados {
        guard let usuario = caller.usuario else { throw ServiceError.naoAutenticado }
        let todos = try await doMembro(usuario)
        return MeusChamados(
            abertos: try await abertos(todos.filter { $0.situacao == .aberto }.reversed()),
            resolvidos: try await abertos(Array(todos.filter { $0.situacao == .resolvido }.prefix(Self.resolvidosMaximo))))
    }

    /// One request, for its author or an admin (404 for anyone else).
    public func chamado(_ texto: String, caller: Caller) async throws -> ChamadoView {
        guard let usuario = caller.usuario else { throw ServiceError.naoAutenticado }
        guard let id = Chamado.ID(texto),
            let documento = try await store.document(ChamadosReadModel.doMembro, key: id.description),
            case let view = try ReadModelJSON.decoder.decode(ChamadoView.self, from: documento),
            view.usuarioId == usuario || caller.papel == "admin"
        else {
            throw ServiceError.naoEncontrado("o chamado não existe")
        }
        return try await aberto(view)
    }

    /// The team's list of a unit: the open requests (`abertos`, oldest first) or every request
    /// (`todos`, newest first, at most ``chamadosNaLista``).
    public func chamadosDaUnidade(unidade: String, situacao: String?) async throws -> ChamadosDaUnidade {
        guard let unidadeId = UUID(text: unidade) else { throw ServiceError.naoEncontrado("a unidade não existe") }
        let todos: Bool
        switch situacao ?? "abertos" {
        case "abertos": todos = false
        case "todos": todos = true
        default:
            throw ServiceError.requisicaoInvalida("'situacao' deve ser abertos ou todos", detalhes: ["campo": "situacao"])
        }
        guard case .existente = try await unidades.load(StreamNames.unidade(Unidade.ID(unidadeId))).state else {
            throw ServiceError.naoEncontrado("a unidade \(unidadeId.lowercasedString) não existe")
        }
        let colecao = todos ? ChamadosReadModel.daUnidade : ChamadosReadModel.abertos
        let itens = try await store.documents(colecao, grupo: unidadeId.lowercasedString, limit: todos ? Self.chamadosNaLista : 1000, offset: 0)
            .map { try ReadModelJSON.decoder.decode(ChamadoView.self, from: $0) }
        return ChamadosDaUnidade(unidadeId: unidadeId.lowercasedString, itens: try await abertos(itens))
    }

    // MARK: Helpers

    /// 409 `chamados_abertos_demais` when the member has ``chamadosAbertosMaximos`` open. A soft
    /// cap: two requests opened (or reopened) in the same instant may both pass it.
    private func dentroDoLimiteDeAbertos(_ usuario: String) async throws {
        let abertos = try await doMembro(usuario).filter { $0.situacao == .aberto }.count
        guard abertos < Self.chamadosAbertosMaximos else {
            throw ServiceError.conflito(
                "chamados_abertos_demais",
                "você já tem \(abertos) chamados abertos: marque como resolvidos os que já foram atendidos antes de abrir ou reabrir outro")
        }
    }

    /// An erased member's open requests are closed (by `system:lgpd`, which tells nobody): they
    /// leave the team's queue, and nobody writes in them again. Their texts read as erased.
    func fecharChamados(de usuario: String, causa: RecordedEvent) async throws -> [StreamWrite] {
        let now = clock.now
        var writes: [StreamWrite] = []
        for view in try await doMembro(usuario) where view.situacao == .aberto {
            guard let id = Chamado.ID(view.id) else { continue }
            let stream = StreamNames.chamado(id)
            let (state, version) = try await chamados.load(stream)
            guard let events = try? Chamado.decider.decide(.resolver(por: "system:lgpd", daEquipe: false, em: now), state), !events.isEmpty
            else { continue }
            writes.append(try escritaDaLGPD(stream, depoisDe: version, events, em: now, causa: causa, correlacao: id.rawValue))
        }
        return writes
    }

    /// A member's requests, newest first (their latest 1,000).
    private func doMembro(_ usuario: String) async throws -> [ChamadoView] {
        try await store.documents(ChamadosReadModel.doMembro, grupo: usuario, limit: 1000, offset: 0)
            .map { try ReadModelJSON.decoder.decode(ChamadoView.self, from: $0) }
    }

    /// A text sealed under the request's author's key.
    private func selado(_ texto: String, autor: String) async throws -> String {
        guard let vault else { throw ServiceError.indisponivel("o cofre de dados pessoais não está configurado neste processo") }
        guard let usuario = Usuario.ID(autor) else { throw ServiceError.naoAutenticado }
        return try await vault.seal(texto, for: usuario.rawValue).rawValue
    }

    /// A required free text, trimmed: 422 naming `campo` when missing, blank, too long or in the
    /// sealed form (control characters are refused when the body is decoded).
    static func obrigatorio(_ valor: String?, campo: String, maximo: Int, _ falta: String) throws -> String {
        guard let limpo = valor?.trimmingCharacters(in: .whitespacesAndNewlines), !limpo.isEmpty else {
            throw ServiceError.invalido(campo, falta)
        }
        try ServiceError.texto(valor, campo: campo, maximo: maximo)
        return limpo
    }

    /// The view with its texts opened (nil once the author's key is erased) and its author named.
    private func aberto(_ view: ChamadoView) async throws -> ChamadoView {
        guard let aberto = try await abertos([view]).first else { throw ServiceError.naoEncontrado("o chamado não existe") }
        return aberto
    }

    /// The views opened: their texts with one read of the key store per author, each author's
    /// name read once.
    private func abertos(_ views: [ChamadoView]) async throws -> [ChamadoView] {
        let selados = views.flatMap { [$0.assunto, $0.descricao] + $0.mensagens.map(\.texto) }.compactMap { $0 }
            .map(SealedField.init(rawValue:)).filter { $0.subject != nil }
        var claros: [String: String?] = [:]
        if let vault {
            for (campo, valor) in zip(selados, try await vault.open(selados)) { claros[campo.rawValue] = .some(valor.value) }
        }
        // Plain text (a document written without the vault) reads as it is; a sealed one as opened.
        func aberta(_ texto: String?) -> String? {
            guard let texto, SealedField(rawValue: texto).subject != nil else { return texto }
            return claros[texto] ?? nil
        }
        let nomes = try await nomes(de: views.map(\.usuarioId))
        var abertos: [ChamadoView] = []
        for var view in views {
            view.assunto = aberta(view.assunto)
            view.descricao = aberta(view.descricao)
            for indice in view.mensagens.indices { view.mensagens[indice].texto = aberta(view.mensagens[indice].texto) }
            view.autor = nomes[view.usuarioId] ?? nil
            abertos.append(view)
        }
        return abertos
    }

    static func chamado(_ state: Chamado.State) throws -> ChamadoView {
        guard let dados = state.dados else { throw ServiceError(Chamado.Failure.inexistente) }
        return ChamadoView(dados)
    }
}

extension ServiceError {
    init(_ failure: Chamado.Failure) {
        switch failure {
        case .inexistente: self = .naoEncontrado("o chamado não existe")
        case .jaAberto: self = .conflito("chamado_ja_aberto", "este chamado já foi aberto")
        case .resolvido:
            self = .conflito("chamado_resolvido", "este chamado foi resolvido: só o membro o reabre, respondendo")
        case .mensagensDemais:
            self = .conflito(
                "chamado_mensagens_demais", "este chamado chegou a \(Chamado.mensagensMaximas) mensagens: abra um novo chamado para continuar")
        }
    }
}
