import Domain
import EventStore
import Foundation
import HTTPTypes
import Integrations
import Projections
import Services
import Testing

/// Mail and parcels at the front desk (ADR 0017): the desk registers what arrived for a member,
/// the member is told and sees it; the desk hands it over or cancels a registration made by
/// mistake; bad input is refused naming the field and writes nothing.
@Suite("Mail and parcels at the front desk")
struct EncomendasTests {
    @Test("the desk registers a parcel for Ana, who is told and sees it; it is handed over once; a letter registered by mistake is cancelled")
    func a_parcel_from_the_desk_to_the_member() async throws {
        let clock = ManualClock(segundaDeManha)  // Monday 23/11 08:00 in São Paulo
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let ana = try #require(try await client.json(.get, "/api/auth/me", token: cenario.membro).object["id"] as? String)
            func pedido(
                usuario: String? = nil, tipo: String = "pacote", remetente: String? = "Amazon", observacao: String? = "armário 3",
                unidade: String? = nil
            ) -> String {
                let extras = [remetente.map { #""remetente":"\#($0)""# }, observacao.map { #""observacao":"\#($0)""# }].compactMap { $0 }
                return #"{"unidadeId":"\#(unidade ?? cenario.unidade)","usuarioId":"\#(usuario ?? ana)","tipo":"\#(tipo)""#
                    + extras.map { "," + $0 }.joined() + "}"
            }
            func encomendas() async throws -> Int { try await harness.allEvents().filter { $0.stream.category == "encomenda" }.count }

            // Only the desk registers; bad input names the field and writes nothing.
            #expect(try await client.json(.post, "/api/admin/encomendas", pedido(), token: cenario.membro).status == .forbidden)
            #expect(try await client.register("caio@example.com", nome: "Caio").status == .created)
            let caio = try await client.token("caio@example.com")
            let caioId = try #require(try await client.json(.get, "/api/auth/me", token: caio).object["id"] as? String)
            #expect(try await client.json(.post, "/api/admin/usuarios/\(caioId)/desativacao", token: cenario.admin).status == .noContent)
            for (corpo, campo) in [
                (pedido(unidade: "00000000-0000-4000-8000-000000000009"), "unidadeId"),
                (pedido(usuario: "00000000-0000-4000-8000-000000000009"), "usuarioId"), (pedido(usuario: caioId), "usuarioId"),
                (pedido(usuario: "ninguém"), "usuarioId"), (pedido(tipo: "caixa"), "tipo"),
                (pedido(remetente: String(repeating: "A", count: 121)), "remetente"),
                (pedido(observacao: String(repeating: "b", count: 501)), "observacao"),
                (#"{"usuarioId":"\#(ana)","tipo":"carta"}"#, "unidadeId"),
            ] {
                let recusado = try await client.json(.post, "/api/admin/encomendas", corpo, token: cenario.admin)
                #expect(recusado.status == .unprocessableContent, "\(corpo): \(String(buffer: recusado.body))")
                #expect((recusado.object["detalhes"] as? [String: Any])?["campo"] as? String == campo, "\(corpo)")
            }
            #expect(try await encomendas() == 0)

            // A parcel for Ana; the same request retried (same key) is the same parcel.
            let chave: HTTPFields = [.init("Idempotency-Key")!: "pacote-1"]
            let criada = try await client.json(.post, "/api/admin/encomendas", pedido(), token: cenario.admin, headers: chave)
            #expect(criada.status == .created, "\(String(buffer: criada.body))")
            let id = try #require(criada.object["id"] as? String)
            #expect(criada.object["situacao"] as? String == "aguardando" && criada.object["usuarioId"] as? String == ana)
            #expect(criada.object["remetente"] as? String == "Amazon" && criada.object["observacao"] as? String == "armário 3")
            let repetida = try await client.json(.post, "/api/admin/encomendas", pedido(), token: cenario.admin, headers: chave)
            #expect(repetida.object["id"] as? String == id)
            #expect(try await encomendas() == 1)

            // Ana is told (inbox and e-mail) and sees it; Caio sees nothing of hers.
            let aviso = try await eventually("Ana's notice") {
                let caixa = try await client.json(.get, "/api/notificacoes", token: cenario.membro).object["itens"] as? [[String: Any]]
                return caixa?.first { $0["tipo"] as? String == "correspondencia" }
            }
            #expect(aviso["titulo"] as? String == "Correspondência na recepção da Paulista")
            // The stored notice names neither the sender nor the note (sealed under Ana's key);
            // the e-mail, opened when sent, gives both.
            #expect(aviso["texto"] as? String == "Um pacote chegou para você e está na recepção da Paulista. Retire quando vier.")
            let email = try await eventually("Ana's e-mail") {
                try harness.emails().first { $0.subject == "Correspondência na recepção da Paulista" }
            }
            #expect(email.text?.contains("Remetente: Amazon.") == true && email.text?.contains("Observação da recepção: armário 3.") == true)
            let gravada = try #require(try await harness.allEvents().first { $0.type == Encomenda.Catalogo.registrada.type })
            let noLog = String(decoding: gravada.data, as: UTF8.self)
            #expect(!noLog.contains("Amazon") && !noLog.contains("armário") && noLog.contains("pii:v1:\(ana)"))
            // The key sent again with another parcel is refused (the edge's check, and the
            // service's own, which a lost request key would leave alone).
            let outra = try await client.json(.post, "/api/admin/encomendas", pedido(tipo: "carta"), token: cenario.admin, headers: chave)
            #expect(outra.status == .unprocessableContent && outra.erro == "chave_de_idempotencia_reutilizada")
            let adminId = try #require(try await client.json(.get, "/api/auth/me", token: cenario.admin).object["id"] as? String)
            let checkin = harness.backend.negocio.checkin
            let semChave = Caller(requestId: "teste", usuario: adminId, papel: "admin", idempotencyKey: "\(adminId)|pacote-1")
            func registrar(_ tipo: String) async throws -> EncomendaView {
                try await checkin.registrarEncomenda(
                    try JSONDecoder().decode(CheckinService.PedidoDeEncomenda.self, from: Data(pedido(tipo: tipo).utf8)), caller: semChave)
            }
            #expect(try await registrar("pacote").id == id)
            await #expect(throws: ServiceError.self) { try await registrar("carta") }
            #expect(try await encomendas() == 1)
            let minhas = try await client.json(.get, "/api/encomendas", token: cenario.membro).object
            #expect((minhas["aguardando"] as? [[String: Any]])?.map { $0["id"] as? String } == [id])
            #expect(try await client.register("dora@example.com", nome: "Dora").status == .created)
            let dora = try await client.token("dora@example.com")
            let delaDora = try await client.json(.get, "/api/encomendas", token: dora).object
            #expect((delaDora["aguardando"] as? [Any])?.isEmpty == true && (delaDora["anteriores"] as? [Any])?.isEmpty == true)
            #expect(try await client.json(.get, "/api/encomendas").status == .unauthorized)
            #expect(try await client.json(.post, "/api/admin/encomendas/\(id)/retirada", token: cenario.membro).status == .forbidden)
            #expect(try await client.json(.get, "/api/admin/encomendas?unidade=\(cenario.unidade)", token: cenario.membro).status == .forbidden)

            // A letter registered by mistake, an hour later: cancelled, then it cannot be handed over.
            clock.advance(by: 3_600)
            let carta = try await client.json(
                .post, "/api/admin/encomendas", pedido(tipo: "carta", remetente: nil, observacao: nil), token: cenario.admin)
            let cartaId = try #require(carta.object["id"] as? String)
            #expect(carta.object["remetente"] == nil && carta.object["observacao"] == nil)
            func daUnidade(_ situacao: String? = nil) async throws -> [String] {
                let query = situacao.map { "&situacao=\($0)" } ?? ""
                let lista = try await client.json(.get, "/api/admin/encomendas?unidade=\(cenario.unidade)\(query)", token: cenario.admin)
                #expect(lista.status == .ok, "\(String(buffer: lista.body))")
                return (lista.object["itens"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
            }
            #expect(try await daUnidade() == [id, cartaId], "what waits, oldest first")
            let cancelada = try await client.json(.post, "/api/admin/encomendas/\(cartaId)/cancelamento", token: cenario.admin)
            #expect(cancelada.status == .ok && cancelada.object["situacao"] as? String == "cancelada")
            // Ana, told of the letter, is told that nothing waits.
            _ = try await eventually("Ana's notice of the cancellation") {
                let caixa = try await client.json(.get, "/api/notificacoes", token: cenario.membro).object["itens"] as? [[String: Any]]
                return caixa?.first { $0["titulo"] as? String == "Correspondência: aviso cancelado" }
            }
            #expect(try await client.json(.post, "/api/admin/encomendas/\(cartaId)/cancelamento", token: cenario.admin).status == .ok)
            let naoEntregue = try await client.json(.post, "/api/admin/encomendas/\(cartaId)/retirada", token: cenario.admin)
            #expect(naoEntregue.status == .conflict && naoEntregue.erro == "encomenda_cancelada")

            // The parcel is handed over, once.
            clock.advance(by: 3_600)
            let entregue = try await client.json(.post, "/api/admin/encomendas/\(id)/retirada", token: cenario.admin)
            #expect(entregue.status == .ok && entregue.object["situacao"] as? String == "retirada")
            #expect(entregue.object["retiradaEm"] as? String == "2026-11-23T13:00:00Z" && entregue.object["entreguePor"] as? String != nil)
            let outraVez = try await client.json(.post, "/api/admin/encomendas/\(id)/retirada", token: cenario.admin)
            #expect(outraVez.status == .conflict && outraVez.erro == "encomenda_retirada")
            #expect(
                try await client.json(.post, "/api/admin/encomendas/\(id)/cancelamento", token: cenario.admin).erro == "encomenda_retirada")
            #expect(try await client.json(.post, "/api/admin/encomendas/nada/retirada", token: cenario.admin).status == .notFound)

            // Nothing waits now; the desk's log and Ana's list have both, newest first.
            #expect(try await daUnidade().isEmpty)
            #expect(try await daUnidade("todas") == [cartaId, id])
            #expect(
                try await client.json(.get, "/api/admin/encomendas?unidade=\(cenario.unidade)&situacao=x", token: cenario.admin).status == .badRequest
            )
            let depois = try await client.json(.get, "/api/encomendas", token: cenario.membro).object
            #expect((depois["aguardando"] as? [Any])?.isEmpty == true)
            #expect((depois["anteriores"] as? [[String: Any]])?.map { $0["situacao"] as? String } == ["cancelada", "retirada"])

            // Ana's data export lists them (the events name her).
            let atividade = try await client.json(.get, "/api/auth/me/dados", token: cenario.membro).object["atividade"] as? [[String: Any]] ?? []
            #expect(
                atividade.filter { ($0["stream"] as? String)?.hasPrefix("encomenda-") == true }.map { $0["tipo"] as? String }
                    == ["EncomendaRegistrada", "EncomendaRegistrada", "EncomendaCancelada", "EncomendaRetirada"])
        }
    }

    @Test(
        "a parcel left waiting three days is remembered to its member once (inbox and e-mail, with the sender); none for one handed over or cancelled, nor before its day"
    )
    func the_reminder_of_a_parcel_left_waiting() async throws {
        let clock = ManualClock(segundaDeManha)  // Monday 23/11 08:00 in São Paulo
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let ana = try #require(try await client.json(.get, "/api/auth/me", token: cenario.membro).object["id"] as? String)
            #expect(try await client.register("bia@example.com", nome: "Bia Reis").status == .created)
            let biaToken = try await client.token("bia@example.com")
            let bia = try #require(try await client.json(.get, "/api/auth/me", token: biaToken).object["id"] as? String)
            func registrar(_ usuario: String, _ tipo: String, remetente: String = "Correios") async throws -> String {
                let corpo = #"{"unidadeId":"\#(cenario.unidade)","usuarioId":"\#(usuario)","tipo":"\#(tipo)","remetente":"\#(remetente)"}"#
                let criada = try await client.json(.post, "/api/admin/encomendas", corpo, token: cenario.admin)
                #expect(criada.status == .created, "\(String(buffer: criada.body))")
                return criada.object["id"] as? String ?? ""
            }
            // Monday 08:00: a parcel for Ana, a letter handed over the same day, another cancelled.
            _ = try await registrar(ana, "pacote", remetente: "Amazon")
            let entregue = try await registrar(ana, "carta")
            let engano = try await registrar(ana, "outro")
            #expect(try await client.json(.post, "/api/admin/encomendas/\(entregue)/retirada", token: cenario.admin).status == .ok)
            #expect(try await client.json(.post, "/api/admin/encomendas/\(engano)/cancelamento", token: cenario.admin).status == .ok)
            // Tuesday 08:00: a letter for Bia.
            clock.advance(by: 86_400)
            _ = try await registrar(bia, "carta")
            let esperando = NotificacoesReadModel.correspondenciaAguardando
            func naLista() async throws -> Int { try await harness.store.count(NotificacoesReadModel.lembretes, grupo: esperando) }
            _ = try await eventually("the two waiting on the list") { try await naLista() == 2 ? true : nil }
            // A list that has not caught up with the letter's hand-over: the timer reads the item itself.
            let atrasada = LembreteDeCorrespondenciaView(encomendaId: entregue, usuarioId: ana, registradaEm: segundaDeManha)
            try await harness.store.commit(
                [
                    ReadModelChange(
                        collection: NotificacoesReadModel.lembretes, key: "correspondencia-atrasada", grupo: esperando,
                        ordem: ISO8601DateFormatter().string(from: segundaDeManha), doc: try ReadModelJSON.encoder.encode(atrasada))
                ], checkpoint: "teste-atrasada", at: .start)
            let notificacoes = harness.backend.negocio.notificacoes
            func lembretes() throws -> [ParsedEmail] { try harness.emails().filter { $0.subject?.hasPrefix("Lembrete: correspondência") == true } }

            clock.advance(by: 2 * 86_400 - 60)  // Thursday 07:59: not three days yet
            #expect(try await notificacoes.enviarLembretesDeCorrespondencia() == 0)
            clock.advance(by: 120)  // Thursday 08:01: Ana's parcel
            #expect(try await notificacoes.enviarLembretesDeCorrespondencia() == 1)
            let email = try await eventually("Ana's reminder") { try lembretes().first }
            #expect(email.subject == "Lembrete: correspondência esperando na recepção da Paulista")
            #expect(email.headers.first { $0.name.lowercased() == "to" }?.value.contains("ana@example.com") == true)
            let texto = "Um pacote chegou para você em 23/11/2026 às 08:00 e ainda está na recepção da Paulista. Retire quando vier."
            #expect(email.text?.contains(texto) == true && email.text?.contains("Remetente: Amazon.") == true, "\(email.text ?? "")")
            let aviso = try await eventually("Ana's inbox") {
                let caixa = try await client.json(.get, "/api/notificacoes", token: cenario.membro).object["itens"] as? [[String: Any]]
                return caixa?.first { ($0["titulo"] as? String)?.hasPrefix("Lembrete: correspondência") == true }
            }
            #expect(aviso["tipo"] as? String == "correspondencia" && aviso["texto"] as? String == texto)
            // Once: the notice ends its entry, and another round sends nothing.
            _ = try await eventually("Ana's parcel off the list") { try await naLista() == 2 ? true : nil }
            #expect(try await notificacoes.enviarLembretesDeCorrespondencia() == 0)

            clock.advance(by: 86_400)  // Friday 08:01: Bia's letter
            #expect(try await notificacoes.enviarLembretesDeCorrespondencia() == 1)
            _ = try await eventually("Bia's reminder") {
                try lembretes().first { $0.headers.first { $0.name.lowercased() == "to" }?.value.contains("bia@example.com") == true }
            }
            _ = try await eventually("only the stale entry left") { try await naLista() == 1 ? true : nil }
            clock.advance(by: 7 * 86_400)
            #expect(try await notificacoes.enviarLembretesDeCorrespondencia() == 0)
            #expect(try lembretes().count == 2)
        }
    }
}
