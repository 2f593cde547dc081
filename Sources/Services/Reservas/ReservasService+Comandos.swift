import Domain
import EventStore
import Foundation
public import Projections

extension ReservasService {
    // MARK: Lifecycle

    /// Confirms a held booking (the PagamentoConfirmado reactor; the admin sandbox route until
    /// payments exist).
    public func confirmar(_ id: String, pagamentoId: String?, caller: Caller) async throws -> ReservaView {
        try ServiceError.texto(pagamentoId, campo: "pagamentoId", maximo: 200)
        let id = try Self.reservaId(id)
        // A booking has one payment, whose id is the booking's (pagamento-<reservaId>): another
        // booking's payment, or a made-up one, would promise refunds of money never received.
        if let pagamentoId, UUID(text: pagamentoId) != id.rawValue {
            throw ServiceError.invalido("pagamentoId", "o pagamento de uma reserva tem o id da própria reserva (\(id))")
        }
        let now = clock.now
        let meta = EventMetadata(correlationId: id.rawValue, actor: caller.usuario, requestId: caller.requestId, service: Self.service)
        let stream = StreamNames.reserva(id)
        _ = try await reservas.existing(stream, naoEncontrado: "a reserva \(id) não existe")
        let state = try await reservas.handle(stream, at: now, metadata: meta, receipt: caller.receipt, failure: ServiceError.init) { _ in
            .confirmar(pagamentoId: pagamentoId, em: now)
        }
        return try Self.view(state)
    }

    /// Cancels a booking: its owner or an admin. The event carries the fee and refund of the
    /// booking's terms (the member pays the fee; an operator cancelling someone else's booking
    /// refunds it whole, unless `aplicarMulta`: the member asked, late); the slot and the
    /// coupon use are released in the same append.
    public func cancelar(
        _ id: String, motivo: String?, usuario: String, admin: Bool, aplicarMulta: Bool = false, daSerie: Bool = false, caller: Caller
    ) async throws -> ReservaView {
        try ServiceError.texto(motivo, campo: "motivo", maximo: 500)
        let id = try Self.reservaId(id)
        guard case .existente(let dados) = try await reservas.load(StreamNames.reserva(id)).state,
            admin || dados.solicitacao.usuarioId == usuario
        else { throw ServiceError.naoEncontrado("a reserva \(id) não existe") }
        let unidade = try await precos.unidades.load(StreamNames.unidade(Unidade.ID(dados.solicitacao.unidadeId))).state
        let politica: Unidade.PoliticaDeCancelamento = if case .existente(let u) = unidade { u.politica } else { .padrao }
        let isento = admin && dados.solicitacao.usuarioId != usuario && !aplicarMulta
        let now = clock.now
        return try await release(id, actor: usuario, caller: caller, at: now, revogando: (por: usuario, admin: admin)) { _ in
            // The fee and refund apply to what the payment holds, not to the booking's status:
            // an admin may have confirmed a booking nobody paid for. Read on every attempt, after
            // the booking: a confirmation appended meanwhile makes this attempt's append
            // conflict, and the next one sees what it confirmed. A payment pagamentos confirms
            // after this read whose confirmation has not reached the booking before the append
            // is given back whole by pagamentos (the cancellation says nothing was paid).
            let pagamento = try await self.pagamento(id)
            // Paid at the desk, given back at the desk: the member cannot have it refunded from afar.
            if !admin, let pagamento, pagamento.inicio.metodo == .manual, pagamento.disponivel > .zero {
                throw ServiceError.conflito(
                    "cancelar_na_recepcao", "esta reserva foi paga na recepção: o cancelamento e a devolução do valor são feitos lá")
            }
            let pago = pagamento?.disponivel ?? .zero
            return .cancelar(
                por: usuario, motivo: motivo?.trimmingCharacters(in: .whitespacesAndNewlines).prefix(500).description,
                politica: politica, pago: pago, isento: isento, em: now, daSerie: daSerie)
        }
    }

