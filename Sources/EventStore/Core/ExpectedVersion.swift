/// What a writer believes about a stream's version before appending (version 0 = no events).
public enum ExpectedVersion: Hashable, Sendable, CustomStringConvertible {
    /// Append whatever the stream's version is.
    case any
    /// The stream must not exist yet.
    case noStream
    /// The stream's last event must have exactly this version (≥ 1).
    case exact(Int64)

    /// The wire encoding shared by both stores: -1 any, 0 no stream, N exact.
    var code: Int64 {
        switch self {
        case .any: -1
        case .noStream: 0
        case .exact(let version): version
        }
    }

    func accepts(actual: Int64) -> Bool {
        switch self {
        case .any: true
        case .noStream: actual == 0
        case .exact(let version): actual == version
        }
    }

    public var description: String {
        switch self {
        case .any: "any"
        case .noStream: "no stream"
        case .exact(let version): "\(version)"
        }
    }
}
