import EventStore
import Testing

@Suite("WatchedValue")
struct WatchedValueTests {
    /// Waits on `watched` in a task of its own; the task's value is the wait's answer.
    func waiter(_ watched: WatchedValue<Int>, until goal: Int, timeout: Duration = .seconds(3600)) -> Task<Bool, Never> {
        Task { await watched.wait(until: { $0 >= goal }, timeout: timeout) }
    }

    func settle(_ watched: WatchedValue<Int>, waiting count: Int) async throws {
        for _ in 0..<2_000 where watched.waiting != count { try await Task.sleep(for: .milliseconds(5)) }
        #expect(watched.waiting == count)
    }

    @Test("a condition met already answers at once, without waiting or registering")
    func met_at_once() async {
        let watched = WatchedValue(7)
        var registered = false
        #expect(await watched.wait(until: { $0 >= 7 }, timeout: .seconds(3600), registered: { registered = true }))
        #expect(!registered && watched.waiting == 0)
    }

    @Test("a change wakes only the waiters whose condition it meets")
    func wakes_only_the_satisfied() async throws {
        let watched = WatchedValue(0)
        let five = waiter(watched, until: 5)
        let ten = waiter(watched, until: 10)
        try await settle(watched, waiting: 2)
        watched.set(3)
        #expect(watched.waiting == 2)
        watched.update { $0 += 4 }
        #expect(await five.value)
        #expect(watched.waiting == 1, "the waiter for 10 still waits at 7")
        watched.set(10)
        #expect(await ten.value)
        #expect(watched.waiting == 0)
    }

    @Test("a timeout answers false; a shorter one that comes after a longer one is not held up by it")
    func timeouts() async throws {
        let watched = WatchedValue(0)
        let long = waiter(watched, until: 1)
        try await settle(watched, waiting: 1)
        // The timer sleeps until the long waiter's deadline (an hour); the short one's own
        // deadline must still end it. Bounded, not timed: a wait of an hour would lose the race.
        let short = waiter(watched, until: 1, timeout: .milliseconds(20))
        let first = await withTaskGroup(of: String.self) { group in
            group.addTask { await short.value ? "short met" : "short timed out" }
            group.addTask {
                try? await Task.sleep(for: .seconds(60))
                return "a minute passed"
            }
            defer { group.cancelAll() }
            return await group.next() ?? ""
        }
        #expect(first == "short timed out")
        #expect(watched.waiting == 1, "the long waiter still waits")
        watched.set(1)
        #expect(await long.value)
    }

    @Test("a cancelled wait answers false and leaves no waiter behind")
    func cancellation() async throws {
        let watched = WatchedValue(0)
        let waiting = waiter(watched, until: 1)
        try await settle(watched, waiting: 1)
        waiting.cancel()
        #expect(await waiting.value == false)
        #expect(watched.waiting == 0)
        // Cancelled before it starts waiting: it answers false at once.
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await watched.wait(until: { $0 >= 1 }, timeout: .seconds(3600))
        }
        #expect(await early.value == false)
        #expect(watched.waiting == 0)
    }

    @Test("many waiters and many changes: every waiter answers true once its goal is reached")
    func many() async throws {
        let watched = WatchedValue(0)
        let tasks = (1...200).map { waiter(watched, until: $0) }
        for value in 1...200 { watched.set(value) }
        for task in tasks { #expect(await task.value) }
        #expect(watched.waiting == 0)
    }
}