    /// Expires an unpaid hold whose time is up (the timer). A hold whose payment pagamentos has
    /// already confirmed is confirmed instead: the confirmation has not reached reservas yet (the
    /// bus lags or is down), and the member paid in time.
    func expirar(_ id: Reserva.ID, at now: Date) async throws {
        // Not one given back (a late approval after a decline is refunded at once): that money
        // backs nothing.
        if let pagamento = try await pagamento(id), pagamento.status == .confirmado, pagamento.reembolsado == .zero {
            try await reservas.handle(StreamNames.reserva(id), at: now, metadata: timerMetadata(id), receipt: nil, failure: ServiceError.init) { _ in
                .confirmar(pagamentoId: pagamento.id.description, em: now)
            }
            return
        }
        _ = try await release(id, actor: "system:prazos", caller: Caller(requestId: "prazos"), at: now) { _ in .expirar(em: now) }
    }

    func concluir(_ id: Reserva.ID, at now: Date) async throws {
        try await reservas.handle(StreamNames.reserva(id), at: now, metadata: timerMetadata(id), receipt: nil, failure: ServiceError.init) { _ in
            .concluir(em: now)
        }
    }

    private func timerMetadata(_ id: Reserva.ID) -> EventMetadata {
        EventMetadata(correlationId: id.rawValue, actor: "system:prazos", requestId: "prazos", service: Self.service)
    }

    /// The booking's payment as pagamentos recorded it (read only); nil before pagamentos began it.
    private func pagamento(_ id: Reserva.ID) async throws -> Pagamento.Dados? {
        let events = try await store.readStream(PagamentosService.stream(Pagamento.ID(id.rawValue)))
        let state = try fold(events, Pagamento.decider) { try Pagamento.Event.decode(type: $0, data: $1, using: $2) }
        guard case .existente(let dados) = state else { return nil }
        return dados
    }

    /// Ends a booking with `command` and, in the same append, frees its days and its coupon use.
    /// With `revogando`, a cancellation, the check-in code is revoked in that append too.
    private func release(
        _ id: Reserva.ID, actor: String, caller: Caller, at now: Date, revogando: (por: String, admin: Bool)? = nil,
        _ command: (Reserva.Dados) async throws -> Reserva.Command
    ) async throws -> ReservaView {
        let meta = EventMetadata(correlationId: id.rawValue, actor: actor, requestId: caller.requestId, service: Self.service)
        for _ in 1...Self.tentativas {
            var (writes, state) = try await releaseWrites(id, meta: meta, at: now, cause: nil, command)
            if let revogando { writes += try await checkinRevocation(id, por: revogando.por, admin: revogando.admin, meta: meta, at: now) }
            do {
                try await store.append(writes, receipt: caller.receipt)
                return try Self.view(state)
            } catch is WrongExpectedVersion {
                continue
            }
        }
        throw ServiceError.indisponivel("a reserva está sendo alterada por outra requisição; tente de novo", retryAfter: 1)
    }

    /// The writes that end a booking with `command` and free its days and its coupon use, and
    /// the booking's state after them. Event ids derive from `cause` when given (reactions).
    func releaseWrites(
        _ id: Reserva.ID, meta: EventMetadata, at now: Date, cause: String?, _ command: (Reserva.Dados) async throws -> Reserva.Command
    ) async throws -> (writes: [StreamWrite], state: Reserva.State) {
        func events<E: DomainEvent>(_ events: [E], _ stream: StreamName) throws -> [NewEvent] {
            try Events.make(events, cause: cause.map { "\($0)|\(stream)" }, at: now, metadata: meta)
        }
        let stream = StreamNames.reserva(id)
        let (state, version) = try await reservas.load(stream)
        guard case .existente(let dados) = state else { throw ServiceError.naoEncontrado("a reserva \(id) não existe") }
        let ended: [Reserva.Event]
        let decided = try await command(dados)
        do {
            ended = try Reserva.decider.decide(decided, state)
        } catch {
            throw ServiceError(error)
        }
        var writes = [StreamWrite(stream: stream, expected: .after(version), events: try events(ended, stream))]
        writes += try await agendaReleases(id, dados, meta: meta, at: now, cause: cause)
        if let codigo = dados.solicitacao.cupom {
            let (cupomState, cupomVersion) = try await precos.cupons.load(StreamNames.cupom(codigo))
            if let returned = try? Cupom.decider.decide(.devolver(reserva: id.rawValue, em: now), cupomState), !returned.isEmpty {
                writes.append(
                    StreamWrite(
                        stream: StreamNames.cupom(codigo), expected: .after(cupomVersion), events: try events(returned, StreamNames.cupom(codigo))))
            }
        }
        writes += try await creditReturns(id, dados, devolverBP: Reserva.devolucaoDeCreditos(dados, decided), meta: meta, at: now, cause: cause)
        return (writes, ended.reduce(state, Reserva.decider.evolve))
    }

