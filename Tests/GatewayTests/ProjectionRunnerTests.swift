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
}
