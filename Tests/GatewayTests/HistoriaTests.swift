import Domain
import EventStore
import Foundation
import Gateway
import Hummingbird
import HummingbirdTesting
import Services
import Testing

/// The whole story of issue 6 through the router (all-in-one): book → pay by webhook →
/// confirmation e-mail with .ics → check in with the code → invoice and ledger → analytics;
/// a no-show that frees the rest of the slot; a cancellation refunded with a credit note.
@Suite("The business end to end (all-in-one, router)")
struct HistoriaTests {
    @Test("a cancelled booking's code does not check in: the cancellation revokes it in its own append, without waiting for the bus")
    func cancelled_booking_cannot_check_in() async throws {
        let clock = ManualClock(segundaDeManha)
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test(reacting: []) { client in
            let cenario = try await Cenario.make(harness, client)
            // checkin reacts to the confirmation (by hand: no reactors run here) and issues the code.
            let (id, codigo) = try await confirmadaComCodigo(harness, client, cenario)
            // Cancelled (no reactors run here: the revocation is the cancellation's own).
            #expect(try await client.json(.post, "/api/reservas/\(id)/cancelamento", "{}", token: cenario.membro).status == .ok)
            clock.set(try Date("2026-11-23T08:55:00-03:00", strategy: .iso8601))
            // With the booking named, the answer comes from the stream, not the codes read model.
            let tentativa = try await client.json(.post, "/api/checkin", #"{"codigo":"\#(codigo)","reservaId":"\#(id)"}"#, token: cenario.membro)
            #expect(tentativa.status == .conflict && tentativa.erro == "reserva_nao_confirmada", "\(String(buffer: tentativa.body))")
            #expect(
                try await harness.store.readStream(StreamName("checkin-\(id)"), from: 1, limit: 10).map(\.type) == [
                    "CheckinLiberado", "CheckinRevogado",
                ])
        }
    }

