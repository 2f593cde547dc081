import Domain
import Foundation
import Hummingbird
import HummingbirdTesting
import Integrations
import Projections
import Services
import Synchronization
import Testing

/// Plans and subscriptions through the API: an operator's plans and versions, a member's
/// subscription with its prorated first cycle, the cycle's credits and discount, the renewal
/// timer with roll-over, scheduled changes, upgrades.
@Suite("Plans and subscriptions: plans, versions, subscribing, cycles, credits, changes")
struct AssinaturasTests {
    static let flex =
        #"{"nome":"Flex","periodicidade":"mensal","valorCentavos":30000,"adesaoCentavos":10000,"horasMinutos":600,"tiposDasHoras":["sala_reuniao"],"#
        + #""rolloverBP":5000,"diasDeAcesso":["segunda","terca","quarta","quinta","sexta"],"descontoBP":1000}"#

    func membroId(_ client: any TestClientProtocol, _ token: String) async throws -> String {
        try #require(try await client.json(.get, "/api/auth/me", token: token).object["id"] as? String)
    }

    /// The member's subscription once `probe` holds of it (its read model follows the charges' notices).
    func assinatura(
        _ client: any TestClientProtocol, _ token: String, _ what: String, _ probe: @escaping ([String: Any]) -> Bool
    ) async throws -> [String: Any] {
        try await eventually(what) {
            let resposta = try await client.json(.get, "/api/assinatura", token: token)
            return probe(resposta.object) ? resposta.object : nil
        }
    }

    func criarPlano(_ client: any TestClientProtocol, _ corpo: String, token: String) async throws -> String {
        let resposta = try await client.json(.post, "/api/admin/planos", corpo, token: token)
        #expect(resposta.status == .created, "\(String(buffer: resposta.body))")
        return try #require(resposta.object["planoId"] as? String)
    }

