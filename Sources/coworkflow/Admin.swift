import ArgumentParser
import EventStore
import Foundation
import Services

/// `coworkflow admin …`: operator tasks that must not go through the public API.
struct Admin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Operator tasks (the first admin account).", subcommands: [CreateAdmin.self])
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
            defer { group.cancelAll() }
            try await store.checkSchema()
            try await create(in: try await Distributed.usuarios(
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
