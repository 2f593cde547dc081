import ArgumentParser
import EventStore
import Foundation
import Logging
import Messaging
import PostgresNIO
import Projections
import Synchronization
import TestSupport

/// `coworkflow-bench faults`: the distributed deployment under a mixed load while processes are
/// killed, PostgreSQL and RabbitMQ restarted, links partitioned and the gateways replaced; then
/// the invariants, checked from the sources of truth (docs/reliability.md).
struct FaultsBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "faults",
        abstract: "Faults on purpose under load; prints what was injected, how long recovery took, and invariant violations (must be 0).",
        discussion: """
            Run from the repository's root with infra/local's PostgreSQL and RabbitMQ running (it \
            stops and starts them). Starts every deployable of the distributed mode (two gateways, \
            two replicas of reservas and of projections, the sandbox PSP) on a fresh database \
            (BENCH_DB_NAME + "_faults"), each reaching PostgreSQL and RabbitMQ through a proxy of \
            its own; drives members' bookings, payments, cancellations, check-ins and no-shows \
            through the gateways; injects faults one after another on a seeded schedule; lets \
            everything settle, checks the invariants, rebuilds every read model from the log and \
            compares. Exits 1 when an invariant does not hold.
            """)

    @Flag(help: "The CI mode: seed 42, each fault kind at least once, a few minutes.")
    var short = false

    @Option(help: "Seconds of load and faults (the long mode; the short mode ends when its schedule does).")
    var seconds = 1800

    @Option(help: "The schedule's seed (random when absent, printed to reproduce).")
    var seed: UInt64?

    @Option(help: "Members booking at once.")
    var members = 12

    @Option(
        help: """
            Only these fault kinds, comma-separated (kill, postgres_fast_restart, postgres_immediate_restart, rabbitmq_restart, \
            partition_postgres, partition_rabbitmq, gateway_rolling_restart); all when absent.
            """)
    var only: String?

    @Option(help: "Seconds to wait, after each fault, for the deployment to recover before it counts as a violation.")
    var recoveryLimit = 60

    func run() async throws {
        let seed = seed ?? (short ? 42 : UInt64.random(in: 1...999_999))
        var random = SplitMix64(seed: seed)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("coworkflow-faults-\(seed)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("coworkflow").path
        var logger = Logger(label: "coworkflow.faults")
        logger.logLevel = .error
        let settings = try await freshBenchDatabase(suffix: "_faults", logger: logger)
        let database = [
            "DB_HOST": settings.host, "DB_PORT": String(settings.port), "DB_NAME": settings.database, "DB_USER": settings.user,
            "DB_PASSWORD": settings.password,
        ]
        let broker = try AMQPSettings.fromEnvironment()
        try await Self.resetQueues(broker)
        say("# coworkflow-bench faults: seed \(seed), \(short ? "short" : "\(seconds) s"), \(members) members; logs in \(directory.path)")
        // Interrupted (Ctrl-C, a time limit), it takes its processes with it.
        let signals = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number)
            source.setEventHandler {
                FaultCluster.killStarted()
                Foundation.exit(130)
            }
            source.resume()
            return source
        }
        defer { for source in signals { source.cancel() } }
        let cluster = try await FaultCluster.start(
            binary: binary, directory: directory, database: database, postgres: (settings.host, settings.port),
            broker: (broker.host, broker.port))
        var figures = Figures()
        var violations: [String] = []
        do {
            try await cluster.createAdmin("faults@coworkflow.dev")
            let balancer = Balancer(cluster.gateways.map(\.url))
            let world = try await FaultWorld.create(balancer, members: members)
            let probe = Lag(settings: settings, logger: logger, broker: broker)
            let stop = StopFlag()
            let tomorrow = (Int(Date().timeIntervalSince1970) / 86_400 + 1) * 86_400
            let load = Task {
                await withTaskGroup(of: Void.self) { group in
                    for (index, token) in world.members.enumerated() {
                        let member = MemberLoad(index: index, token: token, world: world, balancer: balancer, tomorrow: tomorrow)
                        group.addTask { await member.run(seed: seed) { stop.isSet } }
                    }
                }
            }
            let schedule = Schedule(cluster: cluster, balancer: balancer, lag: probe, recoveryLimit: .seconds(recoveryLimit))
            let started = ContinuousClock.now
            // Warm up under load before the first fault.
            try await Task.sleep(for: .seconds(5))
            let kinds = only.map { Set($0.split(separator: ",").map(String.init)) }
            if short {
                for fault in Schedule.shortList.shuffled(using: &random) where kinds?.contains(fault.kind) ?? true {
                    await schedule.inject(fault, random: &random)
                    try await Task.sleep(for: .milliseconds(Int.random(in: 1000...3000, using: &random)))
                }
            } else {
                while ContinuousClock.now - started < .seconds(seconds) {
                    let fault = Schedule.randomFault(cluster, using: &random)
                    guard kinds?.contains(fault.kind) ?? true else { continue }
                    await schedule.inject(fault, random: &random)
                    try await Task.sleep(for: .milliseconds(Int.random(in: 2000...10_000, using: &random)))
                }
            }
            stop.set()
            await load.value
            let loadSeconds = Double((ContinuousClock.now - started).components.seconds)

            // Settle: every checkpoint at the head, every queue empty, for two seconds running.
            let settled = await probe.settle(broker: broker, within: .seconds(180))
            if !settled { violations.append("not_settled: the relay, a projection or a queue did not catch up within 180 s after the load") }

            let counts = balancer.counts
            figures.record("faults_seed", Double(seed), "seed")
            figures.record("faults_load_seconds", loadSeconds, "s")
            figures.record("requests_sent", Double(counts.sent), "requests")
            figures.record("requests_answered", Double(counts.answered), "requests")
            figures.record("requests_2xx", Double(counts.status2xx), "requests")
            figures.record("requests_409", Double(counts.conflicts), "requests")
            figures.record("requests_4xx_other", Double(counts.status4xx), "requests")
            figures.record("requests_503", Double(counts.status503), "requests")
            figures.record("requests_503_with_retry_after", Double(counts.status503WithRetryAfter), "requests")
            figures.record("requests_5xx_other", Double(counts.status5xx), "requests")
            figures.record("requests_unanswered", Double(counts.unanswered), "requests")
            figures.record("requests_given_up", Double(counts.givenUp), "requests")
            figures.record("bookings_made", Double(counts.bookings), "bookings")
            figures.record("cancellations_made", Double(counts.cancellations), "cancellations")
            figures.record("checkins_made", Double(counts.checkins), "checkins")
            figures.record("pix_paid", Double(counts.pixPaid), "payments")
            figures.record("moves_made", Double(counts.moves), "moves")
            figures.record("series_made", Double(counts.series), "series")
            figures.record("series_cancelled", Double(counts.seriesCancelled), "series")
            figures.record("series_moved", Double(counts.seriesMoved), "series")
            for (kind, count) in schedule.injected.sorted(by: { $0.key < $1.key }) {
                figures.record("faults_injected_\(kind)", Double(count), "faults")
            }
            for (kind, times) in schedule.recoveries.sorted(by: { $0.key < $1.key }) {
                figures.record("recovery_\(kind)_max", times.max() ?? 0, "s", decimals: 1)
                figures.record("recovery_\(kind)_mean", times.reduce(0, +) / Double(max(1, times.count)), "s", decimals: 1)
            }
            if !counts.clientErrors.isEmpty {
                print(
                    "# 4xx other than 409: "
                        + counts.clientErrors.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { "\($0.key) × \($0.value)" }
                        .joined(separator: ", "))
            }
            if counts.failedDuringRollingRestart > 0 {
                violations.append(
                    "rolling_restart: \(counts.failedDuringRollingRestart) request attempts failed while the gateways were replaced: "
                        + counts.rollingFailures.joined(separator: "; "))
            }
            // An outage answers 503 with Retry-After; any other 5xx is a defect (a failure the
            // service did not recognise as the dependency's).
            if counts.status5xx > 0 {
                violations.append(
                    "server_errors: \(counts.status5xx) answers were a 5xx other than 503: \(counts.serverErrors.joined(separator: ", "))")
            }
            if counts.status503 > counts.status503WithRetryAfter {
                violations.append("retry_after_missing: \(counts.status503 - counts.status503WithRetryAfter) answers were 503 without Retry-After")
            }
            violations += schedule.violations
            violations += cluster.crashes.map { "process_crashed: \($0)" }

            // The invariants, from the log and the tables. The log does not stop when the load
            // does: the timers go on (a PIX hold runs out 15 minutes after its booking, and its
            // expiry, the charge's withdrawal and the e-mail follow). A check that saw the log
            // move meanwhile may have caught a consumer or a projection an event behind: it is
            // made again once everything caught up; what is still wrong on a quiet log stays.
            var found: [String] = []
            for _ in 1...5 {
                let before = await probe.head()
                found = try await Self.invariants(settings, acknowledged: counts.acknowledged, logger: logger)
                let after = await probe.head()
                let quiet = if let before, let after { before == after } else { false }
                guard !found.isEmpty, !quiet else { break }
                _ = await probe.settle(broker: broker, within: .seconds(60))
            }
            violations += found
            // The producers stop first (every timer and reaction), then the projections take
            // what was written last, then they stop: the read models compared with their
            // rebuild stand at the head of a log that no longer moves.
            let projecoes: Set<String> = ["projections", "projections-2"]
            var statuses = await cluster.stop(except: projecoes)
            if let head = await probe.head() {
                let deadline = ContinuousClock.now + .seconds(60)
                while await !probe.caughtUp(to: head), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(200)) }
            }
            statuses.merge(await cluster.stopAll()) { $1 }
            for (name, status) in statuses.sorted(by: { $0.key < $1.key }) {
                violations.append("unclean_exit: \(name) ended with status \(status) after SIGTERM")
            }
            violations += try await Self.rebuiltReadModelsMatch(binary: binary, environment: cluster.environment, settings, logger: logger)
            violations += try await Self.deadLetters(broker)
        } catch {
            await cluster.killAll()
            // Whatever the schedule was doing, the servers run again when the harness ends.
            try? await LocalServers.startPostgres()
            try? await LocalServers.startRabbitMQ()
            throw error
        }
        figures.record("invariant_violations", Double(violations.count), "violations")
        for violation in violations { print("# VIOLATION \(violation)") }
        print("# seed \(seed): rerun with coworkflow-bench faults \(short ? "--short" : "--seconds \(seconds) --seed \(seed)")")
        if violations.isEmpty { try? FileManager.default.removeItem(at: directory) } else { throw ExitCode(1) }
    }

    /// The services' queues outlive a run; what an earlier run left in them belongs to a
    /// database that is gone.
    static func resetQueues(_ broker: AMQPSettings) async throws {
        let connection = AMQPConnection(settings: broker, name: "faults.reset")
        try await connection.open()
        for service in FaultCluster.consumers {
            try await connection.deleteQueue(Topology.queue(for: service))
            try await connection.deleteQueue(Topology.deadLetterQueue(for: service))
        }
        await connection.close()
    }

    /// Dead letters in RabbitMQ's dead-letter queues (the inbox's `dead` rows are an invariant of
    /// their own): a fault may cause a permanent error, and then it is listed with its reason.
    static func deadLetters(_ broker: AMQPSettings) async throws -> [String] {
        let connection = AMQPConnection(settings: broker, name: "faults.dlq")
        try await connection.open()
        var found: [String] = []
        for service in FaultCluster.consumers {
            let count = try await connection.messageCount(Topology.deadLetterQueue(for: service))
            if count > 0 { found.append("dead_letters: \(count) in \(Topology.deadLetterQueue(for: service))") }
        }
        await connection.close()
        return found
    }

    /// Every invariant query; each row it returns is a violation.
    static func invariants(_ settings: PostgresSettings, acknowledged: [String], logger: Logger) async throws -> [String] {
        var found: [String] = []
        try await withOwner(settings, logger: logger) { connection in
            try await connection.query("SET jit = off", logger: logger)
            let invariants =
                FaultInvariants.all + [
                    FaultInvariants.inbox(bindings: FaultCluster.bindings),
                    FaultInvariants.projectionsAtHead(checkpoints: ReadModels.all.map(\.checkpoint)),
                    FaultInvariants.acknowledgedBookingsStored(acknowledged),
                ]
            for invariant in invariants {
                let rows = try await connection.query(PostgresQuery(unsafeSQL: invariant.sql), logger: logger)
                for try await (detail) in rows.decode(String.self) { found.append("\(invariant.name): \(detail)") }
            }
        }
        return found
    }

    /// Each read model equals a rebuild of it from the log: the documents as the running
    /// projections left them, `coworkflow replay all --postgres`, the documents again, compared
    /// one by one.
    static func rebuiltReadModelsMatch(
        binary: String, environment: [String: String], _ settings: PostgresSettings, logger: Logger
    ) async throws
        -> [String]
    {
        let before = try await documents(settings, logger: logger)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["replay", "all", "--postgres"]
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        while process.isRunning { try await Task.sleep(for: .milliseconds(100)) }
        guard process.terminationStatus == 0 else {
            return ["read_model_rebuild: coworkflow replay all --postgres failed (\(process.terminationStatus))"]
        }
        let after = try await documents(settings, logger: logger)
        var found: [String] = []
        for key in Set(before.keys).union(after.keys).sorted() where before[key] != after[key] {
            switch (before[key], after[key]) {
            case (nil, _): found.append("read_model_rebuild: \(key) is missing from the live read model")
            case (_, nil): found.append("read_model_rebuild: \(key) is in the live read model but not in its rebuild")
            default: found.append("read_model_rebuild: \(key) differs from its rebuild: live \(before[key] ?? "") rebuilt \(after[key] ?? "")")
            }
            if found.count >= 20 { break }
        }
        return found
    }

    /// The catalog's revision document without `geracao`: a rebuild stamps its own random
    /// generation there on purpose (so that the catalog's ETag changes), the live one none.
    static func withoutGeneration(_ doc: String) -> String {
        doc.replacingOccurrences(of: #""geracao":-?[0-9]+,?"#, with: "", options: .regularExpression)
    }

    static func documents(_ settings: PostgresSettings, logger: Logger) async throws -> [String: String] {
        var documents: [String: String] = [:]
        try await withOwner(settings, logger: logger) { connection in
            let rows = try await connection.query("SELECT collection, key, doc FROM read_models", logger: logger)
            for try await (collection, key, doc) in rows.decode((String, String, String).self) {
                documents["\(collection)/\(key)"] = collection == "catalogo_revisao" ? Self.withoutGeneration(doc) : doc
            }
        }
        return documents
    }
}

