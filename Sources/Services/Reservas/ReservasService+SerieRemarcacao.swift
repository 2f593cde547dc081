import Domain
import EventStore
public import Foundation
import Projections

extension ReservasService {
    // MARK: Moving the rest of a series (ADR 0014, ADR 0021)

    /// Moves the series' bookings from occurrence `aPartirDe` on to a new time: occurrence
    /// `aPartirDe` to `inicio`–`fim`, and every later one to the same local time, as many days
    /// earlier or later as that one moves (0 to 6: another day of the same week; a Monday-to-Friday
    /// series keeps its days). Each booking moves as ``remarcar(_:inicio:fim:usuario:admin:caller:)``
    /// moves one (confirmed, not started, the same length; a member's while cancelling would be
    /// free and not to a dearer time; an operator's any, until it starts); ones cancelled, ended,
    /// started or checked into stay where they are.
    ///
    /// All of them move or none does: one append holds every `ReservaRemarcada` (marked as the
    /// series', ``Reserva/Remarcada/daSerie``), every day's agenda they leave and take, their
    /// check-in codes' new windows and the series' record of the move (``SerieDeReservas/Remarcada``,
    /// the member's one notice). An occurrence that cannot move refuses the whole move, its
    /// number and date in the message (`detalhes.ocorrencia`), so the member can cancel or move
    /// that one alone and try again. 409 `nada_a_remarcar` when none is left to move.
    public func remarcarSerie(
        _ texto: String, aPartirDe: Int, inicio: Date, fim: Date, usuario: String, admin: Bool, caller: Caller
    ) async throws -> SerieView {
        let dados = try await serieDe(texto, usuario: usuario, admin: admin)
        guard let pivo = dados.serie.ocorrencias.first(where: { $0.numero == aPartirDe }) else {
            throw ServiceError.invalido("aPartirDe", "a série tem as ocorrências 1 a \(dados.serie.ocorrencias.count)")
        }
        guard let pivoId = pivo.reservaId, case .existente(let pivoDados) = try await reservas.load(StreamNames.reserva(pivoId)).state else {
            throw ServiceError.invalido("aPartirDe", "a ocorrência \(aPartirDe) não foi reservada: escolha uma que foi")
        }
        let para = try PrecosService.intervalo(inicio, fim)
        let now = clock.now
        let espacoId = Espaco.ID(dados.serie.espacoId)
        let lugar = try await precos.quote(espacoId, intervalo: para, cupom: nil, plano: nil, em: now)
        let fuso = lugar.unidade.fuso
        let deslocamento = DataLocal(pivoDados.intervalo.start, em: fuso).dias(ate: DataLocal(para.start, em: fuso))
        if dados.serie.frequencia == .diasUteis, deslocamento != 0 {
            throw ServiceError.invalido("inicio", "uma série de segunda a sexta muda de horário, não de dia: escolha um horário no mesmo dia")
        }
        guard abs(deslocamento) <= 6 else {
            throw ServiceError.invalido("inicio", "a série muda para outro horário ou outro dia da mesma semana: até 6 dias antes ou depois")
        }
        // The new start on the local wall clock, kept on every date (as the series was booked).
        var calendario = Calendar(identifier: .gregorian)
        calendario.timeZone = fuso
        let hora = calendario.dateComponents([.hour, .minute, .second, .nanosecond], from: para.start)
        let minutos = (hora.hour ?? 0) * 60 + (hora.minute ?? 0)
        let resto = Double(hora.second ?? 0) + Double(hora.nanosecond ?? 0) / 1e9

        // What moves: each active booking from `aPartirDe` on, not started and not checked into.
        var alvos: [(numero: Int, id: Reserva.ID, de: TimeRange, diasAtuais: [DataLocal], para: TimeRange)] = []
        for ocorrencia in dados.serie.ocorrencias where ocorrencia.numero >= aPartirDe {
            guard let reservaId = ocorrencia.reservaId,
                case .existente(let reserva) = try await reservas.load(StreamNames.reserva(reservaId)).state,
                reserva.status.ativa, reserva.intervalo.start > now
            else { continue }
            if case .existente(let checkin) = try await checkins.load(StreamNames.checkin(reservaId)).state, checkin.status != .aguardando {
                continue
            }
            let data = DataLocal(reserva.intervalo.start, em: fuso).adding(dias: deslocamento)
            let comeco = data.instante(minutos: minutos, em: fuso).addingTimeInterval(resto)
            alvos.append(
                (
                    ocorrencia.numero, reservaId, reserva.intervalo, reserva.solicitacao.dias,
                    try TimeRange(start: comeco, end: comeco.addingTimeInterval(para.duration))
                ))
        }
        func naOcorrencia(_ numero: Int, _ intervalo: TimeRange, _ erro: ServiceError) -> ServiceError {
            let data = DataLocal(intervalo.start, em: fuso).brasileira
            return ServiceError(
                erro.kind, codigo: erro.codigo, mensagem: "a ocorrência \(numero) (\(data)) não pode mudar: \(erro.mensagem)",
                detalhes: erro.detalhes.merging(["ocorrencia": String(numero)]) { atual, _ in atual }, retryAfter: erro.retryAfter)
        }
        // A member's move may not make any of them dearer (the same table, before discounts).
        if !admin {
            for alvo in alvos where alvo.para != alvo.de {
                let novo = try await precos.quote(espacoId, intervalo: alvo.para, cupom: nil, plano: nil, em: now)
                let atual = try await precos.quote(espacoId, intervalo: alvo.de, cupom: nil, plano: nil, em: now)
                if novo.cotacao.subtotal > atual.cotacao.subtotal {
                    throw naOcorrencia(
                        alvo.numero, alvo.de,
                        ServiceError(
                            .conflito, codigo: "remarcacao_mais_cara",
                            mensagem: "o novo horário custa mais (\(novo.cotacao.subtotal) contra \(atual.cotacao.subtotal)); "
                                + "cancele esta ocorrência ou escolha um horário de mesmo preço",
                            detalhes: ["campo": "inicio"]))
                }
            }
        }
        let politica = lugar.unidade.politica
        let limite = lugar.espaco.tipo.compartilhado ? lugar.espaco.capacidade : 1
        let tolerancia = Checkin.Tolerancia(
            antesMinutos: lugar.unidade.janelaDeCheckin.antesMinutos, depoisMinutos: lugar.unidade.janelaDeCheckin.depoisMinutos)
        let meta = EventMetadata(correlationId: dados.id.rawValue, actor: usuario, requestId: caller.requestId, service: Self.service)
        let dias = Set(alvos.flatMap { $0.diasAtuais + DataLocal.dias(de: $0.para, em: fuso) })
        let agendas = dias.map { StreamNames.agenda(espacoId.rawValue, $0) }
        return try await turnos.withTurn(of: agendas) {
            for _ in 1...Self.tentativas {
                var writes: [StreamWrite] = []
                var movidas: [(numero: Int, atual: Reserva.Dados, remarcada: Reserva.Remarcada)] = []
                for alvo in alvos {
                    let stream = StreamNames.reserva(alvo.id)
                    let (state, version) = try await reservas.load(stream)
                    guard case .existente(let atual) = state else { continue }
                    let condicoes = Reserva.Condicoes(espaco: lugar.espaco, intervalo: alvo.para, fuso: fuso)
                    let eventos: [Reserva.Event]
                    do throws(Reserva.Failure) {
                        eventos = try Reserva.decider.decide(
                            .remarcar(
                                para: alvo.para, dias: DataLocal.dias(de: alvo.para, em: fuso), condicoes: condicoes, por: usuario,
                                politica: politica, livre: admin, em: now, daSerie: true),
                            state)
                    } catch .fechado where lugar.espaco.bloqueios.contains(where: { $0.motivo == .locacao && $0.intervalo.overlaps(alvo.para) }) {
                        throw naOcorrencia(
                            alvo.numero, atual.intervalo,
                            .invalido("inicio", "o espaço está locado neste período: é a mesa fixa ou a sala privativa de um cliente"))
                    } catch {
                        throw naOcorrencia(alvo.numero, atual.intervalo, ServiceError(error))
                    }
                    guard case .remarcada(let remarcada)? = eventos.first else { continue }  // already at that time
                    writes.append(StreamWrite(stream: stream, expected: .after(version), events: try Events.new(eventos, at: now, metadata: meta)))
                    movidas.append((alvo.numero, atual, remarcada))
                }
                guard !movidas.isEmpty else {
                    throw ServiceError.conflito(
                        "nada_a_remarcar",
                        "nenhuma reserva da série a partir da ocorrência \(aPartirDe) está confirmada, por começar e fora deste horário")
                }
                writes += try await agendaMovesDaSerie(
                    movidas.map { ($0.numero, $0.atual.solicitacao.dias, $0.remarcada) }, espacoId: espacoId.rawValue, limite: limite,
                    revisao: lugar.espacoVersao, fuso: fuso, meta: meta, em: now, naOcorrencia: naOcorrencia)
                for movida in movidas {
                    do {
                        writes += try await checkinMove(
                            movida.remarcada.reservaId, movida.atual.solicitacao, para: movida.remarcada.para, tolerancia: tolerancia, meta: meta,
                            em: now)
                    } catch let erro as ServiceError {
                        throw naOcorrencia(movida.numero, movida.atual.intervalo, erro)
                    }
                }
                writes += try await usoMoves(
                    movidas.map { ($0.atual.solicitacao, $0.remarcada) }, livre: admin, meta: meta, em: now,
                    naMovida: { indice, erro in naOcorrencia(movidas[indice].numero, movidas[indice].atual.intervalo, erro) })
                let serieStream = StreamNames.serie(dados.id)
                let (serieState, serieVersion) = try await series.load(serieStream)
                let registro: [SerieDeReservas.Event]
                do throws(SerieDeReservas.Failure) {
                    registro = try SerieDeReservas.decider.decide(
                        .remarcar(
                            aPartirDe: aPartirDe,
                            movidas: movidas.map { .init(reservaId: $0.remarcada.reservaId, de: $0.remarcada.de, para: $0.remarcada.para) },
                            por: usuario, em: now),
                        serieState)
                } catch {
                    throw ServiceError(error)
                }
                writes.append(
                    StreamWrite(stream: serieStream, expected: .after(serieVersion), events: try Events.new(registro, at: now, metadata: meta)))
                do {
                    try await store.append(writes, receipt: caller.receipt)
                } catch is WrongExpectedVersion {
                    continue  // a booking, a check-in or another move got there first: decide again
                }
                guard case .existente(let depois) = registro.reduce(serieState, SerieDeReservas.decider.evolve) else {
                    throw ServiceError(SerieDeReservas.Failure.inexistente)
                }
                return try await view(depois, movidas: Dictionary(uniqueKeysWithValues: movidas.map { ($0.remarcada.reservaId, $0.remarcada.para) }))
            }
            throw ServiceError.indisponivel("os horários estão muito disputados agora; tente de novo em instantes", retryAfter: 1)
        }
    }

