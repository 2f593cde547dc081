import Domain
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Company accounts through the API: registration with a validated CNPJ, invitations by link,
/// one company per person, managers and members, leaving.
@Suite("Company accounts: registration, invitations, roles, one company per person")
struct EmpresasTests {
    static func corpo(cnpj: String = "11.222.333/0001-81", gestor: String? = nil, razao: String = "Acme Tecnologia Ltda") -> String {
        let gestorId = gestor.map { #","gestorId":"\#($0)""# } ?? ""
        return #"{"razaoSocial":"\#(razao)","nomeFantasia":"Acme","cnpj":"\#(cnpj)","emailDeCobranca":"financeiro@acme.com.br","#
            + #""endereco":{"logradouro":"Av. Paulista","numero":"1000","cidade":"São Paulo","uf":"SP","cep":"01310-100"}\#(gestorId)}"#
    }

    func id(_ client: any TestClientProtocol, _ token: String) async throws -> String {
        try #require(try await client.json(.get, "/api/auth/me", token: token).object["id"] as? String)
    }

    @Test(
        "an operator registers a company with a valid CNPJ and its manager; the manager invites by link, the invitee accepts; nobody joins two companies; the last manager stays"
    )
    func companies() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let ana = try await id(client, cenario.membro)
            // Bad input: 422 naming the field, nothing written.
            let antes = try await harness.allEvents().count
            for (corpo, campo) in [
                (Self.corpo(cnpj: "11.222.333/0001-82"), "cnpj"), (Self.corpo(cnpj: "00000000000000"), "cnpj"),
                (Self.corpo(razao: " "), "razaoSocial"), (Self.corpo(gestor: UUID().uuidString), "gestorId"),
                (Self.corpo().replacingOccurrences(of: "\"uf\":\"SP\"", with: "\"uf\":\"XX\""), "endereco.uf"),
                (Self.corpo().replacingOccurrences(of: "financeiro@acme.com.br", with: "financeiro"), "emailDeCobranca"),
            ] {
                let resposta = try await client.json(.post, "/api/admin/empresas", corpo, token: cenario.admin)
                #expect(resposta.status == .unprocessableContent, "\(corpo): \(String(buffer: resposta.body))")
                #expect(String(buffer: resposta.body).contains(campo), "\(String(buffer: resposta.body))")
            }
            #expect(try await harness.allEvents().count == antes)
            #expect(try await client.json(.post, "/api/admin/empresas", Self.corpo(), token: cenario.membro).status == .forbidden)

            let criada = try await client.json(.post, "/api/admin/empresas", Self.corpo(gestor: ana), token: cenario.admin)
            #expect(criada.status == .created, "\(String(buffer: criada.body))")
            let empresa = try #require(criada.object["empresaId"] as? String)
            #expect(criada.object["cnpj"] as? String == "11.222.333/0001-81")
            // One CNPJ, one account (written without punctuation too).
            #expect(try await client.json(.post, "/api/admin/empresas", Self.corpo(cnpj: "11222333000181"), token: cenario.admin).status == .conflict)
            let minha = try await client.json(.get, "/api/empresa", token: cenario.membro)
            #expect(minha.object["meuPapel"] as? String == "gestor" && (minha.object["integrantes"] as? [[String: Any]])?.count == 1)

            // The manager invites Bia; the link works for whoever holds it, once.
            #expect(
                try await client.json(.post, "/api/empresas/\(empresa)/convites", #"{"email":"bia"}"#, token: cenario.membro).status
                    == .unprocessableContent)
            let convite = try await client.json(.post, "/api/empresas/\(empresa)/convites", #"{"email":"Bia@Example.com"}"#, token: cenario.membro)
            #expect(convite.status == .created, "\(String(buffer: convite.body))")
            // A company's people read its changes: the manager's write answers once the read models have it.
            #expect(convite.headers[.init("Coworkflow-Consistencia")!] == nil)
            let link = try #require(convite.object["link"] as? String)
            let token = String(link.dropFirst("/convite/".count))
            #expect(convite.object["email"] as? String == "bia@example.com" && convite.object["papel"] as? String == "membro")
            // The e-mail and the link are sealed in the log.
            let enviado = try #require(try await harness.allEvents().last { $0.type == Empresa.Catalogo.conviteEnviado.type })
            #expect(!String(decoding: enviado.data, as: UTF8.self).contains("bia@example.com"))
            #expect(!String(decoding: enviado.data, as: UTF8.self).contains(token))

            // The invitation is e-mailed to the address, with the link.
            let email = try await eventually("the invitation's e-mail") {
                try harness.emails().first { $0.to.contains { $0.address == "bia@example.com" } }
            }
            #expect(email.subject == "Convite para fazer parte de Acme na CoworkFlow", "\(email.subject ?? "")")
            #expect(email.text?.contains(link) == true, "\(email.text ?? "")")
            #expect(try await client.register("bia@example.com").status == .created)
            let bia = try await client.token("bia@example.com")
            #expect(try await client.json(.get, "/api/empresas/\(empresa)", token: bia).status == .notFound)
            let recebido = try await client.json(.get, "/api/convites/\(token)", token: bia)
            #expect(recebido.object["empresa"] as? String == "Acme" && recebido.object["jaIntegrante"] as? Bool == false)
            #expect(try await client.json(.get, "/api/convites/\(token)x", token: bia).status == .notFound)
            let aceito = try await client.json(.post, "/api/convites/\(token)/aceite", "", token: bia)
            #expect(aceito.status == .ok && aceito.object["meuPapel"] as? String == "membro", "\(String(buffer: aceito.body))")
            #expect(aceito.object["integrantes"] == nil)
            #expect(try await client.json(.post, "/api/convites/\(token)/aceite", "", token: bia).status == .notFound)
            // A member neither invites nor removes.
            #expect(try await client.json(.post, "/api/empresas/\(empresa)/convites", #"{"email":"c@example.com"}"#, token: bia).status == .forbidden)
            #expect(try await client.json(.delete, "/api/empresas/\(empresa)/integrantes/\(ana)", token: bia).status == .forbidden)

            // Another company invites Bia: she is in one already.
            let outra = try await client.json(.post, "/api/admin/empresas", Self.corpo(cnpj: "12.ABC.345/01DE-35"), token: cenario.admin)
            let outraId = try #require(outra.object["empresaId"] as? String)
            let convite2 = try await client.json(.post, "/api/empresas/\(outraId)/convites", #"{"email":"bia@example.com"}"#, token: cenario.admin)
            let token2 = String(try #require(convite2.object["link"] as? String).dropFirst("/convite/".count))
            #expect(try await client.json(.get, "/api/convites/\(token2)", token: bia).object["outraEmpresa"] as? String == "Acme")
            let recusado = try await client.json(.post, "/api/convites/\(token2)/aceite", "", token: bia)
            #expect(recusado.status == .conflict && String(buffer: recusado.body).contains("outra_empresa"), "\(String(buffer: recusado.body))")

            // The last manager stays; with a second manager she may leave.
            let biaId = try await id(client, bia)
            #expect(try await client.json(.delete, "/api/empresas/\(empresa)/integrantes/\(ana)", token: cenario.membro).status == .conflict)
            let promovida = try await client.json(
                .put, "/api/empresas/\(empresa)/integrantes/\(biaId)/papel", #"{"papel":"gestor"}"#, token: cenario.membro)
            #expect(promovida.status == .ok, "\(String(buffer: promovida.body))")
            #expect(try await client.json(.delete, "/api/empresas/\(empresa)/integrantes/\(ana)", token: cenario.membro).status == .noContent)
            #expect(try await client.json(.get, "/api/empresa", token: cenario.membro).status == .noContent, "in no company: nothing, no error")
            // Free again: Ana can take the other company's invitation... and Bia's first company lists her as its manager.
            let acme = try await client.json(.get, "/api/empresa", token: bia)
            #expect((acme.object["integrantes"] as? [[String: Any]])?.compactMap { $0["usuarioId"] as? String } == [biaId])

            // Operators see the list.
            await harness.backend.settle(upTo: nil, types: nil)
            let lista = try await client.json(.get, "/api/admin/empresas", token: cenario.admin)
            #expect((lista.object["itens"] as? [[String: Any]])?.count == 2 && lista.object["total"] as? Int == 2, "\(String(buffer: lista.body))")
        }
    }

    @Test(
        "a company subscribes for its people: the plan's fee and credits times the seats, the credits pooled in the company's wallet, its charge paid by card and told to the billing e-mail"
    )
    func company_subscription() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let ana = try await id(client, cenario.membro)
            let criada = try await client.json(.post, "/api/admin/empresas", Self.corpo(gestor: ana), token: cenario.admin)
            let empresa = try #require(criada.object["empresaId"] as? String)
            let plano = try await client.json(.post, "/api/admin/planos", AssinaturasTests.flex, token: cenario.admin)
            let flex = try #require(plano.object["planoId"] as? String)
            // A member does not subscribe alone for seats; a company's seats are 1…1000.
            #expect(
                try await client.json(.post, "/api/assinatura", #"{"planoId":"\#(flex)","metodo":"boleto","assentos":2}"#, token: cenario.membro)
                    .status == .unprocessableContent)
            for assentos in [0, 1001] {
                let resposta = try await client.json(
                    .post, "/api/empresas/\(empresa)/assinatura", #"{"planoId":"\#(flex)","metodo":"boleto","assentos":\#(assentos)}"#,
                    token: cenario.membro)
                #expect(
                    resposta.status == .unprocessableContent && String(buffer: resposta.body).contains("assentos"), "\(String(buffer: resposta.body))"
                )
            }
            // Bia joins; a member of the company may read its subscription, not subscribe it.
            let convite = try await client.json(.post, "/api/empresas/\(empresa)/convites", #"{"email":"bia@example.com"}"#, token: cenario.membro)
            let token = String(try #require(convite.object["link"] as? String).dropFirst("/convite/".count))
            #expect(try await client.register("bia@example.com").status == .created)
            let bia = try await client.token("bia@example.com")
            #expect(try await client.json(.post, "/api/convites/\(token)/aceite", "", token: bia).status == .ok)
            #expect(
                try await client.json(.post, "/api/empresas/\(empresa)/assinatura", #"{"planoId":"\#(flex)","metodo":"boleto"}"#, token: bia).status
                    == .forbidden)
            // No plan yet: nothing to its people (no error); to an outsider, no such company.
            #expect(try await client.json(.get, "/api/empresas/\(empresa)/assinatura", token: bia).status == .noContent)
            #expect(try await client.register("caio@example.com").status == .created)
            let caio = try await client.token("caio@example.com")
            #expect(try await client.json(.get, "/api/empresas/\(empresa)/assinatura", token: caio).status == .notFound)

            // Two people, two seats: 8 of November's 30 days of R$ 300,00 each, the setup fee once.
            let assinada = try await client.json(
                .post, "/api/empresas/\(empresa)/assinatura", #"{"planoId":"\#(flex)","metodo":"cartao","cartaoToken":"tok_visa"}"#,
                token: cenario.membro)
            #expect(assinada.status == .created, "\(String(buffer: assinada.body))")
            #expect(assinada.object["assentos"] as? Int == 2 && assinada.object["titular"] as? String == "empresa-\(empresa)")
            let ciclo = try #require(assinada.object["cicloAtual"] as? [String: Any])
            #expect(ciclo["valorCentavos"] as? Int == 2 * 8_000 + 10_000 && ciclo["minutos"] as? Int == 2 * 160, "\(ciclo)")
            // The credits are the company's pool, which its people read; nobody else does.
            let pool = try await client.json(.get, "/api/empresas/\(empresa)/creditos", token: bia)
            #expect(pool.object["minutos"] as? Int == 320, "\(String(buffer: pool.body))")
            #expect(try await client.json(.get, "/api/creditos", token: bia).object["minutos"] as? Int ?? 0 == 0)
            #expect(try await client.json(.get, "/api/empresas/\(empresa)/creditos", token: caio).status == .notFound)
            #expect(try await client.json(.get, "/api/empresas/\(empresa)/assinatura", token: caio).status == .notFound)
            // Paid by card through the provider, told to the company's billing address.
            _ = try await eventually("the company's cycle paid") {
                let ciclo = try await client.json(.get, "/api/empresas/\(empresa)/assinatura", token: bia).object["cicloAtual"] as? [String: Any]
                return ciclo?["pago"] as? Bool == true ? true : nil
            }
            let email = try await eventually("the payment's e-mail to the billing address") {
                try harness.emails().first { $0.to.contains { $0.address == "financeiro@acme.com.br" } }
            }
            #expect(email.subject == "Pagamento da assinatura recebido")

            // Bia spends an hour of the pool; the company's invoice is its managers' (not its
            // members'), and its receipt lists each person's use of the pool in the cycle.
            let reserva = try await client.json(
                .post, "/api/reservas",
                #"{"espacoId":"\#(cenario.sala)","inicio":"2026-11-25T10:00:00-03:00","fim":"2026-11-25T11:00:00-03:00","totalEsperado":0}"#,
                token: bia)
            #expect(reserva.status == .created, "\(String(buffer: reserva.body))")
            let faturas = try await eventually("the company's invoice") {
                let itens = try await client.json(.get, "/api/empresas/\(empresa)/faturas", token: cenario.membro).object["itens"] as? [[String: Any]]
                return itens?.isEmpty == false ? itens : nil
            }
            #expect(faturas.count == 1 && faturas.first?["valor"] as? Int == 26_000 && faturas.first?["usuarioId"] as? String == "empresa-\(empresa)")
            #expect(try await client.json(.get, "/api/empresas/\(empresa)/faturas", token: bia).status == .notFound)
            let faturaId = try #require(faturas.first?["id"] as? String)
            #expect(try await client.json(.get, "/api/faturas/\(faturaId)/recibo", token: bia).status == .notFound)
            let recibo = try await client.json(.get, "/api/faturas/\(faturaId)/recibo", token: cenario.membro)
            #expect(recibo.object["membro"] as? String == "Acme Tecnologia Ltda (CNPJ 11.222.333/0001-81)", "\(String(buffer: recibo.body))")
            let uso = try #require(recibo.object["uso"] as? [[String: Any]])
            let biaId = try await id(client, bia)
            #expect(uso.count == 1 && uso.first?["usuarioId"] as? String == biaId && uso.first?["minutos"] as? Int == 60, "\(uso)")
        }
    }

    @Test(
        "a company's pooled hours: its people spend them after their own, within a monthly cap; 20 concurrent bookings against the last two hours: exactly two get them, the pool ends at zero; a cancellation gives them back to the pool"
    )
    func pooled_credits() async throws {
        let clock = ManualClock(segundaDeManha)
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let ana = try await id(client, cenario.membro)
            let criada = try await client.json(.post, "/api/admin/empresas", Self.corpo(gestor: ana), token: cenario.admin)
            let empresa = try #require(criada.object["empresaId"] as? String)
            // Caio and Duda join; Bia joins with a cap of one hour a month.
            var tokens: [String: String] = ["ana": cenario.membro]
            for nome in ["bia", "caio", "duda"] {
                let convite = try await client.json(
                    .post, "/api/empresas/\(empresa)/convites", #"{"email":"\#(nome)@example.com"}"#, token: cenario.membro)
                let link = String(try #require(convite.object["link"] as? String).dropFirst("/convite/".count))
                #expect(try await client.register("\(nome)@example.com").status == .created)
                tokens[nome] = try await client.token("\(nome)@example.com")
                #expect(try await client.json(.post, "/api/convites/\(link)/aceite", "", token: tokens[nome, default: ""]).status == .ok)
            }
            let bia = try await id(client, tokens["bia", default: ""])
            #expect(
                try await client.json(.put, "/api/empresas/\(empresa)/integrantes/\(bia)/limite", #"{"minutosPorMes":-1}"#, token: cenario.membro)
                    .status == .unprocessableContent)
            let limitada = try await client.json(
                .put, "/api/empresas/\(empresa)/integrantes/\(bia)/limite", #"{"minutosPorMes":60}"#, token: cenario.membro)
            #expect(limitada.status == .ok, "\(String(buffer: limitada.body))")
            // The LGPD export's readable part names the company, each one's role and cap.
            for (token, papel, limite) in [(tokens["bia", default: ""], "membro", "1 h"), (cenario.membro, "gestor(a)", nil)] {
                let resumo = try await client.json(.get, "/api/auth/me/dados", token: token).object["resumo"] as? [String: Any]
                let daEmpresa = try #require(resumo?["empresa"] as? [String: Any], "\(String(describing: resumo))")
                #expect(daEmpresa["nome"] as? String == "Acme" && daEmpresa["razaoSocial"] as? String == "Acme Tecnologia Ltda", "\(daEmpresa)")
                #expect(daEmpresa["papel"] as? String == papel && daEmpresa["limiteMensal"] as? String == limite, "\(daEmpresa)")
            }
            // Three hours of meeting room a month for the company, from 1 December.
            try await Self.equipe(harness, client, clock, cenario, empresa, minutos: 180)
            #expect(try await client.json(.get, "/api/empresas/\(empresa)/creditos", token: cenario.membro).object["minutos"] as? Int == 180)
            // Paid by transfer: an operator records it (a manager may not).
            let baixa = "/api/empresas/\(empresa)/assinatura/ciclos/1/pagamento"
            #expect(try await client.json(.post, baixa, "", token: cenario.membro).status == .forbidden)
            let paga = try await client.json(.post, baixa, "", token: cenario.admin)
            #expect((paga.object["cicloAtual"] as? [String: Any])?["pago"] as? Bool == true, "\(String(buffer: paga.body))")
            func reservar(_ quem: String, _ inicio: String, _ fim: String) async throws -> TestResponse {
                try await client.json(
                    .post, "/api/reservas", #"{"espacoId":"\#(cenario.sala)","inicio":"\#(inicio)","fim":"\#(fim)","totalEsperado":0}"#,
                    token: tokens[quem, default: ""])
            }
            // Bia: one hour from the pool, then her cap says no more this month.
            let daBia = try await reservar("bia", "2026-12-03T08:00:00-03:00", "2026-12-03T09:00:00-03:00")
            #expect(daBia.status == .created, "\(String(buffer: daBia.body))")
            // Its price says whose hour paid it, and the booking which pool to give it back to.
            let creditosDaBia = try #require(daBia.object["creditos"] as? [String: Any], "\(String(buffer: daBia.body))")
            #expect((creditosDaBia["daEmpresa"] as? [String: Any])?["minutos"] as? Int == 60)
            #expect(creditosDaBia["empresa"] as? String == "empresa-\(empresa)")
            #expect(
                (daBia.object["linhas"] as? [[String: Any]])?.contains { $0["descricao"] as? String == "Créditos: 1 h da sua empresa" } == true,
                "\(String(buffer: daBia.body))")
            let cotacao = try await client.json(
                .post, "/api/precos/cotacao",
                #"{"espacoId":"\#(cenario.sala)","inicio":"2026-12-03T09:00:00-03:00","fim":"2026-12-03T10:00:00-03:00"}"#,
                token: tokens["bia", default: ""])
            #expect(cotacao.object["total"] as? Int == 5_000 && cotacao.object["creditos"] == nil, "\(String(buffer: cotacao.body))")
            #expect(try await client.json(.get, "/api/empresas/\(empresa)/creditos", token: cenario.membro).object["minutos"] as? Int == 120)

            // Twenty bookings at once by Ana, Caio and Duda, on twenty free hours, each counting on
            // the pool's last two hours: exactly two are made.
            let horarios = (0..<20).map { n in
                let dia = 4 + n / 10
                let hora = 8 + n % 10
                func dois(_ x: Int) -> String { x < 10 ? "0\(x)" : "\(x)" }
                return ("2026-12-\(dois(dia))T\(dois(hora)):00:00-03:00", "2026-12-\(dois(dia))T\(dois(hora + 1)):00:00-03:00")
            }
            let quem = ["ana", "caio", "duda"]
            let fichas = quem.map { tokens[$0, default: ""] }
            let sala = cenario.sala
            let respostas = try await withThrowingTaskGroup(of: (Int, Int, String).self) { group in
                for (n, (inicio, fim)) in horarios.enumerated() {
                    let corpo = #"{"espacoId":"\#(sala)","inicio":"\#(inicio)","fim":"\#(fim)","totalEsperado":0}"#
                    let ficha = fichas[n % 3]
                    group.addTask {
                        let resposta = try await client.json(.post, "/api/reservas", corpo, token: ficha)
                        return (n, Int(resposta.status.code), String(buffer: resposta.body))
                    }
                }
                return try await group.reduce(into: [(Int, Int, String)]()) { $0.append($1) }
            }
            let feitas = respostas.filter { $0.1 == 201 }
            #expect(feitas.count == 2, "\(respostas.map { ($0.1, $0.2.prefix(120)) })")
            #expect(respostas.allSatisfy { $0.1 == 201 || $0.1 == 409 })
            let pool = try await client.json(.get, "/api/empresas/\(empresa)/creditos", token: cenario.membro)
            #expect(pool.object["minutos"] as? Int == 0, "\(String(buffer: pool.body))")
            // The stream says the same: 180 granted, 180 spent, never below zero.
            let eventos = try await harness.allEvents().filter { $0.stream.rawValue == "creditos-empresa-\(empresa)" }
            let gastos = try eventos.filter { $0.type == Carteira.Catalogo.consumidos.type }.map { try $0.decode(Carteira.Consumidos.self) }
            #expect(gastos.count == 3 && gastos.flatMap(\.partes).reduce(0) { $0 + $1.quantidade } == 180)
            #expect(
                Set(gastos.compactMap(\.beneficiario)).isSubset(
                    of: [ana, bia] + [try await id(client, tokens["caio", default: ""]), try await id(client, tokens["duda", default: ""])]))

            // Who spent what this month: a member sees their own; a manager everyone.
            let usoDaBia = try await client.json(.get, "/api/empresas/\(empresa)/uso?mes=2026-12", token: tokens["bia", default: ""])
            let pessoasDaBia = try #require(usoDaBia.object["pessoas"] as? [[String: Any]], "\(String(buffer: usoDaBia.body))")
            #expect(pessoasDaBia.count == 1 && pessoasDaBia.first?["minutos"] as? Int == 60)
            #expect((pessoasDaBia.first?["limite"] as? [String: Any])?["minutosPorMes"] as? Int == 60)
            let uso = try await client.json(.get, "/api/empresas/\(empresa)/uso?mes=2026-12", token: cenario.membro)
            let pessoas = try #require(uso.object["pessoas"] as? [[String: Any]])
            #expect(pessoas.count == 4 && pessoas.compactMap { $0["minutos"] as? Int }.reduce(0, +) == 180, "\(pessoas)")
            #expect(try await client.json(.get, "/api/empresas/\(empresa)/uso?mes=2026-13", token: cenario.membro).status == .badRequest)
            // One of the two cancelled days ahead: its hour goes back to the pool.
            let (n, _, corpo) = try #require(feitas.first)
            let feita = try #require(try JSONSerialization.jsonObject(with: Data(corpo.utf8)) as? [String: Any])
            let reserva = try #require(feita["id"] as? String)
            let cancelada = try await client.json(
                .post, "/api/reservas/\(reserva)/cancelamento", #"{"motivo":"mudou"}"#, token: tokens[quem[n % 3], default: ""])
            #expect(cancelada.status == .ok, "\(String(buffer: cancelada.body))")
            // Its hour went back to the company's pool, which its manager reads next: the
            // cancellation answered once the read models had it, with no token kept for its member.
            #expect(cancelada.headers[.init("Coworkflow-Consistencia")!] == nil)
            #expect(try await client.json(.get, "/api/empresas/\(empresa)/creditos", token: cenario.membro).object["minutos"] as? Int == 60)

            // The manager books for Caio: his booking, paid from the pool; the trail says who booked it.
            let caio = try await id(client, tokens["caio", default: ""])
            func paraCaio(_ token: String, _ para: String = caio) async throws -> TestResponse {
                try await client.json(
                    .post, "/api/reservas",
                    #"{"espacoId":"\#(cenario.sala)","inicio":"2026-12-07T10:00:00-03:00","fim":"2026-12-07T11:00:00-03:00","paraUsuarioId":"\#(para)"}"#,
                    token: token)
            }
            #expect(try await paraCaio(tokens["bia", default: ""]).status == .forbidden)
            #expect(try await paraCaio(cenario.membro, UUID().uuidString.lowercased()).status == .unprocessableContent)
            let porAna = try await paraCaio(cenario.membro)
            #expect(
                porAna.status == .created && porAna.object["usuarioId"] as? String == caio && porAna.object["total"] as? Int == 0,
                "\(String(buffer: porAna.body))")
            // Caio reads it next: it answers once the read models have it, with no token kept for Ana.
            #expect(porAna.headers[.init("Coworkflow-Consistencia")!] == nil)
            let reservaDoCaio = try #require(porAna.object["id"] as? String)
            #expect(try await client.json(.get, "/api/reservas/\(reservaDoCaio)", token: tokens["caio", default: ""]).status == .ok)
            let solicitada = try #require(try await harness.allEvents().first { $0.stream.rawValue == "reserva-\(reservaDoCaio)" })
            #expect(solicitada.metadata.actor == ana)
            #expect(try await client.json(.get, "/api/empresas/\(empresa)/creditos", token: cenario.membro).object["minutos"] as? Int == 0)

            // Bia leaves the company, then cancels her booking days ahead: the hour was the
            // company's, and goes back to its pool, not to her.
            #expect(try await client.json(.delete, "/api/empresas/\(empresa)/integrantes/\(bia)", token: cenario.membro).status == .noContent)
            let dela = try #require(daBia.object["id"] as? String)
            let desistiu = try await client.json(
                .post, "/api/reservas/\(dela)/cancelamento", #"{"motivo":"saiu"}"#, token: tokens["bia", default: ""])
            #expect(desistiu.status == .ok, "\(String(buffer: desistiu.body))")
            #expect(try await client.json(.get, "/api/empresas/\(empresa)/creditos", token: cenario.membro).object["minutos"] as? Int == 60)
            #expect(try await client.json(.get, "/api/creditos", token: tokens["bia", default: ""]).object["minutos"] as? Int ?? 0 == 0)
        }
    }

    /// Ana (the scenario's member) manages a company whose pool holds 600 minutes of meeting
    /// room from 1 December (the clock is moved there), paid; Bia joins it with a monthly cap.
    static func poolDeEquipe(
        _ harness: Harness, _ client: any TestClientProtocol, _ clock: ManualClock, minutosPorMes: Int
    ) async throws
        -> (cenario: Cenario, empresa: String, bia: String, biaId: String)
    {
        let cenario = try await Cenario.make(harness, client)
        let ana = try await EmpresasTests().id(client, cenario.membro)
        let criada = try await client.json(.post, "/api/admin/empresas", corpo(gestor: ana), token: cenario.admin)
        let empresa = try #require(criada.object["empresaId"] as? String)
        let convite = try await client.json(.post, "/api/empresas/\(empresa)/convites", #"{"email":"bia@example.com"}"#, token: cenario.membro)
        let link = String(try #require(convite.object["link"] as? String).dropFirst("/convite/".count))
        #expect(try await client.register("bia@example.com").status == .created)
        let bia = try await client.token("bia@example.com")
        #expect(try await client.json(.post, "/api/convites/\(link)/aceite", "", token: bia).status == .ok)
        let biaId = try await EmpresasTests().id(client, bia)
        let limitada = try await client.json(
            .put, "/api/empresas/\(empresa)/integrantes/\(biaId)/limite", #"{"minutosPorMes":\#(minutosPorMes)}"#, token: cenario.membro)
        #expect(limitada.status == .ok, "\(String(buffer: limitada.body))")
        try await equipe(harness, client, clock, cenario, empresa, minutos: 600)
        #expect(try await client.json(.post, "/api/empresas/\(empresa)/assinatura/ciclos/1/pagamento", "", token: cenario.admin).status == .ok)
        return (cenario, empresa, bia, biaId)
    }

    /// The company (its manager: the scenario's member) subscribes to a plan of `minutos` of
    /// meeting room a month from 1 December, by boleto; the clock moves there and the cycle's
    /// credits are granted (the timer's grant, which no request waits for).
    static func equipe(
        _ harness: Harness, _ client: any TestClientProtocol, _ clock: ManualClock, _ cenario: Cenario, _ empresa: String, minutos: Int
    ) async throws {
        let plano = try await client.json(
            .post, "/api/admin/planos",
            #"{"nome":"Equipe","periodicidade":"mensal","valorCentavos":20000,"horasMinutos":\#(minutos),"tiposDasHoras":["sala_reuniao"]}"#,
            token: cenario.admin)
        let equipe = try #require(plano.object["planoId"] as? String)
        let assinada = try await client.json(
            .post, "/api/empresas/\(empresa)/assinatura", #"{"planoId":"\#(equipe)","metodo":"boleto","inicio":"2026-12-01","assentos":1}"#,
            token: cenario.membro)
        #expect(assinada.status == .created, "\(String(buffer: assinada.body))")
        clock.set(try Date("2026-12-01T08:00:00-03:00", strategy: .iso8601))
        #expect(try await harness.backend.negocio.assinaturas.renovarAssinaturas() == 1)
        await harness.backend.settle()
    }

    /// `pessoa`'s use of the company's pool in each of `meses`.
    static func uso(
        _ client: any TestClientProtocol, _ empresa: String, _ pessoa: String, _ meses: [String], token: String
    ) async throws
        -> [Int?]
    {
        var minutos: [Int?] = []
        for mes in meses {
            let r = try await client.json(.get, "/api/empresas/\(empresa)/uso?mes=\(mes)", token: token)
            minutos.append((r.object["pessoas"] as? [[String: Any]])?.first { $0["usuarioId"] as? String == pessoa }?["minutos"] as? Int)
        }
        return minutos
    }

    @Test(
        "a booking paid from the company's pool, moved to another month, counts in that month's cap: the month it left has room again; a member's move into a month without room is a 409 that changes nothing; the desk's is counted there; a cancellation gives it back from the new month"
    )
    func pooled_use_follows_a_move_across_months() async throws {
        let clock = ManualClock(segundaDeManha)
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let (cenario, empresa, bia, biaId) = try await Self.poolDeEquipe(harness, client, clock, minutosPorMes: 60)
            func reservar(_ inicio: String, _ fim: String) async throws -> String {
                let r = try await client.json(
                    .post, "/api/reservas", #"{"espacoId":"\#(cenario.sala)","inicio":"\#(inicio)","fim":"\#(fim)","totalEsperado":0}"#, token: bia)
                #expect(r.status == .created, "\(String(buffer: r.body))")
                #expect(((r.object["creditos"] as? [String: Any])?["daEmpresa"] as? [String: Any])?["minutos"] as? Int == 60)
                let id = try #require(r.object["id"] as? String)
                // Nothing to pay: confirmed by the reaction that follows (only a confirmed booking moves).
                _ = try await eventually("the booking confirmed") {
                    let lida = try await client.json(.get, "/api/reservas/\(id)", token: bia)
                    return lida.object["status"] as? String == "confirmada" ? true : nil
                }
                return id
            }
            func mover(_ reserva: String, _ inicio: String, _ fim: String, token: String) async throws -> TestResponse {
                try await client.json(.post, "/api/reservas/\(reserva)/remarcacao", #"{"inicio":"\#(inicio)","fim":"\#(fim)"}"#, token: token)
            }
            /// Bia's use of the pool in December and in January.
            func uso() async throws -> [Int?] { try await Self.uso(client, empresa, biaId, ["2026-12", "2027-01"], token: cenario.membro) }
            /// The events of the booking's and the pool's streams.
            func escritos(_ reserva: String) async throws -> Int {
                try await harness.allEvents().filter { ["reserva-\(reserva)", "creditos-empresa-\(empresa)"].contains($0.stream.rawValue) }.count
            }

            // Her hour of December, moved to January: it counts in January, December has room again.
            let ultimoDia = try await reservar("2026-12-31T08:00:00-03:00", "2026-12-31T09:00:00-03:00")
            #expect(try await uso() == [60, 0])
            let movida = try await mover(ultimoDia, "2027-01-04T08:00:00-03:00", "2027-01-04T09:00:00-03:00", token: bia)
            #expect(movida.status == .ok, "\(String(buffer: movida.body))")
            #expect(try await uso() == [0, 60])
            let outra = try await reservar("2026-12-30T08:00:00-03:00", "2026-12-30T09:00:00-03:00")
            #expect(try await uso() == [60, 60])

            // Another December hour into January, where her cap has no room left: refused, nothing moves.
            let antes = try await escritos(outra)
            let recusada = try await mover(outra, "2027-01-05T08:00:00-03:00", "2027-01-05T09:00:00-03:00", token: bia)
            #expect(recusada.status == .conflict, "\(String(buffer: recusada.body))")
            #expect(recusada.object["erro"] as? String == "limite_do_mes", "\(String(buffer: recusada.body))")
            let detalhes = recusada.object["detalhes"] as? [String: Any]
            #expect(detalhes?["campo"] as? String == "inicio" && detalhes?["mes"] as? String == "2027-01", "\(String(buffer: recusada.body))")
            #expect(try await escritos(outra) == antes)
            let ainda = try await client.json(.get, "/api/reservas/\(outra)", token: bia)
            #expect(
                (try? Date(ainda.object["inicio"] as? String ?? "", strategy: .iso8601))
                    == (try Date("2026-12-30T08:00:00-03:00", strategy: .iso8601)),
                "\(String(buffer: ainda.body))")
            #expect(try await uso() == [60, 60])

            // The front desk moves it there all the same: it counts in January.
            let pelaRecepcao = try await mover(outra, "2027-01-05T08:00:00-03:00", "2027-01-05T09:00:00-03:00", token: cenario.admin)
            #expect(pelaRecepcao.status == .ok, "\(String(buffer: pelaRecepcao.body))")
            #expect(try await uso() == [0, 120])

            // Cancelled, the first gives its hour back from January, where it counts now.
            let cancelada = try await client.json(.post, "/api/reservas/\(ultimoDia)/cancelamento", #"{"motivo":"mudou"}"#, token: bia)
            #expect(cancelada.status == .ok, "\(String(buffer: cancelada.body))")
            #expect(try await uso() == [0, 60])
            let remarcados = try await harness.allEvents().filter { $0.type == Carteira.Catalogo.usoRemarcado.type }
                .map { try $0.decode(Carteira.UsoRemarcado.self) }
            #expect(
                remarcados.map { [$0.de, $0.para] } == [["2026-12", "2027-01"], ["2026-12", "2027-01"]] && remarcados.allSatisfy { $0.minutos == 60 })
        }
    }

    @Test(
        "a series paid from the company's pool moved so that one booking changes month: that one counts in the new month; a member's move is refused whole when that month's cap has no room, the desk's is not"
    )
    func pooled_use_follows_a_series_move_across_months() async throws {
        let clock = ManualClock(segundaDeManha)
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let (cenario, empresa, bia, biaId) = try await Self.poolDeEquipe(harness, client, clock, minutosPorMes: 180)
            func uso() async throws -> [Int?] { try await Self.uso(client, empresa, biaId, ["2026-12", "2027-01"], token: cenario.membro) }
            // Three Thursdays at 10:00 (17, 24 and 31 December), paid from the pool.
            let criada = try await client.json(
                .post, "/api/reservas/series",
                #"{"espacoId":"\#(cenario.sala)","inicio":"2026-12-17T10:00:00-03:00","fim":"2026-12-17T11:00:00-03:00","frequencia":"semanal","ocorrencias":3}"#,
                token: bia)
            #expect(criada.status == .created, "\(String(buffer: criada.body))")
            let serie = try #require(criada.object["id"] as? String)
            let reservas = (criada.object["ocorrencias"] as? [[String: Any]] ?? []).compactMap { $0["reservaId"] as? String }
            #expect(reservas.count == 3)
            for reserva in reservas { _ = try await client.reserva(reserva, token: bia, status: "confirmada") }
            // Two and a half hours of January booked already: 30 minutes of her cap left there.
            let janeiro = try await client.json(
                .post, "/api/reservas",
                #"{"espacoId":"\#(cenario.sala)","inicio":"2027-01-04T08:00:00-03:00","fim":"2027-01-04T10:30:00-03:00","totalEsperado":0}"#,
                token: bia)
            #expect(janeiro.status == .created, "\(String(buffer: janeiro.body))")
            #expect(try await uso() == [180, 150])

            // A day later, from the first on: the third would be 1 January, where 60 minutes do not fit.
            let corpo = #"{"aPartirDe":1,"inicio":"2026-12-18T10:00:00-03:00","fim":"2026-12-18T11:00:00-03:00"}"#
            let recusada = try await client.json(.post, "/api/reservas/series/\(serie)/remarcacao", corpo, token: bia)
            #expect(recusada.status == .conflict && recusada.erro == "limite_do_mes", "\(String(buffer: recusada.body))")
            #expect(recusada.object["mensagem"] as? String ?? "" != "", "\(String(buffer: recusada.body))")
            #expect(try await uso() == [180, 150])
            let pelaRecepcao = try await client.json(.post, "/api/reservas/series/\(serie)/remarcacao", corpo, token: cenario.admin)
            #expect(pelaRecepcao.status == .ok, "\(String(buffer: pelaRecepcao.body))")
            #expect(try await uso() == [120, 210])
            let remarcados = try await harness.allEvents().filter { $0.type == Carteira.Catalogo.usoRemarcado.type }
                .map { try $0.decode(Carteira.UsoRemarcado.self) }
            #expect(remarcados.map { [$0.reservaId.lowercasedString, $0.de, $0.para] } == [[reservas[2].lowercased(), "2026-12", "2027-01"]])
        }
    }
}
