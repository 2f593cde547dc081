import Domain
import EventStore
import Foundation
import Projections
import Testing

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

    @Test("batches with nothing it reads move its position at once and its checkpoint only now and then; one it reads commits at once")
    func commits_idle_batches_lazily() async throws {
        let (store, path) = try AnalyticsHistoria.store()
        defer { AnalyticsHistoria.remove(path) }
        let instant = try Date("2026-11-23T08:00:00-03:00", strategy: .iso8601)
        let checkpoint = ReservasReadModel.projection.checkpoint
        func outro() throws -> StreamWrite {
            StreamWrite(stream: StreamName("outro-\(UUID().uuidString.lowercased())"), expected: .noStream, events: [
                NewEvent(eventId: UUID(), type: "AlgoQueNinguemProjeta", data: Data("{}".utf8), occurredAt: instant),
            ])
        }
        func started(_ runner: ProjectionRunner) -> Task<Void, any Error> { Task { try await runner.run() } }
        func reaches(_ runner: ProjectionRunner, _ position: GlobalPosition) async -> Bool {
            await runner.waitUntil(position, timeout: .seconds(10))
        }

        // An interval longer than the test: the idle checkpoint is never saved on its own.
        let preguicoso = ProjectionRunner(ReservasReadModel.projection, store: store, idleCommitInterval: .seconds(3_600), logger: AnalyticsHistoria.logger)
        let rodando = started(preguicoso)
        let primeiro = try #require(try await store.append([try outro()]).positions.last)
        #expect(await reaches(preguicoso, primeiro), "the runner's position moves past what it does not read")
        #expect(try await store.checkpoint(checkpoint) == .start, "and its checkpoint is not saved for it")
        // A ReservaConfirmada of an unknown booking changes no document but is read: it commits.
        let lido = try NewEvent(
            eventId: UUID(), event: Reserva.Event.confirmada(.init(reservaId: Reserva.ID(UUID()), pagamentoId: nil, em: instant)),
            metadata: EventMetadata(), occurredAt: instant)
        let segundo = try #require(try await store.append(
            to: StreamName("reserva-\(UUID().uuidString.lowercased())"), expected: .noStream, events: [lido]).positions.last)
        #expect(await reaches(preguicoso, segundo))
        #expect(try await store.checkpoint(checkpoint) == segundo)
        rodando.cancel()
        _ = await rodando.result

        // A short interval: the idle batches' checkpoint is saved soon after.
        let atento = ProjectionRunner(ReservasReadModel.projection, store: store, idleCommitInterval: .milliseconds(20), logger: AnalyticsHistoria.logger)
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
}
