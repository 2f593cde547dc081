import ArgumentParser
import AsyncHTTPClient
import EventStore
import Foundation
import Hummingbird
import Logging
import Messaging
import NIOCore
import PostgresNIO
import Projections
import Synchronization

/// `coworkflow-bench floor`: what the stack alone costs per request on this machine, with no
/// CoworkFlow code on the path — the least a booking through the distributed mode could cost.
///
/// The same wrk load as `booking` (32 connections, two threads, a POST with a small JSON body)
/// against three pipelines of bare servers (this binary's hidden `floor-server`, on the same
/// libraries the product uses: Hummingbird, AsyncHTTPClient, PostgresNIO's own pool):
///
/// - `floor_http`: one server that answers 201 and does nothing else;
/// - `floor_store`: one server that, per request, reads a stream (one SELECT) and appends an
///   event to a new one (one INSERT, committed with fsync on): the least a command on an
///   event store does;
/// - `floor_hop`: an edge server that forwards each request over HTTP to that store server and
///   answers what it answered: gateway → service → store, with no token check, no domain, no
///   relay, no broker and no projection;
/// - `floor_pipeline`: the same hop, but the service appends one event through CoworkFlow's
///   own store the least a booking writes (DESIGN §3: its own stream and a day's agenda
///   stream, read in one round trip, then one event on each in one multi-stream append), and
///   a third process runs what those events meet after it: the relay (store → RabbitMQ,
///   confirmed), one bus consumer of the first (quorum queue, inbox row, no effect) and one
///   projection runner (one small document per event). No token check, no domain, no payment
///   reaction, one read model instead of eight, and no wait for the read model before
///   answering: a lower bound of the distributed mode's booking.
///
/// Each prints requests per second, p50/p99 and CPU per request per process, as `booking` does.
struct FloorBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "floor",
        abstract: "The stack's own cost per request (HTTP, one hop, one read and one insert), with no CoworkFlow code.")

    @OptionGroup var load: HTTPLoad

    /// Every stage, in the order they run.
    static let stages = [
        ("floor_http", ["service-nodb"]), ("floor_store", ["service"]), ("floor_hop", ["service", "edge"]),
        ("floor_pipeline", ["service-events", "edge", "pipeline"]),
    ]

    func run() async throws {
        var figures = Figures()
        try await Self.measure(Self.stages.map(\.0), load: load, into: &figures)
    }

    /// Runs the stages named (``stages``) on a fresh database, each printing its figures into
    /// `figures`; `booking --distributed` runs `floor_pipeline` this way, so that its ratio to
    /// the floor comes from one invocation.
    static func measure(_ names: [String], load: HTTPLoad, into figures: inout Figures) async throws {
        let seconds = load.seconds
        var logger = Logger(label: "coworkflow.bench")
        logger.logLevel = .warning
        let settings = try await freshBenchDatabase(suffix: "_floor", logger: logger)
        let name = settings.database
        try await withOwner(settings, logger: logger) { connection in
            try await connection.query(
                """
                CREATE TABLE floor_events (
                    position bigserial PRIMARY KEY, stream text NOT NULL, version integer NOT NULL,
                    data jsonb NOT NULL, recorded timestamptz NOT NULL DEFAULT now(), UNIQUE (stream, version))
                """, logger: logger)
            try await connection.query(PostgresQuery(unsafeSQL: "GRANT SELECT, INSERT ON floor_events TO \"\(settings.user)\""), logger: logger)
            try await connection.query(
                PostgresQuery(unsafeSQL: "GRANT USAGE ON SEQUENCE floor_events_position_seq TO \"\(settings.user)\""), logger: logger)
        }
        var environment = ProcessInfo.processInfo.environment
        environment["DB_NAME"] = name
        environment["DATABASE_URL"] = nil

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("coworkflow-floor-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("floor.lua")
        try Self.lua.write(to: script, atomically: true, encoding: .utf8)
        let binary = CommandLine.arguments[0]
        let port = Int.random(in: 20_000...31_000)
        print(
            "# coworkflow-bench floor: bare Hummingbird/AsyncHTTPClient/PostgresNIO servers on PostgreSQL \(name), wrk -c\(load.connections), \(seconds) s per run"
        )

        let consumer = "floorbench\(UInt32.random(in: .min ... .max))"
        do {
            for (figure, roles) in stages where names.contains(figure) {
                var servers: [Process] = []
                var cpu = ProcessCPU.Groups()
                cpu.commands["postgres"] = "postgres"
                cpu.commands["beam.smp"] = "rabbitmq"
                defer {
                    for server in servers { server.terminate() }
                    for server in servers { server.waitUntilExit() }
                }
                for (index, role) in roles.enumerated() {
                    let own = port + index
                    let base = role.hasPrefix("service") ? "service" : role
                    var arguments = ["floor-server", "--role", base, "--port", String(own), "--consumer", consumer]
                    if role == "service-nodb" { arguments.append("--no-store") }
                    if role == "service-events" { arguments.append("--events") }
                    if role == "edge" { arguments += ["--upstream", "http://127.0.0.1:\(port)"] }
                    servers.append(try HTTPLoad.launch(binary, arguments, environment))
                    cpu.pids[servers[servers.count - 1].processIdentifier] = base
                    try await Client(base: "http://127.0.0.1:\(own)").waitUntilUp()
                }
                let url = "http://127.0.0.1:\(port + (roles.contains("edge") ? 1 : 0))/r"
                let run = try await load.wrk(url, seconds: seconds, script: script, args: [], meter: ProcessCPU(groups: cpu))
                run.record(figure, into: &figures, unit: "requests/s", per: "request")
            }
        } catch {
            await Self.deleteQueues(of: consumer)
            throw error
        }
        await Self.deleteQueues(of: consumer)
    }

    /// The stage's quorum queue and its dead-letter queue, once the run is over.
    static func deleteQueues(of consumer: String) async {
        guard let broker = try? AMQPSettings.fromEnvironment() else { return }
        let connection = AMQPConnection(settings: broker, name: "floor-cleanup")
        guard (try? await connection.open()) != nil else { return }
        try? await connection.deleteQueue(Topology.queue(for: consumer))
        try? await connection.deleteQueue(Topology.deadLetterQueue(for: consumer))
        await connection.close()
    }

    static let lua = """
        wrk.method = "POST"
        wrk.headers["Content-Type"] = "application/json"
        wrk.body = '{"espacoId":"6f1c2a9e-8d3b-4c5e-9a7f-1b2c3d4e5f60","inicio":"2026-12-01T10:00:00Z","fim":"2026-12-01T10:30:00Z"}'
        """
}

