import Domain
import EventStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Services
import TestSupport
import Testing

@testable import Gateway
@testable import Projections
@testable import Services

/// The defects a black-box probe found (issue: hardening), one behaviour each.
@Suite("Hardening: what a black-box probe found")
struct HardeningTests {
    @Test("a failure's cause (ServiceError.causa: streams, versions) is for the log: the answer never carries it")
    func cause_is_never_answered() throws {
        var error = ServiceError.indisponivel("o horário está muito disputado agora; tente de novo em instantes", retryAfter: 1)
        error.causa = "40 appends refused, the last: wrong expected version for stream 'agenda-x-2027-02-04': expected 11, actual 10"
        let reply = error.reply(requestId: "r1")
        let body = String(decoding: try #require(reply.body), as: UTF8.self)
        #expect(reply.status == 503)
        #expect(reply.headers["Retry-After"] == "1")
        #expect(body.contains("muito disputado"))
        #expect(!body.contains("appends refused"))
        #expect(!body.contains("agenda-x"))
    }

    @Test("a text in the sealed form, written about another member, is text: every export answers, none opens it, the other member's leaves it out")
    func forged_sealed_text_breaks_no_export() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.test { client in
            let ana = try #require(try await client.register("ana@example.com").object["id"] as? String)
            let bia = try #require(try await client.register("bia@example.com", nome: "Bia Lima").object["id"] as? String)
            // What a cancellation reason in the sealed form, naming Bia, leaves in the log (the
            // API now refuses such a text; events already stored keep it for ever).
            let forjado = "pii:v1:\(bia):AAAA"
            let dados = try JSONSerialization.data(withJSONObject: ["reservaId": UUID().uuidString.lowercased(), "usuarioId": ana, "motivo": forjado])
            try await harness.store.append(
                to: StreamName(category: "reserva", id: UUID().uuidString.lowercased()), expected: .any,
                events: [NewEvent(eventId: UUID(), type: "ReservaCancelada", data: dados, metadata: EventMetadata(actor: ana), occurredAt: Date())])

            let daAna = try await client.json(.get, "/api/auth/me/dados", token: try await client.token("ana@example.com"))
            #expect(daAna.status == .ok, "\(String(buffer: daAna.body))")
            #expect(String(buffer: daAna.body).contains(forjado), "her own text, as she wrote it")
            let daBia = try await client.json(.get, "/api/auth/me/dados", token: try await client.token("bia@example.com"))
            #expect(daBia.status == .ok, "\(String(buffer: daBia.body))")
            #expect(!String(buffer: daBia.body).contains(forjado), "an id typed into someone else's text names nobody")
            #expect(String(buffer: daBia.body).contains("Bia Lima") && String(buffer: daBia.body).contains("bia@example.com"))
        }
    }

