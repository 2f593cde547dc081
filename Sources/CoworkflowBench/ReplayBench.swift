import ArgumentParser
import Domain
import EventStore
import Foundation
import Logging
import PostgresNIO
import Projections

/// `coworkflow-bench replay`: how fast `coworkflow replay analytics` rebuilds the analytics
/// read model from a year of an operator's events, and where the time goes.
struct ReplayBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Analytics replay over a generated year of bookings (target ≥ 250,000 events/s decoded and folded).",
        discussion: """
            Recreates the database BENCH_DB_NAME + "_replay" (default coworkflow_bench_replay) on \
            the PostgreSQL server named by DB_* / DATABASE_URL, appends a realistic history (3 units, \
            50 spaces, a year of bookings with payments, check-ins, no-shows, expiries, cancellations \
            and refunds, logins and agenda events) in large multi-stream appends, then times: one \
            plain read of the store, the payload decoding and the fold in memory, and the whole \
            replay (read, decode, fold, write the documents) as `coworkflow replay analytics` runs it.
            """)

    @Option(help: "Events in the generated history (default 1,000,000; 50,000 with --short).")
    var events: Int?

    @Flag(help: "50,000 events and one replay run (for CI).")
    var short = false

    @Option(help: "Concurrent readers of the replay.")
    var readers = 2

    @Option(help: "Replay runs (the figure is the median).")
    var runs: Int?

    @Flag(help: "Keep the database of an earlier run when it already holds a history (skips generating).")
    var reuse = false

    func run() async throws {
        var logger = Logger(label: "bench")
        logger.logLevel = .error
        var settings = try PostgresSettings.fromEnvironment()
        let admin = settings
        settings.database = (ProcessInfo.processInfo.environment["BENCH_DB_NAME"] ?? "coworkflow_bench") + "_replay"
        settings.maximumConnections = 8
        let target = events ?? (short ? 50_000 : 1_000_000)
        let runs = max(1, self.runs ?? (short ? 1 : 3))

        let existing = reuse ? (try? await Self.eventCount(settings, logger: logger)) ?? 0 : 0
        if existing == 0 {
            try await recreate(settings.database, admin: admin, logger: logger)
            try await PostgresMigrator(settings: settings, logger: logger).migrate()
        }
        print(
            "# coworkflow-bench replay: \(settings.redactedURL), \(existing > 0 ? "reusing \(existing)" : "\(target)") events, \(readers) readers, \(runs) runs"
        )

        let store = PostgresEventStore(settings: settings, logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await store.run() }
            await store.started()
            defer { group.cancelAll() }
            var figures = Figures()

            if existing == 0 {
                var history = ReplayHistory(target: target)
                let started = ContinuousClock.now
                let appended = try await history.append(to: store)
                let seconds = (ContinuousClock.now - started).seconds
                figures.record("history_events", Double(appended), "events")
                figures.record("history_bookings", Double(history.bookings.count), "bookings")
                figures.record("history_append", Double(appended) / seconds, "events/s")
                try await withOwner(settings, logger: logger) { connection in _ = try await connection.query("VACUUM ANALYZE", logger: logger) }
            }

            // One plain pass (it also warms the server's cache), kept for the in-memory figures.
            var all: [RecordedEvent] = []
            let readStarted = ContinuousClock.now
            var position = GlobalPosition.start
            while true {
                let batch = try await store.readAll(after: position, limit: 10_000)
                all += batch
                guard batch.count == 10_000, let last = batch.last else { break }
                position = last.position
            }
            figures.record("read_only", Double(all.count) / (ContinuousClock.now - readStarted).seconds, "events/s (readAll, one reader)")
            let payloadsStarted = ContinuousClock.now
            var payloads = 0
            position = .start
            while true {
                let batch = try await store.readAllPayloads(after: position, limit: 10_000)
                payloads += batch.count
                guard batch.count == 10_000, let last = batch.last else { break }
                position = last.position
            }
            figures.record(
                "read_payloads", Double(payloads) / (ContinuousClock.now - payloadsStarted).seconds, "events/s (readAllPayloads, one reader)")
            try await Self.inMemory(all, into: &figures)
            let total = all.count
            all = []

            var results: [AnalyticsReadModel.ReplayResult] = []
            for _ in 0..<runs {
                results.append(try await AnalyticsReadModel.rebuild(store: store, leitores: readers))
            }
            let median = results.sorted { $0.segundos < $1.segundos }[results.count / 2]
            figures.record("replay", median.eventosPorSegundo, "events/s (read, decode, fold, write; median of \(runs))")
            figures.record("replay_seconds", median.segundos, "s", decimals: 2)
            figures.record("replay_read_fold_seconds", median.segundosDeLeitura, "s", decimals: 2)
            figures.record("replay_write_seconds", median.segundosDeEscrita, "s", decimals: 2)
            figures.record("replay_documents", Double(median.documentos), "documents")
            figures.record("replay_facts", Double(median.fatos), "events analytics reads")
            let inMemory = figures.values["decode_fold"] ?? 0
            print(
                "# target ≥ 250,000 events/s decoded and folded: in memory \(Int(inMemory)) (\(inMemory >= 250_000 ? "met" : "not met")), "
                    + "end to end from PostgreSQL \(Int(median.eventosPorSegundo)) (\(median.eventosPorSegundo >= 250_000 ? "met" : "not met")); "
                    + "\(total) events, replay: \(median.eventos) events in \(String(format: "%.2f", median.segundos)) s")
        }
    }

    /// Decoding and folding without the database: where the replay's CPU goes.
    static func inMemory(_ events: [RecordedEvent], into figures: inout Figures) async throws {
        // Foundation's decoder over the events analytics reads (a sample), for comparison.
        struct Minimal: Decodable {
            let reservaId: UUID?
            let espacoId: UUID?
            let em: Date?
        }
        let types = AnalyticsFact.tipos
        let relevant = Array(events.lazy.filter { types.contains($0.type) }.prefix(100_000))
        var started = ContinuousClock.now
        for event in relevant { _ = try EventDecoder.foundation.decode(Minimal.self, from: event.data) }
        figures.record(
            "decode_foundation", Double(relevant.count) / (ContinuousClock.now - started).seconds,
            "events/s (JSONDecoder, analytics events only, one core)")
        // The events whose payloads are whole (the generated history writes some with only what
        // analytics reads) to their domain values, as services and projections read them: by
        // Foundation's decoder, then by the store's in place.
        let whole = relevant.filter { (try? Catalogos.decode(type: $0.type, data: $0.data, using: EventDecoder.foundation)) != nil }
        started = ContinuousClock.now
        for event in whole { _ = try Catalogos.decode(type: event.type, data: event.data, using: EventDecoder.foundation) }
        figures.record(
            "decode_events_foundation", Double(whole.count) / (ContinuousClock.now - started).seconds,
            "events/s (\(whole.count) domain events, JSONDecoder, one core)")
        started = ContinuousClock.now
        for event in whole { _ = try Catalogos.decode(type: event.type, data: event.data, using: EventJSON.decoder) }
        figures.record(
            "decode_events_in_place", Double(whole.count) / (ContinuousClock.now - started).seconds,
            "events/s (the same, EventDecoder, one core)")
        started = ContinuousClock.now
        for event in relevant { _ = try AnalyticsFact.decode(type: event.type, data: event.data) }
        figures.record(
            "decode_lean_same_events", Double(relevant.count) / (ContinuousClock.now - started).seconds,
            "events/s (the same events, analytics' reader)")

        started = ContinuousClock.now
        var facts: [AnalyticsFact] = []
        facts.reserveCapacity(events.count)
        for event in events {
            if let fact = try AnalyticsFact.decode(type: event.type, data: event.data) { facts.append(fact) }
        }
        figures.record("decode", Double(events.count) / (ContinuousClock.now - started).seconds, "events/s (all events, skipping by type, one core)")

        started = ContinuousClock.now
        var model = AnalyticsModel()
        for fact in facts { model.apply(fact) }
        let foldSeconds = (ContinuousClock.now - started).seconds
        figures.record("fold", Double(events.count) / foldSeconds, "events/s (\(facts.count) pre-decoded facts, one core)")

        // Both cores: chunks decoded in parallel, folded in order as they arrive.
        started = ContinuousClock.now
        let chunk = 10_000
        let chunks = stride(from: 0, to: events.count, by: chunk).map { $0..<min($0 + chunk, events.count) }
        var parallel = AnalyticsModel()
        try await withThrowingTaskGroup(of: (Int, [AnalyticsFact]).self) { group in
            var next = 0
            var folding = 0
            var ready: [Int: [AnalyticsFact]] = [:]
            func add(_ index: Int) {
                let range = chunks[index]
                group.addTask {
                    var decoded: [AnalyticsFact] = []
                    for event in events[range] {
                        if let fact = try AnalyticsFact.decode(type: event.type, data: event.data) { decoded.append(fact) }
                    }
                    return (index, decoded)
                }
            }
            while next < min(4, chunks.count) {
                add(next)
                next += 1
            }
            while let (index, decoded) = try await group.next() {
                ready[index] = decoded
                while let facts = ready.removeValue(forKey: folding) {
                    for fact in facts { parallel.apply(fact) }
                    folding += 1
                }
                if next < chunks.count {
                    add(next)
                    next += 1
                }
            }
        }
        figures.record("decode_fold", Double(events.count) / (ContinuousClock.now - started).seconds, "events/s (in memory, both cores)")
        figures.record("model_documents", Double(parallel.quantidadeDeDocumentos), "documents")
    }

    static func eventCount(_ settings: PostgresSettings, logger: Logger) async throws -> Int {
        var count = 0
        try await withOwner(settings, logger: logger) { connection in
            for try await value in try await connection.query("SELECT count(*) FROM events", logger: logger).decode(Int64.self) {
                count = Int(value)
            }
        }
        return count
    }
}

