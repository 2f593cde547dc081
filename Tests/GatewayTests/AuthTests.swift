import Crypto
import Domain
import EventStore
import Foundation
import GRDB
import Gateway
import Hummingbird
import HummingbirdTesting
import Services
import Testing

@Suite("Auth flows through the router")
struct AuthTests {
    @Test("register, log in, read me; the e-mail is unique whatever its case")
    func register_login_me() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.test { client in
            let created = try await client.register("ana@example.com")
            #expect(created.status == .created)
            #expect(created.object["email"] as? String == "ana@example.com")
            #expect(created.object["papel"] as? String == "membro")
            let id = try #require(created.object["id"] as? String)

            let duplicate = try await client.register("  ANA@Example.com ")
            #expect(duplicate.status == .conflict)
            #expect(duplicate.erro == "email_em_uso")

            let login = try await client.login("Ana@Example.com")
            #expect(login.status == .ok)
            #expect(login.object["expiraEm"] as? String != nil)
            let token = try #require(login.object["token"] as? String)
            let me = try await client.json(.get, "/api/auth/me", token: token)
            #expect(me.status == .ok)
            #expect(me.object["id"] as? String == id)
            #expect(me.object["nome"] as? String == "Ana")
        }
        let types = try await harness.allEvents().filter { $0.stream.category != "notificacao" }.map(\.type)
        #expect(types == ["EmailReivindicado", "UsuarioRegistrado", "LoginRealizado"])
    }

    @Test("a 200-character password works; names and e-mails are stored sealed, not in clear")
    func long_password_and_sealed_fields() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let long = String(repeating: "çãõ-senha-", count: 20)
        try await harness.test { client in
            let registered = try await client.register("longa@example.com", senha: long)
            #expect(registered.status == .created)
            let right = try await client.login("longa@example.com", senha: long)
            #expect(right.status == .ok)
            let wrong = try await client.login("longa@example.com", senha: String(long.dropLast()))
            #expect(wrong.status == .unauthorized)
        }
        let registered = try #require(try await harness.allEvents().first { $0.type == "UsuarioRegistrado" })
        let text = String(decoding: registered.data, as: UTF8.self)
        #expect(!text.contains("longa@example.com"))
        #expect(text.contains("pii:v1:"))
    }

    @Test(
        "bad input gets a 4xx that says what is wrong, and writes no event",
        arguments: [
            (#"{"nome":"A","email":"a@example.com"}"#, 400, "senha"),
            (#"{"nome":1,"email":"a@example.com","senha":"segredo-123"}"#, 400, "nome"),
            (#"{"nome":"A","email":"a@example.com","senha":"segredo-123""#, 400, "JSON"),
            ("", 400, "vazio"),
            (#"[1,2]"#, 400, ""),
            (#"{"nome":"A","email":"nao-e-email","senha":"segredo-123"}"#, 422, "e-mail"),
            (#"{"nome":"A","email":"a@example.com","senha":"curta"}"#, 422, "8"),
            (#"{"nome":"   ","email":"a@example.com","senha":"segredo-123"}"#, 422, "nome"),
            (#"{"nome":"N\u0000ul","email":"a@example.com","senha":"segredo-123"}"#, 422, "controle"),
            (#"{"nome":"A","email":"x\"@example.com","senha":"segredo-123"}"#, 422, "e-mail"),
            (#"{"nome":"A","email":"ünï@exämple.com","senha":"segredo-123"}"#, 422, "acento"),
            (#"{"nome":"A","email":"x@t4.test*","senha":"segredo-123"}"#, 422, "e-mail"),
        ])
    func bad_registrations(body: String, status: Int, mentions: String) async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.test { client in
            let response = try await client.json(.post, "/api/auth/registro", body)
            #expect(Int(response.status.code) == status, "\(String(buffer: response.body))")
            #expect(response.erro != nil)
            let message = try #require(response.object["mensagem"] as? String)
            #expect(mentions.isEmpty || message.contains(mentions) || "\(response.object["detalhes"] ?? "")".contains(mentions), "\(message)")
            #expect(response.headers[.init("X-Request-Id")!] != nil)
        }
        #expect(try await harness.allEvents().isEmpty)
    }

    @Test("a caller's X-Request-Id is kept when it is 1–128 ASCII letters, digits, '-', '_' or '.'; anything else gets an id of ours")
    func request_ids_are_short_ascii() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.test { client in
            func id(_ enviado: String) async throws -> String? {
                try await client.json(.get, "/saude", headers: [.init("X-Request-Id")!: enviado]).headers[.init("X-Request-Id")!]
            }
            #expect(try await id("pedido-1_a.b") == "pedido-1_a.b")
            let longo = "a" + String(repeating: "\u{301}", count: 4_000)  // one Character, 8 KB
            for estranho in [longo, "ação", String(repeating: "x", count: 129)] {
                let devolvido = try await id(estranho)
                #expect(devolvido != nil && devolvido != estranho && (devolvido?.utf8.count ?? 0) <= 128)
            }
        }
    }

    @Test(
        "a token lasts an hour by the service's clock, not the machine's: one issued in 2020 or in 2100 works, and stops an hour later",
        arguments: ["2020-01-06T12:00:00Z", "2100-01-06T12:00:00Z"])
    func tokens_expire_by_the_services_clock(_ emitido: String) async throws {
        let clock = ManualClock(try Date(emitido, strategy: .iso8601))
        let harness = try await Harness.make(clock: clock, tokenLifetime: 3_600)  // production's default
        defer { harness.removeFiles() }
        try await harness.test { client in
            #expect(try await client.register("relogio@example.com").status == .created)
            let token = try await client.token("relogio@example.com")
            #expect(try await client.json(.get, "/api/auth/me", token: token).status == .ok)
            clock.advance(by: 59 * 60)
            #expect(try await client.json(.get, "/api/auth/me", token: token).status == .ok)
            clock.advance(by: 2 * 60)
            let expired = try await client.json(.get, "/api/auth/me", token: token)
            #expect(expired.status == .unauthorized && expired.erro == "token_invalido", "\(String(buffer: expired.body))")
        }
    }

    @Test("unknown routes, oversized bodies, bad tokens: JSON errors, never a 500")
    func edge_errors() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.test { client in
            let missing = try await client.json(.get, "/api/nada")
            #expect(missing.status == .notFound)
            #expect(missing.erro == "rota_nao_encontrada")
            // A known path with a method it does not take: 405 with the methods it does.
            let wrongMethod = try await client.json(.put, "/api/reservas/8a0c5b1e-1f4e-4a38-9a55-2a3f7d7e0c11/cancelamento", "{}")
            #expect(wrongMethod.status == .methodNotAllowed)
            #expect(wrongMethod.erro == "metodo_nao_permitido")
            #expect(wrongMethod.headers[.allow] == "POST")
            #expect(try await client.json(.delete, "/api/reservas").headers[.allow] == "GET, POST")
            #expect(try await client.json(.get, "/api/reservas/1/2/3").status == .notFound)
            let huge = String(repeating: "x", count: 300 * 1024)
            let tooLarge = try await client.json(.post, "/api/auth/registro", #"{"nome":"\#(huge)"}"#)
            #expect(tooLarge.status == .contentTooLarge)
            #expect(tooLarge.erro == "corpo_grande_demais")
            let forged = try await client.json(.get, "/api/auth/me", token: "abc.def.ghi")
            #expect(forged.status == .unauthorized)
            #expect(forged.erro == "token_invalido")
            let anonymous = try await client.json(.get, "/api/auth/me")
            #expect(anonymous.status == .unauthorized)
            // CORS only for the configured origins (none here: the web app is same-origin).
            let preflight = try await client.execute(uri: "/api/auth/login", method: .options, headers: [.origin: "https://evil.example"])
            #expect(preflight.status == .noContent)
            #expect(preflight.headers[.accessControlAllowOrigin] == nil)
        }
        #expect(try await harness.allEvents().isEmpty)
    }

    @Test("five failed logins in 15 minutes lock the account for 15 minutes (423, Retry-After)")
    func brute_force_lock() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.test { client in
            _ = try await client.register("bia@example.com")
            for _ in 1...4 {
                #expect(try await client.login("bia@example.com", senha: "errada-123").status == .unauthorized)
                harness.clock.advance(by: 60)
            }
            let fifth = try await client.login("bia@example.com", senha: "errada-123")
            #expect(fifth.status.code == 423)
            #expect(fifth.headers[.retryAfter] == "900")
            // Even the right password waits for the lock to end.
            let right = try await client.login("bia@example.com")
            #expect(right.status.code == 423)
            #expect(Int(right.headers[.retryAfter] ?? "") ?? 0 > 0)
            harness.clock.advance(by: 15 * 60)
            #expect(try await client.login("bia@example.com").status == .ok)
            // Unknown address and wrong password look the same.
            let unknown = try await client.login("ninguem@example.com")
            #expect(unknown.status == .unauthorized)
            #expect(unknown.erro == "credenciais_invalidas")
        }
        let failures = try await harness.allEvents().filter { $0.type == "LoginFalhou" }
        #expect(failures.count == 5)
    }

    @Test("changing the password: the old one stops working, every other session ends, this device gets a new one")
    func password_change() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.test { client in
            _ = try await client.register("caio@example.com")
            let token = try await client.token("caio@example.com")
            harness.clock.advance(by: 60)
            let outroDispositivo = try await client.token("caio@example.com")
            harness.clock.advance(by: 60)
            let wrong = try await client.json(.post, "/api/auth/me/senha", #"{"senhaAtual":"nao-e-ela","novaSenha":"nova-senha-1"}"#, token: token)
            #expect(wrong.status == .forbidden)
            #expect(try await client.json(.get, "/api/auth/me", token: outroDispositivo).status == .ok)
            let changed = try await client.json(
                .post, "/api/auth/me/senha", #"{"senhaAtual":"segredo-123","novaSenha":"nova-senha-1"}"#, token: token)
            #expect(changed.status == .ok, "\(String(buffer: changed.body))")
            let novo = try #require(changed.object["token"] as? String)
            #expect((changed.object["usuario"] as? [String: Any])?["email"] as? String == "caio@example.com")
            // Both earlier tokens are refused now, also the one that made the change; the new one works.
            for antigo in [token, outroDispositivo] {
                let refused = try await client.json(.get, "/api/auth/me", token: antigo)
                #expect(refused.status == .unauthorized)
                #expect(refused.erro == "token_invalido")
            }
            #expect(try await client.json(.get, "/api/auth/me", token: novo).status == .ok)
            #expect(try await client.login("caio@example.com").status == .unauthorized)
            harness.clock.advance(by: 1)
            let login = try await client.token("caio@example.com", senha: "nova-senha-1")
            #expect(try await client.json(.get, "/api/auth/me", token: login).status == .ok)
            // The same password again, or one of spaces only, is a 422 naming novaSenha.
            for body in [#"{"senhaAtual":"nova-senha-1","novaSenha":"nova-senha-1"}"#, #"{"senhaAtual":"nova-senha-1","novaSenha":"          "}"#] {
                let refused = try await client.json(.post, "/api/auth/me/senha", body, token: login)
                #expect(refused.status == .unprocessableContent, "\(String(buffer: refused.body))")
                #expect((refused.object["detalhes"] as? [String: Any])?["campo"] as? String == "novaSenha")
            }
        }
    }

    @Test("guessing the current password through a password change counts toward the login lock")
    func password_change_guesses_lock_the_account() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        // The lock is what is tested here, not the password change's own rate limit.
        let limiter = RateLimiter(passwordChange: RateLimiter.Limit(burst: 100, perSecond: 100))
        try await harness.test(rateLimiter: limiter) { client in
            _ = try await client.register("dora@example.com")
            let token = try await client.token("dora@example.com")
            var statuses: [HTTPResponse.Status] = []
            for guess in 1...5 {
                statuses.append(
                    try await client.json(
                        .post, "/api/auth/me/senha", #"{"senhaAtual":"chute-\#(guess)-x","novaSenha":"dominada-123"}"#, token: token
                    ).status)
            }
            #expect(statuses == [.forbidden, .forbidden, .forbidden, .forbidden, HTTPResponse.Status(code: 423)])
            // Locked: the right password changes nothing now, here or at login, until the lock ends.
            let right = try await client.json(.post, "/api/auth/me/senha", #"{"senhaAtual":"segredo-123","novaSenha":"dominada-123"}"#, token: token)
            #expect(right.status.code == 423)
            #expect(try await client.login("dora@example.com").status.code == 423)
            #expect(try await harness.allEvents().filter { $0.type == "LoginFalhou" }.count == 5)
            #expect(try await harness.allEvents().filter { $0.type == "SenhaAlterada" }.isEmpty)
            harness.clock.advance(by: 16 * 60)
            let login = try await client.login("dora@example.com")
            #expect(login.status == .ok, "\(String(buffer: login.body))")

            // Concurrent guesses are each recorded too (none slips through as a conflict): the
            // fifth locks the account and the rest are 423.
            _ = try await client.register("edu@example.com")
            let edu = try await client.token("edu@example.com")
            let antes = try await harness.allEvents().filter { $0.type == "LoginFalhou" }.count
            let answers = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for guess in 1...10 {
                    group.addTask {
                        try await client.json(
                            .post, "/api/auth/me/senha", #"{"senhaAtual":"chute-\#(guess)-y","novaSenha":"dominada-123"}"#, token: edu
                        ).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.filter { $0 == .forbidden }.count == 4 && answers.filter { $0.code == 423 }.count == 6, "\(answers)")
            #expect(try await harness.allEvents().filter { $0.type == "LoginFalhou" }.count == antes + 5)
        }
    }

    @Test("Idempotency-Key: a retry gets the first answer; the same key with another body is a 422")
    func idempotency() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.test { client in
            let body = #"{"nome":"Davi","email":"davi@example.com","senha":"segredo-123"}"#
            let first = try await client.json(.post, "/api/auth/registro", body, headers: [.init("Idempotency-Key")!: "k-1"])
            let retry = try await client.json(.post, "/api/auth/registro", body, headers: [.init("Idempotency-Key")!: "k-1"])
            #expect(first.status == .created)
            #expect(retry.status == .created)
            #expect(retry.object["id"] as? String == first.object["id"] as? String)
            #expect(retry.headers[.init("Idempotent-Replayed")!] == "true")
            let other = try await client.json(
                .post, "/api/auth/registro", #"{"nome":"Eva","email":"eva@example.com","senha":"segredo-123"}"#,
                headers: [.init("Idempotency-Key")!: "k-1"])
            #expect(other.status == .unprocessableContent)
            #expect(other.erro == "chave_de_idempotencia_reutilizada")
            // A key stored by a build before the HMAC fingerprints (a plain SHA-256 of method,
            // path and body) still replays its answer to the same request (an anonymous caller's
            // key is scoped to its address: "local" through the router, with no socket).
            let antigo = #"{"nome":"Gil","email":"gil@example.com","senha":"segredo-123"}"#
            let digest = SHA256.hash(data: Data("POST /api/auth/registro\n\(antigo)".utf8)).map { String(format: "%02x", $0) }.joined()
            let agora = Date()
            _ = try await harness.store.claimRequestKey(
                "local|legado-1", fingerprint: digest, at: agora, expireBefore: agora.addingTimeInterval(-86_400),
                staleBefore: agora.addingTimeInterval(-120))
            try await harness.store.completeRequestKey("local|legado-1", reply: StoredReply(status: 201, body: Data(#"{"id":"primeiro"}"#.utf8)))
            let replay = try await client.json(.post, "/api/auth/registro", antigo, headers: [.init("Idempotency-Key")!: "legado-1"])
            #expect(
                replay.headers[.init("Idempotent-Replayed")!] == "true" && replay.object["id"] as? String == "primeiro",
                "\(String(buffer: replay.body))")
            // One "character" of thousands of bytes (a letter and combining marks), or a key
            // with a space or a control byte, is a 400 naming the rule; nothing is registered.
            let fina = #"{"nome":"Fabi","email":"fabi@example.com","senha":"segredo-123"}"#
            for key in ["a" + String(repeating: "\u{0301}", count: 3_000), "com espaço", String(repeating: "k", count: 256)] {
                let refused = try await client.json(.post, "/api/auth/registro", fina, headers: [.init("Idempotency-Key")!: key])
                #expect(refused.status == .badRequest, "\(key.utf8.count) bytes")
            }
            // A login's answer holds a working token: it is never kept, so a retry logs in again.
            let login = #"{"email":"davi@example.com","senha":"segredo-123"}"#
            for _ in 1...2 {
                let answer = try await client.json(.post, "/api/auth/login", login, headers: [.init("Idempotency-Key")!: "k-2"])
                #expect(answer.status == .ok)
                #expect(answer.headers[.init("Idempotent-Replayed")!] == nil)
            }
        }
        #expect(try await harness.allEvents().filter { $0.type == "UsuarioRegistrado" }.count == 1)
        #expect(try await harness.allEvents().filter { $0.type == "LoginRealizado" }.count == 2)
    }

    @Test("a password change ends the sessions opened earlier in the same second; a login right after it works")
    func password_change_within_a_second() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.test { client in
            _ = try await client.register("bia@example.com")
            // The clock stands still: the token, the change and the next login share an instant.
            let token = try await client.token("bia@example.com")
            let changed = try await client.json(
                .post, "/api/auth/me/senha", #"{"senhaAtual":"segredo-123","novaSenha":"nova-senha-1"}"#, token: token)
            #expect(changed.status == .ok, "\(String(buffer: changed.body))")
            let novo = try #require(changed.object["token"] as? String)
            #expect(try await client.json(.get, "/api/auth/me", token: token).status == .unauthorized)
            #expect(try await client.json(.get, "/api/auth/me", token: novo).status == .ok)
            let login = try await client.json(.post, "/api/auth/login", #"{"email":"bia@example.com","senha":"nova-senha-1"}"#)
            let depois = try #require(login.object["token"] as? String, "\(String(buffer: login.body))")
            #expect(try await client.json(.get, "/api/auth/me", token: depois).status == .ok)
        }
    }

    @Test("a registration with an address already taken is refused before anything is made: no key for an id that will never be used")
    func taken_address_makes_nothing() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.test { client in
            #expect(try await client.register("rui@example.com").status == .created)
            func chaves() async throws -> Int? {
                try await harness.store.database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM personal_data_keys") }
            }
            let antes = try await chaves()
            let outra = try await client.register(" RUI@example.com ")
            #expect(outra.status == .conflict && outra.erro == "email_em_uso")
            #expect(try await chaves() == antes)
        }
    }

    @Test("login has its own tighter rate limit: 429 with Retry-After")
    func login_rate_limit() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let limiter = RateLimiter(login: RateLimiter.Limit(burst: 2, perSecond: 0.01))
        try await harness.test(rateLimiter: limiter) { client in
            #expect(try await client.login("x@example.com").status == .unauthorized)
            #expect(try await client.login("x@example.com").status == .unauthorized)
            // Extra slashes reach the same route, and the same bucket.
            let limited = try await client.json(.post, "//api/auth/login/", #"{"email":"x@example.com","senha":"segredo-123"}"#)
            #expect(limited.status == .tooManyRequests)
            #expect(Int(limited.headers[.retryAfter] ?? "") ?? 0 >= 1)
            // Other routes are not held back by the login bucket.
            #expect(try await client.json(.get, "/saude").status == .ok)
        }
    }

    @Test("registrations have their own rate limit per client (each hashes a password): 429 with Retry-After")
    func registration_rate_limit() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let limiter = RateLimiter(registration: RateLimiter.Limit(burst: 2, perSecond: 0.01))
        try await harness.test(rateLimiter: limiter) { client in
            #expect(try await client.register("r1@example.com").status == .created)
            #expect(try await client.register("r1@example.com").status == .conflict)
            let limited = try await client.register("r2@example.com")
            #expect(limited.status == .tooManyRequests && Int(limited.headers[.retryAfter] ?? "") ?? 0 >= 1)
            // Logins are another bucket.
            #expect(try await client.login("r1@example.com").status == .ok)
        }
    }
}

extension AuthTests {
    @Test("a request with a forged token spends its client's budget before the token is checked: 429 once it is spent, not 401 for ever")
    func forged_tokens_are_rate_limited() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let limiter = RateLimiter(perClient: RateLimiter.Limit(burst: 2, perSecond: 0.01))
        try await harness.test(rateLimiter: limiter) { client in
            let forjado = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.forjado"
            #expect(try await client.json(.get, "/api/auth/me", token: forjado).status == .unauthorized)
            #expect(try await client.json(.get, "/api/auth/me", token: forjado).status == .unauthorized)
            let limited = try await client.json(.get, "/api/auth/me", token: forjado)
            #expect(limited.status == .tooManyRequests && Int(limited.headers[.retryAfter] ?? "") ?? 0 >= 1)
        }
    }

    @Test("a password change and a data export have tight buckets of their own per user (each hashes, or reads the whole log): 429 with Retry-After")
    func password_change_and_export_rate_limits() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let limiter = RateLimiter(
            passwordChange: RateLimiter.Limit(burst: 2, perSecond: 0.01), dataExport: RateLimiter.Limit(burst: 1, perSecond: 0.01))
        try await harness.test(rateLimiter: limiter) { client in
            #expect(try await client.register("p1@example.com").status == .created)
            var token = try #require(try await client.login("p1@example.com").object["token"] as? String)
            var senha = "segredo-123"
            for nova in ["segredo-456", "segredo-789"] {
                let trocada = try await client.json(.post, "/api/auth/me/senha", #"{"senhaAtual":"\#(senha)","novaSenha":"\#(nova)"}"#, token: token)
                #expect(trocada.status == .ok, "\(String(buffer: trocada.body))")
                token = try #require(trocada.object["token"] as? String)
                senha = nova
            }
            let limited = try await client.json(.post, "/api/auth/me/senha", #"{"senhaAtual":"\#(senha)","novaSenha":"segredo-000"}"#, token: token)
            #expect(limited.status == .tooManyRequests && Int(limited.headers[.retryAfter] ?? "") ?? 0 >= 1)

            #expect(try await client.json(.get, "/api/auth/me/dados", token: token).status == .ok)
            #expect(try await client.json(.get, "/api/auth/me/dados", token: token).status == .tooManyRequests)
            // Other routes of the same member are not held back.
            #expect(try await client.json(.get, "/api/auth/me", token: token).status == .ok)
        }
    }
}

@Suite("Operations endpoints")
struct OperationsTests {
    @Test("every route the router serves is in /openapi.json, with its error responses")
    func openapi_lists_every_route() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let routes = GatewayApp.documentedRoutes(harness.backend)
        #expect(routes.count >= 8)
        try await harness.test { client in
            let response = try await client.json(.get, "/openapi.json")
            #expect(response.status == .ok)
            #expect(response.object["openapi"] as? String == "3.1.0")
            let paths = try #require(response.object["paths"] as? [String: [String: Any]])
            for route in routes {
                let parts = route.split(separator: " ", maxSplits: 1)
                let operation = paths[String(parts[1])]?[parts[0].lowercased()] as? [String: Any]
                #expect(operation != nil, "\(route) is missing from the OpenAPI document")
                let responses = operation?["responses"] as? [String: Any]
                #expect(responses?["500"] != nil, "\(route) documents no error response")
            }
            // Every schema a route refers to is in the document.
            let schemas = try #require((response.object["components"] as? [String: Any])?["schemas"] as? [String: Any])
            func refs(_ value: Any) -> [String] {
                if let object = value as? [String: Any] {
                    return (object["$ref"] as? String).map { [$0] } ?? object.values.flatMap(refs)
                }
                return (value as? [Any])?.flatMap(refs) ?? []
            }
            for reference in Set(refs(response.object)) {
                #expect(schemas[String(reference.dropFirst("#/components/schemas/".count))] != nil, "\(reference) does not resolve")
            }
            // And nothing documented is missing from the router.
            for (path, methods) in paths where !path.contains("{") {
                for method in methods.keys {
                    let answer = try await client.execute(uri: path, method: HTTPRequest.Method(method.uppercased())!)
                    #expect(answer.status != .notFound || answer.erro != "rota_nao_encontrada", "\(method) \(path)")
                }
            }
            let docs = try await client.json(.get, "/docs")
            #expect(String(buffer: docs.body).contains("/openapi.json"))
        }
    }

    @Test("a projection runner that stopped on an event it cannot apply shows on /saude (degraded, 200, naming the event) and /metrics")
    func a_stuck_projection_shows_on_health() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.test { client in
            #expect(try await client.json(.get, "/saude").object["status"] as? String == "ok")
            let ruim = NewEvent(eventId: UUID(), type: "ReservaSolicitada", data: Data(#"{"n":1}"#.utf8), occurredAt: Date())
            try await harness.store.append(to: StreamName("reserva-\(UUID().uuidString.lowercased())"), expected: .noStream, events: [ruim])
            let reservas = try await eventually("the reservas runner stopped") {
                let health = try await client.json(.get, "/saude")
                let component = (health.object["componentes"] as? [String: Any])?["projection:reservas"] as? [String: Any]
                return component?["status"] as? String == "erro" ? (health, component) : nil
            }
            #expect(reservas.0.status == .ok && reservas.0.object["status"] as? String == "degradado")
            #expect((reservas.1?["detalhe"] as? String)?.contains(ruim.eventId.uuidString.lowercased()) == true, "\(String(describing: reservas.1))")
            #expect(reservas.1?["desde"] != nil && reservas.1?["tentativas"] != nil)
            let outros = try #require(reservas.0.object["componentes"] as? [String: Any])
            #expect((outros["projection:catalogo"] as? [String: Any])?["status"] as? String == "ok")
            let metrics = String(buffer: try await client.json(.get, "/metrics").body)
            #expect(metrics.contains(#"coworkflow_projection_failing{projection="reservas"} 1.0"#))
            #expect(metrics.contains(#"coworkflow_projection_failing{projection="catalogo"} 0.0"#))
        }
    }

    @Test("/saude reports the store and the bus; /metrics counts requests per route and status")
    func health_and_metrics() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.test { client in
            let health = try await client.json(.get, "/saude")
            #expect(health.status == .ok)
            let components = health.object["componentes"] as? [String: Any]
            #expect(components?["store"] != nil && components?["bus"] != nil)
            // One registry per process (the tests' apps share it): the series moves by one.
            let series401 = #"coworkflow_http_requests_total{method="GET",route="/api/auth/me",status="401"} "#
            func count(_ text: String) -> Int {
                text.split(separator: "\n").first { $0.hasPrefix(series401) }.flatMap { Int($0.dropFirst(series401.count)) } ?? 0
            }
            let earlier = count(String(buffer: try await client.json(.get, "/metrics").body))
            _ = try await client.json(.get, "/api/auth/me")
            let metrics = String(buffer: try await client.json(.get, "/metrics").body)
            #expect(count(metrics) == earlier + 1, "\(metrics)")
            #expect(metrics.contains("coworkflow_http_request_duration_seconds_bucket"))
            // Made-up paths, ids and methods add no series of their own, and nothing a request
            // sends can break the text format.
            let series = metrics.split(separator: "\n").filter { $0.hasPrefix("coworkflow_http_requests_total{") }.count
            for path in ["/api/espacos/yy1", "/api/espacos/yy2", "/api/reservas/ww1/pagamento", "/nada/\u{22}b", "/api/nada/1", "/api/nada/2"] {
                _ = try await client.execute(uri: path.replacingOccurrences(of: "\"", with: "%22"), method: .get)
            }
            _ = try await client.execute(uri: "/api/espacos", method: HTTPRequest.Method("INVENTADO")!)
            _ = try await client.execute(uri: "/api/espacos", method: HTTPRequest.Method("INVENTADO2")!)
            let after = String(buffer: try await client.json(.get, "/metrics").body)
            let added = after.split(separator: "\n").filter { $0.hasPrefix("coworkflow_http_requests_total{") }
            // /api/espacos/{id} 404, /api/reservas/{id}/pagamento 401, the unknown paths, the
            // made-up methods and /metrics itself.
            #expect(added.count <= series + 5, "\(added.joined(separator: "\n"))")
            #expect(after.contains(#"route="/api/espacos/{id}""#))
            #expect(after.contains(#"method="(outro)",route="/api/espacos",status="405""#))
            #expect(!after.contains("yy1") && !after.contains("ww1") && !after.contains("INVENTADO"))
            for line in added {
                // Every label value is a quoted string with no raw quote inside.
                #expect(line.split(separator: "\"").count == 7, "\(line)")
            }
            // HEAD is answered as GET without a body.
            let head = try await client.execute(uri: "/saude", method: .head)
            #expect(head.status == .ok && head.body.readableBytes == 0)
            let get = try await client.execute(uri: "/openapi.json", method: .get)
            let headDocument = try await client.execute(uri: "/openapi.json", method: .head)
            #expect(headDocument.body.readableBytes == 0 && headDocument.headers[.contentLength] == String(get.body.readableBytes))
            let headCatalog = try await client.execute(uri: "/api/espacos", method: .head)
            #expect(headCatalog.status == .ok, "\(headCatalog.status)")
        }
    }
}
