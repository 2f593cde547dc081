import Synchronization

/// Concurrent callers of one read share it, without ever getting an answer older than their
/// call: a caller joins a read only if that read has not started yet. With a read in flight,
/// the first caller to arrive queues the next one (it starts when the running one ends) and
/// every later caller joins that queued read, so under load the database sees at most one
/// read running and one waiting, however many requests ask.
///
/// "Fresh" holds because a queued read leaves the queue before its body starts: whoever found
/// it queued asked before it began reading. The catalog uses it for its revision: a member
/// whose change was committed before they asked still sees it.
final class FreshRead<Value: Sendable>: Sendable {
    private struct Flight {
        let id: Int
        let task: Task<Value, any Error>
    }

    private struct State {
        var running: Flight?
        var queued: Flight?
        var next = 0
        /// Callers waiting for the queued read (for tests).
        var waiting = 0
    }

    private let state = Mutex(State())

    init() {}

    /// A value read by `body` after this call began: this call's `body`, or that of a caller
    /// whose read had not started yet (callers of one `FreshRead` pass the same read).
    /// Cancelling the caller does not cancel the shared read (others wait for it).
    func value(_ body: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let task = state.withLock { state -> Task<Value, any Error> in
            if let queued = state.queued {
                state.waiting += 1
                return queued.task
            }
            state.next += 1
            let id = state.next, previous = state.running?.task
            let task = Task { () async throws -> Value in
                if let previous { _ = await previous.result }
                self.state.withLock { state in
                    if state.queued?.id == id {
                        state.running = state.queued
                        state.queued = nil
                        state.waiting = 0
                    }
                }
                defer {
                    self.state.withLock { state in
                        if state.running?.id == id { state.running = nil }
                    }
                }
                return try await body()
            }
            if previous == nil {
                state.running = Flight(id: id, task: task)
            } else {
                state.queued = Flight(id: id, task: task)
                state.waiting = 1
            }
            return task
        }
        return try await task.value
    }

    /// How many callers wait for a read that has not started yet.
    var waitingCallers: Int { state.withLock { $0.waiting } }
}
