import EventStore
import Logging
import PostgresNIO
import Testing

@Suite("PostgreSQL sessions")
struct PlanCacheTests {
    /// The multi-stream append is re-planned on every call unless the session plans prepared
    /// statements once (PostgresSettings.sessionParameters).
    @Test("the store's sessions plan prepared statements once, never as a scan of a table an index serves")
    func sessions_use_generic_plans() async throws {
        let connection = try await PostgresConnection.connect(
            configuration: TestDatabase.settings.connectionConfiguration(), id: 1, logger: TestDatabase.logger)
        let rows = try await connection.query(
            "SELECT current_setting('plan_cache_mode'), current_setting('enable_seqscan')", logger: TestDatabase.logger)
        var mode: String?, seqscan: String?
        for try await (value, scan) in rows.decode((String, String).self) { (mode, seqscan) = (value, scan) }
        try await connection.close()
        #expect(mode == "force_generic_plan")
        #expect(seqscan == "off")

        let client = PostgresClient(configuration: TestDatabase.settings.clientConfiguration())
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            let rows = try await client.query("SHOW plan_cache_mode", logger: TestDatabase.logger)
            var pooled: String?
            for try await value in rows.decode(String.self) { pooled = value }
            #expect(pooled == "force_generic_plan")
            group.cancelAll()
        }
    }
}
