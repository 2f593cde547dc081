import ArgumentParser
import Domain
import EventStore
import Foundation
import Logging
import Messaging
import Projections
import Services
import Synchronization

/// `coworkflow-bench bus`: the relay's confirmed publish rate, and append → handler latency
/// through PostgreSQL, the relay, RabbitMQ and a consumer with its inbox.
struct BusBench: AsyncParsableCommand {
    /// The events' type: a booking request's payload under a type no catalog lists, so it is
    /// routed by its stream's category (the bench's own `service`) and reaches only the bench's
    /// queues (a catalog type goes out under its context's key, where real queues may listen).
    static let tipo = "BenchPedidoDeReserva"

    static let configuration = CommandConfiguration(
        commandName: "bus",
        abstract: "Relay throughput (events/s with confirms) and append → handled latency (p50, p99).",
        discussion: """
            Recreates the database BENCH_DB_NAME (default coworkflow_bench) like `store`, and uses \
            the broker at AMQP_URL with a queue of its own (deleted afterwards).
            """)

    @Flag(help: "A few seconds in all (for CI).")
    var short = false

    @Option(help: "Events the relay publishes in the throughput run.")
    var events: Int?

    @Option(help: "Appends per second in the latency run.")
    var rate = 1_000

    func run() async throws {
        var logger = Logger(label: "bench")
        logger.logLevel = .error
        var settings = try PostgresSettings.fromEnvironment()
        let admin = settings
        settings.database = ProcessInfo.processInfo.environment["BENCH_DB_NAME"] ?? "coworkflow_bench"
        try await recreate(settings.database, admin: admin, logger: logger)
        try await PostgresMigrator(settings: settings, logger: logger).migrate()
        let broker = try AMQPSettings.fromEnvironment()
        let total = events ?? (short ? 3_000 : 100_000)
        let latencySeconds = short ? 3 : 15
        print("# coworkflow-bench bus: \(settings.redactedURL), \(total) events relayed, \(rate)/s for \(latencySeconds) s of latency")

        let store = PostgresEventStore(settings: settings, logger: logger)
        let service = "bench\(UInt32.random(in: .min ... .max))"
        let setup = AMQPConnection(settings: broker, name: "bench-setup")
        try await setup.open()
        try await Topology.declare(service: service, bindings: ["\(service).*"], on: setup)
        var figures = Figures()
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await store.run() }
                await store.started()
                defer { group.cancelAll() }
                try await throughput(store: store, broker: broker, service: service, total: total, logger: logger, into: &figures)
                try await drain(store: store, broker: broker, service: service, total: total, logger: logger, into: &figures)
                try await invoicing(
                    store: store, broker: broker, service: service, total: short ? 500 : 5_000, logger: logger, into: &figures)
                try await latency(
                    store: store, broker: broker, service: service, seconds: latencySeconds, logger: logger, into: &figures)
            }
        } catch {
            try? await deleteQueues(service, setup)
            throw error
        }
        try await deleteQueues(service, setup)
        await setup.close()
    }

    private func deleteQueues(_ service: String, _ connection: AMQPConnection) async throws {
        // An idle connection may have missed its heartbeats meanwhile: open it afresh.
        await connection.close()
        try await connection.open()
        try await connection.deleteQueue(Topology.queue(for: "\(service)lat"))
        try await connection.deleteQueue(Topology.deadLetterQueue(for: "\(service)lat"))
        try await connection.deleteQueue(Topology.queue(for: service))
        try await connection.deleteQueue(Topology.deadLetterQueue(for: service))
        try await connection.deleteQueue(Topology.queue(for: "\(service)fin"))
        try await connection.deleteQueue(Topology.deadLetterQueue(for: "\(service)fin"))
    }

    /// Appends `total` events first, then times the relay publishing all of them from zero.
    private func throughput(
        store: PostgresEventStore, broker: AMQPSettings, service: String, total: Int, logger: Logger,
        into figures: inout Figures
    ) async throws {
        let salt = FastID.salt()
        var appended = 0
        while appended < total {
            let count = min(500, total - appended)
            let batch = (0..<count).map { index in
                NewEvent(
                    eventId: FastID.uuid(appended + index, salt: salt), type: Self.tipo,
                    data: Data(Payload.payload(appended + index).utf8), occurredAt: Date())
            }
            try await store.append(to: StreamName(category: service, id: "\(appended / 500)"), expected: .noStream, events: batch)
            appended += count
        }
        let relay = Relay(store: store, settings: broker, name: "bench-throughput", logger: logger)
        let clock = ContinuousClock()
        let started = clock.now
        let task = Task { try await relay.run() }
        while relay.status.published < total {
            try await Task.sleep(for: .milliseconds(1))
        }
        let elapsed = clock.now - started
        task.cancel()
        _ = await task.result
        figures.record("relay_publish", Double(total) / elapsed.seconds, "events/s")
    }

    /// Times a consumer (inbox row per event, no other effect) working off the queue the
    /// throughput run filled.
    private func drain(
        store: PostgresEventStore, broker: AMQPSettings, service: String, total: Int, logger: Logger,
        into figures: inout Figures
    ) async throws {
        let bus = AMQPEventBus(settings: broker, store: store, logger: logger)
        let handled = LatencySamples()
        let consumer = BusConsumer(service: service, bindings: ["\(service).*"]) { _ in
            handled.add(0)
            return []
        }
        let clock = ContinuousClock()
        let started = clock.now
        let task = Task { try await bus.consume(consumer) }
        while handled.count < total { try await Task.sleep(for: .milliseconds(1)) }
        let elapsed = clock.now - started
        task.cancel()
        _ = await task.result
        figures.record("consumer_drain", Double(total) / elapsed.seconds, "events/s")
    }

    /// Times financeiro's consumer invoicing `total` confirmed payments of one unit, as the
    /// relay delivers them: every invoice goes to the unit's book (`faturas-<unidade>`), whose
    /// numbers are gapless, so its reactions decide one after another on one stream. The
    /// payments are relayed under the bench's own key (to a queue of its own).
    private func invoicing(
        store: PostgresEventStore, broker: AMQPSettings, service: String, total: Int, logger: Logger,
        into figures: inout Figures
    ) async throws {
        let clock = SystemClock()
        // The relay starts after what is stored already (the other runs' events).
        try await store.saveCheckpoint("bench-invoicing", try await store.headPosition())
        let admin = Caller(requestId: "bench", usuario: "bench-admin", papel: "admin")
        let espacos = EspacosService(store: store, clock: clock)
        let unidade = try await espacos.cadastrarUnidade(
            try JSONDecoder().decode(
                EspacosService.NovaUnidade.self,
                from: Data(
                    #"{"nome":"Bench","endereco":{"logradouro":"Rua A","numero":"1","cidade":"São Paulo","uf":"SP","cep":"01000-000"}}"#
                        .utf8)),
            caller: admin)
        let espaco = try await espacos.cadastrarEspaco(
            try JSONDecoder().decode(
                EspacosService.NovoEspaco.self,
                from: Data(#"{"unidadeId":"\#(unidade.id)","nome":"Sala","tipo":"sala_reuniao","capacidade":6}"#.utf8)),
            caller: admin)
        let salt = FastID.salt()
        var ids: [UUID] = []
        let em = Instants.format(Date())
        for index in 0..<total {
            let id = FastID.uuid(index, salt: salt)
            ids.append(id)
            let data = #"""
                {"pagamentoId":"\#(UUID())","reservaId":"\#(UUID())","usuarioId":"membro-\#(index % 50)","unidadeId":"\#(unidade.id)",\#
                "espacoId":"\#(espaco.id)","metodo":"pix","valor":\#(5_000 + index % 7 * 500),"cobrancaId":null,"em":"\#(em)"}
                """#
            try await store.append(
                to: StreamName(category: "pagamento", id: id.uuidString.lowercased()), expected: .noStream,
                events: [
                    NewEvent(
                        eventId: id, type: Pagamento.Catalogo.confirmado.type, data: Data(data.utf8),
                        metadata: EventMetadata(correlationId: id), occurredAt: Date())
                ])
        }
        let queue = "\(service)fin"
        let setup = AMQPConnection(settings: broker, name: "bench-invoicing")
        try await setup.open()
        try await Topology.declare(service: queue, bindings: ["\(queue).*"], on: setup)
        await setup.close()
        let relay = Relay(store: store, settings: broker, name: "bench-invoicing", routing: { _ in "\(queue).pago" }, logger: logger)
        let financeiro = FinanceiroService(store: store, clock: clock)
        let bus = AMQPEventBus(settings: broker, store: store, logger: logger)
        let consumer = BusConsumer(service: queue, bindings: ["\(queue).*"]) { try await financeiro.reagir($0) }
        let started = ContinuousClock.now
        let relayTask = Task { try await relay.run() }
        let consumerTask = Task { try await bus.consume(consumer) }
        defer {
            relayTask.cancel()
            consumerTask.cancel()
        }
        var handled = 0
        while handled < total {
            try await Task.sleep(for: .milliseconds(20))
            handled = try await store.inboxOutcomes(ids, consumer: queue).count
        }
        let elapsed = ContinuousClock.now - started
        figures.record("financeiro_invoicing", Double(total) / elapsed.seconds, "events/s")
    }

    /// Appends at `rate` per second for `seconds` while the relay and a consumer run; each
    /// handler call notes how long ago its event was appended.
    private func latency(
        store: PostgresEventStore, broker: AMQPSettings, service: String, seconds: Int, logger: Logger,
        into figures: inout Figures
    ) async throws {
        try await store.saveCheckpoint("bench-latency", try await store.headPosition())
        let relay = Relay(store: store, settings: broker, name: "bench-latency", logger: logger)
        let bus = AMQPEventBus(settings: broker, store: store, logger: logger)
        let samples = LatencySamples()
        // A queue of its own: the drain run's queue may still hold deliveries it had in hand
        // when it stopped, which would count here with their old timestamps.
        let consumer = BusConsumer(service: "\(service)lat", bindings: ["\(service).*"]) { event in
            samples.add(Date().timeIntervalSince(event.occurredAt))
            return []
        }
        let relayTask = Task { try await relay.run() }
        let consumerTask = Task { try await bus.consume(consumer) }
        defer {
            relayTask.cancel()
            consumerTask.cancel()
        }
        let total = rate * seconds
        let clock = ContinuousClock()
        let start = clock.now
        let salt = FastID.salt()
        for index in 0..<total {
            // Open loop: event i is due at i / rate, whatever the ones before it took.
            let due = start + .microseconds(Int64(index) * 1_000_000 / Int64(rate))
            if due > clock.now { try await Task.sleep(until: due) }
            try await store.append(
                to: StreamName(category: service, id: "l\(index % 64)"), expected: .any,
                events: [
                    NewEvent(
                        eventId: FastID.uuid(index, salt: salt), type: Self.tipo,
                        data: Data(Payload.payload(index).utf8), occurredAt: Date())
                ])
        }
        let deadline = clock.now + .seconds(60)
        while samples.count < total && clock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        let latencies = samples.latencies
        figures.record("bus_latency_rate", Double(rate), "events/s offered")
        figures.record("bus_latency_handled", Double(latencies.count), "events")
        figures.record("bus_latency_p50", latencies.percentile(50), "ms", decimals: 2)
        figures.record("bus_latency_p99", latencies.percentile(99), "ms", decimals: 2)
    }
}

/// Handler-side latency samples, in seconds.
final class LatencySamples: Sendable {
    private let samples = Mutex<[Double]>([])

    func add(_ seconds: Double) { samples.withLock { $0.append(seconds) } }

    var count: Int { samples.withLock { $0.count } }

    var latencies: Latencies {
        var latencies = Latencies()
        for sample in samples.withLock({ $0 }) { latencies.add(.microseconds(Int64(sample * 1_000_000))) }
        return latencies
    }
}
