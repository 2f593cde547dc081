import Crypto
import Domain
import EventStore
import Foundation
import Hummingbird
import HummingbirdTesting
import Services
import Synchronization
import TestSupport
import Testing

@testable import Gateway

@Suite("Read-your-writes: which requests wait for the read models")
struct ReadYourWritesTests {
    @Test("a POST that only computes (a quote) neither waits for the read models nor keeps its Idempotency-Key answer; a command does both")
    func a_quote_waits_for_nothing() async throws {
        let path = TemporarySQLite.path("coworkflow-ryw")
        defer { TemporarySQLite.remove(path) }
        let store = try SQLiteEventStore(path: path)
        let settles = Mutex(0)
        let router = Router(context: GatewayContext.self)
        // The edge turns a refused request into its 4xx answer.
        router.add(middleware: EdgeMiddleware(drain: DrainState(), metrics: Metrics(), allowedOrigins: .none, routes: RouteTable()))
        let api = API(
            router: router,
            idempotency: Idempotency(keys: store, fingerprintKey: SymmetricKey(data: Data(repeating: 3, count: 32))),
            settle: { _, _ in settles.withLock { $0 += 1 } })
        api.add(Operation(method: .post, path: "/cotar", summary: "quote", tag: "t", writes: false)) { _, _, _ in try .json(["total": 1]) }
        api.add(Operation(method: .post, path: "/fazer", summary: "command", tag: "t")) { _, _, _ in try .json(["feito": true]) }
        try await Application(router: api.router).test(.router) { client in
            func post(_ uri: String, _ body: String) async throws -> HTTPResponse.Status {
                try await client.execute(
                    uri: uri, method: .post, headers: [.contentType: "application/json", .init("Idempotency-Key")!: "k-1"],
                    body: ByteBuffer(string: body)
                ).status
            }
            let quoted = try await post("/cotar", #"{"a":1}"#)
            // Nothing kept under the key: the same key with another body is simply another quote.
            let quotedAgain = try await post("/cotar", #"{"a":2}"#)
            #expect(quoted == .ok && quotedAgain == .ok)
            #expect(settles.withLock { $0 } == 0, "a quote waits for no read model")

            let done = try await post("/fazer", #"{"a":1}"#)
            #expect(done == .ok)
            #expect(settles.withLock { $0 } == 1, "a command waits for its read models")
            let reused = try await post("/fazer", #"{"a":2}"#)
            #expect(reused == .unprocessableContent, "the command's key is kept")
        }
    }

    @Test(
        "a member's write answers without waiting and names its positions; the member's next query waits for them once, and another member's does not; an operator's write still waits"
    )
    func a_members_write_waits_at_the_next_read() async throws {
        let path = TemporarySQLite.path("coworkflow-ryw")
        defer { TemporarySQLite.remove(path) }
        let store = try SQLiteEventStore(path: path)
        let settles = Mutex<[[String: GlobalPosition]?]>([])
        let router = Router(context: GatewayContext.self)
        router.add(middleware: EdgeMiddleware(drain: DrainState(), metrics: Metrics(), allowedOrigins: .none, routes: RouteTable()))
        router.add(middleware: CallerFromHeader())
        let api = API(
            router: router,
            idempotency: Idempotency(keys: store, fingerprintKey: SymmetricKey(data: Data(repeating: 3, count: 32))),
            settle: { _, types in settles.withLock { $0.append(types) } })
        // As a service does: what the append answers goes on the caller's receipt.
        api.add(Operation(method: .post, path: "/fazer", summary: "command", tag: "t")) { _, context, _ in
            let event = NewEvent(eventId: UUID(), type: "Feito", data: Data("{}".utf8), occurredAt: Date())
            let result = try await store.append([
                StreamWrite(stream: StreamName("feito-\(UUID().uuidString.lowercased())"), expected: .noStream, events: [event])
            ])
            context.caller.receipt?.record(result)
            return try .json(["feito": true])
        }
        api.add(Operation(method: .get, path: "/ler", summary: "query", tag: "t")) { _, _, _ in try .json(["lido": true]) }
        // A write another member reads next (a booking made for a colleague).
        api.add(Operation(method: .post, path: "/fazer-para-outro", summary: "command", tag: "t")) { _, context, _ in
            let event = NewEvent(eventId: UUID(), type: "FeitoParaOutro", data: Data("{}".utf8), occurredAt: Date())
            let result = try await store.append(to: StreamName("feito-\(UUID().uuidString.lowercased())"), expected: .noStream, events: [event])
            context.caller.receipt?.record(result)
            context.caller.receipt?.markShared()
            return try .json(["feito": true])
        }
        api.add(Operation(method: .post, path: "/api/empresas/{id}/fazer", summary: "a company's command", tag: "t")) { _, context, _ in
            let event = NewEvent(eventId: UUID(), type: "FeitoNaEmpresa", data: Data("{}".utf8), occurredAt: Date())
            let result = try await store.append([
                StreamWrite(stream: StreamName("empresa-\(UUID().uuidString.lowercased())"), expected: .noStream, events: [event])
            ])
            context.caller.receipt?.record(result)
            return try .json(["feito": true])
        }
        api.add(Operation(method: .get, path: "/api/empresas/{id}/ler", summary: "a company's query", tag: "t")) { _, _, _ in
            try .json(["lido": true])
        }
        try await Application(router: api.router).test(.router) { client in
            func send(_ method: HTTPRequest.Method, _ uri: String, as caller: String, token: String? = nil) async throws -> TestResponse {
                var headers: HTTPFields = [.contentType: "application/json", .init("X-Teste-Chamador")!: caller]
                if let token { headers[.init("Coworkflow-Consistencia")!] = token }
                return try await client.execute(uri: uri, method: method, headers: headers, body: method == .post ? ByteBuffer(string: "{}") : nil)
            }
            func waited() -> [[String: GlobalPosition]?] { settles.withLock { $0 } }

            let feito = try await send(.post, "/fazer", as: "membro:ana")
            #expect(feito.status == .ok)
            let token = try #require(feito.headers[.init("Coworkflow-Consistencia")!])
            let escrito = try #require(Forwarder.types(parsing: token))
            #expect(Array(escrito.keys) == ["Feito"])
            #expect(waited().isEmpty, "a member's command answers without waiting for the read models")

            #expect(try await send(.get, "/ler", as: "membro:bia").status == .ok)
            #expect(waited().isEmpty, "another member's query does not wait for it")
            #expect(try await send(.get, "/ler", as: "admin:op").status == .ok)
            #expect(waited() == [escrito], "an operator's query waits for what members wrote before it")
            settles.withLock { $0.removeAll() }
            #expect(try await send(.get, "/ler", as: "membro:ana").status == .ok)
            #expect(waited() == [escrito], "the member's next query waits for what they wrote")
            #expect(try await send(.get, "/ler", as: "membro:ana").status == .ok)
            #expect(waited().count == 1, "once: the query after it waits for nothing")

            // Another gateway replica knows nothing of the write; the header the web app sends
            // back names it.
            #expect(try await send(.get, "/ler", as: "membro:bia", token: token).status == .ok)
            #expect(waited().count == 2 && waited().last == escrito)
            let torto = try await send(.get, "/ler", as: "membro:ana", token: "Feito=12")
            #expect(torto.status == .badRequest)
            #expect(String(buffer: torto.body).contains("Coworkflow-Consistencia"))
            // What a write answers matches the grammar /openapi.json declares; nothing else passes.
            let gramatica = try Regex(PendingWrites.pattern)
            #expect(try gramatica.wholeMatch(in: token) != nil, "\(token)")
            for errado in ["Feito=+5/3", "Fe ito=1/2", "Feito=1234567890123456789/1", "Feito=1/2,", ",Feito=1/2", "Feito=1/2/3", "=1/2", "Feito=1/"] {
                #expect(try await send(.get, "/ler", as: "membro:ana", token: errado).status == .badRequest, "\(errado)")
                #expect(try gramatica.wholeMatch(in: errado) == nil, "\(errado)")
            }
            let antes = waited().count
            #expect(try await send(.get, "/ler", as: "membro:ana", token: "").status == .ok)
            #expect(waited().count == antes, "an empty value is as none")
            #expect(try gramatica.wholeMatch(in: "") != nil)
            #expect(try await send(.get, "/ler", as: "membro:ana", token: "A=1/2,B=123456789012345678/0").status == .ok)
            #expect(waited().count == antes + 1)
            settles.withLock { _ = $0.removeLast() }

            // What one of a company's people writes there, the others read there.
            #expect(try await send(.post, "/api/empresas/e1/fazer", as: "membro:ana").status == .ok)
            #expect(try await send(.get, "/api/empresas/e2/ler", as: "membro:bia").status == .ok)
            #expect(waited().count == 2, "another company's reads do not wait for it")
            #expect(try await send(.get, "/api/empresas/e1/ler", as: "membro:bia").status == .ok)
            #expect(waited().count == 3 && waited().last??.keys.first == "FeitoNaEmpresa")
            #expect(try await send(.get, "/ler", as: "membro:ana").status == .ok)
            #expect(waited().count == 4 && waited().last??.keys.first == "FeitoNaEmpresa", "the writer's own reads wait for it too")
            settles.withLock { $0.removeLast(2) }

            let doOperador = try await send(.post, "/fazer", as: "admin:op")
            #expect(doOperador.status == .ok)
            #expect(doOperador.headers[.init("Coworkflow-Consistencia")!] == nil)
            #expect(waited().count == 3 && waited().last??.keys.first == "Feito", "an operator's write waits before it answers")
            #expect(try await send(.post, "/fazer", as: "anonimo").status == .ok)
            #expect(waited().count == 4, "so does an anonymous one")
            let paraOutro = try await send(.post, "/fazer-para-outro", as: "membro:ana")
            #expect(paraOutro.status == .ok)
            #expect(paraOutro.headers[.init("Coworkflow-Consistencia")!] == nil)
            #expect(
                waited().count == 5 && waited().last??.keys.first == "FeitoParaOutro",
                "a member's write another member reads next waits before it answers")
        }
    }
}

extension ReadYourWritesTests {
    @Test(
        "behind the distributed gateway, the service names what it wrote in internal headers: the gateway keeps a member's write for the member's next read, waits before answering one another member reads next, and strips the headers"
    )
    func the_service_tells_the_gateway() async throws {
        let path = TemporarySQLite.path("coworkflow-ryw")
        defer { TemporarySQLite.remove(path) }
        let store = try SQLiteEventStore(path: path)
        let keys = Idempotency(keys: store, fingerprintKey: SymmetricKey(data: Data(repeating: 3, count: 32)))
        // The service: its command records what it appended, and the write for another member says so.
        let servico = API(router: Router(context: GatewayContext.self), idempotency: keys, role: .service(.reservas))
        servico.owner = .reservas
        for (rota, tipo, compartilhada) in [("/fazer", "Feito", false), ("/fazer-para-outro", "FeitoParaOutro", true)] {
            servico.add(Operation(method: .post, path: rota, summary: "command", tag: "t")) { _, context, _ in
                let event = NewEvent(eventId: UUID(), type: tipo, data: Data("{}".utf8), occurredAt: Date())
                let result = try await store.append(to: StreamName("feito-\(UUID().uuidString.lowercased())"), expected: .noStream, events: [event])
                context.caller.receipt?.record(result)
                if compartilhada { context.caller.receipt?.markShared() }
                return try .json(["feito": true])
            }
        }
        let app = Application(router: servico.router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { servidor in
            let forwarder = Forwarder(targets: [.reservas: ["http://127.0.0.1:\(try #require(servidor.port))"]])
            let settles = Mutex<[[String: GlobalPosition]?]>([])
            let router = Router(context: GatewayContext.self)
            router.add(middleware: EdgeMiddleware(drain: DrainState(), metrics: Metrics(), allowedOrigins: .none, routes: RouteTable()))
            router.add(middleware: CallerFromHeader())
            let gateway = API(
                router: router, idempotency: keys, role: .gateway(forwarder), settle: { _, types in settles.withLock { $0.append(types) } })
            gateway.owner = .reservas
            for rota in ["/fazer", "/fazer-para-outro"] {
                gateway.add(Operation(method: .post, path: rota, summary: "command", tag: "t")) { _, _, _ in try .json(["aqui": true]) }
            }
            let checked: (any Error)?
            do {
                try await Application(router: gateway.router).test(.router) { client in
                    func internos(_ answer: TestResponse) -> [String] {
                        ["Coworkflow-Tipos", "Coworkflow-Posicao", "Coworkflow-Compartilhada"].filter { answer.headers[.init($0)!] != nil }
                    }
                    func post(_ uri: String) async throws -> TestResponse {
                        try await client.execute(
                            uri: uri, method: .post, headers: [.contentType: "application/json", .init("X-Teste-Chamador")!: "membro:ana"],
                            body: ByteBuffer(string: "{}"))
                    }
                    let feito = try await post("/fazer")
                    #expect(feito.status == .ok && String(buffer: feito.body).contains("feito"), "answered by the service")
                    #expect(feito.headers[.init("Coworkflow-Consistencia")!]?.hasPrefix("Feito=") == true)
                    #expect(internos(feito).isEmpty)
                    #expect(settles.withLock { $0 }.isEmpty, "a member's write answers without waiting")

                    let paraOutro = try await post("/fazer-para-outro")
                    #expect(paraOutro.status == .ok)
                    #expect(paraOutro.headers[.init("Coworkflow-Consistencia")!] == nil)
                    #expect(internos(paraOutro).isEmpty)
                    #expect(settles.withLock { $0 }.map { $0?.keys.sorted() } == [["FeitoParaOutro"]], "one another member reads next waits")
                }
                checked = nil
            } catch {
                checked = error
            }
            try await forwarder.shutdown()
            if let checked { throw checked }
        }
    }
}

/// Names the caller from a test header (`papel:usuario`), in place of a token.
private struct CallerFromHeader: RouterMiddleware {
    typealias Context = GatewayContext
    func handle(_ request: Request, context: GatewayContext, next: (Request, GatewayContext) async throws -> Response) async throws -> Response {
        var context = context
        if let value = request.headers[.init("X-Teste-Chamador")!], let separator = value.firstIndex(of: ":") {
            context.subject = .init(usuario: String(value[value.index(after: separator)...]), papel: String(value[..<separator]))
        }
        return try await next(request, context)
    }
}

@Suite("The distributed gateway and the caller's account")
struct ForwardedAccountTests {
    @Test(
        "the gateway checks only the token of a booking it forwards (the service checks the account in its read ahead); any other command's account it reads itself"
    )
    func the_gateway_leaves_the_bookings_account_to_the_service() async throws {
        let path = TemporarySQLite.path("coworkflow-conta-adiada")
        defer { TemporarySQLite.remove(path) }
        let store = try SQLiteEventStore(path: path)
        // The gateway's usuarios service knows no account at all: every account check it makes fails.
        let usuarios = try await Harness.usuarios(store: store, clock: ManualClock(Date()))
        let token = try await usuarios.tokens.issue(usuario: UUID().uuidString.lowercased(), papel: "membro", now: Date()).token
        let keys = Idempotency(keys: store, fingerprintKey: SymmetricKey(data: Data(repeating: 3, count: 32)))
        // The service: answers whatever reaches it, counting what does.
        let chegaram = Mutex<[String]>([])
        let servico = Router(context: GatewayContext.self)
        for rota in ["/api/reservas", "/api/outro"] {
            servico.post(RouterPath(rota)) { request, _ -> Response in
                chegaram.withLock { $0.append(request.uri.path) }
                return Response(status: .created)
            }
        }
        try await Application(router: servico, configuration: .init(address: .hostname("127.0.0.1", port: 0))).test(.live) { servidor in
            let forwarder = Forwarder(targets: [.reservas: ["http://127.0.0.1:\(try #require(servidor.port))"]])
            let adiadas = ContasAdiadas()
            let router = Router(context: GatewayContext.self)
            router.add(middleware: EdgeMiddleware(drain: DrainState(), metrics: Metrics(), allowedOrigins: .none, routes: RouteTable()))
            router.add(middleware: AuthMiddleware(usuarios: usuarios, adiadas: adiadas))
            let gateway = API(router: router, idempotency: keys, role: .gateway(forwarder), adiadas: adiadas)
            gateway.owner = .reservas
            gateway.add(Operation(method: .post, path: "/api/reservas", summary: "book", tag: "t", auth: true, contaNoComando: true)) { _, _, _ in
                try .json(["aqui": true])
            }
            gateway.add(Operation(method: .post, path: "/api/outro", summary: "other", tag: "t", auth: true)) { _, _, _ in
                try .json(["aqui": true])
            }
            let checked: (any Error)?
            do {
                try await Application(router: gateway.router).test(.router) { client in
                    func post(_ uri: String, token: String) async throws -> TestResponse {
                        try await client.execute(
                            uri: uri, method: .post, headers: [.contentType: "application/json", .authorization: "Bearer \(token)"],
                            body: ByteBuffer(string: "{}"))
                    }
                    let reserva = try await post("/api/reservas", token: token)
                    #expect(reserva.status == .created, "forwarded with its token checked, its account left to the service")
                    #expect(chegaram.withLock { $0 } == ["/api/reservas"])
                    let outro = try await post("/api/outro", token: token)
                    #expect(outro.status == .unauthorized, "another command's account is read at the gateway: none, a 401")
                    #expect(chegaram.withLock { $0 } == ["/api/reservas"], "and it never leaves the gateway")
                    let forjado = try await post("/api/reservas", token: token + "x")
                    #expect(forjado.status == .unauthorized, "a token that does not verify stops at the gateway, booking or not")
                    #expect(chegaram.withLock { $0 } == ["/api/reservas"])
                }
                checked = nil
            } catch {
                checked = error
            }
            try await forwarder.shutdown()
            if let checked { throw checked }
        }
    }
}
