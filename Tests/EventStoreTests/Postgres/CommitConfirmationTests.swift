import Domain
import Foundation
import PostgresNIO
import TestSupport
import Testing

@testable import EventStore

/// PostgresNIO answers a statement at its CommandComplete; a statement outside a transaction
/// block commits after that, at the Sync, and a commit that fails then is an error PostgresNIO
/// takes for an unexpected message. The faults harness found two bookings answered 201 that a
/// PostgreSQL restart had rolled back (docs/reliability.md, "Bookings answered 201 and lost").
/// A deferred constraint trigger that raises at commit time makes that commit fail every time.
@Suite("PostgreSQL: an append whose commit fails is not reported appended", .serialized)
struct CommitConfirmationTests {
    /// Streams of this category fail at commit (the trigger is the test database's own).
    static let category = "commitfails"
    /// The person whose key's deletion fails at commit.
    static let unerasable = UUID(uuidString: "0C0FFEE0-0000-4000-8000-00000000E7A5") ?? UUID()

    static func installFailingCommit() async throws {
        try await TestDatabase.migrate()
        let owner = try await PostgresConnection.connect(
            configuration: TestDatabase.settings.connectionConfiguration(asOwner: true), id: 1, logger: TestDatabase.logger)
        do {
            try await owner.query(
                """
                CREATE OR REPLACE FUNCTION test_commit_fails() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN RAISE EXCEPTION 'commit refused'; END $$
                """, logger: TestDatabase.logger)
            try await owner.query("DROP TRIGGER IF EXISTS test_commit_fails ON events", logger: TestDatabase.logger)
            try await owner.query(
                """
                CREATE CONSTRAINT TRIGGER test_commit_fails AFTER INSERT ON events DEFERRABLE INITIALLY DEFERRED
                FOR EACH ROW WHEN (NEW.category = 'commitfails') EXECUTE FUNCTION test_commit_fails()
                """, logger: TestDatabase.logger)
            try await owner.query("DROP TRIGGER IF EXISTS test_erase_fails ON personal_data_keys", logger: TestDatabase.logger)
            try await owner.query(
                PostgresQuery(
                    unsafeSQL: """
                        CREATE CONSTRAINT TRIGGER test_erase_fails AFTER DELETE ON personal_data_keys DEFERRABLE INITIALLY DEFERRED
                        FOR EACH ROW WHEN (OLD.subject_id = '\(Self.unerasable.uuidString)') EXECUTE FUNCTION test_commit_fails()
                        """), logger: TestDatabase.logger)
            try await owner.close()
        } catch {
            try? await owner.close()
            throw error
        }
    }

    @Test("the commit fails after the statement answered: the append throws, nothing is stored, the store goes on")
    func commit_refused_after_command_complete() async throws {
        try await Self.installFailingCommit()
        try await withFixture(.postgres) { fixture in
            let failing = StreamName(category: Self.category, id: UUID().uuidString.lowercased())
            let single = await #expect(throws: EventStoreError.self) {
                try await fixture.store.append(to: failing, expected: .noStream, events: [event()])
            }
            #expect(single?.code == .unavailable, "\(String(describing: single))")
            // Several events, several streams: the other statements of the append.
            let other = uniqueStream("commitok")
            let many = await #expect(throws: EventStoreError.self) {
                try await fixture.store.append([
                    StreamWrite(stream: failing, expected: .noStream, events: events(2)),
                    StreamWrite(stream: other, expected: .noStream, events: [event()]),
                ])
            }
            #expect(many?.code == .unavailable, "\(String(describing: many))")
            #expect(try await fixture.store.readStream(failing).isEmpty)
            #expect(try await fixture.store.readStream(other).isEmpty)
            // The connection that failed is not handed out again: the next append goes in.
            let result = try await fixture.store.append(to: other, expected: .noStream, events: [event()])
            #expect(result.versions[other] == 1)
        }
    }

    @Test("an erasure whose commit fails is not reported done: the key is still there, and the caller hears so")
    func erasure_refused_at_commit() async throws {
        try await Self.installFailingCommit()
        try await withFixture(.postgres) { fixture in
            let keys = PostgresKeyStore(store: try #require(fixture.store as? PostgresEventStore))
            let key = try await keys.key(for: Self.unerasable)
            let failure = await #expect(throws: EventStoreError.self) { try await keys.erase(subject: Self.unerasable) }
            #expect(failure?.code == .unavailable, "\(String(describing: failure))")
            #expect(try await keys.existingKey(for: Self.unerasable) == key)
        }
    }
}

extension CommitConfirmationTests {
    @Test("the pool's connections carry a ledger: an append's commit is confirmed from its own messages, no statement sent")
    func pool_connections_read_the_outcome() async throws {
        try await TestDatabase.migrate()
        try await withFixture(.postgres) { fixture in
            let store = try #require(fixture.store as? PostgresEventStore)
            try await store.pool.withConnection { connection in
                let ledger = try #require(CommitLedger.of(connection))
                func append() async throws {
                    let write = StreamWrite(stream: uniqueStream("commitok"), expected: .noStream, events: [event()])
                    _ = try await PostgresEventStore.append([write], on: connection, logger: TestDatabase.logger)
                    try await connection.confirmCommit(logger: TestDatabase.logger)
                }
                // The first one may prepare its statement (a cycle of its own).
                try await append()
                let before = ledger.counts
                try await append()
                let after = ledger.counts
                #expect(after.completed == before.completed + 1)
                #expect(after.settled == after.completed)
                #expect(!after.settledFailed)
                // One ReadyForQuery: the append's own. A confirming statement would add one.
                #expect(after.readies == before.readies + 1)
            }
        }
    }
}
