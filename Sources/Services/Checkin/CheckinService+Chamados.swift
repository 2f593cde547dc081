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
        // A soft cap: two requests opened in the same instant may both pass it.
        let jaAbertos = try await doMembro(quem).filter { $0.situacao == .aberto }.count
        guard jaAbertos < Self.chamadosAbertosMaximos else {
            throw ServiceError.conflito(
                "chamados_abertos_demais",
                "você já tem \(jaAbertos) chamados abertos: marque como resolvidos os que já foram atendidos antes de abrir outro")
        }
        // The unit's team reads it next, not only its author.
        caller.receipt?.markShared()
        let now = clock.now
        // Free text may name people or tell of them: sealed under the author's key, erased with
        // their account (ADR 0018).
        let abertura = Chamado.Aberto(
            chamadoId: id, usuarioId: quem, unidadeId: unidadeId, categoria: categoria, assunto: try await selado(assunto, autor: quem),
            descricao: try await selado(descricao, autor: quem), em: now)
        let state = try await chamados.handle(
            stream, at: now, metadata: metadataDoChamado(id, caller), receipt: caller.receipt, failure: { ServiceError($0) }
        ) { _ in
            .abrir(abertura)
        }
        return try await aberto(try Self.chamado(state))
    }

    /// A message from the author or the team (any admin): 404 for anyone else; 422 `texto`;
    /// 409 `chamado_resolvido` for the team on a resolved request (the author's reopens it), 409
    /// `chamado_mensagens_demais` past ``Chamado/mensagensMaximas``.
    public func responderChamado(_ texto: String, _ mensagem: MensagemDeChamado, caller: Caller) async throws -> ChamadoView {
        let corpo = try Self.obrigatorio(mensagem.texto, campo: "texto", maximo: Chamado.tamanhoMaximoDaMensagem, "escreva a mensagem")
        let (id, dados, daEquipe) = try await acessivel(texto, caller: caller)
        let selada = try await selado(corpo, autor: dados.abertura.usuarioId)
        return try await noChamado(id, caller: caller) { .responder(texto: selada, por: $0, daEquipe: daEquipe, em: $1) }
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
            StreamNames.chamado(id), at: now, metadata: metadataDoChamado(id, caller), receipt: caller.receipt, failure: { ServiceError($0) }
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

    /// A required free text, trimmed: 422 naming `campo` when missing, blank, too long or with
    /// control characters.
    static func obrigatorio(_ valor: String?, campo: String, maximo: Int, _ falta: String) throws -> String {
        guard let limpo = valor?.trimmingCharacters(in: .whitespacesAndNewlines), !limpo.isEmpty else {
            throw ServiceError.invalido(campo, falta)
        }
        try ServiceError.texto(limpo, campo: campo, maximo: maximo)
        return limpo
    }

    /// The view with its texts opened (nil once the author's key is erased) and its author named.
    private func aberto(_ view: ChamadoView, nomes: [String: String?] = [:]) async throws -> ChamadoView {
        var view = view
        func aberta(_ texto: String?) async throws -> String? {
            guard let texto else { return nil }
            let campo = SealedField(rawValue: texto)
            guard campo.subject != nil else { return texto }
            guard let vault else { return nil }
            return try await vault.open(campo).value
        }
        view.assunto = try await aberta(view.assunto)
        view.descricao = try await aberta(view.descricao)
        for indice in view.mensagens.indices { view.mensagens[indice].texto = try await aberta(view.mensagens[indice].texto) }
        if let nome = nomes[view.usuarioId] {
            view.autor = nome
        } else {
            view.autor = try await nomeDoMembro(view.usuarioId)
        }
        return view
    }

    /// The views opened, each author's name read once.
    private func abertos(_ views: [ChamadoView]) async throws -> [ChamadoView] {
        var nomes: [String: String?] = [:]
        var abertos: [ChamadoView] = []
        for view in views {
            if nomes[view.usuarioId] == nil { nomes[view.usuarioId] = .some(try await nomeDoMembro(view.usuarioId)) }
            abertos.append(try await aberto(view, nomes: nomes))
        }
        return abertos
    }

    private func metadataDoChamado(_ id: Chamado.ID, _ caller: Caller) -> EventMetadata {
        EventMetadata(correlationId: id.rawValue, actor: caller.usuario ?? "admin", requestId: caller.requestId, service: Self.consumidor)
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
