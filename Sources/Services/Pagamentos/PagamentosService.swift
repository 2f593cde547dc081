public import Domain
public import EventStore
public import Foundation
import Messaging
public import Logging
import Projections

/// The pagamentos service: one payment per booking (`pagamento-<reservaId>`), charged at the
/// provider when the booking is requested, settled by the provider's signed webhook.
///
/// Reactions (queue `coworkflow.pagamentos`): ReservaSolicitada → charge; ReservaExpirada or
/// ReservaCancelada → withdraw a pending charge, or refund what the cancellation gives back.
/// Provider calls happen before the effect commits and are idempotent on our ids, so a
/// redelivered event asks again and gets the same answer.
public final class PagamentosService: Sendable {
    let store: any ServiceStore
    let clock: any WallClock
    let provider: any PaymentProvider
    let segredoDoWebhook: Data
    let logger: Logger
    /// Whether the member's account was erased (LGPD): a booking made in the instant before
    /// the erasure is not charged, but declined, which releases it.
    let contas: ContasApagadas

    public static let consumidor = "pagamentos"
    public static let bindings = [Topology.routingKey(Reserva.Catalogo.solicitada), Topology.routingKey(Reserva.Catalogo.expirada), Topology.routingKey(Reserva.Catalogo.cancelada)]
    static let service = "pagamentos"

    public init(
        store: any ServiceStore, clock: any WallClock, provider: any PaymentProvider, segredoDoWebhook: Data, logger: Logger,
        contas: ContasApagadas = .nenhuma
    ) {
        self.contas = contas
        self.store = store
        self.clock = clock
        self.provider = provider
        self.segredoDoWebhook = segredoDoWebhook
        self.logger = logger
    }

