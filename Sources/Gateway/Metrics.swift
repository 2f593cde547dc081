import CoreMetrics
import Foundation
import HTTPTypes
import Synchronization
import Telemetry

/// The edge's request counts and latency histograms per method, route template and status,
/// recorded through swift-metrics into the process's registry (``Telemetry``).
///
/// Not Hummingbird's `MetricsMiddleware`: that one labels a series with the method token the
/// client sent (any token is valid HTTP, so a client could grow the registry without bound)
/// and counts a failure thrown as our `ServiceError` as a 500; here the method is one of
/// HTTP's or "(outro)", and the status is the one answered (docs/adr/0011-observability.md).
public final class Metrics: Sendable {
    private struct Key: Hashable {
        let method: String
        let route: String
        let status: Int
    }

    private let series = Mutex<[Key: (CoreMetrics.Counter, CoreMetrics.Timer)]>([:])

    public init() {}

    func observe(method: String, route: String, status: Int, duration: Duration) {
        let key = Key(method: method, route: route, status: status)
        let (counter, timer) = series.withLock { series in
            if let known = series[key] { return known }
            let labels = [("method", method), ("route", route), ("status", String(status))]
            let made = (Telemetry.counter(Catalog.httpRequests, labels), Telemetry.timer(Catalog.httpDuration, labels))
            series[key] = made
            return made
        }
        counter.increment()
        timer.record(duration)
    }

    /// The method's name, or "(outro)" for a method HTTP does not define: a client may send
    /// any token there.
    static func method(_ method: HTTPRequest.Method) -> String {
        known.contains(method) ? method.rawValue : "(outro)"
    }

    private static let known: Set<HTTPRequest.Method> = [.get, .head, .post, .put, .patch, .delete, .options, .connect, .trace]
}
