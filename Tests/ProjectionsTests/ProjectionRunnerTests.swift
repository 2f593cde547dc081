import Domain
import EventStore
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Projections

@Suite("A projection runner")
struct ProjectionRunnerTests {
    @Test("an event it cannot read stops it at that event, named, and is not skipped")
    func names_the_event_it_cannot_apply() async throws {
        let (store, path) = try AnalyticsHistoria.store()
        defer { AnalyticsHistoria.remove(path) }
        let instant = try Date("2026-11-23T08:00:00-03:00", strategy: .iso8601)
        // An event of a type the projection follows, with a body it cannot read (a shape no
        // version of the event had).
        let ruim = NewEvent(eventId: UUID(), type: "ReservaSolicitada", data: Data(#"{"n":1}"#.utf8), occurredAt: instant)
        let stream = StreamName("reserva-\(UUID().uuidString.lowercased())")
        let posicao = try #require(try await store.append(to: stream, expected: .noStream, events: [ruim]).positions.first)

        let runner = ProjectionRunner(ReservasReadModel.projection, store: store, logger: AnalyticsHistoria.logger)
        let erro = await #expect(throws: ProjectionFailure.self) { try await runner.catchUp() }
        let falha = try #require(erro)
        #expect(falha.projection == "reservas" && falha.stream == stream && falha.type == "ReservaSolicitada")
        #expect(falha.position == posicao && falha.eventId == ruim.eventId)
        #expect(falha.description.contains(ruim.eventId.uuidString.lowercased()) && falha.description.contains("reservaId"), "\(falha)")
        // Not skipped: the checkpoint stays before it, so the runner stops there again.
        #expect(try await store.checkpoint(ReservasReadModel.projection.checkpoint) == .start)
        await #expect(throws: ProjectionFailure.self) { try await runner.catchUp() }
    }

    @Test("what came before that event in its batch is applied and committed: the read model stops at the event, not at its batch's start")
    func keeps_what_came_before_the_event() async throws {
        let (store, path) = try AnalyticsHistoria.store()
        defer { AnalyticsHistoria.remove(path) }
        let instant = try Date("2026-11-23T08:00:00-03:00", strategy: .iso8601)
        // Read by the bookings read model, and readable; then one it cannot read, in the same batch.
        let boa = try NewEvent(
            eventId: UUID(), event: Reserva.Event.confirmada(.init(reservaId: Reserva.ID(UUID()), pagamentoId: nil, em: instant)), occurredAt: instant
        )
        let ruim = NewEvent(eventId: UUID(), type: "ReservaSolicitada", data: Data(#"{"n":1}"#.utf8), occurredAt: instant)
        let escrito = try await store.append([
            StreamWrite(stream: StreamName("reserva-\(UUID().uuidString.lowercased())"), expected: .noStream, events: [boa]),
            StreamWrite(stream: StreamName("reserva-\(UUID().uuidString.lowercased())"), expected: .noStream, events: [ruim]),
        ])
        let runner = ProjectionRunner(ReservasReadModel.projection, store: store, logger: AnalyticsHistoria.logger)
        let erro = await #expect(throws: ProjectionFailure.self) { try await runner.catchUp() }
        #expect(erro?.position == escrito.positions[1])
        #expect(try await store.checkpoint(ReservasReadModel.projection.checkpoint) == escrito.positions[0])
        #expect(runner.position == escrito.positions[0])
        // And it stops there again, the good event not applied twice.
        await #expect(throws: ProjectionFailure.self) { try await runner.catchUp() }
        #expect(try await store.checkpoint(ReservasReadModel.projection.checkpoint) == escrito.positions[0])
    }

    @Test("a runner that cannot go on says why, since when and how often, and says nothing once it follows again")
    func reports_what_stops_it() async throws {
        let (store, path) = try AnalyticsHistoria.store()
        defer { AnalyticsHistoria.remove(path) }
        struct Quebrada: Error, CustomStringConvertible { var description: String { "the read model's table is gone" } }
        let quebrada = Marcas()
        quebrada.pular.withLock { $0 = .start }
        let base = ReservasReadModel.agendas
        let projection = Projection(name: base.name, collections: base.collections, types: ["Qualquer"]) { _, _ in
            if quebrada.pular.withLock({ $0 }) != nil { throw Quebrada() }
        }
        let runner = ProjectionRunner(projection, store: store, logger: AnalyticsHistoria.logger)
        #expect(runner.failure == nil)
        let rodando = Task { try await runner.run() }
        defer { rodando.cancel() }
        let at = try #require(
            try await store.append(
                to: StreamName("qualquer-1"), expected: .noStream,
                events: [NewEvent(eventId: UUID(), type: "Qualquer", data: Data("{}".utf8), occurredAt: Date())]
            ).positions.last)
        var failure: ProjectionRunner.Failing?
        for _ in 0..<200 where (failure?.attempts ?? 0) < 2 {
            try await Task.sleep(for: .milliseconds(50))
            failure = runner.failure
        }
        #expect(failure?.description == "the read model's table is gone" && (failure?.attempts ?? 0) >= 2)
        #expect(runner.position < at)
        quebrada.pular.withLock { $0 = nil }
        #expect(await runner.waitUntil(at, timeout: .seconds(10)))
        for _ in 0..<100 where runner.failure != nil { try await Task.sleep(for: .milliseconds(20)) }
        #expect(runner.failure == nil)
    }

    @Test("a replica that failed and then waits for the lease another holder took reports no failure")
    func a_standby_replica_reports_no_failure() async throws {
        let (store, path) = try AnalyticsHistoria.store()
        defer { AnalyticsHistoria.remove(path) }
        struct Quebrada: Error {}
        let base = ReservasReadModel.agendas
        let quebrada = Projection(name: base.name, collections: base.collections, types: ["Qualquer"]) { _, _ in throw Quebrada() }
        let saudavel = Projection(name: base.name, collections: base.collections, types: ["Qualquer"]) { _, _ in }
        try await store.append(
            to: StreamName("qualquer-1"), expected: .noStream,
            events: [NewEvent(eventId: UUID(), type: "Qualquer", data: Data("{}".utf8), occurredAt: Date())])
        let a = ProjectionRunner(quebrada, store: store, logger: AnalyticsHistoria.logger)
        let rodandoA = Task { try await a.run() }
        defer { rodandoA.cancel() }
        for _ in 0..<100 where a.failure == nil { try await Task.sleep(for: .milliseconds(20)) }
        #expect(a.failure != nil)
        // While A pauses, B takes the lease and follows; A then waits for it.
        let b = ProjectionRunner(saudavel, store: store, logger: AnalyticsHistoria.logger)
        let rodandoB = Task { try await b.run() }
        defer { rodandoB.cancel() }
        #expect(await b.waitUntil(try await store.headPosition(), timeout: .seconds(10)))
        try await Task.sleep(for: .seconds(4))
        #expect(a.failure == nil)
        #expect(b.failure == nil)
    }

    @Test("a rebuild behind a live checkpoint past anything readable gives up, naming it, and leaves the live read model alone")
    func a_rebuild_behind_an_unreachable_checkpoint_gives_up() async throws {
        let agenda = try DiaDeAgenda()
        defer { agenda.remove() }
        let agendas = ReservasReadModel.agendas
        let p1 = try #require(
            try await agenda.store.append(to: agenda.stream, expected: .noStream, events: [try agenda.ocupa(UUID(), hora: 0)]).positions.last)
        try await ProjectionRunner(agendas, store: agenda.store, logger: AnalyticsHistoria.logger).catchUp()
        let antes = try await agenda.reservas()
        // Set by hand past the head (a log restored from an older backup, say).
        let alem = GlobalPosition(transaction: p1.transaction + 1_000, sequence: p1.sequence + 1_000)
        try await agenda.store.commit([], checkpoint: agendas.checkpoint, at: alem)
        let erro = await #expect(throws: EventStoreError.self) {
            try await ProjectionRunner(agendas, store: agenda.store, logger: AnalyticsHistoria.logger).rebuild()
        }
        #expect(erro?.code == .stagedBehind && erro?.description.contains(agendas.checkpoint) == true, "\(String(describing: erro))")
        #expect(try await agenda.reservas() == antes && !antes.isEmpty)
        #expect(try await agenda.store.checkpoint(agendas.checkpoint) == alem)
        #expect(try await agenda.store.count(ReservasReadModel.ocupacao + "~rebuild", grupo: nil) == 0)
    }

    @Test("the histories a projection names are read once for the whole batch, before it is applied: every event of the batch sees the same read")
    func reads_named_histories_once_per_batch() async throws {
        let (store, path) = try AnalyticsHistoria.store()
        defer { AnalyticsHistoria.remove(path) }
        let historia = StreamName("historia-1")
        @Sendable func evento(_ tipo: String) -> NewEvent { NewEvent(eventId: UUID(), type: tipo, data: Data("{}".utf8), occurredAt: Date()) }
        try await store.append(to: historia, expected: .noStream, events: [evento("Antes")])
        // Applying the first event appends to the history: a history read per event would show
        // the second event one more than the first saw.
        let vistos = Mutex<[Int]>([])
        let base = ReservasReadModel.agendas
        let projection = Projection(name: base.name, collections: base.collections, types: ["Passo"], histories: { _ in [historia] }) {
            _, batch in
            let eventos = try await batch.history(historia)
            if vistos.withLock({ $0.isEmpty }) { try await store.append(to: historia, expected: .any, events: [evento("Depois")]) }
            vistos.withLock { $0.append(eventos.count) }
        }
        try await store.append(to: StreamName("passos-1"), expected: .noStream, events: [evento("Passo"), evento("Passo")])
        let runner = ProjectionRunner(projection, store: store, logger: AnalyticsHistoria.logger)
        try await runner.catchUp()
        #expect(vistos.withLock { $0 } == [1, 1])
        // Not named: read when asked, as it is then.
        #expect(try await ProjectionBatch(store: store, cache: nil, target: .live(projection)).history(historia).count == 2)
    }

    @Test("the documents a projection names for a batch's events are read at once before it is applied, not when each event asks")
    func reads_named_documents_once_per_batch() async throws {
        let (store, path) = try AnalyticsHistoria.store()
        defer { AnalyticsHistoria.remove(path) }
        let base = ReservasReadModel.agendas
        let colecao = try #require(base.collections.first)
        @Sendable func doc(_ v: Int) -> Data { Data("{\"v\":\(v)}".utf8) }
        try await store.commit(
            [ReadModelChange(collection: colecao, key: "k", grupo: nil, doc: doc(1))], checkpoint: "projection:outra",
            at: GlobalPosition(transaction: 1, sequence: 1))
        @Sendable func evento() -> NewEvent { NewEvent(eventId: UUID(), type: "Passo", data: Data("{}".utf8), occurredAt: Date()) }
        struct V: Codable { let v: Int }
        // The first event's apply changes the document behind the runner's back: a read per
        // event (a catch-up keeps no cache) would show the second event the new value.
        let vistos = Mutex<[Int?]>([])
        let projection = Projection(
            name: base.name, collections: base.collections, types: ["Passo"], documents: { _ in [(colecao, "k"), (colecao, "nenhum")] }
        ) { _, batch in
            let v = try await batch.get(V.self, colecao, "k")?.v
            let nenhum = try await batch.get(V.self, colecao, "nenhum")
            #expect(nenhum == nil)
            if vistos.withLock({ $0.isEmpty }) {
                try await store.commit(
                    [ReadModelChange(collection: colecao, key: "k", grupo: nil, doc: doc(2))], checkpoint: "projection:outra",
                    at: GlobalPosition(transaction: 1, sequence: 2))
            }
            vistos.withLock { $0.append(v) }
        }
        try await store.append(to: StreamName("passos-1"), expected: .noStream, events: [evento(), evento()])
        try await ProjectionRunner(projection, store: store, logger: AnalyticsHistoria.logger).catchUp()
        #expect(vistos.withLock { $0 } == [1, 1])
    }

    @Test("trails name the booking's document an event looks up, but for the booking's first event, which starts it")
    func trails_name_their_documents() throws {
        let reserva = UUID()
        let membro = "4bf92f35-77b3-4da6-a3ce-929d0e0e4736"
        func recorded(_ type: String, _ metadata: EventMetadata) throws -> RecordedEvent {
            RecordedEvent(
                position: GlobalPosition(transaction: 1, sequence: 1), stream: StreamNames.reserva(Reserva.ID(reserva)), version: 1,
                eventId: UUID(), type: type, schemaVersion: 1, data: Data("{}".utf8), metadataJSON: try JSONEncoder().encode(metadata),
                occurredAt: Date(), recordedAt: Date())
        }
        let pedido = try recorded(Reserva.Catalogo.solicitada.type, EventMetadata(correlationId: reserva, actor: membro))
        #expect(TrilhasReadModel.documentos(pedido).isEmpty)
        let cancelada = try recorded(Reserva.Catalogo.cancelada.type, EventMetadata(correlationId: reserva, actor: membro))
        #expect(
            TrilhasReadModel.documentos(cancelada).map { "\($0.collection)/\($0.key)" } == [
                "\(TrilhasReadModel.trilhas)/\(reserva.uuidString.lowercased())"
            ])
        #expect(TrilhasReadModel.documentos(try recorded("Qualquer", EventMetadata())).isEmpty)
    }

