import Foundation
import Logging

/// `LOG_FORMAT=json`: one JSON object per line on standard error — `ts` (RFC 3339, UTC,
/// milliseconds), `level`, `message`, `service` (the deployable: `serve --service <name>`
/// names it, the all-in-one process is `coworkflow`), `logger` (the label), the `source` module
/// and every metadata key (`requestId` among them) — so a log store (CloudWatch Logs Insights)
/// can filter and join a request across services. Text (swift-log's `StreamLogHandler`) stays
/// the default on a terminal.
///
/// swift-log ships no JSON handler and the package mirror has none; this is the whole of one.
struct JSONLogHandler: LogHandler {
    let label: String
    /// The deployable this process is.
    let service: String
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info
    /// The trace and span ids of the current span (``TraceExport/logMetadata``).
    var metadataProvider: Logger.MetadataProvider?

    init(label: String, service: String = Self.processService) {
        self.label = label
        self.service = service
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// `serve --service reservas` → `reservas`; any other run (all-in-one, the relay, a one-off
    /// command) is `coworkflow`, or `coworkflow <command>` for one that is not `serve`.
    static let processService: String = {
        let arguments = CommandLine.arguments.dropFirst()
        if let flag = arguments.firstIndex(of: "--service"), arguments.index(after: flag) < arguments.endIndex {
            return arguments[arguments.index(after: flag)]
        }
        guard let command = arguments.first, command != "serve", !command.hasPrefix("-") else { return "coworkflow" }
        return "coworkflow \(command)"
    }()

    func log(event: LogEvent) {
        var fields: [String: Any] = [:]
        var merged = metadata
        if let provided = metadataProvider?.get(), !provided.isEmpty { merged.merge(provided) { _, new in new } }
        for (key, value) in merged.merging(event.metadata ?? [:], uniquingKeysWith: { _, new in new }) {
            fields[key] = Self.json(value)
        }
        fields["ts"] = Date.now.formatted(Self.instante)
        fields["level"] = event.level.rawValue
        fields["message"] = event.message.description
        fields["service"] = service
        fields["logger"] = label
        fields["source"] = event.source
        if let error = event.error { fields["error"] = String(describing: error) }
        guard var line = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        line.append(UInt8(ascii: "\n"))
        // One write per line: lines of several threads never interleave.
        line.withUnsafeBytes { bytes in _ = write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
    }

    private static let instante = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    private static func json(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let text): text
        case .stringConvertible(let convertible): convertible.description
        case .array(let values): values.map(json)
        case .dictionary(let values): values.mapValues(json)
        }
    }
}
