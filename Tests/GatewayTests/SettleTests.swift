import Domain
import EventStore
import Foundation
import Gateway
import Projections
import Testing

@Suite("Read-your-writes waits for the read models concerned")
struct SettleTests {
    @Test("a write waits for the read models that project its types, up to their last event; the others do not hold it")
    func waits_only_for_what_it_wrote() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let backend = harness.backend
        let instant = Date()
        // Read by the bookings read model (and others); no read model reads the other type.
        let lido = try NewEvent(
            eventId: UUID(), event: Reserva.Event.confirmada(.init(reservaId: Reserva.ID(UUID()), pagamentoId: nil, em: instant)), occurredAt: instant
        )
        let alheio = NewEvent(eventId: UUID(), type: "AlgoQueNinguemProjeta", data: Data("{}".utf8), occurredAt: instant)
        let escrito = try await harness.store.append([
            StreamWrite(stream: StreamName("reserva-\(UUID().uuidString.lowercased())"), expected: .noStream, events: [lido]),
            StreamWrite(stream: StreamName("outro-\(UUID().uuidString.lowercased())"), expected: .noStream, events: [alheio]),
        ])
        let (posicaoLida, ultima) = (escrito.positions[0], escrito.positions[1])
        let concernidos = backend.projections.filter { $0.projection.types.contains("ReservaConfirmada") }
        #expect(!concernidos.isEmpty && concernidos.count < backend.projections.count)

        // The runners catch up a moment later: a wait that returns before sees none of them there.
        // (Only the concerned ones the second time, soon: well inside the wait's 2 s bound.)
        func alcancam(_ runners: [ProjectionRunner], after delay: Duration) -> Task<Void, any Error> {
            Task {
                try await Task.sleep(for: delay)
                for runner in runners { try await runner.catchUp() }
            }
        }
        var corrida = alcancam(backend.projections, after: .seconds(1))
        await backend.settle(upTo: ultima, types: ["AlgoQueNinguemProjeta": ultima])
        #expect(backend.projections.allSatisfy { $0.position < ultima }, "a type no read model projects holds nothing")
        corrida.cancel()
        _ = await corrida.result

        corrida = alcancam(concernidos, after: .milliseconds(200))
        await backend.settle(upTo: ultima, types: ["ReservaConfirmada": posicaoLida, "AlgoQueNinguemProjeta": ultima])
        #expect(concernidos.allSatisfy { $0.position >= posicaoLida }, "the read models of its types have it when it answers")
        _ = try await corrida.value
    }
}
