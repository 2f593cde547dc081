import ArgumentParser

/// The one executable: `coworkflow <command>`.
@main
struct Coworkflow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coworkflow",
        abstract: "CoworkFlow: event-sourced booking for coworking operators.",
        subcommands: [Serve.self, Migrate.self, RelayCommand.self, Admin.self, Replay.self]
    )
}
