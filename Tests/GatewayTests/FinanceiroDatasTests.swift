import Domain
import EventStore
import Foundation
import Gateway
import Services
import Testing

@Suite("Financeiro dates documents by the money, not by the reaction")
struct FinanceiroDatasTests {
    @Test("a payment made at 23:59:58 and invoiced after midnight (the bus lagged) is that day's revenue, in its unit's time zone")
    func lagged_payment_keeps_its_day() async throws {
        let clock = ManualClock(segundaDeManha)
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test(reacting: []) { client in
            let cenario = try await Cenario.make(harness, client)
            let pago = try Date("2026-11-30T23:59:58-03:00", strategy: .iso8601)
            clock.set(try Date("2026-12-01T00:00:03-03:00", strategy: .iso8601))
            let corpo = """
                {"pagamentoId":"\(UUID().uuidString.lowercased())","reservaId":"\(UUID().uuidString.lowercased())","usuarioId":"u-1",
                 "unidadeId":"\(cenario.unidade)","espacoId":"\(cenario.sala)","metodo":"pix","valor":10000,"em":"2026-12-01T02:59:58Z"}
                """
            let evento = RecordedEvent(
                position: .start, stream: StreamName(category: "pagamento", id: UUID().uuidString.lowercased()), version: 2, eventId: UUID(),
                type: "PagamentoConfirmado", schemaVersion: 1, data: Data(corpo.utf8), metadataJSON: Data("{}".utf8), occurredAt: pago,
                recordedAt: pago)
            let writes = try await harness.backend.negocio.financeiro.reagir(evento)
            let emitida = try #require(writes.flatMap(\.events).first { $0.type == "FaturaEmitida" })
            let fatura = try #require(try JSONSerialization.jsonObject(with: emitida.data) as? [String: Any])
            #expect(fatura["data"] as? String == "2026-11-30", "\(fatura)")
            let lancamento = try #require(writes.flatMap(\.events).first { $0.type == "LancamentoContabilizado" })
            let razao = try #require(try JSONSerialization.jsonObject(with: lancamento.data) as? [String: Any])
            #expect(razao["data"] as? String == "2026-11-30", "\(razao)")
        }
    }

    @Test("a unit filter that names no unit is a 404 on every finance query, not a report of zeros; a malformed one a 400")
    func unknown_unit_filter_is_404() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test(reacting: []) { client in
            let cenario = try await Cenario.make(harness, client)
            let nenhuma = UUID().uuidString.lowercased()
            let periodo = "de=2026-11-23&ate=2026-11-25"
            for caminho in [
                "/api/admin/financeiro/faturas", "/api/admin/financeiro/razao", "/api/financeiro/relatorios/receita?\(periodo)",
                "/api/admin/financeiro/faturas.csv?\(periodo)", "/api/admin/financeiro/razao.csv?\(periodo)",
            ] {
                let junta = caminho.contains("?") ? "&" : "?"
                let resposta = try await client.json(.get, caminho + junta + "unidade=\(nenhuma)", token: cenario.admin)
                #expect(resposta.status == .notFound, "\(caminho): \(String(buffer: resposta.body))")
                #expect(String(buffer: resposta.body).contains("a unidade \(nenhuma) não existe"), "\(caminho)")
                #expect(try await client.json(.get, caminho + junta + "unidade=\(cenario.unidade)", token: cenario.admin).status == .ok, "\(caminho)")
                #expect(try await client.json(.get, caminho + junta + "unidade=x", token: cenario.admin).status == .badRequest, "\(caminho)")
            }
        }
    }
}
