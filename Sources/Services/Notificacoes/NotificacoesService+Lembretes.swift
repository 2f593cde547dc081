import Domain
import EventStore
import Foundation
import Projections
import Telemetry

extension NotificacoesService {
    // MARK: Reminders (timer)

    /// Sends every reminder that is due (`lembreteHoras` before a confirmed booking's start,
    /// which has not started yet, a booked tour's: the prospect by e-mail, or a community
    /// event's: each member with a place). Returns how many
    /// it sent or recorded as failed.
    @discardableResult
    public func enviarLembretesVencidos(limite: Int = 200) async throws -> Int {
        let now = clock.now
        // The list is sorted by start and keeps an entry until it ends (weeks, for a long booking):
        // those already started lead it. The due ones come after them, found by a binary
        // search (a handful of one-document reads), or a page of started bookings would hide
        // every reminder behind it.
        let colecao = NotificacoesReadModel.lembretes
        try await emDia(store, NotificacoesReadModel.projection.checkpoint, pausa: pausaDeTemporizador)
        let total = try await store.count(colecao, grupo: "prazo")
        let futuros = try await store.primeiro(colecao, grupo: "prazo", total: total, LembreteView.self) { $0.inicio > now }
        var feitos = 0
        var primeiraFalha: (any Error)?
        let antecedencia = -Double(lembreteHoras) * 3_600
        var pendentes = 0  // due and not sent yet
        defer { Self.metricasDosLembretes.found(pendentes) }
        // Entries that stay due and are passed over (a place taken inside the lead, whose notice
        // said the time, stays listed until its start) would hide what comes after them behind one
        // page: the loop reads on, page after page, to the first entry not due yet.
        var offset = futuros
        paginas: while true {
            let lembretes = try await store.documents(colecao, grupo: "prazo", limit: limite, offset: offset)
                .map { try ReadModelJSON.decoder.decode(LembreteView.self, from: $0) }
            for lembrete in lembretes {
                guard lembrete.inicio.addingTimeInterval(antecedencia) <= now else { break paginas }  // sorted by start
                guard lembrete.inicio > now else { continue }
                let aviso: Aviso
                let id: UUID
                let correlacao: UUID
                if let encontroId = lembrete.encontroId, let encontro = UUID(text: encontroId) {
                    // Signed up (or given the place) inside the reminder's lead: its notice said the time.
                    if let agendadoEm = lembrete.agendadoEm, agendadoEm >= lembrete.inicio.addingTimeInterval(antecedencia) { continue }
                    id = NotificacoesReadModel.idDoLembreteDeEncontro(encontro, usuario: lembrete.usuarioId)
                    guard try await store.readStream(StreamName(category: "notificacao", id: id.lowercasedString)).isEmpty else { continue }
                    pendentes += 1
                    // Given up or cancelled while the list had not caught up: nothing to remind.
                    guard let doEncontro = try await lembreteDeEncontro(Encontro.ID(encontro), usuario: lembrete.usuarioId) else { continue }
                    (aviso, correlacao) = (doEncontro, encontro)
                } else if let tourId = lembrete.tourId, let tour = UUID(text: tourId) {
                    // Booked inside the reminder's lead: its confirmation said the time.
                    if let agendadoEm = lembrete.agendadoEm, agendadoEm >= lembrete.inicio.addingTimeInterval(antecedencia) { continue }
                    id = Events.derivedId("lembrete-tour", tour.lowercasedString)
                    guard try await store.readStream(StreamName(category: "notificacao", id: id.lowercasedString)).isEmpty else { continue }
                    pendentes += 1
                    // Cancelled, done or erased while the list had not caught up: nothing to remind.
                    guard let doTour = try await lembreteDeTour(Tour.ID(tour)) else { continue }
                    (aviso, correlacao) = (doTour, tour)
                } else {
                    guard let reservaId = UUID(text: lembrete.reservaId) else { continue }
                    // Moved inside the reminder's lead: the move's notice said the new time.
                    if let remarcadaEm = lembrete.remarcadaEm, remarcadaEm >= lembrete.inicio.addingTimeInterval(antecedencia) { continue }
                    // A moved booking's reminder is its own: one sent for the old time does not stand for it.
                    id =
                        if let remarcadaEm = lembrete.remarcadaEm {
                            Events.derivedId("lembrete", lembrete.reservaId, ISO8601DateFormatter().string(from: remarcadaEm))
                        } else {
                            Events.derivedId("lembrete", lembrete.reservaId)
                        }
                    guard try await store.readStream(StreamName(category: "notificacao", id: id.lowercasedString)).isEmpty else { continue }
                    pendentes += 1
                    // Cancelled (or expired) while the reminders' read model had not caught up: nothing to remind.
                    guard let (reserva, espaco, unidade, _) = try await contexto(Reserva.ID(reservaId), confirmada: true) else { continue }
                    // Moved since the list was read (it has not caught up): the next round has its new time.
                    // (Within a second: the list's dates are stored as text.)
                    guard abs(reserva.intervalo.start.timeIntervalSince(lembrete.inicio)) < 1 else { continue }
                    let quando = Self.quando(reserva.intervalo, fuso: unidade?.fusoHorario)
                    aviso = Aviso(
                        tipo: .lembrete, usuarioId: reserva.usuarioId, reservaId: reservaId,
                        titulo: "Lembrete: \(espaco?.nome ?? "sua reserva"), \(quando)",
                        texto: "Sua reserva de \(espaco?.nome ?? "espaço") começa em \(quando). O check-in abre pouco antes do início.")
                    correlacao = reservaId
                }
                do {
                    guard try await enviarLembrete(aviso, id: id, correlacao: correlacao) else { continue }
                    feitos += 1
                    Self.metricasDosLembretes.fired(late: now.timeIntervalSince(lembrete.inicio.addingTimeInterval(antecedencia)))
                } catch {
                    // One reminder that cannot be sent must not hold up the ones due after it.
                    primeiraFalha = primeiraFalha ?? error
                }
            }
            guard lembretes.count == limite else { break }
            offset += limite
        }
        if let primeiraFalha { throw primeiraFalha }
        return feitos
    }

