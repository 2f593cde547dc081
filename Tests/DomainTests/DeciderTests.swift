import Domain
import Testing

/// A counter with a ceiling: the smallest decider that exercises every part of the type.
enum Counter {
    enum Command { case add(Int), close }
    enum Event: Equatable { case added(Int), closed }
    struct State: Sendable, Equatable {
        var total = 0
        var closed = false
    }
    enum Failure: Error, Equatable { case overCeiling(total: Int), closed, nonPositive }

    static let decider = Decider<Command, State, Event, Failure>(
        initialState: State(),
        decide: { command, state throws(Failure) in
            guard !state.closed else { throw .closed }
            switch command {
            case .add(let amount):
                guard amount > 0 else { throw .nonPositive }
                guard state.total + amount <= 10 else { throw .overCeiling(total: state.total) }
                return [.added(amount)]
            case .close:
                return [.closed]
            }
        },
        evolve: { state, event in
            var next = state
            switch event {
            case .added(let amount): next.total += amount
            case .closed: next.closed = true
            }
            return next
        },
        isTerminal: { $0.closed }
    )
}

@Suite("Decider")
struct DeciderTests {
    let scenario = Scenario(Counter.decider)

    @Test func fold_applies_events_in_order_from_the_initial_state() {
        #expect(Counter.decider.fold([.added(2), .added(3)]) == Counter.State(total: 5))
        #expect(Counter.decider.fold([]) == Counter.decider.initialState)
    }

    @Test func decide_sees_the_folded_history() {
        #expect(scenario.given(.added(4), .added(5)).when(.add(1)).outcome == .events([.added(1)]))
        #expect(scenario.given(.added(4), .added(5)).when(.add(2)).outcome == .failure(.overCeiling(total: 9)))
        #expect(scenario.given().when(.add(0)).outcome == .failure(.nonPositive))
    }

    @Test func a_terminal_stream_refuses_commands() {
        let state = Counter.decider.fold([.added(1), .closed])
        #expect(Counter.decider.isTerminal(state))
        #expect(scenario.given(.added(1), .closed).when(.add(1)).outcome == .failure(.closed))
    }
}