    /// Every day a series' move touches, each written once: first every old time freed, then
    /// every new one held (a Monday-to-Friday series moved an hour on frees and takes the same
    /// days), each at the version read.
    private func agendaMovesDaSerie(
        _ movidas: [(numero: Int, antigos: [DataLocal], remarcada: Reserva.Remarcada)], espacoId: UUID, limite: Int, revisao: Int64,
        fuso: TimeZone, meta: EventMetadata, em now: Date, naOcorrencia: (Int, TimeRange, ServiceError) -> ServiceError
    ) async throws -> [StreamWrite] {
        let dias = Set(movidas.flatMap { $0.antigos + $0.remarcada.dias }).sorted()
        var lidos: [DataLocal: (state: Agenda.State, version: Int64, events: [Agenda.Event])] = [:]
        for dia in dias {
            let (state, version) = try await agenda(espacoId, dia).load(StreamNames.agenda(espacoId, dia))
            lidos[dia] = (state, version, [])
        }
        let decider = agenda(espacoId, dias[0]).decider
        func aplicar(_ dia: DataLocal, _ decidir: (Agenda.State) throws(Agenda.Failure) -> [Agenda.Event]) throws(Agenda.Failure) {
            guard var lido = lidos[dia] else { return }
            let events = try decidir(lido.state)
            lido.state = events.reduce(lido.state, decider.evolve)
            lido.events += events
            lidos[dia] = lido
        }
        for movida in movidas {
            for dia in movida.antigos {
                do throws(Agenda.Failure) {
                    try aplicar(dia) { state throws(Agenda.Failure) in
                        try decider.decide(.liberar(reserva: movida.remarcada.reservaId.rawValue, em: now), state)
                    }
                } catch {
                    throw naOcorrencia(movida.numero, movida.remarcada.de, ServiceError.conflito("agenda", "o horário atual não pôde ser liberado"))
                }
            }
        }
        for movida in movidas {
            for dia in movida.remarcada.dias {
                do throws(Agenda.Failure) {
                    try aplicar(dia) { state throws(Agenda.Failure) in
                        try decider.decide(
                            .ocupar(
                                reserva: movida.remarcada.reservaId.rawValue, intervalo: movida.remarcada.para, limite: limite, revisao: revisao,
                                em: now),
                            state)
                    }
                } catch .bloqueada {
                    throw naOcorrencia(movida.numero, movida.remarcada.de, ServiceError(Reserva.Failure.fechado))
                } catch {
                    throw naOcorrencia(
                        movida.numero, movida.remarcada.de, Self.horarioIndisponivel(espacoId, dia, limite: limite, trecho: "do novo horário"))
                }
            }
        }
        return try dias.compactMap { dia in
            guard let lido = lidos[dia], !lido.events.isEmpty else { return nil }
            return StreamWrite(
                stream: StreamNames.agenda(espacoId, dia), expected: .after(lido.version),
                events: try Events.new(lido.events, at: now, metadata: meta))
        }
    }
}
