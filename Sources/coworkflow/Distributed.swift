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

/// `coworkflow serve --service <name>`: one deployable of the distributed mode, against
/// PostgreSQL and RabbitMQ (DESIGN §8), configured from the environment as the ECS tasks are.
///
/// - `gateway`: the edge. Authenticates, limits, forwards each command to the service at
///   `SERVICE_<NAME>_URL` and answers queries from the read models in PostgreSQL, once their
///   checkpoints have reached the command (read-your-writes). A service without a URL is
///   served by the gateway itself.
/// - `projections`: every projection runner and the relay (store → AMQP), one active replica
///   of each (leases).
/// - a service (`usuarios` … `analytics`): its routes, its reactions to other services'
///   events on its own AMQP queue (`coworkflow.<service>`, through the inbox), and its timers
///   (one active replica each, a lease). The gateway also hosts, with their reactions and
///   timers, the services it has no URL for.
/// - `sandbox`: the sandbox payment provider as its own server (not a Fargate service: a
///   stand-in for the PSP); pagamentos and the gateway reach it at `PSP_URL`.
struct Distributed {
    enum Kind: Equatable {
        case gateway
        case projections
        case service(Deployable)
        case sandbox
    }

    let kind: Kind
    let host: String
    let port: Int
    let environment: [String: String]
    let logger: Logger

    static let names = ["gateway", "projections"] + Deployable.allCases.map(\.rawValue) + ["sandbox"]

    static func kind(_ name: String) throws -> Kind {
        switch name {
        case "gateway": return .gateway
        case "projections": return .projections
        case "sandbox": return .sandbox
        default:
            guard let service = Deployable(rawValue: name) else {
                throw ValidationError("no deployable '\(name)'; choose one of: \(names.joined(separator: ", "))")
            }
            guard Deployable.built.contains(service) else {
                throw ValidationError(
                    "--service \(name) is not in this build; built: gateway, projections, sandbox, \(Deployable.built.map(\.rawValue).joined(separator: ", "))"
                )
            }
            return .service(service)
        }
    }

    /// The same secret on every deployable signs and checks the tokens; without it each
    /// process would make up its own and no token would work across them.
    static func jwtSecret(_ environment: [String: String]) throws -> String {
        guard let secret = environment["JWT_SECRET"], !secret.isEmpty else {
            throw ValidationError("distributed mode needs JWT_SECRET (at least 32 bytes, the same on every deployable); refusing to start")
        }
        guard secret.utf8.count >= 32 else { throw ValidationError("JWT_SECRET must be at least 32 bytes") }
        return secret
    }

