public import App
public import Hummingbird
public import Logging
public import NIOCore
import Services

/// The HTTP edge: middleware, routes, and the application that serves them.
public struct GatewayConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// The other web origins that may call the API from a browser (CORS); default none.
    public var allowedOrigins: AllowedOrigins
    /// Nil: no limits (a service behind the distributed gateway, which limits at the edge).
    public var rateLimiter: RateLimiter?
    public var role: Role
    /// The web app's folder, served outside the API (all-in-one mode); nil: none.
    public var webRoot: String?

    public init(
        host: String = "127.0.0.1", port: Int = 8080, allowedOrigins: AllowedOrigins = .none, rateLimiter: RateLimiter? = RateLimiter(),
        role: Role = .allInOne, webRoot: String? = nil
    ) {
        self.webRoot = webRoot
        self.host = host
        self.port = port
        self.allowedOrigins = allowedOrigins
        self.rateLimiter = rateLimiter
        self.role = role
    }
}

public enum GatewayApp {
    /// The router with every route, and the route table behind `/openapi.json`.
    static func router(
        _ backend: Backend, configuration: GatewayConfiguration, drain: DrainState, metrics: Metrics
    )
        -> (Router<GatewayContext>, [Operation])
    {
        // HEAD is GET without the body (and with GET's Content-Length) on every GET route:
        // health checks and link checkers send it. The web app's files answer it themselves.
        let router = Router(context: GatewayContext.self, options: .autoGenerateHeadEndpoints)
        let routes = RouteTable()
        var edge = EdgeMiddleware(drain: drain, metrics: metrics, allowedOrigins: configuration.allowedOrigins, routes: routes)
        if case .service = configuration.role { edge.continuesCallersTrace = true }
        router.add(middleware: edge)
        if let webRoot = configuration.webRoot { router.add(middleware: WebAppMiddleware(root: webRoot)) }
        var proxies = configuration.rateLimiter?.proxies ?? .none
        var accountStaleness: Duration?
        // A service hears only from the gateway, which names the caller last in X-Forwarded-For
        // and has just checked the caller's account.
        switch configuration.role {
        case .service, .operations:
            proxies = .everyone
            accountStaleness = AuthMiddleware.behindGateway
        case .allInOne, .gateway: break
        }
        if let limiter = configuration.rateLimiter { router.add(middleware: RateLimitMiddleware(limiter: limiter, stage: .client)) }
        let adiadas = ContasAdiadas()
        router.add(middleware: AuthMiddleware(usuarios: backend.usuarios, staleness: accountStaleness, adiadas: adiadas))
        if let limiter = configuration.rateLimiter { router.add(middleware: RateLimitMiddleware(limiter: limiter, stage: .user)) }
        let api = API(
            router: router, idempotency: Idempotency(keys: backend.store, fingerprintKey: backend.usuarios.tokens.fingerprintKey),
            role: configuration.role, proxies: proxies, adiadas: adiadas,
            settle: { position, types in await backend.settle(upTo: position, types: types) })
        api.owner = .usuarios
        Routes.usuarios(api, backend)
        Routes.lgpd(api, backend)
        Routes.admin(api, backend)
        api.owner = .espacos
        Routes.espacos(api, backend)
        api.owner = .precos
        Routes.precos(api, backend)
        api.owner = .reservas
        Routes.reservas(api, backend)
        api.owner = .pagamentos
        Routes.pagamentos(api, backend)
        api.owner = .checkin
        Routes.checkin(api, backend)
        Routes.visitas(api, backend)
        Routes.encomendas(api, backend)
        Routes.chamados(api, backend)
        Routes.encontros(api, backend)
        Routes.tours(api, backend)
        api.owner = .notificacoes
        Routes.notificacoes(api, backend)
        api.owner = .financeiro
        Routes.financeiro(api, backend)
        api.owner = .analytics
        Routes.analytics(api, backend)
        api.owner = .assinaturas
        Routes.assinaturas(api, backend)
        Routes.planos(api, backend)
        Routes.pacotes(api, backend)
        Routes.empresas(api, backend)
        api.owner = nil
        Routes.operations(api, backend)
        Routes.documentation(api)
        routes.set(api.operations)
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
    public static func documentedRoutes(_ backend: Backend, role: Role = .allInOne) -> [String] {
        router(backend, configuration: GatewayConfiguration(role: role), drain: DrainState(), metrics: Metrics()).1
            .map { "\($0.method.rawValue) \($0.path)" }
    }
}
