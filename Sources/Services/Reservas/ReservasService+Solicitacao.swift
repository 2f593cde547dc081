import Domain
import EventStore
import Foundation
public import Projections

extension ReservasService {
    // MARK: Request

    /// Books `pedido` for `usuario`: 201 with the booking holding its slot until it is paid
    /// (`expiraEm`), 409 `horario_indisponivel` when the slot is taken, 422 for a rule.
    ///
    /// A caller whose account the edge left unchecked (``Caller/conta``) has it checked here
    /// before anything is decided: read with the booking's read ahead (one round trip for both),
    /// or alone when there is none (a space this process has not loaded, a booking for a
    /// colleague).
    ///
    /// With an `Idempotency-Key` (``Caller/idempotencyKey``), the booking's id is derived from
    /// it, so the store's append is the dedupe: a request that finds the booking its key made
    /// (read with the read ahead) answers it as it stands, marked on the receipt as replayed,
    /// and one with the key and another body (``Caller/requestFingerprint``) is a 422.
    public func solicitar(_ pedido: PedidoDeReserva, usuario quem: String, caller pedinte: Caller) async throws -> ReservaView {
        try await solicitar(pedido, usuario: quem, caller: pedinte, serie: nil)
    }

    /// ``solicitar(_:usuario:caller:)`` for an occurrence of `serie` (nil: a booking of its own).
    func solicitar(_ pedido: PedidoDeReserva, usuario quem: String, caller pedinte: Caller, serie: Reserva.NaSerie?) async throws -> ReservaView {
        var quemPede = pedinte
        var usuario = quem
        if pedido.paraUsuarioId != nil || pedido.pagamento?.metodo == .manual {
            // The caller's role today decides whether they may book for someone else, or say
            // the booking was paid at the desk.
            quemPede = try await quemPede.comContaVerificada()
        }
        if pedido.pagamento?.metodo == .manual, quemPede.papel != "admin" {
            throw ServiceError.proibido("só a recepção (um admin) registra uma reserva paga na recepção; pague com pix, cartao ou boleto")
        }
        var caller = quemPede
        if let para = pedido.paraUsuarioId, para != quem {
            usuario = try await precos.reservaPara(para, por: quem, admin: quemPede.papel == "admin")
            // The colleague reads it next, not only the caller.
            quemPede.receipt?.markShared()
            // The member's own price rules are not the caller's: no legacy plan rule applies.
            caller = Caller(
                requestId: quemPede.requestId, usuario: quem, papel: quemPede.papel, idempotencyKey: quemPede.idempotencyKey, plano: nil,
                receipt: quemPede.receipt, requestFingerprint: quemPede.requestFingerprint)
        }
        let espacoId = try EspacosService.espacoId(pedido.espacoId, campo: "espacoId")
        let intervalo = try PrecosService.intervalo(pedido.inicio, pedido.fim)
        try Self.validar(pedido.pagamento)
        if let esperado = pedido.totalEsperado, esperado < 0 {
            throw ServiceError.invalido("totalEsperado", "totalEsperado é um valor em centavos, zero ou mais")
        }
        // With a key, a retry whose first answer was lost (the connection dropped, the process
        // died), or that was sent again while the first ran, lands on the same booking, not on a
        // second hold and a second charge.
        let chaveada = caller.idempotencyKey != nil
        let id = Reserva.ID(caller.idempotencyKey.map { Events.derivedId("reserva", $0) } ?? EventIDs.next())
        let now = clock.now
        // Once the space and its unit were loaded here, the days, and so every stream the booking
        // folds, are known before reading any: one round trip reads them all (the space, its
        // unit, its price table, the coupon, the day agendas), instead of one each.
        // The caller's account too, when the edge left its check to the booking, and the
        // booking's own stream when its id comes from a key.
        let prefetched: Prefetched? =
            if let (fuso, leituras) = precos.leituras(espacoId, cupom: pedido.cupom, titular: usuario) {
                try await Prefetched.read(
                    leituras
                        + DataLocal.dias(de: intervalo, em: fuso).map {
                            agenda(espacoId.rawValue, $0).read(StreamNames.agenda(espacoId.rawValue, $0))
                        } + (caller.conta?.leitura.map { [$0] } ?? []) + (chaveada ? [StreamRead(StreamNames.reserva(id), from: 1)] : []),
                    from: store)
            } else {
                nil
            }
        caller = try await caller.comContaVerificada(prefetched: prefetched)
        let (titular, quemReserva) = (usuario, caller)
        func repetir(_ prefetched: Prefetched?) async throws -> ReservaView? {
            try await repetida(
                id, usuario: titular, espacoId: espacoId.rawValue, intervalo: intervalo, fingerprint: quemReserva.requestFingerprint,
                receipt: quemReserva.receipt, prefetched: prefetched)
        }
        if chaveada, let anterior = try await repetir(prefetched) { return anterior }
        do {
            return try await decidir(
                pedido, id: id, espacoId: espacoId, intervalo: intervalo, usuario: titular, caller: quemReserva, serie: serie, em: now,
                prefetched: prefetched)
        } catch let error as ServiceError where chaveada && !Self.alheios.contains(error.codigo) {
            // The same request, sent again while the first ran, may fail on what its own booking
            // changed (the credits it spent: the price moved; the coupon's last use; the member's
            // boleto limit): that booking is its answer. (The slot it holds is not in its way:
            // the day takes the same booking again as nothing, and the append finds its stream.)
            // When the second look fails, the first failure is the answer.
            if let anterior = try? await repetir(nil) { return anterior }
            throw error
        }
    }

