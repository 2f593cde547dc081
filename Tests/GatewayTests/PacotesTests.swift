import Domain
import EventStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Integrations
import Projections
import Services
import Synchronization
import Testing

/// Bundles of credits sold without a plan, through the API: an operator's bundles, a member's
/// purchases paid by card, PIX or declined, the credits they grant, and their invoices.
@Suite("Bundles: credits bought without a plan")
struct PacotesTests {
    static let dezHoras =
        #"{"nome":"Pacote 10 horas","medida":"minutos","quantidade":600,"tipos":["sala_reuniao"],"validadeDias":30,"precoCentavos":25000}"#

    func criarPacote(_ client: any TestClientProtocol, _ corpo: String, token: String) async throws -> String {
        let resposta = try await client.json(.post, "/api/admin/pacotes", corpo, token: token)
        #expect(resposta.status == .created, "\(String(buffer: resposta.body))")
        return try #require(resposta.object["pacoteId"] as? String)
    }

    /// Purchase `id` as `token` reads it, once `probe` holds of it.
    func compra(
        _ client: any TestClientProtocol, _ id: String, _ token: String, _ probe: @escaping ([String: Any]) -> Bool
    ) async throws -> [String: Any] {
        try await eventually("the purchase as expected") {
            let resposta = try await client.json(.get, "/api/pacotes/compras/\(id)", token: token)
            return probe(resposta.object) ? resposta.object : nil
        }
    }

    @Test("an operator creates and archives bundles; bad input is a 4xx naming the field and writes nothing; members see those on sale")
    func bundles() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            #expect(try await client.json(.post, "/api/admin/pacotes", Self.dezHoras, token: cenario.membro).status == .forbidden)
            let pacote = try await criarPacote(client, Self.dezHoras, token: cenario.admin)
            let passe = try await criarPacote(
                client,
                #"{"nome":"Passe diário","medida":"minutos","quantidade":600,"tipos":["estacao_compartilhada"],"validadeDias":1,"precoCentavos":6000,"unidadeId":"\#(cenario.unidade)"}"#,
                token: cenario.admin)