    /// The writes that give back `devolverBP` of the credits a booking spent (the rest is
    /// recorded as kept), for the booking's end to append with it: to the member's wallet and to
    /// the company pool it spent from (recorded with the booking; for an older booking, their
    /// company now), whichever it spent. Nothing once they were settled.
    func creditReturns(
        _ id: Reserva.ID, _ dados: Reserva.Dados, devolverBP: Int64, noShow: Bool = false, meta: EventMetadata, at now: Date,
        cause: String?
    ) async throws -> [StreamWrite] {
        guard let creditos = dados.solicitacao.creditos else { return [] }
        var titulares = [creditos.titular]
        if let empresa = creditos.empresa {
            titulares.append(empresa)
        } else if let empresa = try await precos.vinculos.load(StreamNames.vinculo(creditos.titular)).state {
            titulares.append(Empresa.titular(empresa))
        }
        var writes: [StreamWrite] = []
        for titular in titulares {
            let stream = StreamNames.creditos(titular)
            let (carteira, versao) = try await precos.carteiras.load(stream)
            let devolvidos =
                (try? Carteira.decider.decide(
                    .restituir(titular: titular, reserva: id.rawValue, devolverBP: devolverBP, noShow: noShow, em: now), carteira)) ?? []
            if !devolvidos.isEmpty {
                writes.append(
                    StreamWrite(
                        stream: stream, expected: .after(versao),
                        events: try Events.make(devolvidos, cause: cause.map { "\($0)|\(stream)" }, at: now, metadata: meta)))
            }
        }
        return writes
    }

    /// A cancellation revokes the booking's check-in code in its own append, with the version of
    /// the check-in stream it read: a check-in at the same instant and the cancellation cannot
    /// both commit (the second one decides again and is refused). A member cannot cancel once
    /// present (409 `checkin_realizado`): cancelling now would refund time spent; an admin can,
    /// and the check-in stands.
    private func checkinRevocation(_ id: Reserva.ID, por: String, admin: Bool, meta: EventMetadata, at now: Date) async throws -> [StreamWrite] {
        let stream = StreamNames.checkin(id)
        let (state, version) = try await checkins.load(stream)
        guard version > 0 else { return [] }  // no code issued yet: nothing to check in with
        let events: [Checkin.Event]
        do {
            events = try Checkin.decider.decide(.revogar(por: por, em: now), state)
        } catch .jaRealizado where !admin {
            throw ServiceError.conflito("checkin_realizado", "esta reserva já teve check-in e não pode mais ser cancelada")
        } catch {
            return []  // present (an admin cancels anyway), no-show, revoked: nothing to revoke
        }
        guard !events.isEmpty else { return [] }
        return [StreamWrite(stream: stream, expected: .after(version), events: try Events.new(events, at: now, metadata: meta))]
    }

    /// Frees the booking's hold on every day it touches.
    func agendaReleases(_ id: Reserva.ID, _ dados: Reserva.Dados, meta: EventMetadata, at now: Date, cause: String?) async throws -> [StreamWrite] {
        var writes: [StreamWrite] = []
        let espaco = dados.solicitacao.espacoId
        for dia in dados.solicitacao.dias {
            let agenda = agenda(espaco, dia)
            let stream = StreamNames.agenda(espaco, dia)
            let (agendaState, agendaVersion) = try await agenda.load(stream)
            let freed = try agenda.decider.decide(.liberar(reserva: id.rawValue, em: now), agendaState)
            if !freed.isEmpty {
                writes.append(
                    StreamWrite(
                        stream: stream, expected: .after(agendaVersion),
                        events: try Events.make(freed, cause: cause.map { "\($0)|\(stream)" }, at: now, metadata: meta)))
            }
        }
        return writes
    }
}
