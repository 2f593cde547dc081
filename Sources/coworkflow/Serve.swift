import App
import ArgumentParser
import Crypto
import EventStore
import Foundation
import Gateway
import Hummingbird
import Integrations
import Logging
import Messaging
import Projections
import ServiceLifecycle
import Services

/// `coworkflow serve`: everything in one process on the embedded store and the in-process bus.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run CoworkFlow: the gateway and every service in one process (embedded store).",
        discussion: """
            State lives in --data (default ./coworkflow-data): the SQLite store and, unless \
            JWT_SECRET is set, the generated signing secret. Open http://localhost:8080/docs. \
            Stops gracefully on SIGTERM/SIGINT: requests in flight finish, new ones get 503.
            """)

    @Option(help: "Port (default: PORT or 8080).")
    var port: Int?

    @Option(help: "Address to listen on (0.0.0.0 to accept other machines).")
    var host = "127.0.0.1"

    @Option(help: "Directory for the embedded store and secrets.")
    var data = "coworkflow-data"

    @Option(help: "Run one deployable against PostgreSQL and RabbitMQ (distributed mode).")
    var service: String?

    @Option(help: "The web app's folder (served at /, all-in-one mode; skipped when it does not exist).")
    var web = "web"

    @Flag(help: "Create demo accounts (their passwords are printed once).")
    var seedDemo = false

    func run() async throws {
        let logger = Log.logger("coworkflow")
        let environment = ProcessInfo.processInfo.environment
        let port = port ?? environment["PORT"].flatMap(Int.init) ?? 8080
        if let service {
            guard !seedDemo else { throw ValidationError("--seed-demo is for the all-in-one mode; run it without --service") }
            let kind = try Distributed.kind(service)
            try await Distributed(kind: kind, host: host, port: port, environment: environment, logger: Log.logger("coworkflow.\(service)")).run()
            return
        }
        var ambiente = environment
        // Links in e-mails point at this server unless PUBLIC_URL says where people open it.
        if ambiente["PUBLIC_URL"] == nil { ambiente["PUBLIC_URL"] = "http://\(host == "0.0.0.0" ? "localhost" : host):\(port)" }
        let embedded = try Embedded(directory: data, environment: ambiente)
        let (backend, bus) = try await embedded.backend(logger: logger)

        var isDirectory: ObjCBool = false
        let webRoot = FileManager.default.fileExists(atPath: web, isDirectory: &isDirectory) && isDirectory.boolValue ? web : nil
        if webRoot == nil { logger.info("no web app at \(web)/: serving the API only") }
        let drain = DrainState()
        let app = GatewayApp.application(
            backend,
            configuration: GatewayConfiguration(
                host: host, port: port, allowedOrigins: AllowedOrigins(parsing: environment["CORS_ORIGINS"] ?? ""),
                rateLimiter: try Limits.from(environment), webRoot: webRoot), drain: drain, logger: logger,
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? port
                // The sandbox PSP calls our webhook over HTTP, as a real provider would.
                await backend.negocio.sandbox?.apontarWebhook(para: "http://127.0.0.1:\(bound)/api/pagamentos/webhooks/sandbox")
                // Unbuffered, so a script reading a pipe sees it at once.
                FileHandle.standardOutput.write(
                    Data(
                        "CoworkFlow em http://\(host == "0.0.0.0" ? "localhost" : host):\(bound) — documentação em /docs, dados em \(data)/\n".utf8))
            })
        let background: [ServiceGroupConfiguration.ServiceConfiguration] =
            backend.projections.map { .init(service: ProjectionService(runner: $0)) }
            + backend.reactors().map { .init(service: ConsumerService(bus: bus, consumer: $0)) }
            + backend.temporizadores().map { .init(service: TimerService(temporizador: $0, store: backend.store, logger: logger)) }
        if seedDemo {
            // The projections run first so the demo's reads (existing units) see earlier seeds.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for runner in backend.projections { group.addTask { try await runner.catchUp() } }
                try await group.waitForAll()
            }
            try await Demo.seed(backend)
            // The passwords are printed once: out now, not when a block-buffered stdout (a file,
            // a pipe) fills up or the process exits.
            fflush(nil)
        }
        let traces = try TraceExport.start(service: "coworkflow", environment: environment, logger: logger)
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                // Shut down in reverse order: the drain flag first, then the server drains, then
                // the projections and timers stop, then the last spans are exported.
                services: (traces.map { [.init(service: $0)] } ?? []) + background + [
                    .init(service: app),
                    .init(service: DrainOnShutdown(drain: drain, logger: logger)),
                ],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger))
        try await group.run()
    }
}

