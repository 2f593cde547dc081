import Synchronization

/// A value that tasks wait on until it meets their condition (read-your-writes: a runner's
/// position, the checkpoints a gateway follows), with a timeout.
///
/// Unlike a ``Doorbell`` loop, a change wakes only the waiters whose condition it meets, and a
/// timeout costs no task of its own: one timer task, sleeping until the earliest deadline,
/// serves every waiter. With dozens of requests waiting and the value moving hundreds of times
/// a second, a Doorbell loop woke them all to re-check, each arming and cancelling a sleeping
/// timer task (and a cancelled sleep holds its timer until its deadline): replacing it took the
/// embedded booking bench from ~915 to ~980 bookings/s (docs/benchmarks.md, session 27).
public final class WatchedValue<Value: Sendable>: Sendable {
    private struct Waiter {
        let reached: @Sendable (Value) -> Bool
        /// Nil: no timeout.
        let deadline: ContinuousClock.Instant?
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var value: Value
        var waiters: [UInt64: Waiter] = [:]
        var nextWaiter: UInt64 = 0
        /// Waiters cancelled before they were registered.
        var cancelled: Set<UInt64> = []
        /// The running timer task (a number for each one started) and where it sleeps to;
        /// nil: none runs.
        var timer: (id: UInt64, until: ContinuousClock.Instant)?
        var timers: UInt64 = 0
    }

    private let state: Mutex<State>

    public init(_ value: Value) {
        state = Mutex(State(value: value))
    }

    public var value: Value { state.withLock { $0.value } }

    /// How many tasks are waiting.
    public var waiting: Int { state.withLock { $0.waiters.count } }

    /// Changes the value and resumes the waiters whose condition it now meets.
    public func update(_ change: (inout Value) -> Void) {
        let ready = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            change(&state.value)
            guard !state.waiters.isEmpty else { return [] }
            var ready: [CheckedContinuation<Bool, Never>] = []
            for (id, waiter) in state.waiters where waiter.reached(state.value) {
                ready.append(waiter.continuation)
                state.waiters[id] = nil
            }
            return ready
        }
        for continuation in ready { continuation.resume(returning: true) }
    }

    public func set(_ value: Value) { update { $0 = value } }

    /// True as soon as the value meets `reached` (at once if it does now); false after `timeout`
    /// (nil: none) or when the task is cancelled. `reached` runs under the value's lock: it must
    /// be cheap and must not touch this value. `registered` runs once the waiter is in place
    /// (not when the value met the condition at once), possibly after it was answered: where a
    /// poll that feeds ``update(_:)`` should start.
    public func wait(
        until reached: @escaping @Sendable (Value) -> Bool, timeout: Duration?, registered: () -> Void = {}
    ) async -> Bool {
        let deadline = timeout.map { ContinuousClock.now + $0 }
        let id = state.withLock { state -> UInt64? in
            guard !reached(state.value) else { return nil }
            state.nextWaiter &+= 1
            return state.nextWaiter
        }
        guard let id else { return true }
        defer { state.withLock { _ = $0.cancelled.remove(id) } }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let (answer, timer) = state.withLock { state -> (Bool?, UInt64?) in
                    if state.cancelled.remove(id) != nil || Task.isCancelled { return (false, nil) }
                    if reached(state.value) { return (true, nil) }
                    state.waiters[id] = Waiter(reached: reached, deadline: deadline, continuation: continuation)
                    guard let deadline, state.timer.map({ deadline < $0.until }) ?? true else { return (nil, nil) }
                    state.timers &+= 1
                    state.timer = (state.timers, deadline)
                    return (nil, state.timers)
                }
                if let answer {
                    continuation.resume(returning: answer)
                    return
                }
                if let timer, let deadline { Task { await self.expire(timer: timer, from: deadline) } }
                registered()
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                if let waiter = state.waiters.removeValue(forKey: id) { return waiter }
                state.cancelled.insert(id)
                return nil
            }
            waiter?.continuation.resume(returning: false)
        }
    }

    /// The timer: sleeps until `first`, answers false to every waiter past its deadline, then
    /// sleeps until the next deadline; ends when no one waits, or when a waiter with an earlier
    /// deadline started a timer of its own (which goes on from there).
    private func expire(timer: UInt64, from first: ContinuousClock.Instant) async {
        var until = first
        while true {
            try? await Task.sleep(until: until, clock: .continuous)
            let now = ContinuousClock.now
            let (late, next) = state.withLock { state -> ([CheckedContinuation<Bool, Never>], ContinuousClock.Instant?) in
                var late: [CheckedContinuation<Bool, Never>] = []
                var earliest: ContinuousClock.Instant?
                for (id, waiter) in state.waiters {
                    guard let deadline = waiter.deadline else { continue }
                    if deadline <= now {
                        late.append(waiter.continuation)
                        state.waiters[id] = nil
                    } else if earliest.map({ deadline < $0 }) ?? true {
                        earliest = deadline
                    }
                }
                // Another timer took over (an earlier deadline came after this one slept).
                guard state.timer?.id == timer else { return (late, nil) }
                state.timer = earliest.map { (timer, $0) }
                return (late, earliest)
            }
            for continuation in late { continuation.resume(returning: false) }
            guard let next else { return }
            until = next
        }
    }
}
