import Domain
import EventStore
public import Foundation
public import Projections

extension ReservasService {
    // MARK: Moving a booking (ADR 0021)

    /// Moves a confirmed booking to `inicio`–`fim` on the same space, keeping its price, payment,
    /// credits, check-in code and terms: its owner while cancelling would still be free, not to a
    /// time the price table makes dearer; an operator (`admin`) any booking, until it starts.
    ///
    /// One append holds the move (`ReservaRemarcada`), every day it leaves and takes (the old
    /// time freed and the new one held on the days' agendas, each at the version read: a booking
    /// of the new time committed meanwhile makes it decide again, and it is then a 409
    /// `horario_indisponivel`) and the check-in code's new window (a check-in at the same instant
    /// and the move cannot both commit). Moving it to the time it has answers it as it is.
    public func remarcar(_ id: String, inicio: Date, fim: Date, usuario: String, admin: Bool, caller: Caller) async throws -> ReservaView {
        let id = try Self.reservaId(id)
        let stream = StreamNames.reserva(id)
        guard case .existente(let dados) = try await reservas.load(stream).state, admin || dados.solicitacao.usuarioId == usuario else {
            throw ServiceError.naoEncontrado("a reserva \(id) não existe")
        }
        let para = try PrecosService.intervalo(inicio, fim)
        let now = clock.now
        let espacoId = Espaco.ID(dados.solicitacao.espacoId)
        // The space, its unit and its table as they are now; the prices of both times compared
        // on the same table (what the member would pay for each today, before discounts).
        let novo = try await precos.quote(espacoId, intervalo: para, cupom: nil, plano: nil, em: now)
        let fuso = novo.unidade.fuso
        let dias = DataLocal.dias(de: para, em: fuso)
        let condicoes = Reserva.Condicoes(espaco: novo.espaco, intervalo: para, fuso: fuso)
        let politica = novo.unidade.politica
        // The booking's own rules first (status, start, length, the member's window), then the price.
        do {
            _ = try Reserva.decider.decide(
                .remarcar(para: para, dias: dias, condicoes: condicoes, por: usuario, politica: politica, livre: admin, em: now),
                .existente(dados))
        } catch .fechado where novo.espaco.bloqueios.contains(where: { $0.motivo == .locacao && $0.intervalo.overlaps(para) }) {
            throw ServiceError.invalido("inicio", "o espaço está locado neste período: é a mesa fixa ou a sala privativa de um cliente")
        } catch {
            throw ServiceError(error)
        }
        if !admin, para != dados.intervalo {
            let atual = try await precos.quote(espacoId, intervalo: dados.intervalo, cupom: nil, plano: nil, em: now)
            if novo.cotacao.subtotal > atual.cotacao.subtotal {
                throw ServiceError(
                    .conflito, codigo: "remarcacao_mais_cara",
                    mensagem: "o novo horário custa mais (\(novo.cotacao.subtotal) contra \(atual.cotacao.subtotal)): "
                        + "cancele esta reserva e reserve o novo horário, ou escolha um horário de mesmo preço",
                    detalhes: ["campo": "inicio", "novo": String(novo.cotacao.subtotal.centavos), "atual": String(atual.cotacao.subtotal.centavos)])
            }
        }
        let limite = novo.espaco.tipo.compartilhado ? novo.espaco.capacidade : 1
        let tolerancia = Checkin.Tolerancia(
            antesMinutos: novo.unidade.janelaDeCheckin.antesMinutos, depoisMinutos: novo.unidade.janelaDeCheckin.depoisMinutos)
        let meta = EventMetadata(correlationId: id.rawValue, actor: usuario, requestId: caller.requestId, service: Self.service)
        let agendas = Set(dados.solicitacao.dias + dias).map { StreamNames.agenda(espacoId.rawValue, $0) }
        return try await turnos.withTurn(of: agendas) {
            for _ in 1...Self.tentativas {
                let (state, version) = try await reservas.load(stream)
                guard case .existente(let atual) = state else { throw ServiceError.naoEncontrado("a reserva \(id) não existe") }
                let movida: [Reserva.Event]
                do throws(Reserva.Failure) {
                    movida = try Reserva.decider.decide(
                        .remarcar(para: para, dias: dias, condicoes: condicoes, por: usuario, politica: politica, livre: admin, em: now), state)
                } catch {
                    throw ServiceError(error)
                }
                guard case .remarcada(let remarcada)? = movida.first else { return try Self.view(state) }
                var writes = [StreamWrite(stream: stream, expected: .after(version), events: try Events.new(movida, at: now, metadata: meta))]
                writes += try await agendaMoves(
                    id, de: atual.solicitacao.dias, para: remarcada, espacoId: espacoId.rawValue, limite: limite, revisao: novo.espacoVersao,
                    meta: meta, em: now)
                writes += try await checkinMove(id, atual.solicitacao, para: para, tolerancia: tolerancia, meta: meta, em: now)
                writes += try await usoMoves([(atual.solicitacao, remarcada)], livre: admin, meta: meta, em: now)
                do {
                    try await store.append(writes, receipt: caller.receipt)
                    return try Self.view(movida.reduce(state, Reserva.decider.evolve))
                } catch is WrongExpectedVersion {
                    continue  // a booking, a check-in or another move got there first: decide again
                }
            }
            throw ServiceError.indisponivel("o horário está muito disputado agora; tente de novo em instantes", retryAfter: 1)
        }
    }

