import Domain
import EventStore
import Foundation
import HTTPTypes
import Projections
import Services
import Testing

/// Tours (ADR 0020): a prospect books a time on the public site and gets the confirmation with
/// the link to cancel; the team lists the day, records how each went, cancels with a reason,
/// books for a phone lead and sets the unit's tour hours; a time never holds more tours than the
/// unit receives at once; the prospect's contact stays sealed and is erased.
@Suite("Tours")
struct ToursTests {
    static func corpo(
        _ unidade: String, _ inicio: String, nome: String = "  Bruno   Costa ", email: String = "Bruno@Example.com",
        extra: String = #","telefone":"(11) 91234-5678","empresa":"Acme","interesse":"sala_privativa","pessoas":3,"mensagem":"Time de 6""#
    ) -> String {
        #"{"unidadeId":"\#(unidade)","inicio":"\#(inicio)","nome":"\#(nome)","email":"\#(email)"\#(extra)}"#
    }

    @Test(
        "a prospect books a time with no account and is told; the team sees the day, records it done; the time holds one tour; the contact stays sealed and is erased"
    )
    func the_tour_from_booking_to_erasure() async throws {
        let clock = ManualClock(segundaDeManha)  // Monday 23/11 08:00 in São Paulo
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let u = cenario.unidade
            func horarios(_ data: String = "2026-11-23") async throws -> [[String: Any]] {
                let resposta = try await client.json(.get, "/api/tours/horarios?unidade=\(u)&data=\(data)")
                #expect(resposta.status == .ok, "\(String(buffer: resposta.body))")
                return resposta.object["horarios"] as? [[String: Any]] ?? []
            }
            // The default: weekdays 09:00–18:00, 30 minutes, one at a time; from an hour ahead.
            let livres = try await horarios()
            #expect(livres.count == 18 && livres.first?["inicio"] as? String == "2026-11-23T12:00:00Z")
            #expect(livres.last?["fim"] as? String == "2026-11-23T21:00:00Z" && livres.allSatisfy { $0["livre"] as? Bool == true })
            #expect(try await horarios("2026-11-28").isEmpty)  // Saturday
            #expect(try await client.json(.get, "/api/tours/horarios?unidade=\(u)&data=23-11-2026").status == .badRequest)
            #expect(
                try await client.json(.get, "/api/tours/horarios?unidade=00000000-0000-4000-8000-000000000009&data=2026-11-23").status == .notFound)