    @Test("analytics names the histories it folds from an event's type and stream alone: the booking's, and the check-in's for a cancellation")
    func analytics_names_its_histories() throws {
        let id = Reserva.ID(UUID())
        func recorded(_ type: String, _ stream: StreamName) -> RecordedEvent {
            RecordedEvent(
                position: GlobalPosition(transaction: 1, sequence: 1), stream: stream, version: 2, eventId: UUID(), type: type,
                schemaVersion: 1, data: Data("{}".utf8), metadataJSON: Data("{}".utf8), occurredAt: Date(), recordedAt: Date())
        }
        let reserva = StreamNames.reserva(id)
        let checkin = StreamNames.checkin(id)
        #expect(AnalyticsReadModel.historias(recorded(Reserva.Catalogo.cancelada.type, reserva)) == [reserva, checkin])
        #expect(AnalyticsReadModel.historias(recorded(Reserva.Catalogo.confirmada.type, reserva)) == [reserva])
        #expect(AnalyticsReadModel.historias(recorded(Reserva.Catalogo.expirada.type, reserva)) == [reserva])
        #expect(AnalyticsReadModel.historias(recorded(Checkin.Catalogo.noShowRegistrado.type, checkin)) == [reserva])
        #expect(AnalyticsReadModel.historias(recorded(Reserva.Catalogo.solicitada.type, reserva)).isEmpty)
        #expect(AnalyticsReadModel.historias(recorded(Reserva.Catalogo.cancelada.type, StreamName("reserva-nao-e-um-id"))).isEmpty)
    }