/// On graceful shutdown: from now on new requests get 503 while the server drains the ones in
/// flight (it is listed last, so it hears the shutdown first).
struct DrainOnShutdown: Service {
    let drain: DrainState
    let logger: Logger

    func run() async throws {
        do { try await gracefulShutdown() } catch is CancellationError { return }
        drain.startDraining()
        logger.info("draining: new requests get 503, requests in flight finish")
    }
}

/// The embedded mode's parts, all under one directory.
struct Embedded {
    let directory: URL
    let environment: [String: String]

    init(directory path: String, environment: [String: String]) throws {
        directory = URL(fileURLWithPath: path, isDirectory: true)
        self.environment = environment
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func backend(logger: Logger) async throws -> (Backend, any EventBus) {
        let store = try SQLiteEventStore(path: directory.appendingPathComponent("coworkflow.sqlite").path)
        let vault = PersonalDataVault(keys: SQLiteKeyStore(database: store.database))
        let secrets = try Secrets.load(from: directory, environment: environment)
        let usuarios = UsuariosService(
            store: store, vault: vault, passwords: PasswordHasher(), tokens: try await TokenIssuer(secret: secrets.jwt),
            clock: SystemClock(), emailKey: secrets.emailKey)
        // The embedded mode's relay: its consumers keep the relay's beat (RELAY_GATHER_MS).
        let bus = InProcessEventBus(store: store, gathering: try Gathering.relay(environment))
        let integracoes = try Integracoes.local(
            environment: environment, webhookSecret: secrets.webhook, outbox: directory.appendingPathComponent("outbox"), logger: logger)
        let backend = Backend.allInOne(
            store: store, bus: bus, usuarios: usuarios, clock: SystemClock(), integracoes: integracoes,
            gathering: try Gathering.projections(environment), logger: logger)
        return (backend, bus)
    }
}

/// The signing secret (JWT_SECRET, else generated once and kept in the data directory), the
/// key of e-mail claim names and the payment webhook's secret (PSP_WEBHOOK_SECRET, else kept).
struct Secrets {
    let jwt: String
    let emailKey: SymmetricKey
    let webhook: Data

    static func load(from directory: URL, environment: [String: String]) throws -> Secrets {
        let file = directory.appendingPathComponent("secrets.json")
        var stored: [String: String] = [:]
        if FileManager.default.fileExists(atPath: file.path) {
            // Never replace a secrets file silently: a new e-mail key would orphan every claim.
            guard let decoded = try? JSONDecoder().decode([String: String].self, from: Data(contentsOf: file)) else {
                throw ValidationError("\(file.path) exists but cannot be read as JSON; fix or restore it (it keys the e-mail claims)")
            }
            stored = decoded
        }
        func random() -> String {
            SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }.base64EncodedString()
        }
        /// A key of at least 256 bits, base64 (an empty one would make every HMAC forgeable).
        func usable(_ name: String) -> Bool { (Data(base64Encoded: stored[name] ?? "")?.count ?? 0) >= 32 }
        var changed = false
        // Replacing the JWT or webhook key only ends sessions and pending sandbox notices.
        if (stored["jwt"] ?? "").utf8.count < 32 {
            stored["jwt"] = random()
            changed = true
        }
        if !usable("psp") {
            stored["psp"] = random()
            changed = true
        }
        if stored["email"] == nil {
            stored["email"] = random()
            changed = true
        } else if !usable("email"), try key("EMAIL_HASH_KEY", environment) == nil {
            throw ValidationError("\(file.path): the \"email\" key is not 32 bytes of base64; restore it (it keys the e-mail claims)")
        }
        if changed {
            try JSONEncoder().encode(stored).write(to: file, options: .atomic)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        }
        let jwt = environment["JWT_SECRET"].flatMap { $0.isEmpty ? nil : $0 } ?? stored["jwt"] ?? random()
        let email = try key("EMAIL_HASH_KEY", environment) ?? Data(base64Encoded: stored["email"] ?? "") ?? Data()
        let webhook = try key("PSP_WEBHOOK_SECRET", environment) ?? Data(base64Encoded: stored["psp"] ?? "") ?? Data()
        return Secrets(jwt: jwt, emailKey: SymmetricKey(data: email), webhook: webhook)
    }
}

extension Secrets {
    /// The key in the environment variable `name` (its UTF-8 bytes); nil when unset or empty.
    ///
    /// - Throws: when it is shorter than 32 bytes: an HMAC key that short is guessable, as a
    ///   `JWT_SECRET` would be.
    static func key(_ name: String, _ environment: [String: String]) throws -> Data? {
        guard let value = environment[name], !value.isEmpty else { return nil }
        guard value.utf8.count >= 32 else { throw ValidationError("\(name) must be at least 32 bytes (e.g. openssl rand -base64 48)") }
        return Data(value.utf8)
    }
}