    @Test("pay, check in, invoice, ledger, analytics; a no-show; a refunded cancellation")
    func whole_story() async throws {
        let clock = ManualClock(segundaDeManha)  // Monday 08:00 in São Paulo
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let membro = cenario.membro, admin = cenario.admin

            func reservarEPagar(_ espaco: String, _ inicio: String, _ fim: String) async throws -> String {
                let booked = try await client.json(.post, "/api/reservas", pedido(espaco, inicio, fim), token: membro)
                #expect(booked.status == .created, "\(String(buffer: booked.body))")
                let id = try #require(booked.object["id"] as? String)
                let cobranca = try #require(try await client.pagamento(id, token: membro, status: "pendente")["cobrancaId"] as? String)
                #expect(try await client.json(.post, "/api/sandbox/cobrancas/\(cobranca)/pagamento").status == .ok)
                _ = try await client.reserva(id, token: membro, status: "confirmada")
                return id
            }

            // 1. Book 09:00–11:00 today, pay, get the code; check in at 08:50 with it, check out at 10:30.
            let a = try await reservarEPagar(cenario.sala, "2026-11-23T09:00:00-03:00", "2026-11-23T11:00:00-03:00")
            let situacao = try await eventually("check-in code") {
                let r = try await client.json(.get, "/api/reservas/\(a)/checkin", token: membro)
                return r.status == .ok ? r.object : nil
            }
            let codigo = try #require(situacao["codigo"] as? String)
            #expect(codigo.count == 6)
            #expect(situacao["qr"] as? String == "coworkflow:checkin:\(a):\(codigo)")
            // The code is found through the codes read model, which follows the reaction that issued it.
            let cedo = try await eventually("the code in the codes read model") {
                let r = try await client.json(.post, "/api/checkin", #"{"codigo":"\#(codigo)"}"#, token: membro)
                return r.status == .notFound ? nil : r
            }
            #expect(cedo.status == .conflict && cedo.erro == "checkin_cedo_demais", "\(String(buffer: cedo.body))")
            clock.set(try Date("2026-11-23T08:50:00-03:00", strategy: .iso8601))
            #expect(try await client.json(.post, "/api/checkin", #"{"codigo":"ZZZZZ9"}"#, token: membro).status == .notFound)
            let enorme = try await client.json(.post, "/api/checkin", #"{"codigo":"\#(String(repeating: "Z", count: 5_000))"}"#, token: membro)
            #expect(enorme.status == .unprocessableContent && (enorme.object["detalhes"] as? [String: Any])?["campo"] as? String == "codigo")
            let vazio = try await client.json(.post, "/api/checkin", #"{"codigo":"  "}"#, token: membro)
            #expect(vazio.status == .unprocessableContent && (vazio.object["detalhes"] as? [String: Any])?["campo"] as? String == "codigo")
            let feito = try await client.json(.post, "/api/checkin", #"{"codigo":"\#(codigo.lowercased())"}"#, token: membro)
            #expect(feito.status == .ok && feito.object["status"] as? String == "presente", "\(String(buffer: feito.body))")
            // Present: the member can no longer cancel it (and be refunded for time used).
            let depois = try await client.json(.post, "/api/reservas/\(a)/cancelamento", "{}", token: membro)
            #expect(depois.status == .conflict && depois.erro == "checkin_realizado", "\(String(buffer: depois.body))")
            clock.set(try Date("2026-11-23T10:30:00-03:00", strategy: .iso8601))
            #expect(try await client.json(.post, "/api/reservas/\(a)/checkout", token: membro).object["status"] as? String == "encerrado")

            // 2. Book 14:00–16:00, pay, never arrive: at 14:31 the no-show frees the slot.
            let b = try await reservarEPagar(cenario.sala, "2026-11-23T14:00:00-03:00", "2026-11-23T16:00:00-03:00")
            _ = try await eventually("check-in issued for B") {
                try await client.json(.get, "/api/reservas/\(b)/checkin", token: membro).status == .ok ? true : nil
            }
            #expect(
                try await client.json(
                    .post, "/api/reservas", pedido(cenario.sala, "2026-11-23T15:00:00-03:00", "2026-11-23T16:00:00-03:00"), token: membro
                ).status == .conflict)
            clock.set(try Date("2026-11-23T14:31:00-03:00", strategy: .iso8601))
            #expect(try await harness.backend.negocio.checkin.executarNoShowsVencidos() == 1)
            _ = try await eventually("the rest of B's slot released") {
                let r = try await client.json(
                    .post, "/api/reservas", pedido(cenario.sala, "2026-11-23T15:00:00-03:00", "2026-11-23T16:00:00-03:00"), token: membro)
                return r.status == .created ? true : nil
            }
            try await eventually("no-show e-mail") { try harness.emails().contains { $0.subject == "Não registramos sua entrada" } ? true : nil }
            // B says so, to its member and on the operators' day list (where the new booking of
            // the released hour now shows beside it).
            let semComparecer = try await client.json(.get, "/api/reservas/\(b)", token: membro).object
            #expect(semComparecer["naoCompareceuEm"] as? String != nil && semComparecer["status"] as? String == "confirmada", "\(semComparecer)")
            let doDia = try await client.json(.get, "/api/admin/reservas?unidade=\(cenario.unidade)&data=2026-11-23", token: cenario.admin).object
            let itens = try #require(doDia["itens"] as? [[String: Any]], "\(doDia)")
            #expect(itens.first { $0["id"] as? String == b }?["naoCompareceuEm"] as? String != nil)

            // 3. A desk on Wednesday, paid, cancelled with more than 24 h notice: refunded in full, credit note issued.
            let c = try await reservarEPagar(cenario.estacoes, "2026-11-25T10:00:00-03:00", "2026-11-25T12:00:00-03:00")
            let cancelada = try await client.json(.post, "/api/reservas/\(c)/cancelamento", #"{"motivo":"viagem"}"#, token: membro)
            #expect((cancelada.object["cancelamento"] as? [String: Any])?["reembolso"] as? Int == 10_000)

            // Finance: three invoices numbered 1, 2, 3 in the unit; one credit note; the ledger balances.
            let faturas = try await eventually("three invoices and a credit note") {
                let r = try await client.json(.get, "/api/admin/financeiro/faturas?unidade=\(cenario.unidade)", token: admin).object
                let itens = r["itens"] as? [[String: Any]] ?? []
                return itens.count == 3 && itens.contains(where: { ($0["reembolsado"] as? Int ?? 0) > 0 }) ? itens : nil
            }
            #expect(faturas.compactMap { $0["numero"] as? Int }.sorted() == [1, 2, 3])
            #expect(faturas.allSatisfy { $0["iss"] as? Int == 500 })  // 5 % of R$ 100,00
            let razao = try await client.json(.get, "/api/admin/financeiro/razao?unidade=\(cenario.unidade)", token: admin).object
            #expect(razao["equilibrado"] as? Bool == true)
            #expect(razao["totalDebitos"] as? Int == razao["totalCreditos"] as? Int)
            let receita = try await client.json(
                .get, "/api/financeiro/relatorios/receita?de=2026-11-23&ate=2026-11-25&unidade=\(cenario.unidade)", token: admin)
            #expect(receita.status == .ok, "\(String(buffer: receita.body))")
            let totais = try #require(receita.object["totais"] as? [String: Any])
            #expect(totais["bruto"] as? Int == 30_000 && totais["reembolsos"] as? Int == 10_000 && totais["liquido"] as? Int == 20_000)
            #expect(
                try await client.json(.get, "/api/financeiro/relatorios/receita?de=2026-11-23&ate=2026-11-25", token: membro).status == .forbidden)
            #expect(
                try await client.json(.get, "/api/financeiro/relatorios/receita?de=2026-11-25&ate=2026-11-23", token: admin).status == .badRequest)
            let csv = try await client.json(.get, "/api/admin/financeiro/faturas.csv?de=2026-11-01&ate=2026-11-30", token: admin)
            #expect(csv.status == .ok && String(buffer: csv.body).split(separator: "\r\n").count >= 5)  // header, 3 invoices, 1 credit note

            // Analytics: the room was booked 2 h 31 min of its 15 open hours today: A, and B until
            // its no-show at 14:31 freed the rest (the new booking of 15:00 is not paid); one
            // no-show, one check-in.
            let ocupacao = try await eventually("occupancy") {
                let r = try await client.json(.get, "/api/analytics/ocupacao?espaco=\(cenario.sala)&de=2026-11-23&ate=2026-11-23", token: admin)
                    .object
                let espacos = r["espacos"] as? [[String: Any]] ?? []
                return espacos.first?["horasReservadas"] as? Double == 2.5167 ? espacos : nil
            }
            #expect((ocupacao.first?["ocupacao"] as? Double ?? 0) > 0)
            let indicadores = try await client.json(.get, "/api/analytics/indicadores", token: admin).object
            #expect(indicadores["noShows"] as? Int == 1 && indicadores["checkins"] as? Int == 1)
        }
    }
}