    /// 422 for a card without its provider's token, or a token over 200 characters.
    static func validar(_ forma: Reserva.FormaDePagamento?) throws {
        if let forma, forma.metodo == .cartao, (forma.cartaoToken ?? "").isEmpty {
            throw ServiceError.invalido("pagamento.cartaoToken", "pagamento com cartão precisa do cartaoToken do provedor")
        }
        try ServiceError.texto(forma?.cartaoToken, campo: "pagamento.cartaoToken", maximo: 200)
    }

    /// Failures a booking's own earlier attempt cannot cause: no second look for it.
    private static let alheios: Set<String> = ["horario_indisponivel", "chave_de_idempotencia_reutilizada"]

    /// 409 `horario_indisponivel`: the space's agenda of `dia` has no room left in part of the
    /// time asked for (`trecho`: "deste intervalo", "do novo horário"), a booking's or a move's.
    static func horarioIndisponivel(_ espacoId: UUID, _ dia: DataLocal, limite: Int, trecho: String) -> ServiceError {
        ServiceError(
            .conflito, codigo: "horario_indisponivel",
            mensagem: limite == 1
                ? "o espaço já está reservado em parte \(trecho)"
                : "todas as \(limite) vagas do espaço estão ocupadas em parte \(trecho)",
            detalhes: ["espacoId": espacoId.lowercasedString, "data": dia.description])
    }

