import Domain
import Foundation
import HummingbirdTesting
import Services
import Testing

/// What the e-mails and notices say: names and codes a person can use, never a booking's id.
@Suite("Notices a member can act on")
struct AvisosTests {
    @Test("the confirmation carries the check-in code; the payment notice names the space and time, not the booking's id")
    func confirmation_has_the_code() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let id = try await confirmada(client, cenario)
            let codigo = try await eventually("the check-in code") {
                try await client.json(.get, "/api/reservas/\(id)/checkin", token: cenario.membro).object["codigo"] as? String
            }
            let confirmacao = try await eventually("the confirmation e-mail") {
                try harness.emails().first { $0.subject?.hasPrefix("Reserva confirmada") == true }
            }
            #expect(confirmacao.text?.contains("Seu código de check-in é \(codigo)") == true, "\(confirmacao.text ?? "")")
            let pagamento = try await eventually("the payment e-mail") {
                try harness.emails().first { $0.subject?.hasPrefix("Pagamento recebido") == true }
            }
            #expect(pagamento.text?.contains(id) == false && pagamento.text?.contains("reserva de Sala") == true, "\(pagamento.text ?? "")")
        }
    }

    @Test(
        "a hold that expires unpaid is told to the member (e-mail and inbox: 'expiracao'); a declined card is 'Pagamento recusado', not a cancellation"
    )
    func expiry_and_decline_are_told() async throws {
        let clock = ManualClock(segundaDeManha)
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let pix = try #require(
                try await client.json(
                    .post, "/api/reservas", pedido(cenario.sala, "2026-11-27T10:00:00-03:00", "2026-11-27T11:00:00-03:00"), token: cenario.membro
                )
                .object["id"] as? String)
            _ = try await client.pagamento(pix, token: cenario.membro, status: "pendente")
            clock.advance(by: 16 * 60)
            #expect(try await harness.backend.reservas.executarPrazosVencidos() >= 1)
            _ = try await client.reserva(pix, token: cenario.membro, status: "expirada")
            let expirou = try await eventually("the expiry e-mail") {
                try harness.emails().first { $0.subject?.hasPrefix("Reserva expirada") == true }
            }
            #expect(expirou.text?.contains("nada foi cobrado") == true, "\(expirou.text ?? "")")
            let caixa = try await eventually("the expiry notice in the inbox") {
                let itens = try await client.json(.get, "/api/notificacoes", token: cenario.membro).object["itens"] as? [[String: Any]] ?? []
                return itens.first { $0["tipo"] as? String == "expiracao" }
            }
            #expect((caixa["titulo"] as? String)?.contains("Sala") == true)

            let cartao = pedido(cenario.sala, "2026-11-26T10:00:00-03:00", "2026-11-26T11:00:00-03:00", cartao: "tok_sandbox_recusado")
            let recusada = try #require(try await client.json(.post, "/api/reservas", cartao, token: cenario.membro).object["id"] as? String)
            _ = try await client.reserva(recusada, token: cenario.membro, status: "cancelada")
            let aviso = try await eventually("the declined card's e-mail") {
                try harness.emails().first { $0.subject?.hasPrefix("Pagamento recusado") == true }
            }
            #expect(aviso.text?.contains("nada foi cobrado") == true, "\(aviso.text ?? "")")
        }
    }

    @Test("the LGPD export has a part a person reads: who we know them as, their bookings by space and local time, payments, notices")
    func the_export_reads_as_portuguese() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let id = try await confirmada(client, cenario)
            let resumo = try await eventually("the export's summary with the payment and the notices") {
                let resumo = try await client.json(.get, "/api/auth/me/dados", token: cenario.membro).object["resumo"] as? [String: Any]
                let avisos = resumo?["avisos"] as? [[String: Any]] ?? []
                return (resumo?["pagamentos"] as? [Any])?.isEmpty == false && avisos.count >= 2 ? resumo : nil
            }
            let quem = try #require(resumo["comoConhecemosVoce"] as? [String: Any])
            #expect(quem["email"] as? String == "ana@example.com" && quem["nome"] as? String == "Ana")
            let reserva = try #require((resumo["reservas"] as? [[String: Any]])?.first)
            #expect(reserva["espaco"] as? String == "Sala Ipê" && reserva["quando"] as? String == "25/11/2026, 10:00–11:00", "\(reserva)")
            #expect(reserva["situacao"] as? String == "confirmada")
            let pagamento = try #require((resumo["pagamentos"] as? [[String: Any]])?.first)
            #expect(pagamento["reserva"] as? String == "Sala Ipê, 25/11/2026, 10:00–11:00", "\(pagamento)")
            #expect(!"\(resumo)".contains(id), "no booking id in the readable part")
        }
    }

    @Test("the finance exports also speak Excel in Portuguese: BOM, ';', decimal commas, local times, names of unit, space and member")
    func excel_dialect() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            _ = try await confirmada(client, cenario)
            let financeiro = harness.backend.negocio.financeiro
            let csv = try await eventually("the invoice in the export") {
                let csv = try await financeiro.faturasCSV(unidade: nil, de: "2026-11-01", ate: "2026-11-30", dialeto: .excel)
                return csv.contains("Fatura") && csv.split(separator: "\r\n").count == 2 ? csv : nil
            }
            #expect(csv.hasPrefix("\u{FEFF}\"Tipo\";\"Número\""))
            let linha = try #require(csv.split(separator: "\r\n").last).split(separator: ";").map {
                $0.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
            #expect(linha[0] == "Fatura" && linha[3] == "23/11/2026", "\(linha)")
            #expect(linha[4] == "23/11/2026 08:00", "local time, not UTC: \(linha)")
            #expect(linha[5] == "Paulista" && linha[6] == "Sala Ipê" && linha[8] == "Ana", "\(linha)")
            #expect(linha[10].contains(",") && !linha[10].contains("."), "decimal comma: \(linha[10])")
            let razao = try await financeiro.razaoCSV(unidade: nil, de: "2026-11-01", ate: "2026-11-30", dialeto: .excel)
            #expect(razao.hasPrefix("\u{FEFF}\"Unidade\";") && razao.contains("\"Paulista\";"))
            // The default stays RFC 4180 for programs.
            #expect(try await financeiro.faturasCSV(unidade: nil, de: "2026-11-01", ate: "2026-11-30").hasPrefix("\"tipo\",\"codigo\""))
        }
    }

    @Test("a member reads their own invoices and a receipt (unit, member, space, local time, lines, ISS); another member's is a 404")
    func member_invoices_and_receipts() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let id = try await confirmada(client, cenario)
            let financeiro = harness.backend.negocio.financeiro
            let ana = try #require(try await client.json(.get, "/api/auth/me", token: cenario.membro).object["id"] as? String)
            let minhas = try await eventually("the member's invoice") {
                let pagina = try await financeiro.faturas(doMembro: ana, pagina: 1)
                return pagina.itens.isEmpty ? nil : pagina
            }
            #expect(minhas.total == 1 && minhas.itens.first?.reservaId == id)
            let fatura = try #require(minhas.itens.first)
            let recibo = try await financeiro.recibo(fatura.id, usuario: ana, admin: false)
            #expect(recibo.membro == "Ana" && recibo.espaco == "Sala Ipê" && recibo.unidade?.nome == "Paulista")
            #expect(recibo.quando == "25/11/2026, 10:00–11:00" && !recibo.itens.isEmpty)
            #expect(try await financeiro.faturas(doMembro: UUID().uuidString, pagina: 1).total == 0)
            await #expect { try await financeiro.recibo(fatura.id, usuario: UUID().uuidString, admin: false) } throws: { error in
                (error as? ServiceError)?.status == 404
            }
            #expect(try await financeiro.recibo(fatura.id, usuario: "admin", admin: true).fatura.id == fatura.id)
        }
    }

    @Test("the inbox says which notices are unread and how many; reading it marks them all, and a later notice is unread again")
    func unread_notices() async throws {
        let clock = ManualClock(segundaDeManha)
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let notificacoes = harness.backend.negocio.notificacoes
            let ana = try #require(try await client.json(.get, "/api/auth/me", token: cenario.membro).object["id"] as? String)
            let antes = try await eventually("the welcome notice") {
                let caixa = try await notificacoes.caixaDeEntrada(usuario: ana, pagina: 1)
                return caixa.itens.isEmpty ? nil : caixa
            }
            #expect(antes.naoLidas == 1 && antes.itens.allSatisfy { !$0.lida })
            clock.advance(by: 60)
            try await notificacoes.marcarComoLidas(usuario: ana, caller: Caller(requestId: "t", usuario: ana))
            let lidas = try await eventually("read") {
                let caixa = try await notificacoes.caixaDeEntrada(usuario: ana, pagina: 1)
                return caixa.naoLidas == 0 ? caixa : nil
            }
            #expect(lidas.itens.allSatisfy { $0.lida })
            clock.advance(by: 60)
            let cartao = pedido(cenario.sala, "2026-11-25T10:00:00-03:00", "2026-11-25T11:00:00-03:00", cartao: "tok_visa")
            _ = try await client.json(.post, "/api/reservas", cartao, token: cenario.membro)
            let depois = try await eventually("the new notices unread") {
                let caixa = try await notificacoes.caixaDeEntrada(usuario: ana, pagina: 1)
                return caixa.naoLidas >= 1 ? caixa : nil
            }
            #expect(depois.itens.first?.lida == false && depois.itens.last?.lida == true)
        }
    }

    @Test("over HTTP: a member's invoices and receipt (another member gets 404), the inbox read mark, the Excel dialect of the exports")
    func the_routes_of_the_members_screens() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let id = try await confirmada(client, cenario)
            let fatura = try await eventually("the member's invoice") {
                (try await client.json(.get, "/api/faturas", token: cenario.membro).object["itens"] as? [[String: Any]])?.first
            }
            #expect(fatura["reservaId"] as? String == id)
            let faturaId = try #require(fatura["id"] as? String)
            let recibo = try await client.json(.get, "/api/faturas/\(faturaId)/recibo", token: cenario.membro)
            #expect(recibo.status == .ok && recibo.object["espaco"] as? String == "Sala Ipê" && recibo.object["membro"] as? String == "Ana")
            #expect(try await client.register("bia@example.com").status == .created)
            let bia = try await client.token("bia@example.com")
            #expect(try await client.json(.get, "/api/faturas/\(faturaId)/recibo", token: bia).status == .notFound)
            #expect((try await client.json(.get, "/api/faturas", token: bia).object["total"] as? Int) == 0)
            #expect(try await client.json(.get, "/api/faturas").status == .unauthorized)

            let antes = try await client.json(.get, "/api/notificacoes", token: cenario.membro).object
            #expect((antes["naoLidas"] as? Int ?? 0) >= 1)
            #expect(try await client.json(.post, "/api/notificacoes/leitura", token: cenario.membro).status == .noContent)
            let depois = try await client.json(.get, "/api/notificacoes", token: cenario.membro).object
            #expect(depois["naoLidas"] as? Int == 0 && (depois["itens"] as? [[String: Any]])?.allSatisfy { $0["lida"] as? Bool == true } == true)

            let excel = try await client.json(
                .get, "/api/admin/financeiro/faturas.csv?de=2026-11-01&ate=2026-11-30&dialeto=excel", token: cenario.admin)
            #expect(excel.status == .ok && String(buffer: excel.body).hasPrefix("\u{FEFF}\"Tipo\";"))
            let errado = try await client.json(.get, "/api/admin/financeiro/razao.csv?de=2026-11-01&ate=2026-11-30&dialeto=ods", token: cenario.admin)
            #expect(errado.status == .badRequest && (errado.object["detalhes"] as? [String: Any])?["campo"] as? String == "dialeto")
        }
    }
}

/// The member's card booking of the room on the 25th, 10:00–11:00, once confirmed: its id.
private func confirmada(_ client: any TestClientProtocol, _ cenario: Cenario) async throws -> String {
    let cartao = pedido(cenario.sala, "2026-11-25T10:00:00-03:00", "2026-11-25T11:00:00-03:00", cartao: "tok_visa")
    let id = try #require(try await client.json(.post, "/api/reservas", cartao, token: cenario.membro).object["id"] as? String)
    _ = try await client.reserva(id, token: cenario.membro, status: "confirmada")
    return id
}