/// A year (2025) of one operator: 3 units, 50 spaces, members booking desks (most bookings),
/// meeting rooms, offices and auditoriums inside opening hours without overbooking, each
/// booking with its login, agenda entry, payment and outcome. Deterministic (fixed seed).
struct ReplayHistory {
    struct Unit {
        let id: Unidade.ID
        let name: String
        let zone: String
        /// UTC offset in seconds (these zones had no DST in 2025).
        let offset: Int64
    }

    struct Space {
        let id: Espaco.ID
        let unit: Int
        let type: Espaco.Tipo
        let capacity: Int
        let opens: Int
        let closes: Int
        let saturday: Bool
        let pricePerHour: Int64
    }

    enum Outcome: UInt8 { case expired, cancelledUnpaid, cancelledPaid, noShow, checkedIn }

    struct Booking {
        let id: UUID
        let payment: UUID
        let space: Int
        let member: Int
        let start: Int64
        let end: Int64
        let requested: Int64
        let price: Int64
        let outcome: Outcome
        /// When it was cancelled (cancelled outcomes).
        let cancelled: Int64
    }

    enum Step: UInt8 {
        case login, requested, agendaTaken, paymentStarted, expired, agendaFreed, cancelled, paymentConfirmed, confirmed
        case refundRequested, refundCompleted, checkin, checkout, noShow, concluded
    }

