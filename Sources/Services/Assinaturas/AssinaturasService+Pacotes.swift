import Domain
import EventStore
import Foundation
public import Projections
import Telemetry

extension AssinaturasService {
    var pacotes: AggregateStore<Pacote.Command, Pacote.State, Pacote.Event, Pacote.Failure> {
        AggregateStore(store: store, decider: Pacote.decider) { try Pacote.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder) }
    }

    var compras: AggregateStore<CompraDePacote.Command, CompraDePacote.State, CompraDePacote.Event, CompraDePacote.Failure> {
        AggregateStore(store: store, decider: CompraDePacote.decider) {
            try CompraDePacote.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder)
        }
    }

    /// A bundle as an operator sends it.
    public struct PedidoDePacote: Decodable, Sendable {
        public let nome: String
        public let descricao: String?
        public let unidadeId: String?
        /// `minutos` (hours of booking) or `centavos` (an amount spent on bookings' prices).
        public let medida: String
        public let quantidade: Int64
        public let tipos: [String]?
        public let validadeDias: Int
        public let precoCentavos: Int64
    }

    /// How a member pays for a bundle.
    public struct PedidoDeCompra: Decodable, Sendable {
        /// `cartao`, `pix` or `boleto`.
        public let metodo: String
        public let cartaoToken: String?
    }

    public func criarPacote(_ pedido: PedidoDePacote, caller: Caller) async throws -> PacoteView {
        try ServiceError.texto(pedido.descricao, campo: "descricao", maximo: 500)
        guard let medida = Carteira.Medida(rawValue: pedido.medida) else {
            throw ServiceError.invalido("medida", "medida deve ser minutos (horas de reserva) ou centavos (um valor)")
        }
        let tipos = try Self.tipos(pedido.tipos, campo: "tipos")
        let oferta = Pacote.Oferta(
            nome: pedido.nome, medida: medida, quantidade: pedido.quantidade, tipos: tipos,
            unidadeId: try await unidadeQueVende(pedido.unidadeId, oque: "um pacote da rede"),
            validadeDias: pedido.validadeDias, precoCentavos: pedido.precoCentavos)
        if let campo = oferta.campoInvalido { throw ServiceError(Pacote.Failure.termoInvalido(campo: campo)) }
        let id = caller.idempotencyKey.map { Events.derivedId("pacote", $0) } ?? EventIDs.random()
        try await nomeDePacoteLivre(pedido.nome, unidade: oferta.unidadeId, exceto: id)
        let now = clock.now
        let por = caller.usuario ?? "admin"
        try await pacotes.handle(StreamNames.pacote(id), at: now, metadata: metadata(caller), receipt: caller.receipt, failure: ServiceError.init) {
            _ in
            .criar(id: id, oferta: oferta, descricao: pedido.descricao, por: por, em: now)
        }
        return try await pacoteLido(id)
    }

    /// Two bundles on sale with one name in one place would be told apart by nobody: 409 naming
    /// `nome`, as for plans (read from the read model).
    func nomeDePacoteLivre(_ nome: String, unidade: UUID?, exceto id: UUID) async throws {
        let chave = Self.chaveDoNome(nome)
        let unidadeId = unidade?.lowercasedString
        for doc in try await store.documents(PacotesReadModel.pacotes, grupo: "todos", limit: 1_000, offset: 0) {
            let pacote = try ReadModelJSON.decoder.decode(PacoteView.self, from: doc)
            guard !pacote.arquivado, pacote.unidadeId == unidadeId, pacote.pacoteId != id.lowercasedString,
                Self.chaveDoNome(pacote.nome) == chave
            else { continue }
            throw ServiceError(
                .conflito, codigo: "nome_em_uso",
                mensagem:
                    "nome: já há um pacote à venda chamado '\(pacote.nome)' \(unidadeId == nil ? "na rede" : "nesta unidade"); escolha outro nome ou arquive aquele",
                detalhes: ["campo": "nome"])
        }
    }

    public func arquivarPacote(_ texto: String, caller: Caller) async throws -> PacoteView {
        let id = try pacoteId(texto)
        _ = try await pacotes.existing(StreamNames.pacote(id), naoEncontrado: "o pacote \(id.lowercasedString) não existe")
        let now = clock.now
        let por = caller.usuario ?? "admin"
        try await pacotes.handle(StreamNames.pacote(id), at: now, metadata: metadata(caller), receipt: caller.receipt, failure: ServiceError.init) {
            _ in
            .arquivar(por: por, em: now)
        }
        return try await pacoteLido(id)
    }

    func pacoteId(_ texto: String) throws -> UUID {
        guard let id = UUID(text: texto) else { throw ServiceError.naoEncontrado("o pacote \(texto.prefix(60)) não existe") }
        return id
    }

    /// The bundle as its stream says now (a command's answer: the read model may be behind).
    func pacoteLido(_ id: UUID) async throws -> PacoteView {
        let events = try await store.readStream(StreamNames.pacote(id)).compactMap {
            try Pacote.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder)
        }
        guard let view = PacoteView.folding(events) else { throw ServiceError.naoEncontrado("o pacote \(id.lowercasedString) não existe") }
        return view
    }

    /// The bundles, by name, 50 a page; members see only those on sale.
    public func pacotes(pagina: Int, todos: Bool) async throws -> Pagina<PacoteView> {
        let docs = try await store.documents(PacotesReadModel.pacotes, grupo: "todos", limit: 1_000, offset: 0)
        let views = try docs.map { try ReadModelJSON.decoder.decode(PacoteView.self, from: $0) }.filter { todos || !$0.arquivado }
        return Pagina(de: views, pagina: pagina)
    }

    public func pacote(_ texto: String, todos: Bool) async throws -> PacoteView {
        let id = try pacoteId(texto)
        guard let doc = try await store.document(PacotesReadModel.pacotes, key: id.lowercasedString),
            case let view = try ReadModelJSON.decoder.decode(PacoteView.self, from: doc), todos || !view.arquivado
        else { throw ServiceError.naoEncontrado("o pacote \(texto.prefix(60)) não existe") }
        return view
    }

    // MARK: Purchases

    /// A member buys a bundle on sale: the purchase is recorded (pending) and pagamentos makes
    /// its charge; the credits arrive when the provider says it was paid. With an
    /// Idempotency-Key the same request again answers the same purchase.
    public func comprarPacote(_ usuario: String, _ texto: String, _ pedido: PedidoDeCompra, caller: Caller) async throws -> CompraDePacoteView {
        let titular = try await titular(usuario)
        guard let metodo = MetodoDePagamento(rawValue: pedido.metodo), MetodoDePagamento.doProvedor.contains(metodo) else {
            throw ServiceError.invalido("metodo", "metodo deve ser cartao, pix ou boleto")
        }
        try ServiceError.texto(pedido.cartaoToken, campo: "cartaoToken", maximo: 200)
        let id = try pacoteId(texto)
        let pacote = try await pacotes.existing(StreamNames.pacote(id), naoEncontrado: "o pacote \(texto.prefix(60)) não existe")
        guard case .existente(let dados) = pacote else { throw ServiceError(Pacote.Failure.naoEncontrado) }
        let compraId = caller.idempotencyKey.map { Events.derivedId("compra", titular, $0) } ?? EventIDs.random()
        let stream = StreamNames.compra(compraId)
        let now = clock.now
        try await compras.handle(stream, at: now, metadata: metadata(caller), receipt: caller.receipt, failure: ServiceError.init) { state in
            // An archived bundle is off sale, unless this is the same purchase asked again.
            if dados.arquivado, case .inexistente = state { throw ServiceError(Pacote.Failure.arquivado) }
            return .solicitar(
                compraId: compraId, titular: titular, pacoteId: id, oferta: dados.oferta, metodo: metodo, cartaoToken: pedido.cartaoToken, em: now)
        }
        return try await compraLida(compraId, titular: titular)
    }

    /// The purchase as its stream says now; 404 for someone else's.
    func compraLida(_ id: UUID, titular: String) async throws -> CompraDePacoteView {
        let events = try await store.readStream(StreamNames.compra(id)).compactMap {
            try CompraDePacote.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder)
        }
        guard let view = CompraDePacoteView.folding(events), view.titular == titular else {
            throw ServiceError.naoEncontrado("a compra \(id.lowercasedString) não existe")
        }
        return view
    }

    /// A member's purchases, the most recent first, 50 a page.
    public func compras(usuario: String, pagina: Int) async throws -> Pagina<CompraDePacoteView> {
        let titular = try await titular(usuario)
        let docs = try await store.documents(PacotesReadModel.compras, grupo: titular, limit: 50, offset: (pagina - 1) * 50)
        let total = try await store.count(PacotesReadModel.compras, grupo: titular)
        return Pagina(itens: try docs.map { try ReadModelJSON.decoder.decode(CompraDePacoteView.self, from: $0) }, total: total, pagina: pagina)
    }

    /// One of the member's purchases, from its stream (so the PIX code shows as soon as the
    /// charge is made); 404 for another member's.
    public func compra(usuario: String, _ texto: String) async throws -> CompraDePacoteView {
        let titular = try await titular(usuario)
        guard let id = UUID(text: texto) else { throw ServiceError.naoEncontrado("a compra \(texto.prefix(60)) não existe") }
        return try await compraLida(id, titular: titular)
    }

    // MARK: Operator's refunds

    /// An operator's refund of a paid purchase: `valorCentavos` absent gives back the price's
    /// share of the credits still unspent (rounded down); 0…price otherwise. `motivo` is
    /// required and kept in the audit trail.
    public struct PedidoDeReembolso: Decodable, Sendable {
        public let motivo: String
        public let valorCentavos: Int64?
    }

    /// Refunds a paid purchase: the purchase's refund and the wallet's taking back of what is
    /// left of its lot are one append (credits that bookings hold and give back later are lost
    /// then); pagamentos pays the money back through the provider, financeiro issues the credit
    /// note, notificacoes writes to the member. The same request again answers the same refund.
    public func reembolsarCompra(_ texto: String, _ pedido: PedidoDeReembolso, caller: Caller) async throws -> CompraDePacoteView {
        try ServiceError.texto(pedido.motivo, campo: "motivo", maximo: 500)
        guard let id = UUID(text: texto) else { throw ServiceError.naoEncontrado("a compra \(texto.prefix(60)) não existe") }
        let stream = StreamNames.compra(id)
        let por = caller.usuario ?? "admin"
        for _ in 1...5 {
            let (state, version) = try await compras.load(stream)
            guard case .existente(let dados) = state else { throw ServiceError.naoEncontrado("a compra \(texto.prefix(60)) não existe") }
            let carteira = StreamNames.creditos(dados.titular)
            let (saldo, versaoDaCarteira) = try await carteiras.load(carteira)
            let now = clock.now
            let events: [CompraDePacote.Event]
            do {
                events = try CompraDePacote.decider.decide(
                    .reembolsar(
                        reembolsoId: Events.derivedId("reembolso-de-compra", id), valor: pedido.valorCentavos.map { Money(centavos: $0) },
                        // Credits whose time is up are worth nothing, even before the timer expires them.
                        restante: dados.lote.map { $0.vencido(em: now) ? 0 : saldo.restante($0.loteId) } ?? 0, motivo: pedido.motivo,
                        por: por, em: now),
                    state)
            } catch {
                throw ServiceError(error)
            }
            guard case .reembolsada(let reembolso)? = events.first else { return try await compraLida(id, titular: dados.titular) }
            let retirados: [Carteira.Event]
            do {
                retirados = try Carteira.decider.decide(
                    .encerrar(
                        titular: dados.titular, lote: reembolso.loteId, motivo: "Reembolso da compra do pacote \(dados.oferta.nome)", por: por,
                        em: now), saldo)
            } catch {
                throw ServiceError(error)
            }
            let meta = metadata(caller)
            var writes = [StreamWrite(stream: stream, expected: .after(version), events: try Events.new(events, at: now, metadata: meta))]
            if !retirados.isEmpty {
                writes.append(
                    StreamWrite(stream: carteira, expected: .after(versaoDaCarteira), events: try Events.new(retirados, at: now, metadata: meta)))
            }
            do {
                try await store.append(writes, receipt: caller.receipt)
            } catch is WrongExpectedVersion {
                continue  // a booking spent the lot meanwhile: decide again on what is left
            }
            return try await compraLida(id, titular: dados.titular)
        }
        throw ServiceError.conflito("conflito_de_versao", "a compra ou a carteira mudou durante o reembolso; tente de novo")
    }

    // MARK: Timers

    /// Expires the purchases whose PIX or boleto ran out unpaid (the timers are a read model,
    /// so they survive restarts). Returns how many it expired; one that fails does not hold up
    /// the others (the first failure is thrown after they ran).
    @discardableResult
    public func expirarComprasVencidas(limite: Int = 200) async throws -> Int {
        let now = clock.now
        let prazos = try await lerPrazos(
            PrazoDeCompraView.self, de: PacotesReadModel.projection, em: PacotesReadModel.prazos, limite: limite, store: store)
        var executados = 0
        var falha: (any Error)?
        let vencidos = prazos.filter { $0.vence <= now }
        Self.metricasDasCompras.found(vencidos.count)
        for prazo in vencidos {
            guard let id = UUID(text: prazo.compraId) else { continue }
            let meta = EventMetadata(correlationId: id, actor: "system:prazos", requestId: "prazos", service: Self.service)
            do {
                try await compras.handle(StreamNames.compra(id), at: now, metadata: meta, receipt: nil, failure: ServiceError.init) { _ in
                    .expirar(em: now)
                }
                executados += 1
                Self.metricasDasCompras.fired(late: now.timeIntervalSince(prazo.vence))
            } catch {
                falha = falha ?? error
            }
        }
        if let falha { throw falha }
        return executados
    }

    static let metricasDasCompras = TimerMetrics("assinaturas:compras")
}
