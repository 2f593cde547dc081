import Domain
import EventStore
import Foundation
import HTTPTypes
import Projections
import Services
import Testing

/// The help desk (ADR 0018): a member opens a request to a unit's team; the team replies and
/// resolves it; the member is told, replies, reopens; nobody else sees it; bad input is refused
/// naming the field and writes nothing.
@Suite("Help desk requests")
struct ChamadosTests {
    @Test("Ana opens a request at Paulista; the team replies and resolves it; she is told, reopens it by writing; Dora sees nothing")
    func a_request_from_the_member_to_the_team() async throws {
        let clock = ManualClock(segundaDeManha)  // Monday 23/11 08:00 in São Paulo
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let ana = try #require(try await client.json(.get, "/api/auth/me", token: cenario.membro).object["id"] as? String)
            func pedido(
                unidade: String? = nil, categoria: String = "internet", assunto: String? = "Wi-Fi caiu",
                descricao: String? = "A rede da sala 3 não conecta desde as 8h"
            ) -> String {
                let extras = [assunto.map { #""assunto":"\#($0)""# }, descricao.map { #""descricao":"\#($0)""# }].compactMap { $0 }
                return #"{"unidadeId":"\#(unidade ?? cenario.unidade)","categoria":"\#(categoria)""# + extras.map { "," + $0 }.joined() + "}"
            }
            func chamados() async throws -> Int { try await harness.allEvents().filter { $0.stream.category == "chamado" }.count }

            // Bad input names the field and writes nothing; signed out is a 401.
            for (corpo, campo) in [
                (pedido(unidade: "00000000-0000-4000-8000-000000000009"), "unidadeId"), (pedido(unidade: "x"), "unidadeId"),
                (pedido(categoria: "cafe"), "categoria"), (pedido(assunto: nil), "assunto"), (pedido(assunto: "   "), "assunto"),
                (pedido(assunto: String(repeating: "A", count: 121)), "assunto"), (pedido(assunto: "pii:v1:x"), "assunto"),
                (pedido(descricao: nil), "descricao"), (pedido(descricao: String(repeating: "b", count: 2_001)), "descricao"),
            ] {
                let recusado = try await client.json(.post, "/api/chamados", corpo, token: cenario.membro)
                #expect(recusado.status == .unprocessableContent, "\(corpo): \(String(buffer: recusado.body))")
                #expect((recusado.object["detalhes"] as? [String: Any])?["campo"] as? String == campo, "\(corpo)")
            }
            #expect(try await client.json(.post, "/api/chamados", pedido()).status == .unauthorized)
            #expect(try await chamados() == 0)

            // Ana opens one; the same request retried (same key) is the same request.
            let chave: HTTPFields = [.init("Idempotency-Key")!: "chamado-1"]
            let aberto = try await client.json(.post, "/api/chamados", pedido(), token: cenario.membro, headers: chave)
            #expect(aberto.status == .created, "\(String(buffer: aberto.body))")
            let id = try #require(aberto.object["id"] as? String)
            #expect(aberto.object["situacao"] as? String == "aberto" && aberto.object["aguardando"] as? String == "equipe")
            #expect(aberto.object["assunto"] as? String == "Wi-Fi caiu" && aberto.object["autor"] as? String != nil)
            #expect(try await client.json(.post, "/api/chamados", pedido(), token: cenario.membro, headers: chave).object["id"] as? String == id)
            #expect(try await chamados() == 1)
            // The same key with another request is refused, at the edge and in the service.
            let outro = try await client.json(.post, "/api/chamados", pedido(categoria: "limpeza"), token: cenario.membro, headers: chave)
            #expect(outro.status == .unprocessableContent && outro.erro == "chave_de_idempotencia_reutilizada")
            let checkin = harness.backend.negocio.checkin
            let semChave = Caller(requestId: "teste", usuario: ana, papel: "membro", idempotencyKey: "\(ana)|chamado-1")
            func abrir(_ categoria: String) async throws -> ChamadoView {
                try await checkin.abrirChamado(
                    try JSONDecoder().decode(CheckinService.PedidoDeChamado.self, from: Data(pedido(categoria: categoria).utf8)), caller: semChave)
            }
            #expect(try await abrir("internet").id == id)
            await #expect(throws: ServiceError.self) { try await abrir("limpeza") }
            #expect(try await chamados() == 1)
            // The texts are sealed under Ana's key in the log.
            let gravado = try #require(try await harness.allEvents().first { $0.type == Chamado.Catalogo.aberto.type })
            let noLog = String(decoding: gravado.data, as: UTF8.self)
            #expect(!noLog.contains("Wi-Fi") && !noLog.contains("sala 3") && noLog.contains("pii:v1:\(ana)"))

            // The team's queue has it; Dora, another member, sees nothing of it and cannot write in it.
            func daUnidade(_ situacao: String? = nil) async throws -> [[String: Any]] {
                let query = situacao.map { "&situacao=\($0)" } ?? ""
                let lista = try await client.json(.get, "/api/admin/chamados?unidade=\(cenario.unidade)\(query)", token: cenario.admin)
                #expect(lista.status == .ok, "\(String(buffer: lista.body))")
                return lista.object["itens"] as? [[String: Any]] ?? []
            }
            let fila = try await daUnidade()
            #expect(fila.map { $0["id"] as? String } == [id] && fila.first?["descricao"] as? String == "A rede da sala 3 não conecta desde as 8h")
            #expect(try await client.json(.get, "/api/admin/chamados?unidade=\(cenario.unidade)", token: cenario.membro).status == .forbidden)
            #expect(try await client.register("dora@example.com", nome: "Dora").status == .created)
            let dora = try await client.token("dora@example.com")
            let delaDora = try await client.json(.get, "/api/chamados", token: dora).object
            #expect((delaDora["abertos"] as? [Any])?.isEmpty == true && (delaDora["resolvidos"] as? [Any])?.isEmpty == true)
            #expect(try await client.json(.get, "/api/chamados/\(id)", token: dora).status == .notFound)
            #expect(try await client.json(.post, "/api/chamados/\(id)/mensagens", #"{"texto":"oi"}"#, token: dora).status == .notFound)
            #expect(try await client.json(.post, "/api/chamados/\(id)/resolucao", token: dora).status == .notFound)
            #expect(try await client.json(.get, "/api/chamados/nada", token: cenario.membro).status == .notFound)

            // The team replies; Ana is told (the stored notice says where, the e-mail has the reply).
            clock.advance(by: 600)
            let vazia = try await client.json(.post, "/api/chamados/\(id)/mensagens", #"{"texto":"  "}"#, token: cenario.admin)
            #expect(vazia.status == .unprocessableContent && (vazia.object["detalhes"] as? [String: Any])?["campo"] as? String == "texto")
            let resposta = try await client.json(
                .post, "/api/chamados/\(id)/mensagens", #"{"texto":"Reiniciamos o roteador, pode testar?"}"#, token: cenario.admin)
            #expect(resposta.status == .ok, "\(String(buffer: resposta.body))")
            #expect(resposta.object["aguardando"] as? String == "membro")
            let mensagens = resposta.object["mensagens"] as? [[String: Any]] ?? []
            #expect(mensagens.map { $0["daEquipe"] as? Bool } == [true])
            #expect(mensagens.first?["texto"] as? String == "Reiniciamos o roteador, pode testar?")
            let aviso = try await eventually("Ana's notice of the reply") {
                let caixa = try await client.json(.get, "/api/notificacoes", token: cenario.membro).object["itens"] as? [[String: Any]]
                return caixa?.first { $0["tipo"] as? String == "chamado" }
            }
            #expect(aviso["titulo"] as? String == "Resposta ao seu chamado na Paulista")
            #expect((aviso["texto"] as? String)?.contains("roteador") == false)
            let email = try await eventually("Ana's e-mail") { try harness.emails().first { $0.subject == "Resposta ao seu chamado na Paulista" } }
            #expect(email.text?.contains("Reiniciamos o roteador, pode testar?") == true)
            let respondido = try #require(try await harness.allEvents().first { $0.type == Chamado.Catalogo.respondido.type })
            #expect(!String(decoding: respondido.data, as: UTF8.self).contains("roteador"))

            // Ana writes back (no notice for her own message), then the team resolves it (twice is one).
            clock.advance(by: 600)
            let volta = try await client.json(.post, "/api/chamados/\(id)/mensagens", #"{"texto":"Ainda cai às vezes"}"#, token: cenario.membro)
            #expect(volta.status == .ok && volta.object["aguardando"] as? String == "equipe")
            let resolvido = try await client.json(.post, "/api/chamados/\(id)/resolucao", token: cenario.admin)
            #expect(resolvido.status == .ok && resolvido.object["situacao"] as? String == "resolvido" && resolvido.object["aguardando"] == nil)
            #expect(try await client.json(.post, "/api/chamados/\(id)/resolucao", token: cenario.admin).status == .ok)
            _ = try await eventually("Ana's notice of the resolution") {
                let caixa = try await client.json(.get, "/api/notificacoes", token: cenario.membro).object["itens"] as? [[String: Any]]
                return caixa?.first { $0["titulo"] as? String == "Chamado resolvido na Paulista" }
            }
            let naoMais = try await client.json(.post, "/api/chamados/\(id)/mensagens", #"{"texto":"mais algo"}"#, token: cenario.admin)
            #expect(naoMais.status == .conflict && naoMais.erro == "chamado_resolvido")
            #expect(try await daUnidade().isEmpty)
            let delaAna = try await client.json(.get, "/api/chamados", token: cenario.membro).object
            #expect((delaAna["abertos"] as? [Any])?.isEmpty == true)
            #expect((delaAna["resolvidos"] as? [[String: Any]])?.map { $0["id"] as? String } == [id])

            // Ana's message on the resolved request opens it again, and it is back in the queue.
            clock.advance(by: 3_600)
            let reaberto = try await client.json(.post, "/api/chamados/\(id)/mensagens", #"{"texto":"Caiu de novo"}"#, token: cenario.membro)
            #expect(reaberto.status == .ok && reaberto.object["situacao"] as? String == "aberto")
            #expect(reaberto.object["aguardando"] as? String == "equipe" && reaberto.object["resolvidoEm"] == nil)
            #expect((reaberto.object["mensagens"] as? [Any])?.count == 3)
            #expect(try await daUnidade().map { $0["id"] as? String } == [id])
            // Ana resolves it herself: no notice for that.
            #expect(try await client.json(.post, "/api/chamados/\(id)/resolucao", token: cenario.membro).status == .ok)
            #expect(try await daUnidade("todos").map { $0["situacao"] as? String } == ["resolvido"])
            #expect(
                try await client.json(.get, "/api/admin/chamados?unidade=\(cenario.unidade)&situacao=x", token: cenario.admin).status
                    == .badRequest)
            let caixa = try await client.json(.get, "/api/notificacoes", token: cenario.membro).object["itens"] as? [[String: Any]] ?? []
            #expect(caixa.filter { $0["tipo"] as? String == "chamado" }.count == 2)

            // Ana's data export lists the request's events (they name her), with her texts opened.
            let atividade = try await client.json(.get, "/api/auth/me/dados", token: cenario.membro).object["atividade"] as? [[String: Any]] ?? []
            let abertura = atividade.first { $0["tipo"] as? String == "ChamadoAberto" }?["dados"] as? [String: Any]
            #expect(
                abertura?["assunto"] as? String == "Wi-Fi caiu" && abertura?["descricao"] as? String == "A rede da sala 3 não conecta desde as 8h")
            #expect(
                atividade.filter { ($0["stream"] as? String)?.hasPrefix("chamado-") == true }.map { $0["tipo"] as? String }
                    == [
                        "ChamadoAberto", "ChamadoRespondido", "ChamadoRespondido", "ChamadoResolvido", "ChamadoReaberto", "ChamadoRespondido",
                        "ChamadoResolvido",
                    ])
        }
    }

    @Test("a member has at most ten open requests (409 chamados_abertos_demais); resolving one makes room")
    func ten_open_requests_at_most() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let corpo = #"{"unidadeId":"\#(cenario.unidade)","categoria":"limpeza","assunto":"Lixo","descricao":"Cheio"}"#
            var ids: [String] = []
            for _ in 0..<CheckinService.chamadosAbertosMaximos {
                let aberto = try await client.json(.post, "/api/chamados", corpo, token: cenario.membro)
                #expect(aberto.status == .created)
                ids.append(try #require(aberto.object["id"] as? String))
            }
            let demais = try await client.json(.post, "/api/chamados", corpo, token: cenario.membro)
            #expect(demais.status == .conflict && demais.erro == "chamados_abertos_demais")
            #expect(try await client.json(.post, "/api/chamados/\(ids[0])/resolucao", token: cenario.membro).status == .ok)
            #expect(try await client.json(.post, "/api/chamados", corpo, token: cenario.membro).status == .created)
            // Reopening a resolved one by writing in it counts as opening one.
            #expect(try await client.json(.post, "/api/chamados/\(ids[1])/resolucao", token: cenario.membro).status == .ok)
            #expect(try await client.json(.post, "/api/chamados", corpo, token: cenario.membro).status == .created)
            let reaberto = try await client.json(.post, "/api/chamados/\(ids[1])/mensagens", #"{"texto":"voltou"}"#, token: cenario.membro)
            #expect(reaberto.status == .conflict && reaberto.erro == "chamados_abertos_demais")
            // The team still writes in an open one, whatever the member's count; its message sent
            // again under its key, once the edge's kept answer is gone, is the same message.
            let adminId = try #require(try await client.json(.get, "/api/auth/me", token: cenario.admin).object["id"] as? String)
            let semChave = Caller(requestId: "teste", usuario: adminId, papel: "admin", idempotencyKey: "\(adminId)|resposta-1")
            let mensagem = try JSONDecoder().decode(CheckinService.MensagemDeChamado.self, from: Data(#"{"texto":"já vamos"}"#.utf8))
            let checkin = harness.backend.negocio.checkin
            #expect(try await checkin.responderChamado(ids[2], mensagem, caller: semChave).mensagens.count == 1)
            #expect(try await checkin.responderChamado(ids[2], mensagem, caller: semChave).mensagens.count == 1)
            let outraChave = Caller(requestId: "teste", usuario: adminId, papel: "admin", idempotencyKey: "\(adminId)|resposta-2")
            #expect(try await checkin.responderChamado(ids[2], mensagem, caller: outraChave).mensagens.count == 2)
        }
    }

    @Test("an erased member's open request leaves the team's queue and takes no reply; its texts read as erased, the list still reads")
    func an_erased_members_request() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let corpo = #"{"unidadeId":"\#(cenario.unidade)","categoria":"impressao","assunto":"Sem papel","descricao":"A do 2º andar"}"#
            let id = try #require(try await client.json(.post, "/api/chamados", corpo, token: cenario.membro).object["id"] as? String)
            #expect(try await client.json(.post, "/api/chamados/\(id)/mensagens", #"{"texto":"Vamos repor"}"#, token: cenario.admin).status == .ok)
            #expect(try await client.json(.delete, "/api/auth/me", token: cenario.membro).status == .noContent)
            let lista = "/api/admin/chamados?unidade=\(cenario.unidade)"
            _ = try await eventually("the request leaves the queue") {
                let itens = try await client.json(.get, lista, token: cenario.admin).object["itens"] as? [Any]
                return itens?.isEmpty == true ? true : nil
            }
            let resposta = try await client.json(.post, "/api/chamados/\(id)/mensagens", #"{"texto":"Reposto"}"#, token: cenario.admin)
            #expect(resposta.status == .conflict && resposta.erro == "chamado_autor_apagado", "\(String(buffer: resposta.body))")
            let todos = try await client.json(.get, lista + "&situacao=todos", token: cenario.admin)
            #expect(todos.status == .ok, "\(String(buffer: todos.body))")
            let item = (todos.object["itens"] as? [[String: Any]])?.first
            #expect(item?["situacao"] as? String == "resolvido" && item?["resolvidoPor"] as? String == "system:lgpd")
            #expect(item?["assunto"] == nil && item?["descricao"] == nil && item?["autor"] == nil)
            #expect((item?["mensagens"] as? [[String: Any]])?.first?["texto"] == nil)
            #expect(try await client.json(.get, "/api/chamados/\(id)", token: cenario.admin).status == .ok)
        }
    }
}
