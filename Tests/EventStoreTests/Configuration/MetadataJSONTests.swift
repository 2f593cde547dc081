import Domain
import Foundation
import Testing

@testable import EventStore

@Suite("Metadata JSON")
struct MetadataJSONTests {
    @Test(arguments: [
        EventMetadata(),
        EventMetadata(correlationId: UUID(), causationId: UUID(), actor: "usuario:1", requestId: "req-9", service: "reservas"),
        EventMetadata(actor: "aspas \" barra \\ nova\nlinha \t tab \u{01} ctrl é ✓ 🚀"),
    ])
    func round_trips_through_the_standard_decoder(metadata: EventMetadata) throws {
        let json = MetadataJSON.encode(metadata)
        let decoded = try EventJSON.decoder.decode(EventMetadata.self, from: Data(json.utf8))
        #expect(decoded == metadata)
        #expect(try JSONSerialization.jsonObject(with: Data(json.utf8)) is [String: Any])
    }
}
