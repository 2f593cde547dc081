import Domain
import EventStore
import Foundation
import HTTPTypes
import Integrations
import Projections
import Services
import Testing

/// Community events (ADR 0019): the team publishes an event; members sign up or wait; a place
/// given up goes to the first who waits; the team changes and cancels it; members are told.
@Suite("Community events")
struct EncontrosTests {
    /// Thursday 26/11/2026 19:00–21:00 in São Paulo (the harness's clock is Monday 23/11 08:00 there).
    static let inicio = "2026-11-26T19:00:00-03:00"
    static let fim = "2026-11-26T21:00:00-03:00"

    static func corpo(
        _ unidade: String, titulo: String? = "Café com a comunidade", vagas: Int? = 1, inicio: String = inicio, fim: String = fim,
        extras: String = ""
    ) -> String {
        var campos = [#""unidadeId":"\#(unidade)""#, #""inicio":"\#(inicio)""#, #""fim":"\#(fim)""#]
        if let titulo { campos.append(#""titulo":"\#(titulo)""#) }
        if let vagas { campos.append(#""vagas":\#(vagas)"#) }
        if !extras.isEmpty { campos.append(extras) }
        return "{" + campos.joined(separator: ",") + "}"
    }

    @Test(
        "the team publishes an event with one place; Ana takes it, Bia waits; Ana gives it up and Bia gets it, and is told; the team cancels and Bia is told"
    )
    func places_the_waiting_list_and_the_notices() async throws {
        let clock = ManualClock(segundaDeManha)
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            func encontros() async throws -> Int { try await harness.allEvents().filter { $0.stream.category == "encontro" }.count }

            // Bad input names the field and writes nothing; a member may not publish.
            for (corpo, campo) in [
                (Self.corpo("00000000-0000-4000-8000-000000000009"), "unidadeId"), (Self.corpo("x"), "unidadeId"),
                (Self.corpo(cenario.unidade, titulo: nil), "titulo"), (Self.corpo(cenario.unidade, titulo: "  "), "titulo"),
                (Self.corpo(cenario.unidade, titulo: " " + String(repeating: "a", count: 120)), "titulo"),
                (Self.corpo(cenario.unidade, vagas: nil), "vagas"), (Self.corpo(cenario.unidade, vagas: 0), "vagas"),
                (Self.corpo(cenario.unidade, vagas: 301), "vagas"), (Self.corpo(cenario.unidade, fim: Self.inicio), "fim"),
                (Self.corpo(cenario.unidade, fim: "2026-11-27T08:00:00-03:00"), "fim"),
                (Self.corpo(cenario.unidade, inicio: "2026-11-23T07:00:00-03:00", fim: "2026-11-23T09:00:00-03:00"), "inicio"),
                (Self.corpo(cenario.unidade, extras: #""local":"\#(String(repeating: "l", count: 121))""#), "local"),
            ] {
                let recusado = try await client.json(.post, "/api/admin/encontros", corpo, token: cenario.admin)
                #expect(recusado.status == .unprocessableContent, "\(corpo): \(String(buffer: recusado.body))")
                #expect((recusado.object["detalhes"] as? [String: Any])?["campo"] as? String == campo, "\(corpo): \(String(buffer: recusado.body))")
            }
            #expect(try await client.json(.post, "/api/admin/encontros", Self.corpo(cenario.unidade), token: cenario.membro).status == .forbidden)
            #expect(try await encontros() == 0)

            // Published (a retry with the same key is the same event).
            let chave: HTTPFields = [.init("Idempotency-Key")!: "encontro-1"]
            let corpo = Self.corpo(cenario.unidade, extras: #""local":" Auditório ","descricao":"Conversa e café""#)
            let publicado = try await client.json(.post, "/api/admin/encontros", corpo, token: cenario.admin, headers: chave)
            #expect(publicado.status == .created, "\(String(buffer: publicado.body))")
            let id = try #require(publicado.object["id"] as? String)
            #expect(publicado.object["local"] as? String == "Auditório" && publicado.object["vagas"] as? Int == 1)
            #expect(try await client.json(.post, "/api/admin/encontros", corpo, token: cenario.admin, headers: chave).object["id"] as? String == id)
            #expect(try await encontros() == 1)

            // Ana takes the place; Bia waits (position 1); signing up twice changes nothing.
            #expect(try await client.register("bia@example.com", nome: "Bia").status == .created)
            let bia = try await client.token("bia@example.com")
            let daAna = try await client.json(.post, "/api/encontros/\(id)/inscricao", token: cenario.membro)
            #expect(daAna.status == .ok, "\(String(buffer: daAna.body))")
            #expect(daAna.object["minhaInscricao"] as? String == "confirmada" && daAna.object["confirmados"] as? Int == 1)
            #expect(daAna.object["inscritos"] == nil, "a member does not see who else signed up")
            let daBia = try await client.json(.post, "/api/encontros/\(id)/inscricao", token: bia)
            #expect(daBia.object["minhaInscricao"] as? String == "espera" && daBia.object["posicaoNaEspera"] as? Int == 1)
            #expect(try await client.json(.post, "/api/encontros/\(id)/inscricao", token: bia).object["posicaoNaEspera"] as? Int == 1)
            #expect(try await client.json(.post, "/api/encontros/nada/inscricao", token: bia).status == .notFound)
            // Ana is told of her place, with the calendar invitation; Bia's waiting tells nobody.
            let convite = try await eventually("Ana's e-mail") {
                try harness.emails().first { $0.subject == "Inscrição confirmada: Café com a comunidade" }
            }
            #expect(convite.text?.contains("26/11/2026, 19:00–21:00") == true)

            // The list: the member sees the counts and her own sign-up; the team sees the names.
            let lista = try await client.json(.get, "/api/encontros?unidade=\(cenario.unidade)", token: bia).object["itens"] as? [[String: Any]]
            #expect(lista?.map { $0["id"] as? String } == [id])
            #expect(lista?.first?["naEspera"] as? Int == 1 && lista?.first?["minhaInscricao"] as? String == "espera")
            let daEquipe = try await client.json(.get, "/api/encontros/\(id)", token: cenario.admin).object
            #expect((daEquipe["inscritos"] as? [[String: Any]])?.map { $0["nome"] as? String } == ["Ana"])
            #expect((daEquipe["espera"] as? [[String: Any]])?.map { $0["nome"] as? String } == ["Bia"])
            #expect(try await client.json(.get, "/api/encontros?periodo=x", token: bia).status == .badRequest)

            // Fewer places than people who have one: refused. Ana gives hers up: it goes to Bia, who is told.
            let menos = try await client.json(.patch, "/api/admin/encontros/\(id)", #"{"vagas":1,"titulo":""}"#, token: cenario.admin)
            #expect(menos.status == .unprocessableContent && (menos.object["detalhes"] as? [String: Any])?["campo"] as? String == "titulo")
            // The time is not changed by a change: named, not ignored.
            let outraHora = try await client.json(
                .patch, "/api/admin/encontros/\(id)", #"{"inicio":"2026-11-27T19:00:00-03:00"}"#, token: cenario.admin)
            #expect(outraHora.status == .unprocessableContent && (outraHora.object["detalhes"] as? [String: Any])?["campo"] as? String == "inicio")
            clock.advance(by: 3_600)
            let desistiu = try await client.json(.delete, "/api/encontros/\(id)/inscricao", token: cenario.membro)
            #expect(desistiu.status == .ok && desistiu.object["minhaInscricao"] == nil && desistiu.object["confirmados"] as? Int == 1)
            let vaga = try await eventually("Bia's notice of her place") {
                let caixa = try await client.json(.get, "/api/notificacoes", token: bia).object["itens"] as? [[String: Any]]
                return caixa?.first { $0["tipo"] as? String == "encontro" }
            }
            #expect(vaga["titulo"] as? String == "Você conseguiu uma vaga: Café com a comunidade")
            let agora = try await client.json(.get, "/api/encontros/\(id)", token: bia).object
            #expect(agora["minhaInscricao"] as? String == "confirmada" && agora["naEspera"] as? Int == 0)
            // Ana's calendar loses the invitation; her trail does not learn who got her place.
            let retirado = try await eventually("Ana's withdrawal") {
                try harness.emails().first { $0.subject == "Inscrição cancelada: Café com a comunidade" }
            }
            #expect(retirado.attachments.first?.contentType.contains("method=CANCEL") == true)
            let idDaBia = try #require(try await client.json(.get, "/api/auth/me", token: bia).object["id"] as? String)
            let deAna = try await client.json(.get, "/api/auth/me/dados", token: cenario.membro).object["atividade"] as? [[String: Any]] ?? []
            #expect(deAna.contains { $0["tipo"] as? String == "InscricaoNoEncontroCancelada" })
            #expect(!deAna.contains { ($0["dados"] as? [String: Any])?["usuarioId"] as? String == idDaBia }, "Ana's export names Bia")
            // Ana signs up again: she waits now (the place is Bia's). More places go to her.
            #expect(
                try await client.json(.post, "/api/encontros/\(id)/inscricao", token: cenario.membro).object["minhaInscricao"] as? String == "espera")
            let mais = try await client.json(.patch, "/api/admin/encontros/\(id)", #"{"vagas":2}"#, token: cenario.admin)
            #expect(mais.status == .ok && mais.object["confirmados"] as? Int == 2 && mais.object["naEspera"] as? Int == 0)
            let abaixo = try await client.json(.patch, "/api/admin/encontros/\(id)", #"{"vagas":1}"#, token: cenario.admin)
            #expect(abaixo.status == .conflict && abaixo.erro == "vagas_abaixo_dos_inscritos")

            // The team cancels it: both are told (the invitation withdrawn); nobody signs up any more.
            let cancelado = try await client.json(
                .post, "/api/admin/encontros/\(id)/cancelamento", #"{"motivo":"Falta de luz no prédio"}"#, token: cenario.admin)
            #expect(cancelado.status == .ok && cancelado.object["cancelado"] as? Bool == true && cancelado.object["confirmados"] as? Int == 0)
            let avisos = try await eventually("both cancellation e-mails") {
                let enviados = try harness.emails().filter { $0.subject == "Evento cancelado: Café com a comunidade" }
                return enviados.count == 2 ? enviados : nil
            }
            #expect(avisos.allSatisfy { $0.text?.contains("Falta de luz no prédio") == true })
            let tarde = try await client.json(.post, "/api/encontros/\(id)/inscricao", token: bia)
            #expect(tarde.status == .conflict && tarde.erro == "encontro_cancelado")
            #expect(try await client.json(.post, "/api/admin/encontros/\(id)/cancelamento", token: cenario.admin).status == .ok)

            // Bia's data export lists her sign-up's events (they name her).
            let atividade = try await client.json(.get, "/api/auth/me/dados", token: bia).object["atividade"] as? [[String: Any]] ?? []
            #expect(
                atividade.filter { ($0["stream"] as? String)?.hasPrefix("encontro-") == true }.map { $0["tipo"] as? String }
                    == ["InscricaoNoEncontro", "VagaNoEncontroConcedida", "InscricaoNoEncontroCancelada"])
        }
    }

    @Test("sign-ups close when the event starts; an erased member's place goes to the first who waits")
    func the_start_and_an_erased_member() async throws {
        let clock = ManualClock(segundaDeManha)
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let publicado = try await client.json(.post, "/api/admin/encontros", Self.corpo(cenario.unidade), token: cenario.admin)
            let id = try #require(publicado.object["id"] as? String)
            #expect(try await client.register("bia@example.com", nome: "Bia").status == .created)
            let bia = try await client.token("bia@example.com")
            #expect(try await client.json(.post, "/api/encontros/\(id)/inscricao", token: cenario.membro).status == .ok)
            #expect(try await client.json(.post, "/api/encontros/\(id)/inscricao", token: bia).object["minhaInscricao"] as? String == "espera")

            // Ana erases her account: her place goes to Bia (by system:lgpd).
            #expect(try await client.json(.delete, "/api/auth/me", token: cenario.membro).status == .noContent)
            let daBia = try await eventually("Bia's place") {
                let view = try await client.json(.get, "/api/encontros/\(id)", token: bia).object
                return view["minhaInscricao"] as? String == "confirmada" ? view : nil
            }
            #expect(daBia["confirmados"] as? Int == 1 && daBia["naEspera"] as? Int == 0)
            let concedida = try #require(try await harness.allEvents().first { $0.type == Encontro.Catalogo.vagaConcedida.type })
            #expect(concedida.metadata.actor == "system:lgpd")

            // At the start, sign-ups and giving up are closed, and so are changes and cancelling.
            clock.advance(by: 3 * 86_400 + 11 * 3_600)  // Thursday 19:00
            #expect(try await client.register("caio@example.com", nome: "Caio").status == .created)
            let caio = try await client.token("caio@example.com")
            let tarde = try await client.json(.post, "/api/encontros/\(id)/inscricao", token: caio)
            #expect(tarde.status == .conflict && tarde.erro == "encontro_iniciado")
            #expect(try await client.json(.delete, "/api/encontros/\(id)/inscricao", token: bia).erro == "encontro_iniciado")
            #expect(try await client.json(.post, "/api/admin/encontros/\(id)/cancelamento", token: cenario.admin).erro == "encontro_iniciado")
            // It is listed as coming until it ends, then as past.
            #expect((try await client.json(.get, "/api/encontros", token: caio).object["itens"] as? [Any])?.count == 1)
            clock.advance(by: 2 * 3_600)
            #expect((try await client.json(.get, "/api/encontros", token: caio).object["itens"] as? [Any])?.isEmpty == true)
            #expect((try await client.json(.get, "/api/encontros?periodo=passados", token: caio).object["itens"] as? [Any])?.count == 1)
        }
    }

    @Test("forty members sign up at once for ten places: ten get one, thirty wait, in the one stream")
    func forty_at_once() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let publicado = try await client.json(.post, "/api/admin/encontros", Self.corpo(cenario.unidade, vagas: 10), token: cenario.admin)
            let id = try #require(publicado.object["id"] as? String)
            let checkin = harness.backend.negocio.checkin
            let situacoes = try await withThrowingTaskGroup(of: String?.self) { grupo in
                for indice in 0..<40 {
                    grupo.addTask {
                        try await checkin.inscrever(id, caller: Caller(requestId: "r\(indice)", usuario: "membro-\(indice)", papel: "membro"))
                            .minhaInscricao?.rawValue
                    }
                }
                return try await grupo.reduce(into: [String?]()) { $0.append($1) }
            }
            #expect(situacoes.filter { $0 == "confirmada" }.count == 10 && situacoes.filter { $0 == "espera" }.count == 30)
            let inscritos = try await harness.allEvents().filter { $0.type == Encontro.Catalogo.inscrito.type }
                .map { try EventJSON.decoder.decode(Encontro.Inscrito.self, from: $0.data) }
            #expect(inscritos.count == 40 && inscritos.filter { !$0.naEspera }.count == 10)
            #expect(Set(inscritos.map(\.usuarioId)).count == 40)
        }
    }

    @Test(
        "those with a place are reminded a day before, once, and not one who gave it up; a place freed from the waiting list is reminded, one taken inside the reminder's lead is not"
    )
    func the_reminder_the_day_before() async throws {
        let clock = ManualClock(segundaDeManha)  // Monday 23/11 08:00 in São Paulo; the event is Thursday 19:00
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let publicado = try await client.json(.post, "/api/admin/encontros", Self.corpo(cenario.unidade, vagas: 2), token: cenario.admin)
            let id = try #require(publicado.object["id"] as? String, "\(String(buffer: publicado.body))")
            var tokens: [String: String] = ["ana": cenario.membro]
            for nome in ["bia", "caio", "dora"] {
                #expect(try await client.register("\(nome)@example.com", nome: nome.capitalized).status == .created)
                tokens[nome] = try await client.token("\(nome)@example.com")
            }
            func inscrever(_ nome: String) async throws -> String? {
                try await client.json(.post, "/api/encontros/\(id)/inscricao", token: tokens[nome] ?? "").object["minhaInscricao"] as? String
            }
            func desistir(_ nome: String) async throws {
                #expect(try await client.json(.delete, "/api/encontros/\(id)/inscricao", token: tokens[nome] ?? "").status == .ok)
            }
            func lembretes() throws -> [String] {
                try harness.emails().filter { $0.subject == "Lembrete: Café com a comunidade, 26/11/2026, 19:00–21:00" }
                    .compactMap { $0.headers.first { $0.name.lowercased() == "to" }?.value }
            }
            func listados() async throws -> Int {
                try await harness.store.documents(NotificacoesReadModel.lembretes, grupo: "prazo", limit: 100, offset: 0)
                    .map { try ReadModelJSON.decoder.decode(LembreteView.self, from: $0) }.filter { $0.encontroId == id }.count
            }
            // Monday: Ana and Bia take the two places, Caio waits. Tuesday: Bia gives hers up, and Caio gets it.
            #expect(try await inscrever("ana") == "confirmada")
            #expect(try await inscrever("bia") == "confirmada")
            #expect(try await inscrever("caio") == "espera")
            clock.advance(by: 86_400)
            try await desistir("bia")
            _ = try await eventually("Ana and Caio listed, Bia not") { try await listados() == 2 ? true : nil }
            let notificacoes = harness.backend.negocio.notificacoes
            // A list that has not caught up with Bia giving up: the timer reads the event itself.
            let biaId = try #require(try await client.json(.get, "/api/auth/me", token: tokens["bia"] ?? "").object["id"] as? String)
            let inicio = try Date(Self.inicio, strategy: .iso8601)
            let atrasada = LembreteView(
                reservaId: id, usuarioId: biaId, inicio: inicio, agendadoEm: segundaDeManha, encontroId: id)
            try await harness.store.commit(
                [
                    ReadModelChange(
                        collection: NotificacoesReadModel.lembretes, key: "encontro-atrasado", grupo: "prazo",
                        ordem: ISO8601DateFormatter().string(from: inicio), doc: try ReadModelJSON.encoder.encode(atrasada))
                ], checkpoint: "teste-atrasada", at: .start)

            clock.advance(by: 86_400 + 11 * 3_600 - 60)  // Wednesday 18:59: not a day before yet
            #expect(try await notificacoes.enviarLembretesVencidos() == 0)
            clock.advance(by: 120)  // Wednesday 19:01
            #expect(try await notificacoes.enviarLembretesVencidos() == 2)
            let enviados = try await eventually("two reminders") { try lembretes().count == 2 ? try lembretes() : nil }
            #expect(enviados.contains { $0.contains("ana@example.com") } && enviados.contains { $0.contains("caio@example.com") })
            let aviso = try await eventually("Caio's inbox") {
                let caixa = try await client.json(.get, "/api/notificacoes", token: tokens["caio"] ?? "").object["itens"] as? [[String: Any]]
                return caixa?.first { ($0["titulo"] as? String)?.hasPrefix("Lembrete:") == true }
            }
            #expect(aviso["tipo"] as? String == "encontro")
            #expect(
                aviso["texto"] as? String
                    == "Você tem uma vaga em Café com a comunidade: 26/11/2026, 19:00–21:00, na Paulista. "
                    + "Se não puder ir, cancele a inscrição em Eventos: a vaga vai para o primeiro da lista de espera, se houver alguém.")
            _ = try await eventually("the reminded off the list (Bia's stale entry stays)") { try await listados() == 1 ? true : nil }
            // Wednesday 20:00: Ana gives up; Dora takes the place inside the reminder's lead (her
            // confirmation said the time). Nobody else is reminded, however many rounds.
            clock.advance(by: 3_540)
            try await desistir("ana")
            #expect(try await inscrever("dora") == "confirmada")
            _ = try await eventually("Dora listed") { try await listados() == 2 ? true : nil }
            #expect(try await notificacoes.enviarLembretesVencidos() == 0)
            clock.advance(by: 3_600)
            #expect(try await notificacoes.enviarLembretesVencidos() == 0)
            #expect(try lembretes().count == 2)
        }
    }
}
