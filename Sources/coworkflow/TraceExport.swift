import ArgumentParser
import Logging
import OTel
import ServiceLifecycle
import Telemetry

/// Traces, exported over OTLP/HTTP by swift-otel when `OTEL_EXPORTER_OTLP_ENDPOINT` (or
/// `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set, off otherwise. The other `OTEL_*` variables of
/// the OpenTelemetry specification apply (swift-otel reads them): `OTEL_TRACES_SAMPLER` and
/// `OTEL_TRACES_SAMPLER_ARG` (default: parentbased_always_on), `OTEL_BSP_SCHEDULE_DELAY`,
/// `OTEL_SERVICE_NAME` (default: the deployable), `OTEL_RESOURCE_ATTRIBUTES`. Metrics stay on
/// Prometheus and logs on standard error (docs/observability.md).
enum TraceExport {
    /// The exporter's background service (to run first in the process's service group, so
    /// that it stops last and flushes the others' spans), or nil when traces are off.
    static func start(service: String, environment: [String: String], logger: Logger) throws -> (any Service)? {
        let endpoint = environment["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] ?? environment["OTEL_EXPORTER_OTLP_ENDPOINT"]
        guard let endpoint, !endpoint.isEmpty, environment["OTEL_SDK_DISABLED"]?.lowercased() != "true",
            environment["OTEL_TRACES_EXPORTER"]?.lowercased() != "none"
        else { return nil }
        // swift-otel reads these too; read here they are checked first and named in the log.
        let sampler = environment["OTEL_TRACES_SAMPLER"] ?? "parentbased_always_on"
        let ratio = environment["OTEL_TRACES_SAMPLER_ARG"]
        if let ratio, !ratio.isEmpty, Double(ratio).map({ (0...1).contains($0) }) != true {
            throw ValidationError("OTEL_TRACES_SAMPLER_ARG must be a ratio between 0 and 1, not '\(ratio)'")
        }
        var configuration = OTel.Configuration.default
        configuration.serviceName = environment["OTEL_SERVICE_NAME"].flatMap { $0.isEmpty ? nil : $0 } ?? service
        configuration.logs.enabled = false
        configuration.metrics.enabled = false
        configuration.traces.otlpExporter.protocol = .httpProtobuf
        configuration.diagnosticLogger = .custom(logger)
        configuration.diagnosticLogLevel = .warning
        let backend = try OTel.makeTracingBackend(configuration: configuration)
        Traces.bootstrap(backend.factory)
        logger.info("traces exported over OTLP/HTTP to \(endpoint)", metadata: ["sampler": "\(sampler)", "ratio": "\(ratio ?? "-")"])
        return backend.service
    }

    /// The trace and span ids of the current span in every log line (`trace_id`, `span_id`,
    /// `trace_flags`), so a log store joins a request's lines across services and to its trace.
    static let logMetadata: Logger.MetadataProvider = OTel.makeLoggingMetadataProvider()
}
