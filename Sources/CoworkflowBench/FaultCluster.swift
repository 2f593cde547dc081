import ArgumentParser
import Foundation
import Messaging
import Services
import Synchronization
import TestSupport

/// The distributed deployment `coworkflow-bench faults` runs and breaks: every deployable as its
/// own process (two gateways, two replicas of reservas and of projections, the sandbox PSP),
/// each reaching PostgreSQL and RabbitMQ through a proxy of its own, so that its links can be
/// partitioned one at a time; the local PostgreSQL and RabbitMQ of `infra/local`, which it stops
/// and starts.
final class FaultCluster: Sendable {
    /// One deployable: its name (`reservas-2`), the service it runs, and its port.
    struct Member: Sendable {
        let name: String
        let service: String
        let port: Int
        var url: String { "http://127.0.0.1:\(port)" }
    }

    /// What went wrong with a process that nobody stopped.
    struct Crash: Sendable, CustomStringConvertible {
        let name: String
        let status: Int32
        let tail: String
        var description: String { "\(name) exited by itself (status \(status)); its log ends:\n\(tail)" }
    }

    let members: [Member]
    let directory: URL
    let binary: String
    let environment: [String: String]
    let postgresProxies: [String: TCPProxy]
    let brokerProxies: [String: TCPProxy]
    let extras: [String: [String: String]]
    private struct Running {
        var processes: [String: Process] = [:]
        /// Stopped on purpose (killed, terminated): their exit is not a crash.
        var stopping: Set<String> = []
        var crashes: [Crash] = []
        var restarts: [String: Int] = [:]
    }
    private let running = Mutex(Running())
    /// Every process any cluster of this run started, for a harness that is interrupted.
    private static let started = Mutex<[Process]>([])

    /// SIGKILL to every process started (from a signal handler's queue).
    static func killStarted() {
        for process in started.withLock({ $0 }) where process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
    }

    /// The names of the deployables in the order they start (the gateways last).
    static let layout: [(String, String)] = [
        ("sandbox", "sandbox"), ("projections", "projections"), ("projections-2", "projections"), ("usuarios", "usuarios"),
        ("espacos", "espacos"), ("precos", "precos"), ("reservas", "reservas"), ("reservas-2", "reservas"), ("pagamentos", "pagamentos"),
        ("checkin", "checkin"), ("notificacoes", "notificacoes"), ("financeiro", "financeiro"), ("analytics", "analytics"),
        ("assinaturas", "assinaturas"), ("gateway", "gateway"), ("gateway-2", "gateway"),
    ]

    private init(
        members: [Member], directory: URL, binary: String, environment: [String: String], postgresProxies: [String: TCPProxy],
        brokerProxies: [String: TCPProxy], extras: [String: [String: String]]
    ) {
        self.members = members
        self.directory = directory
        self.binary = binary
        self.environment = environment
        self.postgresProxies = postgresProxies
        self.brokerProxies = brokerProxies
        self.extras = extras
    }

    /// The bus consumers and the event types each is bound to (their queues' routing keys are
    /// `context.EventType`).
    static let consumerBindings: [(String, [String])] = Consumidores.filas.map { ($0.servico, $0.bindings) }
    static var consumers: [String] { consumerBindings.map(\.0) }
    static var bindings: [String: [String]] {
        Dictionary(uniqueKeysWithValues: consumerBindings.map { ($0.0, $0.1.map { String($0.split(separator: ".").last ?? "") }) })
    }

    func member(_ name: String) -> Member? { members.first { $0.name == name } }
    var gateways: [Member] { members.filter { $0.service == "gateway" } }

