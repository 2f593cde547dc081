import Domain
import EventStore
import Foundation
public import Projections

/// Mail and parcels held at the front desk (ADR 0017): the desk (an admin) registers a letter or
/// parcel for a member at a unit; notificacoes tells the member; the desk records the hand-over,
/// or cancels a registration made by mistake. The member reads what waits for them.
extension CheckinService {
    public struct PedidoDeEncomenda: Decodable, Sendable {
        public let unidadeId: String?
        /// The recipient: an active member.
        public let usuarioId: String?
        public let tipo: String?
        public let remetente: String?
        public let observacao: String?
    }

    /// The member's letters: those waiting at a desk (oldest first) and the others (newest
    /// first, at most ``anterioresMaximo``).
    public struct MinhasEncomendas: Codable, Sendable {
        public let aguardando: [EncomendaView]
        public let anteriores: [EncomendaView]
    }

    /// A unit's list for the desk.
    public struct EncomendasDaUnidade: Codable, Sendable {
        public let unidadeId: String
        public let itens: [EncomendaView]
    }

    /// How many of a unit's letters the desk's log (`situacao=todas`) lists, newest first.
    public static let encomendasNaLista = 200

    var encomendas: AggregateStore<Encomenda.Command, Encomenda.State, Encomenda.Event, Encomenda.Failure> {
        AggregateStore(store: store, decider: Encomenda.decider) {
            try Encomenda.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder)
        }
    }

    // MARK: Commands

    /// The desk registers what arrived: 403 for anyone but an admin; 422 naming the field for a
    /// unit that does not exist, a recipient who is not an active member, an unknown type, or a
    /// sender or note too long. A retry with the same `Idempotency-Key` answers what was written.
    public func registrarEncomenda(_ pedido: PedidoDeEncomenda, caller: Caller) async throws -> EncomendaView {
        guard let quem = caller.usuario else { throw ServiceError.naoAutenticado }
        guard caller.papel == "admin" else { throw ServiceError.proibido("só a recepção (um admin) registra correspondências") }
        guard let texto = pedido.unidadeId, let unidadeId = UUID(text: texto) else {
            throw ServiceError.invalido("unidadeId", "informe a unidade (id) onde a correspondência chegou")
        }
        guard let para = pedido.usuarioId, let usuario = Usuario.ID(para) else {
            throw ServiceError.invalido("usuarioId", "informe o membro (id) a quem a correspondência se destina")
        }
        guard let tipoTexto = pedido.tipo, let tipo = Encomenda.Tipo(rawValue: tipoTexto) else {
            throw ServiceError.invalido(
                "tipo", "o tipo deve ser um de: \(Encomenda.Tipo.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        try ServiceError.texto(pedido.remetente, campo: "remetente", maximo: Encomenda.tamanhoMaximoDoRemetente)
        try ServiceError.texto(pedido.observacao, campo: "observacao", maximo: Encomenda.tamanhoMaximoDaObservacao)
        func limpo(_ texto: String?) -> String? {
            guard let limpo = texto?.trimmingCharacters(in: .whitespacesAndNewlines), !limpo.isEmpty else { return nil }
            return limpo
        }
        let (remetente, observacao) = (limpo(pedido.remetente), limpo(pedido.observacao))
        let id = Encomenda.ID(caller.idempotencyKey.map { Events.derivedId("encomenda", quem, $0) } ?? EventIDs.random())
        let stream = StreamNames.encomenda(id)
        // A retry (same operator, same key) answers what was written, even if the recipient has
        // since left; the key sent with another parcel is refused.
        if case .existente(let dados) = try await encomendas.load(stream).state {
            let escrita = try await aberta(EncomendaView(dados))
            guard dados.registro.unidadeId == unidadeId, dados.registro.usuarioId == usuario.description, dados.registro.tipo == tipo,
                escrita.remetente == remetente, escrita.observacao == observacao
            else {
                throw ServiceError(
                    .invalido, codigo: "chave_de_idempotencia_reutilizada", mensagem: "esta Idempotency-Key já foi usada com outra correspondência")
            }
            return escrita
        }
        guard case .existente = try await unidades.load(StreamNames.unidade(Unidade.ID(unidadeId))).state else {
            throw ServiceError.invalido("unidadeId", "a unidade \(unidadeId.lowercasedString) não existe")
        }
        // A member whose account counts: not an unknown, deactivated or erased one.
        guard case .existente(let conta) = try await contas.load(UsuariosService.stream(usuario)).state, conta.ativo else {
            throw ServiceError.invalido("usuarioId", "não há membro ativo com o id \(para.prefix(60))")
        }
        guard let vault else { throw ServiceError.indisponivel("o cofre de dados pessoais não está configurado neste processo") }
        // The recipient reads it next, not only the desk.
        caller.receipt?.markShared()
        let now = clock.now
        // The sender and the note may name people: sealed under the recipient's key, erased with
        // their account (ADR 0017).
        func selado(_ texto: String?) async throws -> String? {
            guard let texto else { return nil }
            return try await vault.seal(texto, for: usuario.rawValue).rawValue
        }
        let registrada = Encomenda.Registrada(
            encomendaId: id, usuarioId: usuario.description, unidadeId: unidadeId, tipo: tipo, remetente: try await selado(remetente),
            observacao: try await selado(observacao), por: quem, em: now)
        let state = try await encomendas.handle(
            stream, at: now, metadata: metadataDaEncomenda(id, caller), receipt: caller.receipt, failure: { ServiceError($0) }
        ) { _ in
            .registrar(registrada)
        }
        return try await aberta(try Self.encomenda(state))
    }

    /// The desk hands it over: 409 `encomenda_retirada` when it was already, 409
    /// `encomenda_cancelada` for a cancelled one.
    public func entregarEncomenda(_ texto: String, caller: Caller) async throws -> EncomendaView {
        try await naRecepcao(texto, caller: caller) { .entregar(por: $0, em: $1) }
    }

    /// The desk cancels a registration made by mistake (twice changes nothing); 409
    /// `encomenda_retirada` once handed over.
    public func cancelarEncomenda(_ texto: String, caller: Caller) async throws -> EncomendaView {
        try await naRecepcao(texto, caller: caller) { .cancelar(por: $0, em: $1) }
    }

    private func naRecepcao(_ texto: String, caller: Caller, _ command: (String, Date) -> Encomenda.Command) async throws -> EncomendaView {
        guard caller.papel == "admin" else { throw ServiceError.proibido("só a recepção (um admin) entrega ou cancela correspondências") }
        guard let id = Encomenda.ID(texto), case .existente = try await encomendas.load(StreamNames.encomenda(id)).state else {
            throw ServiceError.naoEncontrado("a correspondência não existe")
        }
        caller.receipt?.markShared()
        let now = clock.now
        let state = try await encomendas.handle(
            StreamNames.encomenda(id), at: now, metadata: metadataDaEncomenda(id, caller), receipt: caller.receipt,
            failure: { ServiceError($0) }
        ) { _ in
            command(caller.usuario ?? "admin", now)
        }
        return try await aberta(try Self.encomenda(state))
    }

    // MARK: Queries

    /// The caller's letters.
    public func minhasEncomendas(caller: Caller) async throws -> MinhasEncomendas {
        guard let usuario = caller.usuario else { throw ServiceError.naoAutenticado }
        let todas = try await store.documents(EncomendasReadModel.doMembro, grupo: usuario, limit: 1000, offset: 0)
            .map { try ReadModelJSON.decoder.decode(EncomendaView.self, from: $0) }
        return MinhasEncomendas(
            aguardando: try await abertas(todas.filter { $0.situacao == .aguardando }.reversed()),
            anteriores: try await abertas(Array(todas.filter { $0.situacao != .aguardando }.prefix(Self.anterioresMaximo))))
    }

    /// The desk's list of a unit: what waits (`aguardando`, oldest first) or every letter
    /// (`todas`, newest first, at most ``encomendasNaLista``).
    public func encomendasDaUnidade(unidade: String, situacao: String?) async throws -> EncomendasDaUnidade {
        guard let unidadeId = UUID(text: unidade) else { throw ServiceError.naoEncontrado("a unidade não existe") }
        let todas: Bool
        switch situacao ?? "aguardando" {
        case "aguardando": todas = false
        case "todas": todas = true
        default:
            throw ServiceError.requisicaoInvalida("'situacao' deve ser aguardando ou todas", detalhes: ["campo": "situacao"])
        }
        guard case .existente = try await unidades.load(StreamNames.unidade(Unidade.ID(unidadeId))).state else {
            throw ServiceError.naoEncontrado("a unidade \(unidadeId.lowercasedString) não existe")
        }
        let colecao = todas ? EncomendasReadModel.daUnidade : EncomendasReadModel.aguardando
        let itens = try await store.documents(colecao, grupo: unidadeId.lowercasedString, limit: todas ? Self.encomendasNaLista : 1000, offset: 0)
            .map { try ReadModelJSON.decoder.decode(EncomendaView.self, from: $0) }
        return EncomendasDaUnidade(unidadeId: unidadeId.lowercasedString, itens: try await abertas(itens))
    }

    // MARK: Helpers

    /// The view with the sender and the note opened (nil once the recipient's key is erased).
    private func aberta(_ view: EncomendaView) async throws -> EncomendaView {
        var view = view
        func aberto(_ texto: String?) async throws -> String? {
            guard let texto else { return nil }
            let campo = SealedField(rawValue: texto)
            guard campo.subject != nil else { return texto }
            guard let vault else { return nil }
            return try await vault.open(campo).value
        }
        view.remetente = try await aberto(view.remetente)
        view.observacao = try await aberto(view.observacao)
        return view
    }

    private func abertas(_ views: [EncomendaView]) async throws -> [EncomendaView] {
        var abertas: [EncomendaView] = []
        for view in views { abertas.append(try await aberta(view)) }
        return abertas
    }

    private func metadataDaEncomenda(_ id: Encomenda.ID, _ caller: Caller) -> EventMetadata {
        EventMetadata(correlationId: id.rawValue, actor: caller.usuario ?? "admin", requestId: caller.requestId, service: Self.consumidor)
    }

    static func encomenda(_ state: Encomenda.State) throws -> EncomendaView {
        guard let dados = state.dados else { throw ServiceError(Encomenda.Failure.inexistente) }
        return EncomendaView(dados)
    }
}

extension ServiceError {
    init(_ failure: Encomenda.Failure) {
        switch failure {
        case .inexistente: self = .naoEncontrado("a correspondência não existe")
        case .jaRegistrada: self = .conflito("encomenda_ja_registrada", "esta correspondência já foi registrada")
        case .jaRetirada: self = .conflito("encomenda_retirada", "esta correspondência já foi entregue ao membro")
        case .cancelada: self = .conflito("encomenda_cancelada", "o registro desta correspondência foi cancelado")
        }
    }
}
