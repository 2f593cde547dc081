import App
import Messaging
import Services
import Testing

/// `Consumidores.filas` (what the relay declares before it publishes) and the consumers the
/// services run (`Backend.reactors`) are listed apart: a consumer added to one and not the
/// other would lose the events published before its first start.
@Suite("The consumers' queues")
struct ConsumidoresTests {
    @Test("the relay declares the queue and bindings of every consumer the services run, and no other")
    func relay_declares_every_consumer() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let run = harness.backend.reactors().map { "\($0.service): \($0.bindings.map(\.description).sorted())" }
        let declared = Consumidores.filas.map { "\($0.servico): \($0.bindings.sorted())" }
        #expect(run.sorted() == declared.sorted())
    }
}
