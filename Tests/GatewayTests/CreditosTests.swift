import Domain
import Foundation
import Hummingbird
import HummingbirdTesting
import Projections
import Testing

/// A member's credits through the API: an operator adjusts them, a quote and a booking spend
/// them before money, the booking's end gives them back under its terms, a timer expires them.
@Suite("Credits: the wallet, its adjustments, bookings that spend it")
struct CreditosTests {
    func membroId(_ client: any TestClientProtocol, _ token: String) async throws -> String {
        try #require(try await client.json(.get, "/api/auth/me", token: token).object["id"] as? String)
    }

    @Test("an operator adds and takes credits with a reason; bad input is a 4xx naming the field and writes nothing; members cannot")
    func adjustments() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let membro = try await membroId(client, cenario.membro)
            let rota = "/api/admin/usuarios/\(membro)/creditos/ajustes"
            let antes = try await harness.allEvents().count
            let recusados: [(String, String)] = [
                (#"{"medida":"minutos","quantidade":0,"motivo":"x"}"#, "quantidade"),
                (#"{"medida":"minutos","quantidade":600001,"motivo":"x"}"#, "quantidade"),
                (#"{"medida":"horas","quantidade":60,"motivo":"x"}"#, "medida"),
                (#"{"medida":"minutos","quantidade":60,"motivo":"  "}"#, "motivo"),
                (#"{"medida":"minutos","quantidade":60,"motivo":"x","tipos":["sala_de_jogos"]}"#, "tipos"),
                (#"{"medida":"minutos","quantidade":60,"motivo":"x","unidadeId":"\#(UUID())"}"#, "unidadeId"),
                (#"{"medida":"minutos","quantidade":60,"motivo":"x","validoAte":"2026-11-01T00:00:00Z"}"#, "validoAte"),
                (#"{"medida":"minutos","quantidade":-30,"motivo":"x"}"#, "quantidade"),
                // A withdrawal has no lot of its own: what only a new lot has is refused, not dropped.
                (#"{"medida":"minutos","quantidade":-1,"motivo":"x","unidadeId":""}"#, "unidadeId"),
                (#"{"medida":"minutos","quantidade":-1,"motivo":"x","tipos":["sala_reuniao"]}"#, "tipos"),
                (#"{"medida":"centavos","quantidade":-1,"motivo":"x","validoAte":"2027-01-01T00:00:00Z"}"#, "validoAte"),
                (#"{"medida":"minutos","quantidade":-1,"motivo":"x","descricao":"Cortesia"}"#, "descricao"),
            ]
            for (corpo, campo) in recusados {
                let resposta = try await client.json(.post, rota, corpo, token: cenario.admin)
                let texto = String(buffer: resposta.body)
                #expect(resposta.status == .unprocessableContent || resposta.status == .badRequest, "\(corpo): \(texto)")
                #expect(texto.contains(campo), "\(corpo): \(texto)")
            }
            #expect(
                try await client.json(.post, rota, #"{"medida":"minutos","quantidade":60,"motivo":"x"}"#, token: cenario.membro).status == .forbidden)
            #expect(
                try await client.json(
                    .post, "/api/admin/usuarios/\(UUID())/creditos/ajustes", #"{"medida":"minutos","quantidade":60,"motivo":"x"}"#,
                    token: cenario.admin
                ).status == .notFound)
            #expect(try await harness.allEvents().count == antes)

            let somado = try await client.json(
                .post, rota, #"{"medida":"minutos","quantidade":120,"motivo":"boas-vindas","tipos":["sala_reuniao"],"descricao":"2 h de reunião"}"#,
                token: cenario.admin)
            #expect(somado.status == .created, "\(String(buffer: somado.body))")
            #expect(somado.object["minutos"] as? Int == 120)
            let retirado = try await client.json(
                .post, rota, #"{"medida":"minutos","quantidade":-30,"motivo":"lançado a mais","descricao":" "}"#, token: cenario.admin)
            #expect(retirado.object["minutos"] as? Int == 90, "\(String(buffer: retirado.body))")
            let carteira = try await client.json(.get, "/api/creditos", token: cenario.membro)
            #expect(carteira.object["minutos"] as? Int == 90)
            #expect(try await client.json(.get, "/api/admin/usuarios/\(membro)/creditos", token: cenario.admin).object["minutos"] as? Int == 90)
            // The statement, the latest first, with the reasons.
            let extrato = try await client.json(.get, "/api/creditos/extrato", token: cenario.membro)
            let itens = try #require(extrato.object["itens"] as? [[String: Any]])
            #expect(itens.map { $0["quantidade"] as? Int } == [-30, 120])
            #expect(itens.map { $0["motivo"] as? String } == ["lançado a mais", "boas-vindas"])
            // The operator's adjustments are in the audit trail, as theirs, with their label.
            let trilha = try await client.json(.get, "/api/admin/auditoria?tipo=\(Carteira.Catalogo.ajustados.type)", token: cenario.admin)
            let registros = try #require(trilha.object["itens"] as? [[String: Any]])
            let admin = try await membroId(client, cenario.admin)
            #expect(registros.count == 2 && registros.allSatisfy { $0["ator"] as? String == admin }, "\(String(buffer: trilha.body))")
            #expect(registros.first?["rotulo"] as? String == Carteira.Catalogo.ajustados.label)
            // Another member sees only their own (empty) wallet.
            #expect(try await client.register("bia@example.com").status == .created)
            let bia = try await client.token("bia@example.com")
            #expect(try await client.json(.get, "/api/creditos", token: bia).object["minutos"] as? Int == 0)
            #expect(try await client.json(.get, "/api/admin/usuarios/\(membro)/creditos", token: bia).status == .forbidden)
        }
    }

    @Test("a booking spends hours, then money credits, in its append; the rest is charged; its end gives them back under its cancellation terms")
    func bookings_spend_and_give_back() async throws {
        let clock = ManualClock(segundaDeManha)
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let membro = try await membroId(client, cenario.membro)
            let rota = "/api/admin/usuarios/\(membro)/creditos/ajustes"
            #expect(
                try await client.json(
                    .post, rota,
                    #"{"medida":"minutos","quantidade":180,"motivo":"plano","tipos":["sala_reuniao"],"validoAte":"2026-12-31T00:00:00Z"}"#,
                    token: cenario.admin
                ).status == .created)
            #expect(
                try await client.json(.post, rota, #"{"medida":"centavos","quantidade":3000,"motivo":"cortesia"}"#, token: cenario.admin).status
                    == .created)
            // Hours serve the meeting room only: the desks quote at full price.
            let mesa = try await client.json(
                .post, "/api/precos/cotacao",
                #"{"espacoId":"\#(cenario.estacoes)","inicio":"2026-11-25T10:00:00-03:00","fim":"2026-11-25T11:00:00-03:00"}"#,
                token: cenario.membro)
            #expect((mesa.object["linhas"] as? [[String: Any]])?.contains { $0["codigo"] as? String == "creditos:horas" } == false)
            // Two hours of the room (R$ 100): the hours pay all of it.
            let cotacao = try await client.json(
                .post, "/api/precos/cotacao",
                #"{"espacoId":"\#(cenario.sala)","inicio":"2026-11-25T10:00:00-03:00","fim":"2026-11-25T12:00:00-03:00"}"#,
                token: cenario.membro)
            #expect(cotacao.object["total"] as? Int == 0, "\(String(buffer: cotacao.body))")
            #expect((cotacao.object["creditos"] as? [String: Any])?["minutos"] as? Int == 120)
            // Without a token, no credits.
            let anonima = try await client.json(
                .post, "/api/precos/cotacao",
                #"{"espacoId":"\#(cenario.sala)","inicio":"2026-11-25T10:00:00-03:00","fim":"2026-11-25T12:00:00-03:00"}"#)
            #expect(anonima.object["total"] as? Int == 10_000)

            // Sent five times at once with one Idempotency-Key (a client retrying on a slow
            // answer): one booking spends the hours, and every request answers it, none a 500
            // for a wallet it spent already, nor a 409 for a price its own booking changed.
            let token = cenario.membro
            let vezes = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
                for _ in 0..<5 {
                    group.addTask {
                        let answer = try await client.json(
                            .post, "/api/reservas",
                            #"{"espacoId":"\#(cenario.sala)","inicio":"2026-11-25T10:00:00-03:00","fim":"2026-11-25T12:00:00-03:00","totalEsperado":0}"#,
                            token: token, headers: [.init("Idempotency-Key")!: "primeira"])
                        return (Int(answer.status.code), answer.object["id"] as? String)
                    }
                }
                return try await group.reduce(into: [(Int, String?)]()) { $0.append($1) }
            }
            #expect(vezes.allSatisfy { $0.0 == 201 } && Set(vezes.compactMap(\.1)).count == 1, "\(vezes)")
            let primeiraId = try #require(vezes.first?.1)
            // Nothing to pay: confirmed at once.
            _ = try await client.reserva(primeiraId, token: cenario.membro, status: "confirmada")
            // Two more hours: one hour of credits left pays half (R$ 50), the money credits R$ 30, R$ 20 is charged.
            let segunda = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-25T14:00:00-03:00", "2026-11-25T16:00:00-03:00"), token: cenario.membro)
            #expect(segunda.status == .created && segunda.object["total"] as? Int == 2_000, "\(String(buffer: segunda.body))")
            let segundaId = try #require(segunda.object["id"] as? String)
            let carteira = try await client.json(.get, "/api/creditos", token: cenario.membro)
            #expect(carteira.object["minutos"] as? Int == 0 && carteira.object["centavos"] as? Int == 0, "\(String(buffer: carteira.body))")
            // The wallet's events are in the bookings' appends: one transaction each.
            let eventos = try await harness.allEvents()
            for id in [primeiraId, segundaId] {
                let solicitada = try #require(eventos.first { $0.type == Reserva.Catalogo.solicitada.type && $0.stream.rawValue == "reserva-\(id)" })
                let consumo = try #require(
                    eventos.first { $0.type == Carteira.Catalogo.consumidos.type && $0.metadata.correlationId?.uuidString.lowercased() == id })
                #expect(consumo.position.transaction == solicitada.position.transaction)
            }

            // The unpaid one cancelled: everything back.
            #expect(try await client.json(.post, "/api/reservas/\(segundaId)/cancelamento", "{}", token: cenario.membro).status == .ok)
            var depois = try await client.json(.get, "/api/creditos", token: cenario.membro)
            #expect(depois.object["minutos"] as? Int == 60 && depois.object["centavos"] as? Int == 3_000, "\(String(buffer: depois.body))")
            // The confirmed one cancelled late (22 h before, the policy is 24 h free then 50 %):
            // half its hours are kept.
            clock.set(try Date("2026-11-24T12:00:00-03:00", strategy: .iso8601))
            #expect(try await client.json(.post, "/api/reservas/\(primeiraId)/cancelamento", "{}", token: cenario.membro).status == .ok)
            depois = try await client.json(.get, "/api/creditos", token: cenario.membro)
            #expect(depois.object["minutos"] as? Int == 120, "\(String(buffer: depois.body))")
            let extrato = try #require(
                try await client.json(.get, "/api/creditos/extrato", token: cenario.membro).object["itens"] as? [[String: Any]])
            #expect(extrato.first?["tipo"] as? String == "restituidos" || extrato.first?["tipo"] as? String == "retidos")
            #expect(extrato.contains { $0["tipo"] as? String == "retidos" && $0["retido"] as? Int == 60 })
        }
    }

    @Test(
        "a no-show keeps the credits its booking spent, unless the unit's policy when the member booked gives them back; a share out of 0–100 % is a 422 naming the policy"
    )
    func no_show_terms() async throws {
        let clock = ManualClock(segundaDeManha)
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let membro = try await membroId(client, cenario.membro)
            #expect(
                try await client.json(
                    .post, "/api/admin/usuarios/\(membro)/creditos/ajustes",
                    #"{"medida":"minutos","quantidade":180,"motivo":"plano","tipos":["sala_reuniao"]}"#, token: cenario.admin
                ).status == .created)
            let unidade = "/api/admin/unidades/\(cenario.unidade)"
            func politica(_ devolucao: Int) -> String {
                #"{"politicaDeCancelamento":{"horasSemMulta":24,"multaBP":5000,"devolucaoNoShowBP":\#(devolucao)}}"#
            }
            let antes = try await harness.allEvents().count
            let ruim = try await client.json(.patch, unidade, politica(10_001), token: cenario.admin)
            #expect(
                ruim.status == .unprocessableContent && String(buffer: ruim.body).contains("politicaDeCancelamento"), "\(String(buffer: ruim.body))")
            #expect(try await harness.allEvents().count == antes)
            func reservar(_ inicio: String, _ fim: String) async throws -> String {
                let feita = try await client.json(
                    .post, "/api/reservas", #"{"espacoId":"\#(cenario.sala)","inicio":"\#(inicio)","fim":"\#(fim)","totalEsperado":0}"#,
                    token: cenario.membro)
                #expect(feita.status == .created, "\(String(buffer: feita.body))")
                let id = try #require(feita.object["id"] as? String)
                _ = try await eventually("check-in issued for \(id)") {
                    try await client.json(.get, "/api/reservas/\(id)/checkin", token: cenario.membro).status == .ok ? true : nil
                }
                return id
            }
            func minutos() async throws -> Int? { try await client.json(.get, "/api/creditos", token: cenario.membro).object["minutos"] as? Int }
            // A: booked under the default terms (a no-show keeps them). B: booked while the unit
            // gave them all back; the unit went back to keeping them afterwards, which B does not see.
            let a = try await reservar("2026-11-23T10:00:00-03:00", "2026-11-23T11:00:00-03:00")
            #expect(try await client.json(.patch, unidade, politica(10_000), token: cenario.admin).status == .ok)
            let b = try await reservar("2026-11-23T14:00:00-03:00", "2026-11-23T15:00:00-03:00")
            #expect(try await client.json(.patch, unidade, politica(0), token: cenario.admin).status == .ok)
            #expect(try await minutos() == 60)

            clock.set(try Date("2026-11-23T10:31:00-03:00", strategy: .iso8601))
            #expect(try await harness.backend.negocio.checkin.executarNoShowsVencidos() == 1)
            _ = try await eventually("A's no-show settled in the wallet") {
                let extrato = try await client.json(.get, "/api/creditos/extrato", token: cenario.membro).object["itens"] as? [[String: Any]]
                return extrato?.first { $0["tipo"] as? String == "retidos" && $0["reservaId"] as? String == a }
            }
            #expect(try await minutos() == 60)
            let extrato = try #require(
                try await client.json(.get, "/api/creditos/extrato", token: cenario.membro).object["itens"] as? [[String: Any]])
            let retido = try #require(extrato.first { $0["tipo"] as? String == "retidos" })
            #expect(retido["retido"] as? Int == 60 && (retido["descricao"] as? String)?.contains("não comparecimento") == true, "\(retido)")

            clock.set(try Date("2026-11-23T14:31:00-03:00", strategy: .iso8601))
            #expect(try await harness.backend.negocio.checkin.executarNoShowsVencidos() == 1)
            _ = try await eventually("B's hour given back") { try await minutos() == 120 ? true : nil }
            // Settled once: an operator's cancellation of the no-show afterwards gives nothing more.
            let cancelada = try await client.json(.post, "/api/reservas/\(a)/cancelamento", #"{"motivo":"cortesia"}"#, token: cenario.admin)
            #expect(cancelada.status == .ok || cancelada.status == .conflict, "\(String(buffer: cancelada.body))")
            #expect(try await minutos() == 120)
            let devolvido = try #require(
                try await client.json(.get, "/api/creditos/extrato", token: cenario.membro).object["itens"] as? [[String: Any]])
            #expect(
                devolvido.contains { $0["tipo"] as? String == "restituidos" && $0["reservaId"] as? String == b && $0["quantidade"] as? Int == 60 },
                "\(devolvido)")
        }
    }

    @Test("a lot whose time is up expires by the timer; the balance and the statement say so")
    func expiry() async throws {
        let clock = ManualClock(segundaDeManha)
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let membro = try await membroId(client, cenario.membro)
            let rota = "/api/admin/usuarios/\(membro)/creditos/ajustes"
            #expect(
                try await client.json(
                    .post, rota, #"{"medida":"minutos","quantidade":60,"motivo":"teste","validoAte":"2026-11-23T12:00:00-03:00"}"#,
                    token: cenario.admin
                )
                .status == .created)
            #expect(
                try await client.json(.post, rota, #"{"medida":"minutos","quantidade":30,"motivo":"teste"}"#, token: cenario.admin).status == .created
            )
            let assinaturas = harness.backend.negocio.assinaturas
            #expect(try await assinaturas.expirarCreditosVencidos() == 0)
            clock.advance(by: 5 * 3_600)
            // Past its validity, a lot no longer pays for a booking, even before the timer runs.
            let cotacao = try await client.json(
                .post, "/api/precos/cotacao",
                #"{"espacoId":"\#(cenario.sala)","inicio":"2026-11-25T10:00:00-03:00","fim":"2026-11-25T12:00:00-03:00"}"#,
                token: cenario.membro)
            #expect((cotacao.object["creditos"] as? [String: Any])?["minutos"] as? Int == 30, "\(String(buffer: cotacao.body))")
            #expect(try await assinaturas.expirarCreditosVencidos() == 1)
            await harness.backend.settle(upTo: nil, types: nil)
            let carteira = try await client.json(.get, "/api/creditos", token: cenario.membro)
            #expect(carteira.object["minutos"] as? Int == 30, "\(String(buffer: carteira.body))")
            let extrato = try #require(
                try await client.json(.get, "/api/creditos/extrato", token: cenario.membro).object["itens"] as? [[String: Any]])
            #expect(extrato.first?["tipo"] as? String == "expirados" && extrato.first?["quantidade"] as? Int == -60)
            #expect(try await assinaturas.expirarCreditosVencidos() == 0)
        }
    }
}
