import Foundation
import Logging
import PostgresNIO
import Testing

@testable import EventStore

/// The store's sessions plan every prepared statement once, generically
/// (`plan_cache_mode = force_generic_plan`), so a statement's one plan must not depend on the
/// tables' statistics. Joins are switched off here to stand for statistics that make a join
/// look cheap: a read by stream or by id must still be a lookup per key.
@Suite("PostgreSQL: keyed reads plan as lookups whatever the statistics")
struct KeyedPlanTests {
    @Test("a read of several streams looks each one up in (stream_id, stream_version)")
    func read_streams_is_a_lookup_per_stream() async throws {
        let plan = try await genericPlan(
            PostgresStatements.ReadStreams(streams: ["a-1", "b-2"], versions: [1, 1]),
            executing: "'{a-1,b-2}'::text[], '{1,1}'::bigint[]")
        #expect(
            plan.contains("Nested Loop") && plan.contains("Index Cond: ((stream_id = r.stream) AND (stream_version >= r.from_version))"), "\(plan)")
        #expect(!plan.contains("Seq Scan on events") && !plan.contains("Hash") && !plan.contains("Merge"), "\(plan)")
    }

    @Test("a consumer's redrive requests look their events up by id")
    func redrives_look_events_up_by_id() async throws {
        let plan = try await genericPlan(PostgresStatements.ReadRedrives(consumer: "c", limit: 10), executing: "'c', 10")
        #expect(plan.contains("Nested Loop") && plan.contains("Index Cond: (event_id = d.event_id)"), "\(plan)")
        #expect(!plan.contains("Seq Scan on events") && !plan.contains("events_pkey") && !plan.contains("Hash"), "\(plan)")
    }

    @Test("a multi-stream append checks each expected version by its key")
    func append_checks_versions_by_key() async throws {
        let stream = uniqueStream()
        var columns = PostgresEventStore.AppendColumns()
        columns.add(event(), stream: 0)
        let plan = try await genericPlan(
            PostgresStatements.AppendMany(streams: [stream.rawValue], expected: [0], columns: columns, notify: false),
            executing: "'{\(stream.rawValue)}'::text[], '{5}'::bigint[], '{1}'::integer[], '{\(UUID().uuidString)}'::uuid[], "
                + "'{T}'::text[], '{1}'::integer[], '{\"{}\"}'::text[], '{\"{}\"}'::text[], ARRAY[now()], false")
        #expect(plan.contains("SubPlan") && plan.contains("Index Only Scan using events_stream_version_key on events w"), "\(plan)")
        #expect(!plan.contains("Anti Join"), "\(plan)")
    }

    @Test("a read-model commit finds the documents it deletes by key, and deletes them by row id")
    func commit_deletes_by_key() async throws {
        let plan = try await genericPlan(
            PostgresStatements.CommitReadModels([], checkpoint: "keyed-plan-\(UUID())", at: .start, from: nil),
            // The test database's read models fit in a page, where a scan would be the cheaper
            // plan: the session's own `enable_seqscan = off` must keep the lookup by key.
            executing: "'{}', '{}', '{}', '{}', '{}', '{}', '{c}', '{k}', 'keyed-plan-x', 0, 0, false, 0, 0, 0")
        #expect(plan.contains("Index Cond: ((collection = d.collection) AND (key = d.key))") && plan.contains("Tid Scan on read_models r"), "\(plan)")
        #expect(!plan.contains("Join"), "\(plan)")
    }

    @Test("a gathered read-model commit finds each checkpoint and each deleted document by key")
    func group_commit_is_keyed() async throws {
        let plan = try await genericPlan(
            PostgresStatements.CommitReadModelGroup([]),
            executing: "'{}', '{}', '{}', '{}', '{}', '{}', '{}', '{c}', '{k}', '{n}', '{n}', '{1}', '{1}', '{0}', '{0}', '{1}'")
        #expect(plan.contains("Index Cond: ((collection = d.collection) AND (key = d.key))") && plan.contains("Tid Scan on read_models r"), "\(plan)")
        #expect(plan.contains("Index Scan using subscription_checkpoints_pkey on subscription_checkpoints c"), "\(plan)")
        #expect(!plan.contains("Seq Scan on subscription_checkpoints") && !plan.contains("Seq Scan on read_models"), "\(plan)")
    }

    /// The generic plan `statement` gets on a store session (its own settings) with nested loops
    /// switched off (other joins preferred), as `EXPLAIN EXECUTE` prints it.
    private func genericPlan<Statement: PostgresPreparedStatement>(
        _ statement: Statement, executing arguments: String
    ) async throws -> String {
        try await TestDatabase.migrate()
        let connection = try await PostgresConnection.connect(
            configuration: TestDatabase.settings.connectionConfiguration(), id: 1, logger: TestDatabase.logger)
        do {
            _ = try await connection.query("SET enable_nestloop = off", logger: TestDatabase.logger)
            for try await _ in try await connection.execute(statement, logger: TestDatabase.logger) {}
            let rows = try await connection.query(
                PostgresQuery(unsafeSQL: "EXPLAIN EXECUTE \(Statement.name)(\(arguments))"), logger: TestDatabase.logger)
            var lines: [String] = []
            for try await line in rows.decode(String.self) { lines.append(line) }
            try await connection.close()
            return lines.joined(separator: "\n")
        } catch {
            try? await connection.close()
            throw error
        }
    }
}
