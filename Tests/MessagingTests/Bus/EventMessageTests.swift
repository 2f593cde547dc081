import EventStore
import Foundation
import Testing

@testable import Messaging

/// The bus's message body: what the relay writes, a consumer reads back exactly; a body that is
/// not an event is refused with a reason (it goes to the dead-letter queue with it).
@Suite("EventMessage: body and decoding")
struct EventMessageTests {
    let event = RecordedEvent(
        position: GlobalPosition(transaction: 812, sequence: 4031), stream: StreamName("reserva-3f1c"), version: 7,
        eventId: UUID(uuidString: "0193c7a0-1111-7abc-8def-0123456789ab")!, type: "ReservaSolicitada", schemaVersion: 2,
        data: Data(#"{"nome": "Sala \"Ipê\" — 3º andar", "itens": [1, 2.5, -3e2, true, null, {"a": []}], "vazio": {}}"#.utf8),
        metadataJSON: Data(#"{"actor":"usuario-1","correlationId":"C0FFEE00-0000-0000-0000-000000000001"}"#.utf8),
        occurredAt: Date(timeIntervalSince1970: 1_795_694_400.123), recordedAt: Date(timeIntervalSince1970: 1_795_694_400.456))

    @Test("a body reads back as the event, with data and metadata byte for byte")
    func round_trip() throws {
        let decoded = try EventMessage.decode(EventMessage.body(of: event))
        #expect(decoded.data == event.data)
        #expect(decoded.metadataJSON == event.metadataJSON)
        #expect(decoded.eventId == event.eventId && decoded.type == event.type && decoded.stream == event.stream)
        #expect(decoded.version == 7 && decoded.schemaVersion == 2 && decoded.position == event.position)
        #expect(abs(decoded.occurredAt.timeIntervalSince(event.occurredAt)) < 0.001)
        #expect(abs(decoded.recordedAt.timeIntervalSince(event.recordedAt)) < 0.001)
        #expect(decoded.metadata.actor == "usuario-1")
    }

    @Test("another writer's body reads too: any member order, whitespace, escapes, unknown members, an offset instant")
    func other_writers() throws {
        let body = """
            {
              "extra": [1, {"x": "y"}], "data" : { "motivo": "a\\u00e7\\u00e3o \\"x\\"\\n" },
              "metadata": {}, "position": {"sequence": 5, "transaction": 9, "note": null},
              "type": "Reserva\\u0043ancelada", "stream": "reserva-1", "streamVersion": 2.0, "schemaVersion": 1,
              "eventId": "0193C7A0-1111-7ABC-8DEF-0123456789AB",
              "occurredAt": "2026-11-21T09:00:00-03:00", "recordedAt": "2026-11-21T12:00:00Z"
            }\n
            """
        let decoded = try EventMessage.decode(Data(body.utf8))
        #expect(decoded.type == "ReservaCancelada")
        #expect(decoded.position == GlobalPosition(transaction: 9, sequence: 5))
        #expect(decoded.version == 2)
        #expect(decoded.occurredAt == decoded.recordedAt)
        #expect(String(decoding: decoded.data, as: UTF8.self) == #"{ "motivo": "a\u00e7\u00e3o \"x\"\n" }"#)
        let motivo = try JSONDecoder().decode([String: String].self, from: decoded.data)["motivo"]
        #expect(motivo == "ação \"x\"\n")
    }

    @Test(
        "a body that is not an event is refused, saying why",
        arguments: [
            ("not json", "the body is not JSON"),
            ("[1, 2]", "the body is JSON but not an object"),
            (#"{"type": "X""#, "the body is not JSON"),
            (#"{"type": "X"} trailing"#, "more after the object"),
            (#"{"type": "X", "type": "Y"}"#, "appears twice"),
            (#"{"type": "a\qb"}"#, "bad escape"),
            (#"{"type": "open}"#, "not closed"),
            (#"{"type": "\ud800x"}"#, "lone surrogate"),
            (#"{"type": "\udc00"}"#, "lone surrogate"),
            (#"{"data": {"a": "é"}, "x": 1}"#, "field 'type' is missing"),
            (#"{"n": 01}"#, "leading zero"),
            (#"{"n": tru}"#, "bad literal"),
            (#"{"eventId": 5}"#, "field 'eventId' must be a string"),
            (#"{"eventId": "nope"}"#, "field 'eventId' is not a UUID"),
            (#"{"position": [1]}"#, "field 'position' must be an object"),
            (#"{"position": {"transaction": "1"}}"#, "field 'position.transaction' must be an integer"),
            (#"{"streamVersion": 1.5}"#, "field 'streamVersion' must be an integer"),
            (#"{"data": [1]}"#, "field 'data' must be a JSON object"),
            (#"{"occurredAt": "yesterday"}"#, "field 'occurredAt' is not an ISO 8601 instant"),
            (#"{}"#, "field 'type' is missing"),
        ])
    func refused(body: String, reason: String) {
        #expect {
            _ = try EventMessage.decode(Data(body.utf8))
        } throws: { error in
            "\(error)".contains(reason)
        }
    }

    @Test("data that is not UTF-8 is told apart")
    func utf8() throws {
        var body = Data(#"{"type":"X","data":{"a":""#.utf8)
        body.append(contentsOf: [0xC3, 0x28])  // an invalid two-byte sequence
        body.append(contentsOf: Array(#""}}"#.utf8))
        #expect {
            _ = try EventMessage.decode(body)
        } throws: { "\($0)".contains("field 'data' must be a JSON object") }
    }

    @Test("a body missing a member names it")
    func missing_members() throws {
        var object = try #require(JSONSerialization.jsonObject(with: EventMessage.body(of: event)) as? [String: Any])
        for name in ["eventId", "stream", "streamVersion", "schemaVersion", "data", "metadata", "occurredAt", "recordedAt"] {
            let saved = object.removeValue(forKey: name)
            let body = try JSONSerialization.data(withJSONObject: object)
            #expect(throws: UnreadableMessage.self) { try EventMessage.decode(body) }
            do { _ = try EventMessage.decode(body) } catch { #expect(error.reason == "field '\(name)' is missing") }
            object[name] = saved
        }
    }

    @Test(
        "the quick instant reader agrees with the formatter",
        arguments: [
            "1970-01-01T00:00:00Z", "2000-02-29T23:59:59.999Z", "2026-11-21T12:00:00.5Z", "1969-12-31T23:59:59.250Z",
            "2100-03-01T00:00:00.000001Z", "2024-12-31T23:59:59.123456789Z",
        ])
    func quick_instants(text: String) throws {
        let quick = try #require(EventMessage.fastISO(text))
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let slow = try #require(formatter.date(from: text) ?? ISO8601DateFormatter().date(from: text))
        #expect(abs(quick.timeIntervalSince(slow)) < 0.001)
        #expect(EventMessage.fastISO("2026-13-01T00:00:00Z") == nil)
        #expect(EventMessage.fastISO("2026-02-29T00:00:00Z") == nil)
        #expect(EventMessage.fastISO("2026-04-31T00:00:00Z") == nil)
        #expect(EventMessage.fastISO("2028-02-29T00:00:00Z") != nil)
        #expect(EventMessage.fastISO("2026-11-21T12:00:00+01:00") == nil)
        #expect(EventMessage.fastISO("2026-11-21 12:00:00Z") == nil)
    }
}
