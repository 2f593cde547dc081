public import Domain
import EventStore
public import Foundation
import Projections

/// A series as its member reads it: each occurrence with its booking's status now.
public struct SerieView: Codable, Sendable, Equatable {
    public struct Ocorrencia: Codable, Sendable, Equatable {
        public let numero: Int
        public let inicio: Date
        public let fim: Date
        /// The occurrence's booking (absent: refused, see `recusa`).
        public let reservaId: String?
        /// The booking's status now (absent: refused, or not in the read model yet).
        public let status: Reserva.Status?
        public let total: Money?
        public let recusa: SerieDeReservas.Recusa?
    }

    public let id: String
    public let usuarioId: String
    public let espacoId: String
    public let unidadeId: String
    public let frequencia: SerieDeReservas.Frequencia
    public let ocorrencias: [Ocorrencia]
    /// How many were booked and refused when the series was made.
    public let reservadas: Int
    public let recusadas: Int
    public let criadaEm: Date
    /// The last cancellation of (the rest of) the series.
    public let canceladaEm: Date?
    public let ultimoCancelamento: Cancelamento?
    /// The last move of (the rest of) the series: the bookings it moved.
    public let ultimaRemarcacao: Cancelamento?

    /// A cancellation (or a move) of the series from occurrence `aPartirDe` on: the bookings it
    /// cancelled (moved).
    public struct Cancelamento: Codable, Sendable, Equatable {
        public let em: Date
        public let aPartirDe: Int
        public let reservas: [String]
    }
}

extension ReservasService {
    /// A recurring booking: the first occurrence (`inicio`, `fim`) and how it repeats.
    public struct PedidoDeSerie: Decodable, Sendable {
        public let espacoId: String
        public let inicio: Date
        public let fim: Date
        /// `semanal`, `quinzenal`, `dias_uteis`, `mensal` or `mensal_no_dia`.
        public let frequencia: String
        /// How many occurrences, the first included: 2 to ``SerieDeReservas/maximoDeOcorrencias``.
        public let ocorrencias: Int
        /// A card, charged once per occurrence as each is booked, or (an operator) `manual`: paid
        /// at the desk. Absent: only the occurrences that cost nothing (credits, a plan,
        /// discounts) are booked.
        public let pagamento: Reserva.FormaDePagamento?
        /// A series for someone else, as a booking for them (``PedidoDeReserva/paraUsuarioId``):
        /// its bookings, prices, credits and notice are theirs.
        public let paraUsuarioId: String?
        /// A coupon for each occurrence, one use each, while it has uses: once it runs out (or
        /// is deactivated meanwhile) the rest are booked at their own price. One the series
        /// could not use at all (unknown, inactive, outside its validity, used up) is a 422
        /// naming `cupom`, and nothing is booked.
        public let cupom: String?
    }