/// How far behind the log the relay and the projections are, read from PostgreSQL directly.
struct Lag: Sendable {
    let settings: PostgresSettings
    let logger: Logger
    /// Where the consumers' queues are, for the diagnosis of a fault that did not recover.
    var broker: AMQPSettings?

    /// The head of the log (its last global position), nil when PostgreSQL does not answer.
    func head() async -> (Int64, Int64)? {
        try? await query("SELECT tx_id, position FROM events ORDER BY tx_id DESC, position DESC LIMIT 1").first ?? (0, 0)
    }

    /// The relay and the projections whose checkpoints are behind `head`, by name, and
    /// `relay` too when the relay has no checkpoint at all; nil when PostgreSQL does not answer.
    func behind(_ head: (Int64, Int64)) async -> [String]? {
        var names: [String] = []
        do {
            try await withOwner(settings, logger: logger) { connection in
                let rows = try await connection.query(
                    PostgresQuery(
                        unsafeSQL: """
                            SELECT name FROM subscription_checkpoints
                            WHERE (name = 'relay' OR name LIKE 'projection:%') AND (tx_id, position) < (\(head.0), \(head.1))
                            UNION ALL SELECT 'relay' WHERE NOT EXISTS (SELECT 1 FROM subscription_checkpoints WHERE name = 'relay')
                            ORDER BY name
                            """), logger: logger)
                for try await name in rows.decode(String.self) { names.append(name) }
            }
        } catch {
            return nil
        }
        return names
    }

