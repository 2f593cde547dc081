/// A functional decider: the whole behaviour of one aggregate as three pure functions.
///
/// `decide` turns a command and the current state into new events (or a typed error);
/// `evolve` folds one event into the state; `isTerminal` says when a stream accepts no more
/// commands. Handlers load a stream, fold it with ``fold(_:)``, call `decide` and append the
/// result with the version they read as the expected version.
public struct Decider<Command, State: Sendable, Event, Failure: Error>: Sendable {
    public let initialState: State
    public let decide: @Sendable (Command, State) throws(Failure) -> [Event]
    public let evolve: @Sendable (State, Event) -> State
    public let isTerminal: @Sendable (State) -> Bool

    public init(
        initialState: State,
        decide: @escaping @Sendable (Command, State) throws(Failure) -> [Event],
        evolve: @escaping @Sendable (State, Event) -> State,
        isTerminal: @escaping @Sendable (State) -> Bool = { _ in false }
    ) {
        self.initialState = initialState
        self.decide = decide
        self.evolve = evolve
        self.isTerminal = isTerminal
    }

    /// Folds past events, oldest first, into a state.
    public func fold<S: Sequence>(_ events: S) -> State where S.Element == Event {
        events.reduce(initialState, evolve)
    }

    /// Runs one command against a history: the events `decide` returns for the folded state.
    public func run<S: Sequence>(given history: S, _ command: Command) throws(Failure) -> [Event]
    where S.Element == Event {
        try decide(command, fold(history))
    }
}
