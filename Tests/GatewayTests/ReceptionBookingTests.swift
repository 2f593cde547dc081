import Domain
import Foundation
import HTTPTypes
import HummingbirdTesting
import Services
import Testing

/// The reception books for a member: the quote is the member's (their credits and plan), the
/// booking is theirs, and a booking paid at the desk (`manual`) is confirmed at once with no
/// charge at the provider, invoiced as `manual`, and refunded at the desk when cancelled.
@Suite("Reception books for a member")
struct ReceptionBookingTests {
    /// Ana, the scenario's member (her id), and Caio, a member of no company (his token).
    func anaECaio(_ cenario: Cenario, _ client: any TestClientProtocol) async throws -> (ana: String, caio: String) {
        let ana = try #require(try await client.json(.get, "/api/auth/me", token: cenario.membro).object["id"] as? String)
        #expect(try await client.register("caio@example.com", nome: "Caio").status == .created)
        return (ana, try await client.token("caio@example.com"))
    }

    @Test("an operator quotes and books for a member, paid at the desk; only an operator may say so; the refund is handed back at once")
    func operator_books_for_a_member_paid_at_the_desk() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))  // Monday 23/11 08:00 in São Paulo
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let (ana, caio) = try await anaECaio(cenario, client)
            let (inicio, fim) = ("2026-11-24T10:00:00-03:00", "2026-11-24T12:00:00-03:00")
            func corpo(para: String? = nil, metodo: String? = nil, total: Int? = nil) -> String {
                #"{"espacoId":"\#(cenario.sala)","inicio":"\#(inicio)","fim":"\#(fim)""#
                    + (para.map { #","paraUsuarioId":"\#($0)""# } ?? "") + (metodo.map { #","pagamento":{"metodo":"\#($0)"}"# } ?? "")
                    + (total.map { #","totalEsperado":\#($0)"# } ?? "") + "}"
            }
            func reservasEscritas() async throws -> Int {
                try await harness.allEvents().filter { ["reserva", "pagamento"].contains($0.stream.category) }.count
            }

            // Ana has an hour of credits: the operator's quote for her spends it, the operator's own does not.
            let ajuste = try await client.json(
                .post, "/api/admin/usuarios/\(ana)/creditos/ajustes", #"{"medida":"minutos","quantidade":60,"motivo":"cortesia"}"#,
                token: cenario.admin)
            #expect(ajuste.status == .created, "\(String(buffer: ajuste.body))")
            let propria = try await client.json(.post, "/api/precos/cotacao", corpo(), token: cenario.admin)
            #expect(propria.status == .ok && propria.object["total"] as? Int == 10_000, "\(String(buffer: propria.body))")
            let paraAna = try await client.json(.post, "/api/precos/cotacao", corpo(para: ana), token: cenario.admin)
            #expect(paraAna.status == .ok && paraAna.object["total"] as? Int == 5_000, "\(String(buffer: paraAna.body))")
            #expect((paraAna.object["creditos"] as? [String: Any])?["minutos"] as? Int == 60)
            // Someone else's quote: not signed in 401, a member for another 403, nobody 422.
            #expect(try await client.json(.post, "/api/precos/cotacao", corpo(para: ana)).status == .unauthorized)
            #expect(try await client.json(.post, "/api/precos/cotacao", corpo(para: ana), token: caio).status == .forbidden)
            // Naming oneself is one's own quote.
            let caioId = try #require(try await client.json(.get, "/api/auth/me", token: caio).object["id"] as? String)
            let propriaDoCaio = try await client.json(.post, "/api/precos/cotacao", corpo(para: caioId), token: caio)
            #expect(propriaDoCaio.status == .ok && propriaDoCaio.object["total"] as? Int == 10_000, "\(String(buffer: propriaDoCaio.body))")
            let ninguem = try await client.json(.post, "/api/precos/cotacao", corpo(para: UUID().uuidString), token: cenario.admin)
            #expect(ninguem.status == .unprocessableContent)
            #expect((ninguem.object["detalhes"] as? [String: Any])?["campo"] as? String == "paraUsuarioId")

            // Only an operator says a booking was paid at the desk: a member's is a 403 and writes nothing.
            let antes = try await reservasEscritas()
            let pelaAna = try await client.json(.post, "/api/reservas", corpo(metodo: "manual"), token: cenario.membro)
            #expect(pelaAna.status == .forbidden && pelaAna.object["erro"] as? String == "proibido", "\(String(buffer: pelaAna.body))")
            #expect(try await reservasEscritas() == antes)

            // The operator books it for Ana, paid at the desk: hers, confirmed with no charge at the provider.
            let feita = try await client.json(.post, "/api/reservas", corpo(para: ana, metodo: "manual", total: 5_000), token: cenario.admin)
            #expect(feita.status == .created, "\(String(buffer: feita.body))")
            #expect(feita.object["usuarioId"] as? String == ana && feita.object["total"] as? Int == 5_000)
            let id = try #require(feita.object["id"] as? String)
            _ = try await client.reserva(id, token: cenario.membro, status: "confirmada")
            let pagamento = try await client.json(.get, "/api/reservas/\(id)/pagamento", token: cenario.membro).object
            #expect(pagamento["status"] as? String == "confirmado" && pagamento["metodo"] as? String == "manual", "\(pagamento)")
            #expect(pagamento["cobrancaId"] == nil && pagamento["pix"] == nil)
            #expect(try await client.json(.get, "/api/creditos", token: cenario.membro).object["minutos"] as? Int == 0)
            // Ana is told what was received and how; her invoice says `manual`.
            let recebido = try await eventually("the payment e-mail") {
                try harness.emails().first { $0.subject?.hasPrefix("Pagamento recebido") == true }
            }
            #expect(recebido.text?.contains("R$ 50,00 por pagamento na recepção") == true, "\(recebido.text ?? "")")
            let fatura = try await eventually("Ana's invoice") {
                let itens = try await client.json(.get, "/api/faturas", token: cenario.membro).object["itens"] as? [[String: Any]] ?? []
                return itens.first { $0["reservaId"] as? String == id }
            }
            #expect(fatura["metodo"] as? String == "manual" && fatura["valor"] as? Int == 5_000, "\(fatura)")

            // Paid at the desk, cancelled at the desk: Ana's own cancellation is a 409 and changes nothing.
            let antesDoCancelamento = try await reservasEscritas()
            let pelaMembro = try await client.json(.post, "/api/reservas/\(id)/cancelamento", #"{"motivo":"mudou de ideia"}"#, token: cenario.membro)
            #expect(pelaMembro.status == .conflict && pelaMembro.object["erro"] as? String == "cancelar_na_recepcao", "\(pelaMembro.object)")
            #expect(try await reservasEscritas() == antesDoCancelamento)
            // The operator cancels it at the desk: refunded whole, handed back there, so concluded at once.
            let cancelada = try await client.json(.post, "/api/reservas/\(id)/cancelamento", #"{"motivo":"mudou de ideia"}"#, token: cenario.admin)
            #expect(cancelada.status == .ok, "\(String(buffer: cancelada.body))")
            let devolvido = try await eventually("the refund") {
                let p = try await client.json(.get, "/api/reservas/\(id)/pagamento", token: cenario.membro).object
                return p["reembolsado"] as? Int == 5_000 ? p : nil
            }
            let reembolsos = try #require(devolvido["reembolsos"] as? [[String: Any]])
            #expect(reembolsos.count == 1 && reembolsos.first?["concluido"] as? Bool == true, "\(devolvido)")
            let nota = try await eventually("the credit note") {
                let itens = try await client.json(.get, "/api/faturas", token: cenario.membro).object["itens"] as? [[String: Any]] ?? []
                let notas = itens.first { $0["reservaId"] as? String == id }?["notasDeCredito"] as? [[String: Any]] ?? []
                return notas.first
            }
            #expect(nota["valor"] as? Int == 5_000, "\(nota)")
            #expect(
                try await harness.allEvents().contains {
                    $0.type == Pagamento.Catalogo.reembolsoConcluido.type && $0.stream.description == "pagamento-\(id)"
                })

        }
    }

    @Test("an operator books a weekly series for a member, paid at the desk: the series and its bookings are the member's; nobody else may")
    func operator_books_a_series_for_a_member() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let (ana, caio) = try await anaECaio(cenario, client)
            let (manual, cartao) = (#"{"metodo":"manual"}"#, #"{"metodo":"cartao","cartaoToken":"tok_visa"}"#)
            func serie(para: String?, pagamento: String) -> String {
                #"{"espacoId":"\#(cenario.sala)","inicio":"2026-11-25T10:00:00-03:00","fim":"2026-11-25T11:00:00-03:00","frequencia":"semanal","ocorrencias":2"#
                    + #","pagamento":\#(pagamento)"# + (para.map { #","paraUsuarioId":"\#($0)""# } ?? "") + "}"
            }
            func escritos() async throws -> Int {
                try await harness.allEvents().filter { ["serie", "reserva"].contains($0.stream.category) }.count
            }
            // Paid at the desk by a member, or for someone else by one: 403, nothing written.
            let antes = try await escritos()
            let pelaAna = try await client.json(.post, "/api/reservas/series", serie(para: nil, pagamento: manual), token: cenario.membro)
            #expect(pelaAna.status == .forbidden)
            let deCaio = try await client.json(.post, "/api/reservas/series", serie(para: ana, pagamento: cartao), token: caio)
            #expect(deCaio.status == .forbidden, "\(String(buffer: deCaio.body))")
            #expect(try await escritos() == antes)

            // The operator's: two Wednesdays for Ana, each paid at the desk and confirmed at once.
            let criada = try await client.json(.post, "/api/reservas/series", serie(para: ana, pagamento: manual), token: cenario.admin)
            #expect(criada.status == .created, "\(String(buffer: criada.body))")
            #expect(criada.object["usuarioId"] as? String == ana && criada.object["reservadas"] as? Int == 2)
            let id = try #require(criada.object["id"] as? String)
            let reservas = (criada.object["ocorrencias"] as? [[String: Any]] ?? []).compactMap { $0["reservaId"] as? String }
            #expect(reservas.count == 2)
            for reserva in reservas {
                let confirmada = try await client.reserva(reserva, token: cenario.membro, status: "confirmada")
                #expect(confirmada["usuarioId"] as? String == ana)
                let pagamento = try await client.json(.get, "/api/reservas/\(reserva)/pagamento", token: cenario.membro).object
                #expect(pagamento["metodo"] as? String == "manual" && pagamento["cobrancaId"] == nil, "\(pagamento)")
            }
            // Ana reads it and is told of it; Caio does not see it.
            #expect(try await client.json(.get, "/api/reservas/series/\(id)", token: cenario.membro).status == .ok)
            #expect(try await client.json(.get, "/api/reservas/series/\(id)", token: caio).status == .notFound)
            let aviso = try await eventually("the series' e-mail") {
                try harness.emails().first { $0.subject?.hasPrefix("Série reservada") == true }
            }
            #expect(aviso.headers.contains { $0.name.lowercased() == "to" && $0.value.contains("ana@example.com") }, "\(aviso.headers)")
            #expect(aviso.text?.contains("registrada como paga na recepção") == true, "\(aviso.text ?? "")")
            #expect(aviso.text?.contains("cobrada no cartão") == false)
        }
    }
}
