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
        EventMetadata(actor: "usuario:1", service: "reservas", traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"),
        EventMetadata(actor: "usuario:1", requestId: "req-9", service: "reservas", requestFingerprint: "9f86d081884c7d65"),
    ])
    func round_trips_through_the_standard_decoder(metadata: EventMetadata) throws {
        let json = MetadataJSON.encode(metadata)
        let decoded = try EventJSON.decoder.decode(EventMetadata.self, from: Data(json.utf8))
        #expect(decoded == metadata)
        #expect(try JSONSerialization.jsonObject(with: Data(json.utf8)) is [String: Any])
    }

    @Test("the traceparent is found in stored metadata without decoding it, whatever the spacing; nothing else passes for it")
    func finds_the_traceparent() {
        let traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
        let written = MetadataJSON.encode(EventMetadata(actor: "traceparent", requestId: "\"traceparent\"", traceparent: traceparent))
        #expect(MetadataJSON.traceparent(in: Data(written.utf8)) == traceparent)
        // As PostgreSQL's jsonb printed it before the column became json.
        #expect(MetadataJSON.traceparent(in: Data(#"{"actor": "x", "traceparent" : "\#(traceparent)"}"#.utf8)) == traceparent)
        #expect(MetadataJSON.traceparent(in: Data(MetadataJSON.encode(EventMetadata(actor: "x")).utf8)) == nil)
        #expect(MetadataJSON.traceparent(in: Data(#"{"traceparent": 7}"#.utf8)) == nil)
        #expect(MetadataJSON.traceparent(in: Data(#"{"traceparent": ""}"#.utf8)) == nil)
        #expect(MetadataJSON.traceparent(in: Data(#"{"traceparent"#.utf8)) == nil)
        #expect(MetadataJSON.traceparent(in: Data()) == nil)
    }
}
