import AsyncHTTPClient
import Domain
import EventStore
import Foundation
import NIOHTTP1
import Services
import Testing

@testable import Integrations

/// Issue 6's proof in the all-in-one mode, over real HTTP: `coworkflow serve` as a process on
/// its embedded store, the sandbox PSP calling the webhook over HTTP, e-mail over SMTP (with
/// AUTH) to an aiosmtpd sink.
@Suite("All-in-one process: the whole story over HTTP, e-mail to a real SMTP sink", .serialized)
struct AllInOneProcessTests {
    @Test(
        "register → quote → book → pay (webhook) → e-mail with .ics → check in → invoice and ledger → occupancy; a refunded cancellation; a no-show")
    func whole_story_over_http() async throws {
        let sink = try await SMTPSink.start(auth: "cowork:senha-smtp")
        defer { sink.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("coworkflow-aio-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var environment = ProcessInfo.processInfo.environment
        environment["LOG_LEVEL"] = "error"
        environment["COWORKFLOW_ADMIN_PASSWORD"] = "segredo-root"
        let (created, output) = try await Deployment.runToEnd(
            ["admin", "create", "--email", "root@aio.test", "--data", directory.path], environment: environment)
        #expect(created == 0, "\(output)")
        environment["SMTP_HOST"] = "127.0.0.1"
        environment["SMTP_PORT"] = String(sink.port)
        environment["SMTP_USER"] = "cowork"
        environment["SMTP_PASSWORD"] = "senha-smtp"
        environment["SMTP_FROM"] = "CoworkFlow <reservas@aio.test>"
        let port = try Deployment.freePort()
        let server = Process()
        server.executableURL = Deployment.binary
        server.arguments = ["serve", "--data", directory.path, "--port", String(port), "--web", directory.appendingPathComponent("sem-web").path]
        server.environment = environment
        server.standardOutput = FileHandle.nullDevice
        try server.run()
        defer { if server.isRunning { Foundation.kill(server.processIdentifier, SIGKILL) } }
        for _ in 0..<600 {
            if let answer = try? await call(.GET, "http://127.0.0.1:\(port)/saude"), answer.status == 200 { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        try await Historia(base: "http://127.0.0.1:\(port)", sink: sink, email: "aio.test").contar()

        server.terminate()
        for _ in 0..<200 where server.isRunning { try await Task.sleep(for: .milliseconds(50)) }
        #expect(server.terminationReason == .exit && server.terminationStatus == 0)
    }
}

@Suite("Embedded secrets")
struct EmbeddedSecretsTests {
    @Test("an empty JWT or webhook key in secrets.json is replaced (an empty HMAC key signs anything); a broken e-mail key stops the start")
    func empty_keys() async throws {
        var environment = ProcessInfo.processInfo.environment
        environment["LOG_LEVEL"] = "error"
        environment["COWORKFLOW_ADMIN_PASSWORD"] = "segredo-root"
        let email = Data(repeating: 7, count: 32).base64EncodedString()
        func directory(_ secrets: [String: String]) throws -> URL {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("coworkflow-secrets-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            try JSONEncoder().encode(secrets).write(to: url.appendingPathComponent("secrets.json"))
            return url
        }
        let vazios = try directory(["jwt": "", "psp": "", "email": email])
        defer { try? FileManager.default.removeItem(at: vazios) }
        let (created, output) = try await Deployment.runToEnd(
            ["admin", "create", "--email", "root@secrets.test", "--data", vazios.path], environment: environment)
        #expect(created == 0, "\(output)")
        let stored = try JSONDecoder().decode([String: String].self, from: Data(contentsOf: vazios.appendingPathComponent("secrets.json")))
        #expect((stored["jwt"] ?? "").utf8.count >= 32)
        #expect((Data(base64Encoded: stored["psp"] ?? "")?.count ?? 0) >= 32)
        #expect(stored["email"] == email)  // never replaced: it keys the e-mail claims

        let quebrado = try directory(["email": ""])
        defer { try? FileManager.default.removeItem(at: quebrado) }
        let (refused, message) = try await Deployment.runToEnd(
            ["admin", "create", "--email", "root@secrets.test", "--data", quebrado.path], environment: environment)
        #expect(refused != 0)
        #expect(message.contains("\"email\" key"), "\(message)")
    }
}

@Suite("coworkflow admin dead-letters")
struct DeadLettersCommandTests {
    @Test("lists the consumers' dead letters; --retry turns a consumer's into redrive requests; bad arguments are refused")
    func list_and_retry() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("coworkflow-dlq-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteEventStore(path: directory.appendingPathComponent("coworkflow.sqlite").path)
        let event = try NewEvent(
            eventId: UUID(), event: Reserva.Event.expirada(Reserva.Expirada(reservaId: Reserva.ID(UUID()), em: segundaDeManha)),
            occurredAt: segundaDeManha)
        _ = try await store.append(to: StreamName("reserva-\(UUID())"), expected: .noStream, events: [event])
        _ = try await store.recordInInbox(
            event.eventId, consumer: "pagamentos", outcome: .deadLettered(reason: "o provedor não respondeu", attempts: 40), appending: [])
        let id = event.eventId.uuidString.lowercased()
        let environment = ["LOG_LEVEL": "error"]

        let (listed, list) = try await Deployment.runToEnd(["admin", "dead-letters", "--data", directory.path], environment: environment)
        #expect(listed == 0, "\(list)")
        #expect(list.contains("pagamentos \(id)") && list.contains("attempts=40") && list.contains("1 dead letter(s)"), "\(list)")

        let (refused, why) = try await Deployment.runToEnd(["admin", "dead-letters", "--retry", "--data", directory.path], environment: environment)
        #expect(refused != 0 && why.contains("--consumer"), "\(why)")
        let (unknown, which) = try await Deployment.runToEnd(
            ["admin", "dead-letters", "--consumer", "nada", "--data", directory.path], environment: environment)
        #expect(unknown != 0 && which.contains("pagamentos"), "\(which)")

        let (retried, answer) = try await Deployment.runToEnd(
            ["admin", "dead-letters", "--consumer", "pagamentos", "--retry", "--event", id, "--data", directory.path], environment: environment)
        #expect(retried == 0 && answer.contains("1 dead letter(s) will be handled again"), "\(answer)")
        #expect(try await store.redriveRequests(consumer: "pagamentos", limit: 10).map(\.eventId) == [event.eventId])
        #expect(try await store.deadLetters(consumer: "pagamentos", limit: 10).isEmpty)
    }
}

/// Issue 6's story over HTTP against a running system (`base`: the all-in-one server or the
/// distributed gateway), e-mail checked at `sink`. The admin `root@<email>` (password
/// `segredo-root`) exists already.
struct Historia {
    let base: String
    let sink: SMTPSink
    /// The accounts' domain (`root@…`, `ana@…`).
    let email: String
    /// How long to wait for each asynchronous outcome (the distributed mode's hops take longer).
    var paciencia: Duration = .seconds(15)

    func contar() async throws {
        func token(_ email: String, _ senha: String) async throws -> String {
            let login = try await call(.POST, base + "/api/auth/login", #"{"email":"\#(email)","senha":"\#(senha)"}"#)
            return try #require(login.object["token"] as? String, "\(login.text)")
        }
        func until<T>(_ what: String, _ probe: () async throws -> T?) async throws -> T {
            let deadline = ContinuousClock.now + paciencia
            while ContinuousClock.now < deadline {
                if let value = try await probe() { return value }
                try await Task.sleep(for: .milliseconds(50))
            }
            Issue.record("timed out waiting for \(what)")
            throw CancellationError()
        }
        let admin = try await token("root@\(email)", "segredo-root")
        #expect(
            try await call(.POST, base + "/api/auth/registro", #"{"nome":"Ana Souza","email":"ana@\#(email)","senha":"segredo-123"}"#).status == 201)
        let membro = try await token("ana@\(email)", "segredo-123")

        // Two units: the usual check-in window, and one whose window closes at the start (the no-show).
        func unidade(_ nome: String, janela: String) async throws -> String {
            let r = try await call(
                .POST, base + "/api/admin/unidades",
                #"""
                {"nome":"\#(nome)","endereco":{"logradouro":"Av. Paulista","numero":"1000","cidade":"São Paulo","uf":"SP","cep":"01310-100"},
                 "politicaDeCancelamento":{"horasSemMulta":24,"multaBP":5000},"operacao":{"aliquotaISSBP":200,"janelaDeCheckin":\#(janela)}}
                """#, token: admin)
            return try #require(r.object["id"] as? String, "\(r.text)")
        }
        let paulista = try await unidade("Paulista", janela: #"{"antesMinutos":15,"depoisMinutos":30}"#)
        let pinheiros = try await unidade("Pinheiros", janela: #"{"antesMinutos":0,"depoisMinutos":0}"#)
        let sempreAberto =
            #"{"domingo":[{"abre":0,"fecha":1440}],"segunda":[{"abre":0,"fecha":1440}],"terca":[{"abre":0,"fecha":1440}],"quarta":[{"abre":0,"fecha":1440}],"quinta":[{"abre":0,"fecha":1440}],"sexta":[{"abre":0,"fecha":1440}],"sabado":[{"abre":0,"fecha":1440}]}"#
        func espaco(_ unidade: String, _ nome: String) async throws -> String {
            let r = try await call(
                .POST, base + "/api/admin/espacos",
                """
                {"unidadeId":"\(unidade)","nome":"\(nome)","tipo":"sala_reuniao","capacidade":6,
                 "regras":{"duracaoMinimaMinutos":30,"duracaoMaximaMinutos":600,"antecedenciaMinimaMinutos":0,"antecedenciaMaximaDias":90},
                 "horario":\(sempreAberto)}
                """, token: admin)
            let id = try #require(r.object["id"] as? String, "\(r.text)")
            #expect(
                try await call(
                    .PUT, base + "/api/admin/espacos/\(id)/precos", #"{"porHora":6000,"meioPeriodo":20000,"diaria":40000,"duracaoMinimaMinutos":30}"#,
                    token: admin
                ).status == 200)
            return id
        }
        let sala = try await espaco(paulista, "Sala Ipê")
        let outra = try await espaco(pinheiros, "Sala Jatobá")

        let formatter = ISO8601DateFormatter()
        func intervalo(_ inicio: TimeInterval, minutos: Int) -> (String, String) {
            let start = Date().addingTimeInterval(inicio)
            return (formatter.string(from: start), formatter.string(from: start.addingTimeInterval(Double(minutos) * 60)))
        }
        func reservar(_ espaco: String, _ janela: (String, String), pagamento: String? = nil) async throws -> String {
            let extra = pagamento.map { #","pagamento":\#($0)"# } ?? ""
            let cotacao = try await call(
                .POST, base + "/api/precos/cotacao", #"{"espacoId":"\#(espaco)","inicio":"\#(janela.0)","fim":"\#(janela.1)"}"#)
            #expect(cotacao.status == 200 && (cotacao.object["total"] as? Int ?? 0) > 0, "\(cotacao.text)")
            let r = try await call(
                .POST, base + "/api/reservas", #"{"espacoId":"\#(espaco)","inicio":"\#(janela.0)","fim":"\#(janela.1)"\#(extra)}"#, token: membro)
            return try #require(r.object["id"] as? String, "\(r.text)")
        }
        func pagamento(_ id: String, _ status: String) async throws -> [String: Any] {
            try await until("payment \(status)") {
                let p = try await call(.GET, base + "/api/reservas/\(id)/pagamento", token: membro).object
                return p["status"] as? String == status ? p : nil
            }
        }

        // Book 5 minutes ahead (the window is already open), pay by PIX at the sandbox.
        let a = try await reservar(sala, intervalo(300, minutos: 60))
        let cobranca = try #require(try await pagamento(a, "pendente")["cobrancaId"] as? String)
        let pago = try await call(.POST, base + "/api/sandbox/cobrancas/\(cobranca)/pagamento")
        #expect(pago.status == 200 && pago.object["situacao"] as? String == "paga", "\(pago.text)")
        let vista = try await call(.GET, base + "/api/sandbox/cobrancas/\(cobranca)")
        #expect(vista.object["situacao"] as? String == "paga", "\(vista.text)")
        _ = try await pagamento(a, "confirmado")
        _ = try await until("booking confirmed") {
            try await call(.GET, base + "/api/reservas/\(a)", token: membro).object["status"] as? String == "confirmada" ? true : nil
        }

        // The confirmation reached the SMTP server, .ics attached.
        let confirmacao = try await until("confirmation e-mail at the sink") {
            try sink.messages().map { try ParsedEmail(raw: $0) }.first { $0.subject?.hasPrefix("Reserva confirmada") == true }
        }
        #expect(confirmacao.to.map(\.address) == ["ana@\(email)"])
        let ics = try #require(confirmacao.attachments.first { $0.contentType.hasPrefix("text/calendar") })
        #expect(String(decoding: ics.data, as: UTF8.self).contains("BEGIN:VEVENT"))
        #expect(try sink.messages().map { try ParsedEmail(raw: $0) }.contains { $0.subject == "Bem-vindo(a) à CoworkFlow" })

        // Check in with the code, by the member.
        let codigo = try await until("check-in code") {
            try await call(.GET, base + "/api/reservas/\(a)/checkin", token: membro).object["codigo"] as? String
        }
        let checkin = try await call(.POST, base + "/api/checkin", #"{"codigo":"\#(codigo)"}"#, token: membro)
        #expect(checkin.status == 200 && checkin.object["status"] as? String == "presente", "\(checkin.text)")

        // Invoice (ISS 2 %) and a balanced ledger.
        let fatura = try await until("invoice") {
            (try await call(.GET, base + "/api/admin/financeiro/faturas?unidade=\(paulista)", token: admin).object["itens"] as? [[String: Any]])?
                .first
        }
        #expect(fatura["numero"] as? Int == 1 && fatura["valor"] as? Int == 6_000 && fatura["iss"] as? Int == 120)
        #expect(try await call(.GET, base + "/api/admin/financeiro/razao", token: admin).object["equilibrado"] as? Bool == true)

        // Analytics: today's occupancy of the room is above zero.
        let hoje = Deployment.localDate(daysAhead: 0)
        _ = try await until("occupancy") {
            let espacos =
                try await call(
                    .GET, base + "/api/analytics/ocupacao?espaco=\(sala)&de=\(hoje)&ate=\(Deployment.localDate(daysAhead: 1))", token: admin
                )
                .object["espacos"] as? [[String: Any]]
            return (espacos?.first?["horasReservadas"] as? Double ?? 0) > 0 ? true : nil
        }

        // A card booking cancelled inside 24 h: half refunded, credit note, refund e-mail. Its
        // hour crosses the unit's local midnight between 23:00 and 00:00 UTC and costs one hour
        // then too (ADR 0004).
        let daquiA = 3 * 3_600.0
        let b = try await reservar(sala, intervalo(daquiA, minutos: 60), pagamento: #"{"metodo":"cartao","cartaoToken":"tok_visa"}"#)
        _ = try await pagamento(b, "confirmado")
        _ = try await until("booking B confirmed") {
            try await call(.GET, base + "/api/reservas/\(b)", token: membro).object["status"] as? String == "confirmada" ? true : nil
        }
        let cancelada = try await call(.POST, base + "/api/reservas/\(b)/cancelamento", #"{"motivo":"mudança de planos"}"#, token: membro)
        #expect((cancelada.object["cancelamento"] as? [String: Any])?["reembolso"] as? Int == 3_000, "\(cancelada.text)")
        _ = try await until("refund concluded") {
            try await call(.GET, base + "/api/reservas/\(b)/pagamento", token: membro).object["reembolsado"] as? Int == 3_000 ? true : nil
        }
        _ = try await until("credit note") {
            let itens =
                try await call(.GET, base + "/api/admin/financeiro/faturas?unidade=\(paulista)", token: admin).object["itens"] as? [[String: Any]]
                ?? []
            return itens.contains { !(($0["notasDeCredito"] as? [[String: Any]]) ?? []).isEmpty } ? true : nil
        }
        _ = try await until("refund e-mail") {
            try sink.messages().map { try ParsedEmail(raw: $0) }.contains { $0.subject?.hasPrefix("Reembolso concluído") == true } ? true : nil
        }

        // A paid booking in the unit whose window closes at the start: nobody comes, no-show.
        let c = try await reservar(outra, intervalo(3, minutos: 60), pagamento: #"{"metodo":"cartao","cartaoToken":"tok_visa"}"#)
        _ = try await pagamento(c, "confirmado")
        _ = try await until("no-show") {
            try await call(.GET, base + "/api/reservas/\(c)/checkin", token: membro).object["status"] as? String == "noShow" ? true : nil
        }
        _ = try await until("no-show e-mail") {
            try sink.messages().map { try ParsedEmail(raw: $0) }.contains { $0.subject == "Não registramos sua entrada" } ? true : nil
        }
        // The rates read model follows a moment later in the distributed mode.
        _ = try await until("no-show and check-in counted") {
            let indicadores = try await call(.GET, base + "/api/analytics/indicadores", token: admin).object
            return indicadores["noShows"] as? Int == 1 && indicadores["checkins"] as? Int == 1 ? true : nil
        }

        // A membership (issue 39): an operator's plan; the member subscribes by card; the cycle's
        // credits are in the wallet at once, its charge goes through pagamentos and the
        // provider, whose notice marks the cycle paid.
        let plano = try await call(
            .POST, base + "/api/admin/planos",
            #"{"nome":"Flex","periodicidade":"mensal","valorCentavos":30000,"horasMinutos":600,"tiposDasHoras":["sala_reuniao"]}"#, token: admin)
        let planoId = try #require(plano.object["planoId"] as? String, "\(plano.text)")
        let assinada = try await call(
            .POST, base + "/api/assinatura", #"{"planoId":"\#(planoId)","metodo":"cartao","cartaoToken":"tok_visa"}"#, token: membro)
        #expect(assinada.status == 201, "\(assinada.text)")
        let minutos = try #require((assinada.object["cicloAtual"] as? [String: Any])?["minutos"] as? Int, "\(assinada.text)")
        #expect(minutos > 0)
        let carteira = try await call(.GET, base + "/api/creditos", token: membro)
        #expect(carteira.object["minutos"] as? Int == minutos, "\(carteira.text)")
        _ = try await until("the first cycle paid") {
            let assinatura = try await call(.GET, base + "/api/assinatura", token: membro).object
            return (assinatura["cicloAtual"] as? [String: Any])?["pago"] as? Bool == true ? true : nil
        }

        // A bundle bought without a plan (issue 39): charged through pagamentos and the
        // provider; its paid notice adds its hours to the wallet, and financeiro invoices it.
        let pacote = try await call(
            .POST, base + "/api/admin/pacotes",
            #"{"nome":"5 horas","medida":"minutos","quantidade":300,"tipos":["sala_reuniao"],"validadeDias":30,"precoCentavos":15000}"#,
            token: admin)
        let pacoteId = try #require(pacote.object["pacoteId"] as? String, "\(pacote.text)")
        let compra = try await call(
            .POST, base + "/api/pacotes/\(pacoteId)/compras", #"{"metodo":"cartao","cartaoToken":"tok_visa"}"#, token: membro)
        #expect(compra.status == 201, "\(compra.text)")
        let compraId = try #require(compra.object["compraId"] as? String, "\(compra.text)")
        _ = try await until("the bundle paid") {
            try await call(.GET, base + "/api/pacotes/compras/\(compraId)", token: membro).object["status"] as? String == "paga" ? true : nil
        }
        // The paid notice wrote both in one append, but the wallet's read model may be a beat
        // behind the purchase's.
        _ = try await until("the bundle's hours in the wallet") {
            try await call(.GET, base + "/api/creditos", token: membro).object["minutos"] as? Int == minutos + 300 ? true : nil
        }
        _ = try await until("the bundle's invoice") {
            let faturas = try await call(.GET, base + "/api/faturas", token: membro).object["itens"] as? [[String: Any]] ?? []
            return faturas.first { ($0["pacote"] as? [String: Any])?["compraId"] as? String == compraId && $0["valor"] as? Int == 15_000 }
        }
    }
}
