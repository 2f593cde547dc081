import CoreMetrics
import Foundation
import Synchronization

/// The process's CPU time, memory and file descriptors, read from `/proc/self` when scraped
/// (swift-metrics 2.13 has no process collector; elsewhere than Linux the figures stay 0).
final class ProcessMetrics: Sendable {
    static let shared = ProcessMetrics()

    private let cpu = FloatingPointCounter(label: Catalog.processCPU, dimensions: [], factory: Telemetry.factory)
    private let resident = Telemetry.gauge(Catalog.processRSS)
    private let virtual = Telemetry.gauge(Catalog.processVirtual)
    private let openFDs = Telemetry.gauge(Catalog.processOpenFDs)
    private let maxFDs = Telemetry.gauge(Catalog.processMaxFDs)
    private let start = Telemetry.gauge(Catalog.processStart)
    /// CPU seconds already counted: the counter only moves forward by the difference.
    private let counted = Mutex(0.0)

    /// Clock ticks per second and the page size (sysconf); 100 and 4096 on Linux as built.
    private let ticks = Double(max(1, sysconf(Int32(_SC_CLK_TCK))))
    private let page = Double(max(1, sysconf(Int32(_SC_PAGESIZE))))

    /// The start time does not change: read once (boot time from /proc/stat) and recorded.
    private init() {
        if let stat = Self.stat(), let boot = Self.bootTime() { start.record(boot + stat.starttime / ticks) }
    }

    func update() {
        if let stat = Self.stat() {
            let seconds = (stat.utime + stat.stime) / ticks
            let delta = counted.withLock { counted -> Double in
                let delta = seconds - counted
                if delta > 0 { counted = seconds }
                return delta
            }
            if delta > 0 { cpu.increment(by: delta) }
            resident.record(stat.rss * page)
            virtual.record(stat.vsize)
        }
        if let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") { openFDs.record(entries.count) }
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 { maxFDs.record(Double(limit.rlim_cur)) }
    }

    /// `/proc/self/stat`'s fields after the command name (which may hold spaces and parentheses).
    private static func stat() -> (utime: Double, stime: Double, starttime: Double, vsize: Double, rss: Double)? {
        guard let text = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        // Field 3 (state) is the first after ") "; utime is field 14, stime 15, starttime 22,
        // vsize 23, rss 24 (proc(5)).
        let fields = text[text.index(after: close)...].split(separator: " ")
        func field(_ number: Int) -> Double? { fields.count > number - 3 ? Double(fields[number - 3]) : nil }
        guard let utime = field(14), let stime = field(15), let starttime = field(22), let vsize = field(23), let rss = field(24)
        else { return nil }
        return (utime, stime, starttime, vsize, rss)
    }

    /// The system's boot time (`btime` in /proc/stat), seconds since the epoch.
    private static func bootTime() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("btime ") {
            return Double(line.dropFirst(6).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }
}