    /// Quotes the booking, checks the total the member was shown, and decides it in the turn of
    /// its days (``reservar``).
    private func decidir(
        _ pedido: PedidoDeReserva, id: Reserva.ID, espacoId: Espaco.ID, intervalo: TimeRange, usuario: String, caller: Caller,
        serie: Reserva.NaSerie?, em now: Date, prefetched: Prefetched?
    ) async throws -> ReservaView {
        let contexto = try await precos.quote(
            espacoId, intervalo: intervalo, cupom: pedido.cupom, plano: caller.plano, titular: usuario, em: now, prefetched: prefetched)
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
                serie: serie, em: now, prefetched: prefetched)
        }
    }

    /// Decides the booking on its quote's context and holds its slot (``ocupar``); the caller
    /// holds the turns of its `dias` (the local days of `intervalo` in the unit's time zone).
    private func reservar(
        _ pedido: PedidoDeReserva, id: Reserva.ID, espacoId: Espaco.ID, intervalo: TimeRange, dias: [DataLocal], usuario: String,
        caller: Caller, contexto: PrecosService.Contexto, serie: Reserva.NaSerie?, em now: Date, prefetched: Prefetched?
    ) async throws -> ReservaView {
        let espaco = contexto.espaco
        let condicoes = Reserva.Condicoes(espaco: espaco, intervalo: intervalo, fuso: contexto.unidade.fuso)
        // A coupon that takes nothing off (nothing was left to discount: a free plan, a rule
        // that made it R$ 0) is not spent: its limited uses stay for a booking it discounts.
        let cupom = contexto.cupom.flatMap { cupom in
            contexto.cotacao.linhas.contains { $0.codigo == "cupom:\(cupom.codigo)" } ? cupom.codigo : nil
        }
        // The pool that pays part of it: the member's company now (the quote just read it).
        let empresa: String? =
            if contexto.cotacao.creditos?.daEmpresa != nil {
                try await precos.vinculos.load(StreamNames.vinculo(usuario), prefetched: prefetched).state.map(Empresa.titular)
            } else { nil }
        let reserva = Reserva.Pedido(
            id: id, espacoId: espacoId.rawValue, unidadeId: espaco.unidade.rawValue, usuarioId: usuario, intervalo: intervalo, dias: dias,
            total: contexto.cotacao.total,
            linhas: contexto.cotacao.linhas.map { Reserva.LinhaDePreco(codigo: $0.codigo, descricao: $0.descricao, valor: $0.valor) },
            cupom: cupom, expiraEm: try expiracao(pedido.pagamento?.metodo, intervalo, em: now),
            pagamento: pedido.pagamento.map { Reserva.FormaDePagamento(metodo: $0.metodo, cartaoToken: $0.metodo == .cartao ? $0.cartaoToken : nil) },
            politica: contexto.unidade.politica,
            creditos: contexto.cotacao.creditos.map {
                Reserva.Creditos(titular: usuario, minutos: $0.minutos, centavos: $0.centavos, daEmpresa: $0.daEmpresa, empresa: empresa)
            }, serie: serie)
        let solicitada: [Reserva.Event]
        do {
            solicitada = try Reserva.decider.decide(.solicitar(reserva, condicoes: condicoes, em: now), .inexistente)
        } catch .fechado where espaco.bloqueios.contains(where: { $0.motivo == .locacao && $0.intervalo.overlaps(intervalo) }) {
            throw ServiceError.invalido("inicio", "o espaço está locado neste período: é a mesa fixa ou a sala privativa de um cliente")
        } catch {
            throw ServiceError(error)
        }
        var meta = EventMetadata(correlationId: id.rawValue, actor: caller.usuario ?? usuario, requestId: caller.requestId, service: Self.service)
        meta.causationId = nil
        let limite = espaco.tipo.compartilhado ? espaco.capacidade : 1
        return try await ocupar(
            reserva, espacoId: espacoId, tipo: espaco.tipo, solicitada: solicitada, limite: limite, revisao: contexto.espacoVersao, cupom: cupom,
            chaveada: caller.idempotencyKey != nil, fingerprint: caller.idempotencyKey == nil ? nil : caller.requestFingerprint,
            receipt: caller.receipt, meta: meta, em: now, prefetched: prefetched)
    }

    /// Holds the booking's days (and its coupon use) with the booking's first event, in one
    /// append; decides again on fresh state after every conflict. What it appends goes on `receipt`.
    private func ocupar(
        _ reserva: Reserva.Pedido, espacoId: Espaco.ID, tipo: Espaco.Tipo, solicitada: [Reserva.Event], limite: Int, revisao: Int64,
        cupom: String?,
        chaveada: Bool, fingerprint: String?, receipt: WriteReceipt?, meta: EventMetadata, em now: Date, prefetched: Prefetched?
    ) async throws -> ReservaView {
        let id = reserva.id
        // The request's fingerprint on the booking's first event only: what a retry compares.
        var primeiro = meta
        primeiro.requestFingerprint = fingerprint
        // Events read ahead serve the first attempt only: a conflict means the streams moved.
        var prefetched = prefetched
        // The appends refused and the last refusal: what a 503 logs (``ServiceError/causa``).
        var recusas = 0
        var ultima: WrongExpectedVersion?
        for _ in 1...Self.tentativas {
            defer { prefetched = nil }
            var writes = [
                StreamWrite(stream: StreamNames.reserva(id), expected: .noStream, events: try Events.new(solicitada, at: now, metadata: primeiro))
            ]
            var ocupadas: [(StreamName, Agenda.State)] = []
            for dia in reserva.dias {
                let agenda = agenda(espacoId.rawValue, dia)
                let stream = StreamNames.agenda(espacoId.rawValue, dia)
                let (state, version) = try await agenda.load(stream, prefetched: prefetched)
                let events: [Agenda.Event]
                do {
                    events = try agenda.decider.decide(
                        .ocupar(reserva: id.rawValue, intervalo: reserva.intervalo, limite: limite, revisao: revisao, em: now), state)
                } catch .bloqueada {
                    // A block committed after this request read the space.
                    throw ServiceError(Reserva.Failure.fechado)
                } catch {
                    throw Self.horarioIndisponivel(espacoId.rawValue, dia, limite: limite, trecho: "deste intervalo")
                }
                // Nothing to take: this booking holds the day already, so it was made (by the
                // same request, its key sent again): the append finds its stream and answers it.
                guard !events.isEmpty else { continue }
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
                    writes.append(
                        StreamWrite(
                            stream: StreamNames.cupom(cupom), expected: .after(version), events: try Events.new(events, at: now, metadata: meta)))
                }
            }
            if let creditos = reserva.creditos {
                writes += try await consumo(creditos, reserva: reserva, tipo: tipo, meta: meta, em: now, prefetched: prefetched)
            }
            if reserva.pagamento?.metodo == .boleto, let boleto = try await boletoPendente(reserva, meta: meta, em: now) {
                writes.append(boleto)
            }
            do {
                let result = try await store.append(writes, receipt: receipt)
                // The agendas as this booking left them: the next booking of these days in this
                // process (it waits for the turn) decides on them without reading again, even
                // when it read ahead before this one appended.
                for (stream, state) in ocupadas {
                    if let version = result.versions[stream] { agendas.keep(state, version: version, of: stream) }
                }
                guard case .solicitada(let event) = solicitada.first else { break }
                return ReservaView(event)
            } catch let conflito as WrongExpectedVersion {
                recusas += 1
                ultima = conflito
                // The same request (its Idempotency-Key) made this booking meanwhile: its answer.
                // Without a key the id is fresh: no stream to look for on every conflict.
                if chaveada,
                    let anterior = try await repetida(
                        id, usuario: reserva.usuarioId, espacoId: reserva.espacoId, intervalo: reserva.intervalo,
                        fingerprint: fingerprint, receipt: receipt, prefetched: nil)
                {
                    return anterior
                }
                continue  // another booking touched one of these days (or the coupon): decide again
            }
        }
        var disputado = ServiceError.indisponivel("o horário está muito disputado agora; tente de novo em instantes", retryAfter: 1)
        disputado.causa = "\(recusas) appends refused, the last: \(ultima.map(String.init(describing:)) ?? "none")"
        throw disputado
    }

    /// The write that spends the member's credits the quote counted on, with the version of
    /// their wallet read: another booking that spent them first makes this append conflict, and
    /// the next attempt finds them gone (409 `creditos_insuficientes`: the price changed).
    private func consumo(
        _ creditos: Reserva.Creditos, reserva: Reserva.Pedido, tipo: Espaco.Tipo, meta: EventMetadata, em now: Date, prefetched: Prefetched?
    ) async throws -> [StreamWrite] {
        // The member's own credits first, then their company's pool (within their monthly cap).
        let stream = StreamNames.creditos(creditos.titular)
        let (state, version) = try await precos.carteiras.load(stream, prefetched: prefetched)
        let comPlano = try await precos.planoAtivo(creditos.titular, prefetched: prefetched)
        let proprio = { (medida: Carteira.Medida, pedido: Int64) in
            min(pedido, state.disponivel(medida, tipo: tipo, unidade: reserva.unidadeId, em: now, comPlano: comPlano))
        }
        let meus = (minutos: proprio(.minutos, creditos.minutos), centavos: proprio(.centavos, creditos.centavos))
        let resto = (minutos: creditos.minutos - meus.minutos, centavos: creditos.centavos - meus.centavos)
        var writes: [StreamWrite] = []
        if meus.minutos > 0 || meus.centavos > 0 {
            let events = try gastar(
                .consumir(
                    titular: creditos.titular, reserva: reserva.id.rawValue, minutos: meus.minutos, centavos: meus.centavos, tipo: tipo,
                    unidade: reserva.unidadeId, em: now, comPlano: comPlano), state)
            // None when this booking spent them already (its key sent again): its append answers it.
            if !events.isEmpty {
                writes.append(StreamWrite(stream: stream, expected: .after(version), events: try Events.new(events, at: now, metadata: meta)))
            }
        }
        guard resto.minutos > 0 || resto.centavos > 0 else { return writes }
        guard let dia = reserva.dias.first,
            let pool = try await precos.pool(creditos.titular, mes: CalendarioAnalitico.mes(dia), prefetched: prefetched)
        else { throw Self.creditosInsuficientes }
        let poolStream = StreamNames.creditos(pool.titular)
        let (carteira, versao) = try await precos.carteiras.load(poolStream)
        let events = try gastar(
            .consumir(
                titular: pool.titular, reserva: reserva.id.rawValue, minutos: resto.minutos, centavos: resto.centavos, tipo: tipo,
                unidade: reserva.unidadeId, em: now, comPlano: pool.comPlano, uso: pool.uso), carteira)
        if !events.isEmpty {
            writes.append(StreamWrite(stream: poolStream, expected: .after(versao), events: try Events.new(events, at: now, metadata: meta)))
        }
        return writes
    }

    private static let creditosInsuficientes = ServiceError.conflito(
        "creditos_insuficientes", "os seus créditos foram usados por outra reserva enquanto esta era feita: cote de novo e reserve")

    private func gastar(_ comando: Carteira.Command, _ state: Carteira.State) throws -> [Carteira.Event] {
        do {
            return try Carteira.decider.decide(comando, state)
        } catch .insuficiente {
            throw Self.creditosInsuficientes
        } catch {
            throw ServiceError(error)
        }
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
            let aguarda =
                if case .existente(let dados) = try await reservas.load(StreamNames.reserva(Reserva.ID(id))).state {
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
    /// stands now, its events marked on `receipt` as replayed; nil when there is none (read from
    /// `prefetched` when it holds the stream). The key with another request is a 422: another
    /// fingerprint than the first's (`fingerprint`), or, for a booking made without one (by an
    /// earlier release), another member, space or time.
    private func repetida(
        _ id: Reserva.ID, usuario: String, espacoId: UUID, intervalo: TimeRange, fingerprint: String?, receipt: WriteReceipt?,
        prefetched: Prefetched?
    ) async throws -> ReservaView? {
        let stream = StreamNames.reserva(id)
        let lido =
            if let prefetched, prefetched.covers([StreamRead(stream, from: 1)]) { prefetched } else {
                try await Prefetched.read([StreamRead(stream, from: 1)], from: store)
            }
        let eventos = lido.events(of: stream, after: 0) ?? []
        guard let primeiro = eventos.first else { return nil }
        let state = try await reservas.load(stream, prefetched: lido).state
        guard case .existente(let dados) = state else { return nil }
        let anterior = dados.solicitacao
        // Both fingerprints known and different: another request. (Either unknown: the fields say.)
        let antes = primeiro.metadata.requestFingerprint
        let outra = antes != nil && fingerprint != nil && antes != fingerprint
        // (The time it was booked for: it may have been moved since.)
        guard !outra, anterior.usuarioId == usuario, anterior.espacoId == espacoId, dados.intervaloSolicitado == intervalo else {
            throw ServiceError(
                .invalido, codigo: "chave_de_idempotencia_reutilizada", mensagem: "esta Idempotency-Key já foi usada com outra requisição")
        }
        // What the first request's append wrote with the booking (its days, its credits, its
        // coupon): the events of its transaction, so that the member's next query waits for them
        // as it would have after the first answer. Best effort: without them, the booking's own.
        let inicio = GlobalPosition(transaction: primeiro.position.transaction, sequence: primeiro.position.sequence - 1)
        let mesmaTransacao = ((try? await store.readAll(after: inicio, limit: 64)) ?? []).filter {
            $0.position.transaction == primeiro.position.transaction && $0.stream != stream
        }
        receipt?.markReplayed(eventos + mesmaTransacao)
        // Its company's pool, if it spent from it, is read next by the company's people too.
        if mesmaTransacao.contains(where: { StreamNames.empresa(daCarteira: $0.stream) != nil }) { receipt?.markShared() }
        return try Self.view(state)
    }
}
