import EventStore
import Foundation
import Testing

@Suite("Upcasting")
struct UpcastingTests {
    @Test(
        "an event stored at schema version 1 reads back as version 2 through a registered upcaster (also by the lean payload read)",
        arguments: Backend.allCases)
    func v1_reads_as_v2(backend: Backend) async throws {
        var upcasters = Upcasters()
        // v1 had `valor` in reais; v2 has `valorCentavos`.
        upcasters.register("PrecoDefinido", from: 1) { (object: inout [String: Any]) in
            let reais = object.removeValue(forKey: "valor") as? Int ?? 0
            object["valorCentavos"] = reais * 100
        }
        try await withFixture(backend, upcasters: upcasters) { fixture in
            let stream = uniqueStream("preco")
            let old = NewEvent(
                eventId: UUID(), type: "PrecoDefinido", schemaVersion: 1,
                data: Data(#"{"valor":25}"#.utf8), occurredAt: testInstant)
            let current = NewEvent(
                eventId: UUID(), type: "PrecoDefinido", schemaVersion: 2,
                data: Data(#"{"valorCentavos":3000}"#.utf8), occurredAt: testInstant)
            let start = try await fixture.store.headPosition()
            try await fixture.store.append(to: stream, expected: .noStream, events: [old, current])
            let read = try await fixture.store.readStream(stream)
            #expect(read.map(\.schemaVersion) == [2, 2])
            #expect(try read.map { try $0.decode([String: Int].self) } == [["valorCentavos": 2500], ["valorCentavos": 3000]])
            let global = try await fixture.store.readAllKeeping(after: start, expecting: 2) { $0.stream == stream }
            #expect(global.map(\.schemaVersion) == [2, 2])
            // The rebuilds' lean read: the same events without their envelope, upcast too.
            let payloads = try await fixture.store.readAllPayloads(after: start, limit: 10_000).filter { $0.stream == stream }
            #expect(payloads == global.map(EventPayload.init))
            #expect(payloads.map(\.schemaVersion) == [2, 2] && payloads.map(\.version) == [1, 2])
        }
    }
}
