import ArgumentParser
import EventStore
import Foundation
import Logging
import Messaging
import Services

/// `coworkflow relay`: the store → AMQP relay on its own (also part of `--service projections`).
struct RelayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relay",
        abstract: "Publish the store's events to RabbitMQ in global order (one active replica).",
        discussion: """
            Reads PostgreSQL (DATABASE_URL or DB_*) and publishes to AMQP_URL (default: the \
            infra/local servers). Replicas with the same --name share one checkpoint; one is \
            active, the others take over when it stops. Stops on SIGTERM or SIGINT.
            """)

    @Option(help: "Checkpoint and lease name shared by the replicas.")
    var name = "relay"

    @Option(help: "Events per published batch.")
    var batch = 500

    func run() async throws {
        let logger = Log.logger("coworkflow.relay")
        let database = try PostgresSettings.fromEnvironment()
        let broker = try AMQPSettings.fromEnvironment()
        let store = PostgresEventStore(settings: database, logger: logger)
        let relay = Relay(
            store: store, settings: broker, name: name, batchSize: max(1, batch), gathering: try Gathering.relay(ProcessInfo.processInfo.environment),
            queues: Consumidores.filas.map { ($0.servico, $0.bindings) }, logger: logger)
        try await untilShutdownSignal(logger: logger) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await store.run() }
                await store.started()
                group.addTask {
                    try await store.checkSchema()
                    try await relay.run()
                }
                defer { group.cancelAll() }
                try await group.next()
            }
        }
    }
}
