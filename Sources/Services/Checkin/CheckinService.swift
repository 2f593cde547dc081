public import Domain
public import EventStore
import Foundation
import Messaging
public import Projections
import Telemetry

/// The checkin service. A confirmed booking gets a short code (and a QR payload) in its own
/// stream, `checkin-<reservaId>`; the member, or an admin at the front desk, checks in with it
/// inside the unit's window around the start and checks out any time later. A window that
/// closes without a check-in is a no-show (a durable timer over the `checkin_prazos` read
/// model); reservas reacts to `NoShowRegistrado` by releasing the rest of the slot.
public final class CheckinService: Sendable {
    let store: any ServiceStore
    let clock: any WallClock
    /// Seals and opens visitors' names and e-mails (nil: visitors cannot be registered here).
    let vault: PersonalDataVault?
    /// A member's name as their profile has it (nil for an unknown or erased account): the
    /// help desk's requests name their author for the team.
    let nomeDoMembro: @Sendable (String) async throws -> String?
    /// Deletes the kept answers (`Idempotency-Key`) that name a text (a tour's id): an erased
    /// prospect's contact must not outlive the erasure in a replayable answer.
    let esquecerRespostas: @Sendable (String) async throws -> Void
    /// Sign-ups to one community event in this process take turns (see ``StreamTurns``): forty
    /// at once would otherwise collide in the store more times than a command retries.
    let turnos = StreamTurns()

    public init(
        store: any ServiceStore, clock: any WallClock, vault: PersonalDataVault? = nil,
        nomeDoMembro: @escaping @Sendable (String) async throws -> String? = { _ in nil },
        esquecerRespostas: @escaping @Sendable (String) async throws -> Void = { _ in }
    ) {
        self.store = store
        self.clock = clock
        self.vault = vault
        self.nomeDoMembro = nomeDoMembro
        self.esquecerRespostas = esquecerRespostas
    }

    /// The bus consumer's name (queue `coworkflow.checkin`, inbox) and the events it reacts to.
    public static let consumidor = "checkin"
    public static let bindings = [
        Topology.routingKey(Reserva.Catalogo.confirmada), Topology.routingKey(Reserva.Catalogo.cancelada),
        Topology.routingKey(Usuario.Catalogo.dadosPessoaisApagados),
    ]