    var pagamentos: AggregateStore<Pagamento.Command, Pagamento.State, Pagamento.Event, Pagamento.Failure> {
        AggregateStore(store: store, decider: Pagamento.decider) { try Pagamento.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder) }
    }

    static func stream(_ id: Pagamento.ID) -> StreamName { StreamName(category: "pagamento", id: id.description) }

    // MARK: Reactions

    public func reagir(_ event: RecordedEvent) async throws -> [StreamWrite] {
        guard let reservaEvent = try Reserva.Event.decode(type: event.type, data: event.data, using: EventJSON.decoder) else { return [] }
        var meta = event.metadata.caused(by: event.eventId, correlationId: event.metadata.correlationId)
        meta.service = Self.service
        meta.actor = "system:pagamentos"
        switch reservaEvent {
        case .solicitada(let solicitada):
            return try await cobrar(solicitada, causa: event.eventId, meta: meta)
        case .expirada(let expirada):
            return try await encerrar(
                Pagamento.ID(expirada.reservaId.rawValue), reembolso: nil, motivo: "reserva expirada sem pagamento", causa: event.eventId, meta: meta)
        case .cancelada(let cancelada):
            // Cancelled before it was confirmed (`pago` 0): no fee applies, and a payment that
            // landed meanwhile (its confirmation had not yet reached reservas) goes back whole.
            let reembolso = cancelada.pago == .zero ? nil : cancelada.reembolso
            return try await encerrar(
                Pagamento.ID(cancelada.reservaId.rawValue), reembolso: reembolso, motivo: "reserva cancelada", causa: event.eventId,
                meta: meta)
        case .confirmada, .concluida:
            return []
        }
    }

    private func cobrar(_ reserva: Reserva.Solicitada, causa: UUID, meta: EventMetadata) async throws -> [StreamWrite] {
        let id = Pagamento.ID(reserva.reservaId.rawValue)
        let stream = Self.stream(id)
        // The payment's stream, what the booking did after its request, and the member's
        // account, in one round trip.
        let booking = StreamNames.reserva(reserva.reservaId)
        let prefetched = try await Prefetched.read(
            [pagamentos.read(stream), StreamRead(booking, from: 2)] + [contas.leitura(reserva.usuarioId)].compactMap { $0 }, from: store)
        let (state, version) = try await pagamentos.load(stream, prefetched: prefetched)
        guard case .inexistente = state else { return [] }
        // The booking moved on before it was charged: cancelled or expired while this request
        // waited (dead-lettered while the provider was down, then redriven), or confirmed by an
        // operator. Its end found no payment to withdraw, so a charge now would never be.
        if let later = prefetched.events(of: booking, after: 1), let first = later.first {
            logger.info("booking moved on before its charge: not charged", metadata: [
                "reserva": "\(reserva.reservaId)", "evento": "\(first.type)",
            ])
            return []
        }
        let forma = reserva.pagamento ?? Reserva.FormaDePagamento(metodo: .pix)
        let pedido = Pagamento.Pedido(
            pagamentoId: id, reservaId: reserva.reservaId.rawValue, usuarioId: reserva.usuarioId, unidadeId: reserva.unidadeId,
            espacoId: reserva.espacoId, valor: reserva.total, expiraEm: reserva.expiraEm)
        if try await contas.apagada(reserva.usuarioId, prefetched) {
            let events = try decide(.recusarSemCobrar(pedido, metodo: forma.metodo, motivo: "a conta do membro foi excluída", em: clock.now), state)
            return [StreamWrite(stream: stream, expected: .after(version), events: try Events.derived(events, from: causa.uuidString, at: clock.now, metadata: meta))]
        }
        var cobranca: Pagamento.Cobranca?
        if reserva.total > .zero {
            cobranca = try await provider.criarCobranca(PedidoDeCobranca(
                referencia: id.description, valor: reserva.total, metodo: forma.metodo, cartaoToken: forma.cartaoToken,
                descricao: "Reserva \(reserva.reservaId)",
                // A boleto falls due a day before the hold ends: paid on its due date, it
                // still reaches us in time.
                expiraEm: forma.metodo == .boleto ? reserva.expiraEm.addingTimeInterval(-Pagamento.Boleto.compensacao) : reserva.expiraEm))
        }
        let events = try decide(.iniciar(pedido, cobranca: cobranca, metodo: forma.metodo, em: clock.now), state)
        return [StreamWrite(stream: stream, expected: .after(version), events: try Events.derived(events, from: causa.uuidString, at: clock.now, metadata: meta))]
    }

    /// The booking ended: withdraw the charge if unpaid; refund `reembolso` (nil: everything —
    /// the booking expired, or was cancelled before its payment's confirmation reached it) if paid.
    private func encerrar(_ id: Pagamento.ID, reembolso: Money?, motivo: String, causa: UUID, meta: EventMetadata) async throws -> [StreamWrite] {
        let stream = Self.stream(id)
        let (state, version) = try await pagamentos.load(stream)
        guard case .existente(let dados) = state else { return [] }
        let now = clock.now
        let events: [Pagamento.Event]
        switch dados.status {
        case .pendente:
            if let cobranca = dados.inicio.cobrancaId, case .paga(let valor) = try await provider.cancelarCobranca(cobranca) {
                // Paid, but its notice never reached us (the webhook failed until the provider
                // gave up): the booking is over, so the payment is recorded and given back whole,
                // as a payment arriving after its booking expired is.
                let confirmado = try decide(.confirmar(cobrancaId: cobranca, valor: valor, em: now), state)
                let reembolsoId = Events.derivedId("reembolso", causa)
                events = confirmado + (try decide(
                    .reembolsar(reembolsoId: reembolsoId, valor: nil, motivo: motivo, em: now), confirmado.reduce(state, Pagamento.decider.evolve)))
                try await provider.reembolsar(cobrancaId: cobranca, reembolsoId: reembolsoId, valor: valor)
            } else {
                events = try decide(.cancelar(motivo: motivo, em: now), state)
            }
        case .confirmado:
            let valor = min(reembolso ?? dados.disponivel, dados.disponivel)
            guard valor > .zero else { return [] }
            let reembolsoId = Events.derivedId("reembolso", causa)
            events = try decide(.reembolsar(reembolsoId: reembolsoId, valor: valor, motivo: motivo, em: now), state)
            if let cobranca = dados.inicio.cobrancaId, !events.isEmpty {
                try await provider.reembolsar(cobrancaId: cobranca, reembolsoId: reembolsoId, valor: valor)
            }
        case .recusado, .cancelado:
            return []
        }
        guard !events.isEmpty else { return [] }
        return [StreamWrite(stream: stream, expected: .after(version), events: try Events.derived(events, from: causa.uuidString, at: now, metadata: meta))]
    }

    private func decide(_ command: Pagamento.Command, _ state: Pagamento.State) throws -> [Pagamento.Event] {
        do {
            return try Pagamento.decider.decide(command, state)
        } catch {
            throw ServiceError(error)
        }
    }

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
            case .ausente: throw ServiceError(.naoAutenticado, codigo: "assinatura_ausente", mensagem: "envie a assinatura em \(AssinaturaDeWebhook.cabecalho)")
            case .malformada:
                throw ServiceError(.naoAutenticado, codigo: "assinatura_invalida", mensagem: "\(AssinaturaDeWebhook.cabecalho) deve ser t=<segundos>,v1=<hmac hex>")
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
        guard let id = Pagamento.ID(aviso.referencia) else { throw ServiceError.naoEncontrado("cobrança desconhecida: \(aviso.cobrancaId.prefix(60))") }
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
                    let motivo = dados.status == .recusado ? "pago depois de recusado; a reserva já fora liberada" : "pago depois de a reserva expirar"
                    events += try decide(.reembolsar(reembolsoId: reembolsoId, valor: nil, motivo: motivo, em: now), after)
                    try await provider.reembolsar(cobrancaId: aviso.cobrancaId, reembolsoId: reembolsoId, valor: aviso.valor)
                }
            case .cobrancaRecusada:
                // The provider's words, bounded: they travel into the booking, the inbox and an e-mail.
                let motivo = String((aviso.motivo ?? "recusado pelo provedor").prefix(500))
                events = try decide(.recusar(cobrancaId: aviso.cobrancaId, motivo: motivo, em: now), state)
            case .reembolsoConcluido:
                guard let reembolsoId = aviso.reembolsoId else { throw ServiceError.requisicaoInvalida("um aviso de reembolso precisa de reembolsoId") }
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
                try await store.append(to: stream, expected: .after(version), events: try Events.derived(events, from: aviso.id, at: now, metadata: meta))
            } catch is WrongExpectedVersion {
                continue
            }
            guard case .existente(let depois) = events.reduce(state, Pagamento.decider.evolve) else { break }
            logger.info("webhook applied", metadata: ["aviso": "\(aviso.id)", "tipo": "\(aviso.tipo.rawValue)", "pagamento": "\(id)"])
            return RespostaDoWebhook(recebido: true, duplicado: false, pagamentoId: id.description, status: depois.status)
        }
        throw ServiceError.indisponivel("o pagamento está sendo alterado; tente de novo", retryAfter: 1)
    }

    // MARK: Queries

    /// The payment of a booking, as its member (or an admin) sees it. Read from its stream: a
    /// handful of events, and the member polls it right after booking.
    public func pagamento(reserva texto: String, usuario: String, admin: Bool) async throws -> PagamentoView {
        guard let reservaId = Reserva.ID(texto) else { throw ServiceError.naoEncontrado("a reserva \(texto.prefix(60)) não existe") }
        let (state, _) = try await pagamentos.load(Self.stream(Pagamento.ID(reservaId.rawValue)))
        guard case .existente(let dados) = state else {
            // The charge is created just after the booking: say so while it is on its way.
            let reserva = try await store.readStream(StreamNames.reserva(reservaId))
            guard let first = reserva.first,
                let solicitada = try? EventJSON.decoder.decode(Reserva.Solicitada.self, from: first.data),
                admin || solicitada.usuarioId == usuario
            else { throw ServiceError.naoEncontrado("a reserva \(reservaId) não existe") }
            return PagamentoView(aguardando: solicitada)
        }
        guard admin || dados.inicio.usuarioId == usuario else { throw ServiceError.naoEncontrado("a reserva \(reservaId) não existe") }
        return PagamentoView(dados)
    }
}

