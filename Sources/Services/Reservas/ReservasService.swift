public import Domain
public import EventStore
public import Foundation
import Messaging
public import Projections

/// The reservas service. A booking appends, in ONE atomic multi-stream append, its own
/// `ReservaSolicitada`, an `AgendaOcupada` on every local day's agenda stream it touches (each
/// with the version it read) and the coupon use: two bookings that collide on a day cannot
/// both commit, so double booking is impossible without any lock. A conflict means someone
/// else changed one of those streams: decide again on fresh state.
public final class ReservasService: Sendable {
    let store: any ServiceStore & EventFeed
    let clock: any WallClock
    let precos: PrecosService
    /// How long an unpaid booking holds its slot (by boleto: ``Pagamento/Boleto/prazo``).
    public let prazoDePagamento: TimeInterval
    /// Agendas as last folded: a booking reads only the day's events since.
    let agendas = StateCache()
    /// Bookings of one space and day in this process take turns (see ``StreamTurns``).
    let turnos = StreamTurns()

    public init(store: any ServiceStore & EventFeed, clock: any WallClock, precos: PrecosService, prazoDePagamento: TimeInterval = 15 * 60) {
        self.store = store
        self.clock = clock
        self.precos = precos
        self.prazoDePagamento = prazoDePagamento
    }

    /// Until when a booking asked at `now` for `intervalo`, paid by `metodo`, holds its slot.
    /// A boleto: 422 when the booking starts too soon for one to be paid and cleared.
    func expiracao(_ metodo: MetodoDePagamento?, _ intervalo: TimeRange, em now: Date) throws -> Date {
        // (A booking in the past is the booking rule's 422, not the boleto's.)
        guard metodo == .boleto, intervalo.start > now else { return now.addingTimeInterval(prazoDePagamento) }
        guard intervalo.start.timeIntervalSince(now) >= Pagamento.Boleto.antecedenciaMinima else {
            throw ServiceError.invalido(
                "pagamento.metodo",
                "boleto só para reservas que começam daqui a 2 dias ou mais (um dia para pagar, um para compensar); use pix ou cartao")
        }
        return min(now.addingTimeInterval(Pagamento.Boleto.prazo), intervalo.start)
    }

    static let service = "reservas"
    /// Attempts before a hot slot answers 503: each conflict means another booking committed.
    static let tentativas = 40