    @Test("no free text may take the sealed form: a name, a reason, a space's name (422 naming the field, nothing written)")
    func free_text_never_takes_the_sealed_form() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let before = try await harness.allEvents().count
            let nome = try await client.register("eva@example.com", nome: "pii:v1:00000000-0000-4000-8000-000000000000:AAAA")
            #expect(nome.status == .unprocessableContent && (nome.object["detalhes"] as? [String: Any])?["campo"] as? String == "nome")
            let espaco = try await client.json(
                .post, "/api/admin/espacos", #"{"unidadeId":"\#(cenario.unidade)","nome":"pii:v1:x","tipo":"sala_reuniao","capacidade":4}"#,
                token: cenario.admin)
            #expect(espaco.status == .unprocessableContent && (espaco.object["detalhes"] as? [String: Any])?["campo"] as? String == "nome")
            #expect(try await harness.allEvents().count == before)
            let reserva = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-25T10:00:00-03:00", "2026-11-25T11:00:00-03:00"), token: cenario.membro)
            let id = try #require(reserva.object["id"] as? String)
            // The booking's own reactions (its charge) land first: what follows must add nothing.
            _ = try await client.pagamento(id, token: cenario.membro, status: "pendente")
            let depois = try await harness.allEvents().count
            let motivo = try await client.json(.post, "/api/reservas/\(id)/cancelamento", #"{"motivo":"pii:v1:x:y"}"#, token: cenario.membro)
            #expect(motivo.status == .unprocessableContent, "\(String(buffer: motivo.body))")
            #expect((motivo.object["detalhes"] as? [String: Any])?["campo"] as? String == "motivo")
            #expect((motivo.object["mensagem"] as? String)?.contains("pii:") == true)
            #expect(try await harness.allEvents().count == depois)
        }
    }

    @Test(
        "free text is bounded in bytes too: one 'character' of 60,000 combining marks is refused in a name, a reason and a card token (422 naming the field and the limit)"
    )
    func free_text_is_bounded_in_bytes() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        let marcas = "a" + String(repeating: "\u{0301}", count: 60_000)
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let before = try await harness.allEvents().count
            let nome = try await client.register("eva@example.com", nome: marcas)
            #expect(nome.status == .unprocessableContent, "\(nome.status)")
            #expect((nome.object["detalhes"] as? [String: Any])?["campo"] as? String == "nome")
            #expect((nome.object["mensagem"] as? String)?.contains("800 bytes") == true, "\(nome.object["mensagem"] ?? "")")
            let cartao = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-25T10:00:00-03:00", "2026-11-25T11:00:00-03:00", cartao: marcas),
                token: cenario.membro)
            #expect(
                cartao.status == .unprocessableContent
                    && (cartao.object["detalhes"] as? [String: Any])?["campo"] as? String == "pagamento.cartaoToken")
            #expect(try await harness.allEvents().count == before)
            let reserva = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-25T10:00:00-03:00", "2026-11-25T11:00:00-03:00"), token: cenario.membro)
            let id = try #require(reserva.object["id"] as? String)
            // The booking's own reactions (its charge) land first: what follows must add nothing.
            _ = try await client.pagamento(id, token: cenario.membro, status: "pendente")
            let depois = try await harness.allEvents().count
            let motivo = try await client.json(.post, "/api/reservas/\(id)/cancelamento", #"{"motivo":"\#(marcas)"}"#, token: cenario.membro)
            #expect(motivo.status == .unprocessableContent && (motivo.object["detalhes"] as? [String: Any])?["campo"] as? String == "motivo")
            #expect(try await harness.allEvents().count == depois)
        }
    }

    @Test("a control character in a path is a 400 before any file or route sees it; every answer says nosniff and may not be framed")
    func control_characters_in_paths() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("coworkflow-web-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("<h1>CoworkFlow</h1>".utf8).write(to: root.appendingPathComponent("index.html"))
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.test(webRoot: root.path) { client in
            for path in ["/index.html%00.js", "/index.html%0a.js", "/api/espacos%00", "/%7f", "/index.html%zz"] {
                let answer = try await client.execute(uri: path, method: .get)
                #expect(answer.status == .badRequest, "\(path): \(answer.status) \(answer.headers[.contentType] ?? "")")
                #expect(String(buffer: answer.body).contains("\"erro\""), "\(path)")
            }
            for path in ["/", "/api/espacos", "/nada.js"] {
                let answer = try await client.execute(uri: path, method: .get)
                #expect(answer.headers[.xContentTypeOptions] == "nosniff", "\(path)")
                #expect(answer.headers[.contentSecurityPolicy]?.contains("frame-ancestors 'none'") == true, "\(path)")
            }
        }
    }

    @Test("erasing a member removes the e-mails about them from the outbox; others' stay")
    func erasure_empties_the_outbox() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.test { client in
            _ = try await client.register("lia@example.com", nome: "Lia Souza")
            _ = try await client.register("bia@example.com", nome: "Bia Lima")
            func mensagens(_ quem: String) throws -> Int {
                let files = (try? FileManager.default.contentsOfDirectory(at: harness.outbox, includingPropertiesForKeys: nil)) ?? []
                return try files.filter { String(decoding: try Data(contentsOf: $0), as: UTF8.self).contains(quem) }.count
            }
            _ = try await eventually("both welcome e-mails") {
                try mensagens("lia@example.com") == 1 && mensagens("bia@example.com") == 1 ? true : nil
            }
            #expect(try await client.json(.delete, "/api/auth/me", token: try await client.token("lia@example.com")).status == .noContent)
            _ = try await eventually("Lia's e-mail gone from the outbox") { try mensagens("lia@example.com") == 0 ? true : nil }
            #expect(try mensagens("Lia Souza") == 0)
            #expect(try mensagens("bia@example.com") == 1)
        }
    }

    @Test("X-Forwarded-For names the client only from a trusted proxy; the last entry that is not a proxy is the client")
    func trusted_proxies() throws {
        let nenhum = TrustedProxies.none
        #expect(nenhum.client(peer: "203.0.113.9", forwardedFor: "198.51.100.1") == "203.0.113.9", "reached directly: the peer")
        let alb = try TrustedProxies(parsing: "10.0.0.0/20, 10.0.16.0/20, fd00::/8")
        #expect(alb.client(peer: "203.0.113.9", forwardedFor: "198.51.100.1") == "203.0.113.9", "not from the balancer: the peer")
        #expect(alb.client(peer: "10.0.3.7", forwardedFor: "1.2.3.4, 198.51.100.1") == "198.51.100.1", "the address the balancer saw")
        #expect(alb.client(peer: "10.0.3.7", forwardedFor: "198.51.100.1, 10.0.17.2") == "198.51.100.1", "through two proxies")
        #expect(alb.client(peer: "fd12::1", forwardedFor: "2001:db8::5") == "2001:db8::5")
        #expect(alb.client(peer: "10.0.3.7", forwardedFor: nil) == "10.0.3.7")
        #expect(TrustedProxies.everyone.client(peer: "127.0.0.1", forwardedFor: "9.9.9.9, 8.8.8.8") == "8.8.8.8")
        #expect(throws: TrustedProxies.Invalid.self) { try TrustedProxies(parsing: "10.0.0.0/33") }
        #expect(throws: TrustedProxies.Invalid.self) { try TrustedProxies(parsing: "alb.internal") }
    }

    @Test("many new keys evict the least recently used full buckets, never a spent one: a flood of addresses resets no limit")
    func rate_limit_eviction_keeps_spent_buckets() {
        let limiter = RateLimiter(capacity: 100)
        let login = RateLimiter.Limit(burst: 2, perSecond: 0.001)
        #expect(limiter.take("login:atacante", login) == nil)
        #expect(limiter.take("login:atacante", login) == nil)
        #expect(limiter.take("login:atacante", login) != nil, "spent")
        for index in 0..<1_000 { _ = limiter.take("ip:10.0.\(index / 256).\(index % 256)", RateLimiter.Limit(burst: 200, perSecond: 100)) }
        #expect(limiter.count <= 100)
        #expect(limiter.take("login:atacante", login) != nil, "still limited after a flood of other keys")
    }

    @Test("a member's trail lists each event once when the index moved on after its checkpoint was read (entries past it are the tail's)")
    func trail_once_when_the_index_is_past_its_checkpoint() async throws {
        let path = TemporarySQLite.path("coworkflow-trail")
        defer { TemporarySQLite.remove(path) }
        let store = try SQLiteEventStore(path: path)
        let usuarios = try await Harness.usuarios(store: store, clock: ManualClock(Date()))
        let membro = UUID().lowercasedString
        let reserva = UUID()
        let escritos = try await store.append(
            to: StreamName("reserva-\(reserva.lowercasedString)"), expected: .noStream,
            events: (1...2).map { _ in
                NewEvent(
                    eventId: UUID(), type: "ReservaSolicitada", data: Data("{}".utf8),
                    metadata: EventMetadata(correlationId: reserva, actor: membro), occurredAt: Date())
            })
        let (primeiro, segundo) = (escritos.positions[0], escritos.positions[1])
        // As a reader finds the index when the projection committed the second event after the
        // reader took its checkpoint: the document holds both, the checkpoint is at the first.
        let doc = TrilhasReadModel.Reserva(
            dono: membro,
            entradas: [primeiro, segundo].map {
                TrilhasReadModel.Entrada(posicao: $0, stream: "reserva-\(reserva.lowercasedString)", tipo: "ReservaSolicitada", ator: true)
            })
        try await store.commit(
            [
                ReadModelChange(
                    collection: TrilhasReadModel.trilhas, key: reserva.lowercasedString, grupo: membro, ordem: TrilhasReadModel.ordem(primeiro),
                    doc: try ReadModelJSON.encode(doc))
            ], checkpoint: TrilhasReadModel.projection.checkpoint, at: primeiro)
        let trilha = try await usuarios.trilha(membro)
        #expect(trilha.map(\.0.position) == [primeiro, segundo], "each event once, in order")
    }

    @Test(
        "export and a member's audit trail read the member's index (trilhas, which no request waits for) and the log's tail after it, not the whole log"
    )
    func export_reads_the_members_index() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let ana = try #require(try await client.json(.get, "/api/auth/me", token: cenario.membro).object["id"] as? String)
            let cartao = pedido(cenario.sala, "2026-11-25T10:00:00-03:00", "2026-11-25T11:00:00-03:00", cartao: "tok_visa")
            let id = try #require(try await client.json(.post, "/api/reservas", cartao, token: cenario.membro).object["id"] as? String)
            _ = try await client.reserva(id, token: cenario.membro, status: "confirmada")
            // The index holds the member's actions and what happened about their booking.
            _ = try await eventually("the index reaches the payment") {
                let docs = try await harness.store.documents(TrilhasReadModel.trilhas, grupo: ana, limit: 500, offset: 0)
                let tipos = Set(try docs.flatMap { try TrilhasReadModel.entradas($0) }.map(\.tipo))
                return tipos.isSuperset(of: ["ReservaSolicitada", "PagamentoConfirmado", "FaturaEmitida"]) ? tipos : nil
            }
            // The booking's events that are hers in one document, keyed by the booking.
            let doc = try #require(try await harness.store.document(TrilhasReadModel.trilhas, key: id))
            let daReserva = try ReadModelJSON.decoder.decode(TrilhasReadModel.Reserva.self, from: doc)
            #expect(daReserva.dono == ana && daReserva.entradas.map(\.tipo).contains("ReservaSolicitada"))
            let atividade = try #require(
                try await client.json(.get, "/api/auth/me/dados", token: cenario.membro).object["atividade"] as? [[String: Any]])
            let exportados = Set(atividade.compactMap { $0["tipo"] as? String })
            #expect(exportados.isSuperset(of: ["ReservaSolicitada", "PagamentoConfirmado", "FaturaEmitida"]), "\(exportados)")
            let viaIndice = try await harness.backend.usuarios.trilha(ana).map(\.0.eventId)
            let trilhas = try #require(harness.backend.projections.first { $0.projection.name == "trilhas" })
            #expect(!viaIndice.isEmpty && trilhas.projection.esperada == false)
            let auditoria = try await client.json(.get, "/api/admin/auditoria?usuario=\(ana)", token: cenario.admin)
            let acoes = (auditoria.object["itens"] as? [[String: Any]] ?? []).compactMap { $0["tipo"] as? String }
            #expect(acoes.contains("ReservaSolicitada") && !acoes.contains("PagamentoConfirmado"), "only what she did: \(acoes)")
        }
    }
}
