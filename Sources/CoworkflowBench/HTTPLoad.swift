import ArgumentParser
import Foundation

/// The load the HTTP benchmarks (`booking`, `floor`) put on their servers: wrk, two threads,
/// `connections` connections, for `seconds` a run; and how they start the servers.
struct HTTPLoad: ParsableArguments {
    @Flag(help: "A few seconds per run (for CI).")
    var short = false

    @Option(help: "Concurrent connections.")
    var connections = 32

    var seconds: Int { short ? 3 : 10 }

    struct Run {
        let perSecond: Double
        let p50: Double
        let p99: Double
        let failures: Int
        /// Milliseconds of CPU per request: every process that served the run (the servers, and
        /// PostgreSQL and RabbitMQ in distributed mode) and wrk, in all and per group.
        var cpu: (total: Double, groups: [(String, Double)]) = (.nan, [])
        /// Each ``Count``'s growth per request, the run's tail included.
        var counted: [(count: Count, perRequest: Double)] = []

        func record(_ name: String, into figures: inout Figures, unit: String, per request: String) {
            figures.record(name, perSecond, unit)
            figures.record("\(name)_p50", p50, "ms", decimals: 2)
            figures.record("\(name)_p99", p99, "ms", decimals: 2)
            figures.record("\(name)_non_2xx", Double(failures), "responses")
            for (count, perRequest) in counted { figures.record("\(name)_\(count.name)", perRequest, "\(count.name)/\(request)", decimals: 2) }
            guard !cpu.total.isNaN else { return }
            figures.record("\(name)_cpu", cpu.total, "ms/\(request)", decimals: 3)
            for (group, milliseconds) in cpu.groups { figures.record("\(name)_cpu_\(group)", milliseconds, "ms/\(request)", decimals: 3) }
        }
    }

    /// A count the servers keep, read before and after a run: the run records its growth per
    /// request as `<run>_<name>` (`booking_spread_statements: 14.2 statements/booking`).
    struct Count: Sendable {
        let name: String
        let read: @Sendable () async -> Int?
    }

    /// Two wrk threads (`BookingBench.lua` counts on it), `connections` connections. The CPU is read
    /// before wrk starts and once the servers are quiet again after it ended (``quiet(_:)``), so
    /// that the work the run left behind (projections and reactions catching up) counts for its
    /// requests, not for the next run's.
    /// `counts` are read at the same two moments as the CPU.
    func wrk(_ url: String, seconds: Int, script: URL?, args: [String], meter: ProcessCPU, counts: [Count] = []) async throws -> Run {
        var arguments = ["-t2", "-c\(connections)", "-d\(seconds)s", "--latency"]
        if let script { arguments += ["-s", script.path] }
        arguments.append(url)
        if !args.isEmpty { arguments += ["--"] + args }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/wrk")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        var countsBefore: [Int?] = []
        for count in counts { countsBefore.append(await count.read()) }
        var before = meter.reading()
        before["wrk"] = ProcessCPU.waitedChildren()
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw ValidationError("wrk failed:\n\(output)") }
        var after = try await Self.quiet(meter)
        // wrk has ended by then: its CPU is in the rusage of the children this process waited for.
        after["wrk"] = ProcessCPU.waitedChildren()
        var countsAfter: [Int?] = []
        for count in counts { countsAfter.append(await count.read()) }
        func value(after label: String) -> String? {
            output.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(label) }
                .map { $0.trimmingCharacters(in: .whitespaces).dropFirst(label.count).trimmingCharacters(in: .whitespaces) }
        }
        func milliseconds(_ text: String?) -> Double {
            guard let text else { return .nan }
            for (suffix, factor) in [("us", 0.001), ("ms", 1.0), ("s", 1_000.0), ("m", 60_000.0)] where text.hasSuffix(suffix) {
                return (Double(text.dropLast(suffix.count)) ?? .nan) * factor
            }
            return .nan
        }
        // "12345 requests in 10.00s, 4.56MB read"
        let requests =
            output.split(separator: "\n").lazy.compactMap { line -> Int? in
                let words = line.split(separator: " ")
                return words.count > 2 && words[1] == "requests" && words[2] == "in" ? Int(words[0]) : nil
            }.first ?? 0
        var run = Run(
            perSecond: Double(value(after: "Requests/sec:") ?? "") ?? .nan,
            p50: milliseconds(value(after: "50%")), p99: milliseconds(value(after: "99%")),
            failures: Int(value(after: "Non-2xx or 3xx responses:") ?? "0") ?? 0)
        run.cpu = ProcessCPU.perRequest(from: before, to: after, requests: requests)
        for (index, count) in counts.enumerated() where requests > 0 {
            if let first = countsBefore[index], let last = countsAfter[index] { run.counted.append((count, Double(last - first) / Double(requests))) }
        }
        return run
    }

    /// A reading of `meter` once its processes are quiet: at least a second after the run, when
    /// a quarter of a second went by in which they used less than a tenth of a core (pollers
    /// and timers only), at most 15 s. One second was too short: a consumer that fell behind
    /// during the run caught up in the next one, which then paid for it (session 45).
    static func quiet(_ meter: ProcessCPU) async throws -> [String: Double] {
        try await Task.sleep(for: .seconds(1))
        var last = meter.reading()
        for _ in 0..<56 {
            try await Task.sleep(for: .milliseconds(250))
            let now = meter.reading()
            let used = now.reduce(0) { $0 + $1.value - last[$1.key, default: 0] }
            last = now
            if used < 0.025 { break }
        }
        return last
    }

    static func launch(_ binary: String, _ arguments: [String], _ environment: [String: String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return process
    }
}
