import Foundation
import Testing

/// One deployable's `/metrics`, parsed by prometheus_client's own parser (`scripts/parse-metrics.py`,
/// with the `python3` the test run puts first on PATH): the test fails if the text does not parse.
struct MetricsScrape {
    /// Sample name (`coworkflow_bookings_total`, `…_bucket`) → its samples' labels and values.
    let samples: [String: [(labels: [String: String], value: Double)]]
    /// Family names as the parser gives them (a counter's without `_total`) → type.
    let types: [String: String]

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    init(_ text: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.root.appendingPathComponent("scripts/parse-metrics.py").path]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let complaint = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ScrapeError(message: "the exposition did not parse (\(process.terminationStatus)): \(complaint)")
        }
        let families = try #require(try JSONSerialization.jsonObject(with: data) as? [String: [String: Any]])
        var samples: [String: [(labels: [String: String], value: Double)]] = [:]
        var types: [String: String] = [:]
        for (name, family) in families {
            types[name] = family["type"] as? String
            for case let sample as [Any] in family["samples"] as? [Any] ?? [] where sample.count == 3 {
                guard let sampleName = sample[0] as? String, let labels = sample[1] as? [String: String] else { continue }
                samples[sampleName, default: []].append((labels, (sample[2] as? NSNumber)?.doubleValue ?? .nan))
            }
        }
        self.samples = samples
        self.types = types
    }

    /// Whether the metric `name` (as in infra/observability/metrics.txt) is in the scrape.
    func has(_ name: String) -> Bool {
        samples[name] != nil || types[name] != nil
            || (name.hasSuffix("_total") && types[String(name.dropLast(6))] == "counter")
    }

    /// The sum of the samples named `name` whose labels include `labels`.
    func value(_ name: String, _ labels: [String: String] = [:]) -> Double {
        (samples[name] ?? []).filter { sample in labels.allSatisfy { sample.labels[$0.key] == $0.value } }.map(\.value).reduce(0, +)
    }

    /// The names of infra/observability/metrics.txt: what dashboards and alerts use.
    static func catalog() throws -> [String] {
        let text = try String(contentsOf: root.appendingPathComponent("infra/observability/metrics.txt"), encoding: .utf8)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }.compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    struct ScrapeError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
