import ArgumentParser
import Crypto
import EventStore
import Foundation
import Gateway
import Hummingbird
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
        let embedded = try Embedded(directory: data, environment: environment)
        let backend = try await embedded.backend(logger: logger)

        var isDirectory: ObjCBool = false
        let webRoot = FileManager.default.fileExists(atPath: web, isDirectory: &isDirectory) && isDirectory.boolValue ? web : nil
        if webRoot == nil { logger.info("no web app at \(web)/: serving the API only") }
        let drain = DrainState()
        let app = GatewayApp.application(
            backend, configuration: GatewayConfiguration(
                host: host, port: port, rateLimiter: try Limits.from(environment), webRoot: webRoot), drain: drain, logger: logger,
            onServerRunning: { _ in
                print("CoworkFlow em http://\(host == "0.0.0.0" ? "localhost" : host):\(port) — documentação em /docs, dados em \(data)/")
            })
        let background: [ServiceGroupConfiguration.ServiceConfiguration] =
            backend.projections.map { .init(service: ProjectionService(runner: $0)) }
            + [.init(service: PrazosService(reservas: backend.reservas, store: backend.store, logger: logger))]
        if seedDemo {
            // The projections run first so the demo's reads (existing units) see earlier seeds.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for runner in backend.projections { group.addTask { try await runner.catchUp() } }
                try await group.waitForAll()
            }
            try await Demo.seed(backend)
        }
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            // Shut down in reverse order: the drain flag first, then the server drains, then
            // the projections and timers stop.
            services: background + [
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

    func backend(logger: Logger) async throws -> Backend {
        let store = try SQLiteEventStore(path: directory.appendingPathComponent("coworkflow.sqlite").path)
        let vault = PersonalDataVault(keys: SQLiteKeyStore(database: store.database))
        let secrets = try Secrets.load(from: directory, environment: environment)
        let usuarios = UsuariosService(
            store: store, vault: vault, passwords: PasswordHasher(), tokens: try await TokenIssuer(secret: secrets.jwt),
            clock: SystemClock(), emailKey: secrets.emailKey)
        return Backend.allInOne(store: store, bus: InProcessEventBus(store: store), usuarios: usuarios, clock: SystemClock(), logger: logger)
    }
}

/// The signing secret (JWT_SECRET, else generated once and kept in the data directory) and
/// the key of e-mail claim names.
struct Secrets {
    let jwt: String
    let emailKey: SymmetricKey

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
        var changed = false
        if stored["jwt"] == nil { stored["jwt"] = random(); changed = true }
        if stored["email"] == nil { stored["email"] = random(); changed = true }
        if changed {
            try JSONEncoder().encode(stored).write(to: file, options: .atomic)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        }
        let jwt = environment["JWT_SECRET"].flatMap { $0.isEmpty ? nil : $0 } ?? stored["jwt"] ?? random()
        let email = environment["EMAIL_HASH_KEY"].map { Data($0.utf8) } ?? Data(base64Encoded: stored["email"] ?? "") ?? Data()
        return Secrets(jwt: jwt, emailKey: SymmetricKey(data: email))
    }
}

/// A projection runner as a service of the group: stops on graceful shutdown.
struct ProjectionService: Service {
    let runner: ProjectionRunner

    func run() async throws {
        try await cancelWhenGracefulShutdown { try await runner.run() }
    }
}

/// Runs the reservas timers (hold expiry, conclusion) every second, in one process at a time
/// among the replicas that share the store (a lease; another takes over when it stops).
struct PrazosService: Service {
    let reservas: ReservasService
    let store: any EventStore
    let logger: Logger

    func run() async {
        let reservas = self.reservas
        let logger = self.logger
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await store.whileHolding(lease: "reservas:prazos", retryEvery: .seconds(1)) {
                        while true {
                            do {
                                try await reservas.executarPrazosVencidos()
                            } catch is CancellationError {
                                throw CancellationError()
                            } catch {
                                logger.error("reservas timers: \(error)")
                            }
                            try await Task.sleep(for: .seconds(1))
                        }
                    }
                } catch {
                    // Cancelled on shutdown: stop quietly; a lost lease is asked for again.
                    if Task.isCancelled { return }
                    logger.warning("reservas timers paused: \(error)")
                    guard (try? await Task.sleep(for: .seconds(1))) != nil else { return }
                }
            }
        }
    }
}

/// Rate limits from `RATE_LIMIT_PER_CLIENT` and `RATE_LIMIT_PER_USER` (requests per second;
/// bursts of twice that), defaults 100 and 50.
enum Limits {
    /// - Parameter trustForwardedFor: behind a load balancer, which names the client last in
    ///   X-Forwarded-For (the distributed gateway).
    static func from(_ environment: [String: String], trustForwardedFor: Bool = false) throws -> RateLimiter {
        func limit(_ name: String, _ fallback: Double) throws -> RateLimiter.Limit {
            guard let text = environment[name] else { return RateLimiter.Limit(burst: fallback * 2, perSecond: fallback) }
            guard let value = Double(text), value > 0 else { throw ValidationError("\(name) must be a positive number of requests per second") }
            return RateLimiter.Limit(burst: value * 2, perSecond: value)
        }
        return RateLimiter(
            perClient: try limit("RATE_LIMIT_PER_CLIENT", 100), perUser: try limit("RATE_LIMIT_PER_USER", 50), trustForwardedFor: trustForwardedFor)
    }
}