    @Test("batches with nothing it reads move its position at once and its checkpoint only now and then; one it reads commits at once")
    func commits_idle_batches_lazily() async throws {
        let (store, path) = try AnalyticsHistoria.store()
        defer { AnalyticsHistoria.remove(path) }
        let instant = try Date("2026-11-23T08:00:00-03:00", strategy: .iso8601)
        let checkpoint = ReservasReadModel.projection.checkpoint
        func outro() throws -> StreamWrite {
            StreamWrite(
                stream: StreamName("outro-\(UUID().uuidString.lowercased())"), expected: .noStream,
                events: [
                    NewEvent(eventId: UUID(), type: "AlgoQueNinguemProjeta", data: Data("{}".utf8), occurredAt: instant)
                ])
        }
        func started(_ runner: ProjectionRunner) -> Task<Void, any Error> { Task { try await runner.run() } }
        func reaches(_ runner: ProjectionRunner, _ position: GlobalPosition) async -> Bool {
            await runner.waitUntil(position, timeout: .seconds(10))
        }

        // An interval longer than the test: the idle checkpoint is never saved on its own.
        let preguicoso = ProjectionRunner(
            ReservasReadModel.projection, store: store, idleCommitInterval: .seconds(3_600), logger: AnalyticsHistoria.logger)
        let rodando = started(preguicoso)
        let primeiro = try #require(try await store.append([try outro()]).positions.last)
        #expect(await reaches(preguicoso, primeiro), "the runner's position moves past what it does not read")
        #expect(try await store.checkpoint(checkpoint) == .start, "and its checkpoint is not saved for it")
        // A ReservaConfirmada of an unknown booking changes no document but is read: it commits.
        let lido = try NewEvent(
            eventId: UUID(), event: Reserva.Event.confirmada(.init(reservaId: Reserva.ID(UUID()), pagamentoId: nil, em: instant)),
            metadata: EventMetadata(), occurredAt: instant)
        let segundo = try #require(
            try await store.append(
                to: StreamName("reserva-\(UUID().uuidString.lowercased())"), expected: .noStream, events: [lido]
            ).positions.last)
        #expect(await reaches(preguicoso, segundo))
        #expect(try await store.checkpoint(checkpoint) == segundo)
        rodando.cancel()
        _ = await rodando.result