    /// Whether the relay's and every projection's checkpoint is at or past `head`.
    func caughtUp(to head: (Int64, Int64)) async -> Bool { await behind(head)?.isEmpty == true }

    /// Waits until the checkpoints are at the head and the consumers' queues are empty, twice
    /// two seconds apart with no new event between.
    func settle(broker: AMQPSettings, within: Duration) async -> Bool {
        let deadline = ContinuousClock.now + within
        var calm = 0
        var last: (Int64, Int64)?
        while ContinuousClock.now < deadline {
            if let head = await bounded("the log's head", { await self.head() }) ?? nil,
                await bounded("the checkpoints", { await self.caughtUp(to: head) }) == true,
                await bounded("the queues", { await self.queuesEmpty(broker) }) == true
            {
                calm = last.map { $0 == head } == true ? calm + 1 : 1
                last = head
                if calm >= 2 { return true }
            } else {
                calm = 0
            }
            try? await Task.sleep(for: .seconds(2))
        }
        return false
    }

    /// Lines that say what holds recovery back: each checkpoint behind `head`, the sessions
    /// that wait for a lock or hold a transaction open (their query's start), and the
    /// consumers' queue depths.
    func diagnosis(head: (Int64, Int64)?) async -> [String] {
        var lines: [String] = []
        do {
            try await withOwner(settings, logger: logger) { connection in
                let (tx, position) = head ?? (Int64.max, Int64.max)
                let behind = try await connection.query(
                    """
                    SELECT name, tx_id, position, extract(epoch FROM now() - updated_at)::float8 FROM subscription_checkpoints
                    WHERE (name = 'relay' OR name LIKE 'projection:%') AND (tx_id, position) < (\(tx), \(position)) ORDER BY name
                    """, logger: logger)
                for try await (name, tx, position, age) in behind.decode((String, Int64, Int64, Double).self) {
                    lines.append("behind: \(name) at \(tx)/\(position), written \(String(format: "%.1f", age)) s ago")
                }
                let sessions = try await connection.query(
                    """
                    SELECT coalesce(application_name, ''), coalesce(state, ''), coalesce(wait_event_type || ':' || wait_event, ''),
                           extract(epoch FROM now() - coalesce(xact_start, query_start, backend_start))::float8,
                           cardinality(pg_blocking_pids(pid))::bigint, left(regexp_replace(coalesce(query, ''), '\\s+', ' ', 'g'), 160)
                    FROM pg_stat_activity
                    WHERE pid <> pg_backend_pid() AND backend_type = 'client backend'
                      AND (state <> 'idle' OR wait_event_type = 'Lock')
                    ORDER BY 4 DESC LIMIT 20
                    """, logger: logger)
                for try await (application, state, wait, seconds, blockers, query) in sessions.decode(
                    (String, String, String, Double, Int64, String).self)
                {
                    lines.append(
                        "session: \(application) \(state) \(wait) \(String(format: "%.1f", seconds)) s, blocked by \(blockers): \(query)")
                }
            }
        } catch {
            lines.append("PostgreSQL did not answer the diagnosis: \(String(reflecting: error).prefix(300))")
        }
        if let broker {
            let connection = AMQPConnection(settings: broker, name: "faults.diagnosis")
            if (try? await connection.open()) != nil {
                var depths: [String] = []
                for service in FaultCluster.consumers {
                    let count = try? await connection.messageCount(Topology.queue(for: service))
                    depths.append("\(service) \(count.map(String.init) ?? "?")")
                }
                await connection.close()
                lines.append("queues: " + depths.joined(separator: ", "))
            } else {
                lines.append("queues: RabbitMQ did not answer")
            }
        }
        return lines
    }

