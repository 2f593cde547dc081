public import Domain
import EventStore
import Foundation
public import Projections
import Telemetry

extension AssinaturasService {
    public struct PedidoDeAssinatura: Decodable, Sendable {
        public let planoId: String
        /// `YYYY-MM-DD`, today or up to 90 days ahead; today when absent.
        public let inicio: String?
        /// `cartao`, `pix_automatico` or `boleto`.
        public let metodo: String
        /// The payment provider's token of the card on file (`metodo` `cartao`).
        public let cartaoToken: String?
        /// People covered: a company's subscription only (1…1000); a member's is 1.
        public let assentos: Int?
    }

    public struct PedidoDeTroca: Decodable, Sendable {
        public let planoId: String
    }

    /// A new means of payment for the cycles to come (and the one in dunning, tried at once).
    public struct PedidoDeCobranca: Decodable, Sendable {
        /// `cartao`, `pix_automatico` or `boleto`.
        public let metodo: String
        /// The payment provider's token of the new card (`metodo` `cartao`).
        public let cartaoToken: String?
    }

    public enum Acao: String, Sendable, CaseIterable {
        case cancelar, pausar, retomar
        case desfazerCancelamento = "desfazer-cancelamento"
        case desfazerTroca = "desfazer-troca"
    }

    /// `usuario` subscribes to a plan (the member themself, or an operator for them).
    public func assinar(_ usuario: String, _ pedido: PedidoDeAssinatura, caller: Caller) async throws -> AssinaturaView {
        if pedido.assentos != nil { throw ServiceError.invalido("assentos", "assentos só vale na assinatura de uma empresa") }
        return try await assinar(titular: try await titular(usuario), pedido, assentos: 1, caller: caller)
    }

    func assinar(titular: String, _ pedido: PedidoDeAssinatura, assentos: Int, caller: Caller) async throws -> AssinaturaView {
        let plano = try await planoPedido(pedido.planoId)
        let cobranca = try Self.cobranca(metodo: pedido.metodo, cartaoToken: pedido.cartaoToken)
        let fuso = try await fuso(unidade: plano.unidadeId)
        let hoje = hoje(fuso)
        let inicio = try Self.data(pedido.inicio, campo: "inicio") ?? hoje
        let assinaturaId = caller.idempotencyKey.map { Events.derivedId("assinatura", titular, $0) } ?? EventIDs.random()
        let now = clock.now
        let por = caller.usuario ?? titular
        return try await executar(titular, caller: caller) { _ in
            .assinar(
                assinaturaId: assinaturaId, titular: titular, plano: plano, inicio: inicio, hoje: hoje,
                cobranca: cobranca, fusoHorario: fuso, por: por, em: now, assentos: assentos)
        }
    }

    public func agir(_ usuario: String, _ acao: Acao, caller: Caller) async throws -> AssinaturaView {
        try await agir(titular: try await titular(usuario), acao, caller: caller)
    }

    func agir(titular: String, _ acao: Acao, caller: Caller) async throws -> AssinaturaView {
        let now = clock.now
        let por = caller.usuario ?? titular
        return try await executar(titular, caller: caller) { state in
            switch acao {
            case .cancelar: return .cancelar(por: por, em: now)
            case .pausar: return .pausar(por: por, em: now)
            case .desfazerCancelamento: return .desfazer(.cancelamento, por: por, em: now)
            case .desfazerTroca: return .desfazer(.troca, por: por, em: now)
            case .retomar:
                guard let dados = state.dados else { throw ServiceError(Assinatura.Failure.naoEncontrada) }
                return .retomar(plano: try await self.plano(dados.proximoPlano), hoje: self.hoje(dados.fusoHorario), por: por, em: now)
            }
        }
    }

    public func trocarPlano(_ usuario: String, _ pedido: PedidoDeTroca, caller: Caller) async throws -> AssinaturaView {
        try await trocarPlano(titular: try await titular(usuario), pedido, caller: caller)
    }

    func trocarPlano(titular: String, _ pedido: PedidoDeTroca, caller: Caller) async throws -> AssinaturaView {
        let plano = try await planoPedido(pedido.planoId)
        let now = clock.now
        let por = caller.usuario ?? titular
        return try await executar(titular, caller: caller) { state in
            .trocar(plano: plano, hoje: self.hoje(state.dados?.fusoHorario ?? Unidade.fusoPadrao), por: por, em: now)
        }
    }

    public func alterarCobranca(_ usuario: String, _ pedido: PedidoDeCobranca, caller: Caller) async throws -> AssinaturaView {
        try await alterarCobranca(titular: try await titular(usuario), pedido, caller: caller)
    }