    /// Starts every deployable on `database` and waits until each answers `/saude`.
    static func start(
        binary: String, directory: URL, database: [String: String], postgres: (host: String, port: Int), broker: (host: String, port: Int)
    ) async throws -> FaultCluster {
        var environment = ProcessInfo.processInfo.environment
        for (name, value) in database { environment[name] = value }
        environment["DATABASE_URL"] = nil
        environment["OTEL_EXPORTER_OTLP_ENDPOINT"] = nil
        environment["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] = nil
        environment["DB_POOL_SIZE"] = "4"
        environment["JWT_SECRET"] = String(repeating: "f", count: 40)
        environment["PSP_WEBHOOK_SECRET"] = "segredo-do-webhook-de-faltas-com-32-bytes-ou-mais"
        environment["PSP_API_KEY"] = "chave-do-sandbox"
        environment["PSP_SANDBOX_ROUTES"] = "on"
        environment["RATE_LIMIT_PER_CLIENT"] = "1000000"
        environment["RATE_LIMIT_PER_USER"] = "1000000"
        environment["LOG_LEVEL"] = environment["FAULTS_LOG_LEVEL"] ?? "warning"
        environment["OUTBOX_DIR"] = directory.appendingPathComponent("outbox").path
        environment["COWORKFLOW_ADMIN_PASSWORD"] = "faults-admin-password"

        var members: [Member] = []
        var used: Set<Int> = []
        for (name, service) in layout {
            var port = Int.random(in: 20_000...32_000)
            while used.contains(port) { port = Int.random(in: 20_000...32_000) }
            used.insert(port)
            members.append(Member(name: name, service: service, port: port))
        }
        var postgresProxies: [String: TCPProxy] = [:]
        var brokerProxies: [String: TCPProxy] = [:]
        for member in members where member.service != "sandbox" {
            postgresProxies[member.name] = try await TCPProxy.start(to: postgres.host, port: postgres.port)
            brokerProxies[member.name] = try await TCPProxy.start(to: broker.host, port: broker.port)
        }
        func url(_ name: String) -> String { members.first { $0.name == name }?.url ?? "" }
        var targets: [String: String] = [:]
        for member in members where !["gateway", "sandbox", "projections"].contains(member.service) {
            let variable = "SERVICE_\(member.service.uppercased())_URL"
            targets[variable] = targets[variable].map { $0 + "," + member.url } ?? member.url
        }
        var extras: [String: [String: String]] = [:]
        for member in members {
            var extra: [String: String] = ["PSP_URL": url("sandbox")]
            if member.service == "sandbox" {
                // The provider's notices go to the first gateway; it retries while that one restarts.
                extra["PSP_WEBHOOK_URL"] = url("gateway") + "/api/pagamentos/webhooks/sandbox"
            }
            if member.service == "gateway" {
                extra.merge(targets) { $1 }
                // The harness is the load balancer: it names each member's address in X-Forwarded-For.
                extra["TRUSTED_PROXIES"] = "127.0.0.1/32"
            }
            if let proxy = postgresProxies[member.name] {
                extra["DB_HOST"] = "127.0.0.1"
                extra["DB_PORT"] = String(proxy.port)
            }
            if let proxy = brokerProxies[member.name] { extra["AMQP_URL"] = "amqp://guest:guest@127.0.0.1:\(proxy.port)" }
            extras[member.name] = extra
        }
        let cluster = FaultCluster(
            members: members, directory: directory, binary: binary, environment: environment, postgresProxies: postgresProxies,
            brokerProxies: brokerProxies, extras: extras)
        for member in members { try cluster.launch(member.name) }
        for member in members { try await cluster.waitUntilHealthy(member.name, within: .seconds(90)) }
        return cluster
    }

    /// `coworkflow admin create --postgres` through the first gateway's links.
    func createAdmin(_ email: String) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["admin", "create", "--postgres", "--email", email]
        process.environment = environment.merging(extras["gateway"] ?? [:]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        while process.isRunning { try await Task.sleep(for: .milliseconds(50)) }
        guard process.terminationStatus == 0 else { throw ValidationError("coworkflow admin create --postgres failed") }
    }

    func launch(_ name: String) throws {
        guard let member = member(name) else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["serve", "--service", member.service, "--port", String(member.port)]
        process.environment = environment.merging(extras[name] ?? [:]) { $1 }
        let log = directory.appendingPathComponent("\(name).log")
        if !FileManager.default.fileExists(atPath: log.path) { _ = FileManager.default.createFile(atPath: log.path, contents: nil) }
        let handle = try FileHandle(forWritingTo: log)
        handle.seekToEndOfFile()
        process.standardOutput = handle
        process.standardError = handle
        process.terminationHandler = { [weak self] ended in self?.ended(name, ended) }
        running.withLock { state in
            state.processes[name] = process
            state.stopping.remove(name)
        }
        try process.run()
        Self.started.withLock { $0.append(process) }
    }

    private func ended(_ name: String, _ process: Process) {
        let expected = running.withLock { state in
            guard state.processes[name] === process else { return true }
            return state.stopping.contains(name)
        }
        guard !expected else { return }
        let crash = Crash(name: name, status: process.terminationStatus, tail: tail(of: name))
        running.withLock { $0.crashes.append(crash) }
    }

    var crashes: [Crash] { running.withLock { $0.crashes } }

    func isRunning(_ name: String) -> Bool { running.withLock { $0.processes[name]?.isRunning ?? false } }

    /// The last lines of a deployable's log.
    func tail(of name: String, lines: Int = 12) -> String {
        let text = (try? String(contentsOf: directory.appendingPathComponent("\(name).log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(lines).joined(separator: "\n")
    }

    /// `SIGKILL`, at once; nothing of the process survives but what it committed.
    func kill(_ name: String) async {
        let process = running.withLock { state -> Process? in
            state.stopping.insert(name)
            return state.processes[name]
        }
        guard let process, process.isRunning else { return }
        Foundation.kill(process.processIdentifier, SIGKILL)
        while process.isRunning { try? await Task.sleep(for: .milliseconds(20)) }
    }

    /// `SIGTERM`, and the wait for the process to end by itself (its exit status; -1 when it
    /// had to be killed after `within`).
    @discardableResult
    func terminate(_ name: String, within: Duration = .seconds(30)) async -> Int32 {
        let process = running.withLock { state -> Process? in
            state.stopping.insert(name)
            return state.processes[name]
        }
        guard let process, process.isRunning else { return 0 }
        process.terminate()
        let deadline = ContinuousClock.now + within
        while process.isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        if process.isRunning {
            Foundation.kill(process.processIdentifier, SIGKILL)
            while process.isRunning { try? await Task.sleep(for: .milliseconds(20)) }
            return -1
        }
        return process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
    }

    func restart(_ name: String) throws {
        running.withLock { $0.restarts[name, default: 0] += 1 }
        try launch(name)
    }

    /// Waits until the deployable answers `/saude` with 200.
    func waitUntilHealthy(_ name: String, within: Duration) async throws {
        guard let member = member(name) else { return }
        let deadline = ContinuousClock.now + within
        while ContinuousClock.now < deadline {
            if await FaultHTTP.status(member.url + "/saude") == 200 { return }
            guard isRunning(name) else { throw ValidationError("\(name) exited; its log ends:\n\(tail(of: name))") }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw ValidationError("\(name) did not answer /saude within \(within); its log ends:\n\(tail(of: name))")
    }

    /// Whether every deployable answers `/saude` with 200 now.
    func allHealthy() async -> Bool { await unhealthy().isEmpty }

    /// The deployables that do not answer `/saude` with 200 now, each with what it answered
    /// (its status and the start of its body; 0 when nothing answered within 2 s).
    func unhealthy() async -> [String] {
        var found: [String] = []
        for member in members {
            let answer = try? await FaultHTTP.send(.GET, member.url + "/saude", timeout: .seconds(2))
            guard answer?.status != 200 else { continue }
            let body = answer.map { String($0.text.prefix(300)) } ?? ""
            found.append("\(member.name): \(answer?.status ?? 0) \(body)")
        }
        return found
    }

    /// SIGTERM to every process; the exit statuses of those that did not end cleanly.
    /// `SIGTERM` to every deployable but those named in `except`, in the reverse order of their
    /// start; the exit status of each that did not end cleanly.
    func stop(except kept: Set<String>) async -> [String: Int32] {
        var statuses: [String: Int32] = [:]
        for member in members.reversed() where !kept.contains(member.name) {
            let status = await terminate(member.name, within: .seconds(20))
            if status != 0 { statuses[member.name] = status }
        }
        return statuses
    }

    func stopAll() async -> [String: Int32] {
        var statuses: [String: Int32] = [:]
        for member in members.reversed() {
            let status = await terminate(member.name, within: .seconds(20))
            if status != 0 { statuses[member.name] = status }
        }
        for proxy in postgresProxies.values { try? await proxy.shutdown() }
        for proxy in brokerProxies.values { try? await proxy.shutdown() }
        return statuses
    }

    /// SIGKILL to whatever still runs (a failed start).
    func killAll() async {
        for member in members { await kill(member.name) }
        for proxy in postgresProxies.values { try? await proxy.shutdown() }
        for proxy in brokerProxies.values { try? await proxy.shutdown() }
    }
}

/// The local servers of `infra/local` (PostgreSQL 15 and RabbitMQ with state under `.local/`),
/// stopped and started as an operator's outage would.
enum LocalServers {
    /// `fast`: SIGINT to the postmaster (clients are disconnected, a checkpoint is written);
    /// `immediate`: SIGQUIT (no checkpoint: the next start recovers from the WAL, as after a
    /// crash).
    static func stopPostgres(immediate: Bool) async throws {
        let dataDirectory = ProcessInfo.processInfo.environment["COWORKFLOW_LOCAL_DIR"].map { $0 + "/postgres/data" } ?? ".local/postgres/data"
        let pidFile = (try? String(contentsOfFile: dataDirectory + "/postmaster.pid", encoding: .utf8)) ?? ""
        guard let pid = pidFile.split(separator: "\n").first.flatMap({ Int32($0) }) else {
            throw ValidationError("no postmaster.pid under \(dataDirectory): are infra/local's servers running (run from the repository's root)?")
        }
        Foundation.kill(pid, immediate ? SIGQUIT : SIGINT)
        let deadline = ContinuousClock.now + .seconds(60)
        while Foundation.kill(pid, 0) == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
    }

    static func startPostgres() async throws { try await script("infra/local/start.sh", "postgres") }

    static func stopRabbitMQ() async throws { try await script("infra/local/stop.sh", "rabbitmq") }

    static func startRabbitMQ() async throws { try await script("infra/local/start.sh", "rabbitmq") }

    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    private static let closeFrom: CloseFrom? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: CloseFrom.self) }

    /// Runs `bash path argument` to its end. Not through Foundation's `Process`: it learns of a
    /// child's end when a pipe the child inherited closes, and the servers these scripts start
    /// in the background inherit it too, so the script would never be seen to end. Here the
    /// child is spawned and waited for by its pid.
    private static func script(_ path: String, _ argument: String) async throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        // Nothing of the harness's but the standard streams: a server started here inherited
        // every socket the harness had open (the proxies' listeners and links, which are not
        // close-on-exec), and kept a link the harness closed open for ever: a deployable's
        // connection to PostgreSQL never saw its end, and a killed deployable's session stayed
        // in the database holding its leases (docs/reliability.md).
        // (glibc ≥ 2.34 has the action; Swift's Glibc module does not declare it.)
        guard let closeFrom = Self.closeFrom else { throw ValidationError("this C library cannot close inherited descriptors at spawn") }
        guard closeFrom(&actions, 3) == 0 else { throw ValidationError("could not ask to close inherited descriptors") }
        var pid: pid_t = 0
        let arguments = ["/bin/bash", path, argument]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let spawned = posix_spawn(&pid, "/bin/bash", &actions, nil, &argv, environ)
        guard spawned == 0 else { throw ValidationError("\(path) \(argument) did not start (\(spawned))") }
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 { try await Task.sleep(for: .milliseconds(50)) }
        // WIFEXITED / WEXITSTATUS, spelled out (they are C macros).
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            throw ValidationError("\(path) \(argument) failed (wait status \(status))")
        }
    }
}