    /// One event to write: when, and what of which booking.
    struct Mark {
        let time: Int64
        let sequence: Int32
        let booking: Int32
        let step: Step
    }

    let target: Int
    var units: [Unit] = []
    var spaces: [Space] = []
    var members: [String] = []
    var bookings: [Booking] = []
    private var random: UInt64 = 2_025
    static let yearStart: Int64 = 1_735_689_600  // 2025-01-01T00:00:00Z

    init(target: Int) { self.target = target }

    private mutating func next(_ bound: Int) -> Int {
        random = random &+ 0x9E37_79B9_7F4A_7C15
        var z = random
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(max(1, bound)))
    }

    /// Generates and appends the history; returns the events appended.
    mutating func append(to store: any EventStore) async throws -> Int {
        let salt = FastID.salt()
        var ids = 0
        func uuid() -> UUID {
            ids += 1
            return FastID.uuid(ids, salt: salt)
        }
        units = [("Paulista", "America/Sao_Paulo"), ("Recife Antigo", "America/Recife"), ("Manaus Centro", "America/Manaus")].map { name, zone in
            let offset = Int64(TimeZone(identifier: zone)?.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(Self.yearStart))) ?? -10_800)
            return Unit(id: Unidade.ID(uuid()), name: name, zone: zone, offset: offset)
        }
        // 15 desk areas, 20 meeting rooms, 8 offices, 5 fixed desks, 2 auditoriums.
        let kinds: [(Espaco.Tipo, Int, Int64)] = [
            (.estacaoCompartilhada, 15, 3_000), (.salaReuniao, 20, 9_000), (.salaPrivativa, 8, 6_000),
            (.mesaFixa, 5, 2_500), (.auditorio, 2, 40_000),
        ]
        for (type, count, price) in kinds {
            for _ in 0..<count {
                let capacity =
                    switch type {
                    case .estacaoCompartilhada: 10 + next(31)
                    case .salaReuniao: 4 + next(9)
                    case .auditorio: 60 + next(60)
                    default: 1 + next(4)
                    }
                let (opens, closes) = [(8, 20), (7, 22), (8, 18), (9, 21)][next(4)]
                spaces.append(
                    Space(
                        id: Espaco.ID(uuid()), unit: spaces.count % units.count, type: type, capacity: capacity, opens: opens,
                        closes: closes, saturday: next(2) == 0, pricePerHour: price))
            }
        }
        members = (0..<max(300, target / 300)).map { _ in uuid().uuidString.lowercased() }

        // Bookings until the event budget is spent, placed without overbooking.
        var occupancy: [Int: [UInt8]] = [:]
        var marks: [Mark] = []
        marks.reserveCapacity(target + 1_000)
        let setupEvents = units.count + spaces.count + members.count
        var attempts = 0
        while setupEvents + marks.count < target, attempts < target * 20 {
            attempts += 1
            let roll = next(100)
            let candidates = spaces.indices.filter {
                switch spaces[$0].type {
                case .estacaoCompartilhada: roll < 80
                case .salaReuniao: (80..<95).contains(roll)
                default: roll >= 95
                }
            }
            let spaceIndex = candidates[next(candidates.count)]
            let space = spaces[spaceIndex]
            let day = next(365)
            let weekday = (day + 3) % 7  // 2025-01-01 was a Wednesday; 0 = domingo
            guard weekday != 0, weekday != 6 || space.saturday else { continue }
            let (opens, closes) = weekday == 6 ? (9, 13) : (space.opens, space.closes)
            let hours =
                switch space.type {
                case .estacaoCompartilhada: [4, 4, 9, closes - opens][next(4)]
                case .salaReuniao: 1 + next(3)
                case .mesaFixa: closes - opens
                case .salaPrivativa: [4, 8][next(2)]
                case .auditorio: 2 + next(3)
                }
            let length = min(hours, closes - opens)
            let startHour = opens + next(closes - opens - length + 1)
            let key = spaceIndex * 400 + day
            var taken = occupancy[key] ?? Array(repeating: 0, count: 24)
            let limit = space.type == .estacaoCompartilhada ? space.capacity : 1
            guard (startHour..<(startHour + length)).allSatisfy({ Int(taken[$0]) < limit }) else { continue }
            for hour in startHour..<(startHour + length) { taken[hour] += 1 }
            occupancy[key] = taken

            let start = Self.yearStart + Int64(day) * 86_400 + Int64(startHour) * 3_600 - units[space.unit].offset
            let end = start + Int64(length) * 3_600
            let lead: Int64 =
                switch next(10) {
                case 0..<4: Int64(3_600 + next(47 * 3_600))
                case 4..<8: Int64(2 * 86_400 + next(12 * 86_400))
                default: Int64(14 * 86_400 + next(31 * 86_400))
                }
            let requested = start - lead
            let outcome: Outcome =
                switch next(100) {
                case 0..<8: .expired
                case 8..<12: .cancelledUnpaid
                case 12..<20: .cancelledPaid
                case 20..<30: .noShow
                default: .checkedIn
                }
            let cancelled = outcome == .cancelledUnpaid ? requested + 300 : requested + 120 + Int64(next(Int(max(1, lead - 600))))
            let booking = Booking(
                id: uuid(), payment: uuid(), space: spaceIndex, member: next(members.count), start: start, end: end, requested: requested,
                price: space.pricePerHour * Int64(length), outcome: outcome, cancelled: cancelled)
            let index = Int32(bookings.count)
            bookings.append(booking)
            func mark(_ time: Int64, _ step: Step) {
                marks.append(Mark(time: time, sequence: Int32(truncatingIfNeeded: marks.count), booking: index, step: step))
            }
            mark(requested - 60, .login)
            mark(requested, .requested)
            mark(requested, .agendaTaken)
            mark(requested + 5, .paymentStarted)
            switch outcome {
            case .expired:
                mark(requested + 900, .expired)
                mark(requested + 900, .agendaFreed)
            case .cancelledUnpaid:
                mark(cancelled, .cancelled)
                mark(cancelled, .agendaFreed)
            case .cancelledPaid, .noShow, .checkedIn:
                mark(requested + 60, .paymentConfirmed)
                mark(requested + 61, .confirmed)
                switch outcome {
                case .cancelledPaid:
                    mark(cancelled, .cancelled)
                    mark(cancelled, .agendaFreed)
                    mark(cancelled + 1, .refundRequested)
                    mark(cancelled + 3_600, .refundCompleted)
                case .noShow:
                    mark(start + 1_800, .noShow)
                    mark(end, .concluded)
                default:
                    mark(start + 120 + Int64(next(600)), .checkin)
                    mark(end - 300, .checkout)
                    mark(end, .concluded)
                }
            }
        }
        marks.sort { ($0.time, $0.sequence) < ($1.time, $1.sequence) }

        // Set-up first, then the marks in time order, 2,500 events an append.
        var written = 0
        var pending: [(StreamName, NewEvent)] = []
        func flush() async throws {
            guard !pending.isEmpty else { return }
            var byStream: [StreamName: [NewEvent]] = [:]
            var order: [StreamName] = []
            for (stream, event) in pending {
                if byStream[stream] == nil { order.append(stream) }
                byStream[stream, default: []].append(event)
            }
            try await store.append(order.map { StreamWrite(stream: $0, expected: .any, events: byStream[$0] ?? []) })
            written += pending.count
            pending.removeAll(keepingCapacity: true)
        }
        let setupTime = Self.yearStart - 60 * 86_400
        for unit in units {
            pending.append(
                (
                    StreamNames.unidade(unit.id),
                    try NewEvent(
                        eventId: uuid(),
                        event: Unidade.Event.cadastrada(
                            Unidade.Cadastrada(
                                unidadeId: unit.id, nome: unit.name,
                                endereco: Unidade.Endereco(
                                    logradouro: "Rua \(unit.name)", numero: "100", cidade: unit.name, uf: "SP", cep: "01000-000"),
                                fusoHorario: unit.zone, politica: .padrao, em: Self.date(setupTime))), metadata: EventMetadata(service: "espacos"),
                        occurredAt: Self.date(setupTime))
                ))
        }
        for (index, space) in spaces.enumerated() {
            let weekday = [Espaco.Faixa(abre: space.opens * 60, fecha: space.closes * 60)]
            var days: [DiaDaSemana: [Espaco.Faixa]] = [.segunda: weekday, .terca: weekday, .quarta: weekday, .quinta: weekday, .sexta: weekday]
            if space.saturday { days[.sabado] = [Espaco.Faixa(abre: 540, fecha: 780)] }
            let at = Self.date(setupTime + 3_600 + Int64(index))
            pending.append(
                (
                    StreamNames.espaco(space.id),
                    try NewEvent(
                        eventId: uuid(),
                        event: Espaco.Event.cadastrado(
                            Espaco.Cadastrado(
                                espacoId: space.id, unidadeId: units[space.unit].id, nome: "\(space.type.rawValue) \(index)", tipo: space.type,
                                capacidade: space.capacity, comodidades: ["wi-fi", "café"], fotos: [], regras: .padrao,
                                horario: try Espaco.HorarioSemanal(days),
                                em: at)), metadata: EventMetadata(service: "espacos"), occurredAt: at)
                ))
        }
        for (index, member) in members.enumerated() {
            let at = setupTime + 7_200 + Int64(index)
            pending.append(
                (
                    StreamName(category: "usuario", id: member),
                    NewEvent(
                        eventId: uuid(), type: Usuario.Catalogo.registrado.type,
                        data: Data(#"{"em":"\#(Self.iso(at))","emailHash":"\#(member.prefix(16))","papel":"membro","usuarioId":"\#(member)"}"#.utf8),
                        metadata: EventMetadata(service: "usuarios"), occurredAt: Self.date(at))
                ))
            if pending.count >= 2_500 { try await flush() }
        }
        try await flush()
        for mark in marks {
            pending.append(try render(mark, id: uuid()))
            if pending.count >= 2_500 { try await flush() }
        }
        try await flush()
        return written
    }

    /// The stream and stored event of one mark, in the shapes the services write.
    func render(_ mark: Mark, id: UUID) throws -> (StreamName, NewEvent) {
        let booking = bookings[Int(mark.booking)]
        let space = spaces[booking.space]
        let unit = units[space.unit]
        let member = members[booking.member]
        let at = Self.date(mark.time)
        let reserva = Reserva.ID(booking.id)
        let stream = StreamNames.reserva(reserva)
        let payments = StreamName(category: "pagamento", id: booking.payment.uuidString.lowercased())
        let checkins = StreamName(category: "checkin", id: booking.id.uuidString.lowercased())
        let day = DataLocal(Self.date(booking.start), em: TimeZone(secondsFromGMT: Int(unit.offset)) ?? .gmt)
        let meta = { (service: String) in EventMetadata(correlationId: booking.id, actor: member, service: service) }
        func domain<E: DomainEvent>(_ stream: StreamName, _ event: E, _ service: String) throws -> (StreamName, NewEvent) {
            (stream, try NewEvent(eventId: id, event: event, metadata: meta(service), occurredAt: at))
        }
        func json(_ stream: StreamName, _ type: String, _ body: String, _ service: String) -> (StreamName, NewEvent) {
            (stream, NewEvent(eventId: id, type: type, data: Data(body.utf8), metadata: meta(service), occurredAt: at))
        }
        let ids = """
            "espacoId":"\(space.id)","pagamentoId":"\(booking.payment.uuidString.lowercased())",\
            "reservaId":"\(reserva)","unidadeId":"\(unit.id)","usuarioId":"\(member)"
            """
        let intervalo = try TimeRange(start: Self.date(booking.start), end: Self.date(booking.end))
        switch mark.step {
        case .login:
            return json(
                StreamName(category: "usuario", id: member), Usuario.Catalogo.loginRealizado.type,
                #"{"em":"\#(Self.iso(mark.time))","ip":"203.0.113.\#(booking.member % 250)","usuarioId":"\#(member)"}"#, "usuarios")
        case .requested:
            let pedido = Reserva.Pedido(
                id: reserva, espacoId: space.id.rawValue, unidadeId: unit.id.rawValue, usuarioId: member, intervalo: intervalo, dias: [day],
                total: Money(centavos: booking.price),
                linhas: [
                    Reserva.LinhaDePreco(
                        codigo: "hora", descricao: "\((booking.end - booking.start) / 3_600) h", valor: Money(centavos: booking.price))
                ],
                cupom: nil, expiraEm: Self.date(booking.requested + 900))
            return try domain(stream, Reserva.Event.solicitada(Reserva.Solicitada(pedido, em: at)), "reservas")
        case .agendaTaken:
            return try domain(
                StreamNames.agenda(space.id.rawValue, day),
                Agenda.Event.ocupada(
                    Agenda.Ocupada(
                        reservaId: booking.id, espacoId: space.id.rawValue, data: day, intervalo: intervalo, em: at)), "reservas")
        case .agendaFreed:
            return try domain(
                StreamNames.agenda(space.id.rawValue, day),
                Agenda.Event.liberada(
                    Agenda.Liberada(
                        reservaId: booking.id, espacoId: space.id.rawValue, data: day, em: at)), "reservas")
        case .paymentStarted:
            return json(
                payments, Pagamento.Catalogo.iniciado.type, #"{"em":"\#(Self.iso(mark.time))",\#(ids),"metodo":"pix","valor":\#(booking.price)}"#,
                "pagamentos")
        case .paymentConfirmed:
            return json(
                payments, Pagamento.Catalogo.confirmado.type,
                #"{"cobrancaId":"pix_\#(booking.member)_\#(mark.booking)","em":"\#(Self.iso(mark.time))",\#(ids),"metodo":"pix","valor":\#(booking.price)}"#,
                "pagamentos")
        case .refundRequested:
            return json(
                payments, Pagamento.Catalogo.reembolsoSolicitado.type, #"{"em":"\#(Self.iso(mark.time))",\#(ids),"valor":\#(booking.price)}"#,
                "pagamentos")
        case .refundCompleted:
            return json(
                payments, Pagamento.Catalogo.reembolsoConcluido.type,
                #"{"em":"\#(Self.iso(mark.time))",\#(ids),"reembolsoId":"\#(booking.payment)","valor":\#(booking.price)}"#, "pagamentos")
        case .expired:
            return try domain(stream, Reserva.Event.expirada(Reserva.Expirada(reservaId: reserva, em: at)), "reservas")
        case .cancelled:
            let paid = booking.outcome == .cancelledPaid ? Money(centavos: booking.price) : .zero
            return try domain(
                stream,
                Reserva.Event.cancelada(
                    Reserva.Cancelada(
                        reservaId: reserva, por: member, motivo: nil, pago: paid, multa: .zero, reembolso: paid, em: at)), "reservas")
        case .confirmed:
            return try domain(
                stream,
                Reserva.Event.confirmada(
                    Reserva.Confirmada(
                        reservaId: reserva, pagamentoId: booking.payment.uuidString.lowercased(), em: at)), "reservas")
        case .checkin, .noShow, .checkout:
            let type =
                mark.step == .checkin
                ? Checkin.Catalogo.realizado.type
                : mark.step == .noShow ? Checkin.Catalogo.noShowRegistrado.type : Checkin.Catalogo.checkoutRealizado.type
            return json(
                checkins, type,
                """
                {"em":"\(Self.iso(mark.time))","espacoId":"\(space.id)","fim":"\(Self.iso(booking.end))","inicio":"\(Self.iso(booking.start))",\
                "reservaId":"\(reserva)","unidadeId":"\(unit.id)","usuarioId":"\(member)"}
                """, "checkin")
        case .concluded:
            return try domain(stream, Reserva.Event.concluida(Reserva.Concluida(reservaId: reserva, em: at)), "reservas")
        }
    }

    static func date(_ seconds: Int64) -> Date { Date(timeIntervalSince1970: TimeInterval(seconds)) }

    /// `yyyy-mm-ddThh:mm:ssZ`, as the store's encoder writes instants.
    static func iso(_ seconds: Int64) -> String {
        let day = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = seconds - day * 86_400
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(CalendarioAnalitico.data(day))T\(two(time / 3_600)):\(two(time % 3_600 / 60)):\(two(time % 60))Z"
    }
}
