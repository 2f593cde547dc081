public import CoreMetrics
import Foundation
public import Prometheus
import Synchronization

/// The process's metrics: swift-metrics' API (`Counter`, `Timer`, `Meter`, …) over one
/// swift-prometheus registry, which `/metrics` renders (docs/observability.md).
///
/// Every layer records through ``factory`` explicitly rather than through the global
/// `MetricsSystem`: a metric object keeps the factory it was made with, so one made before a
/// bootstrap would count into nothing for the life of the process (a store opened by a test
/// before the first app). ``bootstrap()`` (the composition root) also hands the factory to
/// `MetricsSystem`, for the metrics of other libraries.
public enum Telemetry {
    /// Everything this process measures.
    public static let registry = PrometheusCollectorRegistry()

    /// Makes the registry's metrics with the names, help texts and buckets of ``Catalog``;
    /// a name from another library is made a valid Prometheus name.
    public static let factory: any MetricsFactory = CatalogedFactory(registry: registry)

    /// Hands ``factory`` to `MetricsSystem` (once per process: the composition root).
    public static func bootstrap() {
        MetricsSystem.bootstrap(factory)
    }

    /// The Prometheus text exposition of everything, the process's own figures and the
    /// ``collect(_:)`` gauges read now.
    public static func render() -> String {
        ProcessMetrics.shared.update()
        collectors.withLock { $0.removeAll { !$0() } }
        return registry.emitToString()
    }

    private static let collectors = Mutex<[@Sendable () -> Bool]>([])

    /// Runs `read` before each render, to set gauges of state held elsewhere (a pool's
    /// connections); it returns false once what it reads is gone, and is then dropped.
    public static func collect(_ read: @escaping @Sendable () -> Bool) {
        collectors.withLock { $0.append(read) }
    }

    public static func counter(_ name: String, _ dimensions: [(String, String)] = []) -> CoreMetrics.Counter {
        CoreMetrics.Counter(label: name, dimensions: dimensions, factory: factory)
    }

    public static func gauge(_ name: String, _ dimensions: [(String, String)] = []) -> CoreMetrics.Gauge {
        CoreMetrics.Gauge(label: name, dimensions: dimensions, factory: factory)
    }

    /// A gauge moved up and down (requests waiting, connections in use).
    public static func meter(_ name: String, _ dimensions: [(String, String)] = []) -> CoreMetrics.Meter {
        CoreMetrics.Meter(label: name, dimensions: dimensions, factory: factory)
    }

    /// A histogram of values (``Catalog/valueBuckets``).
    public static func histogram(_ name: String, _ dimensions: [(String, String)] = []) -> CoreMetrics.Recorder {
        CoreMetrics.Recorder(label: name, dimensions: dimensions, aggregate: true, factory: factory)
    }

    /// A histogram of durations, in seconds.
    public static func timer(_ name: String, _ dimensions: [(String, String)] = []) -> CoreMetrics.Timer {
        CoreMetrics.Timer(label: name, dimensions: dimensions, preferredDisplayUnit: .seconds, factory: factory)
    }
}

extension CoreMetrics.Timer {
    /// Records a duration given in seconds (a lateness, a lag); negative values count as 0.
    public func record(seconds: Double) {
        recordNanoseconds(Int64(max(0, min(seconds, 1e9)) * 1e9))
    }

    /// Records the time since `start`.
    public func record(since start: ContinuousClock.Instant) {
        record(ContinuousClock.now - start)
    }

    public func record(_ duration: Duration) {
        recordNanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }
}

/// swift-metrics' factory over the registry, with ``Catalog``'s help texts and buckets.
struct CatalogedFactory: MetricsFactory {
    let registry: PrometheusCollectorRegistry

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        let (name, labels) = Self.sanitized(label, dimensions)
        return registry.makeCounter(descriptor: Self.descriptor(name), labels: labels)
    }

    func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
        let (name, labels) = Self.sanitized(label, dimensions)
        return registry.makeCounter(descriptor: Self.descriptor(name), labels: labels)
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        let (name, labels) = Self.sanitized(label, dimensions)
        guard aggregate else { return registry.makeGauge(descriptor: Self.descriptor(name), labels: labels) }
        return registry.makeValueHistogram(descriptor: Self.descriptor(name), labels: labels, buckets: Catalog.valueBuckets)
    }

    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        let (name, labels) = Self.sanitized(label, dimensions)
        return registry.makeGauge(descriptor: Self.descriptor(name), labels: labels)
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        let (name, labels) = Self.sanitized(label, dimensions)
        return registry.makeDurationHistogram(descriptor: Self.descriptor(name), labels: labels, buckets: Catalog.buckets(name))
    }

    func destroyCounter(_ handler: any CounterHandler) {
        if let counter = handler as? Prometheus.Counter { registry.unregisterCounter(counter) }
    }

    func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {
        if let counter = handler as? Prometheus.Counter { registry.unregisterCounter(counter) }
    }

    func destroyRecorder(_ handler: any RecorderHandler) {
        if let gauge = handler as? Prometheus.Gauge { registry.unregisterGauge(gauge) }
        if let histogram = handler as? ValueHistogram { registry.unregisterValueHistogram(histogram) }
    }

    func destroyMeter(_ handler: any MeterHandler) {
        if let gauge = handler as? Prometheus.Gauge { registry.unregisterGauge(gauge) }
    }

    func destroyTimer(_ handler: any TimerHandler) {
        if let histogram = handler as? DurationHistogram { registry.unregisterDurationHistogram(histogram) }
    }

    /// The name as it is, with the catalog's help text (none for another library's name).
    private static func descriptor(_ name: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: Catalog.help(name))
    }

    /// Prometheus' name rules: `[a-zA-Z_:][a-zA-Z0-9_:]*` for a metric, no colon in a label;
    /// anything else becomes `_` (`http.server.request.duration` → `http_server_request_duration`).
    static func sanitized(_ label: String, _ dimensions: [(String, String)]) -> (String, [(String, String)]) {
        (name(label, colon: true), dimensions.map { (name($0.0, colon: false), $0.1) })
    }

    private static func name(_ text: String, colon: Bool) -> String {
        var scalars = String.UnicodeScalarView()
        for (index, scalar) in text.unicodeScalars.enumerated() {
            let letter = ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_" || (colon && scalar == ":")
            let digit = ("0"..."9").contains(scalar)
            scalars.append(letter || (digit && index > 0) ? scalar : "_")
        }
        return scalars.isEmpty ? "_" : String(scalars)
    }
}

/// One timer's figures: the due items it found on its last pass, those it carried out, and
/// how late.
public struct TimerMetrics: Sendable {
    private let due: CoreMetrics.Gauge
    private let fired: CoreMetrics.Counter
    private let lateness: CoreMetrics.Timer

    /// `timer`: the timer's lease name (`reservas:prazos`).
    public init(_ timer: String) {
        let label = [("timer", timer)]
        due = Telemetry.gauge(Catalog.timerDue, label)
        fired = Telemetry.counter(Catalog.timerFired, label)
        lateness = Telemetry.timer(Catalog.timerLateness, label)
    }

    /// The pass found `count` items due.
    public func found(_ count: Int) { due.record(count) }

    /// An item carried out `seconds` after it fell due.
    public func fired(late seconds: Double) {
        fired.increment()
        lateness.record(seconds: seconds)
    }
}