    /// A member's bookings made to be paid by boleto (at most three unpaid at once).
    var boletos: AggregateStore<BoletosPendentes.Command, BoletosPendentes.State, BoletosPendentes.Event, BoletosPendentes.Failure> {
        AggregateStore(store: store, decider: BoletosPendentes.decider) {
            try BoletosPendentes.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder)
        }
    }

    var reservas: AggregateStore<Reserva.Command, Reserva.State, Reserva.Event, Reserva.Failure> {
        AggregateStore(store: store, decider: Reserva.decider) { try Reserva.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder) }
    }

    /// The check-in of a booking (checkin's stream): a member cannot cancel a booking once present.
    var checkins: AggregateStore<Checkin.Command, Checkin.State, Checkin.Event, Checkin.Failure> {
        AggregateStore(store: store, decider: Checkin.decider) { try Checkin.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder) }
    }

    func agenda(_ espaco: UUID, _ dia: DataLocal) -> AggregateStore<Agenda.Command, Agenda.State, Agenda.Event, Agenda.Failure> {
        AggregateStore(store: store, decider: Agenda.decider(espacoId: espaco, data: dia), cache: agendas) {
            try Agenda.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder)
        }
    }

    public struct PedidoDeReserva: Decodable, Sendable {
        public let espacoId: String
        public let inicio: Date
        public let fim: Date
        public let cupom: String?
        /// PIX when absent; a card needs the provider's `cartaoToken`.
        public let pagamento: Reserva.FormaDePagamento?
        /// The total (centavos) the member was shown, from a quote: when the price is no longer
        /// that (the table or a rule changed, the member's plan ended), the booking is refused
        /// with 409 `preco_alterado` and nothing is held or charged.
        public let totalEsperado: Int64?
    }

    // MARK: Request

    /// Books `pedido` for `usuario`: 201 with the booking holding its slot until it is paid
    /// (`expiraEm`), 409 `horario_indisponivel` when the slot is taken, 422 for a rule.
    public func solicitar(_ pedido: PedidoDeReserva, usuario: String, caller: Caller) async throws -> ReservaView {
        let espacoId = try EspacosService.espacoId(pedido.espacoId, campo: "espacoId")
        let intervalo = try PrecosService.intervalo(pedido.inicio, pedido.fim)
        if let forma = pedido.pagamento, forma.metodo == .cartao, (forma.cartaoToken ?? "").isEmpty {
            throw ServiceError.invalido("pagamento.cartaoToken", "pagamento com cartão precisa do cartaoToken do provedor")
        }
        try ServiceError.texto(pedido.pagamento?.cartaoToken, campo: "pagamento.cartaoToken", maximo: 200)
        if let esperado = pedido.totalEsperado, esperado < 0 {
            throw ServiceError.invalido("totalEsperado", "totalEsperado é um valor em centavos, zero ou mais")
        }
        let id: Reserva.ID
        if let key = caller.idempotencyKey {
            // A retry whose first answer was lost (the connection dropped, the process died)
            // lands on the same booking, not on a second hold and a second charge.
            id = Reserva.ID(Events.derivedId("reserva", key))
            if let anterior = try await repetida(id, usuario: usuario, espacoId: espacoId.rawValue, intervalo: intervalo) { return anterior }
        } else {
            id = Reserva.ID(UUID())
        }
        let now = clock.now
        // Once the space and its unit were loaded here, the days, and so every stream the booking
        // folds, are known before reading any: one round trip reads them all (the space, its
        // unit, its price table, the coupon, the day agendas), instead of one each.
        let prefetched: Prefetched? = if let (fuso, leituras) = precos.leituras(espacoId, cupom: pedido.cupom) {
            try await Prefetched.read(
                leituras + DataLocal.dias(de: intervalo, em: fuso).map { agenda(espacoId.rawValue, $0).read(StreamNames.agenda(espacoId.rawValue, $0)) },
                from: store)
        } else {
            nil
        }
        let contexto = try await precos.quote(
            espacoId, intervalo: intervalo, cupom: pedido.cupom, plano: caller.plano, em: now, prefetched: prefetched)
        if let esperado = pedido.totalEsperado, esperado != contexto.cotacao.total.centavos {
            let total = contexto.cotacao.total
            throw ServiceError(
                .conflito, codigo: "preco_alterado",
                mensagem: "o preço mudou desde a cotação: agora \(total), não \(Money(centavos: esperado)); confira e reserve de novo",
                detalhes: ["total": String(total.centavos)])
        }
        // (Days the read ahead did not cover, a unit that changed its time zone, are read alone.)
        let dias = DataLocal.dias(de: intervalo, em: contexto.unidade.fuso)
        return try await turnos.withTurn(of: dias.map { StreamNames.agenda(espacoId.rawValue, $0) }) {
            try await reservar(
                pedido, id: id, espacoId: espacoId, intervalo: intervalo, dias: dias, usuario: usuario, caller: caller, contexto: contexto,
                em: now, prefetched: prefetched)
        }
    }

    /// Decides the booking on its quote's context and holds its slot (``ocupar``); the caller
    /// holds the turns of its `dias` (the local days of `intervalo` in the unit's time zone).
    private func reservar(
        _ pedido: PedidoDeReserva, id: Reserva.ID, espacoId: Espaco.ID, intervalo: TimeRange, dias: [DataLocal], usuario: String,
        caller: Caller, contexto: PrecosService.Contexto, em now: Date, prefetched: Prefetched?
    ) async throws -> ReservaView {
        let espaco = contexto.espaco
        let condicoes = Reserva.Condicoes(espaco: espaco, intervalo: intervalo, fuso: contexto.unidade.fuso)
        // A coupon that takes nothing off (nothing was left to discount: a free plan, a rule
        // that made it R$ 0) is not spent: its limited uses stay for a booking it discounts.
        let cupom = contexto.cupom.flatMap { cupom in
            contexto.cotacao.linhas.contains { $0.codigo == "cupom:\(cupom.codigo)" } ? cupom.codigo : nil
        }
        let reserva = Reserva.Pedido(
            id: id, espacoId: espacoId.rawValue, unidadeId: espaco.unidade.rawValue, usuarioId: usuario, intervalo: intervalo, dias: dias,
            total: contexto.cotacao.total,
            linhas: contexto.cotacao.linhas.map { Reserva.LinhaDePreco(codigo: $0.codigo, descricao: $0.descricao, valor: $0.valor) },
            cupom: cupom, expiraEm: try expiracao(pedido.pagamento?.metodo, intervalo, em: now),
            pagamento: pedido.pagamento.map { Reserva.FormaDePagamento(metodo: $0.metodo, cartaoToken: $0.metodo == .cartao ? $0.cartaoToken : nil) },
            politica: contexto.unidade.politica)
        let solicitada: [Reserva.Event]
        do {
            solicitada = try Reserva.decider.decide(.solicitar(reserva, condicoes: condicoes, em: now), .inexistente)
        } catch {
            throw ServiceError(error)
        }
        var meta = EventMetadata(correlationId: id.rawValue, actor: usuario, requestId: caller.requestId, service: Self.service)
        meta.causationId = nil
        let limite = espaco.tipo.compartilhado ? espaco.capacidade : 1
        return try await ocupar(
            reserva, espacoId: espacoId, solicitada: solicitada, limite: limite, revisao: contexto.espacoVersao, cupom: cupom,
            chaveada: caller.idempotencyKey != nil, meta: meta, em: now, prefetched: prefetched)
    }

    /// Holds the booking's days (and its coupon use) with the booking's first event, in one
    /// append; decides again on fresh state after every conflict.
    private func ocupar(
        _ reserva: Reserva.Pedido, espacoId: Espaco.ID, solicitada: [Reserva.Event], limite: Int, revisao: Int64, cupom: String?,
        chaveada: Bool, meta: EventMetadata, em now: Date, prefetched: Prefetched?
    ) async throws -> ReservaView {
        let id = reserva.id
        // Events read ahead serve the first attempt only: a conflict means the streams moved.
        var prefetched = prefetched
        for _ in 1...Self.tentativas {
            defer { prefetched = nil }
            var writes = [StreamWrite(stream: StreamNames.reserva(id), expected: .noStream, events: try Events.new(solicitada, at: now, metadata: meta))]
            var ocupadas: [(StreamName, Agenda.State)] = []
            for dia in reserva.dias {
                let agenda = agenda(espacoId.rawValue, dia)
                let stream = StreamNames.agenda(espacoId.rawValue, dia)
                let (state, version) = try await agenda.load(stream, prefetched: prefetched)
                let events: [Agenda.Event]
                do {
                    events = try agenda.decider.decide(.ocupar(reserva: id.rawValue, intervalo: reserva.intervalo, limite: limite, revisao: revisao, em: now), state)
                } catch .bloqueada {
                    // A block committed after this request read the space.
                    throw ServiceError(Reserva.Failure.fechado)
                } catch {
                    throw ServiceError(
                        .conflito, codigo: "horario_indisponivel",
                        mensagem: limite == 1
                            ? "o espaço já está reservado em parte deste intervalo"
                            : "todas as \(limite) vagas do espaço estão ocupadas em parte deste intervalo",
                        detalhes: ["espacoId": espacoId.description, "data": dia.description])
                }
                let novos = try Events.new(events, at: now, metadata: meta)
                writes.append(StreamWrite(stream: stream, expected: .after(version), events: novos))
                // Folded from the events as stored (their JSON), as a later load would fold them.
                let armazenados = try novos.compactMap { try Agenda.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder) }
                ocupadas.append((stream, armazenados.reduce(state, agenda.decider.evolve)))
            }
            if let cupom {
                let (state, version) = try await precos.cupons.load(StreamNames.cupom(cupom), prefetched: prefetched)
                let events: [Cupom.Event]
                do {
                    events = try Cupom.decider.decide(.usar(reserva: id.rawValue, em: now), state)
                } catch {
                    throw ServiceError(error)
                }
                if !events.isEmpty {
                    writes.append(StreamWrite(stream: StreamNames.cupom(cupom), expected: .after(version), events: try Events.new(events, at: now, metadata: meta)))
                }
            }
            if reserva.pagamento?.metodo == .boleto, let boleto = try await boletoPendente(reserva, meta: meta, em: now) {
                writes.append(boleto)
            }
            do {
                let result = try await store.append(writes)
                // The agendas as this booking left them: the next booking of these days in this
                // process (it waits for the turn) decides on them without reading again, even
                // when it read ahead before this one appended.
                for (stream, state) in ocupadas {
                    if let version = result.versions[stream] { agendas.keep(state, version: version, of: stream) }
                }
                guard case .solicitada(let event) = solicitada.first else { break }
                return ReservaView(event)
            } catch is WrongExpectedVersion {
                // The same request (its Idempotency-Key) made this booking meanwhile: its answer.
                // Without a key the id is fresh: no stream to look for on every conflict.
                if chaveada, let anterior = try await repetida(id, usuario: reserva.usuarioId, espacoId: reserva.espacoId, intervalo: reserva.intervalo) {
                    return anterior
                }
                continue  // another booking touched one of these days (or the coupon): decide again
            }
        }
        throw ServiceError.indisponivel("o horário está muito disputado agora; tente de novo em instantes", retryAfter: 1)
    }

    /// The write that records a boleto booking on its member's stream, with the version read:
    /// 409 `boletos_pendentes` when the member already holds ``BoletosPendentes/limite`` unpaid.
    /// Which recorded bookings still wait is read from their own streams (at most a few: only
    /// those whose hold has not run out). Checked after the booking's own rules and its agenda,
    /// which say more about a request that breaks one.
    private func boletoPendente(_ reserva: Reserva.Pedido, meta: EventMetadata, em now: Date) async throws -> StreamWrite? {
        let stream = StreamNames.boletos(reserva.usuarioId)
        let (state, version) = try await boletos.load(stream)
        var encerradas = Set<UUID>()
        for id in state.emAberto(em: now) {
            let aguarda = if case .existente(let dados) = try await reservas.load(StreamNames.reserva(Reserva.ID(id))).state {
                dados.status == .solicitada
            } else {
                false
            }
            if !aguarda { encerradas.insert(id) }
        }
        let events: [BoletosPendentes.Event]
        do {
            events = try BoletosPendentes.decider.decide(
                .registrar(reserva: reserva.id.rawValue, usuarioId: reserva.usuarioId, ate: reserva.expiraEm, encerradas: encerradas, em: now), state)
        } catch .limite(let pendentes) {
            throw ServiceError(
                .conflito, codigo: "boletos_pendentes",
                mensagem: "você já tem \(pendentes) reservas aguardando boleto; pague ou cancele uma delas, ou pague esta com pix ou cartao",
                detalhes: ["campo": "pagamento.metodo"])
        }
        guard !events.isEmpty else { return nil }
        return StreamWrite(stream: stream, expected: .after(version), events: try Events.new(events, at: now, metadata: meta))
    }

    /// The booking `id` when a request with the same Idempotency-Key already made it, as it
    /// stands now; nil when there is none. The key with another booking's space or time is a 422,
    /// as the gateway answers a reused key while it still remembers the first request.
    private func repetida(_ id: Reserva.ID, usuario: String, espacoId: UUID, intervalo: TimeRange) async throws -> ReservaView? {
        let state = try await reservas.load(StreamNames.reserva(id)).state
        guard case .existente(let dados) = state else { return nil }
        let anterior = dados.solicitacao
        guard anterior.usuarioId == usuario, anterior.espacoId == espacoId, anterior.intervalo == intervalo else {
            throw ServiceError(
                .invalido, codigo: "chave_de_idempotencia_reutilizada", mensagem: "esta Idempotency-Key já foi usada com outra requisição")
        }
        return try Self.view(state)
    }

    // MARK: Lifecycle

    /// Confirms a held booking (the PagamentoConfirmado reactor; the admin sandbox route until
    /// payments exist).
    public func confirmar(_ id: String, pagamentoId: String?, caller: Caller) async throws -> ReservaView {
        try ServiceError.texto(pagamentoId, campo: "pagamentoId", maximo: 200)
        let id = try Self.reservaId(id)
        // A booking has one payment, whose id is the booking's (pagamento-<reservaId>): another
        // booking's payment, or a made-up one, would promise refunds of money never received.
        if let pagamentoId, UUID(uuidString: pagamentoId) != id.rawValue {
            throw ServiceError.invalido("pagamentoId", "o pagamento de uma reserva tem o id da própria reserva (\(id))")
        }
        let now = clock.now
        let meta = EventMetadata(correlationId: id.rawValue, actor: caller.usuario, requestId: caller.requestId, service: Self.service)
        let stream = StreamNames.reserva(id)
        _ = try await reservas.existing(stream, naoEncontrado: "a reserva \(id) não existe")
        let state = try await reservas.handle(stream, at: now, metadata: meta, failure: ServiceError.init) { _ in
            .confirmar(pagamentoId: pagamentoId, em: now)
        }
        return try Self.view(state)
    }

    /// Cancels a booking: its owner or an admin. The event carries the fee and refund of the
    /// booking's terms (the member pays the fee; an operator cancelling someone else's booking
    /// refunds it whole, unless `aplicarMulta`: the member asked, late); the slot and the
    /// coupon use are released in the same append.
    public func cancelar(
        _ id: String, motivo: String?, usuario: String, admin: Bool, aplicarMulta: Bool = false, caller: Caller
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
            let pago = try await self.pagamento(id)?.disponivel ?? .zero
            return .cancelar(
                por: usuario, motivo: motivo?.trimmingCharacters(in: .whitespacesAndNewlines).prefix(500).description,
                politica: politica, pago: pago, isento: isento, em: now)
        }
    }

    /// Expires an unpaid hold whose time is up (the timer). A hold whose payment pagamentos has
    /// already confirmed is confirmed instead: the confirmation has not reached reservas yet (the
    /// bus lags or is down), and the member paid in time.
    func expirar(_ id: Reserva.ID, at now: Date) async throws {
        // Not one given back (a late approval after a decline is refunded at once): that money
        // backs nothing.
        if let pagamento = try await pagamento(id), pagamento.status == .confirmado, pagamento.reembolsado == .zero {
            try await reservas.handle(StreamNames.reserva(id), at: now, metadata: timerMetadata(id), failure: ServiceError.init) { _ in
                .confirmar(pagamentoId: pagamento.id.description, em: now)
            }
            return
        }
        _ = try await release(id, actor: "system:prazos", caller: Caller(requestId: "prazos"), at: now) { _ in .expirar(em: now) }
    }

    func concluir(_ id: Reserva.ID, at now: Date) async throws {
        try await reservas.handle(StreamNames.reserva(id), at: now, metadata: timerMetadata(id), failure: ServiceError.init) { _ in
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
                try await store.append(writes)
                return try Self.view(state)
            } catch is WrongExpectedVersion {
                continue
            }
        }
        throw ServiceError.indisponivel("a reserva está sendo alterada por outra requisição; tente de novo", retryAfter: 1)
    }

    /// The writes that end a booking with `command` and free its days and its coupon use, and
    /// the booking's state after them. Event ids derive from `cause` when given (reactions).
    private func releaseWrites(
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
                writes.append(StreamWrite(
                    stream: StreamNames.cupom(codigo), expected: .after(cupomVersion), events: try events(returned, StreamNames.cupom(codigo))))
            }
        }
        return (writes, ended.reduce(state, Reserva.decider.evolve))
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
    private func agendaReleases(_ id: Reserva.ID, _ dados: Reserva.Dados, meta: EventMetadata, at now: Date, cause: String?) async throws -> [StreamWrite] {
        var writes: [StreamWrite] = []
        let espaco = dados.solicitacao.espacoId
        for dia in dados.solicitacao.dias {
            let agenda = agenda(espaco, dia)
            let stream = StreamNames.agenda(espaco, dia)
            let (agendaState, agendaVersion) = try await agenda.load(stream)
            let freed = try agenda.decider.decide(.liberar(reserva: id.rawValue, em: now), agendaState)
            if !freed.isEmpty {
                writes.append(StreamWrite(
                    stream: stream, expected: .after(agendaVersion),
                    events: try Events.make(freed, cause: cause.map { "\($0)|\(stream)" }, at: now, metadata: meta)))
            }
        }
        return writes
    }

    // MARK: Reactions

    public static let consumidor = "reservas"
    public static let bindings = [
        Topology.routingKey(Pagamento.Catalogo.confirmado), Topology.routingKey(Pagamento.Catalogo.recusado), Topology.routingKey(Checkin.Catalogo.noShowRegistrado), Topology.routingKey(Usuario.Catalogo.dadosPessoaisApagados),
    ]

    /// The bus reactor: a paid booking is confirmed; a declined payment releases the hold; a
    /// no-show frees the rest of the slot. Events that no longer apply (a payment arriving
    /// after the booking expired: pagamentos refunds it) change nothing.
    public func reagir(_ event: RecordedEvent) async throws -> [StreamWrite] {
        let now = clock.now
        var meta = event.metadata.caused(by: event.eventId, correlationId: event.metadata.correlationId)
        meta.service = Self.service
        meta.actor = "system:reservas"
        let cause = event.eventId.uuidString
        switch event.type {
        case Pagamento.Catalogo.confirmado:
            let pago = try EventJSON.decoder.decode(Pagamento.Confirmado.self, from: event.data)
            let id = Reserva.ID(pago.reservaId)
            let stream = StreamNames.reserva(id)
            let (state, version) = try await reservas.load(stream)
            guard let events = try? Reserva.decider.decide(.confirmar(pagamentoId: pago.pagamentoId.description, em: now), state),
                !events.isEmpty
            else { return [] }
            return [StreamWrite(stream: stream, expected: .after(version), events: try Events.derived(events, from: cause, at: now, metadata: meta))]
        case Pagamento.Catalogo.recusado:
            let recusado = try EventJSON.decoder.decode(Pagamento.Recusado.self, from: event.data)
            let id = Reserva.ID(recusado.reservaId)
            guard case .existente(let dados) = try await reservas.load(StreamNames.reserva(id)).state, dados.status == .solicitada else { return [] }
            do {
                return try await releaseWrites(id, meta: meta, at: now, cause: cause) { dados in
                    // Decided on the state the append is checked against: a booking an admin
                    // confirmed since the check above is not cancelled as declined.
                    guard dados.status == .solicitada else { throw NadaAFazer() }
                    return .cancelar(por: "system:pagamentos", motivo: "pagamento recusado: \(recusado.motivo)", politica: .padrao, pago: .zero, em: now)
                }.writes
            } catch is NadaAFazer {
                return []
            }
        case Usuario.Catalogo.dadosPessoaisApagados:
            // The erasure refuses while bookings are active, but a booking made in the same
            // instant can pass that check: such a booking ends here, everything refunded (a
            // booking made after this ran is declined by pagamentos instead).
            let usuario = try EventJSON.decoder.decode(Usuario.DadosPessoaisApagados.self, from: event.data).usuarioId.description
            for reserva in try await ativas(usuario: usuario, emDia: true) {
                do {
                    _ = try await cancelar(
                        reserva.id, motivo: "conta excluída a pedido do membro (LGPD)", usuario: "system:lgpd", admin: true,
                        caller: Caller(requestId: event.metadata.requestId ?? cause, usuario: "system:lgpd"))
                } catch let error as ServiceError where [.naoEncontrado, .conflito].contains(error.kind) {
                    continue  // ended meanwhile, or already begun (it concludes as it is)
                }
            }
            return []
        case Checkin.Catalogo.noShowRegistrado:
            struct NoShow: Decodable { let reservaId: UUID }
            let noShow = try EventJSON.decoder.decode(NoShow.self, from: event.data)
            let id = Reserva.ID(noShow.reservaId)
            guard case .existente(let dados) = try await reservas.load(StreamNames.reserva(id)).state else { return [] }
            return try await agendaReleases(id, dados, meta: meta, at: now, cause: cause)
        default:
            return []
        }
    }

    // MARK: Timers

    /// Runs every timer that is due at the clock's now: expires unpaid holds, concludes finished
    /// bookings. Returns how many it ran; a timer that fails does not hold up the ones behind it
    /// (the first failure is thrown after they ran). The timers are a read model, so they
    /// survive restarts.
    @discardableResult
    public func executarPrazosVencidos(limite: Int = 200) async throws -> Int {
        let now = clock.now
        let prazos = try await store.documents(ReservasReadModel.prazos, grupo: "prazo", limit: limite, offset: 0)
            .map { try ReadModelJSON.decoder.decode(PrazoView.self, from: $0) }
        var executados = 0
        var falha: (any Error)?
        for prazo in prazos where prazo.vence <= now {
            guard let id = Reserva.ID(prazo.reservaId) else { continue }
            do {
                switch prazo.acao {
                case .expirar: try await expirar(id, at: now)
                case .concluir: try await concluir(id, at: now)
                }
                executados += 1
            } catch let error as ServiceError where error.kind == .conflito {
                continue  // already confirmed/cancelled: the projection drops the timer
            } catch {
                falha = falha ?? error  // the timers behind it still run; the caller hears of it
            }
        }
        if let falha { throw falha }
        return executados
    }

    // MARK: Queries (read models)

    public func reserva(_ id: String, usuario: String, admin: Bool) async throws -> ReservaView {
        guard let id = Reserva.ID(id), let doc = try await store.document(ReservasReadModel.reservas, key: id.description) else {
            throw ServiceError.naoEncontrado("a reserva \(id.prefix(60)) não existe")
        }
        let view = try ReadModelJSON.decoder.decode(ReservaView.self, from: doc)
        guard admin || view.usuarioId == usuario else { throw ServiceError.naoEncontrado("a reserva \(id) não existe") }
        return view
    }

    public func minhas(usuario: String, pagina: Int) async throws -> Pagina<ReservaView> {
        try await page(ReservasReadModel.reservas, grupo: usuario, pagina: pagina)
    }

    /// The member's bookings that still hold a slot (held or confirmed, not yet over, not a
    /// no-show), oldest first. Erasing an account's personal data waits until there are none.
    ///
    /// `emDia`: also the bookings the read model has not reached yet (a booking made a moment
    /// ago): the requests in the log after its checkpoint, each read from its own stream. No
    /// wait for the projection, which may be down or rebuilding.
    public func ativas(usuario: String, emDia: Bool = false) async throws -> [ReservaView] {
        let now = clock.now, lote = 500
        // Read before the documents, which are at least as new as it.
        let desde = emDia ? try await store.checkpoint(ReservasReadModel.projection.checkpoint) : nil
        var vistas: [String: ReservaView] = [:]
        var offset = 0
        while true {
            let docs = try await store.documents(ReservasReadModel.reservas, grupo: usuario, limit: lote, offset: offset)
            for doc in docs {
                let view = try ReadModelJSON.decoder.decode(ReservaView.self, from: doc)
                vistas[view.id] = view
            }
            guard docs.count == lote else { break }
            offset += lote
        }
        if var position = desde {
            while true {
                let events = try await store.readAllPayloads(after: position, limit: 1_000)
                for event in events where event.type == Reserva.Catalogo.solicitada.type {
                    let pedido = try EventJSON.decoder.decode(Reserva.Solicitada.self, from: event.data)
                    guard pedido.usuarioId == usuario else { continue }
                    let state = try await reservas.load(StreamNames.reserva(pedido.reservaId)).state
                    if case .existente = state { vistas[pedido.reservaId.description] = try Self.view(state) }
                }
                guard let last = events.last, events.count == 1_000 else { break }
                position = last.position
            }
        }
        return vistas.values
            .filter { [.solicitada, .confirmada].contains($0.status) && $0.fim > now && $0.naoCompareceuEm == nil }
            .sorted { $0.inicio < $1.inicio }
    }

    public func doDia(unidade: String, data texto: String, pagina: Int) async throws -> Pagina<ReservaView> {
        guard let unidade = Unidade.ID(unidade) else { throw ServiceError.requisicaoInvalida("'unidade' deve ser o id (UUID) de uma unidade", detalhes: ["campo": "unidade"]) }
        guard let data = DataLocal(texto) else {
            throw ServiceError.requisicaoInvalida("'data' deve ser uma data AAAA-MM-DD", detalhes: ["campo": "data"])
        }
        // An empty day of a unit that does not exist would hide a typo in the id.
        guard try await store.streamVersion(StreamNames.unidade(unidade)) > 0 else {
            throw ServiceError.naoEncontrado("a unidade \(unidade) não existe")
        }
        return try await page(ReservasReadModel.porDia, grupo: ReservasReadModel.diaGrupo(unidade: unidade.description, data: data), pagina: pagina)
    }

    private func page(_ collection: String, grupo: String, pagina: Int) async throws -> Pagina<ReservaView> {
        let docs = try await store.documents(collection, grupo: grupo, limit: 50, offset: (pagina - 1) * 50)
        return Pagina(
            itens: try docs.map { try ReadModelJSON.decoder.decode(ReservaView.self, from: $0) },
            total: try await store.count(collection, grupo: grupo), pagina: pagina)
    }

    static func reservaId(_ text: String) throws -> Reserva.ID {
        guard let id = Reserva.ID(text) else {
            throw ServiceError.naoEncontrado(text.isEmpty ? "a reserva não existe" : "a reserva \(text.prefix(60)) não existe")
        }
        return id
    }

    static func view(_ state: Reserva.State) throws -> ReservaView {
        guard case .existente(let dados) = state else { throw ServiceError.naoEncontrado("a reserva não existe") }
        var view = ReservaView(dados.solicitacao)
        view.status = dados.status
        view.atualizadaEm = dados.atualizadaEm
        if dados.status != .solicitada { view.expiraEm = nil }
        if dados.status == .confirmada { view.confirmadaEm = dados.atualizadaEm; view.pagamentoId = dados.pagamentoId }
        if let c = dados.cancelamento {
            view.cancelamento = ReservaView.Cancelamento(em: c.em, por: c.por, motivo: c.motivo, multa: c.multa, reembolso: c.reembolso)
        }
        return view
    }
}

/// A reaction found, on the state it would append against, that nothing is left to do.
private struct NadaAFazer: Error {}