    /// Every day the move touches: the old time freed on the days it leaves, the new time held
    /// on the days it takes (freed, then held again, on a day it keeps), each at the version read.
    private func agendaMoves(
        _ id: Reserva.ID, de antigos: [DataLocal], para remarcada: Reserva.Remarcada, espacoId: UUID, limite: Int, revisao: Int64,
        meta: EventMetadata, em now: Date
    ) async throws -> [StreamWrite] {
        var writes: [StreamWrite] = []
        for dia in Set(antigos + remarcada.dias).sorted() {
            let agenda = agenda(espacoId, dia)
            let stream = StreamNames.agenda(espacoId, dia)
            let (lido, version) = try await agenda.load(stream)
            var state = lido
            var events: [Agenda.Event] = []
            if antigos.contains(dia) {
                let freed = try agenda.decider.decide(.liberar(reserva: id.rawValue, em: now), state)
                state = freed.reduce(state, agenda.decider.evolve)
                events += freed
            }
            if remarcada.dias.contains(dia) {
                do {
                    events += try agenda.decider.decide(
                        .ocupar(reserva: id.rawValue, intervalo: remarcada.para, limite: limite, revisao: revisao, em: now), state)
                } catch .bloqueada {
                    throw ServiceError(Reserva.Failure.fechado)
                } catch {
                    throw Self.horarioIndisponivel(espacoId, dia, limite: limite, trecho: "do novo horário")
                }
            }
            guard !events.isEmpty else { continue }
            writes.append(StreamWrite(stream: stream, expected: .after(version), events: try Events.new(events, at: now, metadata: meta)))
        }
        return writes
    }