            // Bad input: a clear error naming the field, and nothing written.
            let antes = try await harness.allEvents().count
            for (corpo, campo) in [
                (Self.corpo(u, "2026-11-23T10:00:00-03:00", nome: " x "), "nome"),
                (Self.corpo(u, "2026-11-23T10:00:00-03:00", nome: "pii:v1:abc"), "nome"),
                (Self.corpo(u, "2026-11-23T10:00:00-03:00", email: "bruno@"), "email"),
                (Self.corpo(u, "2026-11-23T10:00:00-03:00", extra: #","telefone":"12-34""#), "telefone"),
                (Self.corpo(u, "2026-11-23T10:00:00-03:00", extra: #","interesse":"cafe""#), "interesse"),
                (Self.corpo(u, "2026-11-23T10:00:00-03:00", extra: #","pessoas":0"#), "pessoas"),
                (Self.corpo(u, "2026-11-23T10:15:00-03:00"), "inicio"),  // not a tour time
                (Self.corpo(u, "2026-11-23T08:30:00-03:00"), "inicio"),  // before the hours
                (Self.corpo(u, "2026-11-28T10:00:00-03:00"), "inicio"),  // Saturday
                (Self.corpo(u, "2027-03-01T10:00:00-03:00"), "inicio"),  // too far
                (Self.corpo("00000000-0000-4000-8000-000000000009", "2026-11-23T10:00:00-03:00"), "unidadeId"),
            ] {
                let recusado = try await client.json(.post, "/api/tours", corpo)
                #expect(recusado.status == .unprocessableContent, "\(corpo) \(String(buffer: recusado.body))")
                #expect((recusado.object["detalhes"] as? [String: Any])?["campo"] as? String == campo, "\(corpo)")
            }
            #expect(try await harness.allEvents().count == antes)

            var chave = HTTPFields()
            chave[.init("Idempotency-Key")!] = "tour-1"
            let agendado = try await client.json(.post, "/api/tours", Self.corpo(u, "2026-11-23T10:00:00-03:00"), headers: chave)
            #expect(agendado.status == .created, "\(String(buffer: agendado.body))")
            let id = try #require(agendado.object["id"] as? String)
            #expect(agendado.object["situacao"] as? String == "agendado" && agendado.object["nome"] as? String == "Bruno Costa")
            #expect(agendado.object["unidade"] as? String == "Paulista" && agendado.object["fim"] as? String == "2026-11-23T13:30:00Z")
            #expect((agendado.object["endereco"] as? String)?.hasPrefix("Av. Paulista, 1000") == true)
            // The same request again answers the same tour; the time holds one tour.
            let repetido = try await client.json(.post, "/api/tours", Self.corpo(u, "2026-11-23T10:00:00-03:00"), headers: chave)
            #expect(repetido.status == .created && repetido.object["id"] as? String == id)
            let lotado = try await client.json(
                .post, "/api/tours", Self.corpo(u, "2026-11-23T10:00:00-03:00", nome: "Caio", email: "caio@example.com"))
            #expect(lotado.status == .conflict && lotado.erro == "horario_de_tour_lotado")
            let dez = try #require(try await horarios().first { $0["inicio"] as? String == "2026-11-23T13:00:00Z" })
            #expect(dez["livre"] as? Bool == false && dez["vagas"] as? Int == 0)
            #expect(try await harness.allEvents().filter { $0.type == Tour.Catalogo.agendado.type }.count == 1)

            // Sealed in the log.
            let gravado = try #require(try await harness.allEvents().first { $0.type == Tour.Catalogo.agendado.type })
            let texto = String(decoding: gravado.data, as: UTF8.self)
            for claro in ["Bruno", "bruno@", "91234", "Acme", "Time de 6"] { #expect(!texto.contains(claro), "\(claro) in clear") }
            #expect(texto.contains("pii:v1:"))

            // The prospect's confirmation: when, where, the invitation and the link.
            let confirmacao = try await eventually("the prospect's confirmation") {
                try harness.emails().first { $0.subject == "Tour agendado: Paulista, 23/11/2026 às 10:00" }
            }
            #expect(confirmacao.headers.first { $0.name.lowercased() == "to" }?.value.contains("bruno@example.com") == true)
            #expect(confirmacao.text?.contains("/tour/\(id)") == true && confirmacao.text?.contains("Av. Paulista, 1000") == true)
            #expect(confirmacao.attachments.first?.contentType.contains("method=REQUEST") == true)
            #expect(confirmacao.text?.components(separatedBy: "Olá").count == 2, "one greeting")
            let publico = try await client.json(.get, "/api/tours/\(id)")
            #expect(publico.status == .ok && publico.object["nome"] as? String == "Bruno Costa")
            #expect(try await client.json(.get, "/api/tours/00000000-0000-4000-8000-000000000009").status == .notFound)

            // The team's day, with the contact; not for members, nor without a token.
            func doDia() async throws -> [[String: Any]] {
                let dia = try await client.json(.get, "/api/admin/tours?unidade=\(u)&data=2026-11-23", token: cenario.admin)
                #expect(dia.status == .ok)
                return dia.object["itens"] as? [[String: Any]] ?? []
            }
            let naLista = try await eventually("the tour in the day's list") { try await doDia().first { $0["id"] as? String == id } }
            #expect(naLista["email"] as? String == "bruno@example.com" && naLista["telefone"] as? String == "(11) 91234-5678")
            #expect(naLista["empresa"] as? String == "Acme" && naLista["interesse"] as? String == "sala_privativa" && naLista["pessoas"] as? Int == 3)
            #expect(naLista["origem"] as? String == "site" && naLista["agendadoPor"] == nil)
            #expect(try await client.json(.get, "/api/admin/tours?unidade=\(u)&data=2026-11-23", token: cenario.membro).status == .forbidden)
            #expect(try await client.json(.get, "/api/admin/tours?unidade=\(u)&data=2026-11-23").status == .unauthorized)
            #expect(try await client.json(.post, "/api/admin/tours/\(id)/realizacao", token: cenario.membro).status == .forbidden)

            // Done from an hour before the start; a no-show only from the start.
            let cedo = try await client.json(.post, "/api/admin/tours/\(id)/realizacao", #"{"nota":"Quer 6 posições"}"#, token: cenario.admin)
            #expect(cedo.status == .conflict && cedo.erro == "tour_cedo_demais")
            clock.set(try Date("2026-11-23T09:30:00-03:00", strategy: .iso8601))
            let ausente = try await client.json(.post, "/api/admin/tours/\(id)/ausencia", token: cenario.admin)
            #expect(ausente.status == .conflict && ausente.erro == "tour_cedo_demais")
            let feito = try await client.json(.post, "/api/admin/tours/\(id)/realizacao", #"{"nota":"Quer 6 posições"}"#, token: cenario.admin)
            #expect(feito.status == .ok && feito.object["situacao"] as? String == "realizado" && feito.object["nota"] as? String == "Quer 6 posições")
            #expect(try await client.json(.post, "/api/tours/\(id)/cancelamento").erro == "tour_concluido")

            // A phone lead booked by the team, then cancelled with a reason: the prospect is told,
            // and the time is free again.
            let pelaEquipe = try await client.json(
                .post, "/api/admin/tours", Self.corpo(u, "2026-11-23T11:00:00-03:00", nome: "Dora Lima", email: "dora@example.com", extra: ""),
                token: cenario.admin)
            #expect(pelaEquipe.status == .created, "\(String(buffer: pelaEquipe.body))")
            let doraId = try #require(pelaEquipe.object["id"] as? String)
            #expect(pelaEquipe.object["origem"] as? String == "equipe" && pelaEquipe.object["agendadoPor"] as? String != nil)
            let cancelado = try await client.json(
                .post, "/api/admin/tours/\(doraId)/cancelamento", #"{"motivo":"A sala de reuniões estará em obras"}"#, token: cenario.admin)
            #expect(cancelado.status == .ok && cancelado.object["situacao"] as? String == "cancelado")
            #expect(cancelado.object["motivo"] as? String == "A sala de reuniões estará em obras")
            let aviso = try await eventually("Dora told of the cancellation") {
                try harness.emails().first { $0.subject == "Tour cancelado: Paulista, 23/11/2026 às 11:00" }
            }
            #expect(aviso.text?.contains("Motivo: A sala de reuniões estará em obras.") == true)
            #expect(aviso.attachments.first?.contentType.contains("method=CANCEL") == true)
            #expect(try await horarios().first { $0["inicio"] as? String == "2026-11-23T14:00:00Z" }?["livre"] as? Bool == true)

            // The prospect cancels their own; twice is fine; the time is free again.
            let eva = try await client.json(.post, "/api/tours", Self.corpo(u, "2026-11-23T14:00:00-03:00", nome: "Eva", email: "eva@example.com"))
            let evaId = try #require(eva.object["id"] as? String)
            #expect(try await horarios().first { $0["inicio"] as? String == "2026-11-23T17:00:00Z" }?["livre"] as? Bool == false)
            let desistiu = try await client.json(.post, "/api/tours/\(evaId)/cancelamento")
            #expect(
                desistiu.status == .ok && desistiu.object["situacao"] as? String == "cancelado"
                    && desistiu.object["canceladoPorEquipe"] as? Bool == false)
            #expect(try await client.json(.post, "/api/tours/\(evaId)/cancelamento").status == .ok)
            #expect(try await horarios().first { $0["inicio"] as? String == "2026-11-23T17:00:00Z" }?["livre"] as? Bool == true)
            let cancelamento = try await eventually("Eva's cancellation") {
                try harness.emails().first { $0.subject == "Tour cancelado: Paulista, 23/11/2026 às 14:00" }
            }
            #expect(cancelamento.text?.contains("como você pediu") == true)

            // Retention: the two cancelled tours' contacts an hour after their cancellation; the
            // done one's 90 days after its start; at the prospect's request, at once.
            let checkin = harness.backend.negocio.checkin
            #expect(try await checkin.apagarInteressadosVencidos() == 0)
            clock.set(try Date("2026-11-23T10:30:00-03:00", strategy: .iso8601))
            #expect(try await checkin.apagarInteressadosVencidos() == 2)
            clock.set(try Date("2027-02-21T09:59:00-03:00", strategy: .iso8601))
            #expect(try await checkin.apagarInteressadosVencidos() == 0)
            let apagado = try await client.json(.delete, "/api/admin/tours/\(id)/dados", token: cenario.admin)
            #expect(apagado.status == .ok && apagado.object["dadosApagados"] as? Bool == true && apagado.object["nome"] == nil)
            #expect(apagado.object["nota"] == nil && apagado.object["situacao"] as? String == "realizado")
            clock.set(try Date("2027-02-21T10:00:00-03:00", strategy: .iso8601))
            #expect(try await checkin.apagarInteressadosVencidos() == 0)
            #expect(try await client.json(.get, "/api/tours/\(id)").object["nome"] == nil)
            #expect(try await harness.allEvents().filter { $0.type == Tour.Catalogo.dadosApagados.type }.count == 3)

            // A prospect who asks to be forgotten before their tour: it is cancelled (the time is
            // free again), the contact erased, and a retry of the booking no longer replays it.
            var outraChave = HTTPFields()
            outraChave[.init("Idempotency-Key")!] = "tour-2"
            let corpoDaFlora = Self.corpo(u, "2027-02-22T10:00:00-03:00", nome: "Flora", email: "flora@example.com")
            let flora = try await client.json(.post, "/api/tours", corpoDaFlora, headers: outraChave)
            let floraId = try #require(flora.object["id"] as? String)
            let replay = try await client.json(.post, "/api/tours", corpoDaFlora, headers: outraChave)
            #expect(replay.headers[.init("Idempotent-Replayed")!] == "true" && replay.object["nome"] as? String == "Flora")
            let esquecida = try await client.json(.delete, "/api/admin/tours/\(floraId)/dados", token: cenario.admin)
            #expect(esquecida.status == .ok && esquecida.object["situacao"] as? String == "cancelado" && esquecida.object["nome"] == nil)
            #expect(try await horarios("2027-02-22").first { $0["inicio"] as? String == "2027-02-22T13:00:00Z" }?["livre"] as? Bool == true)
            let depois = try await client.json(.post, "/api/tours", corpoDaFlora, headers: outraChave)
            #expect(depois.headers[.init("Idempotent-Replayed")!] == nil && depois.object["id"] as? String == floraId && depois.object["nome"] == nil)
            // Nothing about her is written after the erasure: the team's reason is not kept.
            let tarde = try await client.json(.post, "/api/admin/tours/\(floraId)/cancelamento", #"{"motivo":"Flora pediu"}"#, token: cenario.admin)
            #expect(tarde.status == .ok && tarde.object["motivo"] == nil)
            #expect(try await checkin.apagarInteressadosVencidos() == 0)
        }
    }

    @Test(
        "the team's times of a day start now (it books a prospect at the desk with no notice), the site's an hour on; only the team reads them"
    )
    func the_teams_times_start_now() async throws {
        let clock = ManualClock(segundaDeManha)  // Monday 23/11 08:00 in São Paulo
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let u = cenario.unidade
            clock.advance(by: 2 * 3600 + 10 * 60)  // 10:10
            let publico = try await client.json(.get, "/api/tours/horarios?unidade=\(u)&data=2026-11-23")
            let primeiro = publico.object["horarios"] as? [[String: Any]] ?? []
            let equipe = try await client.json(.get, "/api/admin/tours/horarios?unidade=\(u)&data=2026-11-23", token: cenario.admin)
            #expect(primeiro.first?["inicio"] as? String == "2026-11-23T14:30:00Z")  // 11:30
            #expect(equipe.status == .ok, "\(String(buffer: equipe.body))")
            let daEquipe = equipe.object["horarios"] as? [[String: Any]] ?? []
            #expect(daEquipe.first?["inicio"] as? String == "2026-11-23T13:30:00Z" && daEquipe.count == primeiro.count + 2)  // 10:30
            // The time it offers is one the team can book: a prospect at the desk, twenty minutes on.
            let agora = try await client.json(
                .post, "/api/admin/tours", Self.corpo(u, "2026-11-23T10:30:00-03:00"), token: cenario.admin)
            #expect(agora.status == .created, "\(String(buffer: agora.body))")
            #expect(try await client.json(.get, "/api/admin/tours/horarios?unidade=\(u)&data=2026-11-23", token: cenario.membro).status == .forbidden)
            #expect(try await client.json(.get, "/api/admin/tours/horarios?unidade=\(u)&data=2026-11-23").status == .unauthorized)
            #expect(
                try await client.json(.get, "/api/admin/tours/horarios?unidade=\(u)&data=23-11-2026", token: cenario.admin).status == .badRequest)
        }
    }

    @Test("twenty prospects for one time at once, at a unit receiving two: two get it, and nothing else is written")
    func twenty_at_once() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let configurado = try await client.json(
                .put, "/api/admin/unidades/\(cenario.unidade)/tours",
                #"{"ativo":true,"duracaoMinutos":60,"simultaneos":2,"horario":{"segunda":[{"abre":540,"fecha":1080}]}}"#, token: cenario.admin)
            #expect(configurado.status == .ok, "\(String(buffer: configurado.body))")
            let checkin = harness.backend.negocio.checkin
            func pedido(_ indice: Int) throws -> CheckinService.PedidoDeTour {
                try JSONDecoder.iso.decode(
                    CheckinService.PedidoDeTour.self,
                    from: Data(Self.corpo(cenario.unidade, "2026-11-23T15:00:00-03:00", email: "p\(indice)@example.com").utf8))
            }
            let resultados = try await withThrowingTaskGroup(of: String.self) { grupo in
                for indice in 0..<20 {
                    grupo.addTask {
                        do {
                            // One key for all (one client reusing it): each address is a tour of its own.
                            _ = try await checkin.agendarTour(try pedido(indice), caller: Caller(requestId: "r\(indice)", idempotencyKey: "ip|k"))
                            return "ok"
                        } catch let erro as ServiceError {
                            return erro.codigo
                        }
                    }
                }
                return try await grupo.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(resultados.filter { $0 == "ok" }.count == 2, "\(resultados)")
            #expect(resultados.filter { $0 == "horario_de_tour_lotado" }.count == 18, "\(resultados)")
            let eventos = try await harness.allEvents()
            #expect(eventos.filter { $0.type == Tour.Catalogo.agendado.type }.count == 2)
            #expect(eventos.filter { $0.type == AgendaDeTours.Catalogo.ocupado.type }.count == 2)
        }
    }

    @Test(
        "the prospect is reminded by e-mail a day before, once, with the link to cancel; not of a cancelled tour, nor of one booked inside the reminder's lead"
    )
    func the_prospects_reminder() async throws {
        let clock = ManualClock(segundaDeManha)  // Monday 23/11 08:00 in São Paulo
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let u = cenario.unidade
            func listado(_ id: String) async throws -> Bool {
                try await harness.store.document(NotificacoesReadModel.lembretes, key: NotificacoesReadModel.chaveDoTour(id)) != nil
            }
            // Tuesday 14:00, due from Monday 14:00; Tuesday 15:00, cancelled; today 10:00, booked inside the lead.
            let terca = try await client.json(.post, "/api/tours", Self.corpo(u, "2026-11-24T14:00:00-03:00"))
            let tercaId = try #require(terca.object["id"] as? String, "\(String(buffer: terca.body))")
            let caio = try await client.json(
                .post, "/api/tours", Self.corpo(u, "2026-11-24T15:00:00-03:00", nome: "Caio Lima", email: "caio@example.com"))
            let caioId = try #require(caio.object["id"] as? String)
            #expect(try await client.json(.post, "/api/tours/\(caioId)/cancelamento").status == .ok)
            let dora = try await client.json(
                .post, "/api/tours", Self.corpo(u, "2026-11-23T10:00:00-03:00", nome: "Dora Lima", email: "dora@example.com"))
            let doraId = try #require(dora.object["id"] as? String)
            _ = try await eventually("the tours listed, the cancelled one gone") {
                let (a, b, c) = (try await listado(tercaId), try await listado(doraId), try await listado(caioId))
                return a && b && !c ? true : nil
            }
            let notificacoes = harness.backend.negocio.notificacoes
            #expect(try await notificacoes.enviarLembretesVencidos() == 0)  // Tuesday's not due; today's confirmation said the time

            clock.advance(by: 6 * 3_600 + 1_800)  // Monday 14:30: Tuesday 14:00 is due
            #expect(try await notificacoes.enviarLembretesVencidos() == 1)
            let lembrete = try await eventually("the prospect's reminder") {
                try harness.emails().first { $0.subject == "Lembrete: tour pela Paulista, 24/11/2026 às 14:00" }
            }
            #expect(lembrete.headers.first { $0.name.lowercased() == "to" }?.value.contains("bruno@example.com") == true)
            #expect(lembrete.text?.contains("/tour/\(tercaId)") == true && lembrete.text?.contains("Av. Paulista, 1000") == true)
            #expect(lembrete.text?.contains("Se não puder vir, cancele pelo link abaixo") == true)
            // Once: the list lets it go, and another round sends nothing; nobody else was reminded.
            _ = try await eventually("the reminder off the list") { try await listado(tercaId) ? nil : true }
            #expect(try await notificacoes.enviarLembretesVencidos() == 0)
            #expect(try harness.emails().filter { $0.subject?.hasPrefix("Lembrete: tour") == true }.count == 1)
            // The stored notice names the unit and the time, not the prospect.
            let guardado = try #require(
                try await harness.allEvents().filter { $0.type == Notificacao.Catalogo.enviada.type }
                    .map { String(decoding: $0.data, as: UTF8.self) }.first { $0.contains("Lembrete do tour") })
            #expect(!guardado.contains("Bruno") && !guardado.contains("bruno@"))
        }
    }

    @Test("the team's mailbox is told of a tour booked on the site, with the contact, and of one the prospect cancels; not of its own")
    func the_teams_mailbox() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let u = cenario.unidade
            let caminho = "/api/admin/unidades/\(u)/tours"
            let horario = #""horario":{"segunda":[{"abre":540,"fecha":1080}]}"#
            let ruim = try await client.json(
                .put, caminho, #"{"ativo":true,"duracaoMinutos":30,"simultaneos":1,\#(horario),"emailDaEquipe":"recepcao@"}"#,
                token: cenario.admin)
            #expect(ruim.status == .unprocessableContent && (ruim.object["detalhes"] as? [String: Any])?["campo"] as? String == "emailDaEquipe")
            let definido = try await client.json(
                .put, caminho, #"{"ativo":true,"duracaoMinutos":30,"simultaneos":1,\#(horario),"emailDaEquipe":"Recepcao@Example.com"}"#,
                token: cenario.admin)
            #expect(definido.status == .ok && definido.object["emailDaEquipe"] as? String == "recepcao@example.com")

            let bruno = try await client.json(.post, "/api/tours", Self.corpo(u, "2026-11-23T10:00:00-03:00"))
            let brunoId = try #require(bruno.object["id"] as? String)
            let novo = try await eventually("the team told of the booking") {
                try harness.emails().first { $0.subject == "Novo tour: Paulista, 23/11/2026 às 10:00" }
            }
            #expect(novo.headers.first { $0.name.lowercased() == "to" }?.value.contains("recepcao@example.com") == true)
            for parte in [
                "Bruno Costa agendou um tour pela Paulista", "E-mail: bruno@example.com", "Telefone: (11) 91234-5678", "Empresa: Acme",
                "Interesse: sala privativa", "Pessoas: 3", "Mensagem: Time de 6",
            ] {
                #expect(novo.text?.contains(parte) == true, "\(parte)")
            }
            // The stored notice names the unit and the time, not the prospect (recorded once sent:
            // the e-mail may reach the sink an instant before).
            let guardados = try await eventually("the team's notice recorded") {
                let enviadas = try await harness.allEvents().filter { $0.type == Notificacao.Catalogo.enviada.type }
                    .map { String(decoding: $0.data, as: UTF8.self) }
                return enviadas.contains { $0.contains("Novo tour agendado pelo site") } ? enviadas : nil
            }
            #expect(!guardados.contains { $0.contains("Bruno") })

            // A phone lead the team booked itself: only the prospect is told.
            let dora = try await client.json(
                .post, "/api/admin/tours", Self.corpo(u, "2026-11-23T11:00:00-03:00", nome: "Dora Lima", email: "dora@example.com", extra: ""),
                token: cenario.admin)
            #expect(dora.status == .created)
            _ = try await eventually("Dora's confirmation") {
                try harness.emails().first { $0.subject == "Tour agendado: Paulista, 23/11/2026 às 11:00" }
            }
            #expect(try harness.emails().first { $0.subject == "Novo tour: Paulista, 23/11/2026 às 11:00" } == nil)

            // The prospect cancels: the team is told.
            #expect(try await client.json(.post, "/api/tours/\(brunoId)/cancelamento").status == .ok)
            let cancelado = try await eventually("the team told of the cancellation") {
                try harness.emails().first { $0.subject == "Tour cancelado pelo interessado: Paulista, 23/11/2026 às 10:00" }
            }
            #expect(cancelado.text?.contains("Bruno Costa cancelou o tour") == true)
        }
    }

    @Test("the team sets the unit's tour hours: checked field by field; a unit that takes no tours offers none and refuses a booking")
    func the_units_tour_hours() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let caminho = "/api/admin/unidades/\(cenario.unidade)/tours"
            let padrao = try await client.json(.get, caminho, token: cenario.admin).object
            #expect(padrao["ativo"] as? Bool == true && padrao["duracaoMinutos"] as? Int == 30 && padrao["simultaneos"] as? Int == 1)
            #expect(((padrao["horario"] as? [String: Any])?["segunda"] as? [[String: Any]])?.first?["abre"] as? Int == 540)
            let antes = try await harness.allEvents().count
            for (corpo, campo) in [
                (#"{"ativo":true,"duracaoMinutos":20,"simultaneos":1,"horario":{}}"#, "duracaoMinutos"),
                (#"{"ativo":true,"duracaoMinutos":195,"simultaneos":1,"horario":{}}"#, "duracaoMinutos"),
                (#"{"ativo":true,"duracaoMinutos":30,"simultaneos":0,"horario":{}}"#, "simultaneos"),
                (#"{"ativo":true,"duracaoMinutos":30,"simultaneos":1,"horario":{"segunda":[{"abre":600,"fecha":540}]}}"#, "horario"),
                (#"{"duracaoMinutos":30,"simultaneos":1,"horario":{}}"#, "ativo"),
            ] {
                let recusado = try await client.json(.put, caminho, corpo, token: cenario.admin)
                #expect(recusado.status == .unprocessableContent, "\(corpo) \(String(buffer: recusado.body))")
                #expect(((recusado.object["detalhes"] as? [String: Any])?["campo"] as? String)?.hasPrefix(campo) == true, "\(corpo)")
            }
            #expect(try await harness.allEvents().count == antes)
            let corpo =
                #"{"ativo":true,"duracaoMinutos":60,"simultaneos":3,"horario":{"segunda":[{"abre":600,"fecha":720},{"abre":840,"fecha":990}]}}"#
            #expect(try await client.json(.put, caminho, corpo, token: cenario.membro).status == .forbidden)
            #expect(try await client.json(.put, caminho, corpo, token: cenario.admin).status == .ok)
            #expect(try await client.json(.put, caminho, corpo, token: cenario.admin).status == .ok)  // the same again: nothing new
            #expect(try await harness.allEvents().filter { $0.type == ConfiguracaoDeTours.Catalogo.definida.type }.count == 1)
            // 10:00, 11:00, then 14:00 and 15:00 (16:00 would end after 16:30).
            let horarios = try await client.json(.get, "/api/tours/horarios?unidade=\(cenario.unidade)&data=2026-11-23").object
            #expect(
                (horarios["horarios"] as? [[String: Any]])?.map { $0["inicio"] as? String } == [
                    "2026-11-23T13:00:00Z", "2026-11-23T14:00:00Z", "2026-11-23T17:00:00Z", "2026-11-23T18:00:00Z",
                ])
            #expect((horarios["horarios"] as? [[String: Any]])?.first?["vagas"] as? Int == 3)
            #expect(try await client.json(.get, "/api/tours/horarios?unidade=\(cenario.unidade)&data=2026-11-24").object["horarios"] as? [Any] != nil)

            let desligado = try await client.json(
                .put, caminho, #"{"ativo":false,"duracaoMinutos":60,"simultaneos":3,"horario":{"segunda":[{"abre":600,"fecha":720}]}}"#,
                token: cenario.admin)
            #expect(desligado.object["ativo"] as? Bool == false)
            let nenhum = try await client.json(.get, "/api/tours/horarios?unidade=\(cenario.unidade)&data=2026-11-23").object
            #expect(nenhum["ativo"] as? Bool == false && (nenhum["horarios"] as? [Any])?.isEmpty == true)
            let recusado = try await client.json(.post, "/api/tours", Self.corpo(cenario.unidade, "2026-11-23T10:00:00-03:00"))
            #expect(recusado.status == .unprocessableContent && (recusado.object["detalhes"] as? [String: Any])?["campo"] as? String == "unidadeId")
        }
    }
}
