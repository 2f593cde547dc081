import Foundation

/// Collects and prints figures as `name: value unit`.
struct Figures {
    private(set) var values: [String: Double] = [:]

    mutating func record(_ name: String, _ value: Double, _ unit: String, decimals: Int = 0) {
        values[name] = value
        print("\(name): \(String(format: "%.\(decimals)f", value)) \(unit)")
        fflush(nil)  // flushes every stream; `stdout` itself is not concurrency-safe to name
    }

    mutating func ratio(_ numerator: String, _ denominator: String) {
        guard let top = values[numerator], let bottom = values[denominator], bottom > 0 else { return }
        record("\(numerator)/\(denominator)", top / bottom, "x", decimals: 2)
    }
}

/// Latencies of individual operations, in milliseconds.
struct Latencies {
    private var samples: [Double] = []

    mutating func add(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        samples.append(Double(seconds) * 1_000 + Double(attoseconds) / 1e15)
    }

    mutating func merge(_ other: Latencies) { samples += other.samples }

    func percentile(_ p: Double) -> Double {
        guard !samples.isEmpty else { return 0 }
        let sorted = samples.sorted()
        let index = min(sorted.count - 1, Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1)
        return sorted[max(0, index)]
    }
}

extension Duration {
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

/// The ~230-byte booking payload every write workload uses.
enum Payload {
    static func make(_ n: Int) -> String {
        let hour = 8 + n % 10
        return """
            {"reservationId":"\(UUID().uuidString.lowercased())","spaceId":"\(UUID().uuidString.lowercased())",\
            "start":"2026-12-01T\(hour < 10 ? "0" : "")\(hour):00:00Z","end":"2026-12-01T\(hour + 1 < 10 ? "0" : "")\(hour + 1):00:00Z",\
            "priceCents":\(5_000 + n % 10_000),"memberId":"\(UUID().uuidString.lowercased())"}
            """
    }
}
