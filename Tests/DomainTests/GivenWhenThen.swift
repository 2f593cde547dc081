import Domain

/// Given past events, when a command, then these events or this error: the decider test form.
struct Scenario<Command, State: Sendable, Event: Equatable, Failure: Error & Equatable> {
    let decider: Decider<Command, State, Event, Failure>
    var history: [Event] = []
    var command: Command?

    init(_ decider: Decider<Command, State, Event, Failure>) { self.decider = decider }

    func given(_ events: Event...) -> Self { given(events) }

    /// `given` for a history built in a loop or by running commands.
    func given(_ events: [Event]) -> Self {
        var copy = self
        copy.history = events
        return copy
    }

    func when(_ command: Command) -> Self {
        var copy = self
        copy.command = command
        return copy
    }

    enum Outcome: Equatable {
        case events([Event])
        case failure(Failure)
    }

    /// What the decider answered.
    var outcome: Outcome {
        guard let command else { preconditionFailure("a scenario needs a command") }
        do {
            return .events(try decider.run(given: history, command))
        } catch {
            return .failure(error)
        }
    }
}
