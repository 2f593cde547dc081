import EventStore
import Logging
import PostgresNIO
import Testing

@Suite("PostgreSQL sessions")
struct PlanCacheTests {
    /// The multi-stream append is re-planned on every call unless the session plans prepared
    /// statements once (PostgresSettings.sessionParameters).
    @Test("the store's sessions plan prepared statements once")
    func sessions_use_generic_plans() async throws {
        let connection = try await PostgresConnection.connect(
            configuration: TestDatabase.settings.connectionConfiguration(), id: 1, logger: TestDatabase.logger)
        let rows = try await connection.query("SHOW plan_cache_mode", logger: TestDatabase.logger)
        var mode: String?
        for try await value in rows.decode(String.self) { mode = value }
        try await connection.close()
        #expect(mode == "force_generic_plan")

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
