public import Domain
import EventStore
public import Foundation
public import Projections
import Telemetry

extension AssinaturasService {
    // MARK: Operator's adjustments

    /// An operator's adjustment of a member's credits: `quantidade` > 0 adds a lot under the
    /// terms given (space types, unit, validity), < 0 takes credits away from the lots that
    /// expire first. `motivo` is required and kept in the audit trail.
    public struct PedidoDeAjuste: Decodable, Sendable {
        public let medida: Carteira.Medida
        public let quantidade: Int64
        public let motivo: String
        public let descricao: String?
        public let tipos: [String]?
        public let unidadeId: String?
        public let validoAte: Date?
    }

    public func ajustarCreditos(_ usuario: String, _ pedido: PedidoDeAjuste, caller: Caller) async throws -> CarteiraView {
        let titular = try await titular(usuario)
        try ServiceError.texto(pedido.motivo, campo: "motivo", maximo: 500)
        try ServiceError.texto(pedido.descricao, campo: "descricao", maximo: 200)
        let maximo = Carteira.maximo(pedido.medida)
        guard pedido.quantidade != 0, (-maximo...maximo).contains(pedido.quantidade) else {
            throw ServiceError.invalido(
                "quantidade",
                "quantidade deve ser de 1 a \(maximo) (para somar) ou de -\(maximo) a -1 (para retirar), em \(pedido.medida == .minutos ? "minutos" : "centavos")"
            )
        }
        let now = clock.now
        let stream = StreamNames.creditos(titular)
        let command: Carteira.Command
        if pedido.quantidade > 0 {
            let tipos = try Self.tipos(pedido.tipos, campo: "tipos")
            let unidade = try await unidade(pedido.unidadeId)
            if let validoAte = pedido.validoAte, validoAte <= now {
                throw ServiceError.invalido("validoAte", "validoAte já passou: créditos assim nunca poderiam ser usados")
            }
            // A retry with the same Idempotency-Key lands on the same lot, not on a second one.
            let loteId = caller.idempotencyKey.map { Events.derivedId("lote", titular, $0) } ?? EventIDs.random()
            let descricao = pedido.descricao?.trimmingCharacters(in: .whitespacesAndNewlines)
            let lote = Carteira.Lote(
                loteId: loteId, medida: pedido.medida, quantidade: pedido.quantidade, tipos: tipos, unidadeId: unidade,
                validoAte: pedido.validoAte, origem: .ajuste, descricao: descricao.flatMap { $0.isEmpty ? nil : $0 } ?? "Crédito da operação")
            command = .ajustar(titular: titular, lote: lote, motivo: pedido.motivo, por: caller.usuario ?? "admin", em: now)
        } else {
            // A withdrawal takes from the usable balance, whatever lot it is in: what only a
            // new lot has is refused, not dropped, so that nobody believes it was applied.
            // (`descricao` is a new lot's name; blank, as a form sends it empty, it names nothing.)
            let descricao = !(pedido.descricao ?? "").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
            for (campo, dado) in [
                ("tipos", pedido.tipos != nil), ("unidadeId", pedido.unidadeId != nil), ("validoAte", pedido.validoAte != nil),
                ("descricao", descricao),
            ] where dado {
                throw ServiceError.invalido(
                    campo, "\(campo) só vale ao somar créditos: uma retirada tira do saldo utilizável, de qualquer lote")
            }
            command = .retirar(
                titular: titular, medida: pedido.medida, quantidade: -pedido.quantidade, motivo: pedido.motivo, por: caller.usuario ?? "admin",
                em: now)
        }
        let state = try await carteiras.handle(stream, at: now, metadata: metadata(caller), receipt: caller.receipt, failure: Self.falhaDoAjuste) {
            _ in command
        }
        return CarteiraView(titular: titular, state, atualizadaEm: now)
    }

    /// An adjustment's failures name the request's fields.
    static func falhaDoAjuste(_ failure: Carteira.Failure) -> ServiceError {
        switch failure {
        case .insuficiente(let medida, let disponivel):
            ServiceError(
                .invalido, codigo: "creditos_insuficientes",
                mensagem: "não há tanto a retirar: o saldo utilizável é de \(disponivel) \(medida == .minutos ? "minutos" : "centavos")",
                detalhes: ["campo": "quantidade", "disponivel": String(disponivel)])
        default: ServiceError(failure)
        }
    }

    // MARK: Queries

    /// A holder's credits (an empty wallet when nothing was ever granted).
    public func carteira(titular: String) async throws -> CarteiraView {
        guard let doc = try await store.document(CreditosReadModel.carteiras, key: titular) else { return CarteiraView(titular: titular) }
        return try ReadModelJSON.decoder.decode(CarteiraView.self, from: doc)
    }

    /// The member `usuario`'s credits, for an operator: 404 for an unknown member.
    public func carteira(usuario: String) async throws -> CarteiraView {
        try await carteira(titular: try await titular(usuario))
    }

    /// A holder's statement, the latest first, 50 a page.
    public func extrato(titular: String, pagina: Int) async throws -> Pagina<MovimentoView> {
        let docs = try await store.documents(CreditosReadModel.extrato, grupo: titular, limit: 50, offset: (pagina - 1) * 50)
        let total = try await store.count(CreditosReadModel.extrato, grupo: titular)
        return Pagina(itens: try docs.map { try ReadModelJSON.decoder.decode(MovimentoView.self, from: $0) }, total: total, pagina: pagina)
    }

    public func extrato(usuario: String, pagina: Int) async throws -> Pagina<MovimentoView> {
        try await extrato(titular: try await titular(usuario), pagina: pagina)
    }

    // MARK: Timers

    /// Expires the lots whose time is up, wallet by wallet (the timers are a read model, so they
    /// survive restarts). Returns how many wallets it changed; one that fails does not hold up
    /// the others (the first failure is thrown after they ran).
    @discardableResult
    public func expirarCreditosVencidos(limite: Int = 200) async throws -> Int {
        let now = clock.now
        let prazos = try await lerPrazos(
            CreditosPrazoView.self, de: CreditosReadModel.projection, em: CreditosReadModel.prazos, limite: limite, store: store)
        var executados = 0
        var falha: (any Error)?
        let vencidos = prazos.filter { $0.vence <= now }
        Self.metricasDosCreditos.found(vencidos.count)
        for prazo in vencidos {
            let meta = EventMetadata(actor: "system:prazos", requestId: "prazos", service: Self.service)
            do {
                try await carteiras.handle(StreamNames.creditos(prazo.titular), at: now, metadata: meta, receipt: nil, failure: ServiceError.init) {
                    _ in
                    .expirar(titular: prazo.titular, em: now)
                }
                executados += 1
                Self.metricasDosCreditos.fired(late: now.timeIntervalSince(prazo.vence))
            } catch {
                falha = falha ?? error
            }
        }
        if let falha { throw falha }
        return executados
    }

    static let metricasDosCreditos = TimerMetrics("assinaturas:creditos")
}
