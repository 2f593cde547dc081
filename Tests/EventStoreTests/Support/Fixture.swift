import Domain
import EventStore
import Foundation
import Logging
import TestSupport
import Testing

/// The store implementations every conformance test runs against.
enum Backend: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite
    case postgres

    var testDescription: String { rawValue }
}

/// A store under test plus the vault over the same database.
struct Fixture {
    let store: any EventStore
    let vault: PersonalDataVault
}

enum TestDatabase {
    static let settings: PostgresSettings = {
        do { return try PostgresSettings.fromEnvironment() } catch { fatalError("bad DB settings: \(error)") }
    }()

    static let logger: Logger = {
        var logger = Logger(label: "tests")
        // PostgresNIO warns when a query races the pool's run() start-up; that is test noise.
        logger.logLevel = .error
        return logger
    }()

    /// Migrates the test database once per test process.
    private static let migration = Task { try await PostgresMigrator(settings: settings, logger: logger).migrate() }

    static func migrate() async throws { _ = try await migration.value }
}

/// Opens a fresh store of `backend`, runs `body`, and shuts the store down.
func withFixture<T: Sendable>(
    _ backend: Backend, upcasters: Upcasters = Upcasters(),
    _ body: (Fixture) async throws -> T
) async throws -> T {
    switch backend {
    case .sqlite:
        let path = TemporarySQLite.path("coworkflow-test")
        defer { TemporarySQLite.remove(path) }
        let store = try SQLiteEventStore(path: path, upcasters: upcasters)
        return try await body(Fixture(store: store, vault: PersonalDataVault(keys: SQLiteKeyStore(database: store.database))))
    case .postgres:
        try await TestDatabase.migrate()
        let store = PostgresEventStore(settings: TestDatabase.settings, upcasters: upcasters, logger: TestDatabase.logger)
        return try await withPostgresStore(store) { store in
            try await body(Fixture(store: store, vault: PersonalDataVault(keys: PostgresKeyStore(store: store))))
        }
    }
}

/// Runs a PostgreSQL store's background work for the duration of `body`.
func withPostgresStore<T: Sendable>(
    _ store: PostgresEventStore, _ body: (PostgresEventStore) async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { await store.run() }
        defer { group.cancelAll() }
        return try await body(store)
    }
}

/// A category name no other test uses: letters and digits only (a `-` ends a category).
func uniqueCategory(_ prefix: String = "t") -> String {
    prefix + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
}

/// A stream in its own fresh category.
func uniqueStream(_ prefix: String = "t") -> StreamName {
    StreamName(category: uniqueCategory(prefix), id: UUID().uuidString.lowercased())
}

/// Whole seconds, so instants survive both stores' microsecond precision unchanged.
let testInstant = Date(timeIntervalSince1970: 1_790_000_000)

func event(_ type: String = "Testado", _ payload: [String: Int] = ["n": 1], id: UUID = UUID(), metadata: EventMetadata = EventMetadata()) -> NewEvent
{
    let data = (try? JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys])) ?? Data("{}".utf8)
    return NewEvent(eventId: id, type: type, data: data, metadata: metadata, occurredAt: testInstant)
}

func events(_ count: Int, type: String = "Testado") -> [NewEvent] {
    (0..<count).map { event(type, ["n": $0]) }
}

extension EventStore {
    /// Tails the global order after `position` in batches of `batch`, keeping the events
    /// `keep` selects (other tests write to the same database concurrently), until `expecting`
    /// of them arrived. A short page is not the end: an open transaction elsewhere in the
    /// database holds later events back until it ends (see GapSafetyTests).
    func readAllKeeping(
        after position: GlobalPosition, batch: Int = 100, expecting: Int = 0,
        _ keep: (RecordedEvent) -> Bool
    ) async throws -> [RecordedEvent] {
        var result: [RecordedEvent] = []
        var cursor = position
        let deadline = Date().addingTimeInterval(60)
        while true {
            let page = try await readAll(after: cursor, limit: batch)
            result.append(contentsOf: page.filter(keep))
            if let last = page.last { cursor = last.position }
            if page.count == batch { continue }
            if result.count >= expecting || Date() > deadline { return result }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The same for one category.
    func readCategoryTailing(
        _ category: String, after position: GlobalPosition, batch: Int, expecting: Int
    ) async throws -> [RecordedEvent] {
        var result: [RecordedEvent] = []
        var cursor = position
        let deadline = Date().addingTimeInterval(60)
        while true {
            let page = try await readCategory(category, after: cursor, limit: batch)
            result.append(contentsOf: page)
            if let last = page.last { cursor = last.position }
            if page.count == batch { continue }
            if result.count >= expecting || Date() > deadline { return result }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

/// Waits for `condition`, polling, for at most `seconds`: a liveness bound, never a speed check.
func eventually(seconds: Double = 20, _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try await condition() { return true }
        try await Task.sleep(for: .milliseconds(20))
    }
    return try await condition()
}

/// Polls `probe` every 20 ms for up to 10 s, and returns its first value; records an issue
/// naming `what` and throws when none came.
func eventually<T>(_ what: @autoclosure () -> String, _ probe: () async throws -> T?) async throws -> T {
    for _ in 0..<500 {
        if let value = try await probe() { return value }
        try await Task.sleep(for: .milliseconds(20))
    }
    Issue.record("timed out waiting for \(what())")
    throw CancellationError()
}
