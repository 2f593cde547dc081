import Foundation

/// A thread of its own that runs jobs one after another: rabbitmq-c connections block and are
/// not thread-safe, so each lives on one of these and async code waits for its jobs.
final class WorkerThread: @unchecked Sendable {
    // Guarded by `condition`.
    private var jobs: [() -> Void] = []
    private var stopping = false
    private let condition = NSCondition()
    private var thread: Thread?

    init(name: String) {
        let thread = Thread { [unowned self] in self.loop() }
        thread.name = name
        self.thread = thread
        thread.start()
    }

    /// Runs `body` on the thread and returns its result.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            enqueue { continuation.resume(with: Result { try body() }) }
        }
    }

    /// Finishes the queued jobs, then ends the thread.
    func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
    }

    private func enqueue(_ job: @escaping () -> Void) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func loop() {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopping { condition.wait() }
            if jobs.isEmpty && stopping {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
        }
    }
}
