import Foundation

/// `scripts/otlp-receiver.py` (PyPI's opentelemetry-proto) on a free loopback port: the spans
/// the deployables export over OTLP/HTTP, decoded, one JSON object per span in a file.
final class TraceReceiver {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/otlp-receiver.py")

    struct Span: Decodable, Hashable {
        let traceId: String
        let spanId: String
        let parentSpanId: String
        let name: String
        let kind: String
        let service: String
    }

    let process: Process
    let port: Int
    let directory: URL
    var endpoint: String { "http://127.0.0.1:\(port)" }

    private init(process: Process, port: Int, directory: URL) {
        self.process = process
        self.port = port
        self.directory = directory
    }

    /// Starts the receiver (python3 from PATH) and waits for its `ready <port>` line.
    static func start() async throws -> TraceReceiver {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("coworkflow-otlp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let (process, port) = try await ReadyScript.start(
            script, ["--port", "0", "--out", directory.appendingPathComponent("spans.jsonl").path], in: directory)
        return TraceReceiver(process: process, port: port, directory: directory)
    }

    /// What a deployable needs to export its spans here at once (100 % sampled, small batches).
    var environment: [String: String] {
        ["OTEL_EXPORTER_OTLP_ENDPOINT": endpoint, "OTEL_BSP_SCHEDULE_DELAY": "100", "OTEL_TRACES_SAMPLER": "parentbased_always_on"]
    }

    /// Every span received so far.
    func spans() throws -> [Span] {
        let file = directory.appendingPathComponent("spans.jsonl")
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return [] }
        return try text.split(separator: "\n").map { try JSONDecoder().decode(Span.self, from: Data($0.utf8)) }
    }

    /// The spans received once `found` finds something in them, waiting up to `patience`.
    func waitFor<T>(_ patience: Duration = .seconds(20), _ found: ([Span]) -> T?) async throws -> (T?, [Span]) {
        let deadline = ContinuousClock.now + patience
        while true {
            let spans = try spans()
            if let result = found(spans) { return (result, spans) }
            guard ContinuousClock.now < deadline else { return (nil, spans) }
            try await Task.sleep(for: .milliseconds(200))
        }
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            for _ in 0..<100 where process.isRunning { usleep(20_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }
}
