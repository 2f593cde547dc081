import Domain
import EventStore
import Foundation
import HTTPTypes
import Services
import Testing

/// Visitors: the host registers who is coming; the front desk sees the day's list, records the
/// arrival (the host is told) and the departure; the visitor's name and e-mail stay sealed and
/// are erased when the visit is cancelled or its retention ends.
@Suite("Visitors")
struct VisitasTests {
    @Test("a member registers a visitor; the visitor is invited by e-mail; reception sees the day, records arrival and departure; the host is told")
    func the_visit_from_registration_to_departure() async throws {
        let clock = ManualClock(segundaDeManha)  // Monday 23/11 08:00 in São Paulo
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            func pedido(_ chegada: String, nome: String = "  Bruno   Costa ", email: String? = "Bruno@Example.com", unidade: String? = nil) -> String
            {
                let email = email.map { #","email":"\#($0)""# } ?? ""
                return #"{"unidadeId":"\#(unidade ?? cenario.unidade)","chegadaPrevista":"\#(chegada)","nome":"\#(nome)"\#(email)}"#
            }
            // Bad input: a clear error naming the field, and nothing written.
            let antes = try await harness.allEvents().filter { $0.stream.category == "visita" }.count
            for (corpo, campo) in [
                (pedido("2026-11-23T06:30:00-03:00"), "chegadaPrevista"), (pedido("2026-11-23T14:00:00-03:00", nome: " x "), "nome"),
                (pedido("2026-11-23T14:00:00-03:00", nome: "pii:v1:abc"), "nome"),
                (pedido("2026-11-23T14:00:00-03:00", email: "bruno@"), "email"),
                (pedido("2026-11-23T14:00:00-03:00", unidade: "00000000-0000-4000-8000-000000000009"), "unidadeId"),
                (pedido("2027-06-01T14:00:00-03:00"), "chegadaPrevista"),
            ] {
                let recusado = try await client.json(.post, "/api/visitas", corpo, token: cenario.membro)
                #expect(recusado.status == .unprocessableContent, "\(corpo)")
                #expect((recusado.object["detalhes"] as? [String: Any])?["campo"] as? String == campo, "\(corpo)")
            }
            #expect(try await harness.allEvents().filter { $0.stream.category == "visita" }.count == antes)

            let criada = try await client.json(.post, "/api/visitas", pedido("2026-11-23T14:00:00-03:00"), token: cenario.membro)
            #expect(criada.status == .created, "\(String(buffer: criada.body))")
            let visita = criada.object
            let id = try #require(visita["id"] as? String)
            #expect(visita["nome"] as? String == "Bruno Costa" && visita["email"] as? String == "bruno@example.com")
            #expect(visita["situacao"] as? String == "esperada" && visita["dia"] as? String == "2026-11-23")
            // Sealed in the log: neither the name nor the address in clear.
            let registrada = try #require(try await harness.allEvents().first { $0.type == Visita.Catalogo.registrada.type })
            let gravado = String(decoding: registrada.data, as: UTF8.self)
            #expect(!gravado.contains("Bruno") && !gravado.contains("bruno@") && gravado.contains("pii:v1:"))

            // The visitor's invitation: where, when and who expects them.
            let convite = try await eventually("the visitor's e-mail") {
                try harness.emails().first { $0.subject?.hasPrefix("Sua visita à Paulista") == true }
            }
            #expect(convite.subject == "Sua visita à Paulista: 23/11/2026 às 14:00")
            #expect(convite.text?.contains("Olá, Bruno") == true && convite.text?.contains("Ana espera você na Paulista (Av. Paulista, 1000") == true)
            #expect(convite.headers.first { $0.name.lowercased() == "to" }?.value.contains("bruno@example.com") == true)

            // Another member neither sees nor cancels it; a member is not the front desk.
            #expect(try await client.register("caio@example.com", nome: "Caio").status == .created)
            let caio = try await client.token("caio@example.com")
            #expect(try await client.json(.post, "/api/visitas/\(id)/cancelamento", token: caio).status == .notFound)
            #expect(try await (client.json(.get, "/api/visitas", token: caio).object["proximas"] as? [Any])?.isEmpty == true)
            #expect(try await client.json(.post, "/api/admin/visitas/\(id)/chegada", token: cenario.membro).status == .forbidden)
            #expect(
                try await client.json(.get, "/api/admin/visitas?unidade=\(cenario.unidade)&data=2026-11-23", token: cenario.membro).status
                    == .forbidden)

            // The front desk's day.
            func doDia(_ data: String = "2026-11-23") async throws -> [[String: Any]] {
                let dia = try await client.json(.get, "/api/admin/visitas?unidade=\(cenario.unidade)&data=\(data)", token: cenario.admin)
                #expect(dia.status == .ok)
                return dia.object["itens"] as? [[String: Any]] ?? []
            }
            let lista = try await eventually("the visit in the day's list") { try await doDia().first { $0["id"] as? String == id } }
            #expect(lista["nome"] as? String == "Bruno Costa" && lista["situacao"] as? String == "esperada")
            #expect(try await doDia("2026-11-24").isEmpty)

            // A visit two days ahead cannot be received today; the host cancels it, and the visitor is told.
            let outra = try await client.json(
                .post, "/api/visitas", pedido("2026-11-25T14:00:00-03:00", nome: "Dora", email: "dora@example.com"), token: cenario.membro)
            let outraId = try #require(outra.object["id"] as? String)
            let cedo = try await client.json(.post, "/api/admin/visitas/\(outraId)/chegada", token: cenario.admin)
            #expect(cedo.status == .conflict && cedo.object["erro"] as? String == "visita_cedo_demais")
            let cancelada = try await client.json(.post, "/api/visitas/\(outraId)/cancelamento", token: cenario.membro)
            #expect(cancelada.status == .ok && cancelada.object["situacao"] as? String == "cancelada")
            #expect(cancelada.object["canceladaEm"] as? String == "2026-11-23T11:00:00Z")
            let aviso = try await eventually("the visitor told of the cancellation") {
                try harness.emails().first { $0.subject == "Visita cancelada: Paulista, 25/11/2026 às 14:00" }
            }
            #expect(aviso.text?.contains("Olá, Dora") == true && aviso.text?.contains("foi cancelada") == true)
            let tarde = try await client.json(.post, "/api/admin/visitas/\(outraId)/chegada", token: cenario.admin)
            #expect(tarde.status == .conflict && tarde.object["erro"] as? String == "visita_cancelada")

            // Arrival, the host told; departure.
            clock.set(try Date("2026-11-23T13:50:00-03:00", strategy: .iso8601))
            let chegou = try await client.json(.post, "/api/admin/visitas/\(id)/chegada", token: cenario.admin)
            #expect(chegou.status == .ok && chegou.object["situacao"] as? String == "presente")
            #expect(chegou.object["chegouEm"] as? String == "2026-11-23T16:50:00Z" && chegou.object["recebidaPor"] as? String != nil)
            let chegada = try await eventually("the host's notice") {
                let caixa = try await client.json(.get, "/api/notificacoes", token: cenario.membro).object["itens"] as? [[String: Any]]
                return caixa?.first { $0["tipo"] as? String == "visita" }
            }
            #expect(chegada["titulo"] as? String == "Seu visitante chegou")
            #expect(chegada["texto"] as? String == "Seu visitante esperado às 14:00 chegou à recepção da Paulista.")
            _ = try await eventually("the host's e-mail") { try harness.emails().first { $0.subject == "Seu visitante chegou" } }
            #expect(try await client.json(.post, "/api/visitas/\(id)/cancelamento", token: cenario.membro).status == .conflict)
            let saiu = try await client.json(.post, "/api/admin/visitas/\(id)/saida", token: cenario.admin)
            #expect(saiu.status == .ok && saiu.object["situacao"] as? String == "saiu")
            #expect(try await client.json(.post, "/api/admin/visitas/\(id)/saida", token: cenario.admin).status == .conflict)

            // The host's list: both are past now.
            let minhas = try await client.json(.get, "/api/visitas", token: cenario.membro).object
            #expect((minhas["proximas"] as? [Any])?.isEmpty == true)
            let anteriores = try #require(minhas["anteriores"] as? [[String: Any]])
            #expect(anteriores.map { $0["id"] as? String } == [outraId, id])  // latest expected arrival first
            #expect(anteriores[1]["nome"] as? String == "Bruno Costa" && anteriores[0]["nome"] as? String == "Dora")

            // Retention: the cancelled visit's data goes an hour after the cancellation (now, at
            // 13:50); the received one's 30 days after its expected arrival.
            let checkin = harness.backend.negocio.checkin
            #expect(try await checkin.apagarVisitantesVencidos() == 1)
            clock.set(try Date("2026-12-23T13:59:00-03:00", strategy: .iso8601))
            #expect(try await checkin.apagarVisitantesVencidos() == 0)
            clock.set(try Date("2026-12-23T14:00:00-03:00", strategy: .iso8601))
            #expect(try await checkin.apagarVisitantesVencidos() == 1)
            let apagada = try await eventually("the erased visit") {
                let lista = try await client.json(.get, "/api/visitas", token: cenario.membro).object["anteriores"] as? [[String: Any]]
                return lista?.first { $0["id"] as? String == id && $0["dadosApagados"] as? Bool == true }
            }
            #expect(apagada["nome"] == nil && apagada["situacao"] as? String == "saiu")
            let tipos = try await harness.allEvents().filter { $0.stream.category == "visita" }.map(\.type)
            #expect(tipos.filter { $0 == Visita.Catalogo.dadosApagados.type }.count == 2)
        }
    }

    @Test("the front desk registers a visitor who came unannounced for the member they came to see, and receives them; a member cannot")
    func a_walk_in_registered_by_the_front_desk() async throws {
        let clock = ManualClock(segundaDeManha)
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let membroId = try #require(try await client.json(.get, "/api/auth/me", token: cenario.membro).object["id"] as? String)
            func pedido(para: String) -> String {
                #"{"unidadeId":"\#(cenario.unidade)","chegadaPrevista":"2026-11-23T08:00:00-03:00","nome":"Eva Lima","email":"eva@example.com","paraUsuarioId":"\#(para)"}"#
            }
            #expect(try await client.register("caio@example.com", nome: "Caio").status == .created)
            let caio = try await client.token("caio@example.com")
            let antes = try await harness.allEvents().filter { $0.stream.category == "visita" }.count
            // A member registers only their own visitors; the desk names a member who exists.
            #expect(try await client.json(.post, "/api/visitas", pedido(para: membroId), token: caio).status == .forbidden)
            let desconhecido = try await client.json(
                .post, "/api/visitas", pedido(para: "00000000-0000-4000-8000-000000000009"), token: cenario.admin)
            #expect(desconhecido.status == .unprocessableContent)
            #expect((desconhecido.object["detalhes"] as? [String: Any])?["campo"] as? String == "paraUsuarioId")
            // Nor a deactivated account.
            let caioId = try #require(try await client.json(.get, "/api/auth/me", token: caio).object["id"] as? String)
            #expect(try await client.json(.post, "/api/admin/usuarios/\(caioId)/desativacao", token: cenario.admin).status == .noContent)
            let desativado = try await client.json(.post, "/api/visitas", pedido(para: caioId), token: cenario.admin)
            #expect(desativado.status == .unprocessableContent)
            #expect((desativado.object["detalhes"] as? [String: Any])?["campo"] as? String == "paraUsuarioId")
            #expect(try await harness.allEvents().filter { $0.stream.category == "visita" }.count == antes)

            let criada = try await client.json(.post, "/api/visitas", pedido(para: membroId), token: cenario.admin)
            #expect(criada.status == .created, "\(String(buffer: criada.body))")
            let id = try #require(criada.object["id"] as? String)
            #expect(criada.object["usuarioId"] as? String == membroId && criada.object["registradaPor"] as? String != membroId)
            let chegou = try await client.json(.post, "/api/admin/visitas/\(id)/chegada", token: cenario.admin)
            #expect(chegou.status == .ok && chegou.object["situacao"] as? String == "presente")
            // The host sees the visitor among theirs and is told of the arrival.
            let minhas = try await client.json(.get, "/api/visitas", token: cenario.membro).object["proximas"] as? [[String: Any]]
            #expect(minhas?.first?["id"] as? String == id && minhas?.first?["nome"] as? String == "Eva Lima")
            let aviso = try await eventually("the host's notice") {
                let caixa = try await client.json(.get, "/api/notificacoes", token: cenario.membro).object["itens"] as? [[String: Any]]
                return caixa?.first { $0["tipo"] as? String == "visita" }
            }
            #expect(aviso["texto"] as? String == "Seu visitante esperado às 08:00 chegou à recepção da Paulista.")
            // Already at the desk: no invitation to come.
            _ = try await eventually("the host's e-mail") { try harness.emails().first { $0.subject == "Seu visitante chegou" } }
            #expect(try harness.emails().allSatisfy { $0.subject?.hasPrefix("Sua visita") != true })
        }
    }

    @Test("a member registers at most 30 visitors in 24 hours (each may e-mail an address they typed); the desk has no cap")
    func a_daily_cap_on_a_members_visitors() async throws {
        let clock = ManualClock(segundaDeManha)
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test(reacting: []) { client in
            let cenario = try await Cenario.make(harness, client)
            let pedido = #"{"unidadeId":"\#(cenario.unidade)","chegadaPrevista":"2026-11-24T10:00:00-03:00","nome":"Eva Lima"}"#
            for _ in 0..<CheckinService.visitasPorDia {
                #expect(try await client.json(.post, "/api/visitas", pedido, token: cenario.membro).status == .created)
            }
            // The member's next read waits for what they wrote: the list has all thirty.
            let lista = try await client.json(.get, "/api/visitas", token: cenario.membro).object["proximas"] as? [Any]
            #expect(lista?.count == CheckinService.visitasPorDia)
            clock.set(try Date("2026-11-23T20:00:00-03:00", strategy: .iso8601))
            let demais = try await client.json(.post, "/api/visitas", pedido, token: cenario.membro)
            #expect(demais.status == .tooManyRequests && demais.object["erro"] as? String == "visitas_demais", "\(String(buffer: demais.body))")
            #expect(demais.headers[.retryAfter] == String(12 * 3_600))
            #expect(try await client.json(.post, "/api/visitas", pedido, token: cenario.admin).status == .created)
            // A day after the first, the member may register again.
            clock.set(try Date("2026-11-24T08:00:00-03:00", strategy: .iso8601))
            #expect(try await client.json(.post, "/api/visitas", pedido, token: cenario.membro).status == .created)
        }
    }

    @Test("an operator erases a visitor's name and e-mail at their request, at once; the visit stays; a member cannot")
    func an_operator_erases_a_visitor_now() async throws {
        let clock = ManualClock(segundaDeManha)
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test(reacting: []) { client in
            let cenario = try await Cenario.make(harness, client)
            let pedido =
                #"{"unidadeId":"\#(cenario.unidade)","chegadaPrevista":"2026-11-23T14:00:00-03:00","nome":"Eva Lima","email":"eva@example.com"}"#
            let id = try #require(try await client.json(.post, "/api/visitas", pedido, token: cenario.membro).object["id"] as? String)
            #expect(try await client.json(.delete, "/api/admin/visitas/\(id)/dados", token: cenario.membro).status == .forbidden)
            let apagada = try await client.json(.delete, "/api/admin/visitas/\(id)/dados", token: cenario.admin)
            #expect(apagada.status == .ok && apagada.object["dadosApagados"] as? Bool == true, "\(String(buffer: apagada.body))")
            #expect(apagada.object["nome"] == nil && apagada.object["email"] == nil && apagada.object["situacao"] as? String == "esperada")
            // Twice: the same answer, one event.
            #expect(try await client.json(.delete, "/api/admin/visitas/\(id)/dados", token: cenario.admin).status == .ok)
            let eventos = try await harness.allEvents().filter { $0.type == Visita.Catalogo.dadosApagados.type }
            #expect(eventos.count == 1)
            // The key is gone: the sealed name in the log reads as nothing, for the host too.
            let minhas = try await client.json(.get, "/api/visitas", token: cenario.membro).object["proximas"] as? [[String: Any]]
            #expect(minhas?.first?["nome"] == nil && minhas?.first?["dadosApagados"] as? Bool == true)
            // The visitor may still come: the desk receives someone it no longer names.
            clock.set(try Date("2026-11-23T14:05:00-03:00", strategy: .iso8601))
            #expect(try await client.json(.post, "/api/admin/visitas/\(id)/chegada", token: cenario.admin).status == .ok)
            // Thirty days on, the timer has nothing left to erase.
            clock.set(try Date("2026-12-24T08:00:00-03:00", strategy: .iso8601))
            #expect(try await harness.backend.negocio.checkin.apagarVisitantesVencidos() == 0)
        }
    }
}