    /// Reminds each member of a letter or parcel that has waited at the front desk for
    /// ``lembreteDeCorrespondenciaDias`` (ADR 0017), once: the notice ends the parcel's entry on
    /// the list, and so do its hand-over and its cancellation. Returns how many it sent or
    /// recorded as failed.
    @discardableResult
    public func enviarLembretesDeCorrespondencia(limite: Int = 200) async throws -> Int {
        guard lembreteDeCorrespondenciaDias > 0 else { return 0 }
        let now = clock.now
        let prazo = Double(lembreteDeCorrespondenciaDias) * 86_400
        try await emDia(store, NotificacoesReadModel.projection.checkpoint, pausa: pausaDeTemporizador)
        var feitos = 0
        var primeiraFalha: (any Error)?
        var pendentes = 0
        defer { Self.metricasDaCorrespondencia.found(pendentes) }
        // Oldest first: the due ones lead the list. Those that stay after their turn (a member
        // whose data was erased has nobody to tell) are read again each round, so the loop reads
        // on past them instead of stopping at a page of them.
        var offset = 0
        paginas: while true {
            let pagina = try await store.documents(
                NotificacoesReadModel.lembretes, grupo: NotificacoesReadModel.correspondenciaAguardando, limit: limite, offset: offset)
            for doc in pagina {
                let espera = try ReadModelJSON.decoder.decode(LembreteDeCorrespondenciaView.self, from: doc)
                guard espera.registradaEm.addingTimeInterval(prazo) <= now else { break paginas }
                guard let encomenda = UUID(text: espera.encomendaId) else { continue }
                let id = NotificacoesReadModel.idDoLembreteDeCorrespondencia(encomenda)
                guard try await store.readStream(StreamName(category: "notificacao", id: id.lowercasedString)).isEmpty else { continue }
                // Handed over or cancelled while the list had not caught up: nothing waits.
                guard let aviso = try await lembreteDeCorrespondencia(Encomenda.ID(encomenda)) else { continue }
                do {
                    // Nobody to tell (the member erased their data) is not counted as due, or the
                    // timer's gauge would never fall back to 0 while the item waits.
                    guard try await enviarLembrete(aviso, id: id, correlacao: encomenda) else { continue }
                    pendentes += 1
                    feitos += 1
                    Self.metricasDaCorrespondencia.fired(late: now.timeIntervalSince(espera.registradaEm.addingTimeInterval(prazo)))
                } catch {
                    pendentes += 1
                    primeiraFalha = primeiraFalha ?? error
                }
            }
            guard pagina.count == limite else { break }
            offset += limite
        }
        if let primeiraFalha { throw primeiraFalha }
        return feitos
    }

    /// Sends a timer's notice and writes it under `id`: false when there is nobody to tell (the
    /// member erased their data) or another replica wrote it first.
    private func enviarLembrete(_ aviso: Aviso, id: UUID, correlacao: UUID) async throws -> Bool {
        let meta = EventMetadata(correlationId: correlacao, actor: "system:notificacoes", requestId: "lembretes", service: Self.service)
        let writes = try await entregar(aviso, id: id, meta: meta)
        guard !writes.isEmpty else { return false }
        do {
            try await store.append(writes)
        } catch is WrongExpectedVersion {
            return false
        }
        return true
    }

    static let metricasDosLembretes = TimerMetrics("notificacoes:lembretes")
    static let metricasDaCorrespondencia = TimerMetrics("notificacoes:correspondencia")
}
