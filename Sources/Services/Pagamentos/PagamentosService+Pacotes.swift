import Domain
import EventStore
import Foundation
import Projections

extension PagamentosService {
    var compras: AggregateStore<CompraDePacote.Command, CompraDePacote.State, CompraDePacote.Event, CompraDePacote.Failure> {
        AggregateStore(store: store, decider: CompraDePacote.decider) {
            try CompraDePacote.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder)
        }
    }

    /// How long a bundle's PIX stays payable (a member buying at the desk pays at once), and its boleto.
    static let prazoDoPixDeCompra: TimeInterval = 86_400
    static let prazoDoBoletoDeCompra: TimeInterval = 3 * 86_400

    /// A member asked for a bundle: its charge is made at the provider (idempotent on the
    /// reference, the purchase's id) and recorded in the purchase's stream.
    func cobrarCompra(_ pedido: CompraDePacote.Solicitada, causa: UUID, meta: EventMetadata) async throws -> [StreamWrite] {
        let stream = StreamNames.compra(pedido.compraId)
        let (state, version) = try await compras.load(stream)
        guard case .existente(let dados) = state, dados.emissao == nil, dados.status == .pendente else { return [] }
        let now = clock.now
        let expiraEm = now.addingTimeInterval(dados.metodo == .boleto ? Self.prazoDoBoletoDeCompra : Self.prazoDoPixDeCompra)
        let referencia = CompraDePacote.referencia(dados.compraId)
        let cobranca = try await provider.criarCobranca(
            PedidoDeCobranca(
                referencia: referencia, valor: Money(centavos: dados.oferta.precoCentavos), metodo: dados.metodo, cartaoToken: dados.cartaoToken,
                descricao: "Pacote \(dados.oferta.nome)", expiraEm: expiraEm))
        let events: [CompraDePacote.Event]
        do {
            events = try CompraDePacote.decider.decide(
                .registrarEmissao(CompraDePacote.Emissao(referencia: referencia, cobranca: cobranca, expiraEm: expiraEm), em: now), state)
        } catch {
            throw ServiceError(error)
        }
        guard !events.isEmpty else { return [] }
        return [
            StreamWrite(
                stream: stream, expected: .after(version), events: try Events.derived(events, from: causa.uppercasedString, at: now, metadata: meta))
        ]
    }

    /// An operator refunded a purchase: the money goes back through the provider (idempotent on
    /// the refund's id, so a redelivered event refunds once). Nothing is recorded here: the
    /// purchase's stream already holds the refund; the provider's notice records that it was
    /// paid out (``receberAvisoDeCompra(_:compra:caller:)``), or, when the notice never comes,
    /// asking the provider does (``conciliarReembolsos(limite:)``).
    func reembolsarCompra(_ reembolso: CompraDePacote.Reembolsada) async throws -> [StreamWrite] {
        guard reembolso.valor > .zero else { return [] }
        try await provider.reembolsar(cobrancaId: reembolso.cobrancaId, reembolsoId: reembolso.reembolsoId, valor: reembolso.valor)
        logger.info(
            "bundle refunded", metadata: ["compra": "\(reembolso.compraId)", "reembolso": "\(reembolso.reembolsoId)", "valor": "\(reembolso.valor)"])
        return []
    }

    /// A provider's notice about a bundle's charge. Paid: the purchase is paid and its credits
    /// granted to the buyer's wallet in one append; declined: recorded; a refund paid out:
    /// recorded when it is the purchase's own (`ReembolsoDeCompraConcluido`, once).
    func receberAvisoDeCompra(_ aviso: AvisoDoProvedor, compra: UUID, caller: Caller) async throws -> RespostaDoWebhook {
        let stream = StreamNames.compra(compra)
        var meta = EventMetadata(correlationId: compra, actor: "provider:sandbox", requestId: caller.requestId, service: Self.service)
        meta.causationId = nil
        let now = clock.now
        let carteiras = AggregateStore(store: store, decider: Carteira.decider) {
            try Carteira.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder)
        }
        for _ in 1...5 {
            let (state, version) = try await compras.load(stream)
            guard case .existente(let dados) = state else {
                throw ServiceError.naoEncontrado("cobrança desconhecida: \(aviso.cobrancaId.prefix(60))")
            }
            guard dados.emissao?.cobranca.cobrancaId == aviso.cobrancaId else {
                // A charge is made before it is recorded: its notice may come first.
                guard dados.emissao == nil else { throw ServiceError.naoEncontrado("cobrança desconhecida: \(aviso.cobrancaId.prefix(60))") }
                throw ServiceError(
                    .indisponivel, codigo: "ainda_nao_registrado", mensagem: "a cobrança deste aviso ainda não foi registrada; tente de novo",
                    retryAfter: 1)
            }
            let command: CompraDePacote.Command
            let status: Pagamento.Status
            switch aviso.tipo {
            case .cobrancaPaga:
                command = .registrarPagamento(cobrancaId: aviso.cobrancaId, em: now)
                status = .confirmado
            case .cobrancaRecusada:
                command = .registrarRecusa(
                    cobrancaId: aviso.cobrancaId, motivo: String((aviso.motivo ?? "recusado pelo provedor").prefix(200)), em: now)
                status = .recusado
            case .reembolsoConcluido:
                guard let reembolsoId = aviso.reembolsoId else {
                    throw ServiceError.requisicaoInvalida("um aviso de reembolso precisa de reembolsoId")
                }
                command = .concluirReembolso(reembolsoId: reembolsoId, em: now)
                status = .cancelado
            }
            let events: [CompraDePacote.Event]
            do { events = try CompraDePacote.decider.decide(command, state) } catch { throw ServiceError(error) }
            guard !events.isEmpty else {
                return RespostaDoWebhook(recebido: true, duplicado: true, pagamentoId: aviso.referencia, status: status)
            }
            var writes = [
                StreamWrite(stream: stream, expected: .after(version), events: try Events.derived(events, from: aviso.id, at: now, metadata: meta))
            ]
            if case .paga(let paga)? = events.first {
                let carteira = StreamNames.creditos(dados.titular)
                let (saldo, versaoDaCarteira) = try await carteiras.load(carteira)
                let concedidos: [Carteira.Event]
                do {
                    concedidos = try Carteira.decider.decide(
                        .conceder(titular: dados.titular, lote: paga.lote, por: "system:pagamentos", em: now), saldo)
                } catch {
                    throw ServiceError(error)
                }
                writes.append(
                    StreamWrite(
                        stream: carteira, expected: .after(versaoDaCarteira),
                        events: try Events.derived(concedidos, from: aviso.id + "|creditos", at: now, metadata: meta)))
            }
            do {
                try await store.append(writes, receipt: caller.receipt)
            } catch is WrongExpectedVersion {
                continue
            }
            logger.info("webhook applied", metadata: ["aviso": "\(aviso.id)", "tipo": "\(aviso.tipo.rawValue)", "compra": "\(compra)"])
            return RespostaDoWebhook(recebido: true, duplicado: false, pagamentoId: aviso.referencia, status: status)
        }
        throw ServiceError.indisponivel("a compra está sendo alterada; tente de novo", retryAfter: 1)
    }
}