    @Test(
        "a network-wide plan or bundle is refused while the network has no unit to invoice it (422 naming unidadeId, nothing written); once one exists it is sold"
    )
    func network_sales_need_a_unit() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let caller = Caller(requestId: "test")
            let root = try await harness.backend.usuarios.registrar(nome: "Root", email: "root@example.com", senha: "segredo-123", context: caller)
            try await harness.backend.usuarios.promover(usuario: root.id, context: caller)
            let admin = try await client.token("root@example.com")
            let antes = try await harness.allEvents().count
            for (caminho, corpo) in [("/api/admin/planos", Self.flex), ("/api/admin/pacotes", PacotesTests.dezHoras)] {
                let resposta = try await client.json(.post, caminho, corpo, token: admin)
                #expect(resposta.status == .unprocessableContent, "\(caminho): \(String(buffer: resposta.body))")
                #expect((resposta.object["detalhes"] as? [String: Any])?["campo"] as? String == "unidadeId", "\(String(buffer: resposta.body))")
                #expect((resposta.object["mensagem"] as? String)?.contains("cadastre uma") == true, "\(String(buffer: resposta.body))")
            }
            #expect(try await harness.allEvents().count == antes, "nothing written")
            // The network's first unit invoices what the network sells: then both are sold.
            let unidade = try await client.json(
                .post, "/api/admin/unidades",
                #"{"nome":"Paulista","endereco":{"logradouro":"Av. Paulista","numero":"1000","cidade":"São Paulo","uf":"sp","cep":"01310-100"}}"#,
                token: admin)
            #expect(unidade.status == .created, "\(String(buffer: unidade.body))")
            _ = try await criarPlano(client, Self.flex, token: admin)
            #expect(try await client.json(.post, "/api/admin/pacotes", PacotesTests.dezHoras, token: admin).status == .created)
        }
    }

    @Test("an operator creates, revises and archives plans; bad input is a 4xx naming the field and writes nothing; members see those on sale")
    func plans() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let antes = try await harness.allEvents().count
            let recusados: [(String, String)] = [
                (#"{"periodicidade":"mensal","valorCentavos":100}"#, "nome"),
                (#"{"nome":"X","periodicidade":"semanal","valorCentavos":100}"#, "periodicidade"),
                (#"{"nome":"X","periodicidade":"mensal","valorCentavos":-1}"#, "valorCentavos"),
                (#"{"nome":"X","periodicidade":"mensal","valorCentavos":100000001}"#, "valorCentavos"),
                (#"{"nome":"X","periodicidade":"mensal","valorCentavos":100,"rolloverBP":10001}"#, "rolloverBP"),
                (#"{"nome":"X","periodicidade":"mensal","valorCentavos":100,"horasMinutos":600001}"#, "horasMinutos"),
                (#"{"nome":"X","periodicidade":"mensal","valorCentavos":100,"tiposDasHoras":["sala_de_jogos"]}"#, "tiposDasHoras"),
                (#"{"nome":"X","periodicidade":"mensal","valorCentavos":100,"diasDeAcesso":["feriado"]}"#, "diasDeAcesso"),
                (#"{"nome":"X","periodicidade":"mensal","valorCentavos":100,"unidadeId":"\#(UUID())"}"#, "unidadeId"),
                (#"{"nome":"X","periodicidade":"mensal","valorCentavos":100,"vigenteDesde":"2026-01-01"}"#, "vigenteDesde"),
                (#"{"nome":"  ","periodicidade":"mensal","valorCentavos":100}"#, "nome"),
            ]
            for (corpo, campo) in recusados {
                let resposta = try await client.json(.post, "/api/admin/planos", corpo, token: cenario.admin)
                let texto = String(buffer: resposta.body)
                #expect(resposta.status == .unprocessableContent || resposta.status == .badRequest, "\(corpo): \(texto)")
                #expect(texto.contains(campo), "\(corpo): \(texto)")
            }
            #expect(try await client.json(.post, "/api/admin/planos", Self.flex, token: cenario.membro).status == .forbidden)
            #expect(try await harness.allEvents().count == antes)

            let flex = try await criarPlano(client, Self.flex, token: cenario.admin)
            // One name per plan on sale (case, accents and spaces aside): 409 naming nome, nothing written.
            let antesDoDuplicado = try await harness.allEvents().count
            let duplicado = try await client.json(
                .post, "/api/admin/planos", #"{"nome":"  FLÉX ","periodicidade":"anual","valorCentavos":300000}"#, token: cenario.admin)
            #expect(duplicado.status == .conflict && duplicado.object["erro"] as? String == "nome_em_uso", "\(String(buffer: duplicado.body))")
            #expect((duplicado.object["mensagem"] as? String)?.contains("nome") == true)
            #expect(try await harness.allEvents().count == antesDoDuplicado)
            // A version must start after the current one's date, in the future.
            let versoes = "/api/admin/planos/\(flex)/versoes"
            let sobreposta = try await client.json(
                .post, versoes, #"{"periodicidade":"mensal","valorCentavos":32000,"vigenteDesde":"2026-11-23"}"#, token: cenario.admin)
            #expect(sobreposta.status == .unprocessableContent && String(buffer: sobreposta.body).contains("vigenteDesde"))
            let revisado = try await client.json(
                .post, versoes, #"{"periodicidade":"mensal","valorCentavos":32000,"horasMinutos":600,"vigenteDesde":"2027-01-01"}"#,
                token: cenario.admin)
            #expect(revisado.status == .created && (revisado.object["versoes"] as? [Any])?.count == 2, "\(String(buffer: revisado.body))")
            let antigo = try await criarPlano(client, #"{"nome":"Antigo","periodicidade":"anual","valorCentavos":100000}"#, token: cenario.admin)
            #expect(try await client.json(.post, "/api/admin/planos/\(antigo)/arquivamento", "", token: cenario.admin).status == .ok)
            // An archived plan's name is free again; the new plan is another plan.
            let novoAntigo = try await criarPlano(client, #"{"nome":"Antigo","periodicidade":"anual","valorCentavos":120000}"#, token: cenario.admin)
            #expect(novoAntigo != antigo)
            #expect(try await client.json(.post, "/api/admin/planos/\(novoAntigo)/arquivamento", "", token: cenario.admin).status == .ok)
            // Anyone sees the plans on sale; the archived one only operators.
            let publicos = try #require(try await client.json(.get, "/api/planos").object["itens"] as? [[String: Any]])
            #expect(publicos.map { $0["nome"] as? String } == ["Flex"])
            let todos = try #require(try await client.json(.get, "/api/admin/planos", token: cenario.admin).object["itens"] as? [[String: Any]])
            #expect(Set(todos.compactMap { $0["nome"] as? String }) == ["Flex", "Antigo"])
            #expect(try await client.json(.get, "/api/planos/\(antigo)").status == .notFound)
            // An archived plan takes no subscription and no version.
            let recusada = try await client.json(.post, "/api/assinatura", #"{"planoId":"\#(antigo)","metodo":"boleto"}"#, token: cenario.membro)
            #expect(recusada.status == .unprocessableContent && String(buffer: recusada.body).contains("planoId"), "\(String(buffer: recusada.body))")
        }
    }

    @Test(
        "a member subscribes mid-month: the prorated first cycle's credits land in its append, its discount applies on the days it covers; the timer renews with roll-over; a cancellation ends it at the cycle's end"
    )
    func subscription_cycles() async throws {
        let clock = ManualClock(segundaDeManha)
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let membro = try await membroId(client, cenario.membro)
            let flex = try await criarPlano(client, Self.flex, token: cenario.admin)
            let recusados: [(String, String)] = [
                (#"{"planoId":"\#(flex)","metodo":"cheque"}"#, "metodo"),
                (#"{"planoId":"\#(flex)","metodo":"cartao"}"#, "cartaoToken"),
                (#"{"planoId":"\#(flex)","metodo":"boleto","inicio":"2026-11-01"}"#, "inicio"),
                (#"{"planoId":"\#(flex)","metodo":"boleto","inicio":"2027-06-01"}"#, "inicio"),
                (#"{"planoId":"\#(UUID())","metodo":"boleto"}"#, "planoId"),
            ]
            let antes = try await harness.allEvents().count
            for (corpo, campo) in recusados {
                let resposta = try await client.json(.post, "/api/assinatura", corpo, token: cenario.membro)
                #expect(resposta.status == .unprocessableContent, "\(corpo): \(String(buffer: resposta.body))")
                #expect(String(buffer: resposta.body).contains(campo), "\(corpo): \(String(buffer: resposta.body))")
            }
            #expect(try await harness.allEvents().count == antes)

            // Monday 23 November: 8 of November's 30 days, plus the setup fee.
            let assinada = try await client.json(.post, "/api/assinatura", #"{"planoId":"\#(flex)","metodo":"boleto"}"#, token: cenario.membro)
            #expect(assinada.status == .created, "\(String(buffer: assinada.body))")
            let ciclo = try #require(assinada.object["cicloAtual"] as? [String: Any])
            #expect(ciclo["valorCentavos"] as? Int == 8_000 + 10_000 && ciclo["minutos"] as? Int == 160 && ciclo["ate"] as? String == "2026-11-30")
            #expect(assinada.object["proximaCobranca"] as? String == "2026-12-01")
            #expect(
                try await client.json(.post, "/api/assinatura", #"{"planoId":"\#(flex)","metodo":"boleto"}"#, token: cenario.membro).status
                    == .conflict)
            // Its credits, granted in the same append as the cycle.
            #expect(try await client.json(.get, "/api/creditos", token: cenario.membro).object["minutos"] as? Int == 160)
            let eventos = try await harness.allEvents()
            let cicloIniciado = try #require(eventos.first { $0.type == Assinatura.Catalogo.cicloIniciado.type })
            let concedidos = try #require(eventos.first { $0.type == Carteira.Catalogo.concedidos.type })
            #expect(concedidos.position.transaction == cicloIniciado.position.transaction)
            // The plan's 10 % off on weekdays, not on Saturday.
            func linhas(_ inicio: String, _ fim: String) async throws -> [String] {
                let cotacao = try await client.json(
                    .post, "/api/precos/cotacao", #"{"espacoId":"\#(cenario.estacoes)","inicio":"\#(inicio)","fim":"\#(fim)"}"#, token: cenario.membro
                )
                return (cotacao.object["linhas"] as? [[String: Any]] ?? []).compactMap { $0["codigo"] as? String }
            }
            #expect(try await linhas("2026-11-25T10:00:00-03:00", "2026-11-25T11:00:00-03:00").contains("plano"))
            #expect(try await !linhas("2026-11-28T10:00:00-03:00", "2026-11-28T11:00:00-03:00").contains("plano"))
            // Nobody else acts on it; an operator may.
            #expect(try await client.register("bia@example.com").status == .created)
            let bia = try await client.token("bia@example.com")
            #expect(try await client.json(.post, "/api/admin/usuarios/\(membro)/assinatura/cancelar", "", token: bia).status == .forbidden)
            // Bia never subscribed: nothing, which is no error; a member who does not exist is one.
            let nenhuma = try await client.json(.get, "/api/assinatura", token: bia)
            #expect(nenhuma.status == .noContent && nenhuma.body.readableBytes == 0, "\(String(buffer: nenhuma.body))")
            let biaId = try await membroId(client, bia)
            #expect(try await client.json(.get, "/api/admin/usuarios/\(biaId)/assinatura", token: cenario.admin).status == .noContent)
            #expect(
                try await client.json(.get, "/api/admin/usuarios/\(UUID().uuidString.lowercased())/assinatura", token: cenario.admin).status
                    == .notFound)
            let paga = try await client.json(.post, "/api/admin/usuarios/\(membro)/assinatura/ciclos/1/pagamento", "", token: cenario.admin)
            #expect((paga.object["cicloAtual"] as? [String: Any])?["pago"] as? Bool == true, "\(String(buffer: paga.body))")

            // 1 December: a whole month, and the 160 unused minutes roll over (up to half of 600).
            let assinaturas = harness.backend.negocio.assinaturas
            #expect(try await assinaturas.renovarAssinaturas() == 0)
            clock.set(try Date("2026-12-01T00:05:00-03:00", strategy: .iso8601))
            #expect(try await assinaturas.renovarAssinaturas() == 1)
            await harness.backend.settle(upTo: nil, types: nil)
            let dezembro = try await client.json(.get, "/api/assinatura", token: cenario.membro)
            #expect((dezembro.object["cicloAtual"] as? [String: Any])?["valorCentavos"] as? Int == 30_000, "\(String(buffer: dezembro.body))")
            #expect((dezembro.object["ciclos"] as? [Any])?.count == 2)
            #expect(try await client.json(.get, "/api/creditos", token: cenario.membro).object["minutos"] as? Int == 760)
            #expect(try await assinaturas.renovarAssinaturas() == 0)

            // Cancelled: it runs to the end of December, then ends.
            let cancelada = try await client.json(.post, "/api/assinatura/cancelar", "", token: cenario.membro)
            #expect((cancelada.object["agendamento"] as? [String: Any])?["efeitoEm"] as? String == "2027-01-01")
            #expect(cancelada.object["proximaCobranca"] == nil)
            #expect(try await client.json(.post, "/api/assinatura/pausar", "", token: cenario.membro).status == .conflict)
            clock.set(try Date("2027-01-01T00:05:00-03:00", strategy: .iso8601))
            #expect(try await assinaturas.renovarAssinaturas() == 1)
            await harness.backend.settle(upTo: nil, types: nil)
            let fim = try await client.json(.get, "/api/assinatura", token: cenario.membro)
            #expect(fim.object["status"] as? String == "encerrada" && fim.object["motivoDoEncerramento"] as? String == "cancelamento")
            let lista = try await client.json(.get, "/api/admin/assinaturas?status=encerrada", token: cenario.admin)
            #expect(lista.object["total"] as? Int == 1, "\(String(buffer: lista.body))")
            // Filed under its status as it is now, not also under the one it had.
            #expect(try await client.json(.get, "/api/admin/assinaturas?status=ativa", token: cenario.admin).object["total"] as? Int == 0)
        }
    }

    @Test(
        "an upgrade applies now, granting the extra credits and charging the prorated difference with the next cycle; a downgrade waits for the cycle's end"
    )
    func plan_changes() async throws {
        let clock = ManualClock(segundaDeManha)
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let basico = try await criarPlano(
                client, #"{"nome":"Básico","periodicidade":"mensal","valorCentavos":15000,"horasMinutos":300}"#, token: cenario.admin)
            let pro = try await criarPlano(
                client, #"{"nome":"Pro","periodicidade":"mensal","valorCentavos":45000,"horasMinutos":1200}"#, token: cenario.admin)
            #expect(
                try await client.json(.post, "/api/assinatura", #"{"planoId":"\#(basico)","metodo":"pix_automatico"}"#, token: cenario.membro).status
                    == .created)
            // 8 of 30 days: 80 minutes of the basic plan.
            #expect(try await client.json(.get, "/api/creditos", token: cenario.membro).object["minutos"] as? Int == 80)
            let subiu = try await client.json(.post, "/api/assinatura/troca", #"{"planoId":"\#(pro)"}"#, token: cenario.membro)
            #expect((subiu.object["plano"] as? [String: Any])?["planoId"] as? String == pro, "\(String(buffer: subiu.body))")
            #expect(subiu.object["agendamento"] == nil)
            // (1200 − 300) × 8/30 = 240 more minutes; (450 − 150) × 8/30 = R$ 80,00, charged with the next cycle.
            #expect(try await client.json(.get, "/api/creditos", token: cenario.membro).object["minutos"] as? Int == 320)
            #expect(
                try await client.json(.post, "/api/assinatura/troca", #"{"planoId":"\#(pro)"}"#, token: cenario.membro).status
                    == .unprocessableContent)
            let desceu = try await client.json(.post, "/api/assinatura/troca", #"{"planoId":"\#(basico)"}"#, token: cenario.membro)
            let agendamento = try #require(desceu.object["agendamento"] as? [String: Any])
            #expect(agendamento["tipo"] as? String == "troca" && agendamento["efeitoEm"] as? String == "2026-12-01")
            #expect((desceu.object["plano"] as? [String: Any])?["planoId"] as? String == pro)
            clock.set(try Date("2026-12-01T00:05:00-03:00", strategy: .iso8601))
            #expect(try await harness.backend.negocio.assinaturas.renovarAssinaturas() == 1)
            await harness.backend.settle(upTo: nil, types: nil)
            let dezembro = try await client.json(.get, "/api/assinatura", token: cenario.membro)
            #expect((dezembro.object["plano"] as? [String: Any])?["planoId"] as? String == basico)
            // December's fee, plus November's upgrade difference (charged with the next cycle).
            let ciclo = try #require(dezembro.object["cicloAtual"] as? [String: Any])
            #expect(ciclo["valorCentavos"] as? Int == 15_000 + 8_000 && ciclo["trocasCentavos"] as? Int == 8_000)
        }
    }

    @Test(
        "each cycle is charged through the provider: a good card is paid; a declined one is retried on days 1, 3 and 7, then the subscription is suspended (no discount) until an operator records the payment"
    )
    func charges_and_dunning() async throws {
        let clock = ManualClock(segundaDeManha)
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let flex = try await criarPlano(client, Self.flex, token: cenario.admin)
            func assinatura(_ token: String, _ probe: @escaping ([String: Any]) -> Bool) async throws -> [String: Any] {
                try await self.assinatura(client, token, "the subscription as expected", probe)
            }
            // A good card: the first cycle's charge is made and paid through the sandbox's webhook.
            let assinada = try await client.json(
                .post, "/api/assinatura", #"{"planoId":"\#(flex)","metodo":"cartao","cartaoToken":"tok_visa"}"#, token: cenario.membro)
            #expect(assinada.status == .created, "\(String(buffer: assinada.body))")
            let paga = try await assinatura(cenario.membro) { ($0["cicloAtual"] as? [String: Any])?["pago"] as? Bool == true }
            #expect((paga["cobrancas"] as? [[String: Any]])?.first?["valorCentavos"] as? Int == 18_000)

            // A card the issuer declines.
            #expect(try await client.register("bia@example.com").status == .created)
            let bia = try await client.token("bia@example.com")
            #expect(
                try await client.json(
                    .post, "/api/assinatura", #"{"planoId":"\#(flex)","metodo":"cartao","cartaoToken":"tok_sandbox_recusado"}"#, token: bia
                ).status == .created)
            let assinaturas = harness.backend.negocio.assinaturas
            var inicio = segundaDeManha
            for (tentativa, dia) in [(1, 1), (2, 3), (3, 7)] {
                let recusada = try await assinatura(bia) { ($0["inadimplencia"] as? [String: Any])?["tentativas"] as? Int == tentativa }
                let proxima = try #require((recusada["inadimplencia"] as? [String: Any])?["proximaTentativa"] as? String)
                if tentativa == 1 { inicio = try Date(proxima, strategy: .iso8601).addingTimeInterval(-86_400) }
                #expect(try Date(proxima, strategy: .iso8601) == inicio.addingTimeInterval(TimeInterval(dia) * 86_400))
                #expect(recusada["status"] as? String == "ativa")
                // Not due yet: nothing is tried again.
                _ = try await assinaturas.renovarAssinaturas()
                await harness.backend.settle(upTo: nil, types: nil)
                #expect(
                    (try await client.json(.get, "/api/assinatura", token: bia).object["cobrancas"] as? [[String: Any]])?.first?["tentativa"] as? Int
                        == tentativa)
                clock.set(inicio.addingTimeInterval(TimeInterval(dia) * 86_400 + 60))
                #expect(try await assinaturas.renovarAssinaturas() == 1)
            }
            let suspensa = try await assinatura(bia) { $0["status"] as? String == "suspensa" }
            #expect((suspensa["inadimplencia"] as? [String: Any])?["tentativas"] as? Int == 4)
            #expect((suspensa["cobrancas"] as? [[String: Any]])?.first?["tentativa"] as? Int == 4)
            // Suspended: the plan's discount is gone.
            let cotacao = try await client.json(
                .post, "/api/precos/cotacao",
                #"{"espacoId":"\#(cenario.estacoes)","inicio":"2026-12-02T10:00:00-03:00","fim":"2026-12-02T11:00:00-03:00"}"#, token: bia)
            #expect(
                (cotacao.object["linhas"] as? [[String: Any]])?.contains { $0["codigo"] as? String == "plano" } == false,
                "\(String(buffer: cotacao.body))")
            // ... and so are the plan's credits: the meeting room is quoted at its price, and booked so.
            func linhasDaSala() async throws -> [String] {
                let cotacao = try await client.json(
                    .post, "/api/precos/cotacao",
                    #"{"espacoId":"\#(cenario.sala)","inicio":"2026-12-02T10:00:00-03:00","fim":"2026-12-02T11:00:00-03:00"}"#, token: bia)
                return (cotacao.object["linhas"] as? [[String: Any]] ?? []).compactMap { $0["codigo"] as? String }
            }
            #expect(try await client.json(.get, "/api/creditos", token: bia).object["minutos"] as? Int ?? 0 > 0)
            #expect(try await !linhasDaSala().contains("creditos:horas"))
            // Paid by transfer, recorded by an operator: active again.
            let biaId = try await membroId(client, bia)
            let reativada = try await client.json(.post, "/api/admin/usuarios/\(biaId)/assinatura/ciclos/1/pagamento", "", token: cenario.admin)
            #expect(reativada.object["status"] as? String == "ativa" && reativada.object["inadimplencia"] == nil, "\(String(buffer: reativada.body))")
            #expect(try await linhasDaSala().contains("creditos:horas"))
            // The member was told at each step, by e-mail.
            let assuntos = try await eventually("the dunning e-mails") {
                let assuntos = try harness.emails().map(\.subject)
                return assuntos.contains("Assinatura reativada") && assuntos.filter({ $0 == "Pagamento da assinatura recusado" }).count >= 4
                    ? assuntos : nil
            }
            #expect(assuntos.filter { $0 == "Pagamento da assinatura recusado" }.count == 4, "\(assuntos)")
            #expect(assuntos.contains("Assinatura suspensa por falta de pagamento") && assuntos.contains("Pagamento da assinatura recebido"))

            // Each paid cycle is invoiced in the plan's unit's book, with its lines, and booked in the ledger.
            func fatura(_ token: String) async throws -> [String: Any] {
                try await eventually("the cycle's invoice") {
                    let faturas = try await client.json(.get, "/api/faturas", token: token).object["itens"] as? [[String: Any]] ?? []
                    return faturas.first { $0["assinatura"] != nil }
                }
            }
            let doMembro = try await fatura(cenario.membro)
            let ciclo = try #require(doMembro["assinatura"] as? [String: Any])
            #expect(doMembro["valor"] as? Int == 18_000 && doMembro["metodo"] as? String == "cartao" && doMembro["status"] as? String == "paga")
            #expect(doMembro["tipoDeEspaco"] as? String == "plano" && doMembro["reservaId"] == nil && ciclo["ciclo"] as? Int == 1)
            #expect(doMembro["unidadeId"] as? String == cenario.unidade && doMembro["iss"] as? Int == 900)
            #expect((ciclo["itens"] as? [[String: Any]])?.compactMap { $0["valor"] as? Int }.reduce(0, +) == 18_000)
            let recibo = try await client.json(.get, "/api/faturas/\(try #require(doMembro["id"] as? String))/recibo", token: cenario.membro)
            #expect(recibo.status == .ok && recibo.object["espaco"] as? String == "Plano Flex", "\(String(buffer: recibo.body))")
            // Recorded by an operator: a manual payment.
            #expect(try await fatura(bia)["metodo"] as? String == "manual")
            let razao = try await client.json(.get, "/api/admin/financeiro/razao?unidade=\(cenario.unidade)", token: cenario.admin)
            let contas = try #require(razao.object["contas"] as? [[String: Any]], "\(String(buffer: razao.body))")
            #expect(contas.first { $0["conta"] as? String == "caixa" }?["saldo"] as? Int == 36_000)
        }
    }

    @Test(
        "after a decline the member changes the card: the failed cycle is charged again at once with it; suspended, a new card that is declined is recorded, a good one pays and reactivates; bad input is a 422 naming the field"
    )
    func card_update_after_a_decline() async throws {
        let clock = ManualClock(segundaDeManha)
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let flex = try await criarPlano(client, Self.flex, token: cenario.admin)
            func assinatura(_ token: String, _ what: String, _ probe: @escaping ([String: Any]) -> Bool) async throws -> [String: Any] {
                try await self.assinatura(client, token, what, probe)
            }
            func tentativas(_ view: [String: Any]) -> Int? { (view["inadimplencia"] as? [String: Any])?["tentativas"] as? Int }
            func cobrada(_ view: [String: Any]) -> Int? { (view["cobrancas"] as? [[String: Any]])?.first?["tentativa"] as? Int }
            let visa = #"{"metodo":"cartao","cartaoToken":"tok_visa"}"#
            #expect(
                try await client.json(
                    .post, "/api/assinatura", #"{"planoId":"\#(flex)","metodo":"cartao","cartaoToken":"tok_sandbox_recusado"}"#, token: cenario.membro
                )
                .status == .created)
            _ = try await assinatura(cenario.membro, "the first decline") { tentativas($0) == 1 }
            let membro = try await membroId(client, cenario.membro)
            func daAssinatura() async throws -> Int { try await harness.allEvents().filter { $0.stream.rawValue == "assinatura-\(membro)" }.count }
            let antes = try await daAssinatura()
            for (corpo, campo) in [
                (#"{"metodo":"cartao"}"#, "cartaoToken"), (#"{"metodo":"pix"}"#, "metodo"),
                (#"{"metodo":"boleto","cartaoToken":"tok_visa"}"#, "cartaoToken"),
            ] {
                let resposta = try await client.json(.put, "/api/assinatura/cobranca", corpo, token: cenario.membro)
                #expect(
                    resposta.status == .unprocessableContent && String(buffer: resposta.body).contains(campo),
                    "\(corpo): \(String(buffer: resposta.body))")
            }
            #expect(try await daAssinatura() == antes)
            #expect(try await client.register("bia@example.com").status == .created)
            let bia = try await client.token("bia@example.com")
            #expect(try await client.json(.put, "/api/assinatura/cobranca", visa, token: bia).status == .notFound)

            // A good card: the cycle is charged again at once (attempt 2) and paid.
            let trocada = try await client.json(.put, "/api/assinatura/cobranca", visa, token: cenario.membro)
            #expect(trocada.status == .ok && trocada.object["metodo"] as? String == "cartao", "\(String(buffer: trocada.body))")
            let paga = try await assinatura(cenario.membro, "paid with the new card") {
                ($0["cicloAtual"] as? [String: Any])?["pago"] as? Bool == true
            }
            #expect(paga["inadimplencia"] == nil && cobrada(paga) == 2 && paga["status"] as? String == "ativa", "\(paga)")

            // Caio's card is declined through every retry: suspended.
            #expect(try await client.register("caio@example.com").status == .created)
            let caio = try await client.token("caio@example.com")
            #expect(
                try await client.json(
                    .post, "/api/assinatura", #"{"planoId":"\#(flex)","metodo":"cartao","cartaoToken":"tok_sandbox_recusado"}"#, token: caio
                )
                .status == .created)
            let assinaturas = harness.backend.negocio.assinaturas
            var inicio = segundaDeManha
            for (tentativa, dia) in [(1, 1), (2, 3), (3, 7)] {
                let recusada = try await assinatura(caio, "decline \(tentativa)") { tentativas($0) == tentativa }
                let proxima = try #require((recusada["inadimplencia"] as? [String: Any])?["proximaTentativa"] as? String)
                if tentativa == 1 { inicio = try Date(proxima, strategy: .iso8601).addingTimeInterval(-86_400) }
                clock.set(inicio.addingTimeInterval(TimeInterval(dia) * 86_400 + 60))
                #expect(try await assinaturas.renovarAssinaturas() == 1)
            }
            _ = try await assinatura(caio, "suspended") { $0["status"] as? String == "suspensa" && tentativas($0) == 4 }
            // Another card the issuer declines: tried at once, the decline recorded; still suspended.
            #expect(
                try await client.json(.put, "/api/assinatura/cobranca", #"{"metodo":"cartao","cartaoToken":"tok_sandbox_sem_saldo"}"#, token: caio)
                    .status == .ok)
            let outra = try await assinatura(caio, "the new card's decline recorded") { tentativas($0) == 5 }
            #expect(outra["status"] as? String == "suspensa" && cobrada(outra) == 5, "\(outra)")
            // A good one: paid, active again.
            #expect(try await client.json(.put, "/api/assinatura/cobranca", visa, token: caio).status == .ok)
            let reativada = try await assinatura(caio, "reactivated") { $0["status"] as? String == "ativa" }
            #expect(reativada["inadimplencia"] == nil && cobrada(reativada) == 6, "\(reativada)")
            let assuntos = try await eventually("the reactivation e-mail") {
                let assuntos = try harness.emails().map(\.subject)
                return assuntos.contains("Assinatura reativada") ? assuntos : nil
            }
            #expect(assuntos.contains("Pagamento da assinatura recebido"))
            // The change is in the audit trail, as the member's.
            let trilha = try await client.json(.get, "/api/admin/auditoria?tipo=\(Assinatura.Catalogo.cobrancaAlterada.type)", token: cenario.admin)
            #expect((trilha.object["itens"] as? [[String: Any]])?.count == 3, "\(String(buffer: trilha.body))")
        }
    }

    @Test(
        "an operator records a cycle paid by transfer: its PIX at the provider is withdrawn; one the member paid there all the same, its notice not yet in, is refunded whole, once"
    )
    func manual_payment_withdraws_the_provider_charge() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let flex = try await criarPlano(client, Self.flex, token: cenario.admin)
            func pixDoCiclo(_ token: String) async throws -> String {
                try await eventually("the cycle's PIX") {
                    let view = try await client.json(.get, "/api/assinatura", token: token).object
                    return (view["cobrancas"] as? [[String: Any]])?.first?["cobrancaId"] as? String
                }
            }
            func baixa(_ token: String) async throws {
                let pago = try await client.json(
                    .post, "/api/admin/usuarios/\(try await membroId(client, token))/assinatura/ciclos/1/pagamento", "", token: cenario.admin)
                #expect((pago.object["cicloAtual"] as? [String: Any])?["pago"] as? Bool == true, "\(String(buffer: pago.body))")
            }
            let assinar = #"{"planoId":"\#(flex)","metodo":"pix_automatico"}"#
            #expect(try await client.json(.post, "/api/assinatura", assinar, token: cenario.membro).status == .created)
            let pix = try await pixDoCiclo(cenario.membro)
            // The cycle's PIX goes by e-mail, its code in it.
            let copiaECola = try #require(await harness.sandbox.cobranca(pix)?.pix?.copiaECola)
            let cobranca = try await eventually("the cycle's charge e-mail") {
                try harness.emails().first { $0.subject == "Cobrança da assinatura: ciclo 1" }
            }
            #expect(cobranca.text?.contains(copiaECola) == true, "\(cobranca.text ?? "")")
            // Paid by transfer: the PIX is withdrawn, and can no longer be paid.
            try await baixa(cenario.membro)
            _ = try await eventually("the PIX withdrawn") { await harness.sandbox.cobranca(pix)?.situacao == .cancelada ? true : nil }
            await #expect(throws: SandboxPSP.Falha.self) { try await harness.sandbox.pagar(pix) }

            // Bia pays her PIX, but its notice has not reached us when an operator records a transfer.
            let retidos = Retidos()
            await harness.sandbox.entregarPor { corpo, assinatura in
                await retidos.guardar(corpo, assinatura)
                return 200
            }
            #expect(try await client.register("bia@example.com").status == .created)
            let bia = try await client.token("bia@example.com")
            #expect(try await client.json(.post, "/api/assinatura", assinar, token: bia).status == .created)
            let pixDaBia = try await pixDoCiclo(bia)
            try await harness.sandbox.pagar(pixDaBia)
            try await baixa(bia)
            let biaId = try await membroId(client, bia)
            func devolvidos() async throws -> [Assinatura.PagamentoDuplicadoDevolvido] {
                try await harness.allEvents().filter {
                    $0.stream.rawValue == "assinatura-\(biaId)" && $0.type == Assinatura.Catalogo.duplicadoDevolvido.type
                }
                .map { try $0.decode(Assinatura.PagamentoDuplicadoDevolvido.self) }
            }
            let devolvido = try await eventually("the duplicate refunded") { try await devolvidos().first }
            #expect(devolvido.cobrancaId == pixDaBia && devolvido.valorCentavos == 18_000, "\(devolvido)")
            #expect(await harness.sandbox.cobranca(pixDaBia)?.reembolsos.values.reduce(.zero, +) == Money(centavos: 18_000))
            // The held notices arrive (the payment, then the refund): the payment changes nothing;
            // the refund's records that the provider paid it out, once.
            let pagamentos = harness.backend.negocio.pagamentos
            let avisos = try await eventually("both notices held") { await retidos.todos.count == 2 ? await retidos.todos : nil }
            var respostas: [PagamentosService.RespostaDoWebhook] = []
            for (corpo, assinatura) in avisos {
                respostas.append(try await pagamentos.receberAviso(corpo, assinatura: assinatura, caller: Caller(requestId: "atrasado")))
            }
            #expect(respostas.map(\.duplicado) == [true, false], "\(respostas)")
            await harness.backend.settle(upTo: nil, types: nil)
            #expect(try await devolvidos().count == 1)
            func concluidas() async throws -> Int {
                try await harness.allEvents().filter { $0.type == Assinatura.Catalogo.devolucaoConcluida.type }.count
            }
            #expect(try await concluidas() == 1)
            let view = try await client.json(.get, "/api/assinatura", token: bia).object
            let ciclo = try #require(view["cicloAtual"] as? [String: Any])
            #expect(ciclo["pago"] as? Bool == true && view["status"] as? String == "ativa")
            let devolucao = try #require((ciclo["devolucoes"] as? [[String: Any]])?.first, "\(ciclo)")
            #expect(devolucao["cobrancaId"] as? String == pixDaBia && devolucao["valorCentavos"] as? Int == 18_000, "\(devolucao)")
            #expect(devolucao["pedidaEm"] != nil && devolucao["concluidaEm"] != nil, "\(devolucao)")
            // The refund's notice again: a duplicate, nothing recorded.
            let (corpo, assinatura) = avisos[1]
            #expect(try await pagamentos.receberAviso(corpo, assinatura: assinatura, caller: Caller(requestId: "de-novo")).duplicado)
            #expect(try await concluidas() == 1)
            // Bia is told, once.
            let devolucoes = try await eventually("the refund's e-mail") {
                let achados = try harness.emails().filter { $0.subject == "Pagamento em duplicidade devolvido" }
                return achados.isEmpty ? nil : achados
            }
            #expect(devolucoes.count == 1 && devolucoes.first?.text?.contains("R$ 180,00") == true, "\(devolucoes.map { $0.text ?? "" })")
        }
    }

    @Test(
        "a duplicate payment's refund whose notice never arrives is concluded by asking the provider once it is overdue, once; a notice before the refund is recorded is asked again, one about another refund is refused"
    )
    func a_lost_duplicate_refund_notice_is_reconciled() async throws {
        let clock = ManualClock(segundaDeManha)
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let pagamentos = harness.backend.negocio.pagamentos
            let flex = try await criarPlano(client, Self.flex, token: cenario.admin)
            #expect(
                try await client.json(.post, "/api/assinatura", #"{"planoId":"\#(flex)","metodo":"pix_automatico"}"#, token: cenario.membro).status
                    == .created)
            let pix = try await eventually("the cycle's PIX") {
                let view = try await client.json(.get, "/api/assinatura", token: cenario.membro).object
                return (view["cobrancas"] as? [[String: Any]])?.first?["cobrancaId"] as? String
            }
            let membro = try await membroId(client, cenario.membro)
            // The webhook is down from here on: neither the payment's notice nor the refund's lands.
            let reembolsos = AvisosRecusados()
            await harness.sandbox.entregarPor { corpo, _ in
                if String(decoding: corpo, as: UTF8.self).contains("reembolso.concluido") { reembolsos.tentativas.add(1, ordering: .relaxed) }
                return 503
            }
            try await harness.sandbox.pagar(pix)
            let reembolsoId = PagamentosService.devolucaoId(cobrancaId: pix)
            func enviar(_ reembolso: UUID) async throws -> TestResponse {
                let aviso =
                    #"{"id":"evt_rf_\#(reembolso)","tipo":"reembolso.concluido","cobrancaId":"\#(pix)","referencia":"assinatura:\#(membro):1:1","valor":18000,"reembolsoId":"\#(reembolso)","criadoEm":"2026-11-23T11:00:00Z"}"#
                let (_, assinatura) = harness.aviso(aviso, em: clock.now)
                return try await client.json(.post, "/api/pagamentos/webhooks/sandbox", aviso, headers: [.init("X-Sandbox-Signature")!: assinatura])
            }
            // A refund notice before the refund is recorded: asked again later; about a refund never asked for: refused.
            let cedo = try await enviar(reembolsoId)
            #expect(cedo.status == .serviceUnavailable && cedo.erro == "ainda_nao_registrado", "\(String(buffer: cedo.body))")
            let outro = try await enviar(UUID())
            #expect(outro.status == .notFound, "\(String(buffer: outro.body))")

            // Paid by transfer meanwhile: the PIX paid at the provider is given back.
            let pago = try await client.json(.post, "/api/admin/usuarios/\(membro)/assinatura/ciclos/1/pagamento", "", token: cenario.admin)
            #expect(pago.status == .ok, "\(String(buffer: pago.body))")
            func eventos(_ kind: EventKind) async throws -> Int {
                try await harness.allEvents().filter { $0.stream.rawValue == "assinatura-\(membro)" && $0.type == kind.type }.count
            }
            _ = try await eventually("the duplicate refunded") { try await eventos(Assinatura.Catalogo.duplicadoDevolvido) == 1 ? true : nil }
            // The provider pays out 0.3 s after it was asked, then tries the notice.
            _ = try await eventually("the provider paid the refund out") { reembolsos.tentativas.load(ordering: .relaxed) > 0 ? true : nil }
            await harness.backend.settle(upTo: nil, types: nil)

            // Not overdue yet: the provider is not asked.
            clock.advance(by: PagamentosReadModel.espera - 1)
            #expect(try await pagamentos.conciliarReembolsos() == 0)
            #expect(try await eventos(Assinatura.Catalogo.devolucaoConcluida) == 0)
            // Overdue: the provider says it was paid out, recorded as its notice would be.
            clock.advance(by: 2)
            #expect(try await pagamentos.conciliarReembolsos() == 1)
            #expect(try await eventos(Assinatura.Catalogo.devolucaoConcluida) == 1)
            let devolucao = try await eventually("the member reads the payout") {
                let view = try await client.json(.get, "/api/assinatura", token: cenario.membro).object
                let devolucoes = (view["cicloAtual"] as? [String: Any])?["devolucoes"] as? [[String: Any]]
                return devolucoes?.first.flatMap { $0["concluidaEm"] != nil ? $0 : nil }
            }
            #expect(devolucao["valorCentavos"] as? Int == 18_000 && devolucao["reembolsoId"] as? String == reembolsoId.lowercasedString)
            // Nothing left to ask about; asking again records nothing.
            await harness.backend.settle(upTo: nil, types: nil)
            clock.advance(by: 3_600)
            #expect(try await pagamentos.conciliarReembolsos() == 0)

            // The notice finally lands: nothing recorded twice.
            let tarde = try await enviar(reembolsoId)
            #expect(tarde.status == .ok && tarde.object["duplicado"] as? Bool == true, "\(String(buffer: tarde.body))")
            #expect(try await eventos(Assinatura.Catalogo.devolucaoConcluida) == 1)
        }
    }

    @Test("a year of monthly cycles paid by card: each renewal is charged, paid and invoiced once, numbered without gaps, and the ledger balances")
    func a_year_of_invoices() async throws {
        let clock = ManualClock(segundaDeManha)
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let flex = try await criarPlano(client, Self.flex, token: cenario.admin)
            let assinada = try await client.json(
                .post, "/api/assinatura", #"{"planoId":"\#(flex)","metodo":"cartao","cartaoToken":"tok_visa"}"#, token: cenario.membro)
            #expect(assinada.status == .created, "\(String(buffer: assinada.body))")
            // Each month's charge is paid (the sandbox's webhook) before the next month comes.
            func pago(_ numero: Int) async throws {
                try await eventually("cycle \(numero) paid") {
                    let ciclo = try await client.json(.get, "/api/assinatura", token: cenario.membro).object["cicloAtual"] as? [String: Any]
                    return ciclo?["numero"] as? Int == numero && ciclo?["pago"] as? Bool == true ? true : nil
                }
            }
            try await pago(1)
            var mes = DataLocal("2026-12-01")!
            for numero in 2...13 {
                clock.set(mes.instante(minutos: 60, em: TimeZone(identifier: "America/Sao_Paulo")!))
                #expect(try await harness.backend.negocio.assinaturas.renovarAssinaturas() == 1)
                try await pago(numero)
                mes = mes.somandoMeses(1)
            }
            let faturas = try await eventually("13 invoices") {
                let itens = try await client.json(.get, "/api/faturas", token: cenario.membro).object["itens"] as? [[String: Any]] ?? []
                return itens.count >= 13 ? itens : nil
            }
            #expect(faturas.count == 13)
            #expect(Set(faturas.compactMap { $0["numero"] as? Int }) == Set(1...13))
            #expect(Set(faturas.compactMap { ($0["assinatura"] as? [String: Any])?["ciclo"] as? Int }) == Set(1...13))
            // The prorated November with the setup fee, then twelve whole months.
            let valores = faturas.compactMap { $0["valor"] as? Int }
            let total = 8_000 + 10_000 + 12 * 30_000
            #expect(valores.reduce(0, +) == total, "\(valores)")
            let razao = try await client.json(.get, "/api/admin/financeiro/razao?unidade=\(cenario.unidade)", token: cenario.admin).object
            #expect(razao["equilibrado"] as? Bool == true && razao["lancamentos"] as? Int == 13)
            let contas = try #require(razao["contas"] as? [[String: Any]])
            let caixa = contas.first { $0["conta"] as? String == "caixa" }
            #expect(caixa?["saldo"] as? Int == total)
            // Each renewal by card was told to the member once, with its days and amount (the
            // first cycle is the subscription itself, not a renewal).
            let renovacoes = try await eventually("the twelve renewal e-mails") {
                let achados = try harness.emails().filter { $0.subject?.hasPrefix("Assinatura renovada") == true }
                return achados.count >= 12 ? achados : nil
            }
            #expect(renovacoes.compactMap(\.subject).sorted() == (2...13).map { "Assinatura renovada: ciclo \($0)" }.sorted())
            let dezembroRenovado = renovacoes.first { $0.subject == "Assinatura renovada: ciclo 2" }?.text ?? ""
            #expect(
                dezembroRenovado.contains("de 01/12/2026 a 31/12/2026") && dezembroRenovado.contains("R$ 300,00 será cobrado no cartão"),
                "\(dezembroRenovado)")

            // The memberships' analytics: one active subscription worth R$ 300,00 a month; each
            // month's revenue by plan; then a cancellation at the cycle's end is that month's churn.
            await harness.backend.settle(upTo: nil, types: nil)
            let analytics = try await client.json(.get, "/api/analytics/assinaturas?meses=14", token: cenario.admin).object
            #expect(analytics["ativas"] as? Int == 1 && analytics["mrr"] as? Int == 30_000, "\(analytics)")
            #expect((analytics["porPlano"] as? [[String: Any]])?.first?["nome"] as? String == "Flex")
            let meses = try #require(analytics["meses"] as? [[String: Any]])
            #expect(meses.count == 14 && meses.first?["mes"] as? String == "2026-10" && meses.last?["mes"] as? String == "2027-11")
            #expect(meses.compactMap { $0["receita"] as? Int } == [0, 18_000] + Array(repeating: 30_000, count: 12), "\(meses)")
            #expect(meses[1]["novas"] as? Int == 1 && meses[1]["ativasNoFim"] as? Int == 1 && meses.last?["mrrNoFim"] as? Int == 30_000)
            #expect((meses[2]["receitaPorPlano"] as? [[String: Any]])?.first?["receita"] as? Int == 30_000)
            // December's 600 minutes and November's 160 rolled over (up to half of a cycle's 600); nothing spent.
            #expect(meses[2]["minutosConcedidos"] as? Int == 760 && meses[2]["utilizacaoDeCreditos"] as? Double == 0, "\(meses[2])")
            #expect(
                try await client.json(.post, "/api/assinatura/cancelar", "", token: cenario.membro).status == .ok)
            clock.set(mes.instante(minutos: 60, em: TimeZone(identifier: "America/Sao_Paulo")!))
            _ = try await harness.backend.negocio.assinaturas.renovarAssinaturas()
            await harness.backend.settle(upTo: nil, types: nil)
            // A year on, the tokens of the start have expired.
            let depois = try await client.json(.get, "/api/analytics/assinaturas?meses=1", token: try await client.token("root@example.com")).object
            let dezembro = try #require((depois["meses"] as? [[String: Any]])?.last, "\(depois)")
            #expect(depois["ativas"] as? Int == 0 && depois["mrr"] as? Int == 0, "\(depois)")
            #expect(
                dezembro["mes"] as? String == "2027-12" && dezembro["encerradas"] as? Int == 1 && dezembro["churn"] as? Double == 1, "\(dezembro)")
        }
    }
}

/// Notices the sandbox sent while "they had not reached us yet".
actor Retidos {
    private(set) var todos: [(Data, String)] = []
    func guardar(_ corpo: Data, _ assinatura: String) { todos.append((corpo, assinatura)) }
}