    /// The company pool's use of each moved booking, counted from now on in the month it moves
    /// to (its unit's zone), in the move's append: one write per pool, at the version read, so a
    /// booking spending the pool meanwhile makes the move decide again. A member's move into a
    /// month where their cap leaves too little for it is a 409 `limite_do_mes` naming `inicio`;
    /// the front desk's (`livre`) counts there whatever the cap, as it may move to a dearer time.
    /// `naMovida` words an error for the move it concerns (its index in `movidas`).
    func usoMoves(
        _ movidas: [(solicitacao: Reserva.Solicitada, remarcada: Reserva.Remarcada)], livre: Bool, meta: EventMetadata, em now: Date,
        naMovida: (Int, ServiceError) -> ServiceError = { $1 }
    ) async throws -> [StreamWrite] {
        var pools: [String: (state: Carteira.State, version: Int64, events: [Carteira.Event])] = [:]
        for (indice, movida) in movidas.enumerated() {
            guard let creditos = movida.solicitacao.creditos, creditos.daEmpresa != nil, let dia = movida.remarcada.dias.first else { continue }
            let mes = CalendarioAnalitico.mes(dia)
            // Within its month (most moves) its use stays where it is: nothing to read. (Its use
            // follows each move since session 95, so it counts in the month of the time it
            // leaves; one moved across months before that keeps the month it was booked for.)
            if let antes = movida.remarcada.diasAnteriores.first, CalendarioAnalitico.mes(antes) == mes { continue }
            let atual = try await precos.pool(creditos.titular, mes: mes, prefetched: nil)
            // The pool it spent (a booking from before that was recorded: the member's company now).
            guard let titular = creditos.empresa ?? atual?.titular else { continue }
            var pool: (state: Carteira.State, version: Int64, events: [Carteira.Event])
            if let lido = pools[titular] {
                pool = lido
            } else {
                let (state, version) = try await precos.carteiras.load(StreamNames.creditos(titular))
                pool = (state, version, [])
            }
            // Their cap in that company now; none once they left it (what they booked stays theirs).
            let limite = livre ? nil : atual.flatMap { $0.titular == titular ? $0.uso.limite : nil }
            let events: [Carteira.Event]
            do throws(Carteira.Failure) {
                events = try Carteira.decider.decide(
                    .remarcarUso(titular: titular, reserva: movida.remarcada.reservaId.rawValue, mes: mes, limite: limite, em: now), pool.state)
            } catch .limiteDoMes(let medida, let disponivel) {
                let unidade = medida == .minutos ? "minutos" : "centavos"
                throw naMovida(
                    indice,
                    ServiceError(
                        .conflito, codigo: "limite_do_mes",
                        mensagem: "o seu limite mensal nos créditos da empresa deixa só \(disponivel) \(unidade) em \(mes), menos do que esta "
                            + "reserva usa: escolha um horário no mês em que ela está, ou cancele e reserve o novo horário",
                        detalhes: ["campo": "inicio", "mes": mes, "disponivel": String(disponivel)]))
            } catch {
                throw naMovida(indice, ServiceError(error))
            }
            pool.state = events.reduce(pool.state, Carteira.decider.evolve)
            pool.events += events
            pools[titular] = pool
        }
        var writes: [StreamWrite] = []
        for (titular, pool) in pools.sorted(by: { $0.key < $1.key }) where !pool.events.isEmpty {
            writes.append(
                StreamWrite(
                    stream: StreamNames.creditos(titular), expected: .after(pool.version),
                    events: try Events.new(pool.events, at: now, metadata: meta)))
        }
        return writes
    }

    /// The check-in code's new window, in the move's append. A booking just confirmed whose code
    /// checkin has not issued yet gets it here, for the new time (`CheckinLiberado`, on the
    /// empty stream): checkin's own issue, decided on the booking's old time, then finds the
    /// stream written and decides again (it has a code: nothing to do). Once issued, the code's
    /// stream is written at the version read, so a check-in at the same instant and the move
    /// cannot both commit. A member already checked in is not moved (409 `checkin_realizado`).
    func checkinMove(
        _ id: Reserva.ID, _ pedido: Reserva.Solicitada, para: TimeRange, tolerancia: Checkin.Tolerancia, meta: EventMetadata, em now: Date
    ) async throws
        -> [StreamWrite]
    {
        let stream = StreamNames.checkin(id)
        let (state, version) = try await checkins.load(stream)
        if case .inexistente = state {
            let alvo = Checkin.Reservada(
                reservaId: id, usuarioId: pedido.usuarioId, espacoId: pedido.espacoId, unidadeId: pedido.unidadeId, intervalo: para)
            let liberado = try Checkin.decider.decide(.liberar(alvo, codigo: .sorteado(), tolerancia: tolerancia, em: now), state)
            return [StreamWrite(stream: stream, expected: .after(version), events: try Events.new(liberado, at: now, metadata: meta))]
        }
        let events: [Checkin.Event]
        do {
            events = try Checkin.decider.decide(.remarcar(intervalo: para, tolerancia: tolerancia, em: now), state)
        } catch .jaRealizado {
            throw ServiceError.conflito("checkin_realizado", "esta reserva já teve check-in e não pode mais mudar de horário")
        } catch {
            return []
        }
        guard !events.isEmpty else { return [] }
        return [StreamWrite(stream: stream, expected: .after(version), events: try Events.new(events, at: now, metadata: meta))]
    }
}
