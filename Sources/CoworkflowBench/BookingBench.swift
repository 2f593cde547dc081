import ArgumentParser
import EventStore
import Foundation
import Logging

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `coworkflow-bench booking`: bookings per second and catalog reads per second through the
/// HTTP API of a real `coworkflow serve`, with wrk as the load generator (C, a fraction of a
/// core, so the server keeps the machine).
struct BookingBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "booking",
        abstract: "POST /api/reservas and GET /api/espacos throughput and latency (p50, p99) through HTTP.",
        discussion: """
            Starts `coworkflow serve` (the binary beside this one) on a fresh embedded store in a \
            temporary directory, creates an admin, a member, a unit and 17 rooms, then runs wrk with \
            32 connections: bookings spread over 16 rooms (each request a new non-overlapping slot), \
            bookings all on one hot room, bookings spread again with an Idempotency-Key on each (as \
            the web app sends them), and catalog reads. Needs `wrk` (Debian package). \
            With --distributed: one process per deployable (gateway, projections, usuarios, espacos, \
            precos, --reservas replicas; 0 hosts reservas in the gateway) on a fresh PostgreSQL \
            database (BENCH_DB_NAME + "_http", dropped and recreated; DB_* / DATABASE_URL name the \
            server), load through the gateway; first `floor`'s floor_pipeline stage runs, and the \
            booking figures are also printed as ratios to it (booking_spread_vs_floor).
            """)

    @OptionGroup var load: HTTPLoad

    @Flag(help: "Distributed mode on PostgreSQL: one process per deployable, load through the gateway.")
    var distributed = false

    @Option(help: "reservas replicas in distributed mode (0: the gateway hosts reservas, with no HTTP hop).")
    var reservas = 2

    @Flag(help: "In distributed mode, skip the floor_pipeline run (and the ratios to it).")
    var noFloor = false

    @Option(
        help: """
            Traces on, sampling this share of requests (0…1, parent-based): every server exports \
            over OTLP/HTTP to scripts/otlp-receiver.py --discard (python3 from PATH), whose CPU is \
            counted as otlp_receiver. Off when absent.
            """)
    var traceRatio: Double?

    func run() async throws {
        let seconds = load.seconds
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("coworkflow-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("coworkflow").path
        // Below Linux's ephemeral range (32768–60999): an outgoing connection of anything on the
        // machine can hold a port there, and a server's bind then fails ("Address already in use").
        let port = Int.random(in: 20_000...32_000)
        var environment = ProcessInfo.processInfo.environment
        environment["COWORKFLOW_ADMIN_PASSWORD"] = "bench-admin-password"
        environment["RATE_LIMIT_PER_CLIENT"] = "1000000"
        environment["RATE_LIMIT_PER_USER"] = "1000000"
        environment["LOG_LEVEL"] = "warning"
        environment["JWT_SECRET"] = String(repeating: "b", count: 40)
        // Booking e-mails (notificacoes, hosted by the gateway) go to the run's folder.
        environment["OUTBOX_DIR"] = directory.appendingPathComponent("outbox").path

        var servers: [Process] = []
        // What each run costs the machine: the servers by role, PostgreSQL, RabbitMQ, and wrk.
        var cpu = ProcessCPU.Groups()
        defer {
            for server in servers { server.terminate() }
            for server in servers { server.waitUntilExit() }
        }
        if let traceRatio {
            guard (0...1).contains(traceRatio) else { throw ValidationError("--trace-ratio must be between 0 and 1") }
            let (receiver, receiverPort) = try await Self.traceReceiver(in: directory)
            servers.append(receiver)
            cpu.pids[receiver.processIdentifier] = "otlp_receiver"
            environment["OTEL_EXPORTER_OTLP_ENDPOINT"] = "http://127.0.0.1:\(receiverPort)"
            environment["OTEL_TRACES_SAMPLER"] = "parentbased_traceidratio"
            environment["OTEL_TRACES_SAMPLER_ARG"] = String(traceRatio)
            print("# traces: on, \(traceRatio * 100) % of requests sampled, exported to a discarding OTLP/HTTP receiver")
        } else {
            environment["OTEL_EXPORTER_OTLP_ENDPOINT"] = nil
            environment["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] = nil
        }
        guard reservas >= 0 else { throw ValidationError("--reservas must be 0 or more") }
        var figures = Figures()
        // The floor of the same invocation: a ratio to it compares across runs and days, the
        // absolute rates of this VM do not.
        if distributed, !noFloor { try await FloorBench.measure(["floor_pipeline"], load: load, into: &figures) }
        let api: Client
        // Statements per booking where the server counts them (distributed mode); the embedded
        // store's append transactions per booking (its group commit).
        var counts: [HTTPLoad.Count] = []
        if distributed {
            let (database, settings) = try await freshDatabase()
            counts.append(
                HTTPLoad.Count(name: "statements") { [logger = Self.logger] in
                    await statementsRun(in: settings.database, settings: settings, logger: logger)
                })
            for (name, value) in database { environment[name] = value }
            environment["DATABASE_URL"] = nil
            // Eight processes share the server's 100 connections.
            environment["DB_POOL_SIZE"] = environment["DB_POOL_SIZE"] ?? "8"
            let create = try HTTPLoad.launch(binary, ["admin", "create", "--postgres", "--email", "bench@coworkflow.dev"], environment)
            create.waitUntilExit()
            guard create.terminationStatus == 0 else { throw ValidationError("coworkflow admin create --postgres failed") }
            var urls: [String: [String]] = [:]
            var ports: [Int] = []
            let services = ["projections", "usuarios", "espacos", "precos"] + Array(repeating: "reservas", count: reservas)
            cpu.commands["postgres"] = "postgres"
            cpu.commands["beam.smp"] = "rabbitmq"
            for (index, service) in services.enumerated() {
                let servicePort = port + 1 + index
                servers.append(try HTTPLoad.launch(binary, ["serve", "--service", service, "--port", String(servicePort)], environment))
                cpu.pids[servers[servers.count - 1].processIdentifier] =
                    ["usuarios", "espacos", "precos"].contains(service) ? "usuarios_espacos_precos" : service
                urls[service, default: []].append("http://127.0.0.1:\(servicePort)")
                ports.append(servicePort)
            }
            var gateway = environment
            for service in ["usuarios", "espacos", "precos", "reservas"] {
                // No replica: the gateway serves it (its routes, reactions and timers) itself.
                gateway["SERVICE_\(service.uppercased())_URL"] = urls[service].map { $0.joined(separator: ",") }
            }
            servers.append(try HTTPLoad.launch(binary, ["serve", "--service", "gateway", "--port", String(port)], gateway))
            cpu.pids[servers[servers.count - 1].processIdentifier] = "gateway"
            for servicePort in ports { try await Client(base: "http://127.0.0.1:\(servicePort)").waitUntilUp() }
            api = Client(base: "http://127.0.0.1:\(port)")
            try await api.waitUntilUp()
            print(
                "# coworkflow-bench booking: distributed mode (gateway :\(port), \(services.joined(separator: ", "))) on PostgreSQL \(database["DB_NAME"] ?? ""), wrk -c\(load.connections), \(seconds) s per run"
            )
        } else {
            let create = try HTTPLoad.launch(binary, ["admin", "create", "--email", "bench@coworkflow.dev", "--data", directory.path], environment)
            create.waitUntilExit()
            guard create.terminationStatus == 0 else { throw ValidationError("coworkflow admin create failed") }
            servers.append(try HTTPLoad.launch(binary, ["serve", "--data", directory.path, "--port", String(port)], environment))
            cpu.pids[servers[servers.count - 1].processIdentifier] = "serve"
            api = Client(base: "http://127.0.0.1:\(port)")
            try await api.waitUntilUp()
            counts.append(HTTPLoad.Count(name: "commits") { [api] in await api.metric("coworkflow_store_appends_per_commit_count") })
            print("# coworkflow-bench booking: coworkflow serve (embedded store) on :\(port), wrk -c\(load.connections), \(seconds) s per run")
        }

        let admin = try await api.token("bench@coworkflow.dev", "bench-admin-password")
        _ = try await api.send("POST", "/api/auth/registro", #"{"nome":"Bench","email":"membro@coworkflow.dev","senha":"bench-member-password"}"#)
        let member = try await api.token("membro@coworkflow.dev", "bench-member-password")
        let unidade =
            try await api.send(
                "POST", "/api/admin/unidades",
                #"""
                {"nome":"Bench","endereco":{"logradouro":"Rua A","numero":"1","cidade":"São Paulo","uf":"SP","cep":"01000-000"}}
                """#, token: admin)["id"] as? String ?? ""
        let allDay = "[{\"abre\":0,\"fecha\":1440}]"
        let horario =
            "{" + ["domingo", "segunda", "terca", "quarta", "quinta", "sexta", "sabado"].map { "\"\($0)\":\(allDay)" }.joined(separator: ",") + "}"
        var rooms: [String] = []
        for index in 0..<17 {
            let room =
                try await api.send(
                    "POST", "/api/admin/espacos",
                    """
                    {"unidadeId":"\(unidade)","nome":"Sala \(index)","tipo":"sala_reuniao","capacidade":6,"horario":\(horario),
                     "regras":{"duracaoMinimaMinutos":30,"duracaoMaximaMinutos":1440,"antecedenciaMinimaMinutos":0,"antecedenciaMaximaDias":730}}
                    """, token: admin)["id"] as? String ?? ""
            _ = try await api.send(
                "PUT", "/api/admin/espacos/\(room)/precos",
                #"{"porHora":5000,"meioPeriodo":18000,"diaria":30000,"duracaoMinimaMinutos":30}"#, token: admin)
            rooms.append(room)
        }

        let script = directory.appendingPathComponent("booking.lua")
        try Self.lua.write(to: script, atomically: true, encoding: .utf8)
        // Slots start tomorrow at 00:00 UTC, 30 minutes each, never reused across runs.
        let base = (Int(Date().timeIntervalSince1970) / 86_400 + 1) * 86_400
        let meter = ProcessCPU(groups: cpu)
        let spread = try await load.wrk(
            api.base + "/api/reservas", seconds: seconds, script: script, args: [member, String(base), "-"] + Array(rooms[0..<16]),
            meter: meter, counts: counts)
        spread.record("booking_spread", into: &figures, unit: "bookings/s", per: "booking")
        let hot = try await load.wrk(
            api.base + "/api/reservas", seconds: seconds, script: script, args: [member, String(base), "-"] + [rooms[16]], meter: meter,
            counts: counts)
        hot.record("booking_hot_space", into: &figures, unit: "bookings/s", per: "booking")
        // As the web app books: each request with a key of its own (a retry would repeat it), on
        // the spread rooms a year later than the spread run's slots.
        let keyed = try await load.wrk(
            api.base + "/api/reservas", seconds: seconds, script: script,
            args: [member, String(base + 365 * 86_400), "k\(UInt32.random(in: 0...UInt32.max))"] + Array(rooms[0..<16]), meter: meter,
            counts: counts)
        keyed.record("booking_keyed", into: &figures, unit: "bookings/s", per: "booking")
        if let floor = figures.values["floor_pipeline"], floor > 0 {
            figures.record("booking_spread_vs_floor", spread.perSecond / floor, "x", decimals: 2)
            if let p99 = figures.values["floor_pipeline_p99"], p99 > 0 {
                figures.record("booking_spread_p99_vs_floor", spread.p99 / p99, "x", decimals: 2)
            }
        }
        figures.record("booking_hot_space_vs_spread", hot.perSecond / spread.perSecond, "x", decimals: 2)
        figures.record("booking_keyed_vs_spread", keyed.perSecond / spread.perSecond, "x", decimals: 2)
        let catalog = try await load.wrk(api.base + "/api/espacos", seconds: seconds, script: nil, args: [], meter: meter)
        catalog.record("catalog", into: &figures, unit: "reads/s", per: "read")
    }

    /// `scripts/otlp-receiver.py --discard` on a free port (it answers every export at once).
    static func traceReceiver(in directory: URL) async throws -> (Process, Int) {
        let output = directory.appendingPathComponent("otlp-receiver.out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "scripts/otlp-receiver.py", "--port", "0", "--discard"]
        process.standardOutput = try FileHandle(forWritingTo: output)
        try process.run()
        for _ in 0..<200 {
            let printed = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            if let line = printed.split(separator: "\n").first(where: { $0.hasPrefix("ready ") }), let port = Int(line.dropFirst(6)) {
                return (process, port)
            }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        process.terminate()
        throw ValidationError("scripts/otlp-receiver.py did not start (run from the repository's root, python3 on PATH)")
    }

    /// Each request a new slot: thread `t` of `n` takes slots t, t+n, t+2n… spread over the rooms.
    /// Arguments: the member's token, the first slot's start (seconds since 1970), a prefix for
    /// an Idempotency-Key on each request ("-": none), the rooms.
    static let lua = """
        local threads = {}
        function setup(thread)
          thread:set("tid", #threads)
          table.insert(threads, thread)
        end
        function init(args)
          token = args[1]
          base = tonumber(args[2])
          prefix = args[3]
          rooms = {}
          for i = 4, #args do table.insert(rooms, args[i]) end
          counter = 0
        end
        function request()
          local n = counter * 2 + tid
          counter = counter + 1
          local room = rooms[(n % #rooms) + 1]
          local start = base + math.floor(n / #rooms) * 1800
          local body = string.format('{"espacoId":"%s","inicio":"%s","fim":"%s"}', room,
            os.date("!%Y-%m-%dT%H:%M:%SZ", start), os.date("!%Y-%m-%dT%H:%M:%SZ", start + 1800))
          local headers = {["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. token}
          if prefix ~= "-" then headers["Idempotency-Key"] = prefix .. "-" .. tid .. "-" .. counter end
          return wrk.format("POST", nil, headers, body)
        end
        """

    /// A new, migrated database for the distributed run; the DB_* variables that name it.
    func freshDatabase() async throws -> ([String: String], PostgresSettings) {
        let settings = try await freshBenchDatabase(suffix: "_http", logger: Self.logger)
        let name = settings.database
        let variables = [
            "DB_HOST": settings.host, "DB_PORT": String(settings.port), "DB_NAME": name, "DB_USER": settings.user,
            "DB_PASSWORD": settings.password,
        ]
        return (variables, settings)
    }

    static let logger = {
        var logger = Logger(label: "coworkflow.bench")
        logger.logLevel = .warning
        return logger
    }()
}

/// Just enough HTTP for the set-up requests.
struct Client {
    let base: String

    func waitUntilUp() async throws {
        for _ in 0..<200 {
            if let (_, response) = try? await URLSession.shared.data(from: try url("/saude")),
                (response as? HTTPURLResponse)?.statusCode == 200
            {
                return
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw ValidationError("coworkflow serve did not come up at \(base)")
    }

    func send(_ method: String, _ path: String, _ body: String? = nil, token: String? = nil) async throws -> [String: Any] {
        var request = URLRequest(url: try url(path))
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        request.httpBody = body.map { Data($0.utf8) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard (200..<300).contains(status) else {
            throw ValidationError("\(method) \(path): \(status) \(String(decoding: data, as: UTF8.self))")
        }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }

    /// The sum of the series of `name` in the server's `/metrics` (nil: not there, or no answer).
    func metric(_ name: String) async -> Int? {
        guard let (data, _) = try? await URLSession.shared.data(from: try url("/metrics")) else { return nil }
        let values = String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line -> Double? in
            guard line.hasPrefix(name + " ") || line.hasPrefix(name + "{"), let value = line.split(separator: " ").last else { return nil }
            return Double(value)
        }
        return values.isEmpty ? nil : Int(values.reduce(0, +))
    }

    func url(_ path: String) throws -> URL {
        guard let url = URL(string: base + path) else { throw ValidationError("bad URL \(base + path)") }
        return url
    }

    func token(_ email: String, _ senha: String) async throws -> String {
        try await send("POST", "/api/auth/login", #"{"email":"\#(email)","senha":"\#(senha)"}"#)["token"] as? String ?? ""
    }
}
