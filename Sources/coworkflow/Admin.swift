import ArgumentParser
import EventStore
import Foundation
import Services

/// `coworkflow admin …`: operator tasks that must not go through the public API.
struct Admin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Operator tasks (the first admin account, dead letters).", subcommands: [CreateAdmin.self, DeadLetters.self])
}

/// `coworkflow admin dead-letters [--consumer c] [--retry [--event id…]]`: what the consumers
/// set aside after repeated failures (a provider down for longer than the retries last, a bug),
/// and, once the cause is gone, another try. A retry leaves a request in the store; the
/// consumer, wherever it runs (this machine's `serve`, a Fargate task), handles each event again
/// within a second or two, as if it had just been delivered.
struct DeadLetters: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dead-letters", abstract: "List the consumers' dead letters, or retry them (embedded store, or --postgres).")

    @Option(help: "One consumer (\(Self.consumers.joined(separator: ", "))); all when absent.")
    var consumer: String?

    @Flag(help: "Retry them (with --consumer): all of the consumer's, or those named by --event.")
    var retry = false

    @Option(name: .customLong("event"), help: "An event id to retry (repeatable).")
    var events: [String] = []

    @Option(help: "Directory of the embedded store (as for `serve`).")
    var data = "coworkflow-data"

    @Flag(help: "In PostgreSQL (DATABASE_URL or DB_*).")
    var postgres = false

    static let consumers = [
        PagamentosService.consumidor, ReservasService.consumidor, CheckinService.consumidor, FinanceiroService.consumidor,
        NotificacoesService.consumidor,
    ]

    func validate() throws {
        if let consumer, !Self.consumers.contains(consumer) {
            throw ValidationError("no consumer '\(consumer)'; choose one of: \(Self.consumers.joined(separator: ", "))")
        }
        if retry, consumer == nil { throw ValidationError("--retry needs --consumer: retry one consumer's dead letters at a time") }
        if !events.isEmpty, !retry { throw ValidationError("--event goes with --retry") }
        for event in events where UUID(text: event) == nil { throw ValidationError("--event: '\(event)' is not an event id (UUID)") }
    }

    func run() async throws {
        try await withStore(postgres: postgres, data: data, logger: Log.logger("coworkflow.dead-letters")) { store in try await work(store) }
    }

    private func work(_ store: any EventStore) async throws {
        if retry, let consumer {
            let ids = try await store.retryDeadLetters(consumer: consumer, eventIds: events.isEmpty ? nil : events.compactMap(UUID.init(text:)))
            for id in ids { print("\(consumer) \(id.lowercasedString): retry requested") }
            print("\(consumer): \(ids.count) dead letter(s) will be handled again by the running consumer")
            return
        }
        var total = 0
        for name in consumer.map({ [$0] }) ?? Self.consumers {
            for entry in try await store.deadLetters(consumer: name, limit: 1_000) {
                guard case .deadLettered(let reason, let attempts) = entry.outcome else { continue }
                print("\(name) \(entry.eventId.lowercasedString) \(entry.recordedAt.formatted(.iso8601)) attempts=\(attempts) \(reason)")
                total += 1
            }
        }
        print("\(total) dead letter(s)")
    }
}

/// `coworkflow admin create --email …`: creates an admin account, or promotes the account
/// that has the address. There are no default passwords: the password comes from
/// COWORKFLOW_ADMIN_PASSWORD or from the first line of standard input.
struct CreateAdmin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create", abstract: "Create (or promote) an admin account (embedded store, or --postgres).")

    @Option(help: "The admin's e-mail address.")
    var email: String

    @Option(help: "The admin's name.")
    var nome = "Administrador"

    @Option(help: "Directory of the embedded store (as for `serve`).")
    var data = "coworkflow-data"

    @Flag(help: "In PostgreSQL (distributed mode: DATABASE_URL or DB_*, and JWT_SECRET as the deployables have it).")
    var postgres = false

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let logger = Log.logger("coworkflow")
        guard postgres else {
            return try await create(in: try await Embedded(directory: data, environment: environment).backend(logger: logger).0.usuarios)
        }
        let store = PostgresEventStore(settings: try PostgresSettings.fromEnvironment(environment), logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await store.run() }
            await store.started()
            defer { group.cancelAll() }
            try await store.checkSchema()
            try await create(
                in: try await Distributed.usuarios(
                    store: store, secret: try Distributed.jwtSecret(environment), environment: environment, logger: logger))
        }
    }

    private func create(in usuarios: UsuariosService) async throws {
        let caller = Caller(requestId: "admin-create", usuario: "sistema:admin-create")
        do {
            if let existing = try await usuarios.usuarioId(email: email) {
                try await usuarios.promover(usuario: existing, context: caller)
                print("\(email): conta existente promovida a admin")
                return
            }
            let senha = try password()
            let perfil = try await usuarios.registrar(nome: nome, email: email, senha: senha, context: caller)
            try await usuarios.promover(usuario: perfil.id, context: caller)
            print("\(email): conta de admin criada (id \(perfil.id))")
        } catch let error as ServiceError {
            throw ValidationError(error.mensagem)
        }
    }

    private func password() throws -> String {
        if let password = ProcessInfo.processInfo.environment["COWORKFLOW_ADMIN_PASSWORD"], !password.isEmpty { return password }
        if isatty(STDIN_FILENO) != 0, let typed = getpass("senha do admin: ").map({ String(cString: $0) }), !typed.isEmpty {
            return typed  // not echoed
        }
        guard let line = readLine(strippingNewline: true), !line.isEmpty else {
            throw ValidationError("give the password in COWORKFLOW_ADMIN_PASSWORD or on standard input")
        }
        return line
    }
}
