import Foundation
import Testing

@testable import Projections

/// The trails index finds a member's id in a payload read in place as it did parsing it whole.
@Suite("Trails: a payload's member")
struct TrilhasTests {
    /// What it answered before, with `JSONSerialization`.
    func parsed(_ data: Data) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return (object["usuarioId"] ?? object["titular"]) as? String
    }

    static let payloads: [String] = [
        #"{"espacoId":"E","usuarioId":"4bf92f35-77b3-4da6-a3ce-929d0e0e4736","valor":1200}"#,
        #"{"titular":"T","x":[{"usuarioId":"nested"}]}"#,
        #"{"usuarioId":"U","titular":"T"}"#, #"{"titular":"T","usuarioId":"U"}"#,
        #"{"usuarioId":null,"titular":"T"}"#, #"{"usuarioId":7}"#, #"{"titular":{"usuarioId":"U"}}"#,
        #"{"a":{"usuarioId":"U"},"b":"\"usuarioId\":\"V\""}"#, #"{"usuarioId":"\u00e9\"x"}"#,
        #" { "usuarioId" : "U" } "#, #"{"usuarioId":"U","usuarioId":"V"}"#, #"{"usuarioId":"U"} x"#, #"{"usuarioId":"U""#,
        #"["usuarioId","U"]"#, #"{"outro":"titular"}"#, #"{}"#,
    ]

    @Test("the same member as parsing the whole payload", arguments: payloads)
    func same_member(payload: String) {
        let data = Data(payload.utf8)
        #expect(TrilhasReadModel.usuarioId(data) == parsed(data))
    }
}
