import Domain
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// `CupomReativado`, the event added to show what adding an event costs after the renovation
/// (docs/architecture.md): an operator takes a coupon deactivated by mistake back into use.
@Suite("Coupons: reactivation")
struct CupomReativacaoTests {
    @Test("a deactivated coupon reactivated by an operator discounts again; reactivating an active one changes nothing; unknown is 404, a member 403")
    func reactivation() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let criado = try await client.json(
                .post, "/api/admin/cupons",
                #"{"codigo":"volta","desconto":{"tipo":"percentual","bp":1000},"validoDe":"2026-11-01T00:00:00Z","validoAte":"2026-12-01T00:00:00Z","maxUsos":5}"#,
                token: cenario.admin)
            #expect(criado.status == .created, "\(String(buffer: criado.body))")
            #expect(try await client.json(.post, "/api/admin/cupons/VOLTA/desativacao", token: cenario.admin).object["ativo"] as? Bool == false)
            let recusada = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-25T10:00:00-03:00", "2026-11-25T12:00:00-03:00", cupom: "VOLTA"),
                token: cenario.membro)
            #expect(recusada.status == .unprocessableContent, "\(String(buffer: recusada.body))")

            #expect(try await client.json(.post, "/api/admin/cupons/volta/reativacao", token: cenario.membro).status == .forbidden)
            #expect(try await client.json(.post, "/api/admin/cupons/NADA/reativacao", token: cenario.admin).status == .notFound)
            let reativado = try await client.json(.post, "/api/admin/cupons/volta/reativacao", token: cenario.admin)
            #expect(reativado.status == .ok && reativado.object["ativo"] as? Bool == true, "\(String(buffer: reativado.body))")
            let reserva = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-25T10:00:00-03:00", "2026-11-25T12:00:00-03:00", cupom: "VOLTA"),
                token: cenario.membro)
            #expect(reserva.status == .created && reserva.object["total"] as? Int == 9_000, "\(String(buffer: reserva.body))")

            // Again: nothing to record.
            let antes = try await harness.allEvents().filter { $0.type == Cupom.Catalogo.reativado.type }.count
            #expect(try await client.json(.post, "/api/admin/cupons/VOLTA/reativacao", token: cenario.admin).status == .ok)
            #expect(try await harness.allEvents().filter { $0.type == Cupom.Catalogo.reativado.type }.count == antes && antes == 1)
        }
    }
}