    /// The holder pays with `pedido` from now on; a cycle whose charge failed is tried again
    /// with it at once (pagamentos reacts to the new attempt as to a scheduled retry).
    func alterarCobranca(titular: String, _ pedido: PedidoDeCobranca, caller: Caller) async throws -> AssinaturaView {
        let cobranca = try Self.cobranca(metodo: pedido.metodo, cartaoToken: pedido.cartaoToken)
        let now = clock.now
        let por = caller.usuario ?? titular
        return try await executar(titular, caller: caller) { _ in .alterarCobranca(cobranca, por: por, em: now) }
    }

    /// A request's means of payment: 422 naming the field that is wrong.
    static func cobranca(metodo texto: String, cartaoToken: String?) throws -> Assinatura.Cobranca {
        guard let metodo = Assinatura.Metodo(rawValue: texto) else {
            throw ServiceError.invalido("metodo", "metodo deve ser cartao, pix_automatico ou boleto")
        }
        try ServiceError.texto(cartaoToken, campo: "cartaoToken", maximo: 200)
        if metodo != .cartao, cartaoToken != nil { throw ServiceError.invalido("cartaoToken", "cartaoToken só vale com o método cartao") }
        return Assinatura.Cobranca(metodo: metodo, cartaoToken: cartaoToken)
    }

    /// An operator records that a cycle's charge was paid outside the provider (a transfer, cash).
    public func registrarPagamento(_ usuario: String, ciclo: Int, caller: Caller) async throws -> AssinaturaView {
        let titular = try await titular(usuario)
        let now = clock.now
        return try await executar(titular, caller: caller) { _ in .registrarPagamento(ciclo: ciclo, cobrancaId: nil, em: now) }
    }

    /// The plan a request's `planoId` names: 422 naming the field when there is none.
    func planoPedido(_ texto: String) async throws -> Plano.Dados {
        guard let id = UUID(text: texto), case .existente(let plano) = try await planos.load(StreamNames.plano(id)).state else {
            throw ServiceError.invalido("planoId", "o plano \(texto.prefix(60)) não existe")
        }
        return plano
    }

    func plano(_ id: UUID) async throws -> Plano.Dados {
        guard case .existente(let dados) = try await planos.load(StreamNames.plano(id)).state else {
            throw ServiceError.naoEncontrado("o plano \(id.lowercasedString) não existe")
        }
        return dados
    }

    /// Decides `command` on `titular`'s subscription (``decidir(_:meta:receipt:_:)``) and answers the
    /// subscription as its stream says now.
    func executar(
        _ titular: String, caller: Caller, _ command: (Assinatura.State) async throws -> Assinatura.Command
    ) async throws
        -> AssinaturaView
    {
        try await decidir(titular, meta: metadata(caller), receipt: caller.receipt, command)
        return try await assinaturaLida(titular)
    }

    /// Decides `command` on `titular`'s subscription and appends its events together with
    /// what they grant in the holder's wallet (a cycle's credits, its roll-over, an upgrade's
    /// extra credits), both streams with the versions read: the credits of a cycle are
    /// granted exactly when the cycle is recorded. A concurrent writer makes it decide again.
    /// Returns whether it wrote anything; what it wrote goes on `receipt` (shared when the holder
    /// is a company).
    @discardableResult
    func decidir(
        _ titular: String, meta: EventMetadata, receipt: WriteReceipt?, _ command: (Assinatura.State) async throws -> Assinatura.Command
    ) async throws -> Bool {
        let stream = StreamNames.assinatura(titular)
        for attempt in 1...5 {
            let (state, version) = try await assinaturas.load(stream)
            let events: [Assinatura.Event]
            do {
                events = try Assinatura.decider.decide(try await command(state), state)
            } catch let failure as Assinatura.Failure {
                throw ServiceError(failure)
            }
            guard !events.isEmpty else { return false }
            let now = clock.now
            var writes = [StreamWrite(stream: stream, expected: .after(version), events: try Events.new(events, at: now, metadata: meta))]
            if let carteira = try await creditar(titular, events, meta: meta, em: now) { writes.append(carteira) }
            do {
                try await store.append(writes, receipt: receipt)
                // A company's subscription is read by all its people.
                if Empresa.id(doTitular: titular) != nil { receipt?.markShared() }
                return true
            } catch is WrongExpectedVersion where attempt < 5 {
                continue
            }
        }
        throw ServiceError.conflito("conflito_de_versao", "a assinatura mudou durante a operação; tente de novo")
    }

