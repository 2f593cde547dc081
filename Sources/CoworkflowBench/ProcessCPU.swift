import Foundation

/// CPU time (user + system) that groups of processes have used, read from Linux's `/proc`:
/// the benchmark's way to say what a request costs the whole machine, which drifts far less
/// between runs on a shared VM than the requests per second do.
struct ProcessCPU {
    /// The processes that count, each under a group name: the servers the benchmark started
    /// by their pids, PostgreSQL's and RabbitMQ's by their command name (every backend of the
    /// server: nothing else uses it during a run).
    struct Groups {
        var pids: [Int32: String] = [:]
        var commands: [String: String] = [:]
    }

    let groups: Groups
    private let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    /// Seconds of CPU per group, now: processes that ended since an earlier reading are missing
    /// from this one (the figures compare readings around a run, when none end).
    func reading() -> [String: Double] {
        var seconds: [String: Double] = [:]
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return seconds }
        for entry in entries {
            guard let pid = Int32(entry), let (command, ticks) = Self.stat(pid) else { continue }
            guard let group = groups.pids[pid] ?? groups.commands[command] else { continue }
            seconds[group, default: 0] += Double(ticks) / ticksPerSecond
        }
        return seconds
    }

    /// The command name and the user + system clock ticks of a process (`/proc/<pid>/stat`:
    /// the name is in parentheses and may hold spaces; utime and stime are the 12th and 13th
    /// fields after it).
    private static func stat(_ pid: Int32) -> (String, Int)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")")
        else { return nil }
        let command = String(text[text.index(after: open)..<close])
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return (command, user + system)
    }

    /// Seconds of CPU of the ended children this process has waited for (`RUSAGE_CHILDREN`).
    static func waitedChildren() -> Double {
        var usage = rusage()
        guard getrusage(RUSAGE_CHILDREN.rawValue, &usage) == 0 else { return 0 }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// Milliseconds of CPU per request between two readings, per group and in all.
    static func perRequest(from before: [String: Double], to after: [String: Double], requests: Int) -> (total: Double, groups: [(String, Double)]) {
        guard requests > 0 else { return (.nan, []) }
        let groups = after.keys.sorted().map { ($0, max(0, after[$0, default: 0] - before[$0, default: 0]) * 1_000 / Double(requests)) }
        return (groups.reduce(0) { $0 + $1.1 }, groups)
    }
}
