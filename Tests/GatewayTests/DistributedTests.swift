import AsyncHTTPClient
import Domain
import EventStore
import Foundation
import Logging
import Messaging
import NIOCore
import NIOHTTP1
import PostgresNIO
import Projections
import TestSupport
import Testing

/// The distributed mode as it is deployed: one `coworkflow serve --service <name>` process per
/// deployable (the binary built beside the test bundle), on loopback, against the local
/// PostgreSQL (a database of its own) and RabbitMQ, started and stopped by the test.
@Suite("Distributed mode: one process per deployable", .serialized)
struct DistributedTests {
    @Test("a deployable refuses to start without JWT_SECRET, and names it")
    func refuses_without_secret() async throws {
        var environment = ProcessInfo.processInfo.environment
        environment["JWT_SECRET"] = nil
        let (status, output) = try await Deployment.runToEnd(["serve", "--service", "usuarios", "--port", "1"], environment: environment)
        #expect(status == 64)
        #expect(output.contains("JWT_SECRET"), "\(output)")
        let (unknown, message) = try await Deployment.runToEnd(["serve", "--service", "faturamento"], environment: environment)
        #expect(unknown == 64)
        #expect(message.contains("gateway, projections"), "\(message)")
    }

    @Test(
        """
        every deployable as its own process (two reservas): register, log in, \
        run a unit, book and read the booking back through the gateway; a race over both reservas \
        processes books the slot once; the relay publishes everything; SIGTERM stops every process cleanly
        """)
    func whole_flow() async throws {
        let deployment = try await Deployment.start()
        var stopped = false
        defer { if !stopped { deployment.kill() } }
        let gateway = deployment.url("gateway")

        // Accounts: the e-mail claim holds across processes; the token of usuarios works everywhere.
        #expect(try await call(.POST, gateway + "/api/auth/registro", #"{"nome":"Ana","email":"ana@e2e.test","senha":"segredo-123"}"#).status == 201)
        let again = try await call(.POST, gateway + "/api/auth/registro", #"{"nome":"Outra","email":"ANA@e2e.test","senha":"segredo-456"}"#)
        #expect(again.status == 409, "\(again.text)")
        let wrong = try await call(.POST, gateway + "/api/auth/login", #"{"email":"ana@e2e.test","senha":"errada-000"}"#)
        #expect(wrong.status == 401)
        #expect(wrong.object["erro"] != nil)
        let malformed = try await call(.POST, gateway + "/api/auth/registro", #"{"nome":"Ana","email":"#)
        #expect(malformed.status == 400, "\(malformed.text)")
        let membro = try await token(gateway, "ana@e2e.test", "segredo-123")
        let me = try await call(.GET, gateway + "/api/auth/me", token: membro)
        #expect(me.status == 200)
        #expect(me.object["email"] as? String == "ana@e2e.test")
        #expect(try await call(.GET, gateway + "/api/auth/me", token: membro + "x").status == 401)

        try await deployment.createAdmin("root@e2e.test", senha: "segredo-root")
        let admin = try await token(gateway, "root@e2e.test", "segredo-root")
        #expect(try await call(.GET, gateway + "/api/admin/usuarios", token: membro).status == 403)

        // The operator sets up a unit and a room (espacos, precos), read back from the read models.
        let unidade = try await call(
            .POST, gateway + "/api/admin/unidades",
            #"""
            {"nome":"Paulista","endereco":{"logradouro":"Av. Paulista","numero":"1000","cidade":"São Paulo","uf":"SP","cep":"01310-100"}}
            """#, token: admin)
        #expect(unidade.status == 201, "\(unidade.text)")
        let unidadeId = try #require(unidade.object["id"] as? String)
        let horario =
            #"{"domingo":[{"abre":420,"fecha":1320}],"segunda":[{"abre":420,"fecha":1320}],"terca":[{"abre":420,"fecha":1320}],"quarta":[{"abre":420,"fecha":1320}],"quinta":[{"abre":420,"fecha":1320}],"sexta":[{"abre":420,"fecha":1320}],"sabado":[{"abre":420,"fecha":1320}]}"#
        let sala = try await call(
            .POST, gateway + "/api/admin/espacos",
            """
            {"unidadeId":"\(unidadeId)","nome":"Sala Ipê","tipo":"sala_reuniao","capacidade":6,"horario":\(horario)}
            """, token: admin)
        #expect(sala.status == 201, "\(sala.text)")
        let salaId = try #require(sala.object["id"] as? String)
        let precos = try await call(
            .PUT, gateway + "/api/admin/espacos/\(salaId)/precos",
            #"{"porHora":5000,"meioPeriodo":18000,"diaria":30000,"duracaoMinimaMinutos":30}"#, token: admin)
        #expect(precos.status == 200, "\(precos.text)")
        // A service names the position its write reached, for the gateway's read-your-writes
        // wait; the gateway keeps it to itself.
        #expect(precos.headers.first(name: "Coworkflow-Posicao") == nil)
        let direto = try await call(
            .POST, deployment.url("espacos") + "/api/admin/unidades",
            #"""
            {"nome":"Direta","endereco":{"logradouro":"Rua B","numero":"2","cidade":"São Paulo","uf":"SP","cep":"01310-200"}}
            """#, token: admin)
        #expect(direto.status == 201, "\(direto.text)")
        #expect(direto.headers.first(name: "Coworkflow-Posicao").flatMap(GlobalPosition.init(parsing:)) != nil)
        let catalogo = try await call(.GET, gateway + "/api/espacos?unidade=\(unidadeId)")
        #expect(catalogo.object["total"] as? Int == 1, "\(catalogo.text)")

        // A booking, and reading it back at once (the gateway answered after the read models caught up).
        let dia = Deployment.localDate(daysAhead: 3)
        let reserva = try await call(
            .POST, gateway + "/api/reservas",
            """
            {"espacoId":"\(salaId)","inicio":"\(dia)T10:00:00-03:00","fim":"\(dia)T12:00:00-03:00"}
            """, token: membro, headers: ["Idempotency-Key": "primeira"])
        #expect(reserva.status == 201, "\(reserva.text)")
        #expect(reserva.object["total"] as? Int == 10_000)
        let reservaId = try #require(reserva.object["id"] as? String)
        let lida = try await call(.GET, gateway + "/api/reservas/\(reservaId)", token: membro)
        #expect(lida.status == 200, "\(lida.text)")
        #expect(lida.object["status"] as? String == "solicitada")
        let minhas = try await call(.GET, gateway + "/api/reservas", token: membro)
        #expect(minhas.object["total"] as? Int == 1, "\(minhas.text)")

        // The same Idempotency-Key again (to whichever reservas replica): the booking it made,
        // said to be replayed through the gateway, nothing new.
        let repetida = try await call(
            .POST, gateway + "/api/reservas",
            """
            {"espacoId":"\(salaId)","inicio":"\(dia)T10:00:00-03:00","fim":"\(dia)T12:00:00-03:00"}
            """, token: membro, headers: ["Idempotency-Key": "primeira"])
        #expect(repetida.status == 201, "\(repetida.text)")
        #expect(repetida.object["id"] as? String == reservaId)
        #expect(repetida.headers.first(name: "Idempotent-Replayed") == "true")

        // Twenty requests for one slot, half to each reservas process (straight to them: the
        // gateway sends every booking of a space to one replica, where they take turns; the
        // store's expected versions must hold across replicas all the same): one wins.
        let replicas = [deployment.url("reservas"), deployment.url("reservas-2")]
        let outcomes = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<20 {
                group.addTask {
                    try await call(
                        .POST, replicas[index % 2] + "/api/reservas",
                        """
                        {"espacoId":"\(salaId)","inicio":"\(dia)T15:00:00-03:00","fim":"\(dia)T16:30:00-03:00"}
                        """, token: membro
                    ).status
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 == 201 }.count == 1, "\(outcomes)")
        #expect(outcomes.filter { $0 == 409 }.count == 19, "\(outcomes)")
        // Straight from a service, the answer does not wait for the read models (the gateway's
        // does): the availability follows a moment later.
        var livres = try await call(.GET, gateway + "/api/espacos/\(salaId)/disponibilidade?data=\(dia)")
        func ocupado(_ answer: Answer) -> Bool {
            !((answer.object["livres"] as? [[String: Any]]) ?? []).contains {
                ($0["inicio"] as? String ?? "") < "\(dia)T18:30:00Z" && ($0["fim"] as? String ?? "") > "\(dia)T18:00:00Z"
            }
        }
        for _ in 0..<100 where !ocupado(livres) {
            try await Task.sleep(for: .milliseconds(100))
            livres = try await call(.GET, gateway + "/api/espacos/\(salaId)/disponibilidade?data=\(dia)")
        }
        let intervalos = try #require(livres.object["livres"] as? [[String: Any]], "\(livres.text)")
        #expect(
            !intervalos.contains { ($0["inicio"] as? String ?? "") < "\(dia)T18:30:00Z" && ($0["fim"] as? String ?? "") > "\(dia)T18:00:00Z" },
            "\(livres.text)")
        for replica in ["reservas", "reservas-2"] {
            let metrics = try await call(.GET, deployment.url(replica) + "/metrics").text
            #expect(metrics.contains(#"route="/api/reservas""#), "\(replica) handled no booking")
        }

        // Credits (assinaturas, its own process): an operator grants an hour of meeting room; the
        // member's booking (a reservas process) spends it in its own append; the wallet reads
        // back through the gateway at once.
        let anaId = try #require(me.object["id"] as? String)
        let ajuste = try await call(
            .POST, gateway + "/api/admin/usuarios/\(anaId)/creditos/ajustes",
            #"{"medida":"minutos","quantidade":60,"motivo":"e2e","tipos":["sala_reuniao"]}"#, token: admin)
        #expect(ajuste.status == 201, "\(ajuste.text)")
        let comCreditos = try await call(
            .POST, gateway + "/api/reservas",
            """
            {"espacoId":"\(salaId)","inicio":"\(dia)T19:00:00-03:00","fim":"\(dia)T20:00:00-03:00","totalEsperado":0}
            """, token: membro)
        #expect(comCreditos.status == 201 && comCreditos.object["total"] as? Int == 0, "\(comCreditos.text)")
        let carteira = try await call(.GET, gateway + "/api/creditos", token: membro)
        #expect(carteira.object["minutos"] as? Int == 0 && (carteira.object["lotes"] as? [Any])?.count == 1, "\(carteira.text)")

        // Visitors (checkin's process, its own vault key per visit; notificacoes tells the host):
        // Ana expects a visitor in an hour; the front desk sees the day and records the arrival.
        let chegada = Date().addingTimeInterval(3_600).formatted(Date.ISO8601FormatStyle())
        let visita = try await call(
            .POST, gateway + "/api/visitas", #"{"unidadeId":"\#(unidadeId)","chegadaPrevista":"\#(chegada)","nome":"Bruno Costa"}"#,
            token: membro)
        #expect(visita.status == 201 && visita.object["nome"] as? String == "Bruno Costa", "\(visita.text)")
        let visitaId = try #require(visita.object["id"] as? String)
        let diaDaVisita = try #require(visita.object["dia"] as? String)
        let doDia = try await call(.GET, gateway + "/api/admin/visitas?unidade=\(unidadeId)&data=\(diaDaVisita)", token: admin)
        #expect((doDia.object["itens"] as? [[String: Any]])?.first?["nome"] as? String == "Bruno Costa", "\(doDia.text)")
        let recebida = try await call(.POST, gateway + "/api/admin/visitas/\(visitaId)/chegada", token: admin)
        #expect(recebida.status == 200 && recebida.object["situacao"] as? String == "presente", "\(recebida.text)")
        var avisada = false
        for _ in 0..<100 where !avisada {
            let caixa = try await call(.GET, gateway + "/api/notificacoes", token: membro)
            avisada = (caixa.object["itens"] as? [[String: Any]])?.contains { $0["titulo"] as? String == "Seu visitante chegou" } == true
            if !avisada { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(avisada, "the host was not told of the visitor's arrival")

        // A recurring booking (reservas' process, through the gateway): the same hour two weeks
        // running, by card; the series reads back through the gateway with both bookings.
        let serie = try await call(
            .POST, gateway + "/api/reservas/series",
            """
            {"espacoId":"\(salaId)","inicio":"\(dia)T13:00:00-03:00","fim":"\(dia)T14:00:00-03:00","frequencia":"semanal","ocorrencias":2,
             "pagamento":{"metodo":"cartao","cartaoToken":"tok_visa"}}
            """, token: membro)
        #expect(serie.status == 201 && serie.object["reservadas"] as? Int == 2, "\(serie.text)")
        let serieId = try #require(serie.object["id"] as? String)
        let serieLida = try await call(.GET, gateway + "/api/reservas/series/\(serieId)", token: membro)
        #expect((serieLida.object["ocorrencias"] as? [[String: Any]])?.compactMap { $0["reservaId"] as? String }.count == 2, "\(serieLida.text)")

        // A token whose account no longer counts: the gateway checks a booking's token only and
        // leaves the account to reservas, which reads it with the booking's read ahead. Rui's
        // booking after his deactivation is a 401 from there, and holds nothing: Ana books the slot.
        #expect(try await call(.POST, gateway + "/api/auth/registro", #"{"nome":"Rui","email":"rui@e2e.test","senha":"segredo-rui1"}"#).status == 201)
        let rui = try await token(gateway, "rui@e2e.test", "segredo-rui1")
        let ruiId = try #require(try await call(.GET, gateway + "/api/auth/me", token: rui).object["id"] as? String)
        let desativada = try await call(.POST, gateway + "/api/admin/usuarios/\(ruiId)/desativacao", token: admin)
        #expect(desativada.status == 204, "\(desativada.text)")
        let slot = #"{"espacoId":"\#(salaId)","inicio":"\#(dia)T08:00:00-03:00","fim":"\#(dia)T09:00:00-03:00"}"#
        let recusada = try await call(.POST, gateway + "/api/reservas", slot, token: rui, headers: ["Idempotency-Key": "rui-1"])
        #expect(recusada.status == 401 && recusada.object["erro"] as? String == "token_invalido", "\(recusada.text)")
        #expect(try await call(.GET, gateway + "/api/reservas", token: rui).status == 401)
        let daAna = try await call(.POST, gateway + "/api/reservas", slot, token: membro)
        #expect(daAna.status == 201, "\(daAna.text)")

        // A company's pooled hours raced over both reservas processes: Ana manages Acme, Bia and
        // Caio join by invitation; a yearly plan of 3 hours of meeting room (a yearly cycle is
        // whole from its start), subscribed today, fills the pool. Twenty bookings at once by the three, on twenty free hours, half to
        // each replica: exactly three are made, the pool ends at zero and never below, and the
        // read models say what the stream says.
        try await companyRace(deployment, admin: admin, ana: membro, anaId: anaId, salaId: salaId)

        // Operations: the gateway reports the read models and the relay; the relay drains.
        let saude = try await call(.GET, gateway + "/saude")
        #expect(saude.status == 200, "\(saude.text)")
        let componentes = try #require(saude.object["componentes"] as? [String: Any])
        #expect(componentes["projection:reservas"] != nil && componentes["relay"] != nil, "\(saude.text)")
        var relayLag = -1
        for _ in 0..<100 {
            let metrics = try await call(.GET, gateway + "/metrics").text
            relayLag =
                metrics.split(separator: "\n").first { $0.hasPrefix(#"coworkflow_subscription_lag_events{subscription="relay"}"#) }
                .flatMap { $0.split(separator: " ").last.flatMap { Double($0).map(Int.init) } } ?? -1
            if relayLag == 0 { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(relayLag == 0, "the relay did not publish every event")
        let projections = try await call(.GET, deployment.url("projections") + "/saude")
        #expect((projections.object["componentes"] as? [String: [String: String]])?["bus"]?["status"] == "ok", "\(projections.text)")
        let appended = try await call(.GET, deployment.url("usuarios") + "/metrics").text
        #expect(!appended.contains("coworkflow_store_events_appended_total 0\n"), "usuarios appended no events")

        stopped = true
        let statuses = await deployment.terminate()
        #expect(statuses.values.allSatisfy { $0 == 0 }, "exit statuses after SIGTERM: \(statuses)")
    }

    @Test(
        """
        the whole business, one process per deployable and the sandbox PSP as its own server: \
        register → quote → book → pay (the sandbox calls the gateway's webhook, forwarded to pagamentos) \
        → e-mail with .ics at the SMTP sink → check in → invoice and ledger → occupancy; a refunded \
        cancellation; a no-show. Each reaction runs in its service, from its own AMQP queue
        """)
    func whole_story() async throws {
        let sink = try await SMTPSink.start()
        defer { sink.stop() }
        let traces = try await TraceReceiver.start()
        defer { traces.stop() }
        let deployment = try await Deployment.start(smtp: sink, traces: traces)
        var stopped = false
        defer { if !stopped { deployment.kill() } }
        try await deployment.createAdmin("root@dist.test", senha: "segredo-root")
        let before = try await deployment.scrapes()
        try await Historia(base: deployment.url("gateway"), sink: sink, email: "dist.test", paciencia: .seconds(40)).contar()
        try await Self.metricsMoved(before: before, after: try await deployment.scrapes())
        try await Self.tracedAcross(traces)

        // The sandbox's provider API wants its key; the gateway's webhook a valid signature.
        let semChave = try await call(.POST, deployment.url("sandbox") + "/v1/cobrancas", "{}")
        #expect(semChave.status == 401 && semChave.object["erro"] as? String == "nao_autenticado", "\(semChave.text)")
        let forjado = try await call(
            .POST, deployment.url("gateway") + "/api/pagamentos/webhooks/sandbox", #"{"id":"evt_x"}"#,
            headers: ["X-Sandbox-Signature": "t=1,v1=00"])
        #expect(forjado.status == 401, "\(forjado.text)")
        // Each reaction ran in its own service: their queues are drained and have consumers.
        for service in ["reservas", "pagamentos", "checkin", "financeiro", "notificacoes"] {
            let saude = try await call(.GET, deployment.url(service) + "/saude")
            #expect((saude.object["componentes"] as? [String: [String: String]])?["bus"]?["status"] == "ok", "\(service): \(saude.text)")
            let metrics = try await call(.GET, deployment.url(service) + "/metrics").text
            #expect(!metrics.contains("coworkflow_store_events_appended_total 0\n"), "\(service) appended no events")
        }

        stopped = true
        let statuses = await deployment.terminate()
        #expect(statuses.values.allSatisfy { $0 == 0 }, "exit statuses after SIGTERM: \(statuses)")
    }

    /// Issue 41's proof: every deployable's `/metrics` parses with prometheus_client's parser
    /// and has the edge's, the store's and the process's figures; together they have every name
    /// of infra/observability/metrics.txt (what the dashboards and alerts use); and the story's
    /// booking, payment, e-mails, relay and consumers moved them.
    func companyRace(_ deployment: Deployment, admin: String, ana: String, anaId: String, salaId: String) async throws {
        let gateway = deployment.url("gateway")
        let corpo =
            #"{"razaoSocial":"Acme Tecnologia Ltda","cnpj":"11.222.333/0001-81","emailDeCobranca":"financeiro@acme.test","#
            + #""endereco":{"logradouro":"Av. Paulista","numero":"1000","cidade":"São Paulo","uf":"SP","cep":"01310-100"},"gestorId":"\#(anaId)"}"#
        let criada = try await call(.POST, gateway + "/api/admin/empresas", corpo, token: admin)
        #expect(criada.status == 201, "\(criada.text)")
        let empresa = try #require(criada.object["empresaId"] as? String, "\(criada.text)")
        var tokens = [ana]
        var pessoas = [anaId]
        for nome in ["bia", "caio"] {
            let convite = try await call(.POST, gateway + "/api/empresas/\(empresa)/convites", #"{"email":"\#(nome)@e2e.test"}"#, token: ana)
            #expect(convite.status == 201, "\(convite.text)")
            let link = String(try #require(convite.object["link"] as? String, "\(convite.text)").dropFirst("/convite/".count))
            let registro = try await call(
                .POST, gateway + "/api/auth/registro", #"{"nome":"\#(nome)","email":"\#(nome)@e2e.test","senha":"segredo-123"}"#)
            #expect(registro.status == 201, "\(registro.text)")
            let ficha = try await token(gateway, "\(nome)@e2e.test", "segredo-123")
            let aceite = try await call(.POST, gateway + "/api/convites/\(link)/aceite", "", token: ficha)
            #expect(aceite.status == 200, "\(aceite.text)")
            tokens.append(ficha)
            pessoas.append(try #require(try await call(.GET, gateway + "/api/auth/me", token: ficha).object["id"] as? String))
        }
        let plano = try await call(
            .POST, gateway + "/api/admin/planos",
            #"{"nome":"Equipe","periodicidade":"anual","valorCentavos":200000,"horasMinutos":180,"tiposDasHoras":["sala_reuniao"]}"#,
            token: admin)
        #expect(plano.status == 201, "\(plano.text)")
        let planoId = try #require(plano.object["planoId"] as? String, "\(plano.text)")
        let assinada = try await call(
            .POST, gateway + "/api/empresas/\(empresa)/assinatura", #"{"planoId":"\#(planoId)","metodo":"boleto","assentos":1}"#, token: ana)
        #expect(assinada.status == 201, "\(assinada.text)")
        let pool = try await call(.GET, gateway + "/api/empresas/\(empresa)/creditos", token: ana)
        #expect(pool.object["minutos"] as? Int == 180, "\(pool.text)")

        let replicas = [deployment.url("reservas"), deployment.url("reservas-2")]
        let horarios = (0..<20).map { n in
            let dia = Deployment.localDate(daysAhead: 5 + n / 10)
            let hora = 8 + n % 10
            let dois = { (x: Int) in x < 10 ? "0\(x)" : "\(x)" }
            return ("\(dia)T\(dois(hora)):00:00-03:00", "\(dia)T\(dois(hora + 1)):00:00-03:00")
        }
        let fichas = tokens
        let outcomes = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for (n, (inicio, fim)) in horarios.enumerated() {
                group.addTask {
                    let resposta = try await call(
                        .POST, replicas[n % 2] + "/api/reservas",
                        #"{"espacoId":"\#(salaId)","inicio":"\#(inicio)","fim":"\#(fim)","totalEsperado":0}"#, token: fichas[n % 3])
                    return (resposta.status, resposta.object["erro"] as? String ?? "")
                }
            }
            return try await group.reduce(into: [(Int, String)]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0.0 == 201 }.count == 3, "\(outcomes)")
        #expect(
            outcomes.allSatisfy { $0.0 == 201 || ($0.0 == 409 && ["creditos_insuficientes", "preco_alterado"].contains($0.1)) },
            "\(outcomes)")

        // The stream: 180 granted, three hours spent, never below zero.
        var settings = try PostgresSettings.fromEnvironment()
        settings.database = Deployment.database
        let store = PostgresEventStore(settings: settings, logger: Logger(label: "e2e.race"))
        let lidos = try await withThrowingTaskGroup(of: [RecordedEvent]?.self) { group in
            group.addTask {
                await store.run()
                return nil
            }
            defer { group.cancelAll() }
            return try await store.readStream(StreamNames.creditos("empresa-\(empresa)"))
        }
        let eventos = try lidos.compactMap { try Carteira.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder) }
        var saldo: Int64 = 0
        var gastos = 0
        for event in eventos {
            switch event {
            case .concedidos(let e): saldo += e.lote.quantidade
            case .consumidos(let e):
                saldo -= e.partes.reduce(0) { $0 + $1.quantidade }
                gastos += 1
                #expect(e.beneficiario.map(pessoas.contains) == true, "\(e)")
            default: break
            }
            #expect(saldo >= 0)
        }
        #expect(saldo == 0 && gastos == 3, "\(eventos)")
        // The read models agree (answered straight from the replicas, they may lag a moment).
        var minutos: Int?
        var usados = 0
        for _ in 0..<100 {
            minutos = try await call(.GET, gateway + "/api/empresas/\(empresa)/creditos", token: ana).object["minutos"] as? Int
            // Usage counts in the month of each booking (the race's two days may straddle one).
            usados = 0
            for mes in Set([5, 6].map { String(Deployment.localDate(daysAhead: $0).prefix(7)) }) {
                let uso = try await call(.GET, gateway + "/api/empresas/\(empresa)/uso?mes=\(mes)", token: ana)
                usados += ((uso.object["pessoas"] as? [[String: Any]]) ?? []).compactMap { $0["minutos"] as? Int }.reduce(0, +)
            }
            if minutos == 0 && usados == 180 { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(minutos == 0 && usados == 180, "pool \(String(describing: minutos)), used \(usados)")
        var feitas = 0
        for token in tokens {
            let minhas = try await call(.GET, gateway + "/api/reservas", token: token)
            feitas += ((minhas.object["itens"] as? [[String: Any]]) ?? []).filter { ($0["creditos"] as? [String: Any])?["empresa"] != nil }.count
        }
        #expect(feitas == 3, "bookings paid from the pool in the members' lists")
    }

    static func metricsMoved(before: [String: MetricsScrape], after: [String: MetricsScrape]) async throws {
        for (name, scrape) in after {
            for metric in [
                "coworkflow_http_requests_total", "coworkflow_http_request_duration_seconds", "coworkflow_store_appends_total",
                "coworkflow_store_read_duration_seconds", "coworkflow_store_pool_connections_max", "process_cpu_seconds_total",
                "process_resident_memory_bytes", "process_open_fds",
            ] {
                #expect(scrape.has(metric), "\(name) has no \(metric)")
            }
        }
        for metric in try MetricsScrape.catalog() {
            #expect(after.values.contains { $0.has(metric) }, "no deployable has \(metric)")
        }
        func moved(_ metric: String, _ labels: [String: String] = [:], in names: [String]? = nil) -> Double {
            (names ?? Array(after.keys)).map { name in
                (after[name]?.value(metric, labels) ?? 0) - (before[name]?.value(metric, labels) ?? 0)
            }.reduce(0, +)
        }
        #expect(moved("coworkflow_bookings_total", ["status": "solicitada"], in: ["reservas", "reservas-2"]) >= 1)
        #expect(moved("coworkflow_bookings_total", ["status": "confirmada"]) >= 1)
        #expect(moved("coworkflow_payments_total", ["outcome": "confirmado"], in: ["pagamentos"]) >= 1)
        #expect(moved("coworkflow_emails_total", ["outcome": "sent"], in: ["notificacoes"]) >= 1)
        #expect(moved("coworkflow_bus_published_total", in: ["projections"]) >= 1)
        #expect(moved("coworkflow_bus_confirmed_total", in: ["projections"]) >= 1)
        for consumer in ["reservas", "pagamentos", "notificacoes", "financeiro"] {
            #expect(moved("coworkflow_bus_consumed_total", ["consumer": consumer]) >= 1, "\(consumer) consumed nothing")
            #expect(moved("coworkflow_bus_consumer_lag_seconds_count", ["consumer": consumer]) >= 1)
        }
        #expect(moved("coworkflow_store_appends_total", ["outcome": "ok"]) >= 5)
        #expect(moved("coworkflow_http_requests_total", ["route": "/api/reservas", "method": "POST", "status": "201"], in: ["gateway"]) >= 1)
        #expect(moved("coworkflow_http_request_duration_seconds_count", ["route": "/api/reservas", "method": "POST"], in: ["gateway"]) >= 1)
        #expect(moved("process_cpu_seconds_total", in: ["gateway"]) > 0)
        #expect((after["projections"]?.value("coworkflow_subscription_lag_events", ["subscription": "relay"]) ?? -1) >= 0)
    }

    /// Issue 41's proof for traces: the booking's request is one trace from the gateway's
    /// span through the forwarded call, reservas' append, the relay's publish and the
    /// pagamentos consumer (across the broker: the traceparent rode in the event's metadata and
    /// the message's headers); a payment's trace reaches notificacoes' e-mail and, through the
    /// check-in timer, the no-show. Every parent link of those traces names a span of the same trace.
    static func tracedAcross(_ receiver: TraceReceiver) async throws {
        typealias Span = TraceReceiver.Span
        func chain(_ spans: [Span]) -> [String: [Span]] { Dictionary(grouping: spans, by: \.traceId) }
        func child(of parent: Span?, in trace: [Span], _ matches: (Span) -> Bool) -> Span? {
            guard let parent else { return nil }
            return trace.first { $0.parentSpanId == parent.spanId && matches($0) }
        }
        // gateway POST /api/reservas → forward → reservas POST /api/reservas → … append → publish → pagamentos consumer
        let (booking, spans) = try await receiver.waitFor { spans -> [Span]? in
            for trace in chain(spans).values {
                let root = trace.first {
                    $0.service == "gateway" && $0.name == "POST /api/reservas" && $0.kind == "server" && $0.parentSpanId.isEmpty
                }
                let forward = child(of: root, in: trace) { $0.service == "gateway" && $0.kind == "client" }
                let served = child(of: forward, in: trace) { $0.service == "reservas" && $0.kind == "server" && $0.name == "POST /api/reservas" }
                guard let served else { continue }
                // The append is under the request's span (perhaps under a span in between).
                let append = trace.first { span in
                    span.service == "reservas" && span.name == "append" && Self.ancestors(of: span, in: trace).contains(served.spanId)
                }
                let publish = child(of: append, in: trace) {
                    $0.service == "projections" && $0.name == "publish ReservaSolicitada" && $0.kind == "producer"
                }
                guard let consumer = child(of: publish, in: trace, { $0.service == "pagamentos" && $0.kind == "consumer" }) else { continue }
                return [root, forward, served, append, publish, consumer].compactMap { $0 }
            }
            return nil
        }
        #expect(
            booking != nil, "no trace of a booking from the gateway to the pagamentos consumer among \(spans.count) spans: \(Self.summary(spans))")
        if let booking {
            let trace = spans.filter { $0.traceId == booking[0].traceId }
            let ids = Set(trace.map(\.spanId))
            #expect(trace.allSatisfy { $0.parentSpanId.isEmpty || ids.contains($0.parentSpanId) }, "a broken parent link: \(Self.summary(trace))")
            #expect(trace.filter { $0.parentSpanId.isEmpty }.count == 1, "\(Self.summary(trace))")
            // The gateway's JSON access line of that request names the trace and its span.
            let log = FileManager.default.temporaryDirectory.appendingPathComponent("coworkflow-e2e-gateway.log")
            let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            let access = lines.first {
                ($0["message"] as? String)?.hasPrefix("POST /api/reservas ") == true && $0["trace_id"] as? String == booking[0].traceId
            }
            #expect(access?["span_id"] as? String == booking[0].spanId, "no JSON access line with the booking's trace id among \(lines.count) lines")
            #expect(access?["service"] as? String == "gateway")
        }
        // A payment's webhook: its trace reaches the e-mail notificacoes sent.
        let (mail, _) = try await receiver.waitFor { spans -> Span? in
            spans.first { span in
                guard span.service == "notificacoes", span.name == "send e-mail" else { return false }
                let trace = spans.filter { $0.traceId == span.traceId }
                let ids = Set(trace.map(\.spanId))
                return trace.contains { $0.service == "gateway" && $0.kind == "server" && $0.parentSpanId.isEmpty }
                    && trace.contains { $0.service == "notificacoes" && $0.kind == "consumer" && $0.spanId == span.parentSpanId }
                    && trace.allSatisfy { $0.parentSpanId.isEmpty || ids.contains($0.parentSpanId) }
            }
        }
        #expect(mail != nil, "no e-mail's span in a trace that starts at the gateway")
        // The no-show's timer, long after the request: its work continues the trace of the
        // event that set it (the check-in code issued when the payment confirmed the booking).
        let (noShow, all) = try await receiver.waitFor { spans -> Span? in
            spans.first { span in
                guard span.service == "checkin", span.name == "checkin no-show" else { return false }
                let trace = spans.filter { $0.traceId == span.traceId }
                let ids = Set(trace.map(\.spanId))
                return trace.contains { $0.service == "gateway" && $0.kind == "server" && $0.parentSpanId.isEmpty }
                    && ids.contains(span.parentSpanId)
                    && trace.contains { $0.service == "checkin" && $0.name == "append" && $0.parentSpanId == span.spanId }
                    && trace.allSatisfy { $0.parentSpanId.isEmpty || ids.contains($0.parentSpanId) }
            }
        }
        #expect(noShow != nil, "the no-show's timer did not continue a request's trace: \(Self.summary(all.filter { $0.service == "checkin" }))")
    }

    static func ancestors(of span: TraceReceiver.Span, in trace: [TraceReceiver.Span]) -> [String] {
        var result: [String] = []
        var current = span
        while !current.parentSpanId.isEmpty, let parent = trace.first(where: { $0.spanId == current.parentSpanId }), result.count < 64 {
            result.append(parent.spanId)
            current = parent
        }
        return result
    }

    static func summary(_ spans: [TraceReceiver.Span]) -> String {
        spans.prefix(80).map { "\($0.traceId.prefix(6)) \($0.service):\($0.name)[\($0.kind)] \($0.spanId.prefix(6))<-\($0.parentSpanId.prefix(6))" }
            .joined(separator: "; ")
    }

    @Test("SIGTERM: requests in flight finish with their answer, then new ones get 503 or a closed port (never a 500), and the process exits 0")
    func drains_on_sigterm() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("coworkflow-drain-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let port = try Deployment.freePort()
        let server = Process()
        server.executableURL = Deployment.binary
        server.arguments = ["serve", "--data", directory.path, "--port", String(port)]
        var environment = ProcessInfo.processInfo.environment
        environment["LOG_LEVEL"] = "error"
        server.environment = environment
        server.standardOutput = FileHandle.nullDevice
        try server.run()
        defer { if server.isRunning { Foundation.kill(server.processIdentifier, SIGKILL) } }
        let base = "http://127.0.0.1:\(port)"
        for _ in 0..<600 {
            if let answer = try? await call(.GET, base + "/saude"), answer.status == 200 { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        // Registrations spend a PBKDF2 of 600,000 rounds each: several are still running when
        // the signal arrives.
        let inFlight = (0..<6).map { index in
            Task {
                try await call(.POST, base + "/api/auth/registro", #"{"nome":"Ana","email":"ana\#(index)@drain.test","senha":"segredo-123"}"#).status
            }
        }
        try await Task.sleep(for: .milliseconds(100))
        server.terminate()
        // The signal is handled in its own time (the CPU is busy hashing): requests keep being
        // answered until the drain starts; from then on they get 503 or find the port closed.
        var later: [Int] = []
        for _ in 0..<200 {
            later.append((try? await call(.GET, base + "/api/espacos").status) ?? 0)  // 0: refused
            if later.last != 200 { break }
            try await Task.sleep(for: .milliseconds(25))
        }
        var statuses: [Int] = []
        for task in inFlight { statuses.append(try await task.value) }
        #expect(statuses.allSatisfy { $0 == 201 }, "\(statuses)")
        #expect([0, 503].contains(later.last ?? 200), "\(later)")
        #expect(!later.contains(500))
        for _ in 0..<400 where server.isRunning { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!server.isRunning)
        #expect(server.terminationReason == .exit && server.terminationStatus == 0)
    }

    @Test(
        "the database goes away under a running gateway: requests answer 503 with Retry-After at once (not a hang, not a 500); it comes back and they work"
    )
    func database_outage() async throws {
        let settings = try await Deployment.freshDatabase("coworkflow_outage")
        try await TCPProxy.with(to: settings.host, port: settings.port) { proxy in
            try await outage(settings, through: proxy)
        }
    }

    private func outage(_ settings: PostgresSettings, through proxy: TCPProxy) async throws {
        let port = try Deployment.freePort()
        var linked = settings
        linked.host = "127.0.0.1"
        linked.port = proxy.port
        var environment = Deployment.environment(linked, outbox: "coworkflow-outage-outbox")
        environment["LOG_LEVEL"] = "info"
        let server = try Deployment.spawn("gateway", port: port, environment: environment, log: "coworkflow-outage.log")
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("coworkflow-outage.log")
        defer { if server.isRunning { Foundation.kill(server.processIdentifier, SIGKILL) } }
        let base = "http://127.0.0.1:\(port)"
        for _ in 0..<600 {
            if let answer = try? await call(.GET, base + "/saude"), answer.status == 200 { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(try await call(.GET, base + "/api/espacos").status == 200)

        try await proxy.cut()
        // Until the store has seen the outage, a call may still queue in the pool; /saude says
        // when it has.
        for _ in 0..<100 {
            if let saude = try? await call(.GET, base + "/saude", timeout: .seconds(2)), saude.status == 503 { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        let answer = try await call(.GET, base + "/api/espacos", timeout: .seconds(5))
        #expect(answer.status == 503, "\(answer.status) \(answer.text)")
        #expect(answer.object["erro"] as? String == "banco_de_dados_indisponivel", "\(answer.text)")
        #expect(answer.headers.first(name: "Retry-After") == "2")
        let registro = try await call(.POST, base + "/api/auth/registro", #"{"nome":"Ana","email":"ana@outage.test","senha":"segredo-123"}"#)
        #expect(registro.status == 503, "\(registro.text)")
        let saude = try await call(.GET, base + "/saude")
        #expect(saude.status == 503 && saude.object["status"] as? String == "degradado", "\(saude.text)")

        try await proxy.restore()
        var back = 0
        for _ in 0..<200 {
            back = try await call(.POST, base + "/api/auth/registro", #"{"nome":"Ana","email":"ana@outage.test","senha":"segredo-123"}"#).status
            if back != 503 { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(back == 201, "the registration refused during the outage goes through once the database is back")
        server.terminate()
        for _ in 0..<400 where server.isRunning { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!server.isRunning, "see \(log.path)")
        #expect(server.isRunning || (server.terminationReason == .exit && server.terminationStatus == 0), "see \(log.path)")
    }

    func token(_ gateway: String, _ email: String, _ senha: String) async throws -> String {
        let login = try await call(.POST, gateway + "/api/auth/login", #"{"email":"\#(email)","senha":"\#(senha)"}"#)
        return try #require(login.object["token"] as? String, "\(login.text)")
    }
}

struct Answer {
    let status: Int
    let text: String
    var headers = HTTPHeaders()
    var object: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:] }
}

func call(
    _ method: HTTPMethod, _ url: String, _ body: String? = nil, token: String? = nil, headers: [String: String] = [:],
    timeout: TimeAmount = .seconds(30)
) async throws -> Answer {
    var request = HTTPClientRequest(url: url)
    request.method = method
    if let body {
        request.body = .bytes(ByteBuffer(string: body))
        request.headers.add(name: "Content-Type", value: "application/json")
    }
    if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
    for (name, value) in headers { request.headers.add(name: name, value: value) }
    let response = try await HTTPClient.shared.execute(request, timeout: timeout)
    let bytes = try await response.body.collect(upTo: 4 * 1024 * 1024)
    return Answer(status: Int(response.status.code), text: String(buffer: bytes), headers: response.headers)
}

/// The processes of one distributed deployment, on free loopback ports.
final class Deployment: @unchecked Sendable {
    static let secret = String(repeating: "e2e-secret-", count: 4)
    static let pspSecret = String(repeating: "psp-webhook-", count: 4)
    static let database = "coworkflow_e2e"
    static var binary: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("coworkflow")
    }

    let environment: [String: String]
    private(set) var processes: [(name: String, process: Process, port: Int)] = []

    private init(environment: [String: String]) {
        self.environment = environment
    }

    func url(_ name: String) -> String {
        "http://127.0.0.1:\(processes.first { $0.name == name }?.port ?? 0)"
    }

    /// Every deployable's `/metrics` (not the sandbox PSP's), parsed.
    func scrapes() async throws -> [String: MetricsScrape] {
        var scrapes: [String: MetricsScrape] = [:]
        for entry in processes where entry.name != "sandbox" {
            let answer = try await call(.GET, url(entry.name) + "/metrics")
            #expect(answer.status == 200, "\(entry.name): \(answer.text)")
            scrapes[entry.name] = try MetricsScrape(answer.text)
        }
        return scrapes
    }

    /// A fresh database, migrated; fresh queues; every deployable started (two reservas
    /// replicas, and the sandbox PSP's server) and answering `/saude`. Mail goes to `smtp`
    /// when given (else to an outbox folder).
    static func start(smtp: SMTPSink? = nil, traces: TraceReceiver? = nil) async throws -> Deployment {
        let settings = try await freshDatabase(database)
        // The services' queues outlive a run: what an earlier deployment left in them belongs to
        // a database that is gone.
        let broker = AMQPConnection(settings: try AMQPSettings.fromEnvironment(), name: "e2e.reset")
        try await broker.open()
        for service in ["reservas", "pagamentos", "checkin", "financeiro", "notificacoes"] {
            try await broker.deleteQueue(Topology.queue(for: service))
            try await broker.deleteQueue(Topology.deadLetterQueue(for: service))
        }
        await broker.close()

        let deployment = Deployment(
            environment: environment(settings, outbox: "coworkflow-e2e-outbox").merging(traces?.environment ?? [:]) { $1 })
        let services = [
            ("usuarios", "usuarios"), ("espacos", "espacos"), ("precos", "precos"), ("reservas", "reservas"), ("reservas-2", "reservas"),
            ("pagamentos", "pagamentos"), ("checkin", "checkin"), ("notificacoes", "notificacoes"), ("financeiro", "financeiro"),
            ("analytics", "analytics"), ("assinaturas", "assinaturas"),
        ]
        do {
            var ports: [String: Int] = [:]
            for name in ["gateway", "sandbox"] + services.map(\.0) { ports[name] = try freePort() }
            func url(_ name: String) -> String { "http://127.0.0.1:\(ports[name] ?? 0)" }
            var smtpVariables: [String: String] = [:]
            if let smtp {
                smtpVariables = ["SMTP_HOST": "127.0.0.1", "SMTP_PORT": String(smtp.port), "SMTP_FROM": "CoworkFlow <reservas@e2e.test>"]
            }
            try deployment.launch(
                "sandbox", service: "sandbox", port: ports["sandbox"],
                extra: [
                    "PSP_WEBHOOK_URL": url("gateway") + "/api/pagamentos/webhooks/sandbox"
                ])
            try deployment.launch("projections", service: "projections")
            var targets: [String: String] = [:]
            for (name, service) in services {
                try deployment.launch(
                    name, service: service, port: ports[name],
                    extra: [
                        "PSP_URL": url("sandbox")
                    ].merging(service == "notificacoes" ? smtpVariables : [:]) { $1 })
                let variable = "SERVICE_\(service.uppercased())_URL"
                targets[variable] = targets[variable].map { $0 + "," + url(name) } ?? url(name)
            }
            // Traced, the gateway logs its access lines as JSON, where they name their trace.
            let logs = traces == nil ? [:] : ["LOG_FORMAT": "json", "LOG_LEVEL": "info"]
            try deployment.launch(
                "gateway", service: "gateway", port: ports["gateway"], extra: targets.merging(["PSP_URL": url("sandbox")].merging(logs) { $1 }) { $1 }
            )
            for entry in deployment.processes { try await deployment.waitUntilHealthy(entry.name) }
        } catch {
            deployment.kill()
            throw error
        }
        return deployment
    }

    /// The test server's settings for a new, migrated database `name` (dropped first if it exists).
    static func freshDatabase(_ name: String) async throws -> PostgresSettings {
        var settings = try PostgresSettings.fromEnvironment()
        var logger = Logger(label: "e2e")
        logger.logLevel = .error
        let owner = try await PostgresConnection.connect(configuration: settings.connectionConfiguration(asOwner: true), id: 1, logger: logger)
        do {
            try await owner.query(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(name) WITH (FORCE)"), logger: logger)
            try await owner.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: logger)
            try await owner.close()
        } catch {
            try? await owner.close()
            throw error
        }
        settings.database = name
        try await PostgresMigrator(settings: settings, logger: logger).migrate()
        return settings
    }

    /// What every deployable is started with: this environment, the database of `settings`,
    /// the test secrets, and an outbox folder named `outbox` under the temporary directory.
    static func environment(_ settings: PostgresSettings, outbox: String) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DATABASE_URL"] = nil
        environment["DB_HOST"] = settings.host
        environment["DB_PORT"] = String(settings.port)
        environment["DB_NAME"] = settings.database
        environment["DB_USER"] = settings.user
        environment["DB_PASSWORD"] = settings.password
        environment["DB_POOL_SIZE"] = "4"
        environment["JWT_SECRET"] = secret
        environment["PSP_WEBHOOK_SECRET"] = pspSecret
        environment["PSP_API_KEY"] = "chave-do-sandbox"
        // The provider of these deployments is the sandbox: its tester routes are asked for.
        environment["PSP_SANDBOX_ROUTES"] = "on"
        environment["OUTBOX_DIR"] = FileManager.default.temporaryDirectory.appendingPathComponent(outbox).path
        environment["LOG_LEVEL"] = environment["TEST_LOG_LEVEL"] ?? "warning"
        return environment
    }

    /// Starts `coworkflow serve --service <service>` on `port`, its output in `log` (under the
    /// temporary directory).
    static func spawn(_ service: String, port: Int, environment: [String: String], log: String) throws -> Process {
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", "--service", service, "--port", String(port)]
        process.environment = environment
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(log)
        _ = FileManager.default.createFile(atPath: path.path, contents: nil)
        let handle = try FileHandle(forWritingTo: path)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        return process
    }

    private func launch(_ name: String, service: String, port: Int? = nil, extra: [String: String] = [:]) throws {
        let port = try port ?? Self.freePort()
        let process = try Self.spawn(service, port: port, environment: environment.merging(extra) { $1 }, log: "coworkflow-e2e-\(name).log")
        processes.append((name, process, port))
    }

    private func waitUntilHealthy(_ name: String) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if let answer = try? await call(.GET, url(name) + "/saude"), answer.status == 200 { return }
            guard processes.first(where: { $0.name == name })?.process.isRunning == true else {
                throw DeploymentFailed(description: "\(name) exited; see \(FileManager.default.temporaryDirectory.path)/coworkflow-e2e-\(name).log")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw DeploymentFailed(description: "\(name) did not answer /saude within 60 s")
    }

    /// `coworkflow admin create --postgres`, as an operator would run it against the deployment.
    func createAdmin(_ email: String, senha: String) async throws {
        var environment = self.environment
        environment["COWORKFLOW_ADMIN_PASSWORD"] = senha
        let (status, output) = try await Self.runToEnd(["admin", "create", "--postgres", "--email", email], environment: environment)
        guard status == 0 else { throw DeploymentFailed(description: "admin create: \(status): \(output)") }
    }

    /// SIGTERM to every process; their exit statuses (-1: still running after 20 s, killed).
    func terminate() async -> [String: Int32] {
        for entry in processes { entry.process.terminate() }
        var statuses: [String: Int32] = [:]
        let deadline = ContinuousClock.now + .seconds(20)
        for entry in processes {
            while entry.process.isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(50)) }
            if entry.process.isRunning {
                Foundation.kill(entry.process.processIdentifier, SIGKILL)
                entry.process.waitUntilExit()
                statuses[entry.name] = -1
            } else {
                statuses[entry.name] =
                    entry.process.terminationReason == .exit ? entry.process.terminationStatus : 128 + entry.process.terminationStatus
            }
        }
        return statuses
    }

    func kill() {
        for entry in processes where entry.process.isRunning {
            Foundation.kill(entry.process.processIdentifier, SIGKILL)
            entry.process.waitUntilExit()
        }
    }

    /// Runs `coworkflow` with `arguments` to its end: the exit status and what it printed.
    static func runToEnd(_ arguments: [String], environment: [String: String]) async throws -> (Int32, String) {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = environment
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("coworkflow-e2e-run-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        while process.isRunning { try await Task.sleep(for: .milliseconds(50)) }
        try handle.close()
        return (process.terminationStatus, (try? String(contentsOf: output, encoding: .utf8)) ?? "")
    }

    /// A port the kernel just handed out (bound and released).
    /// A loopback port nobody listens on, below the kernel's ephemeral range (32768 and up): a
    /// port the kernel handed out was sometimes taken, between this check and the server's
    /// bind, by an outgoing connection of a process started meanwhile (a service's `bind`
    /// then failed with EADDRINUSE and it exited 1).
    static func freePort() throws -> Int {
        for _ in 0..<200 {
            let port = Int.random(in: 20_000..<32_000)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw DeploymentFailed(description: "socket: \(errno)") }
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
            if bound == 0 { return port }
        }
        throw DeploymentFailed(description: "no free port in 20000-31999")
    }

    /// The local date in São Paulo `daysAhead` days from now (AAAA-MM-DD).
    static func localDate(daysAhead: Int) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "America/Sao_Paulo") ?? .gmt
        let day = calendar.dateComponents([.year, .month, .day], from: Date().addingTimeInterval(Double(daysAhead) * 86_400))
        return String(format: "%04d-%02d-%02d", day.year ?? 0, day.month ?? 0, day.day ?? 0)
    }
}

struct DeploymentFailed: Error, CustomStringConvertible {
    let description: String
}