    func run() async throws {
        if kind == .sandbox { return try await runSandbox() }
        let secret = try Self.jwtSecret(environment)
        let database = try PostgresSettings.fromEnvironment(environment)
        let broker = try AMQPSettings.fromEnvironment(environment)
        let forwarder = kind == .gateway ? try Forwarder.fromEnvironment(environment) : nil
        // Behind the load balancer, its networks (TRUSTED_PROXIES) name the client; reached
        // directly, the peer is the client whatever X-Forwarded-For claims.
        let limiter = kind == .gateway ? try Limits.from(environment, proxies: TrustedProxies(parsing: environment["TRUSTED_PROXIES"] ?? "")) : nil
        let store = PostgresEventStore(settings: database, logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await store.run() }
            await store.started()
            defer { group.cancelAll() }
            try await waitForSchema(store)
            let usuarios = try await Self.usuarios(store: store, secret: secret, environment: environment, logger: logger)
            let integracoes = try Integracoes.distributed(environment: environment, jwtSecret: secret, logger: logger)
            // The services' reactions, each on its own queue; one connection per consumer.
            let bus = AMQPEventBus(settings: broker, store: store, logger: logger)
            var hosted: [Deployable] = []

            var background: [ServiceGroupConfiguration.ServiceConfiguration] = []
            let backend: Backend
            let role: Role
            switch kind {
            case .gateway:
                guard let forwarder else { return }
                role = .gateway(forwarder)
                hosted = Deployable.built.filter { forwarder.targets[$0] == nil }
                backend = Backend.distributed(
                    store: store, broker: hosted.contains(where: Negocio.reagem.contains) ? bus.health : nil, usuarios: usuarios,
                    clock: SystemClock(), runs: [], follows: ReadModels.all, relay: "relay", integracoes: integracoes, logger: logger)
                for service in Deployable.built {
                    if let urls = forwarder.targets[service] {
                        logger.info("\(service.rawValue): commands forwarded to \(urls.joined(separator: ", "))")
                    } else {
                        logger.warning("\(service.urlVariable) is not set: \(service.rawValue) runs in the gateway")
                    }
                }
            case .projections:
                role = .operations
                let relay = Relay(
                    store: store, settings: broker, name: "relay", gathering: try Gathering.relay(environment),
                    queues: Consumidores.filas.map { ($0.servico, $0.bindings) }, logger: logger)
                backend = Backend.distributed(
                    store: store, broker: relay.health, usuarios: usuarios, clock: SystemClock(), runs: ReadModels.all, follows: [],
                    relay: "relay", integracoes: integracoes, gathering: try Gathering.projections(environment), logger: logger)
                background = backend.projections.map { .init(service: ProjectionService(runner: $0)) }
                background.append(.init(service: RelayService(relay: relay)))
            case .service(let service):
                role = .service(service)
                hosted = [service]
                backend = Backend.distributed(
                    store: store, broker: Negocio.reagem.contains(service) ? bus.health : nil, usuarios: usuarios, clock: SystemClock(),
                    runs: [], follows: [], relay: nil, integracoes: integracoes, logger: logger)
            case .sandbox:
                return
            }
            background += backend.reactors(for: hosted).map { .init(service: ConsumerService(bus: bus, consumer: $0)) }
            background += backend.temporizadores(for: hosted).map { .init(service: TimerService(temporizador: $0, store: store, logger: logger)) }

            let drain = DrainState()
            let name = kind.name
            let app = GatewayApp.application(
                backend,
                configuration: GatewayConfiguration(
                    host: host, port: port, allowedOrigins: AllowedOrigins(parsing: environment["CORS_ORIGINS"] ?? ""), rateLimiter: limiter,
                    role: role),
                drain: drain, logger: logger,
                onServerRunning: { channel in
                    let bound = channel.localAddress?.port ?? port
                    // Without PSP_URL, the sandbox lives in this process and calls its webhook here.
                    await backend.negocio.sandbox?.apontarWebhook(para: "http://127.0.0.1:\(bound)/api/pagamentos/webhooks/sandbox")
                    print("CoworkFlow \(name) em http://\(host):\(bound) (distribuído, PostgreSQL \(database.host):\(database.port))")
                })
            // First, so it stops last: the spans of the others' last work are exported.
            let traces = try TraceExport.start(service: name, environment: environment, logger: logger)
            let services = ServiceGroup(
                configuration: ServiceGroupConfiguration(
                    services: (traces.map { [.init(service: $0)] } ?? []) + background + [
                        .init(service: app), .init(service: DrainOnShutdown(drain: drain, logger: logger)),
                    ],
                    gracefulShutdownSignals: [.sigterm, .sigint],
                    logger: logger))
            do {
                try await services.run()
            } catch {
                try? await forwarder?.shutdown()
                throw error
            }
            try await forwarder?.shutdown()
        }
    }

    /// The schema must be migrated (`coworkflow migrate` runs first, as its own task); the
    /// database may still be starting, so connection failures are retried for 30 s.
    private func waitForSchema(_ store: PostgresEventStore) async throws {
        var attempt = 0
        while true {
            do {
                return try await store.checkSchema()
            } catch let error as EventStoreError where error.code == .schemaOutdated {
                throw ValidationError(error.message)
            } catch {
                attempt += 1
                guard attempt < 30 else { throw error }
                logger.warning("PostgreSQL not reachable yet (\(error)); retrying")
                try await Task.sleep(for: .seconds(1))
            }
        }
    }

    /// The usuarios service over PostgreSQL, as every deployable (and `admin create --postgres`)
    /// builds it: the vault's keys beside the store, the shared signing secret and claim key.
    static func usuarios(
        store: PostgresEventStore, secret: String, environment: [String: String], logger: Logger
    ) async throws
        -> UsuariosService
    {
        UsuariosService(
            store: store, vault: PersonalDataVault(keys: PostgresKeyStore(store: store, logger: logger)),
            passwords: PasswordHasher(), tokens: try await TokenIssuer(secret: secret), clock: SystemClock(),
            emailKey: try await emailKey(environment, store: store, logger: logger))
    }

    /// A fixed subject in the vault whose key names the e-mail claims: made once by whichever
    /// process asks first, the same for all (EMAIL_HASH_KEY overrides it).
    static let emailClaimSubject = UUID(uuid: (0xC0, 0xE3, 0xF1, 0x0E, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0xE4, 0xA1))

    static func emailKey(_ environment: [String: String], store: PostgresEventStore, logger: Logger) async throws -> SymmetricKey {
        if let key = try Secrets.key("EMAIL_HASH_KEY", environment) { return SymmetricKey(data: key) }
        return SymmetricKey(data: try await PostgresKeyStore(store: store, logger: logger).key(for: emailClaimSubject))
    }
}

