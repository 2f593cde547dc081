import Foundation
import HTTPTypes
import Synchronization

/// Request counts and latency histograms per method, route and status, in Prometheus text.
public final class Metrics: Sendable {
    static let buckets: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]

    private struct Series {
        var count = 0
        var sum = 0.0
        var buckets = [Int](repeating: 0, count: Metrics.buckets.count)
    }

    private let series = Mutex<[String: Series]>([:])
    /// Extra gauges and counters read when scraped (events appended, relay lag, …).
    private let sources = Mutex<[(name: String, help: String, type: String, read: @Sendable () -> Double)]>([])

    public init() {}

    func observe(method: String, route: String, status: Int, duration: Duration) {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        let key = "method=\"\(Self.escaped(method))\",route=\"\(Self.escaped(route))\",status=\"\(status)\""
        series.withLock { all in
            var entry = all[key] ?? Series()
            entry.count += 1
            entry.sum += seconds
            for (index, bound) in Self.buckets.enumerated() where seconds <= bound { entry.buckets[index] += 1 }
            all[key] = entry
        }
    }

    /// A label value in Prometheus' text format: backslash, quote and line feed escaped.
    static func escaped(_ value: String) -> String {
        guard value.contains(where: { $0 == "\\" || $0 == "\"" || $0 == "\n" }) else { return value }
        return value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }

    public func register(_ name: String, help: String, type: String = "gauge", _ read: @escaping @Sendable () -> Double) {
        sources.withLock { $0.append((name, help, type, read)) }
    }

    /// The method's name, or "(outro)" for a method HTTP does not define: a client may send
    /// any token there.
    static func method(_ method: HTTPRequest.Method) -> String {
        known.contains(method) ? method.rawValue : "(outro)"
    }

    private static let known: Set<HTTPRequest.Method> = [.get, .head, .post, .put, .patch, .delete, .options, .connect, .trace]

    public func render() -> String {
        var text = "# HELP coworkflow_http_requests_total HTTP requests by method, route and status.\n"
        text += "# TYPE coworkflow_http_requests_total counter\n"
        let snapshot = series.withLock { $0 }.sorted { $0.key < $1.key }
        for (labels, entry) in snapshot { text += "coworkflow_http_requests_total{\(labels)} \(entry.count)\n" }
        text += "# HELP coworkflow_http_request_duration_seconds HTTP request latency.\n"
        text += "# TYPE coworkflow_http_request_duration_seconds histogram\n"
        for (labels, entry) in snapshot {
            for (index, bound) in Self.buckets.enumerated() {
                text += "coworkflow_http_request_duration_seconds_bucket{\(labels),le=\"\(bound)\"} \(entry.buckets[index])\n"
            }
            text += "coworkflow_http_request_duration_seconds_bucket{\(labels),le=\"+Inf\"} \(entry.count)\n"
            text += "coworkflow_http_request_duration_seconds_sum{\(labels)} \(entry.sum)\n"
            text += "coworkflow_http_request_duration_seconds_count{\(labels)} \(entry.count)\n"
        }
        for source in sources.withLock({ $0 }) {
            text += "# HELP \(source.name) \(source.help)\n# TYPE \(source.name) \(source.type)\n\(source.name) \(source.read())\n"
        }
        return text
    }
}
