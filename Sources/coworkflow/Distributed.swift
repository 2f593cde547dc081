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

/// `coworkflow serve --service <name>`: one deployable of the distributed mode, against
/// PostgreSQL and RabbitMQ (DESIGN §8), configured from the environment as the ECS tasks are.
///
/// - `gateway`: the edge. Authenticates, limits, forwards each command to the service at
///   `SERVICE_<NAME>_URL` and answers queries from the read models in PostgreSQL, once their
///   checkpoints have reached the command (read-your-writes). A service without a URL is
///   served by the gateway itself.
/// - `projections`: every projection runner and the relay (store → AMQP), one active replica
///   of each (leases).
/// - `usuarios`, `espacos`, `precos`, `reservas`: the service's routes; reservas also runs the
///   booking timers (one active replica, a lease).
struct Distributed {
    enum Kind: Equatable {
        case gateway
        case projections
        case service(Deployable)
    }

    let kind: Kind
    let host: String
    let port: Int
    let environment: [String: String]
    let logger: Logger

    static let names = ["gateway", "projections"] + Deployable.allCases.map(\.rawValue)

    static func kind(_ name: String) throws -> Kind {
        switch name {
        case "gateway": return .gateway
        case "projections": return .projections
        default:
            guard let service = Deployable(rawValue: name) else {
                throw ValidationError("no deployable '\(name)'; choose one of: \(names.joined(separator: ", "))")
            }
            guard Deployable.built.contains(service) else {
                throw ValidationError("--service \(name) is not built yet (issue 6); built: gateway, projections, \(Deployable.built.map(\.rawValue).joined(separator: ", "))")
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
        let secret = try Self.jwtSecret(environment)
        let database = try PostgresSettings.fromEnvironment(environment)
        let broker = try AMQPSettings.fromEnvironment(environment)
        let forwarder = kind == .gateway ? try Forwarder.fromEnvironment(environment) : nil
        let limiter = kind == .gateway ? try Limits.from(environment, trustForwardedFor: true) : nil
        let store = PostgresEventStore(settings: database, logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await store.run() }
            defer { group.cancelAll() }
            try await waitForSchema(store)
            let usuarios = try await Self.usuarios(store: store, secret: secret, environment: environment, logger: logger)
            let integracoes = try Integracoes.local(
                environment: environment, webhookSecret: Data((environment["PSP_WEBHOOK_SECRET"] ?? secret).utf8),
                outbox: URL(fileURLWithPath: environment["OUTBOX_DIR"] ?? "outbox"), logger: logger)

            var background: [ServiceGroupConfiguration.ServiceConfiguration] = []
            let backend: Backend
            let role: Role
            switch kind {
            case .gateway:
                guard let forwarder else { return }
                role = .gateway(forwarder)
                backend = Backend.distributed(
                    store: store, broker: nil, usuarios: usuarios, clock: SystemClock(), runs: [], follows: ReadModels.all,
                    relay: "relay", integracoes: integracoes, logger: logger)
                let local = Deployable.built.filter { forwarder.targets[$0] == nil }
                for service in Deployable.built {
                    if let urls = forwarder.targets[service] {
                        logger.info("\(service.rawValue): commands forwarded to \(urls.joined(separator: ", "))")
                    } else {
                        logger.warning("\(service.urlVariable) is not set: \(service.rawValue) commands run in the gateway")
                    }
                }
                background += backend.temporizadores(for: local).map { .init(service: TimerService(temporizador: $0, store: store, logger: logger)) }
            case .projections:
                role = .operations
                let relay = Relay(store: store, settings: broker, name: "relay", logger: logger)
                backend = Backend.distributed(
                    store: store, broker: relay.health, usuarios: usuarios, clock: SystemClock(), runs: ReadModels.all, follows: [],
                    relay: "relay", integracoes: integracoes, logger: logger)
                background = backend.projections.map { .init(service: ProjectionService(runner: $0)) }
                background.append(.init(service: RelayService(relay: relay)))
            case .service(let service):
                role = .service(service)
                backend = Backend.distributed(
                    store: store, broker: nil, usuarios: usuarios, clock: SystemClock(), runs: [], follows: [], relay: nil, integracoes: integracoes, logger: logger)
                background += backend.temporizadores(for: [service]).map { .init(service: TimerService(temporizador: $0, store: store, logger: logger)) }
            }

            let drain = DrainState()
            let name = kind.name
            let app = GatewayApp.application(
                backend, configuration: GatewayConfiguration(host: host, port: port, rateLimiter: limiter, role: role),
                drain: drain, logger: logger,
                onServerRunning: { channel in
                    print("CoworkFlow \(name) em http://\(host):\(channel.localAddress?.port ?? port) (distribuído, PostgreSQL \(database.host):\(database.port))")
                })
            let services = ServiceGroup(configuration: ServiceGroupConfiguration(
                services: background + [.init(service: app), .init(service: DrainOnShutdown(drain: drain, logger: logger))],
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
    static func usuarios(store: PostgresEventStore, secret: String, environment: [String: String], logger: Logger) async throws
        -> UsuariosService
    {
        UsuariosService(
            store: store, vault: PersonalDataVault(keys: PostgresKeyStore(client: store.client, logger: logger)),
            passwords: PasswordHasher(), tokens: try await TokenIssuer(secret: secret), clock: SystemClock(),
            emailKey: try await emailKey(environment, store: store, logger: logger))
    }

    /// A fixed subject in the vault whose key names the e-mail claims: made once by whichever
    /// process asks first, the same for all (EMAIL_HASH_KEY overrides it).
    static let emailClaimSubject = UUID(uuid: (0xC0, 0xE3, 0xF1, 0x0E, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0xE4, 0xA1))

    static func emailKey(_ environment: [String: String], store: PostgresEventStore, logger: Logger) async throws -> SymmetricKey {
        if let key = environment["EMAIL_HASH_KEY"], !key.isEmpty { return SymmetricKey(data: Data(key.utf8)) }
        return SymmetricKey(data: try await PostgresKeyStore(client: store.client, logger: logger).key(for: emailClaimSubject))
    }
}

extension Distributed.Kind {
    var name: String {
        switch self {
        case .gateway: "gateway"
        case .projections: "projections"
        case .service(let service): service.rawValue
        }
    }
}

/// The relay as a service of the group: stops on graceful shutdown.
struct RelayService: Service {
    let relay: Relay

    func run() async throws {
        try await cancelWhenGracefulShutdown { try await relay.run() }
    }
}
