import ArgumentParser

/// `coworkflow-bench`: throughput and latency figures, printed as `name: value unit` lines.
@main
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coworkflow-bench",
        abstract: "CoworkFlow benchmarks (figures only; nothing here asserts).",
        subcommands: [StoreBench.self, BusBench.self, BookingBench.self, ReplayBench.self, FloorBench.self, FloorServer.self, FaultsBench.self]
    )
}