    var checkins: AggregateStore<Checkin.Command, Checkin.State, Checkin.Event, Checkin.Failure> {
        AggregateStore(store: store, decider: Checkin.decider) { try Checkin.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder) }
    }

    var reservas: AggregateStore<Reserva.Command, Reserva.State, Reserva.Event, Reserva.Failure> {
        AggregateStore(store: store, decider: Reserva.decider) { try Reserva.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder) }
    }

    var unidades: AggregateStore<Unidade.Command, Unidade.State, Unidade.Event, Unidade.Failure> {
        AggregateStore(store: store, decider: Unidade.decider) { try Unidade.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder) }
    }

    // MARK: Reactor

    /// The bus reactor: issues the code of a confirmed booking, revokes the code of a cancelled
    /// one, closes an erased member's open help-desk requests and gives up their places in
    /// coming events. Returns the writes for the bus to commit with the event's inbox row; a version
    /// conflict there redelivers the event and this decides again on fresh state.
    public func reagir(_ event: RecordedEvent) async throws -> [StreamWrite] {
        if event.type == Usuario.Catalogo.dadosPessoaisApagados.type {
            let apagado = try EventJSON.decoder.decode(Usuario.DadosPessoaisApagados.self, from: event.data)
            let usuario = apagado.usuarioId.description
            return try await fecharChamados(de: usuario, causa: event) + desistirDosEncontros(de: usuario, causa: event)
        }
        guard let reserva = try Reserva.Event.decode(type: event.type, data: event.data, using: EventJSON.decoder) else { return [] }
        switch reserva {
        case .confirmada(let e): return try await liberar(e.reservaId, causa: event)
        case .cancelada(let e): return try await revogar(e.reservaId, por: e.por, causa: event)
        default: return []
        }
    }

    /// Issues a fresh code unless the booking has one already or is no longer confirmed by now.
    func liberar(_ id: Reserva.ID, causa: RecordedEvent) async throws -> [StreamWrite] {
        let stream = StreamNames.checkin(id)
        let (state, version) = try await checkins.load(stream)
        guard case .inexistente = state,
            case .existente(let reserva) = try await reservas.load(StreamNames.reserva(id)).state, reserva.status == .confirmada
        else { return [] }
        let pedido = reserva.solicitacao
        let alvo = Checkin.Reservada(
            reservaId: id, usuarioId: pedido.usuarioId, espacoId: pedido.espacoId, unidadeId: pedido.unidadeId, intervalo: pedido.intervalo)
        let now = clock.now
        let command = Checkin.Command.liberar(alvo, codigo: .sorteado(), tolerancia: try await tolerancia(pedido.unidadeId), em: now)
        let events = try Checkin.decider.decide(command, state)
        guard !events.isEmpty else { return [] }
        return [StreamWrite(stream: stream, expected: .after(version), events: try Events.new(events, at: now, metadata: metadata(causa, id)))]
    }

    /// Revokes an awaited code; a booking without one, or whose check-in happened, is left alone.
    func revogar(_ id: Reserva.ID, por: String, causa: RecordedEvent) async throws -> [StreamWrite] {
        let stream = StreamNames.checkin(id)
        let (state, version) = try await checkins.load(stream)
        let now = clock.now
        guard let events = try? Checkin.decider.decide(.revogar(por: por, em: now), state), !events.isEmpty else { return [] }
        return [StreamWrite(stream: stream, expected: .after(version), events: try Events.new(events, at: now, metadata: metadata(causa, id)))]
    }

    /// The names of `usuarios` as their profiles have them (nil: an unknown or erased account),
    /// each profile read once however often it is named.
    func nomes(de usuarios: some Sequence<String>) async throws -> [String: String?] {
        var nomes: [String: String?] = [:]
        for usuario in usuarios where nomes[usuario] == nil { nomes[usuario] = .some(try await nomeDoMembro(usuario)) }
        return nomes
    }

    /// What a request writes in a stream correlated by `id` (a request, an event): its caller acts.
    func metadata(correlacao id: UUID, _ caller: Caller) -> EventMetadata {
        EventMetadata(correlationId: id, actor: caller.usuario ?? "admin", requestId: caller.requestId, service: Self.consumidor)
    }

    /// The reaction to an erased account (`system:lgpd`, caused by `causa`): `events` after the
    /// stream's `version`.
    func escritaDaLGPD<E: DomainEvent>(
        _ stream: StreamName, depoisDe version: Int64, _ events: [E], em: Date, causa: RecordedEvent, correlacao id: UUID
    ) throws -> StreamWrite {
        var meta = causa.metadata.caused(by: causa.eventId, correlationId: id)
        meta.actor = "system:lgpd"
        meta.service = Self.consumidor
        return StreamWrite(stream: stream, expected: .after(version), events: try Events.new(events, at: em, metadata: meta))
    }

    private func metadata(_ causa: RecordedEvent, _ id: Reserva.ID) -> EventMetadata {
        var meta = causa.metadata.caused(by: causa.eventId, correlationId: causa.metadata.correlationId ?? id.rawValue)
        meta.actor = Checkin.sistema
        meta.service = Self.consumidor
        return meta
    }

    /// The unit's window around the start; the default when the unit cannot be read.
    func tolerancia(_ unidade: UUID) async throws -> Checkin.Tolerancia {
        guard case .existente(let dados) = try await unidades.load(StreamNames.unidade(Unidade.ID(unidade))).state else { return .padrao }
        return Checkin.Tolerancia(antesMinutos: dados.janelaDeCheckin.antesMinutos, depoisMinutos: dados.janelaDeCheckin.depoisMinutos)
    }

    // MARK: Commands

    /// Checks in with `codigo` (typed, or the QR payload): the booking's member, or an admin at
    /// the front desk. Without `reservaId` (and without a QR payload) the booking is found by
    /// its code. 404 for an unknown code or someone else's booking, 422 `codigo_invalido`,
    /// 409 outside the window (`detalhes` has the instant the window opens or closed).
    public func checkin(codigo: String, reservaId: String?, usuario: String, admin: Bool, caller: Caller) async throws -> CheckinView {
        guard !codigo.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw ServiceError.invalido("codigo", "informe o código de check-in (6 caracteres) ou o conteúdo do QR")
        }
        // A QR payload is `coworkflow:checkin:<uuid>:<code>`, under 70 characters.
        guard codigo.utf8.count <= 200 else {
            throw ServiceError.invalido("codigo", "o código tem 6 caracteres e o conteúdo do QR menos de 70; este tem \(codigo.count)")
        }
        let leitura = Checkin.ler(codigo)
        let now = clock.now
        let id: Reserva.ID
        if let reservaId {
            id = try ReservasService.reservaId(reservaId)
            if let lida = leitura.reservaId, lida != id { throw ServiceError(Checkin.Failure.codigoInvalido) }
        } else if let lida = leitura.reservaId {
            id = lida
        } else {
            id = try await porCodigo(leitura.codigo, usuario: usuario, admin: admin, em: now)
        }
        let dados = try await acessivel(id, usuario: usuario, admin: admin)
        // The code is revoked by a reaction to the cancellation; until that lands (the bus
        // lags), the booking's own stream says whether it still stands.
        guard case .existente(let reserva) = try await reservas.load(StreamNames.reserva(id)).state, reserva.status == .confirmada else {
            throw ServiceError.conflito(
                "reserva_nao_confirmada", "esta reserva não está mais confirmada (foi cancelada ou expirou); o check-in não vale")
        }
        let fuso = try await fusoDaUnidade(dados.liberacao.unidadeId)
        let meta = EventMetadata(correlationId: id.rawValue, actor: usuario, requestId: caller.requestId, service: Self.consumidor)
        let state = try await checkins.handle(
            StreamNames.checkin(id), at: now, metadata: meta, receipt: caller.receipt, failure: { ServiceError($0, fuso: fuso) }
        ) { _ in
            .fazerCheckin(codigo: leitura.codigo, por: usuario, em: now)
        }
        return try Self.view(state)
    }

    /// Checks out after check-in: the booking's member or an admin.
    public func checkout(reservaId: String, usuario: String, admin: Bool, caller: Caller) async throws -> CheckinView {
        let id = try ReservasService.reservaId(reservaId)
        _ = try await acessivel(id, usuario: usuario, admin: admin)
        let now = clock.now
        let meta = EventMetadata(correlationId: id.rawValue, actor: usuario, requestId: caller.requestId, service: Self.consumidor)
        let state = try await checkins.handle(
            StreamNames.checkin(id), at: now, metadata: meta, receipt: caller.receipt, failure: { ServiceError($0) }
        ) { _ in
            .fazerCheckout(por: usuario, em: now)
        }
        return try Self.view(state)
    }

    /// The booking's check-in: code and QR payload while awaited, window, status.
    public func situacao(reservaId: String, usuario: String, admin: Bool) async throws -> CheckinView {
        let id = try ReservasService.reservaId(reservaId)
        let naoExiste = ServiceError.naoEncontrado("a reserva \(id) não existe ou ainda não tem check-in (só reservas confirmadas têm)")
        let view: CheckinView
        if let doc = try await store.document(CheckinReadModel.checkins, key: id.description) {
            view = try ReadModelJSON.decoder.decode(CheckinView.self, from: doc)
        } else if case .existente(let dados) = try await checkins.load(StreamNames.checkin(id)).state {
            view = CheckinView(dados)  // issued, not yet projected
        } else {
            throw naoExiste
        }
        guard admin || view.usuarioId == usuario else { throw naoExiste }
        return view
    }

    /// The check-in state of a booking `usuario` may act on: 404 for someone else's or an
    /// unknown booking, 409 `checkin_nao_liberado` for one of theirs without a code yet.
    private func acessivel(_ id: Reserva.ID, usuario: String, admin: Bool) async throws -> Checkin.Dados {
        let naoExiste = ServiceError.naoEncontrado("a reserva \(id) não existe")
        if case .existente(let dados) = try await checkins.load(StreamNames.checkin(id)).state {
            guard admin || dados.liberacao.usuarioId == usuario else { throw naoExiste }
            return dados
        }
        guard case .existente(let reserva) = try await reservas.load(StreamNames.reserva(id)).state,
            admin || reserva.solicitacao.usuarioId == usuario
        else { throw naoExiste }
        throw ServiceError(Checkin.Failure.naoLiberado)
    }

    /// The booking awaiting check-in with `texto` as its code and visible to the caller. Two
    /// bookings may share a code: the one whose window is open now wins; if that is not one,
    /// 409 `codigo_ambiguo` asks for the QR code or the booking id.
    private func porCodigo(_ texto: String, usuario: String, admin: Bool, em now: Date) async throws -> Reserva.ID {
        let desconhecido = ServiceError.naoEncontrado("nenhuma reserva aguarda check-in com este código")
        guard let codigo = Checkin.Codigo(texto) else { throw desconhecido }
        func lidos() async throws -> [CheckinCodigoView] {
            try await store.documents(CheckinReadModel.codigos, grupo: codigo.texto, limit: 20, offset: 0)
                .map { try ReadModelJSON.decoder.decode(CheckinCodigoView.self, from: $0) }
                .filter { admin || $0.usuarioId == usuario }
        }
        var visiveis = try await lidos()
        if visiveis.isEmpty {
            // A code issued a moment ago (the confirmation's reaction) may not be in the read
            // model yet (under load up to a beat, and its checkpoint is saved lazily, within
            // 100 ms): unknown once the read model has the log, or after half a second (a runner
            // that is down costs a mistyped code that much, not the usual 2 s).
            try await emDia(store, CheckinReadModel.projection.checkpoint, limite: .milliseconds(500))
            visiveis = try await lidos()
        }
        let abertos = visiveis.filter { $0.janela.contains(now) }
        let candidatos = abertos.isEmpty ? visiveis : abertos
        guard let unico = candidatos.first, let id = Reserva.ID(unico.reservaId) else { throw desconhecido }
        guard candidatos.count == 1 else {
            throw ServiceError(
                .conflito, codigo: "codigo_ambiguo",
                mensagem: "mais de uma reserva usa este código; leia o QR code ou informe a reserva", detalhes: ["campo": "reservaId"])
        }
        return id
    }

    /// The unit's time zone, for messages; the default zone when the unit cannot be read.
    func fusoDaUnidade(_ unidade: UUID) async throws -> TimeZone {
        if case .existente(let dados) = try await unidades.load(StreamNames.unidade(Unidade.ID(unidade))).state { return dados.fuso }
        return Unidade.fuso(nil)
    }

    static func view(_ state: Checkin.State) throws -> CheckinView {
        guard case .existente(let dados) = state else { throw ServiceError(Checkin.Failure.naoLiberado) }
        return CheckinView(dados)
    }

    // MARK: Timers

    /// Registers a no-show for every booking whose window closed without a check-in by the
    /// clock's now (the `checkin_prazos` timers, earliest first). Returns how many it recorded;
    /// one that changed meanwhile (checked in, revoked, recorded by another replica) is skipped.
    @discardableResult
    public func executarNoShowsVencidos(limite: Int = 200) async throws -> Int {
        let now = clock.now
        let prazos = try await lerPrazos(
            NoShowPrazoView.self, de: CheckinReadModel.projection, em: CheckinReadModel.prazos, limite: limite, store: store)
        var registrados = 0
        let vencidos = prazos.filter { $0.vence <= now }
        Self.metricasDosNoShows.found(vencidos.count)
        for prazo in vencidos {
            guard let id = Reserva.ID(prazo.reservaId) else { continue }
            let stream = StreamNames.checkin(id)
            let (state, version) = try await checkins.load(stream)
            guard let events = try? Checkin.decider.decide(.registrarNoShow(em: now), state), !events.isEmpty else { continue }
            let meta = EventMetadata(correlationId: id.rawValue, actor: Checkin.sistema, requestId: "no-show", service: Self.consumidor)
            do {
                try await Traces.continuing(prazo.traceparent, "checkin no-show") {
                    try await store.append(to: stream, expected: .after(version), events: try Events.new(events, at: now, metadata: meta))
                }
                registrados += 1
                Self.metricasDosNoShows.fired(late: now.timeIntervalSince(prazo.vence))
            } catch is WrongExpectedVersion {
                continue
            }
        }
        return registrados
    }

    static let metricasDosNoShows = TimerMetrics("checkin:no-shows")
}

