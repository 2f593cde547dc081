import Domain
public import EventStore
import Foundation
import Projections

extension PagamentosService {
    // MARK: Reactions

    /// What handles `events` (any of them, as ``reagir(_:)`` does) with one read of the store
    /// for the charges of all the bookings among them, instead of one read per booking.
    public func lerAntes(_ events: [RecordedEvent]) async throws -> @Sendable (RecordedEvent) async throws -> [StreamWrite] {
        var pedidos: [UUID: Reserva.Solicitada] = [:]
        for event in events where event.type == Reserva.Catalogo.solicitada.type {
            if case .solicitada(let solicitada)? = try? Reserva.Event.decode(type: event.type, data: event.data, using: EventJSON.decoder) {
                pedidos[event.eventId] = solicitada
            }
        }
        guard !pedidos.isEmpty else { return { try await self.reagir($0) } }
        let lidos = try await Prefetched.read(pedidos.values.flatMap(leiturasDaCobranca), from: store)
        return { [pedidos] event in
            guard let solicitada = pedidos[event.eventId] else { return try await self.reagir(event) }
            return try await self.cobrar(solicitada, causa: event.eventId, meta: self.metadados(causadosPor: event), lidos: lidos)
        }
    }

    /// The metadata of what pagamentos writes in reaction to `event`.
    private func metadados(causadosPor event: RecordedEvent) -> EventMetadata {
        var meta = event.metadata.caused(by: event.eventId, correlationId: event.metadata.correlationId)
        meta.service = Self.service
        meta.actor = "system:pagamentos"
        return meta
    }

