// swift-tools-version: 6.1
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// Test targets are not optimized, even in CI's release build: their code is the tests' steps,
/// and what they exercise is the optimized product code they import.
let tests: [SwiftSetting] = strict + [.unsafeFlags(["-Onone"])]

let package = Package(
    name: "coworkflow",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "coworkflow", targets: ["coworkflow"]),
        .executable(name: "coworkflow-bench", targets: ["CoworkflowBench"]),
        .library(name: "Domain", targets: ["Domain"]),
        .library(name: "EventStore", targets: ["EventStore"]),
        .library(name: "Messaging", targets: ["Messaging"]),
        .library(name: "Projections", targets: ["Projections"]),
        .library(name: "Services", targets: ["Services"]),
        .library(name: "Integrations", targets: ["Integrations"]),
        .library(name: "App", targets: ["App"]),
        .library(name: "Gateway", targets: ["Gateway"]),
    ],
    dependencies: [
        .package(url: "https://github.com/vapor/postgres-nio.git", exact: "1.33.2"),
        .package(url: "https://github.com/groue/GRDB.swift.git", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", exact: "4.5.2"),
        .package(url: "https://github.com/apple/swift-log.git", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", exact: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", exact: "2.28.1"),
        .package(url: "https://github.com/vapor/jwt-kit.git", exact: "5.8.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", exact: "2.13.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", exact: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-metrics.git", exact: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", exact: "2.4.1"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", exact: "1.7.3"),
        // OTLP over HTTP only: the gRPC exporter's packages are not built.
        .package(url: "https://github.com/swift-otel/swift-otel.git", exact: "1.6.0", traits: ["OTLPHTTP"]),
    ],
    targets: [
        .target(name: "Domain", swiftSettings: strict),
        // The process's metrics: swift-metrics' API over one swift-prometheus registry
        // (docs/observability.md); every layer below the edge records into it.
        .target(
            name: "Telemetry",
            dependencies: [
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "EventStore",
            dependencies: [
                "Domain", "Telemetry",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                // The store's own connections: a handler before PostgresNIO's (CommitLedger.swift).
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                // ConnectionPoolError: the pool's "gave up opening connections" (DatabaseHealth).
                .product(name: "_ConnectionPoolModule", package: "postgres-nio"),
                .product(name: "GRDB", package: "GRDB.swift"),
                // sqlite3_wal_hook: the log's checkpoints off the writer (SQLiteCheckpointer.swift).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .systemLibrary(name: "CRabbitMQ", pkgConfig: "librabbitmq", providers: [.apt(["librabbitmq-dev"])]),
        .target(
            name: "Messaging",
            dependencies: [
                "Domain", "EventStore", "CRabbitMQ", "Telemetry",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "Projections",
            dependencies: [
                "Domain", "EventStore", "Telemetry",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "Services",
            dependencies: [
                "Domain", "EventStore", "Messaging", "Projections", "Telemetry",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // The adapters behind the services' ports: SMTP and the .eml outbox (Mailer), the
        // sandbox PSP in process and over HTTP (PaymentProvider, SandboxTester).
        .target(
            name: "Integrations",
            dependencies: [
                "Domain", "Services", "Telemetry",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "App",
            dependencies: [
                "Domain", "EventStore", "Messaging", "Projections", "Services", "Integrations", "Telemetry",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "Gateway",
            dependencies: [
                "Domain", "EventStore", "Messaging", "Projections", "Services", "Integrations", "App", "Telemetry",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "coworkflow",
            dependencies: [
                "Domain", "EventStore", "Messaging", "Projections", "Services", "Integrations", "App", "Gateway", "Telemetry",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "CoworkflowBench",
            dependencies: [
                "Domain", "EventStore", "Messaging", "Projections", "Services", "TestSupport",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(name: "DomainTests", dependencies: ["Domain", "TestSupport"], swiftSettings: tests),
        // What more than one test target uses (a TCP proxy that can cut or stall a link), and
        // coworkflow-bench's faults harness; the product (coworkflow) does not ship it.
        .target(
            name: "TestSupport",
            dependencies: [
                "Domain", "EventStore", "Projections", "Telemetry",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            path: "Tests/TestSupport",
            swiftSettings: strict
        ),
        .testTarget(
            name: "EventStoreTests",
            dependencies: [
                "Domain", "EventStore", "TestSupport",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["Fixtures"],
            swiftSettings: tests
        ),
        .testTarget(
            name: "GatewayTests",
            dependencies: [
                "Domain", "EventStore", "Messaging", "Projections", "Services", "Integrations", "App", "Gateway", "TestSupport", "Telemetry",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: tests
        ),
        // Unit tests of the services and of the projection runner; the HTTP flows are GatewayTests.
        .testTarget(
            name: "ServicesTests",
            dependencies: [
                "Domain", "EventStore", "Projections", "Services", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: tests
        ),
        .testTarget(
            name: "ProjectionsTests",
            dependencies: [
                "Domain", "EventStore", "Projections", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: tests
        ),
        .testTarget(
            name: "MessagingTests",
            dependencies: [
                "Domain", "EventStore", "Messaging", "TestSupport", "Telemetry",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: tests
        ),
    ]
)