            let invalidos: [(String, String)] = [
                (#"{"nome":"X","medida":"horas","quantidade":600,"validadeDias":30,"precoCentavos":100}"#, "medida"),
                (#"{"nome":"X","medida":"minutos","quantidade":0,"validadeDias":30,"precoCentavos":100}"#, "quantidade"),
                (#"{"nome":"X","medida":"centavos","quantidade":100000001,"validadeDias":30,"precoCentavos":100}"#, "quantidade"),
                (#"{"nome":"X","medida":"minutos","quantidade":60,"validadeDias":0,"precoCentavos":100}"#, "validadeDias"),
                (#"{"nome":"X","medida":"minutos","quantidade":60,"validadeDias":731,"precoCentavos":100}"#, "validadeDias"),
                (#"{"nome":"X","medida":"minutos","quantidade":60,"validadeDias":3,"precoCentavos":0}"#, "precoCentavos"),
                (#"{"nome":"X","medida":"minutos","quantidade":60,"validadeDias":3,"precoCentavos":-5}"#, "precoCentavos"),
                (#"{"nome":"X","medida":"minutos","quantidade":60,"tipos":["iate"],"validadeDias":3,"precoCentavos":100}"#, "tipos"),
                (
                    #"{"nome":"X","medida":"minutos","quantidade":60,"validadeDias":3,"precoCentavos":100,"unidadeId":"\#(UUID().uuidString)"}"#,
                    "unidadeId"
                ),
                (#"{"nome":"  ","medida":"minutos","quantidade":60,"validadeDias":3,"precoCentavos":100}"#, "nome"),
            ]
            for (corpo, campo) in invalidos {
                let resposta = try await client.json(.post, "/api/admin/pacotes", corpo, token: cenario.admin)
                #expect(resposta.status == .unprocessableContent, "\(corpo): \(String(buffer: resposta.body))")
                #expect((resposta.object["detalhes"] as? [String: Any])?["campo"] as? String == campo, "\(corpo): \(String(buffer: resposta.body))")
            }
            // The same name on sale in the same place (case and accents aside): 409 naming it.
            let repetido = try await client.json(
                .post, "/api/admin/pacotes", Self.dezHoras.replacingOccurrences(of: "Pacote 10 horas", with: "PACOTE 10 HORAS"), token: cenario.admin)
            #expect(repetido.status == .conflict && repetido.object["erro"] as? String == "nome_em_uso", "\(String(buffer: repetido.body))")
            await harness.backend.settle(upTo: nil, types: nil)
            let aVenda = try await client.json(.get, "/api/pacotes")
            #expect(aVenda.object["total"] as? Int == 2, "\(String(buffer: aVenda.body))")
            let nomes = (aVenda.object["itens"] as? [[String: Any]])?.compactMap { $0["nome"] as? String }
            #expect(nomes == ["Pacote 10 horas", "Passe diário"])
            let dia = try await client.json(.get, "/api/pacotes/\(passe)")
            #expect(dia.object["validadeDias"] as? Int == 1 && dia.object["unidadeId"] as? String == cenario.unidade, "\(String(buffer: dia.body))")

            // Archived: off sale for members, still listed for operators; its name is free again.
            let arquivado = try await client.json(.post, "/api/admin/pacotes/\(pacote)/arquivamento", "", token: cenario.admin)
            #expect(arquivado.object["arquivado"] as? Bool == true, "\(String(buffer: arquivado.body))")
            await harness.backend.settle(upTo: nil, types: nil)
            #expect(try await client.json(.get, "/api/pacotes").object["total"] as? Int == 1)
            #expect(try await client.json(.get, "/api/pacotes/\(pacote)").status == .notFound)
            #expect(try await client.json(.get, "/api/admin/pacotes", token: cenario.admin).object["total"] as? Int == 2)
            #expect(try await client.json(.post, "/api/admin/pacotes", Self.dezHoras, token: cenario.admin).status == .created)
            #expect(
                try await client.json(.post, "/api/pacotes/\(pacote)/compras", #"{"metodo":"pix"}"#, token: cenario.membro).object["erro"] as? String
                    == "pacote_arquivado")
        }
    }

    @Test(
        "a member buys a bundle: a card is charged and its notice grants the credits (one lot, valid for the bundle's days) and one invoice; a PIX waits until paid; a declined card grants nothing; a retry is the same purchase"
    )
    func purchases() async throws {
        let clock = ManualClock(segundaDeManha)
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let pacote = try await criarPacote(client, Self.dezHoras, token: cenario.admin)
            func compra(_ id: String, _ token: String, _ probe: @escaping ([String: Any]) -> Bool) async throws -> [String: Any] {
                try await self.compra(client, id, token, probe)
            }

            // Bad input writes nothing.
            for (corpo, campo) in [(#"{"metodo":"cheque"}"#, "metodo"), (#"{"metodo":"cartao"}"#, "cartaoToken")] {
                let resposta = try await client.json(.post, "/api/pacotes/\(pacote)/compras", corpo, token: cenario.membro)
                #expect(resposta.status == .unprocessableContent, "\(corpo): \(String(buffer: resposta.body))")
                #expect((resposta.object["detalhes"] as? [String: Any])?["campo"] as? String == campo)
            }
            #expect(
                try await client.json(.post, "/api/pacotes/\(UUID().uuidString)/compras", #"{"metodo":"pix"}"#, token: cenario.membro).status
                    == .notFound)
            #expect(try await client.json(.post, "/api/pacotes/\(pacote)/compras", #"{"metodo":"pix"}"#).status == .unauthorized)

            // A good card: charged, paid by the provider's notice, the credits granted.
            let chave: HTTPFields = [.init("Idempotency-Key")!: "compra-1"]
            let pedida = try await client.json(
                .post, "/api/pacotes/\(pacote)/compras", #"{"metodo":"cartao","cartaoToken":"tok_visa"}"#, token: cenario.membro, headers: chave)
            #expect(pedida.status == .created, "\(String(buffer: pedida.body))")
            let id = try #require(pedida.object["compraId"] as? String)
            #expect(pedida.object["status"] as? String == "pendente" && pedida.object["valorCentavos"] as? Int == 25_000)
            let paga = try await compra(id, cenario.membro) { $0["status"] as? String == "paga" }
            let pagaEm = try Date(try #require(paga["pagaEm"] as? String), strategy: .iso8601)
            let validoAte = try Date(try #require(paga["validoAte"] as? String), strategy: .iso8601)
            #expect(validoAte.timeIntervalSince(pagaEm) == 30 * 86_400)
            // The same request again (a retry): the same purchase, not a second one.
            let repetida = try await client.json(
                .post, "/api/pacotes/\(pacote)/compras", #"{"metodo":"cartao","cartaoToken":"tok_visa"}"#, token: cenario.membro, headers: chave)
            #expect(repetida.object["compraId"] as? String == id, "\(String(buffer: repetida.body))")
            let carteira = try await client.json(.get, "/api/creditos", token: cenario.membro)
            #expect(carteira.object["minutos"] as? Int == 600, "\(String(buffer: carteira.body))")
            let lote = try #require((carteira.object["lotes"] as? [[String: Any]])?.first)
            #expect(
                lote["origem"] as? String == "pacote" && lote["loteId"] as? String == id && lote["descricao"] as? String == "Pacote Pacote 10 horas")
            #expect(lote["tipos"] as? [String] == ["sala_reuniao"])
            // Another member does not see it.
            #expect(try await client.register("bia@example.com").status == .created)
            let bia = try await client.token("bia@example.com")
            #expect(try await client.json(.get, "/api/pacotes/compras/\(id)", token: bia).status == .notFound)
            #expect(try await client.json(.get, "/api/pacotes/compras", token: bia).object["total"] as? Int == 0)

            // The credits pay for a meeting room: the quote spends them.
            let cotacao = try await client.json(
                .post, "/api/precos/cotacao",
                #"{"espacoId":"\#(cenario.sala)","inicio":"2026-12-02T10:00:00-03:00","fim":"2026-12-02T11:00:00-03:00"}"#, token: cenario.membro)
            #expect(
                (cotacao.object["linhas"] as? [[String: Any]])?.contains { $0["codigo"] as? String == "creditos:horas" } == true,
                "\(String(buffer: cotacao.body))")

            // One invoice, in the unit's book (a network-wide bundle: the head office's), with its receipt.
            let fatura = try await eventually("the bundle's invoice") {
                (try await client.json(.get, "/api/faturas", token: cenario.membro).object["itens"] as? [[String: Any]] ?? []).first {
                    $0["pacote"] != nil
                }
            }
            #expect(fatura["valor"] as? Int == 25_000 && fatura["tipoDeEspaco"] as? String == "pacote" && fatura["metodo"] as? String == "cartao")
            #expect(fatura["unidadeId"] as? String == cenario.unidade && (fatura["pacote"] as? [String: Any])?["compraId"] as? String == id)
            let recibo = try await client.json(.get, "/api/faturas/\(try #require(fatura["id"] as? String))/recibo", token: cenario.membro)
            #expect(recibo.object["espaco"] as? String == "Pacote Pacote 10 horas", "\(String(buffer: recibo.body))")

            // PIX: pending with its code until the member pays at the sandbox.
            clock.set(segundaDeManha.addingTimeInterval(60))
            let pix = try await client.json(.post, "/api/pacotes/\(pacote)/compras", #"{"metodo":"pix"}"#, token: cenario.membro)
            let pixId = try #require(pix.object["compraId"] as? String)
            let cobrada = try await compra(pixId, cenario.membro) { $0["cobranca"] != nil }
            #expect(cobrada["status"] as? String == "pendente" && cobrada["expiraEm"] != nil)
            let cobranca = try #require((cobrada["cobranca"] as? [String: Any])?["cobrancaId"] as? String)
            #expect(((cobrada["cobranca"] as? [String: Any])?["pix"] as? [String: Any])?["copiaECola"] != nil, "\(cobrada)")
            await harness.backend.settle(upTo: nil, types: nil)
            #expect(try await client.json(.get, "/api/creditos", token: cenario.membro).object["minutos"] as? Int == 600)
            #expect(try await client.json(.post, "/api/sandbox/cobrancas/\(cobranca)/pagamento").status == .ok)
            _ = try await compra(pixId, cenario.membro) { $0["status"] as? String == "paga" }
            // The paid notice wrote both in one append, but they are two read models: the
            // wallet's may be a beat behind the purchase's (here no edge waits on the notice).
            await harness.backend.settle(upTo: nil, types: nil)
            #expect(try await client.json(.get, "/api/creditos", token: cenario.membro).object["minutos"] as? Int == 1_200)

            // A declined card: declined, nothing granted, no invoice.
            let recusada = try await client.json(
                .post, "/api/pacotes/\(pacote)/compras", #"{"metodo":"cartao","cartaoToken":"tok_sandbox_recusado"}"#, token: bia)
            let recusadaId = try #require(recusada.object["compraId"] as? String)
            let lida = try await compra(recusadaId, bia) { $0["status"] as? String == "recusada" }
            #expect((lida["motivo"] as? String)?.isEmpty == false)
            await harness.backend.settle(upTo: nil, types: nil)
            #expect(try await client.json(.get, "/api/creditos", token: bia).object["minutos"] as? Int == 0)
            #expect(try await client.json(.get, "/api/faturas", token: bia).object["total"] as? Int == 0)

            // A PIX never paid: once its code runs out (a day), the timer expires the purchase.
            let esquecida = try await client.json(.post, "/api/pacotes/\(pacote)/compras", #"{"metodo":"pix"}"#, token: bia)
            let esquecidaId = try #require(esquecida.object["compraId"] as? String)
            let aberta = try await compra(esquecidaId, bia) { $0["cobranca"] != nil }
            let expiraEm = try Date(try #require(aberta["expiraEm"] as? String), strategy: .iso8601)
            await harness.backend.settle(upTo: nil, types: nil)
            let assinaturas = harness.backend.negocio.assinaturas
            #expect(try await assinaturas.expirarComprasVencidas() == 0)
            clock.set(expiraEm)
            #expect(try await assinaturas.expirarComprasVencidas() == 1)
            #expect(try await compra(esquecidaId, bia) { $0["status"] as? String == "expirada" }["loteId"] == nil)
            await harness.backend.settle(upTo: nil, types: nil)
            #expect(try await assinaturas.expirarComprasVencidas() == 0)
            let nasCompras = try await client.json(.get, "/api/pacotes/compras", token: bia).object["itens"] as? [[String: Any]]
            #expect(nasCompras?.first { $0["compraId"] as? String == esquecidaId }?["status"] as? String == "expirada")
            #expect(try await client.json(.get, "/api/creditos", token: bia).object["minutos"] as? Int == 0)

            // The member's purchases, the most recent first; two paid invoices in all.
            let minhas = try await client.json(.get, "/api/pacotes/compras", token: cenario.membro)
            #expect(
                (minhas.object["itens"] as? [[String: Any]])?.compactMap { $0["compraId"] as? String } == [pixId, id],
                "\(String(buffer: minhas.body))")
            let faturas = try await eventually("both invoices") {
                let itens = try await client.json(.get, "/api/faturas", token: cenario.membro).object["itens"] as? [[String: Any]] ?? []
                return itens.count == 2 ? itens : nil
            }
            #expect(Set(faturas.compactMap { $0["numero"] as? Int }) == [1, 2])
            // Each paid purchase was told by e-mail, once, with its credits and their validity;
            // the declined one was not.
            let pagas = try await eventually("the two paid e-mails") {
                let achados = try harness.emails().filter { $0.subject?.hasPrefix("Pacote pago") == true }
                return achados.count >= 2 ? achados : nil
            }
            #expect(pagas.count == 2 && pagas.allSatisfy { $0.subject == "Pacote pago: Pacote Pacote 10 horas" })
            let texto = pagas.first?.text ?? ""
            #expect(texto.contains("10 h de créditos estão na sua carteira e podem ser usados até "), "\(texto)")
            // The memberships' analytics count the bundles sold in the month's revenue, each bundle a line.
            await harness.backend.settle(upTo: nil, types: nil)
            let analytics = try await client.json(.get, "/api/analytics/assinaturas?meses=1", token: cenario.admin).object
            let novembro = try #require((analytics["meses"] as? [[String: Any]])?.last, "\(analytics)")
            #expect(novembro["mes"] as? String == "2026-11" && novembro["receita"] as? Int == 50_000, "\(novembro)")
            #expect(novembro["receitaDePacotes"] as? Int == 50_000)
            let linhas = try #require(novembro["receitaPorPlano"] as? [[String: Any]])
            #expect(linhas.count == 1 && linhas.first?["planoId"] as? String == pacote && linhas.first?["tipo"] as? String == "pacote", "\(linhas)")
            #expect(linhas.first?["nome"] as? String == "Pacote 10 horas" && linhas.first?["receita"] as? Int == 50_000)
        }
    }

    @Test(
        "an operator refunds a paid bundle: what is left of its credits leaves the wallet in the same append, the price's share of it goes back through the provider, a credit note and an e-mail follow; credits a booking gives back later are lost; bad input changes nothing; once only"
    )
    func refunds() async throws {
        let clock = ManualClock(segundaDeManha)
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let pacote = try await criarPacote(client, Self.dezHoras, token: cenario.admin)
            let membro = try #require(try await client.json(.get, "/api/auth/me", token: cenario.membro).object["id"] as? String)
            func minutos() async throws -> Int? { try await client.json(.get, "/api/creditos", token: cenario.membro).object["minutos"] as? Int }
            func compra(_ id: String, _ probe: @escaping ([String: Any]) -> Bool) async throws -> [String: Any] {
                try await self.compra(client, id, cenario.membro, probe)
            }
            let pedida = try await client.json(
                .post, "/api/pacotes/\(pacote)/compras", #"{"metodo":"cartao","cartaoToken":"tok_visa"}"#, token: cenario.membro)
            let id = try #require(pedida.object["compraId"] as? String)
            let paga = try await compra(id) { $0["status"] as? String == "paga" }
            let cobranca = try #require((paga["cobranca"] as? [String: Any])?["cobrancaId"] as? String)
            // A PIX purchase still unpaid cannot be refunded.
            clock.set(segundaDeManha.addingTimeInterval(60))
            let pix = try await client.json(.post, "/api/pacotes/\(pacote)/compras", #"{"metodo":"pix"}"#, token: cenario.membro)
            let pixId = try #require(pix.object["compraId"] as? String)
            _ = try await compra(pixId) { $0["cobranca"] != nil }

            // One hour of the ten spent on a booking that is still ahead.
            let reserva = try await client.json(
                .post, "/api/reservas",
                #"{"espacoId":"\#(cenario.sala)","inicio":"2026-12-02T10:00:00-03:00","fim":"2026-12-02T11:00:00-03:00","totalEsperado":0}"#,
                token: cenario.membro)
            #expect(reserva.status == .created, "\(String(buffer: reserva.body))")
            let reservaId = try #require(reserva.object["id"] as? String)
            #expect(try await minutos() == 540)
            _ = try await eventually("the booking confirmed") {
                try await client.json(.get, "/api/reservas/\(reservaId)", token: cenario.membro).object["status"] as? String == "confirmada"
                    ? true : nil
            }

            // Bad input is a 4xx naming the field and writes nothing; members cannot refund.
            let rota = "/api/admin/pacotes/compras/\(id)/reembolso"
            /// The purchases' and the wallet's events (the only streams a refund writes).
            func escritos() async throws -> [String] {
                try await harness.allEvents().filter { ["compra", "creditos"].contains($0.stream.category) }.map(\.type)
            }
            let antes = try await escritos()
            for (corpo, campo) in [
                (#"{"motivo":"  "}"#, "motivo"), (#"{"motivo":"desistiu","valorCentavos":25001}"#, "valorCentavos"),
                (#"{"motivo":"desistiu","valorCentavos":-1}"#, "valorCentavos"),
            ] {
                let resposta = try await client.json(.post, rota, corpo, token: cenario.admin)
                #expect(resposta.status == .unprocessableContent, "\(corpo): \(String(buffer: resposta.body))")
                #expect((resposta.object["detalhes"] as? [String: Any])?["campo"] as? String == campo, "\(corpo): \(String(buffer: resposta.body))")
            }
            #expect(try await client.json(.post, rota, #"{"motivo":"desistiu"}"#, token: cenario.membro).status == .forbidden)
            #expect(
                try await client.json(.post, "/api/admin/pacotes/compras/\(UUID().uuidString)/reembolso", #"{"motivo":"x"}"#, token: cenario.admin)
                    .status == .notFound)
            let pendente = try await client.json(.post, "/api/admin/pacotes/compras/\(pixId)/reembolso", #"{"motivo":"x"}"#, token: cenario.admin)
            #expect(pendente.status == .conflict && pendente.object["erro"] as? String == "compra_nao_paga", "\(String(buffer: pendente.body))")
            #expect(try await escritos() == antes)

            // The operator sees the member's purchases and refunds the card one: 9 h of 10 were
            // left, so R$ 225,00 of R$ 250,00 goes back.
            let doMembro = try await client.json(.get, "/api/admin/usuarios/\(membro)/pacotes/compras", token: cenario.admin)
            #expect(
                (doMembro.object["itens"] as? [[String: Any]])?.compactMap { $0["compraId"] as? String } == [pixId, id],
                "\(String(buffer: doMembro.body))")
            #expect(try await client.json(.get, "/api/admin/usuarios/\(membro)/pacotes/compras", token: cenario.membro).status == .forbidden)
            let reembolsada = try await client.json(.post, rota, #"{"motivo":"mudou de cidade"}"#, token: cenario.admin)
            #expect(reembolsada.status == .ok, "\(String(buffer: reembolsada.body))")
            #expect(reembolsada.object["status"] as? String == "reembolsada")
            let reembolso = try #require(reembolsada.object["reembolso"] as? [String: Any])
            #expect(
                reembolso["valorCentavos"] as? Int == 22_500 && reembolso["retirado"] as? Int == 540 && reembolso["medida"] as? String == "minutos")
            #expect(reembolso["motivo"] as? String == "mudou de cidade")
            #expect(try await minutos() == 0)

            // The provider paid it back once; the invoice has its credit note.
            let reembolsos = try await eventually("the provider's refund") {
                let reembolsos = try await client.json(.get, "/api/sandbox/cobrancas/\(cobranca)").object["reembolsos"] as? [String: Any]
                return reembolsos?.isEmpty == false ? reembolsos : nil
            }
            #expect(reembolsos.values.compactMap { $0 as? Int } == [22_500], "\(reembolsos)")
            // Its notice records the payout on the purchase, once; until then the refund reads as in processing.
            #expect(reembolso["concluidoEm"] == nil)
            let concluido = try await eventually("the refund's payout recorded") {
                let compra = try await client.json(.get, "/api/pacotes/compras/\(id)", token: cenario.membro).object
                return (compra["reembolso"] as? [String: Any])?["concluidoEm"] as? String
            }
            #expect(!concluido.isEmpty)
            #expect(try await escritos().filter { $0 == "ReembolsoDeCompraConcluido" }.count == 1)
            let fatura = try await eventually("the bundle's invoice credited") {
                (try await client.json(.get, "/api/faturas", token: cenario.membro).object["itens"] as? [[String: Any]] ?? []).first {
                    $0["pacote"] != nil && $0["reembolsado"] as? Int == 22_500
                }
            }
            #expect(fatura["status"] as? String == "parcialmente_reembolsada" && fatura["liquido"] as? Int == 2_500, "\(fatura)")
            let notas = try #require(fatura["notasDeCredito"] as? [[String: Any]])
            #expect(notas.count == 1 && notas.first?["codigo"] as? String == "NC-1" && notas.first?["valor"] as? Int == 22_500)
            // The member is told, once.
            let emails = try await eventually("the refund's e-mail") {
                let achados = try harness.emails().filter { $0.subject == "Pacote reembolsado: Pacote 10 horas" }
                return achados.isEmpty ? nil : achados
            }
            #expect(emails.count == 1)
            let texto = emails.first?.text ?? ""
            #expect(texto.contains("Devolvemos R$ 225,00") && texto.contains("9 h de créditos que restavam"), "\(texto)")
            // Again (a retry, or a second click): the same refund, nothing more written.
            let depois = try await escritos()
            let repetida = try await client.json(.post, rota, #"{"motivo":"outra vez","valorCentavos":100}"#, token: cenario.admin)
            #expect(repetida.status == .ok && (repetida.object["reembolso"] as? [String: Any])?["valorCentavos"] as? Int == 22_500)
            #expect(try await escritos() == depois)

            // The booking that held an hour of the lot is cancelled: that hour is lost at once.
            #expect(try await client.json(.post, "/api/reservas/\(reservaId)/cancelamento", "{}", token: cenario.membro).status == .ok)
            _ = try await eventually("the booking's credits settled") {
                let extrato = try await client.json(.get, "/api/creditos/extrato", token: cenario.membro).object["itens"] as? [[String: Any]]
                return extrato?.first { $0["tipo"] as? String == "restituidos" && $0["reservaId"] as? String == reservaId }
            }
            #expect(try await minutos() == 0)

            // The month's memberships revenue is net of the refund.
            await harness.backend.settle(upTo: nil, types: nil)
            let analytics = try await client.json(.get, "/api/analytics/assinaturas?meses=1", token: cenario.admin).object
            let novembro = try #require((analytics["meses"] as? [[String: Any]])?.last, "\(analytics)")
            #expect(novembro["receita"] as? Int == 2_500 && novembro["receitaDePacotes"] as? Int == 2_500, "\(novembro)")

            // Credits whose time is up are worth nothing: with none spent, there is nothing to
            // give back by default, even before the timer expires them.
            let outra = try await client.json(
                .post, "/api/pacotes/\(pacote)/compras", #"{"metodo":"cartao","cartaoToken":"tok_visa"}"#, token: cenario.membro)
            let outraId = try #require(outra.object["compraId"] as? String)
            let outraPaga = try await compra(outraId) { $0["status"] as? String == "paga" }
            clock.set(try Date(try #require(outraPaga["validoAte"] as? String), strategy: .iso8601))
            let vencida = try await client.json(.post, "/api/admin/pacotes/compras/\(outraId)/reembolso", #"{"motivo":"x"}"#, token: cenario.admin)
            #expect(vencida.status == .unprocessableContent, "\(String(buffer: vencida.body))")
            #expect((vencida.object["detalhes"] as? [String: Any])?["campo"] as? String == "valorCentavos")
        }
    }

    @Test(
        "a bundle refund whose notice never arrives is concluded by asking the provider once it is overdue, once; the notice arriving after that records nothing"
    )
    func a_lost_refund_notice_is_reconciled() async throws {
        let clock = ManualClock(segundaDeManha)
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let pagamentos = harness.backend.negocio.pagamentos
            let pacote = try await criarPacote(client, Self.dezHoras, token: cenario.admin)
            let pedida = try await client.json(
                .post, "/api/pacotes/\(pacote)/compras", #"{"metodo":"cartao","cartaoToken":"tok_visa"}"#, token: cenario.membro)
            let id = try #require(pedida.object["compraId"] as? String)
            let paga = try await compra(client, id, cenario.membro) { $0["status"] as? String == "paga" }
            let cobranca = try #require((paga["cobranca"] as? [String: Any])?["cobrancaId"] as? String)
            // The webhook is down from here on: the refund's notice never lands.
            let avisos = AvisosRecusados()
            await harness.sandbox.entregarPor { _, _ in
                avisos.tentativas.add(1, ordering: .relaxed)
                return 503
            }
            let reembolsada = try await client.json(
                .post, "/api/admin/pacotes/compras/\(id)/reembolso", #"{"motivo":"mudou de cidade","valorCentavos":10000}"#, token: cenario.admin)
            #expect(reembolsada.status == .ok, "\(String(buffer: reembolsada.body))")
            func concluidos() async throws -> Int { try await harness.allEvents().filter { $0.type == "ReembolsoDeCompraConcluido" }.count }
            // The provider pays out 0.3 s after it was asked, then tries the notice.
            try await eventually("the provider paid the refund out") { avisos.tentativas.load(ordering: .relaxed) > 0 ? true : nil }
            await harness.backend.settle(upTo: nil, types: nil)

            // Not overdue yet: the provider is not asked.
            clock.advance(by: PagamentosReadModel.espera - 1)
            #expect(try await pagamentos.conciliarReembolsos() == 0)
            #expect(try await concluidos() == 0)
            // Overdue: the provider says it was paid out, recorded as its notice would be.
            clock.advance(by: 2)
            #expect(try await pagamentos.conciliarReembolsos() == 1)
            #expect(try await concluidos() == 1)
            let concluida = try await compra(client, id, cenario.membro) { ($0["reembolso"] as? [String: Any])?["concluidoEm"] != nil }
            #expect((concluida["reembolso"] as? [String: Any])?["valorCentavos"] as? Int == 10_000)
            // Nothing left to ask about; asking again records nothing.
            await harness.backend.settle(upTo: nil, types: nil)
            clock.advance(by: 3_600)
            #expect(try await pagamentos.conciliarReembolsos() == 0)
            #expect(try await concluidos() == 1)

            // The notice finally lands: nothing recorded twice.
            let reembolsoId = try #require(
                try await harness.allEvents().first { $0.type == "CompraDePacoteReembolsada" }.flatMap {
                    (try JSONSerialization.jsonObject(with: $0.data) as? [String: Any])?["reembolsoId"] as? String
                })
            let aviso =
                #"{"id":"evt_rf_\#(reembolsoId)","tipo":"reembolso.concluido","cobrancaId":"\#(cobranca)","referencia":"pacote:\#(id)","valor":10000,"reembolsoId":"\#(reembolsoId)","criadoEm":"2026-11-23T11:00:00Z"}"#
            let (_, assinatura) = harness.aviso(aviso, em: clock.now)
            let repetido = try await client.json(
                .post, "/api/pagamentos/webhooks/sandbox", aviso, headers: [.init("X-Sandbox-Signature")!: assinatura])
            #expect(repetido.status == .ok && repetido.object["duplicado"] as? Bool == true, "\(String(buffer: repetido.body))")
            #expect(try await concluidos() == 1)
        }
    }

    @Test("the LGPD export's readable part has the member's subscription with its cycles, the bundles they bought and their credit lots")
    func the_export_reads_plans_bundles_and_credits() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            func resumo() async throws -> [String: Any] {
                let resposta = try await client.json(.get, "/api/auth/me/dados", token: cenario.membro)
                #expect(resposta.status == .ok, "\(String(buffer: resposta.body))")
                return try #require(resposta.object["resumo"] as? [String: Any])
            }
            // Nothing yet: no subscription, no bundle, no credit.
            let vazio = try await resumo()
            #expect(vazio["assinatura"] is NSNull && (vazio["pacotes"] as? [Any])?.isEmpty == true, "\(vazio)")
            #expect(vazio["empresa"] is NSNull, "in no company: \(vazio)")
            let semCreditos = try #require(vazio["creditos"] as? [String: Any])
            #expect(semCreditos["horas"] as? String == "0 h" && (semCreditos["lotes"] as? [Any])?.isEmpty == true, "\(semCreditos)")

            let plano = try await client.json(.post, "/api/admin/planos", AssinaturasTests.flex, token: cenario.admin)
            let planoId = try #require(plano.object["planoId"] as? String)
            let assinada = try await client.json(.post, "/api/assinatura", #"{"planoId":"\#(planoId)","metodo":"boleto"}"#, token: cenario.membro)
            #expect(assinada.status == .created, "\(String(buffer: assinada.body))")
            let pacote = try await criarPacote(client, Self.dezHoras, token: cenario.admin)
            let compra = try await client.json(
                .post, "/api/pacotes/\(pacote)/compras", #"{"metodo":"cartao","cartaoToken":"tok_visa"}"#, token: cenario.membro)
            let compraId = try #require(compra.object["compraId"] as? String)
            _ = try await self.compra(client, compraId, cenario.membro) { $0["status"] as? String == "paga" }

            let lido = try await eventually("the subscription, the bundle and both lots in the summary") {
                let lido = try await resumo()
                let lotes = (lido["creditos"] as? [String: Any])?["lotes"] as? [Any] ?? []
                return lido["assinatura"] is [String: Any] && (lido["pacotes"] as? [Any])?.count == 1 && lotes.count == 2 ? lido : nil
            }
            // Monday 23 November: the prorated first cycle, 8 of November's 30 days, and the setup fee.
            let assinatura = try #require(lido["assinatura"] as? [String: Any])
            #expect(assinatura["plano"] as? String == "Flex" && assinatura["situacao"] as? String == "ativa", "\(assinatura)")
            #expect(assinatura["desde"] as? String == "23/11/2026" && assinatura["pagamento"] as? String == "boleto", "\(assinatura)")
            #expect(assinatura["valorPorCiclo"] as? String == "R$ 300,00", "\(assinatura)")
            let ciclo = try #require((assinatura["ciclos"] as? [[String: Any]])?.first)
            #expect(ciclo["periodo"] as? String == "23/11/2026 a 30/11/2026" && ciclo["valor"] as? String == "R$ 180,00", "\(ciclo)")
            #expect(ciclo["situacao"] as? String == "a pagar", "\(ciclo)")
            let comprado = try #require((lido["pacotes"] as? [[String: Any]])?.first)
            #expect(comprado["pacote"] as? String == "Pacote 10 horas" && comprado["situacao"] as? String == "paga", "\(comprado)")
            #expect(comprado["valor"] as? String == "R$ 250,00" && comprado["validoAte"] is String, "\(comprado)")
            // 2 h 40 min of the cycle and the bundle's 10 h; the cycle's lot ends at 1 December's
            // midnight, so its last day is 30 November.
            let creditos = try #require(lido["creditos"] as? [String: Any])
            #expect(creditos["horas"] as? String == "12 h 40 min" && creditos["valor"] as? String == "R$ 0,00", "\(creditos)")
            let lotes = try #require(creditos["lotes"] as? [[String: Any]])
            let doPlano = try #require(lotes.first { $0["recebidos"] as? String == "2 h 40 min" })
            #expect(doPlano["ultimoDia"] as? String == "30/11/2026" && doPlano["restam"] as? String == "2 h 40 min", "\(doPlano)")
            #expect(lotes.contains { $0["recebidos"] as? String == "10 h" && $0["descricao"] as? String == "Pacote Pacote 10 horas" }, "\(lotes)")
            #expect(!"\(lido)".contains(compraId) && !"\(lido)".contains(planoId), "no ids in the readable part")
        }
    }
}
