import Domain
import EventStore
public import Foundation
import Projections

extension PagamentosService {
    var assinaturas: AggregateStore<Assinatura.Command, Assinatura.State, Assinatura.Event, Assinatura.Failure> {
        AggregateStore(store: store, decider: Assinatura.decider) {
            try Assinatura.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder)
        }
    }

    /// How long a PIX or boleto charge of a cycle stays payable.
    static let prazoDaCobrancaDeCiclo: TimeInterval = 10 * 86_400

    /// A subscription's cycle opened with something to pay, or a failed charge's retry is due:
    /// the charge is made at the provider (idempotent on its reference, which names the
    /// holder, the cycle and the attempt) and recorded in the subscription's stream.
    func cobrarCiclo(_ event: Assinatura.Event, causa: UUID, meta: EventMetadata) async throws -> [StreamWrite] {
        let (titular, numero, tentativa): (String, Int, Int)
        switch event {
        case .cicloIniciado(let e) where e.ciclo.valorCentavos > 0: (titular, numero, tentativa) = (e.titular, e.ciclo.numero, 1)
        case .cobrancaReapresentada(let e): (titular, numero, tentativa) = (e.titular, e.ciclo, e.tentativa)
        default: return []
        }
        let stream = StreamNames.assinatura(titular)
        let (state, version) = try await assinaturas.load(stream)
        guard let dados = state.dados, dados.status != .encerrada, !dados.pagos.contains(numero),
            (dados.tentativasPedidas[numero] ?? 0) == tentativa,
            !(dados.emissoes[numero] ?? []).contains(where: { $0.tentativa >= tentativa }),
            let ciclo = numero == dados.ciclo?.numero ? dados.ciclo : nil
        else { return [] }
        let metodo: MetodoDePagamento =
            switch dados.cobranca.metodo {
            case .cartao: .cartao
            // PIX Automático: a PIX charge the sandbox settles when the payer's bank pays it.
            case .pixAutomatico: .pix
            case .boleto: .boleto
            }
        let referencia = Assinatura.referencia(titular: titular, ciclo: numero, tentativa: tentativa)
        let cobranca = try await provider.criarCobranca(
            PedidoDeCobranca(
                referencia: referencia, valor: Money(centavos: ciclo.valorCentavos), metodo: metodo, cartaoToken: dados.cobranca.cartaoToken,
                descricao: "Plano \(ciclo.plano.nome), ciclo \(numero) (\(ciclo.inicio.brasileira))",
                expiraEm: clock.now.addingTimeInterval(Self.prazoDaCobrancaDeCiclo)))
        let emissao = Assinatura.Emissao(
            ciclo: numero, tentativa: tentativa, referencia: referencia, cobranca: cobranca, valorCentavos: ciclo.valorCentavos)
        let events: [Assinatura.Event]
        do {
            events = try Assinatura.decider.decide(.registrarEmissao(emissao, em: clock.now), state)
        } catch {
            throw ServiceError(error)
        }
        guard !events.isEmpty else { return [] }
        return [
            StreamWrite(
                stream: stream, expected: .after(version),
                events: try Events.derived(events, from: causa.uppercasedString, at: clock.now, metadata: meta))
        ]
    }

    /// An operator recorded a cycle as paid (a transfer, cash): its charges still open at the
    /// provider are withdrawn, so the member cannot pay twice; one the member paid there all
    /// the same (before the withdrawal, or its notice not yet in) is refunded whole, recorded in
    /// the subscription's stream. A payment the provider reported is left alone.
    func retirarCobrancas(_ paga: Assinatura.CobrancaConfirmada, causa: UUID, meta: EventMetadata) async throws -> [StreamWrite] {
        guard paga.cobrancaId == nil else { return [] }
        let stream = StreamNames.assinatura(paga.titular)
        let (state, version) = try await assinaturas.load(stream)
        guard let dados = state.dados else { return [] }
        var events: [Assinatura.Event] = []
        for emissao in dados.emissoes[paga.ciclo] ?? [] {
            let cobrancaId = emissao.cobranca.cobrancaId
            guard case .paga(let valor) = try await provider.cancelarCobranca(cobrancaId) else { continue }
            let reembolsoId = Self.devolucaoId(cobrancaId: cobrancaId)
            try await provider.reembolsar(cobrancaId: cobrancaId, reembolsoId: reembolsoId, valor: valor)
            events.append(
                .duplicadoDevolvido(
                    Assinatura.PagamentoDuplicadoDevolvido(
                        assinaturaId: dados.assinaturaId, titular: paga.titular, ciclo: paga.ciclo, cobrancaId: cobrancaId, reembolsoId: reembolsoId,
                        valorCentavos: valor.centavos, em: clock.now)))
        }
        guard !events.isEmpty else { return [] }
        return [
            StreamWrite(
                stream: stream, expected: .after(version),
                events: try Events.derived(events, from: causa.uppercasedString, at: clock.now, metadata: meta))
        ]
    }

    /// The refund a duplicate payment of charge `cobrancaId` is given back under: one per charge,
    /// so asking again (a reaction run twice, the reconciliation) is the same refund.
    public static func devolucaoId(cobrancaId: String) -> UUID { Events.derivedId("devolucao-de-ciclo", cobrancaId) }

    /// A provider's notice about a subscription's charge: paid, or declined (which starts or
    /// continues dunning), or a duplicate payment's refund paid out
    /// (`DevolucaoDeCicloConcluida`, once), recorded in the subscription's stream.
    func receberAvisoDeAssinatura(_ aviso: AvisoDoProvedor, caller: Caller) async throws -> RespostaDoWebhook {
        guard let (titular, numero, _) = Assinatura.referencia(aviso.referencia) else {
            throw ServiceError.naoEncontrado("cobrança desconhecida: \(aviso.cobrancaId.prefix(60))")
        }
        let stream = StreamNames.assinatura(titular)
        var meta = EventMetadata(actor: "provider:sandbox", requestId: caller.requestId, service: Self.service)
        meta.causationId = nil
        let now = clock.now
        for _ in 1...5 {
            let (state, version) = try await assinaturas.load(stream)
            guard let dados = state.dados, (dados.emissoes[numero] ?? []).contains(where: { $0.cobranca.cobrancaId == aviso.cobrancaId }) else {
                // A charge is made before it is recorded: its notice may come first.
                throw ServiceError(
                    .indisponivel, codigo: "ainda_nao_registrado", mensagem: "a cobrança deste aviso ainda não foi registrada; tente de novo",
                    retryAfter: 1)
            }
            let command: Assinatura.Command
            switch aviso.tipo {
            case .cobrancaPaga: command = .registrarPagamento(ciclo: numero, cobrancaId: aviso.cobrancaId, em: now)
            case .cobrancaRecusada:
                command = .registrarRecusa(
                    ciclo: numero, cobrancaId: aviso.cobrancaId, motivo: String((aviso.motivo ?? "recusado pelo provedor").prefix(200)), em: now)
            case .reembolsoConcluido:
                // Only a duplicate payment is refunded (``retirarCobrancas``).
                guard let reembolsoId = aviso.reembolsoId else {
                    throw ServiceError.requisicaoInvalida("um aviso de reembolso precisa de reembolsoId")
                }
                if dados.devolucoes[reembolsoId] == nil, reembolsoId == Self.devolucaoId(cobrancaId: aviso.cobrancaId) {
                    // The refund is asked for before it is recorded: its notice may come first.
                    throw ServiceError(
                        .indisponivel, codigo: "ainda_nao_registrado", mensagem: "o reembolso deste aviso ainda não foi registrado; tente de novo",
                        retryAfter: 1)
                }
                command = .concluirDevolucao(reembolsoId: reembolsoId, em: now)
            }
            let events: [Assinatura.Event]
            do { events = try Assinatura.decider.decide(command, state) } catch { throw ServiceError(error) }
            let status: Pagamento.Status =
                switch aviso.tipo {
                case .cobrancaPaga: .confirmado
                case .cobrancaRecusada: .recusado
                case .reembolsoConcluido: .cancelado
                }
            guard !events.isEmpty else { return RespostaDoWebhook(recebido: true, duplicado: true, pagamentoId: aviso.referencia, status: status) }
            do {
                try await store.append(
                    to: stream, expected: .after(version), events: try Events.derived(events, from: aviso.id, at: now, metadata: meta),
                    receipt: caller.receipt)
            } catch is WrongExpectedVersion {
                continue
            }
            logger.info("webhook applied", metadata: ["aviso": "\(aviso.id)", "tipo": "\(aviso.tipo.rawValue)", "assinatura": "\(titular)"])
            return RespostaDoWebhook(recebido: true, duplicado: false, pagamentoId: aviso.referencia, status: status)
        }
        throw ServiceError.indisponivel("a assinatura está sendo alterada; tente de novo", retryAfter: 1)
    }
}
