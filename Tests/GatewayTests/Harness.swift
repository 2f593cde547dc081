import App
import Crypto
import Domain
import EventStore
import Foundation
import Gateway
import Hummingbird
import HummingbirdTesting
import Integrations
import Logging
import Messaging
import Projections
import Services
import TestSupport
import Testing

/// An all-in-one gateway on a fresh embedded store, with a clock the test moves.
struct Harness {
    let backend: Backend
    let clock: ManualClock
    let store: SQLiteEventStore
    let path: String
    let bus: InProcessEventBus
    /// Where the e-mails go (`FileMailer`).
    let outbox: URL
    let segredo: Data
    /// The in-process payment provider.
    let sandbox: SandboxPSP

    /// A gateway over the store at `path` (a new file when nil: reopening one is a restart).
    /// Tokens expire by `clock` (production's lifetime is an hour); tests that move the clock
    /// days ahead and go on with the tokens they logged in with get a year by default.
    static func make(
        path: String? = nil, clock: ManualClock = ManualClock(Date()), tokenLifetime: TimeInterval = 365 * 86_400
    ) async throws -> Harness {
        let path = path ?? TemporarySQLite.path("coworkflow-gw")
        let store = try SQLiteEventStore(path: path)
        let usuarios = try await usuarios(store: store, clock: clock, tokenLifetime: tokenLifetime)
        var logger = Logger(label: "gateway-tests")
        logger.logLevel = .critical
        let outbox = FileManager.default.temporaryDirectory.appendingPathComponent("coworkflow-outbox-\(UUID().uuidString)")
        let segredo = Data("segredo-do-webhook-de-teste".utf8)
        let sandbox = SandboxPSP(segredo: segredo, clock: clock, atraso: .milliseconds(20), logger: logger)
        let bus = InProcessEventBus(store: store, logger: logger)
        let backend = Backend.allInOne(
            store: store, bus: bus, usuarios: usuarios, clock: clock,
            integracoes: Integracoes(
                provider: SandboxProvider(psp: sandbox), segredoDoWebhook: segredo, sandbox: sandbox, mailer: FileMailer(directory: outbox),
                tentativasDeEmail: 1),
            gathering: gathering, logger: logger)
        // No socket in router tests: the sandbox hands its signed notices to the webhook's handler.
        let pagamentos = backend.negocio.pagamentos
        await sandbox.entregarPor { corpo, assinatura in
            do {
                _ = try await pagamentos.receberAviso(corpo, assinatura: assinatura, caller: Caller(requestId: "sandbox"))
                return 200
            } catch let error as ServiceError {
                return error.status
            } catch {
                return 500
            }
        }
        return Harness(backend: backend, clock: clock, store: store, path: path, bus: bus, outbox: outbox, segredo: segredo, sandbox: sandbox)
    }

    /// The read models' runners as the product has them; with `COWORKFLOW_TEST_LAGGING_RUNNERS_MS=N`
    /// every pass that read anything waits for a beat of N ms: read models a long beat behind,
    /// to find a test or a path that counts on a runner being quick (session 52: at 300 ms, five
    /// in this suite, three of them the product's). It slows only the in-process runners; the
    /// processes some suites start take `PROJECTION_GATHER_MS` from the environment.
    static let gathering: ProjectionRunner.Gathering = {
        guard let texto = ProcessInfo.processInfo.environment["COWORKFLOW_TEST_LAGGING_RUNNERS_MS"], let ms = Int(texto), ms > 0 else {
            return .underLoad
        }
        return ProjectionRunner.Gathering(wait: .milliseconds(ms), from: 1)
    }()

