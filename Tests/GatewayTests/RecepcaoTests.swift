import Domain
import Foundation
import Services
import Testing

/// What a reception desk reads about the day: who is expected, who arrived, who left.
@Suite("The reception's day")
struct RecepcaoTests {
    @Test("the unit's bookings of the day, and the member's booking, say when the member checked in and out")
    func the_day_shows_check_in_and_out() async throws {
        let clock = ManualClock(segundaDeManha)  // Monday 08:00 in São Paulo
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let cartao = pedido(cenario.sala, "2026-11-23T09:00:00-03:00", "2026-11-23T11:00:00-03:00", cartao: "tok_visa")
            let id = try #require(try await client.json(.post, "/api/reservas", cartao, token: cenario.membro).object["id"] as? String)
            _ = try await client.reserva(id, token: cenario.membro, status: "confirmada")
            let codigo = try await eventually("the check-in code") {
                try await client.json(.get, "/api/reservas/\(id)/checkin", token: cenario.admin).object["codigo"] as? String
            }
            func doDia() async throws -> [String: Any]? {
                let dia = try await client.json(.get, "/api/admin/reservas?unidade=\(cenario.unidade)&data=2026-11-23", token: cenario.admin)
                return (dia.object["itens"] as? [[String: Any]])?.first { $0["id"] as? String == id }
            }
            #expect(try await doDia()?["checkinEm"] == nil)
            clock.set(try Date("2026-11-23T08:55:00-03:00", strategy: .iso8601))
            // The front desk checks the member in with the code the member shows.
            _ = try await eventually("checked in") {
                let r = try await client.json(.post, "/api/checkin", #"{"codigo":"\#(codigo)","reservaId":"\#(id)"}"#, token: cenario.admin)
                return r.status == .ok ? r : nil
            }
            let presente = try await eventually("the day shows the arrival") { try await doDia().flatMap { $0["checkinEm"] as? String } }
            #expect(presente == "2026-11-23T11:55:00Z")
            clock.set(try Date("2026-11-23T10:40:00-03:00", strategy: .iso8601))
            #expect(try await client.json(.post, "/api/reservas/\(id)/checkout", token: cenario.admin).status == .ok)
            let saiu = try await eventually("the day shows the departure") { try await doDia().flatMap { $0["checkoutEm"] as? String } }
            #expect(saiu == "2026-11-23T13:40:00Z")
            let daMembro = try await client.json(.get, "/api/reservas/\(id)", token: cenario.membro).object
            #expect(daMembro["checkinEm"] as? String == presente && daMembro["checkoutEm"] as? String == saiu)
        }
    }
}