    private func queuesEmpty(_ broker: AMQPSettings) async -> Bool {
        let connection = AMQPConnection(settings: broker, name: "faults.settle")
        guard (try? await connection.open()) != nil else { return false }
        defer { Task { await connection.close() } }
        for service in FaultCluster.consumers {
            guard let count = try? await connection.messageCount(Topology.queue(for: service)), count == 0 else { return false }
        }
        return true
    }

    private func query(_ sql: String) async throws -> [(Int64, Int64)] {
        var result: [(Int64, Int64)] = []
        try await withOwner(settings, logger: logger) { connection in
            let rows = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
            for try await row in rows.decode((Int64, Int64).self) { result.append(row) }
        }
        return result
    }
}

/// The faults, one after another: each is injected, ended (the process restarted, the server
/// started, the link healed), and then timed until the deployment has recovered: every
/// deployable answers `/saude` and the relay and the projections have passed the head of the
/// log as it was when the fault ended.
final class Schedule: Sendable {
    enum Fault: Sendable {
        case kill(String)
        case postgres(immediate: Bool)
        case rabbitmq
        case partitionPostgres(String)
        case partitionBroker(String)
        case rollingGateways

        var kind: String {
            switch self {
            case .kill: "kill"
            case .postgres(let immediate): immediate ? "postgres_immediate_restart" : "postgres_fast_restart"
            case .rabbitmq: "rabbitmq_restart"
            case .partitionPostgres: "partition_postgres"
            case .partitionBroker: "partition_rabbitmq"
            case .rollingGateways: "gateway_rolling_restart"
            }
        }
    }