        // A short interval: the idle batches' checkpoint is saved soon after.
        let atento = ProjectionRunner(
            ReservasReadModel.projection, store: store, idleCommitInterval: .milliseconds(20), logger: AnalyticsHistoria.logger)
        let denovo = started(atento)
        let terceiro = try #require(try await store.append([try outro()]).positions.last)
        #expect(await reaches(atento, terceiro))
        var salvo = GlobalPosition.start
        for _ in 0..<500 where salvo != terceiro {
            salvo = try await store.checkpoint(checkpoint)
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(salvo == terceiro)
        denovo.cancel()
        _ = await denovo.result
    }

    @Test(
        "a runner whose lease another holder took writes nothing over that holder's documents: its fenced commit fails, and it starts again from the stored checkpoint without the documents it kept"
    )
    func a_stale_holder_drops_its_documents() async throws {
        let agenda = try DiaDeAgenda()
        defer { agenda.remove() }
        let (store, instant, key, stream) = (agenda.store, agenda.instant, agenda.key, agenda.stream)
        let projection = ReservasReadModel.agendas
        func ocupa(_ reserva: UUID, hora: Int) throws -> NewEvent { try agenda.ocupa(reserva, hora: hora) }
        func reservas() async throws -> Set<String> { Set(try await agenda.reservas().map { $0.uuidString.lowercased() }) }
        let (r1, r2, outra) = (UUID(), UUID(), UUID())
        // No idle commits during the test: only the commits of batches it reads.
        let runner = ProjectionRunner(projection, store: store, idleCommitInterval: .seconds(3_600), logger: AnalyticsHistoria.logger)
        let rodando = Task { try await runner.run() }
        defer { rodando.cancel() }
        let p1 = try #require(try await store.append(to: stream, expected: .noStream, events: [try ocupa(r1, hora: 0)]).positions.last)
        #expect(await runner.waitUntil(p1, timeout: .seconds(10)))
        #expect(try await reservas() == [r1.uuidString.lowercased()])

        // Another holder (a replica that took the lease) writes the day with a booking of its own
        // and moves the checkpoint past an event this one only holds in memory.
        let alheio = NewEvent(eventId: UUID(), type: "AlgoQueNinguemProjeta", data: Data("{}".utf8), occurredAt: instant)
        let p2 = try #require(try await store.append(to: StreamName("outro-1"), expected: .noStream, events: [alheio]).positions.last)
        #expect(await runner.waitUntil(p2, timeout: .seconds(10)))
        let atual = try #require(try await store.document(ReservasReadModel.ocupacao, key: key))
        var deles = try ReadModelJSON.decoder.decode(OcupacaoView.self, from: atual)
        deles.reservas[outra.uuidString.lowercased()] = try TimeRange(
            start: instant.addingTimeInterval(7_200), end: instant.addingTimeInterval(10_800))
        let comoFicou = try await store.checkpointMark(projection.checkpoint)
        #expect(comoFicou.position == p1)
        try await store.commit(
            [ReadModelChange(collection: ReservasReadModel.ocupacao, key: key, grupo: deles.espacoId, doc: try ReadModelJSON.encoder.encode(deles))],
            checkpoint: projection.checkpoint, at: p2, from: comoFicou)

        // This runner's next batch was decided on the document it kept: its commit is refused,
        // and it applies the event again on the other holder's document.
        try await store.append(to: stream, expected: .exact(1), events: [try ocupa(r2, hora: 4)])
        var vistas: Set<String> = []
        for _ in 0..<200 where !vistas.contains(r2.uuidString.lowercased()) {
            try await Task.sleep(for: .milliseconds(50))
            vistas = try await reservas()
        }
        #expect(vistas == Set([r1, outra, r2].map { $0.uuidString.lowercased() }))
    }
}

