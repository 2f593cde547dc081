import EventStore
import Foundation
import Testing

@testable import Gateway

@Suite("Forwarding to replicas")
struct ForwardingTests {
    @Test("commands about one space go to one replica, the same from every gateway; others are taken in turn")
    func a_space_has_one_replica() throws {
        let espacos = (0..<64).map { _ in UUID().uuidString.lowercased() }
        func body(_ espaco: String, _ inicio: Int) -> Data {
            Data(#"{"espacoId":"\#(espaco)","inicio":"2026-12-0\#(inicio)T10:00:00Z","fim":"2026-12-0\#(inicio)T11:00:00Z"}"#.utf8)
        }
        var chosen: Set<Int> = []
        for espaco in espacos {
            let replica = try #require(Forwarder.replica(for: body(espaco, 1), among: 3))
            #expect((0..<3).contains(replica))
            #expect(Forwarder.replica(for: body(espaco, 2), among: 3) == replica, "another slot of the same space")
            #expect(Forwarder.replica(for: body(espaco.uppercased(), 3), among: 3) == replica, "the id however it is spelt")
            chosen.insert(replica)
        }
        #expect(chosen == [0, 1, 2], "64 spaces spread over every replica")
        // A fixed value (FNV-1a of "abc" is 0xe71fa2190541574b), not a hash seeded per process.
        #expect(Forwarder.replica(for: Data(#"{"espacoId":"abc"}"#.utf8), among: 1_000_003) == Int(0xe71f_a219_0541_574b as UInt64 % 1_000_003))
        #expect(Forwarder.replica(for: body(espacos[0], 1), among: 1) == nil, "one replica: nothing to choose")
        #expect(Forwarder.replica(for: Data(#"{"motivo":"x"}"#.utf8), among: 3) == nil)
        #expect(Forwarder.replica(for: Data("not json".utf8), among: 3) == nil)
        #expect(Forwarder.replica(for: Data(#"{"espacoId":7}"#.utf8), among: 3) == nil)
    }

    @Test("a replica that failed lately is passed over for the next one, by commands about a space and by those taken in turn")
    func a_failed_replica_is_passed_over() throws {
        let body = Data(#"{"espacoId":"abc"}"#.utf8)
        let home = try #require(Forwarder.replica(for: body, among: 3))
        let next = (home + 1) % 3, after = (home + 2) % 3
        #expect(Forwarder.replica(for: body, among: 3, down: [home]) == next)
        #expect(Forwarder.replica(for: body, among: 3, down: [home, next]) == after)
        #expect(Forwarder.replica(for: body, among: 3, down: [next, after]) == home, "its own when only the others failed")
        #expect(Forwarder.replica(for: body, among: 3, down: [0, 1, 2]) == home, "its own when all failed: the service answers 503 as before")
        #expect(Forwarder.live(from: 2, among: 3, down: [2]) == 0)
        #expect(Forwarder.live(from: 1, among: 3, down: []) == 1)
    }

    @Test("the types a service wrote, each with its last position, travel to the gateway and back intact; anything else reads as none")
    func types_header() {
        let types = [
            "ReservaSolicitada": GlobalPosition(transaction: 12, sequence: 345), "AgendaOcupada": GlobalPosition(transaction: 12, sequence: 346),
        ]
        let value = Forwarder.typesValue(types)
        #expect(value == "AgendaOcupada=12/346,ReservaSolicitada=12/345")
        #expect(Forwarder.types(parsing: value) == types)
        #expect(Forwarder.types(parsing: "") == nil)
        #expect(Forwarder.types(parsing: "ReservaSolicitada") == nil)
        #expect(Forwarder.types(parsing: "ReservaSolicitada=12") == nil)
    }
}