    /// The CI mode's faults: every kind, the kills on the active projections replica (it
    /// started first, so it holds the relay's and the runners' leases), a consumer and a
    /// reservas replica; the partitions on a reservas replica's database link and the active
    /// relay's broker link.
    static let shortList: [Fault] = [
        .kill("projections"), .kill("pagamentos"), .kill("reservas-2"), .postgres(immediate: false), .postgres(immediate: true), .rabbitmq,
        .partitionPostgres("reservas"), .partitionBroker("projections"), .rollingGateways,
    ]

    static func randomFault(_ cluster: FaultCluster, using random: inout SplitMix64) -> Fault {
        let targets = cluster.members.filter { $0.service != "sandbox" }.map(\.name)
        let target = targets[Int.random(in: 0..<targets.count, using: &random)]
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<35: return .kill(target)
        case 35..<45: return .postgres(immediate: Bool.random(using: &random))
        case 45..<55: return .rabbitmq
        case 55..<70: return .partitionPostgres(target)
        case 70..<85: return .partitionBroker(target)
        default: return .rollingGateways
        }
    }

    let cluster: FaultCluster
    let balancer: Balancer
    let lag: Lag
    let recoveryLimit: Duration
    private struct State {
        var injected: [String: Int] = [:]
        var recoveries: [String: [Double]] = [:]
        var violations: [String] = []
    }
    private let state = Mutex(State())

    init(cluster: FaultCluster, balancer: Balancer, lag: Lag, recoveryLimit: Duration) {
        self.cluster = cluster
        self.balancer = balancer
        self.lag = lag
        self.recoveryLimit = recoveryLimit
    }

    var injected: [String: Int] { state.withLock { $0.injected } }
    var recoveries: [String: [Double]] { state.withLock { $0.recoveries } }
    var violations: [String] { state.withLock { $0.violations } }

    private func violation(_ text: String) { state.withLock { $0.violations.append(text) } }

    func inject(_ fault: Fault, random: inout SplitMix64) async {
        let pause = Duration.milliseconds(Int.random(in: 500...6000, using: &random))
        let started = ContinuousClock.now
        say("# \(String(format: "%7.1f", Self.seconds(since: Self.epoch))) s: \(fault.kind) \(Self.target(fault)) (\(pause) down)")
        do {
            switch fault {
            case .kill(let name):
                await cluster.kill(name)
                try await Task.sleep(for: pause)
                try cluster.restart(name)
            case .postgres(let immediate):
                try await LocalServers.stopPostgres(immediate: immediate)
                try await Task.sleep(for: pause)
                try await LocalServers.startPostgres()
            case .rabbitmq:
                try await LocalServers.stopRabbitMQ()
                try await Task.sleep(for: pause)
                try await LocalServers.startRabbitMQ()
            case .partitionPostgres(let name):
                await cluster.postgresProxies[name]?.stall()
                try await Task.sleep(for: pause * 2)
                await cluster.postgresProxies[name]?.resume()
            case .partitionBroker(let name):
                await cluster.brokerProxies[name]?.stall()
                try await Task.sleep(for: pause * 2)
                await cluster.brokerProxies[name]?.resume()
            case .rollingGateways:
                try await rollGateways()
            }
        } catch {
            violation("fault_failed: \(fault.kind) \(Self.target(fault)): \(error)")
        }
        state.withLock { $0.injected[fault.kind, default: 0] += 1 }
        // Recovery: every deployable healthy, the relay and the projections past the head as
        // it is once PostgreSQL answers again.
        let ended = ContinuousClock.now
        let deadline = ended + recoveryLimit
        var head: (Int64, Int64)?
        // What recovered last (a deployable's health, a checkpoint), to say what took the time.
        var last: [String: Double] = [:]
        while ContinuousClock.now < deadline {
            if head == nil { head = await bounded("the log's head") { await self.lag.head() } ?? nil }
            let healthy = await bounded("/saude of every deployable", { await self.cluster.allHealthy() }) == true
            if !healthy { last["/saude", default: 0] = Self.seconds(since: ended) }
            if let head, healthy, let behind = await bounded("the checkpoints", { await self.lag.behind(head) }) ?? nil {
                for name in behind { last[name] = Self.seconds(since: ended) }
                if behind.isEmpty {
                    let seconds = Self.seconds(since: ended)
                    state.withLock { $0.recoveries[fault.kind, default: []].append(seconds) }
                    let slowest = last.sorted { $0.value > $1.value }.prefix(3).map { "\($0.key) \(String(format: "%.1f", $0.value)) s" }
                    say(
                        "#          recovered in \(String(format: "%.1f", seconds)) s (fault \(String(format: "%.1f", Self.seconds(since: started))) s in all)"
                            + (slowest.isEmpty ? "" : "; last: " + slowest.joined(separator: ", "))
                    )
                    return
                }
            }
            try? await Task.sleep(for: .milliseconds(250))
        }
        violation("no_recovery: \(fault.kind) \(Self.target(fault)): not healthy and caught up within \(recoveryLimit)")
        await diagnose(head: head)
    }

    /// Why the deployment has not recovered, as far as can be seen from outside: the
    /// deployables that are not healthy, the checkpoints still behind the head, the PostgreSQL
    /// sessions that wait or hold a transaction open, and the consumers' queues.
    private func diagnose(head: (Int64, Int64)?) async {
        say("#          why: the log's head \(head.map { "\($0.0)/\($0.1)" } ?? "unknown")")
        for line in await bounded("/saude of every deployable", { await self.cluster.unhealthy() }) ?? ["(no answer)"] {
            say("#          unhealthy: \(line)")
        }
        for line in await bounded("the diagnosis's queries", { await self.lag.diagnosis(head: head) }) ?? ["(no answer)"] {
            say("#          \(line)")
        }
    }

    /// Each gateway in turn: out of service, `SIGTERM` (it finishes what it holds), started
    /// again, healthy, back in service. No request may fail meanwhile.
    private func rollGateways() async throws {
        balancer.rolling(true)
        defer { balancer.rolling(false) }
        for gateway in cluster.gateways {
            balancer.deregister(gateway.url)
            try await Task.sleep(for: .milliseconds(300))
            let status = await cluster.terminate(gateway.name)
            if status != 0 { violation("unclean_exit: \(gateway.name) ended with status \(status) on a rolling restart") }
            try cluster.restart(gateway.name)
            try await cluster.waitUntilHealthy(gateway.name, within: .seconds(60))
            balancer.register(gateway.url)
        }
    }

    static let epoch = ContinuousClock.now
    static func seconds(since instant: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - instant
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    static func target(_ fault: Fault) -> String {
        switch fault {
        case .kill(let name), .partitionPostgres(let name), .partitionBroker(let name): name
        default: ""
        }
    }
}

