import Domain
import EventStore
import Foundation
import Projections
import Synchronization
import Telemetry

extension PagamentosService {
    // MARK: Refund reconciliation

    /// Asks the provider about every refund of a booking payment, of a bundle purchase or of a
    /// subscription's duplicate payment still not concluded ``PagamentosReadModel/espera`` after
    /// it was asked, and records what it says: paid out → ReembolsoConcluido (a purchase's:
    /// ReembolsoDeCompraConcluido; a subscription's: DevolucaoDeCicloConcluida), as its notice
    /// would have; unknown → asked again (idempotent on the refund id); in processing →
    /// asked again later, at doubling pauses up to an hour.
    /// The notice remains the way a refund normally concludes; this is for one that never
    /// arrives (the provider gave up on our webhook, or its answer was lost). Returns how many
    /// it concluded. A refund whose query fails does not hold up the ones behind it (the first
    /// failure is thrown after they ran).
    @discardableResult
    public func conciliarReembolsos(limite: Int = 200) async throws -> Int {
        let now = clock.now
        let pendentes = try await lerPrazos(
            ReembolsoPendenteView.self, de: PagamentosReadModel.projection, em: PagamentosReadModel.reembolsosPendentes, grupo: "pendente",
            limite: limite, store: store)
        if pendentes.count < limite {
            // Concluded by their notice meanwhile: forgotten.
            let abertos = Set(pendentes.map(\.chave))
            conciliacao.withLock { adiados in adiados = adiados.filter { abertos.contains($0.key) } }
        }
        let vencidos = pendentes.filter { pendente in
            pendente.vence <= now && conciliacao.withLock { ($0[pendente.chave]?.proxima ?? .distantPast) <= now }
        }
        Self.metricasDaConciliacao.found(vencidos.count)
        var concluidos = 0
        var falha: (any Error)?
        for pendente in vencidos {
            do {
                if try await conciliar(pendente, em: now) {
                    concluidos += 1
                    Self.metricasDaConciliacao.fired(late: now.timeIntervalSince(pendente.vence))
                }
            } catch {
                adiar(pendente, em: now)
                falha = falha ?? error
            }
        }
        if let falha { throw falha }
        return concluidos
    }

    /// True when it recorded the refund's conclusion.
    private func conciliar(_ pendente: ReembolsoPendenteView, em now: Date) async throws -> Bool {
        guard let reembolsoId = UUID(uuidString: pendente.reembolsoId) else { return false }
        let compra = CompraDePacote.compra(daReferencia: pendente.pagamentoId)
        let titular = Assinatura.titular(daReferencia: pendente.pagamentoId)
        guard compra != nil || titular != nil || Pagamento.ID(pendente.pagamentoId) != nil else { return false }
        switch try await provider.reembolso(cobrancaId: pendente.cobrancaId, reembolsoId: reembolsoId) {
        case .emProcessamento:
            adiar(pendente, em: now)
            return false
        case .desconhecido:
            // Asked before it was recorded, so the provider lost it: asked again.
            logger.warning(
                "refund unknown to the provider; asking again",
                metadata: ["pagamento": "\(pendente.pagamentoId)", "reembolso": "\(pendente.reembolsoId)"])
            try await provider.reembolsar(cobrancaId: pendente.cobrancaId, reembolsoId: reembolsoId, valor: pendente.valor)
            adiar(pendente, em: now)
            return false
        case .concluido(let valor):
            if valor != pendente.valor {
                logger.warning(
                    "the provider paid out another amount than the refund asked",
                    metadata: ["pagamento": "\(pendente.pagamentoId)", "reembolso": "\(pendente.reembolsoId)", "valor": "\(valor)"])
            }
            let registrado: Bool
            if let compra {
                registrado = try await registrarConclusao(
                    compras, StreamNames.compra(compra), .concluirReembolso(reembolsoId: reembolsoId, em: now), correlacao: compra, pendente,
                    em: now, erro: ServiceError.init)
            } else if let titular {
                registrado = try await registrarConclusao(
                    assinaturas, StreamNames.assinatura(titular), .concluirDevolucao(reembolsoId: reembolsoId, em: now),
                    correlacao: reembolsoId, pendente, em: now, erro: ServiceError.init)
            } else if let id = Pagamento.ID(pendente.pagamentoId) {
                registrado = try await registrarConclusao(
                    pagamentos, Self.stream(id), .concluirReembolso(reembolsoId: reembolsoId, em: now), correlacao: id.rawValue, pendente,
                    em: now, erro: ServiceError.init)
            } else {
                return false
            }
            guard registrado else { return false }
            conciliacao.withLock { $0[pendente.chave] = nil }
            logger.warning(
                "refund concluded by asking the provider: its notice never arrived",
                metadata: ["pagamento": "\(pendente.pagamentoId)", "reembolso": "\(pendente.reembolsoId)"])
            return true
        }
    }

    /// Records what `command` (the refund's conclusion) makes of `stream`, a booking payment's
    /// or a purchase's, once the provider said refund `pendente` was paid out, as its notice
    /// would have: false when there is nothing to record (its notice got there first).
    private func registrarConclusao<Command, State, Event, Failure>(
        _ agregados: AggregateStore<Command, State, Event, Failure>, _ stream: StreamName, _ command: Command, correlacao: UUID,
        _ pendente: ReembolsoPendenteView, em now: Date, erro: (Failure) -> ServiceError
    ) async throws -> Bool {
        var meta = EventMetadata(correlationId: correlacao, actor: "system:conciliacao", requestId: "conciliacao", service: Self.service)
        meta.causationId = nil
        for _ in 1...5 {
            let (state, version) = try await agregados.load(stream)
            let events: [Event]
            do { events = try agregados.decider.decide(command, state) } catch { throw erro(error) }
            guard !events.isEmpty else { return false }
            do {
                try await store.append(
                    to: stream, expected: .after(version),
                    events: try Events.derived(events, from: "conciliacao:\(pendente.reembolsoId)", at: now, metadata: meta))
            } catch is WrongExpectedVersion {
                continue
            }
            return true
        }
        throw ServiceError.indisponivel("o reembolso está sendo registrado; tente de novo", retryAfter: 1)
    }

    /// The next query of a refund still open: 15 s after this one, doubling up to an hour.
    private func adiar(_ pendente: ReembolsoPendenteView, em now: Date) {
        conciliacao.withLock { adiados in
            let tentativas = (adiados[pendente.chave]?.tentativas ?? 0) + 1
            let pausa = min(PagamentosReadModel.espera * pow(2, Double(min(tentativas - 1, 12))), 3_600)
            adiados[pendente.chave] = Conciliacao(tentativas: tentativas, proxima: now.addingTimeInterval(pausa))
        }
    }

    static let metricasDaConciliacao = TimerMetrics("pagamentos:reembolsos")
}

/// When an open refund is next asked about (kept in memory: a process that takes the timer
/// over asks about every due refund once, then spaces them out again).
struct Conciliacao: Sendable {
    let tentativas: Int
    let proxima: Date
}