extension ProjectionRunnerTests {
    /// Positions a test's projection reacts to, set after the appends.
    final class Marcas: Sendable {
        let pular = Mutex<GlobalPosition?>(nil)
        let pausar = Mutex<GlobalPosition?>(nil)
    }

    @Test(
        "a rebuild builds beside the live read model and swaps it in whole: readers see the old documents until then, and the live runner follows on from the rebuilt ones"
    )
    func a_rebuild_is_swapped_in_whole() async throws {
        let agenda = try DiaDeAgenda()
        defer { agenda.remove() }
        let (store, stream) = (agenda.store, agenda.stream)
        let agendas = ReservasReadModel.agendas
        func ocupa(_ reserva: UUID, hora: Int) throws -> NewEvent { try agenda.ocupa(reserva, hora: hora) }
        func reservas(_ collection: String = ReservasReadModel.ocupacao) async throws -> Set<UUID> { try await agenda.reservas(collection) }
        let r = (1...5).map { _ in UUID() }
        var version = 0
        func append(_ reserva: UUID) async throws -> GlobalPosition {
            defer { version += 1 }
            return try #require(
                try await store.append(
                    to: stream, expected: version == 0 ? .noStream : .exact(Int64(version)), events: [try ocupa(reserva, hora: version * 2)]
                ).positions.last)
        }

        // The live runner follows the log with the projection as it was.
        let live = ProjectionRunner(agendas, store: store, idleCommitInterval: .seconds(3_600), logger: AnalyticsHistoria.logger)
        let rodando = Task { try await live.run() }
        defer { rodando.cancel() }
        let p1 = try await append(r[0]), p2 = try await append(r[1]), p3 = try await append(r[2])
        #expect(await live.waitUntil(p3, timeout: .seconds(10)))
        #expect(try await reservas() == [r[0], r[1], r[2]])

        // The new version of the projection leaves r2 out (a fixed bug, say); its rebuild reads one
        // event a batch and waits at r3's until it is let go.
        let marcas = Marcas()
        marcas.pular.withLock { $0 = p2 }
        marcas.pausar.withLock { $0 = p3 }
        let (solta, soltar) = AsyncStream.makeStream(of: Void.self)
        let nova = Projection(name: agendas.name, collections: agendas.collections, types: agendas.types) { recorded, batch in
            if marcas.pular.withLock({ $0 }) == recorded.position { return }
            if batch.geracao != nil, marcas.pausar.withLock({ $0 }) == recorded.position {
                for await _ in solta { break }
            }
            try await agendas.apply(recorded, batch)
        }
        let rebuilder = ProjectionRunner(nova, store: store, batchSize: 1, logger: AnalyticsHistoria.logger)
        let rebuild = Task { try await rebuilder.rebuild() }
        let staged = agendas.checkpoint + "~rebuild"
        for _ in 0..<200 where try await store.checkpoint(staged) < p2 { try await Task.sleep(for: .milliseconds(25)) }
        #expect(try await store.checkpoint(staged) == p2)
        // Half-built: the staged documents have what it applied so far; the live ones are whole
        // and still followed.
        #expect(try await reservas(ReservasReadModel.ocupacao + "~rebuild") == [r[0]])
        #expect(try await reservas() == [r[0], r[1], r[2]])
        let p4 = try await append(r[3])
        #expect(await live.waitUntil(p4, timeout: .seconds(10)))
        #expect(try await reservas() == [r[0], r[1], r[2], r[3]])
        #expect(try await store.checkpoint(agendas.checkpoint) == p4)

        // Let go: it catches up with the log (r4 included) and is swapped in.
        soltar.yield()
        #expect(try await rebuild.value == 4)
        #expect(try await reservas() == [r[0], r[2], r[3]])
        #expect(try await store.checkpoint(agendas.checkpoint) == p4)
        #expect(try await store.count(ReservasReadModel.ocupacao + "~rebuild", grupo: nil) == 0)
        #expect(try await store.checkpoint(staged) == .start)