/// Set once, read by every member's loop.
final class StopFlag: Sendable {
    private let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .relaxed) }
    func set() { value.store(true, ordering: .relaxed) }
}

/// A progress line, written at once (not held in stdout's buffer: a run cut short, by CI's time
/// limit say, still shows how far it got).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// What `operation` returns, or nil when it has not within `limit` (it is left to finish on its
/// own): a probe of a deployment under faults must not hang the harness with it.
func bounded<T: Sendable>(_ what: String, within limit: Duration = .seconds(10), _ operation: @escaping @Sendable () async -> T) async -> T? {
    let once = FirstAnswer<T>()
    return await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
        once.wait(continuation)
        Task { once.finish(await operation()) }
        Task {
            try? await Task.sleep(for: limit)
            if once.finish(nil) { say("#          (\(what) did not answer within \(limit))") }
        }
    }
}

/// The first of several answers, handed to one waiting continuation.
final class FirstAnswer<T: Sendable>: Sendable {
    private let state = Mutex<(done: Bool, continuation: CheckedContinuation<T?, Never>?)>((false, nil))

    func wait(_ continuation: CheckedContinuation<T?, Never>) { state.withLock { $0.continuation = continuation } }

    /// Whether this answer was the first.
    @discardableResult
    func finish(_ value: T?) -> Bool {
        let waiting = state.withLock { state -> CheckedContinuation<T?, Never>? in
            guard !state.done else { return nil }
            state.done = true
            return state.continuation
        }
        waiting?.resume(returning: value)
        return waiting != nil
    }
}
