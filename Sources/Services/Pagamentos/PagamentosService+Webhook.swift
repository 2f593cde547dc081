public import Domain
import EventStore
public import Foundation
import Projections

extension PagamentosService {
    // MARK: Webhook

    /// What the webhook answered.
    public struct RespostaDoWebhook: Codable, Sendable, Equatable {
        public let recebido: Bool
        /// The notice had been applied before (a replay or a retry).
        public let duplicado: Bool
        public let pagamentoId: String
        public let status: Pagamento.Status
    }

    /// Applies a provider's notice after checking its signature: 401 for a missing, bad or
    /// stale signature (logged), 400 for a body that is not a notice, 404 for a charge we do
    /// not know; a notice applied before answers 200 again and changes nothing.
    public func receberAviso(_ corpo: Data, assinatura: String?, caller: Caller) async throws -> RespostaDoWebhook {
        let now = clock.now
        do {
            try AssinaturaDeWebhook.verificar(corpo, cabecalho: assinatura, segredo: segredoDoWebhook, agora: now)
        } catch {
            logger.warning("webhook refused", metadata: ["motivo": "\(error)", "request": "\(caller.requestId)"])
            switch error {
            case .ausente:
                throw ServiceError(.naoAutenticado, codigo: "assinatura_ausente", mensagem: "envie a assinatura em \(AssinaturaDeWebhook.cabecalho)")
            case .malformada:
                throw ServiceError(
                    .naoAutenticado, codigo: "assinatura_invalida", mensagem: "\(AssinaturaDeWebhook.cabecalho) deve ser t=<segundos>,v1=<hmac hex>")
            case .expirada(let segundos):
                throw ServiceError(
                    .naoAutenticado, codigo: "assinatura_expirada", mensagem: "o aviso foi assinado há mais de 5 minutos (ou no futuro)",
                    detalhes: ["idadeSegundos": String(segundos)])
            case .invalida: throw ServiceError(.naoAutenticado, codigo: "assinatura_invalida", mensagem: "a assinatura não confere com o corpo")
            }
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let aviso = try? decoder.decode(AvisoDoProvedor.self, from: corpo) else {
            throw ServiceError.requisicaoInvalida("o corpo não é um aviso do provedor (id, tipo, cobrancaId, referencia, valor, criadoEm)")
        }
        if aviso.referencia.hasPrefix("assinatura:") { return try await receberAvisoDeAssinatura(aviso, caller: caller) }
        if let compra = CompraDePacote.compra(daReferencia: aviso.referencia) {
            return try await receberAvisoDeCompra(aviso, compra: compra, caller: caller)
        }
        guard let id = Pagamento.ID(aviso.referencia) else {
            throw ServiceError.naoEncontrado("cobrança desconhecida: \(aviso.cobrancaId.prefix(60))")
        }
        let stream = Self.stream(id)
        var meta = EventMetadata(correlationId: id.rawValue, actor: "provider:sandbox", requestId: caller.requestId, service: Self.service)
        meta.causationId = nil
        // A signed notice can arrive before the reaction that asked the provider has committed
        // (the charge or refund is made first, then recorded): that is "not yet", a status the
        // provider retries, not a final 404.
        let aindaNao = ServiceError(
            .indisponivel, codigo: "ainda_nao_registrado", mensagem: "o pagamento deste aviso ainda não foi registrado; tente de novo",
            retryAfter: 1)
        for _ in 1...5 {
            let (state, version) = try await pagamentos.load(stream)
            if case .inexistente = state {
                // No booking behind it either: a charge of ours is made only for a booking
                // already stored, so this one will never be recorded; a retry cannot help.
                guard try await store.streamVersion(StreamNames.reserva(Reserva.ID(id.rawValue))) > 0 else {
                    throw ServiceError.naoEncontrado("cobrança desconhecida: \(aviso.cobrancaId.prefix(60))")
                }
                throw aindaNao
            }
            guard case .existente(let dados) = state, dados.inicio.cobrancaId == aviso.cobrancaId else {
                throw ServiceError.naoEncontrado("cobrança desconhecida: \(aviso.cobrancaId.prefix(60))")
            }
            var events: [Pagamento.Event]
            switch aviso.tipo {
            case .cobrancaPaga:
                events = try decide(.confirmar(cobrancaId: aviso.cobrancaId, valor: aviso.valor, em: now), state)
                if dados.status == .cancelado || dados.status == .recusado, !events.isEmpty {
                    // Paid after its booking ended (expired, or released on the decline): the
                    // money goes back at once.
                    let reembolsoId = Events.derivedId("reembolso", aviso.id)
                    let after = events.reduce(state, Pagamento.decider.evolve)
                    let motivo =
                        dados.status == .recusado ? "pago depois de recusado; a reserva já fora liberada" : "pago depois de a reserva expirar"
                    events += try decide(.reembolsar(reembolsoId: reembolsoId, valor: nil, motivo: motivo, em: now), after)
                    try await provider.reembolsar(cobrancaId: aviso.cobrancaId, reembolsoId: reembolsoId, valor: aviso.valor)
                }
            case .cobrancaRecusada:
                // The provider's words, bounded: they travel into the booking, the inbox and an e-mail.
                let motivo = String((aviso.motivo ?? "recusado pelo provedor").prefix(500))
                events = try decide(.recusar(cobrancaId: aviso.cobrancaId, motivo: motivo, em: now), state)
            case .reembolsoConcluido:
                guard let reembolsoId = aviso.reembolsoId else {
                    throw ServiceError.requisicaoInvalida("um aviso de reembolso precisa de reembolsoId")
                }
                do {
                    events = try Pagamento.decider.decide(.concluirReembolso(reembolsoId: reembolsoId, em: now), state)
                } catch .reembolsoDesconhecido {
                    throw aindaNao
                } catch {
                    throw ServiceError(error)
                }
            }
            guard !events.isEmpty else {
                return RespostaDoWebhook(recebido: true, duplicado: true, pagamentoId: id.description, status: dados.status)
            }
            do {
                try await store.append(
                    to: stream, expected: .after(version), events: try Events.derived(events, from: aviso.id, at: now, metadata: meta),
                    receipt: caller.receipt)
            } catch is WrongExpectedVersion {
                continue
            }
            guard case .existente(let depois) = events.reduce(state, Pagamento.decider.evolve) else { break }
            logger.info("webhook applied", metadata: ["aviso": "\(aviso.id)", "tipo": "\(aviso.tipo.rawValue)", "pagamento": "\(id)"])
            return RespostaDoWebhook(recebido: true, duplicado: false, pagamentoId: id.description, status: depois.status)
        }
        throw ServiceError.indisponivel("o pagamento está sendo alterado; tente de novo", retryAfter: 1)
    }
}