        // The live runner kept the old document (r2 in it): its next commit is refused, and it
        // applies r5 again onto the rebuilt one.
        let p5 = try await append(r[4])
        var vistas: Set<UUID> = []
        for _ in 0..<200 where !vistas.contains(r[4]) {
            try await Task.sleep(for: .milliseconds(50))
            vistas = try await reservas()
        }
        #expect(vistas == [r[0], r[2], r[3], r[4]])
        #expect(await live.waitUntil(p5, timeout: .seconds(10)))
        _ = p1
    }
}

extension ProjectionRunnerTests {
    @Test(
        "a rebuild is not swapped in behind the live read model: what the live runner applied after the build's last read is read into the build first"
    )
    func a_rebuild_catches_up_with_the_live_runner_before_the_swap() async throws {
        let agenda = try DiaDeAgenda()
        defer { agenda.remove() }
        let (base, stream) = (agenda.store, agenda.stream)
        let agendas = ReservasReadModel.agendas
        func ocupa(_ reserva: UUID, hora: Int) throws -> NewEvent { try agenda.ocupa(reserva, hora: hora) }
        func reservas() async throws -> Set<UUID> { try await agenda.reservas() }
        let (r1, r2) = (UUID(), UUID())
        let live = ProjectionRunner(agendas, store: base, idleCommitInterval: .seconds(3_600), logger: AnalyticsHistoria.logger)
        let rodando = Task { try await live.run() }
        defer { rodando.cancel() }
        let p1 = try #require(try await base.append(to: stream, expected: .noStream, events: [try ocupa(r1, hora: 0)]).positions.last)
        #expect(await live.waitUntil(p1, timeout: .seconds(10)))

        // Between the build's last read and its swap, a booking lands and the live runner
        // applies it; then the live runner has nothing more to do (it would not notice a swap
        // that took that booking away).
        let store = PausingStore(base, pausing: StreamName("nada-1"))
        let p2 = Marcas()
        let segundo = try ocupa(r2, hora: 2)
        store.beforePromotion.withLock {
            $0 = {
                let at = try #require(try await base.append(to: stream, expected: .exact(1), events: [segundo]).positions.last)
                p2.pular.withLock { $0 = at }
                #expect(await live.waitUntil(at, timeout: .seconds(10)))
                #expect(try await base.checkpoint(agendas.checkpoint) == at)
            }
        }
        let rebuilder = ProjectionRunner(agendas, store: store, logger: AnalyticsHistoria.logger)
        #expect(try await rebuilder.rebuild() == 2)
        let depois = try #require(p2.pular.withLock { $0 })
        #expect(try await base.checkpoint(agendas.checkpoint) == depois)
        #expect(try await reservas() == [r1, r2])
    }
}