extension Distributed.Kind {
    var name: String {
        switch self {
        case .gateway: "gateway"
        case .projections: "projections"
        case .service(let service): service.rawValue
        case .sandbox: "sandbox"
        }
    }
}

extension Distributed {
    /// `--service sandbox`: the sandbox PSP's server. Posts outcomes to `PSP_WEBHOOK_URL`
    /// (the gateway's `/api/pagamentos/webhooks/sandbox`) signed with `PSP_WEBHOOK_SECRET`;
    /// with `PSP_API_KEY`, the provider's API asks for it as a bearer token. Charges live in
    /// memory, as they live at a real provider: outside our store.
    func runSandbox() async throws {
        guard let webhook = environment["PSP_WEBHOOK_URL"], let url = URLComponents(string: webhook),
            ["http", "https"].contains(url.scheme ?? ""), !(url.host ?? "").isEmpty
        else {
            throw ValidationError(
                "the sandbox needs PSP_WEBHOOK_URL: the merchant's webhook, e.g. http://gateway:8080/api/pagamentos/webhooks/sandbox")
        }
        let secret = try Self.webhookSecret(environment)
        let psp = SandboxPSP(segredo: secret, webhookURL: webhook, clock: SystemClock(), logger: logger)
        let drain = DrainState()
        let app = SandboxServer.application(
            psp: psp, apiKey: environment["PSP_API_KEY"].flatMap { $0.isEmpty ? nil : $0 }, host: host, port: port, logger: logger,
            onServerRunning: { channel in
                print("Sandbox PSP em http://\(host):\(channel.localAddress?.port ?? port) (webhook: \(webhook))")
            })
        try await ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [.init(service: app), .init(service: DrainOnShutdown(drain: drain, logger: logger))],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        ).run()
    }

    /// The secret the provider signs webhooks with: `PSP_WEBHOOK_SECRET` (at least 32 bytes).
    static func webhookSecret(_ environment: [String: String]) throws -> Data {
        guard let secret = try Secrets.key("PSP_WEBHOOK_SECRET", environment) else {
            throw ValidationError("PSP_WEBHOOK_SECRET is not set: the sandbox and pagamentos must share it (at least 32 bytes)")
        }
        return secret
    }
}

/// The relay as a service of the group: stops on graceful shutdown.
struct RelayService: Service {
    let relay: Relay

    func run() async throws {
        try await cancelWhenGracefulShutdown { try await relay.run() }
    }
}
