import Synchronization

/// Wakes every waiter when rung; a waiter that missed a ring returns at once.
///
/// Each ring bumps a generation number; ``wait(after:timeout:)`` returns as soon as the
/// generation differs from the one the caller saw, or when the timeout passes, or when the
/// task is cancelled.
public final class Doorbell: Sendable {
    private struct State {
        var generation: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        /// Waiters whose timeout or cancellation came before they were registered.
        var released: Set<UInt64> = []
        var nextWaiter: UInt64 = 0
    }

    private let state = Mutex(State())

    public init() {}

    public var generation: UInt64 { state.withLock { $0.generation } }

    public func ring() {
        let waiters = state.withLock { state in
            state.generation &+= 1
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Waits for a ring after `seen`, at most `timeout` (nil: no limit, only a ring or
    /// cancellation ends it); returns the generation now.
    ///
    /// A timeout costs a sleeping task, and a cancelled sleep still holds its timer until the
    /// deadline (the runtime's delayed jobs are not withdrawn): a loop that waits often with a
    /// long timeout piles up timers, which made a process's later work a third slower. Such a
    /// loop passes nil.
    @discardableResult
    public func wait(after seen: UInt64, timeout: Duration?) async -> UInt64 {
        let id = state.withLock { state -> UInt64? in
            guard state.generation == seen else { return nil }
            state.nextWaiter &+= 1
            return state.nextWaiter
        }
        guard let id else { return generation }
        let timer = timeout.map { timeout in
            Task { [weak self] in
                guard (try? await Task.sleep(for: timeout)) != nil else { return }
                self?.release(id)
            }
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state -> Bool in
                    // A timeout or cancel that came first left a mark instead of a resume.
                    if state.released.remove(id) != nil || state.generation != seen || Task.isCancelled {
                        return true
                    }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            release(id)
        }
        timer?.cancel()
        state.withLock { _ = $0.released.remove(id) }
        return generation
    }

    /// Resumes the waiter `id`, or marks it released if it has not registered yet.
    private func release(_ id: UInt64) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if let waiter = state.waiters.removeValue(forKey: id) { return waiter }
            state.released.insert(id)
            return nil
        }
        waiter?.resume()
    }
}