/// One bare server of `coworkflow-bench floor` (not for use on its own).
struct FloorServer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "floor-server", shouldDisplay: false)

    @Option var role: String
    @Option var port: Int
    @Option var upstream: String?
    @Option var consumer = "floorbench"
    @Flag var noStore = false
    @Flag var events = false

    func run() async throws {
        var logger = Logger(label: "coworkflow.floor")
        logger.logLevel = .warning
        let router = Router()
        router.get("/saude") { _, _ in Response(status: .ok) }
        let app: Application<RouterResponder<BasicRequestContext>>
        if role == "edge" {
            guard let upstream else { throw ValidationError("--upstream is required for the edge") }
            var configuration = HTTPClient.Configuration()
            configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 64)
            let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
            router.post("/r") { request, _ -> Response in
                var forwarded = HTTPClientRequest(url: upstream + "/r")
                forwarded.method = .POST
                forwarded.headers.add(name: "Content-Type", value: "application/json")
                forwarded.body = .bytes(try await request.body.collect(upTo: 65_536))
                let answer = try await client.execute(forwarded, timeout: .seconds(30))
                let body = try await answer.body.collect(upTo: 65_536)
                return Response(
                    status: .init(code: Int(answer.status.code)), headers: [.contentType: "application/json"],
                    body: .init(byteBuffer: body))
            }
            app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)), logger: logger)
            try await app.runService()
            try await client.shutdown()
            return
        }
        if role == "pipeline" {
            try await pipeline(router: router, logger: logger)
            return
        }
        if events {
            try await eventService(router: router, logger: logger)
            return
        }
        guard !noStore else {
            router.post("/r") { request, _ -> Response in
                _ = try await request.body.collect(upTo: 65_536)
                return Response(
                    status: .created, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: #"{"id":"1"}"#)))
            }
            app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)), logger: logger)
            try await app.runService()
            return
        }
        let settings = try PostgresSettings.fromEnvironment()
        let client = PostgresClient(configuration: settings.clientConfiguration(), backgroundLogger: logger)
        let salt = String(UInt64.random(in: .min ... .max), radix: 36)
        let counter = Atomic<Int>(0)
        router.post("/r") { request, _ -> Response in
            let body = String(buffer: try await request.body.collect(upTo: 65_536))
            let stream = salt + "-" + String(counter.add(1, ordering: .relaxed).newValue)
            // What a command does at the least: read its stream, then append to it.
            var version = 0
            for try await (found) in try await client.query("SELECT max(version) FROM floor_events WHERE stream = \(stream)").decode(Int?.self) {
                version = found ?? 0
            }
            var position = 0
            for try await (inserted) in try await client.query(
                "INSERT INTO floor_events (stream, version, data) VALUES (\(stream), \(version + 1), \(body)::jsonb) RETURNING position"
            ).decode(Int.self) {
                position = inserted
            }
            return Response(
                status: .created, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: #"{"id":"\#(stream)","posicao":\#(position)}"#)))
        }
        app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)), logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            try await app.runService()
            group.cancelAll()
        }
    }

    /// Two events per request through CoworkFlow's store: a two-stream read, then the append.
    private func eventService(router: Router<BasicRequestContext>, logger: Logger) async throws {
        let store = PostgresEventStore(settings: try PostgresSettings.fromEnvironment(), logger: logger)
        let salt = FastID.salt()
        let counter = Atomic<Int>(0)
        router.post("/r") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 65_536)
            let n = counter.add(1, ordering: .relaxed).newValue
            // A booking's least: its own stream and one agenda stream, read in one round trip,
            // then one event on each in one multi-stream append.
            let stream = StreamName(category: "floor", id: FastID.streamID(n, salt: salt))
            let agenda = StreamName(category: "flooragenda", id: FastID.streamID(n, salt: salt))
            let read = try await store.readStreams([StreamRead(stream, from: 1), StreamRead(agenda, from: 1)])
            let data = Data(body.readableBytesView)
            let result = try await store.append([
                StreamWrite(
                    stream: stream, expected: read[stream, default: []].isEmpty ? .noStream : .any,
                    events: [NewEvent(eventId: FastID.uuid(2 * n, salt: salt), type: "Evento", data: data, occurredAt: Date())]),
                StreamWrite(
                    stream: agenda, expected: read[agenda, default: []].isEmpty ? .noStream : .any,
                    events: [NewEvent(eventId: FastID.uuid(2 * n + 1, salt: salt), type: "EventoDeAgenda", data: data, occurredAt: Date())]),
            ])
            return Response(
                status: .created, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: #"{"id":"\#(stream.rawValue)","posicao":\#(result.positions.last?.sequence ?? 0)}"#)))
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)), logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await store.run() }
            await store.started()
            try await app.runService()
            group.cancelAll()
        }
    }

    /// What every event meets after its append: the relay, one bus consumer, one projection.
    private func pipeline(router: Router<BasicRequestContext>, logger: Logger) async throws {
        let store = PostgresEventStore(settings: try PostgresSettings.fromEnvironment(), logger: logger)
        let broker = try AMQPSettings.fromEnvironment()
        let relay = Relay(store: store, settings: broker, name: "floor-relay", logger: logger)
        let bus = AMQPEventBus(settings: broker, store: store, logger: logger)
        let bound = BusConsumer(service: consumer, bindings: ["floor.*"]) { _ in [] }
        let projection = Projection(name: "floor", collections: ["floor"], types: ["Evento", "EventoDeAgenda"]) { recorded, batch in
            batch.put(json: Data(#"{"posicao":\#(recorded.position.sequence)}"#.utf8), "floor", recorded.stream.rawValue)
        }
        let runner = ProjectionRunner(projection, store: store, logger: logger)
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)), logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await store.run() }
            await store.started()
            group.addTask { try await relay.run() }
            group.addTask { try await bus.consume(bound) }
            group.addTask { try await runner.run() }
            try await app.runService()
            group.cancelAll()
        }
    }
}
