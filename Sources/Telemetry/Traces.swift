import Synchronization
public import Tracing

/// The process's traces: swift-distributed-tracing's API, exported by swift-otel when the
/// composition root bootstraps it (`OTEL_EXPORTER_OTLP_ENDPOINT`; docs/observability.md).
///
/// A trace crosses what HTTP headers cannot: the W3C `traceparent` of the span that appended
/// an event rides in the event's metadata, and the relay's in the AMQP message's headers, so a
/// consumer's work (hours later for a timer) continues the trace of the request that caused it.
/// Until ``bootstrap(_:)`` runs every call here is a no-op that allocates nothing.
public enum Traces {
    private static let on = Atomic<Bool>(false)

    /// Whether spans are being recorded anywhere (an exporter was bootstrapped).
    public static var enabled: Bool { on.load(ordering: .relaxed) }

    /// Makes `tracer` the process's tracer (once per process, by the composition root).
    public static func bootstrap(_ tracer: some Tracer) {
        InstrumentationSystem.bootstrap(tracer)
        on.store(true, ordering: .relaxed)
    }

    /// `body` in a span named `name` (a child of `context`, else of the current one); with
    /// tracing off, `body` alone, with a span that records nothing. `onlyInTrace`: no span
    /// either when there is no current span to be the child of (a store write of a timer or of
    /// an inbox is part of a trace or of none; it starts no trace of its own).
    public static func withSpan<T>(
        _ name: String, ofKind kind: SpanKind = .internal, context: InstrumentationContext? = nil, onlyInTrace: Bool = false,
        isolation: isolated (any Actor)? = #isolation, _ body: (any Span) async throws -> T
    ) async rethrows -> T {
        guard enabled else { return try await body(NoOpTracer.NoOpSpan(context: .topLevel)) }
        let parent = context ?? .current ?? .topLevel
        if onlyInTrace, traceparent(of: parent) == nil { return try await body(NoOpTracer.NoOpSpan(context: parent)) }
        return try await Tracing.withSpan(name, context: parent, ofKind: kind, isolation: isolation, body)
    }

    /// `body` in a span continuing the trace `traceparent` names: a timer's work on behalf of
    /// the request that set it, hours later. Without one (or with tracing off), `body` alone.
    @discardableResult
    public static func continuing<T>(
        _ traceparent: String?, _ name: String, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
    ) async rethrows -> T {
        guard enabled, let traceparent else { return try await body() }
        return try await withSpan(name, context: context(traceparent: traceparent), isolation: isolation) { _ in try await body() }
    }

    /// The `traceparent` of `context`'s span, nil when there is none (or tracing is off).
    public static func traceparent(of context: InstrumentationContext) -> String? {
        guard enabled else { return nil }
        var carrier: [String: String] = [:]
        InstrumentationSystem.instrument.inject(context, into: &carrier, using: DictionaryInjector())
        return carrier["traceparent"]
    }

    /// A context whose span is the one `traceparent` names (the parent of the spans started in
    /// it); the top-level context when there is none or it is not a valid one.
    public static func context(traceparent: String?) -> InstrumentationContext {
        var context = InstrumentationContext.current ?? .topLevel
        guard enabled, let traceparent else { return context }
        InstrumentationSystem.instrument.extract(["traceparent": traceparent], into: &context, using: DictionaryExtractor())
        return context
    }
}

struct DictionaryInjector: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) {
        carrier[key] = value
    }
}

struct DictionaryExtractor: Extractor {
    func extract(key: String, from carrier: [String: String]) -> String? {
        carrier[key]
    }
}