/// A projection runner as a service of the group: stops on graceful shutdown.
struct ProjectionService: Service {
    let runner: ProjectionRunner

    func run() async throws {
        try await cancelWhenGracefulShutdown { try await runner.run() }
    }
}

/// Runs a timer's job every second, in one process at a time among the replicas that share
/// the store (a lease; another takes over when it stops).
struct TimerService: Service {
    let temporizador: Temporizador
    let store: any EventStore
    let logger: Logger

    func run() async {
        let temporizador = self.temporizador
        let logger = self.logger
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await store.whileHolding(lease: temporizador.lease, retryEvery: .seconds(1)) {
                        var outage = false
                        while true {
                            do {
                                try await temporizador.tick()
                                if outage { logger.notice("timer \(temporizador.lease) runs again") }
                                outage = false
                            } catch is CancellationError {
                                throw CancellationError()
                            } catch let error as EventStoreError where error.code == .unavailable {
                                // Said once per outage, not every second; the store logs its end.
                                if !outage { logger.error("timer \(temporizador.lease) waits for the database: \(error)") }
                                outage = true
                            } catch {
                                logger.error("timer \(temporizador.lease): \(error)")
                            }
                            try await Task.sleep(for: .seconds(1))
                        }
                    }
                } catch {
                    // Cancelled on shutdown: stop quietly; a lost lease is asked for again.
                    if Task.isCancelled { return }
                    logger.warning("timer \(temporizador.lease) paused: \(error)")
                    guard (try? await Task.sleep(for: .seconds(1))) != nil else { return }
                }
            }
        }
    }
}

/// A service's reactions: one bus consumer, stopped on graceful shutdown.
struct ConsumerService: Service {
    let bus: any EventBus
    let consumer: BusConsumer

    func run() async throws {
        try await cancelWhenGracefulShutdown { try await bus.consume(consumer) }
    }
}

extension Integracoes {
    /// The sandbox PSP in this process and the mail server of SMTP_* (without SMTP_HOST, the
    /// messages are written as `.eml` files to `outbox`).
    static func local(environment: [String: String], webhookSecret: Data, outbox: URL, logger: Logger) throws -> Integracoes {
        let sandbox = SandboxPSP(segredo: webhookSecret, clock: SystemClock(), logger: logger)
        let mailer: any Mailer
        var remetente = SMTPSettings.defaultFrom
        if let settings = try SMTPSettings.fromEnvironment(environment) {
            mailer = try SMTPMailer(settings: settings, logger: logger)
            remetente = settings.from
        } else {
            mailer = FileMailer(directory: outbox)
        }
        let horas = environment["LEMBRETE_HORAS"].flatMap(Int.init) ?? 24
        var integracoes = Integracoes(
            provider: SandboxProvider(psp: sandbox), segredoDoWebhook: webhookSecret, sandbox: sandbox, mailer: mailer, remetente: remetente,
            lembreteHoras: horas)
        integracoes.lembreteDeCorrespondenciaDias = max(0, environment["LEMBRETE_CORRESPONDENCIA_DIAS"].flatMap(Int.init) ?? 3)
        integracoes.enderecoPublico = environment["PUBLIC_URL"].flatMap { texto in
            let endereco = texto.hasSuffix("/") ? String(texto.dropLast()) : texto
            return endereco.isEmpty ? nil : endereco
        }
        return integracoes
    }
}

extension Integracoes {
    /// Distributed mode: the provider at `PSP_URL` (the sandbox server, or a real PSP's API,
    /// with `PSP_API_KEY`) whose webhooks are signed with `PSP_WEBHOOK_SECRET`; without
    /// `PSP_URL`, a sandbox in this process (fine when pagamentos runs in one process: it then
    /// calls its own webhook). Mail as in `local`, to `OUTBOX_DIR` without SMTP_HOST.
    ///
    /// The tester's routes (`/api/sandbox/...`: "pay" or "decline" a charge) are off unless
    /// `PSP_SANDBOX_ROUTES=on` asks for them, which only a deployment whose provider is the
    /// sandbox may do: with a real provider a member could mark their own charge paid.
    static func distributed(environment: [String: String], jwtSecret: String, logger: Logger) throws -> Integracoes {
        let rotasDeTeste = try sandboxRoutes(environment)
        // Without PSP_WEBHOOK_SECRET, a key derived from the JWT secret: the same in every
        // process, and not the JWT key itself (one key, one purpose).
        let derived = Data(HMAC<SHA256>.authenticationCode(for: Data("coworkflow psp webhook".utf8), using: SymmetricKey(data: Data(jwtSecret.utf8))))
        var integracoes = try local(
            environment: environment, webhookSecret: try Secrets.key("PSP_WEBHOOK_SECRET", environment) ?? derived,
            outbox: URL(fileURLWithPath: environment["OUTBOX_DIR"] ?? "outbox"), logger: logger)
        guard let base = environment["PSP_URL"], !base.isEmpty else {
            logger.notice("PSP_URL is not set: payments go to a sandbox inside this process")
            if !rotasDeTeste { integracoes.testador = nil }
            return integracoes
        }
        guard let url = URLComponents(string: base), ["http", "https"].contains(url.scheme ?? ""), !(url.host ?? "").isEmpty, url.query == nil else {
            throw ValidationError("PSP_URL: '\(base)' is not an http(s)://host[:port] URL")
        }
        integracoes.segredoDoWebhook = try Distributed.webhookSecret(environment)
        let provedor = ProvedorHTTP(base: base, apiKey: environment["PSP_API_KEY"].flatMap { $0.isEmpty ? nil : $0 })
        integracoes.provider = provedor
        integracoes.sandbox = nil
        integracoes.testador = rotasDeTeste ? provedor : nil
        return integracoes
    }