@Suite("A projection runner under load")
struct GatheringTests {
    @Test("it lets a batch gather: what arrives while it waits is applied and committed together, not one commit each")
    func gathers_under_load() async throws {
        let agenda = try DiaDeAgenda()
        defer { agenda.remove() }
        let store = PausingStore(agenda.store, pausing: StreamName("nada-1"))
        let runner = ProjectionRunner(
            ReservasReadModel.agendas, store: store, idleCommitInterval: .seconds(3_600), gathering: .init(wait: .seconds(2), from: 1),
            logger: AnalyticsHistoria.logger)
        let rodando = Task { try await runner.run() }
        defer { rodando.cancel() }
        let reservas = (0..<9).map { _ in UUID() }
        let primeira = try #require(
            try await agenda.store.append(to: agenda.stream, expected: .noStream, events: [try agenda.ocupa(reservas[0], hora: 0)]).positions.last)
        #expect(await runner.waitUntil(primeira, timeout: .seconds(10)))
        let antes = store.commits.withLock { $0 }
        // Eight more, one at a time, while it waits after the first: each alone would be a
        // batch (and a commit) of its own for a runner that reads again at once.
        var ultima = primeira
        for (indice, reserva) in reservas.enumerated().dropFirst() {
            ultima = try #require(
                try await agenda.store.append(
                    to: agenda.stream, expected: .exact(Int64(indice)), events: [try agenda.ocupa(reserva, hora: indice)]
                ).positions.last)
            try await Task.sleep(for: .milliseconds(30))
        }
        #expect(await runner.waitUntil(ultima, timeout: .seconds(10)))
        #expect(store.commits.withLock { $0 } - antes <= 2, "eight bookings, \(store.commits.withLock { $0 } - antes) commits")
        #expect(try await agenda.reservas() == Set(reservas))
    }

    /// The day's occupancy runner following `agenda`, gathering until the hour's beat (a wait no
    /// test outlives) after 2 events it read.
    func seguindo(_ agenda: DiaDeAgenda) -> (runner: ProjectionRunner, rodando: Task<Void, any Error>) {
        let runner = ProjectionRunner(
            ReservasReadModel.agendas, store: agenda.store, idleCommitInterval: .seconds(3_600),
            gathering: .init(wait: .seconds(3_600), from: 2), logger: AnalyticsHistoria.logger)
        return (runner, Task { try await runner.run() })
    }

    @Test("a runner that reads fewer events than it gathers from reads again at once")
    func light_load_does_not_wait() async throws {
        let agenda = try DiaDeAgenda()
        defer { agenda.remove() }
        let runner = seguindo(agenda)
        defer { runner.rodando.cancel() }
        let (r1, r2) = (UUID(), UUID())
        let p1 = try #require(
            try await agenda.store.append(to: agenda.stream, expected: .noStream, events: [try agenda.ocupa(r1, hora: 0)]).positions.last)
        #expect(await runner.runner.waitUntil(p1, timeout: .seconds(10)))
        let p2 = try #require(
            try await agenda.store.append(to: agenda.stream, expected: .exact(1), events: [try agenda.ocupa(r2, hora: 2)]).positions.last)
        #expect(await runner.runner.waitUntil(p2, timeout: .seconds(10)), "one event read: no hour-long wait before the next")
        #expect(try await agenda.reservas() == [r1, r2])
    }

    @Test("a busy log is load whatever its events: a runner that stepped over others waits for the beat with the rest")
    func other_events_are_load_too() async throws {
        let agenda = try DiaDeAgenda()
        defer { agenda.remove() }
        let runner = seguindo(agenda)
        defer { runner.rodando.cancel() }
        let outros = (0..<5).map { _ in NewEvent(eventId: UUID(), type: "OutroEvento", data: Data("{}".utf8), occurredAt: agenda.instant) }
        let p0 = try #require(try await agenda.store.append(to: StreamName("outro-1"), expected: .noStream, events: outros).positions.last)
        #expect(await runner.runner.waitUntil(p0, timeout: .seconds(10)))
        let reserva = UUID()
        let p1 = try #require(
            try await agenda.store.append(to: agenda.stream, expected: .noStream, events: [try agenda.ocupa(reserva, hora: 0)]).positions.last)
        // Had it read again at once, it would have read alone, a few events after the others.
        #expect(await runner.runner.waitUntil(p1, timeout: .milliseconds(500)) == false, "five events read: it waits for the hour's beat")
        #expect(try await agenda.reservas().isEmpty)
    }
}

@Suite("The beat the log's followers keep")
struct BeatTests {
    @Test("passes that end at different moments of a period wake at the same tick, the period's end")
    func passes_wake_together() {
        let periodo = Duration.milliseconds(20)
        let agora = ContinuousClock.now
        let tique = Beat.next(periodo, after: agora)
        #expect(tique > agora)
        #expect(tique - agora <= periodo)
        // Anything before the tick, within its period, wakes at it; the tick itself at the next.
        #expect(Beat.next(periodo, after: tique - .milliseconds(19)) == tique)
        #expect(Beat.next(periodo, after: tique - .microseconds(1)) == tique)
        #expect(Beat.next(periodo, after: tique) == tique + periodo)
        #expect(Beat.next(periodo, after: tique + .milliseconds(7)) == tique + periodo)
    }
}

/// One space's day in a fresh embedded store: its agenda stream and occupancy document.
struct DiaDeAgenda {
    let store: SQLiteEventStore
    let path: String
    let instant: Date
    let espaco = UUID()
    let dia: DataLocal
    var key: String { ReservasReadModel.ocupacaoKey(espaco, dia) }
    var stream: StreamName { StreamName("agenda-\(espaco.uuidString.lowercased())-2026-11-26") }

    init() throws {
        (store, path) = try AnalyticsHistoria.store()
        instant = try Date("2026-11-23T08:00:00-03:00", strategy: .iso8601)
        dia = try #require(DataLocal("2026-11-26"))
    }

    func remove() { AnalyticsHistoria.remove(path) }

    /// An hour of the day taken by `reserva`, `hora` hours after 08:00.
    func ocupa(_ reserva: UUID, hora: Int) throws -> NewEvent {
        let inicio = instant.addingTimeInterval(Double(hora) * 3_600)
        return try NewEvent(
            eventId: UUID(),
            event: Agenda.Event.ocupada(
                .init(
                    reservaId: reserva, espacoId: espaco, data: dia, intervalo: try TimeRange(start: inicio, end: inicio.addingTimeInterval(3_600)),
                    em: instant)),
            occurredAt: instant)
    }

    /// The bookings the day's occupancy document holds, in `collection`.
    func reservas(_ collection: String = ReservasReadModel.ocupacao) async throws -> Set<UUID> {
        guard let doc = try await store.document(collection, key: key) else { return [] }
        return Set(try ReadModelJSON.decoder.decode(OcupacaoView.self, from: doc).reservas.keys.compactMap(UUID.init(uuidString:)))
    }
}

