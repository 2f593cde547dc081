public import Foundation
public import PostgresNIO

/// Where the PostgreSQL store lives and who connects, read from the environment (DESIGN §8).
///
/// `DATABASE_URL` (`postgres://user:password@host:port/name`) wins over `DB_HOST`, `DB_PORT`,
/// `DB_NAME`, `DB_USER`, `DB_PASSWORD`. Defaults point at the `infra/local` server. Schema
/// changes run as `DB_MIGRATION_USER` / `DB_MIGRATION_PASSWORD` (the owner), which default to
/// the `infra/local` owner when nothing is set and to `DB_USER` when only that is set; the
/// application user is then granted read/append only on the event table.
public struct PostgresSettings: Sendable, Equatable {
    public var host: String
    public var port: Int
    public var database: String
    public var user: String
    public var password: String
    public var migrationUser: String
    public var migrationPassword: String
    /// Connections the pool may open.
    public var maximumConnections: Int
    /// Connections the pool opens at start and keeps (at most ``maximumConnections``); the
    /// others close after ``idleTimeout`` unused (``StorePool``).
    public var minimumConnections: Int
    public var idleTimeout: Duration

    public init(
        host: String = "127.0.0.1", port: Int = 5432, database: String = "coworkflow",
        user: String = "coworkflow_app", password: String = "coworkflow_app",
        migrationUser: String = "coworkflow", migrationPassword: String = "coworkflow",
        maximumConnections: Int = 16, minimumConnections: Int = 4, idleTimeout: Duration = .seconds(10)
    ) {
        self.host = host
        self.port = port
        self.database = database
        self.user = user
        self.password = password
        self.migrationUser = migrationUser
        self.migrationPassword = migrationPassword
        self.maximumConnections = maximumConnections
        self.minimumConnections = minimumConnections
        self.idleTimeout = idleTimeout
    }

    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
    }

    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> PostgresSettings {
        var settings = PostgresSettings()
        let explicitUser: Bool
        if let url = environment["DATABASE_URL"], !url.isEmpty {
            guard let components = URLComponents(string: url),
                ["postgres", "postgresql"].contains(components.scheme ?? ""),
                let host = components.host, !host.isEmpty
            else { throw Invalid(description: "DATABASE_URL is not a postgres:// URL") }
            settings.host = host
            settings.port = components.port ?? 5432
            let name = components.path.drop(while: { $0 == "/" })
            if !name.isEmpty { settings.database = String(name) }
            if let user = components.user { settings.user = user.removingPercentEncoding ?? user }
            if let password = components.password {
                settings.password = password.removingPercentEncoding ?? password
            }
            explicitUser = components.user != nil
        } else {
            if let host = environment["DB_HOST"], !host.isEmpty { settings.host = host }
            if let port = environment["DB_PORT"], !port.isEmpty {
                guard let number = Int(port), (1...65535).contains(number) else {
                    throw Invalid(description: "DB_PORT must be a port number, got '\(port)'")
                }
                settings.port = number
            }
            if let name = environment["DB_NAME"], !name.isEmpty { settings.database = name }
            if let user = environment["DB_USER"], !user.isEmpty { settings.user = user }
            if let password = environment["DB_PASSWORD"] { settings.password = password }
            explicitUser = environment["DB_USER"].map { !$0.isEmpty } ?? false
        }
        if let user = environment["DB_MIGRATION_USER"], !user.isEmpty {
            settings.migrationUser = user
            settings.migrationPassword = environment["DB_MIGRATION_PASSWORD"] ?? ""
        } else if explicitUser {
            settings.migrationUser = settings.user
            settings.migrationPassword = settings.password
        }
        if let size = environment["DB_POOL_SIZE"], let number = Int(size), number > 0 {
            settings.maximumConnections = number
        }
        if let size = environment["DB_POOL_MIN"], let number = Int(size), number >= 0 {
            settings.minimumConnections = number
        }
        return settings
    }

    /// A PostgresNIO pool's settings for the application user (or the owner, with `asOwner`),
    /// for tools and the benchmark's raw baselines; the store has its own pool (``StorePool``).
    public func clientConfiguration(asOwner: Bool = false, database: String? = nil) -> PostgresClient.Configuration {
        var configuration = PostgresClient.Configuration(
            host: host, port: port,
            username: asOwner ? migrationUser : user,
            password: asOwner ? migrationPassword : password,
            database: database ?? self.database, tls: .disable)
        // PostgresNIO arms timers when a connection goes back to the pool: a keep-alive ping
        // for every connection, an idle timeout for one above the minimum. A timer disarmed by
        // the next lease still holds the runtime's delayed job until its deadline, so at
        // thousands of leases a second the defaults (30 s and 60 s) left hundreds of thousands
        // waiting, and everything the process did afterwards ran slower (a bulk read after the
        // append workloads at half speed). So: no keep-alive pings, the minimum kept open
        // without timers, and a short idle timeout for the rest. The price: a connection that
        // died while idle (a database restart or failover) is found by the next query on it,
        // which fails (that request answers 503; the pool opens a fresh one), where pings
        // would have found it first.
        configuration.options.maximumConnections = maximumConnections
        configuration.options.minimumConnections = min(minimumConnections, maximumConnections)
        configuration.options.connectionIdleTimeout = idleTimeout
        configuration.options.keepAliveBehavior = nil
        configuration.options.additionalStartupParameters = Self.sessionParameters
        return configuration
    }

    /// Every session plans its prepared statements once (`plan_cache_mode`). Left to choose,
    /// PostgreSQL kept re-planning the multi-stream append for every call — its custom plans
    /// looked cheaper than the generic one — and planning it took 0.2 ms against 0.02 ms,
    /// twice its execution (`EXPLAIN (ANALYZE, SUMMARY) EXECUTE`). The store's statements
    /// are keyed lookups and range scans whose plans do not depend on the values.
    ///
    /// Nor on the tables' sizes: `enable_seqscan = off` keeps an index path whenever there is
    /// one. A generic plan made while a table is small (every table starts empty) scans it,
    /// and keeps scanning it as it grows until an `ANALYZE` invalidates the plan: a read-model
    /// commit planned so read ~1,250 buffers a call through a whole benchmark run in which no
    /// autovacuum came (ADR 0001 §3). A table no index serves is still scanned.
    static let sessionParameters = [("plan_cache_mode", "force_generic_plan"), ("enable_seqscan", "off")]

    public func connectionConfiguration(asOwner: Bool = false) -> PostgresConnection.Configuration {
        var configuration = PostgresConnection.Configuration(
            host: host, port: port,
            username: asOwner ? migrationUser : user,
            password: asOwner ? migrationPassword : password,
            database: database, tls: .disable)
        configuration.options.additionalStartupParameters = Self.sessionParameters
        return configuration
    }

    /// `postgres://user@host:port/db`, without the password, for logs.
    public var redactedURL: String { "postgres://\(user)@\(host):\(port)/\(database)" }
}
