import EventStore
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

    var count: Int { samples.count }

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

/// The ~230-byte booking payloads every write workload uses, made before any timing starts:
/// the benchmark times the store, not UUID generation and string formatting.
enum Payload {
    static let pool: [String] = (0..<4_096).map(make)

    static func payload(_ n: Int) -> String { pool[n & 4_095] }

    private static func make(_ n: Int) -> String {
        let hour = 8 + n % 10
        return """
            {"reservationId":"\(UUID().uuidString.lowercased())","spaceId":"\(UUID().uuidString.lowercased())",\
            "start":"2026-12-01T\(hour < 10 ? "0" : "")\(hour):00:00Z","end":"2026-12-01T\(hour + 1 < 10 ? "0" : "")\(hour + 1):00:00Z",\
            "priceCents":\(5_000 + n % 10_000),"memberId":"\(UUID().uuidString.lowercased())"}
            """
    }
}

/// Event ids as the services make them (`EventIDs`, time-ordered, version 7), with the random
/// bits hashed (SplitMix64) from an operation number and a per-workload salt: unique for the run
/// without a system call for randomness each (Foundation's `UUID()` and `EventIDs.next()` read
/// the kernel's random source every time, which would dominate the client side of a cheap append).
enum FastID {
    /// A fresh salt for one workload.
    static func salt() -> UInt64 { UInt64.random(in: .min ... .max) }

    static func uuid(_ n: Int, salt: UInt64) -> UUID {
        let high = mix(salt ^ UInt64(truncatingIfNeeded: n))
        let low = mix(high ^ 0xD1B5_4A32_D192_ED03)
        return EventIDs.make(milliseconds: EventIDs.milliseconds(Date()), randomA: high, randomB: low)
    }

    /// A short stream id for operation `n` of a workload.
    static func streamID(_ n: Int, salt: UInt64) -> String {
        String(salt, radix: 36) + "_" + String(n, radix: 36)
    }

    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
