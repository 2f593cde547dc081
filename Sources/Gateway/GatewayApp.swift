public import Hummingbird
public import Logging
public import NIOCore
import Services

/// The HTTP edge: middleware, routes, and the application that serves them.
public struct GatewayConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// `Access-Control-Allow-Origin`.
    public var allowedOrigin: String
    public var rateLimiter: RateLimiter

    public init(host: String = "127.0.0.1", port: Int = 8080, allowedOrigin: String = "*", rateLimiter: RateLimiter = RateLimiter()) {
        self.host = host
        self.port = port
        self.allowedOrigin = allowedOrigin
        self.rateLimiter = rateLimiter
    }
}

public enum GatewayApp {
    /// The router with every route, and the route table behind `/openapi.json`.
    static func router(_ backend: Backend, configuration: GatewayConfiguration, drain: DrainState, metrics: Metrics)
        -> (Router<GatewayContext>, [Operation])
    {
        let router = Router(context: GatewayContext.self)
        router.add(middleware: EdgeMiddleware(drain: drain, metrics: metrics, allowedOrigin: configuration.allowedOrigin))
        router.add(middleware: AuthMiddleware(usuarios: backend.usuarios))
        router.add(middleware: RateLimitMiddleware(limiter: configuration.rateLimiter))
        let api = API(router: router, idempotency: IdempotencyCache(), settle: { await backend.settle() })
        Routes.usuarios(api, backend)
        Routes.lgpd(api, backend)
        Routes.admin(api, backend)
        Routes.espacos(api, backend)
        Routes.precos(api, backend)
        Routes.reservas(api, backend)
        Routes.operations(api, backend, metrics: metrics)
        Routes.documentation(api)
        return (api.router, api.operations)
    }

    public static func application(
        _ backend: Backend, configuration: GatewayConfiguration, drain: DrainState = DrainState(), metrics: Metrics = Metrics(),
        logger: Logger, onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let (router, _) = router(backend, configuration: configuration, drain: drain, metrics: metrics)
        return Application(
            router: router,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "coworkflow"),
            onServerRunning: onServerRunning, logger: logger)
    }

    /// The documented routes (for tests that hold the document and the router together).
    public static func documentedRoutes(_ backend: Backend) -> [String] {
        router(backend, configuration: GatewayConfiguration(), drain: DrainState(), metrics: Metrics()).1
            .map { "\($0.method.rawValue) \($0.path)" }
    }
}
