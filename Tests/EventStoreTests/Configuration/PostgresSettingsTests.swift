import EventStore
import Testing

@Suite("PostgreSQL settings from the environment")
struct PostgresSettingsTests {
    @Test func defaults_point_at_infra_local() throws {
        let settings = try PostgresSettings.fromEnvironment([:])
        #expect(settings == PostgresSettings())
        #expect(settings.user == "coworkflow_app")
        #expect(settings.migrationUser == "coworkflow")
    }

    @Test("the pool: DB_POOL_SIZE and DB_POOL_MIN; no keep-alive pings, the minimum never above the size")
    func pool_settings() throws {
        let settings = try PostgresSettings.fromEnvironment(["DB_POOL_SIZE": "3", "DB_POOL_MIN": "8"])
        #expect(settings.maximumConnections == 3 && settings.minimumConnections == 8)
        let options = settings.clientConfiguration().options
        #expect(options.maximumConnections == 3)
        #expect(options.minimumConnections == 3)
        #expect(options.keepAliveBehavior == nil)
        #expect(options.connectionIdleTimeout == .seconds(10))
        #expect(try PostgresSettings.fromEnvironment(["DB_POOL_MIN": "0"]).clientConfiguration().options.minimumConnections == 0)
        #expect(try PostgresSettings.fromEnvironment([:]).clientConfiguration().options.minimumConnections == 4)
    }

    @Test func db_variables_and_migration_user_defaulting_to_db_user() throws {
        let settings = try PostgresSettings.fromEnvironment([
            "DB_HOST": "db.internal", "DB_PORT": "6543", "DB_NAME": "cw", "DB_USER": "svc", "DB_PASSWORD": "s3cr3t",
        ])
        #expect(settings.host == "db.internal")
        #expect(settings.port == 6543)
        #expect(settings.database == "cw")
        #expect(settings.user == "svc")
        #expect(settings.password == "s3cr3t")
        #expect(settings.migrationUser == "svc")
        #expect(settings.migrationPassword == "s3cr3t")
    }

    @Test func database_url_wins_and_is_percent_decoded() throws {
        let settings = try PostgresSettings.fromEnvironment([
            "DATABASE_URL": "postgres://app:p%40ss@10.0.0.5:5433/bookings", "DB_HOST": "ignored",
            "DB_MIGRATION_USER": "owner", "DB_MIGRATION_PASSWORD": "o",
        ])
        #expect(settings.host == "10.0.0.5")
        #expect(settings.port == 5433)
        #expect(settings.database == "bookings")
        #expect(settings.user == "app")
        #expect(settings.password == "p@ss")
        #expect(settings.migrationUser == "owner")
        #expect(settings.redactedURL == "postgres://app@10.0.0.5:5433/bookings")
    }

    @Test(arguments: ["DB_PORT=abc", "DB_PORT=0", "DB_PORT=70000", "DATABASE_URL=mysql://x@y/z", "DATABASE_URL=postgres:///nohost"])
    func bad_values_are_refused_with_a_reason(_ assignment: String) {
        let parts = assignment.split(separator: "=", maxSplits: 1).map(String.init)
        #expect(throws: PostgresSettings.Invalid.self) {
            try PostgresSettings.fromEnvironment([parts[0]: parts[1]])
        }
    }
}
