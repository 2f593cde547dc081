import Domain
import Foundation
import Testing

@testable import EventStore

/// Stored metadata reads in place as `EventJSON.decoder` reads it, whatever wrote it.
@Suite("Metadata JSON read")
struct MetadataJSONReadTests {
    static let id = "4BF92F35-77B3-4DA6-A3CE-929D0E0E4736"
    static let texts: [String] = [
        MetadataJSON.encode(EventMetadata()),
        MetadataJSON.encode(EventMetadata(correlationId: UUID(), causationId: UUID(), actor: "usuario:1", requestId: "req-9", service: "reservas")),
        MetadataJSON.encode(EventMetadata(actor: "aspas \" barra \\ nova\nlinha \t tab \u{01} ctrl é ✓ 🚀", traceparent: "00-4bf9-01")),
        MetadataJSON.encode(EventMetadata(actor: "usuario:1", requestId: "req-9", requestFingerprint: "9f86d081884c7d65")),
        // As PostgreSQL's jsonb printed it, and as another writer may.
        #"{"actor": "x", "correlationId": "\#(id.lowercased())", "service" : "pagamentos"}"#,
        #" { "actor" : null , "causationId" : null } "#,
        #"{"actor":"x","extra":{"a":[1,2,{"b":"\u00e9"}]},"more":12.5e3}"#,
        #"{"actor":"\u0041\ud83d\ude00"}"#,
        // Not metadata as the decoder takes it: nil both ways.
        #"{"actor": 7}"#, #"{"correlationId": "not-a-uuid"}"#, #"{"correlationId": 7}"#, #"[]"#, #""#, #"{"actor": "x""#,
        #"{"actor": "x"} {}"#, #"{"actor": "x",}"#,
        // A name twice: left to the decoder, which decides.
        #"{"actor": "a", "actor": "b"}"#,
    ]

    @Test("in place or through the decoder, the same metadata", arguments: texts)
    func reads_as_the_decoder(text: String) {
        let data = Data(text.utf8)
        let expected = try? EventJSON.decoder.decode(EventMetadata.self, from: data)
        #expect(MetadataJSON.decode(data) == expected)
    }

    @Test("a recorded event's metadata is what was written")
    func recorded_events_read_their_metadata() {
        let metadata = EventMetadata(correlationId: UUID(), causationId: UUID(), actor: "usuario:1", requestId: "r", service: "reservas")
        let event = RecordedEvent(
            position: GlobalPosition(transaction: 1, sequence: 1), stream: StreamName("reserva-1"), version: 1, eventId: UUID(), type: "T",
            schemaVersion: 1, data: Data("{}".utf8), metadataJSON: Data(MetadataJSON.encode(metadata).utf8), occurredAt: Date(), recordedAt: Date())
        #expect(event.metadata == metadata)
    }
}