    /// The wallet's write for what `events` grant (nil: nothing).
    func creditar(_ titular: String, _ events: [Assinatura.Event], meta: EventMetadata, em now: Date) async throws -> StreamWrite? {
        var comandos: [Carteira.Command] = []
        for event in events {
            switch event {
            case .cicloIniciado(let e):
                comandos += e.ciclo.transportes.map { .transportar(titular: titular, de: $0.de, lote: $0.lote, por: "system:assinaturas", em: now) }
                comandos += e.ciclo.lotes.map { .conceder(titular: titular, lote: $0, por: "system:assinaturas", em: now) }
            case .planoTrocado(let e):
                comandos += e.lotes.map { .conceder(titular: titular, lote: $0, por: "system:assinaturas", em: now) }
            default:
                break
            }
        }
        guard !comandos.isEmpty else { return nil }
        let stream = StreamNames.creditos(titular)
        let (lida, version) = try await carteiras.load(stream)
        var carteira = lida
        var novos: [Carteira.Event] = []
        for comando in comandos {
            let events: [Carteira.Event]
            do { events = try Carteira.decider.decide(comando, carteira) } catch { throw ServiceError(error) }
            carteira = events.reduce(carteira, Carteira.decider.evolve)
            novos += events
        }
        guard !novos.isEmpty else { return nil }
        return StreamWrite(stream: stream, expected: .after(version), events: try Events.new(novos, at: now, metadata: meta))
    }

    /// The subscription as its stream says now.
    func assinaturaLida(_ titular: String) async throws -> AssinaturaView {
        let events = try await store.readStream(StreamNames.assinatura(titular)).compactMap {
            try Assinatura.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder)
        }
        guard let view = AssinaturaView.folding(events) else { throw ServiceError(Assinatura.Failure.naoEncontrada) }
        return view
    }

    // MARK: Queries

    /// A holder's subscription (the last one, ended or not; nil: there was never one).
    public func assinatura(titular: String) async throws -> AssinaturaView? {
        guard let doc = try await store.document(AssinaturasReadModel.assinaturas, key: titular) else { return nil }
        return try ReadModelJSON.decoder.decode(AssinaturaView.self, from: doc)
    }

    /// The member's subscription (nil: they never subscribed; a 404 when there is no such member).
    public func assinatura(usuario: String) async throws -> AssinaturaView? {
        try await assinatura(titular: try await titular(usuario))
    }

    /// Every subscription, by holder, 50 a page; `status` filters (in the read model: one query
    /// for the page and one for the count, whatever the number of subscriptions).
    public func assinaturas(pagina: Int, status: Assinatura.Status?) async throws -> Pagina<AssinaturaView> {
        let (colecao, grupo) = status.map { (AssinaturasReadModel.porStatus, $0.rawValue) } ?? (AssinaturasReadModel.assinaturas, "todas")
        let docs = try await store.documents(colecao, grupo: grupo, limit: 50, offset: (pagina - 1) * 50)
        let total = try await store.count(colecao, grupo: grupo)
        return Pagina(itens: try docs.map { try ReadModelJSON.decoder.decode(AssinaturaView.self, from: $0) }, total: total, pagina: pagina)
    }

    // MARK: Timers

    /// Opens the cycles that are due (and ends, pauses or switches plan as scheduled), granting
    /// their credits in the same append; a subscription behind by several cycles catches up.
    /// Returns how many subscriptions it changed; one that fails does not hold up the others.
    @discardableResult
    public func renovarAssinaturas(limite: Int = 200) async throws -> Int {
        let now = clock.now
        let prazos = try await lerPrazos(
            AssinaturaPrazoView.self, de: AssinaturasReadModel.projection, em: AssinaturasReadModel.prazos, limite: limite, store: store)
        var executados = 0
        var falha: (any Error)?
        let meta = EventMetadata(actor: "system:prazos", requestId: "prazos", service: Self.service)
        let vencidos = prazos.filter { $0.vence <= now }
        Self.metricasDosCiclos.found(vencidos.count)
        for prazo in vencidos {
            do {
                // One cycle a decision: a subscription behind by several catches up.
                for _ in 0..<36 {
                    let renovou = try await decidir(prazo.titular, meta: meta, receipt: nil) { state in
                        guard let dados = state.dados else { throw ServiceError(Assinatura.Failure.naoEncontrada) }
                        return .renovar(plano: try await self.plano(dados.proximoPlano), em: now)
                    }
                    if !renovou { break }
                }
                // A failed charge whose retry is due: pagamentos makes the next attempt.
                try await decidir(prazo.titular, meta: meta, receipt: nil) { _ in .reapresentar(em: now) }
                executados += 1
                Self.metricasDosCiclos.fired(late: now.timeIntervalSince(prazo.vence))
            } catch {
                falha = falha ?? error
            }
        }
        if let falha { throw falha }
        return executados
    }

    static let metricasDosCiclos = TimerMetrics("assinaturas:ciclos")
}