/// A booking's payment as clients read it. `status` is `aguardando_cobranca` for the moment
/// between the booking and its charge.
public struct PagamentoView: Codable, Sendable, Equatable {
    public struct ReembolsoView: Codable, Sendable, Equatable {
        public let id: String
        public let valor: Money
        public let concluido: Bool
    }

    public let id: String
    public let reservaId: String
    public let status: String
    public let metodo: MetodoDePagamento?
    public let valor: Money
    public let cobrancaId: String?
    public let pix: Pagamento.Pix?
    public let boleto: Pagamento.Boleto?
    public let expiraEm: Date?
    public let confirmadoEm: Date?
    public let motivo: String?
    public let reembolsos: [ReembolsoView]
    public let reembolsado: Money

    init(_ d: Pagamento.Dados) {
        id = d.id.description
        reservaId = d.inicio.reservaId.uuidString.lowercased()
        status = d.status.rawValue
        metodo = d.inicio.metodo
        valor = d.valor
        cobrancaId = d.inicio.cobrancaId
        pix = d.inicio.pix
        boleto = d.inicio.boleto
        expiraEm = d.status == .pendente ? d.inicio.expiraEm : nil
        confirmadoEm = d.confirmadoEm
        motivo = d.motivo
        reembolsos = d.reembolsos.map { ReembolsoView(id: $0.reembolsoId.uuidString.lowercased(), valor: $0.valor, concluido: $0.concluido) }
        reembolsado = d.reembolsos.filter(\.concluido).reduce(.zero) { $0 + $1.valor }
    }

    init(aguardando reserva: Reserva.Solicitada) {
        id = reserva.reservaId.description
        reservaId = reserva.reservaId.description
        status = "aguardando_cobranca"
        metodo = reserva.pagamento?.metodo ?? .pix
        valor = reserva.total
        cobrancaId = nil
        pix = nil
        boleto = nil
        expiraEm = reserva.expiraEm
        confirmadoEm = nil
        motivo = nil
        reembolsos = []
        reembolsado = .zero
    }
}

/// Whether a member's account was erased, answered from a read made together with others
/// (``Prefetched``): the read to add, and the answer from it.
public struct ContasApagadas: Sendable {
    /// The account's read (nil: nothing to read).
    let leitura: @Sendable (String) -> StreamRead?
    let apagada: @Sendable (String, Prefetched) async throws -> Bool

    /// No account is ever erased (a service without usuarios' events: tests).
    public static let nenhuma = ContasApagadas(leitura: { _ in nil }, apagada: { _, _ in false })

    /// The accounts of `usuarios`.
    public static func de(_ usuarios: UsuariosService) -> ContasApagadas {
        ContasApagadas(leitura: { usuarios.leituraDaConta($0) }, apagada: { try await usuarios.apagada(usuario: $0, prefetched: $1) })
    }
}