    /// `PSP_SANDBOX_ROUTES`: `on` (or `1`, `true`) serves the sandbox's tester routes; unset,
    /// `off`, `0` or `false` does not.
    static func sandboxRoutes(_ environment: [String: String]) throws -> Bool {
        switch environment["PSP_SANDBOX_ROUTES"]?.lowercased() {
        case nil, "", "off", "0", "false": false
        case "on", "1", "true": true
        case let other?: throw ValidationError("PSP_SANDBOX_ROUTES: '\(other)' is neither on nor off")
        }
    }
}

/// How projection runners (``ProjectionRunner/Gathering``, `PROJECTION_GATHER_MS`) and the relay
/// (``Relay/underLoad``, `RELAY_GATHER_MS`) let batches gather under load: milliseconds, 0 for
/// not at all; when unset, 60 for the runners and 20 for the relay.
enum Gathering {
    static func projections(_ environment: [String: String]) throws -> ProjectionRunner.Gathering? {
        try wait("PROJECTION_GATHER_MS", environment, default: ProjectionRunner.Gathering.underLoad.wait).map {
            ProjectionRunner.Gathering(wait: $0)
        }
    }

    /// The relay's (`RELAY_GATHER_MS`).
    static func relay(_ environment: [String: String]) throws -> Duration? {
        try wait("RELAY_GATHER_MS", environment, default: Relay.underLoad)
    }

    /// Milliseconds from 0 (nil: never waits) to 1000; `fallback` when unset.
    private static func wait(_ name: String, _ environment: [String: String], default fallback: Duration) throws -> Duration? {
        guard let text = environment[name], !text.isEmpty else { return fallback }
        guard let ms = Int(text), (0...1_000).contains(ms) else {
            throw ValidationError("\(name) must be a whole number of milliseconds from 0 (none) to 1000, not \"\(text)\"")
        }
        return ms == 0 ? nil : .milliseconds(ms)
    }
}

/// Rate limits from `RATE_LIMIT_PER_CLIENT` and `RATE_LIMIT_PER_USER` (requests per second;
/// bursts of twice that), defaults 100 and 50, and `RATE_LIMIT_TOURS` (tours booked on the
/// public site per client a minute, bursts of 20 or twice that), default 2.
enum Limits {
    /// - Parameter proxies: the load balancer's networks, which name the client last in
    ///   X-Forwarded-For (the distributed gateway's `TRUSTED_PROXIES`).
    static func from(_ environment: [String: String], proxies: TrustedProxies = .none) throws -> RateLimiter {
        func limit(_ name: String, _ fallback: Double) throws -> RateLimiter.Limit {
            guard let text = environment[name] else { return RateLimiter.Limit(burst: fallback * 2, perSecond: fallback) }
            guard let value = Double(text), value > 0 else { throw ValidationError("\(name) must be a positive number of requests per second") }
            return RateLimiter.Limit(burst: value * 2, perSecond: value)
        }
        var tours = RateLimiter.Limit(burst: 20, perSecond: 2.0 / 60)
        if let text = environment["RATE_LIMIT_TOURS"] {
            guard let value = Double(text), value > 0 else {
                throw ValidationError("RATE_LIMIT_TOURS must be a positive number of bookings a minute")
            }
            tours = RateLimiter.Limit(burst: max(20, value * 2), perSecond: value / 60)
        }
        return RateLimiter(
            perClient: try limit("RATE_LIMIT_PER_CLIENT", 100), perUser: try limit("RATE_LIMIT_PER_USER", 50), tours: tours, proxies: proxies)
    }
}