extension ServiceError {
    /// An instant in a message: local time in `fuso` ("25/11/2026 às 09:45 (America/Sao_Paulo)"),
    /// or ISO 8601 (UTC) without a zone.
    static func quando(_ instant: Date, fuso: TimeZone?) -> String {
        guard let fuso else { return instant.formatted(Date.ISO8601FormatStyle()) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = fuso
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: instant)
        func two(_ value: Int?) -> String {
            let text = String(value ?? 0)
            return text.count < 2 ? "0" + text : text
        }
        return "\(two(c.day))/\(two(c.month))/\(c.year ?? 0) às \(two(c.hour)):\(two(c.minute)) (\(fuso.identifier))"
    }

    /// A check-in failure as the client sees it; `fuso` (the unit's) writes window instants as
    /// local time in the message. `detalhes` always carries them in ISO 8601 (UTC).
    init(_ failure: Checkin.Failure, fuso: TimeZone? = nil) {
        func iso(_ instant: Date) -> String { instant.formatted(Date.ISO8601FormatStyle()) }
        func quando(_ instant: Date) -> String { Self.quando(instant, fuso: fuso) }
        switch failure {
        case .naoLiberado:
            self = .conflito("checkin_nao_liberado", "o check-in desta reserva ainda não foi liberado: ele é liberado quando a reserva é confirmada")
        case .codigoInvalido:
            self = ServiceError(
                .invalido, codigo: "codigo_invalido", mensagem: "o código de check-in não confere com o desta reserva", detalhes: ["campo": "codigo"])
        case .cedoDemais(let abreEm):
            self = ServiceError(
                .conflito, codigo: "checkin_cedo_demais", mensagem: "ainda é cedo: o check-in desta reserva abre em \(quando(abreEm))",
                detalhes: ["abreEm": iso(abreEm)])
        case .tardeDemais(let fechaEm):
            self = ServiceError(
                .conflito, codigo: "checkin_encerrado", mensagem: "o prazo de check-in desta reserva terminou em \(quando(fechaEm))",
                detalhes: ["fechaEm": iso(fechaEm)])
        case .jaRealizado: self = .conflito("checkin_ja_realizado", "o check-in desta reserva já foi feito")
        case .semCheckin: self = .conflito("checkin_nao_realizado", "faça o check-in antes do check-out")
        case .checkoutJaRealizado: self = .conflito("checkout_ja_realizado", "o check-out desta reserva já foi feito")
        case .revogado: self = .conflito("checkin_revogado", "a reserva foi cancelada e o código de check-in não vale mais")
        case .noShowRegistrado:
            self = .conflito("no_show_registrado", "o prazo de check-in terminou sem check-in e o não comparecimento foi registrado")
        case .prazoNaoVenceu(let fechaEm):
            self = ServiceError(
                .conflito, codigo: "prazo_nao_vencido", mensagem: "o prazo de check-in ainda não terminou",
                detalhes: ["fechaEm": iso(fechaEm)])
        }
    }
}

extension Checkin.Codigo {
    /// Six characters drawn uniformly from the code alphabet by the system's CSPRNG
    /// (`SystemRandomNumberGenerator`: getrandom(2) on Linux). Issued by checkin on a booking's
    /// confirmation, or by reservas when a booking moves before checkin has (ADR 0021).
    static func sorteado() -> Self {
        var gerador = SystemRandomNumberGenerator()
        let letras = alfabeto.count
        return Self(indices: (0..<tamanho).map { _ in Int.random(in: 0..<letras, using: &gerador) })
    }
}