    /// The usuarios service the harness runs, over `store`.
    static func usuarios(store: SQLiteEventStore, clock: ManualClock, tokenLifetime: TimeInterval = 3_600) async throws -> UsuariosService {
        UsuariosService(
            store: store, vault: PersonalDataVault(keys: SQLiteKeyStore(database: store.database)),
            // The KDF's smallest accepted round count: tests hash many passwords.
            passwords: PasswordHasher(rounds: 210_000),
            tokens: try await TokenIssuer(secret: String(repeating: "k", count: 32), lifetime: tokenLifetime), clock: clock,
            emailKey: SymmetricKey(data: Data(repeating: 7, count: 32)))
    }

    func removeFiles() {
        TemporarySQLite.remove(path)
        try? FileManager.default.removeItem(at: outbox)
    }

    /// Runs `body` against the router (no socket).
    /// `reacting`: the services that react to others' events; `[]`: none (a bus that lags or is
    /// down). One left out is behind until a later `test` of the same harness, whose consumer
    /// resumes from its checkpoint.
    func test(
        rateLimiter: RateLimiter = RateLimiter(), webRoot: String? = nil, reacting: [Deployable] = Deployable.allCases,
        allowedOrigins: AllowedOrigins = .none, _ body: @Sendable @escaping (any TestClientProtocol) async throws -> Void
    ) async throws {
        var logger = Logger(label: "gateway-tests")
        logger.logLevel = .critical
        let app = GatewayApp.application(
            backend, configuration: GatewayConfiguration(allowedOrigins: allowedOrigins, rateLimiter: rateLimiter, webRoot: webRoot), logger: logger)
        // The projections run beside the router, as in `coworkflow serve`.
        let runners = backend.projections.map { runner in Task { try await runner.run() } }
        // And the services' reactions to events.
        let consumers = backend.reactors(for: reacting).map { consumer in Task { [bus] in try await bus.consume(consumer) } }
        // Stopped, and waited for, before the test goes on: a reaction or a runner still finishing
        // would write after the test's last look at the store (a rebuild compared with a snapshot
        // taken while the notifications' e-mail was still being recorded and projected: seen once
        // in CI). The reactions first; then the read models catch up with what they wrote.
        let backend = self.backend, store = self.store
        func stop() async {
            for task in consumers { task.cancel() }
            for task in consumers { _ = await task.result }
            if let head = try? await store.headPosition() {
                for runner in backend.projections { _ = await runner.waitUntil(head, timeout: .seconds(2)) }
            }
            for task in runners { task.cancel() }
            for task in runners { _ = await task.result }
        }
        do {
            try await app.test(.router, body)
        } catch {
            await stop()
            throw error
        }
        await stop()
    }

    /// Every event in the store, oldest first.
    func allEvents() async throws -> [RecordedEvent] {
        try await store.readAll(after: .start, limit: 10_000)
    }
}

extension TestClientProtocol {
    @discardableResult
    func json(
        _ method: HTTPRequest.Method, _ uri: String, _ body: String? = nil, token: String? = nil, headers: HTTPFields = [:]
    ) async throws -> TestResponse {
        var headers = headers
        headers[.contentType] = "application/json"
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
    }

    func register(_ email: String, senha: String = "segredo-123", nome: String = "Ana") async throws -> TestResponse {
        try await json(.post, "/api/auth/registro", #"{"nome":"\#(nome)","email":"\#(email)","senha":"\#(senha)"}"#)
    }

    func login(_ email: String, senha: String = "segredo-123") async throws -> TestResponse {
        try await json(.post, "/api/auth/login", #"{"email":"\#(email)","senha":"\#(senha)"}"#)
    }

    func token(_ email: String, senha: String = "segredo-123") async throws -> String {
        let response = try await login(email, senha: senha)
        let object = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
        return try #require(object?["token"] as? String, "login failed: \(response.status) \(String(buffer: response.body))")
    }
}

extension TestResponse {
    var object: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any]) ?? [:]
    }

    var erro: String? { object["erro"] as? String }
}

extension Data {
    init(buffer: ByteBuffer) {
        self.init(buffer.readableBytesView)
    }
}
