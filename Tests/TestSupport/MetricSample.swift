import Telemetry

/// The value of one series in this process's registry (``Telemetry/render()``): the sample
/// `name` whose labels are exactly `labels`, in the order given; 0 when it is not there yet.
/// The registry is the process's, shared by every test: assert on how a series moves.
public func metricSample(_ name: String, _ labels: KeyValuePairs<String, String> = [:]) -> Double {
    let prefix = labels.isEmpty ? name + " " : name + "{" + labels.map { "\($0.key)=\"\($0.value)\"" }.joined(separator: ",") + "} "
    for line in Telemetry.render().split(separator: "\n") where line.hasPrefix(prefix) {
        return Double(line.dropFirst(prefix.count)) ?? .nan
    }
    return 0
}