extension DocumentCache {
    /// Keeps bytes alone, as a document read from the store is kept.
    func keep(_ collection: String, _ key: String, _ doc: Data?) {
        keep(collection, key, doc.map(HeldDocument.init(json:)))
    }
}

@Suite("A runner's document cache")
struct DocumentCacheTests {
    /// The bytes kept under `key`: `.none` when not kept, `.some(nil)` when kept as absent.
    func bytes(_ cache: DocumentCache, _ collection: String, _ key: String) -> Data?? {
        cache.document(collection, key).map { $0?.json }
    }

    @Test("it keeps documents of its own collections only, absent ones too, and starts over past its bytes")
    func bounded_by_bytes() {
        let cache = DocumentCache(collections: ["minha"], capacity: 100)
        let doc = Data(repeating: 65, count: 45)  // 51 bytes kept with its collection and key
        cache.keep("minha", "a", doc)
        cache.keep("minha", "b", nil as Data?)
        cache.keep("alheia", "c", doc)
        #expect(bytes(cache, "minha", "a") == .some(doc))
        #expect(bytes(cache, "minha", "b") == .some(nil), "known to be absent")
        #expect(bytes(cache, "alheia", "c") == nil, "another projection's collection is never kept")
        cache.keep("minha", "a", Data(repeating: 66, count: 45))  // replaces it: 57 bytes in all
        #expect(bytes(cache, "minha", "b") == .some(nil))
        cache.keep("minha", "d", doc)  // past 100 bytes: starts over with it
        #expect(bytes(cache, "minha", "a") == nil && bytes(cache, "minha", "b") == nil)
        #expect(bytes(cache, "minha", "d") == .some(doc))
    }

    @Test("a document kept decoded counts three times its bytes, so values do not take it past its capacity")
    func values_count_more() throws {
        let cache = DocumentCache(collections: ["m"], capacity: 100)
        let json = Data(#"{"espacoId":"e","data":"2026-11-26","reservas":{}}"#.utf8)  // 50 bytes
        cache.keep("m", "a", json)  // 52 with its collection and key
        var doc = try #require(cache.document("m", "a") ?? nil)
        _ = try doc.decoded(OcupacaoView.self)
        cache.remember("m", "a", doc)  // 152: past 100, it starts over with it alone
        #expect(cache.document("m", "a")??.value is OcupacaoView)
        cache.keep("m", "b", Data(repeating: 65, count: 10))
        #expect(cache.document("m", "a") == nil, "a decoded document counts as 150 bytes")
        #expect(bytes(cache, "m", "b") == .some(Data(repeating: 65, count: 10)))
    }

    /// A document that counts its encodings and cannot be decoded: whatever reads it back
    /// decoded must have been given the value as it was put.
    struct Contado: Codable, Equatable {
        static let codificacoes = Mutex(0)
        var n: Int

        init(n: Int) { self.n = n }

        init(from decoder: any Decoder) throws {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "decoded again"))
        }

        func encode(to encoder: any Encoder) throws {
            Self.codificacoes.withLock { $0 += 1 }
            var container = encoder.singleValueContainer()
            try container.encode(n)
        }
    }

    @Test("a value put is read back as it was put, in its batch and from the cache in the next, and encoded once when its batch commits")
    func values_as_put() async throws {
        let (store, path) = try AnalyticsHistoria.store()
        defer { AnalyticsHistoria.remove(path) }
        let cache = DocumentCache(collections: ["minha"])
        let antes = Contado.codificacoes.withLock { $0 }
        let primeiro = ProjectionBatch(store: store, cache: cache, target: ProjectionTarget(checkpoint: "teste", names: [:], geracao: nil))
        try primeiro.put(Contado(n: 1), "minha", "a")
        var lido = try #require(try await primeiro.get(Contado.self, "minha", "a"))
        #expect(lido == Contado(n: 1))
        lido.n = 2
        try primeiro.put(lido, "minha", "a")
        #expect(try await primeiro.get(Contado.self, "minha", "a") == Contado(n: 2))
        #expect(Contado.codificacoes.withLock { $0 } == antes, "nothing encoded before the commit")
        let escritos = try primeiro.changes()
        #expect(escritos.map(\.doc) == [Data("2".utf8)])
        #expect(Contado.codificacoes.withLock { $0 } == antes + 1, "one encoding for two puts")
        primeiro.keepCommitted()

        let segundo = ProjectionBatch(store: store, cache: cache, target: ProjectionTarget(checkpoint: "teste", names: [:], geracao: nil))
        #expect(try await segundo.get(Contado.self, "minha", "a") == Contado(n: 2), "the committed value, from the cache")
        // Bytes alone (another process wrote them) are decoded, then kept decoded.
        cache.keep("minha", "b", Data(#"{"espacoId":"e","data":"2026-11-26","reservas":{}}"#.utf8))
        let ocupacao = try #require(try await segundo.get(OcupacaoView.self, "minha", "b"))
        #expect(ocupacao.espacoId == "e" && ocupacao.reservas.isEmpty)
        #expect(cache.document("minha", "b")??.value is OcupacaoView)
    }
}