    var series: AggregateStore<SerieDeReservas.Command, SerieDeReservas.State, SerieDeReservas.Event, SerieDeReservas.Failure> {
        AggregateStore(store: store, decider: SerieDeReservas.decider) {
            try SerieDeReservas.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder)
        }
    }

    /// Books every occurrence of the series for `usuario`, one booking each, in order; an
    /// occurrence the space refuses (taken, closed, beyond the space's horizon, costing money
    /// with no card) is recorded with its reason, and the rest are booked. 201 with the series;
    /// 409 `serie_sem_reservas` when none could be booked (nothing is written).
    ///
    /// Each occurrence's booking id derives from the series' id and its number, and the series'
    /// id from the request's `Idempotency-Key` when it has one: a retry after a failure half way
    /// finds the bookings already made and books the rest.
    public func solicitarSerie(_ pedido: PedidoDeSerie, usuario: String, caller: Caller) async throws -> SerieView {
        let espacoId = try EspacosService.espacoId(pedido.espacoId, campo: "espacoId")
        let primeira = try PrecosService.intervalo(pedido.inicio, pedido.fim)
        guard let frequencia = SerieDeReservas.Frequencia(rawValue: pedido.frequencia) else {
            throw ServiceError.invalido(
                "frequencia",
                "frequencia é 'semanal', 'quinzenal', 'dias_uteis' (segunda a sexta), 'mensal' (o mesmo dia da semana de cada mês, "
                    + "como a segunda terça) ou 'mensal_no_dia' (o mesmo dia de cada mês, como o dia 15), não '\(pedido.frequencia.prefix(40))'")
        }
        let maximo = SerieDeReservas.maximoDeOcorrencias
        guard (2...maximo).contains(pedido.ocorrencias) else {
            throw ServiceError.invalido("ocorrencias", "uma série tem de 2 a \(maximo) ocorrências, contando a primeira")
        }
        if let forma = pedido.pagamento, forma.metodo != .cartao, forma.metodo != .manual {
            throw ServiceError.invalido(
                "pagamento.metodo",
                "uma série se paga com cartão (cada reserva cobrada ao ser feita) ou com créditos; PIX e boleto, reserve uma a uma")
        }
        try Self.validar(pedido.pagamento)
        guard case .existente(let espaco) = try await precos.espacos.load(StreamNames.espaco(espacoId)).state else {
            throw ServiceError.invalido("espacoId", "o espaço \(espacoId) não existe")
        }
        guard case .existente(let unidade) = try await precos.unidades.load(StreamNames.unidade(espaco.unidade)).state else {
            throw ServiceError.invalido("espacoId", "a unidade do espaço \(espacoId) não existe")
        }
        if frequencia == .diasUteis, DataLocal(primeira.start, em: unidade.fuso).diaDaSemana.fimDeSemana {
            throw ServiceError.invalido("inicio", "uma série de segunda a sexta começa num dia útil; a primeira ocorrência cai num fim de semana")
        }
        // For someone else: checked once (the caller's role today, the member's company), and each
        // occurrence is booked for them as ``solicitar`` books for someone (no legacy plan rule).
        var caller = caller
        var dono = usuario
        if let para = pedido.paraUsuarioId, para.lowercased() != usuario.lowercased() {
            caller = try await caller.comContaVerificada()
            dono = try await precos.reservaPara(para, por: usuario, admin: caller.papel == "admin")
            if dono != usuario {
                caller.receipt?.markShared()
                caller = Caller(
                    requestId: caller.requestId, usuario: usuario, papel: caller.papel, idempotencyKey: caller.idempotencyKey, plano: nil,
                    receipt: caller.receipt, requestFingerprint: caller.requestFingerprint)
            }
        }
        if pedido.pagamento?.metodo == .manual {
            caller = try await caller.comContaVerificada()
            guard caller.papel == "admin" else {
                throw ServiceError.proibido("só a recepção (um admin) registra uma série paga na recepção; pague com cartão")
            }
        }
        let id = SerieDeReservas.ID(caller.idempotencyKey.map { Events.derivedId("serie", $0) } ?? EventIDs.next())
        let stream = StreamNames.serie(id)
        if case .existente(let dados) = try await series.load(stream).state {
            guard dados.serie.usuarioId == dono, dados.serie.espacoId == espacoId.rawValue, dados.serie.frequencia == frequencia,
                dados.serie.ocorrencias.first?.intervalo == primeira, dados.serie.ocorrencias.count == pedido.ocorrencias
            else {
                throw ServiceError(
                    .invalido, codigo: "chave_de_idempotencia_reutilizada", mensagem: "esta Idempotency-Key já foi usada com outra requisição")
            }
            // What the first request wrote is what the caller's next query waits for.
            caller.receipt?.markReplayed(try await store.readStream(stream, from: 1, limit: 64))
            return try await view(dados)
        }
        let cupom = pedido.cupom.map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        if let cupom {
            // The coupon as the first occurrence would use it now; what else its quote says (the
            // slot's length, the space's table) is for each occurrence's booking to answer.
            do {
                _ = try await precos.quote(espacoId, intervalo: primeira, cupom: cupom, plano: nil, em: clock.now)
            } catch let erro as ServiceError where erro.detalhes["campo"] == "cupom" {
                // Unless this is the series resumed after a failure half way, whose first
                // bookings may have used it up themselves: they, and the rest, answer then.
                let primeiraReserva = Reserva.ID(Events.derivedId("reserva", "serie:\(id):1"))
                if try await store.streamVersion(StreamNames.reserva(primeiraReserva)) == 0 { throw erro }
            } catch is ServiceError {}
        }
        let intervalos = SerieDeReservas.ocorrencias(primeira: primeira, frequencia: frequencia, quantidade: pedido.ocorrencias, fuso: unidade.fuso)
        var ocorrencias: [SerieDeReservas.Ocorrencia] = []
        var reservas: [Int: ReservaView] = [:]
        for (indice, intervalo) in intervalos.enumerated() {
            let numero = indice + 1
            // Without a card, an occurrence is booked only when nothing is left to pay.
            func ocorrencia(cupom: String?) -> PedidoDeReserva {
                PedidoDeReserva(
                    espacoId: espacoId.description, inicio: intervalo.start, fim: intervalo.end, cupom: cupom, pagamento: pedido.pagamento,
                    totalEsperado: pedido.pagamento == nil ? 0 : nil, paraUsuarioId: nil)
            }
            // Its own receipt: an occurrence a resumed series finds booked does not make the answer a replay.
            let recibo = caller.receipt.map { _ in WriteReceipt() }
            defer { if let recibo { caller.receipt?.merge(recibo) } }
            let quem = Caller(
                requestId: caller.requestId, usuario: caller.usuario, papel: caller.papel, idempotencyKey: "serie:\(id):\(numero)",
                plano: caller.plano, receipt: recibo)
            do {
                let naSerie = Reserva.NaSerie(serieId: id, numero: numero)
                let reserva: ReservaView
                do {
                    reserva = try await solicitar(ocorrencia(cupom: cupom), usuario: dono, caller: quem, serie: naSerie)
                } catch let erro as ServiceError where cupom != nil && erro.detalhes["campo"] == "cupom" {
                    // Its last use went to an earlier occurrence (or someone else's booking), or
                    // it was deactivated meanwhile: this one and the rest at their own price.
                    reserva = try await solicitar(ocorrencia(cupom: nil), usuario: dono, caller: quem, serie: naSerie)
                }
                reservas[numero] = reserva
                ocorrencias.append(SerieDeReservas.Ocorrencia(numero: numero, intervalo: intervalo, reservaId: Reserva.ID(reserva.id), recusa: nil))
            } catch let erro as ServiceError where Self.recusaDaOcorrencia(erro) {
                let recusa =
                    if pedido.pagamento == nil, erro.codigo == "preco_alterado" {
                        SerieDeReservas.Recusa(
                            codigo: "pagamento_necessario",
                            mensagem: "esta ocorrência custa \(Money(centavos: Int64(erro.detalhes["total"] ?? "") ?? 0)) e a série não tem cartão")
                    } else {
                        SerieDeReservas.Recusa(codigo: erro.codigo, mensagem: erro.mensagem)
                    }
                ocorrencias.append(SerieDeReservas.Ocorrencia(numero: numero, intervalo: intervalo, reservaId: nil, recusa: recusa))
            }
        }
        let criacao = SerieDeReservas.Criacao(
            serieId: id, usuarioId: dono, espacoId: espacoId.rawValue, unidadeId: espaco.unidade.rawValue, frequencia: frequencia,
            ocorrencias: ocorrencias)
        let now = clock.now
        let meta = EventMetadata(correlationId: id.rawValue, actor: caller.usuario ?? usuario, requestId: caller.requestId, service: Self.service)
        let events: [SerieDeReservas.Event]
        do {
            events = try SerieDeReservas.decider.decide(.criar(criacao, por: caller.usuario ?? usuario, em: now), .inexistente)
        } catch .nenhumaReservada {
            let primeiraRecusa = ocorrencias.first?.recusa
            throw ServiceError(
                .conflito, codigo: "serie_sem_reservas",
                mensagem: "nenhuma ocorrência da série pôde ser reservada"
                    + (primeiraRecusa.map { ": a primeira, porque \($0.mensagem)" } ?? ""),
                detalhes: primeiraRecusa.map { ["motivo": $0.codigo] } ?? [:])
        } catch {
            throw ServiceError(error)
        }
        do {
            _ = try await store.append(
                to: stream, expected: .noStream, events: try Events.new(events, at: now, metadata: meta), receipt: caller.receipt)
        } catch is WrongExpectedVersion {
            // The same request, sent again while this one ran, recorded it first: the same bookings.
            if case .existente(let dados) = try await series.load(stream).state { return try await view(dados) }
            throw ServiceError.conflito("conflito_de_versao", "a série mudou durante a operação; tente de novo")
        }
        guard case .existente(let dados) = events.reduce(SerieDeReservas.State.inexistente, SerieDeReservas.decider.evolve) else {
            throw ServiceError(SerieDeReservas.Failure.inexistente)
        }
        return view(dados, reservas: reservas)
    }

    /// Whether a booking's failure is its occurrence's refusal (recorded; the rest go on): any
    /// answer of the space, the slot or the price (taken, closed, beyond the horizon, busy,
    /// nothing to pay with). Not one about the caller (their account, their rights) nor the key
    /// reused with another request: those stop the series and are its answer.
    static func recusaDaOcorrencia(_ erro: ServiceError) -> Bool {
        switch erro.kind {
        case .conflito, .invalido, .indisponivel: erro.codigo != "chave_de_idempotencia_reutilizada"
        default: false
        }
    }

    /// A series of the caller's (an admin: anyone's), its bookings as the read model has them.
    public func serie(_ texto: String, usuario: String, admin: Bool) async throws -> SerieView {
        try await view(try await serieDe(texto, usuario: usuario, admin: admin))
    }

    /// A booking its series' cancellation cancelled (`daSerie`) that no record of the series
    /// named a while later: the cancellation was cut short and nobody cancelled the series again.
    /// The series names it now, with every other such booking, so that the member hears of them
    /// once (the series' notice), as from the cancellation itself. Nothing when already named.
    func registrarCancelamentoDaSerie(_ id: Reserva.ID, at now: Date) async throws {
        guard case .existente(let reserva) = try await reservas.load(StreamNames.reserva(id)).state,
            let cancelamento = reserva.cancelamento, cancelamento.daSerie == true, let naSerie = reserva.solicitacao.serie,
            case .existente(let dados) = try await series.load(StreamNames.serie(naSerie.serieId)).state
        else { return }
        let nomeadas = Set(dados.cancelamentos.flatMap(\.canceladas))
        guard !nomeadas.contains(id) else { return }
        var pendentes: [(numero: Int, reserva: Reserva.ID)] = []
        for ocorrencia in dados.serie.ocorrencias {
            guard let reservaId = ocorrencia.reservaId, !nomeadas.contains(reservaId),
                case .existente(let outra) = try await reservas.load(StreamNames.reserva(reservaId)).state,
                outra.cancelamento?.daSerie == true
            else { continue }
            pendentes.append((ocorrencia.numero, reservaId))
        }
        guard let desde = pendentes.map(\.numero).min() else { return }
        let meta = EventMetadata(correlationId: dados.id.rawValue, actor: "system:prazos", requestId: "prazos", service: Self.service)
        try await series.handle(StreamNames.serie(dados.id), at: now, metadata: meta, receipt: nil, failure: ServiceError.init) { _ in
            .cancelar(aPartirDe: desde, canceladas: pendentes.map(\.reserva), por: cancelamento.por, motivo: cancelamento.motivo, em: now)
        }
    }

    /// Cancels the series' bookings from occurrence `aPartirDe` on (default: the first) that
    /// are still held or confirmed and have not started, each as its owner's cancellation of
    /// one booking (the unit's policy, its fee and refund; an operator's refunds it whole),
    /// marked as the series' (``Reserva/Cancelada/daSerie``): the series' cancellation, appended
    /// last, is what tells the member, once for all of them. 409 `nada_a_cancelar` when none is
    /// left to cancel.
    ///
    /// A cancellation cut short after some bookings is recorded for what it cancelled when a
    /// failure stops it; if the process stopped, or the store refused that record too, the next
    /// cancellation of the series (from any occurrence) names the bookings marked as the series'
    /// that no cancellation names yet, so the member is told of them too.
    public func cancelarSerie(
        _ texto: String, aPartirDe: Int?, motivo: String?, usuario: String, admin: Bool, aplicarMulta: Bool = false, caller: Caller
    ) async throws -> SerieView {
        try ServiceError.texto(motivo, campo: "motivo", maximo: 500)
        let dados = try await serieDe(texto, usuario: usuario, admin: admin)
        let desde = aPartirDe ?? 1
        guard dados.serie.ocorrencias.contains(where: { $0.numero == desde }) else {
            throw ServiceError.invalido("aPartirDe", "a série tem as ocorrências 1 a \(dados.serie.ocorrencias.count)")
        }
        let now = clock.now
        let meta = EventMetadata(correlationId: dados.id.rawValue, actor: usuario, requestId: caller.requestId, service: Self.service)
        let motivoLimpo = motivo?.trimmingCharacters(in: .whitespacesAndNewlines)
        /// The series' record of what its cancellation cancelled: the member's one notice.
        func registrar(_ canceladas: [Reserva.ID], desde: Int) async throws -> SerieDeReservas.State {
            try await series.handle(StreamNames.serie(dados.id), at: now, metadata: meta, receipt: caller.receipt, failure: ServiceError.init) { _ in
                .cancelar(aPartirDe: desde, canceladas: canceladas, por: usuario, motivo: motivoLimpo, em: now)
            }
        }
        var canceladas: [Reserva.ID] = []
        // From the first occurrence a cut-short cancellation cancelled, when it began earlier.
        var desdeRegistrado = desde
        let nomeadas = Set(dados.cancelamentos.flatMap(\.canceladas))
        do {
            for ocorrencia in dados.serie.ocorrencias {
                guard let reservaId = ocorrencia.reservaId,
                    case .existente(let reserva) = try await reservas.load(StreamNames.reserva(reservaId)).state
                else { continue }
                if reserva.cancelamento?.daSerie == true, !nomeadas.contains(reservaId) {
                    // Cancelled by a cancellation of the series cut short (from wherever it began).
                    canceladas.append(reservaId)
                    desdeRegistrado = min(desdeRegistrado, ocorrencia.numero)
                    continue
                }
                guard ocorrencia.numero >= desde, reserva.status.ativa, reserva.solicitacao.intervalo.start > now else { continue }
                // Checked in (the window opens before the start): it stays, also when an operator cancels.
                if case .existente(let checkin) = try await checkins.load(StreamNames.checkin(reservaId)).state, checkin.status != .aguardando {
                    continue
                }
                do {
                    _ = try await cancelar(
                        reservaId.description, motivo: motivo, usuario: usuario, admin: admin, aplicarMulta: aplicarMulta, daSerie: true,
                        caller: caller)
                    canceladas.append(reservaId)
                } catch let erro as ServiceError where erro.kind == .conflito {
                    // Changed meanwhile (checked in, expired): it stays as it is.
                    continue
                }
            }
        } catch {
            // Cut short by a failure (the store, a timeout): what it cancelled is still told, if
            // the store takes the record now; if not, the next cancellation of the series does.
            if !canceladas.isEmpty { _ = try? await registrar(canceladas, desde: desdeRegistrado) }
            throw error
        }
        guard !canceladas.isEmpty else {
            throw ServiceError.conflito(
                "nada_a_cancelar", "nenhuma reserva da série a partir da ocorrência \(desde) está ativa e por começar")
        }
        let state = try await registrar(canceladas, desde: desdeRegistrado)
        guard case .existente(let depois) = state else { throw ServiceError(SerieDeReservas.Failure.inexistente) }
        return try await view(depois)
    }

    func serieDe(_ texto: String, usuario: String, admin: Bool) async throws -> SerieDeReservas.Dados {
        guard let id = SerieDeReservas.ID(texto), case .existente(let dados) = try await series.load(StreamNames.serie(id)).state,
            admin || dados.serie.usuarioId == usuario
        else { throw ServiceError(SerieDeReservas.Failure.inexistente) }
        return dados
    }

    /// The series with its bookings as the read model has them now (`movidas`: as just moved).
    func view(_ dados: SerieDeReservas.Dados, movidas: [Reserva.ID: TimeRange] = [:]) async throws -> SerieView {
        let ids = dados.serie.ocorrencias.compactMap { $0.reservaId?.description }
        let docs = try await store.documents(ReservasReadModel.reservas, keys: ids)
        var reservas: [Int: ReservaView] = [:]
        for ocorrencia in dados.serie.ocorrencias {
            guard let id = ocorrencia.reservaId?.description, let doc = docs[id] else { continue }
            reservas[ocorrencia.numero] = try ReadModelJSON.decoder.decode(ReservaView.self, from: doc)
        }
        return view(dados, reservas: reservas, movidas: movidas)
    }

    /// `movidas`: bookings just moved, at their new times before the read model has them.
    private func view(_ dados: SerieDeReservas.Dados, reservas: [Int: ReservaView], movidas: [Reserva.ID: TimeRange] = [:]) -> SerieView {
        let serie = dados.serie
        // What the series cancelled reads as cancelled at once, before the read model has it.
        let canceladas = Set(dados.cancelamentos.flatMap(\.canceladas))
        return SerieView(
            id: serie.serieId.description, usuarioId: serie.usuarioId, espacoId: serie.espacoId.lowercasedString,
            unidadeId: serie.unidadeId.lowercasedString, frequencia: serie.frequencia,
            ocorrencias: serie.ocorrencias.map { o in
                let reserva = reservas[o.numero]
                let cancelada = o.reservaId.map(canceladas.contains) ?? false
                // An occurrence moved since (ADR 0021) reads at the time its booking holds now.
                let movida = o.reservaId.flatMap { movidas[$0] }
                return SerieView.Ocorrencia(
                    numero: o.numero, inicio: movida?.start ?? reserva?.inicio ?? o.intervalo.start,
                    fim: movida?.end ?? reserva?.fim ?? o.intervalo.end,
                    reservaId: o.reservaId?.description,
                    status: cancelada ? .cancelada : reserva?.status,
                    total: reserva?.total, recusa: o.recusa)
            },
            reservadas: serie.ocorrencias.count(where: { $0.reservaId != nil }), recusadas: serie.ocorrencias.count(where: { $0.reservaId == nil }),
            criadaEm: dados.criadaEm, canceladaEm: dados.cancelamentos.last?.em,
            ultimoCancelamento: dados.cancelamentos.last.map {
                SerieView.Cancelamento(em: $0.em, aPartirDe: $0.aPartirDe, reservas: $0.canceladas.map(\.description))
            },
            ultimaRemarcacao: dados.remarcacoes.last.map {
                SerieView.Cancelamento(em: $0.em, aPartirDe: $0.aPartirDe, reservas: $0.movidas.map(\.reservaId.description))
            })
    }
}

extension ServiceError {
    init(_ failure: SerieDeReservas.Failure) {
        switch failure {
        case .inexistente: self = .naoEncontrado("a série de reservas não existe")
        case .jaExiste: self = .conflito("serie_ja_existe", "esta série de reservas já existe")
        case .nenhumaReservada: self = .conflito("serie_sem_reservas", "nenhuma ocorrência da série pôde ser reservada")
        case .quantidade:
            self = .invalido("ocorrencias", "uma série tem de 2 a \(SerieDeReservas.maximoDeOcorrencias) ocorrências, contando a primeira")
        case .ocorrenciaInexistente: self = .invalido("aPartirDe", "a série não tem esta ocorrência")
        case .reservaAlheia: self = .conflito("reserva_alheia", "esta reserva não é uma ocorrência da série")
        }
    }
}