    public func reagir(_ event: RecordedEvent) async throws -> [StreamWrite] {
        if let assinatura = try Assinatura.Event.decode(type: event.type, data: event.data, using: EventJSON.decoder) {
            let meta = metadados(causadosPor: event)
            if case .cobrancaConfirmada(let paga) = assinatura {
                return try await retirarCobrancas(paga, causa: event.eventId, meta: meta)
            }
            return try await cobrarCiclo(assinatura, causa: event.eventId, meta: meta)
        }
        if let compra = try CompraDePacote.Event.decode(type: event.type, data: event.data, using: EventJSON.decoder) {
            let meta = metadados(causadosPor: event)
            switch compra {
            case .solicitada(let pedido): return try await cobrarCompra(pedido, causa: event.eventId, meta: meta)
            case .reembolsada(let reembolso): return try await reembolsarCompra(reembolso)
            default: return []
            }
        }
        guard let reservaEvent = try Reserva.Event.decode(type: event.type, data: event.data, using: EventJSON.decoder) else { return [] }
        let meta = metadados(causadosPor: event)
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
            // A booking paid at the desk is cancelled by an operator there (reservas refuses the
            // member's own), who hands the money back now; one the system cancels (an erased
            // account) leaves its refund to the desk.
            return try await encerrar(
                Pagamento.ID(cancelada.reservaId.rawValue), reembolso: reembolso, motivo: "reserva cancelada", causa: event.eventId,
                meta: meta, devolvidoNaRecepcao: !cancelada.por.hasPrefix("system:"))
        case .confirmada, .concluida, .remarcada:
            return []  // a move keeps the payment as it is (ADR 0021)
        }
    }

    /// What charging `reserva` reads: the payment's stream, what the booking did after its
    /// request, and the member's account.
    private func leiturasDaCobranca(_ reserva: Reserva.Solicitada) -> [StreamRead] {
        [pagamentos.read(Self.stream(Pagamento.ID(reserva.reservaId.rawValue))), StreamRead(StreamNames.reserva(reserva.reservaId), from: 2)]
            + [contas.leitura(reserva.usuarioId)].compactMap { $0 }
    }

    /// `lidos`: a read made ahead for this and other charges (``lerAntes(_:)``), used when it
    /// covers what this one reads; otherwise that is read now, in one round trip.
    private func cobrar(_ reserva: Reserva.Solicitada, causa: UUID, meta: EventMetadata, lidos: Prefetched? = nil) async throws -> [StreamWrite] {
        let id = Pagamento.ID(reserva.reservaId.rawValue)
        let stream = Self.stream(id)
        let booking = StreamNames.reserva(reserva.reservaId)
        let leituras = leiturasDaCobranca(reserva)
        let prefetched = if let lidos, lidos.covers(leituras) { lidos } else { try await Prefetched.read(leituras, from: store) }
        let (state, version) = try await pagamentos.load(stream, prefetched: prefetched)
        guard case .inexistente = state else { return [] }
        // The booking moved on before it was charged: cancelled or expired while this request
        // waited (dead-lettered while the provider was down, then redriven), or confirmed by an
        // operator. Its end found no payment to withdraw, so a charge now would never be.
        if let later = prefetched.events(of: booking, after: 1), let first = later.first {
            logger.info(
                "booking moved on before its charge: not charged",
                metadata: [
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
            return [
                StreamWrite(
                    stream: stream, expected: .after(version),
                    events: try Events.derived(events, from: causa.uppercasedString, at: clock.now, metadata: meta))
            ]
        }
        var cobranca: Pagamento.Cobranca?
        // Paid at the reception (an operator said so when booking): nothing for the provider to
        // charge, so the payment is confirmed as it starts.
        if reserva.total > .zero, forma.metodo != .manual {
            cobranca = try await provider.criarCobranca(
                PedidoDeCobranca(
                    referencia: id.description, valor: reserva.total, metodo: forma.metodo, cartaoToken: forma.cartaoToken,
                    descricao: "Reserva \(reserva.reservaId)",
                    // A boleto falls due a day before the hold ends: paid on its due date, it
                    // still reaches us in time.
                    expiraEm: forma.metodo == .boleto ? reserva.expiraEm.addingTimeInterval(-Pagamento.Boleto.compensacao) : reserva.expiraEm))
        }
        let events = try decide(.iniciar(pedido, cobranca: cobranca, metodo: forma.metodo, em: clock.now), state)
        return [
            StreamWrite(
                stream: stream, expected: .after(version),
                events: try Events.derived(events, from: causa.uppercasedString, at: clock.now, metadata: meta))
        ]
    }

    /// The booking ended: withdraw the charge if unpaid; refund `reembolso` (nil: everything —
    /// the booking expired, or was cancelled before its payment's confirmation reached it) if paid.
    /// `devolvidoNaRecepcao`: a refund of a payment made at the desk is handed back there as the
    /// operator cancels, so it is concluded in the same append.
    private func encerrar(
        _ id: Pagamento.ID, reembolso: Money?, motivo: String, causa: UUID, meta: EventMetadata, devolvidoNaRecepcao: Bool = false
    ) async throws -> [StreamWrite] {
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
                events =
                    confirmado
                    + (try decide(
                        .reembolsar(reembolsoId: reembolsoId, valor: nil, motivo: motivo, em: now), confirmado.reduce(state, Pagamento.decider.evolve)
                    ))
                try await provider.reembolsar(cobrancaId: cobranca, reembolsoId: reembolsoId, valor: valor)
            } else {
                events = try decide(.cancelar(motivo: motivo, em: now), state)
            }
        case .confirmado:
            let valor = min(reembolso ?? dados.disponivel, dados.disponivel)
            guard valor > .zero else { return [] }
            let reembolsoId = Events.derivedId("reembolso", causa)
            let solicitado = try decide(.reembolsar(reembolsoId: reembolsoId, valor: valor, motivo: motivo, em: now), state)
            if dados.inicio.metodo == .manual, devolvidoNaRecepcao, !solicitado.isEmpty {
                // Paid at the desk, given back at the desk: no provider to wait for.
                events =
                    solicitado
                    + (try decide(.concluirReembolso(reembolsoId: reembolsoId, em: now), solicitado.reduce(state, Pagamento.decider.evolve)))
            } else {
                events = solicitado
            }
            if let cobranca = dados.inicio.cobrancaId, !events.isEmpty {
                try await provider.reembolsar(cobrancaId: cobranca, reembolsoId: reembolsoId, valor: valor)
            }
        case .recusado, .cancelado:
            return []
        }
        guard !events.isEmpty else { return [] }
        return [
            StreamWrite(
                stream: stream, expected: .after(version), events: try Events.derived(events, from: causa.uppercasedString, at: now, metadata: meta))
        ]
    }

    func decide(_ command: Pagamento.Command, _ state: Pagamento.State) throws -> [Pagamento.Event] {
        do {
            return try Pagamento.decider.decide(command, state)
        } catch {
            throw ServiceError(error)
        }
    }
}
