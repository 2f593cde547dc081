import EventStore
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import Services
import Synchronization
import Telemetry
import Tracing

extension HTTPField.Name {
    static let requestId = Self("X-Request-Id")!
    static let idempotencyKey = Self("Idempotency-Key")!
    static let xFrameOptions = Self("X-Frame-Options")!
}

/// Set when the process begins to shut down: requests that arrive afterwards get 503 while
/// the ones in flight finish.
public final class DrainState: Sendable {
    private let draining = Atomic(false)
    public init() {}
    public var isDraining: Bool { draining.load(ordering: .relaxed) }
    public func startDraining() { draining.store(true, ordering: .relaxed) }
}

/// The API's paths and their methods, known once every route is added: a request for a known
/// path with another method is a 405 that says which methods the path takes, not a 404.
final class RouteTable: Sendable {
    private let routes = Mutex<[(method: HTTPRequest.Method, segments: [Substring])]>([])

    func set(_ operations: [Operation]) {
        routes.withLock { $0 = operations.map { ($0.method, $0.path.split(separator: "/")) } }
    }

    /// The methods `path` takes (empty when no route has that path).
    func methods(for path: String) -> [HTTPRequest.Method] {
        let asked = path.split(separator: "/")
        return routes.withLock { routes in
            var methods: [HTTPRequest.Method] = []
            for route in routes where !methods.contains(route.method) && Self.matches(route.segments, asked) {
                methods.append(route.method)
            }
            return methods
        }
    }

    /// The registered path (`/api/espacos/{id}`) that `path` matches, whatever the method; nil
    /// when none does. The metrics label requests with it, so that no request path, however
    /// made up, becomes a series of its own.
    func template(for path: String) -> String? {
        let asked = path.split(separator: "/")
        return routes.withLock { routes in
            routes.first { Self.matches($0.segments, asked) }.map { "/" + $0.segments.joined(separator: "/") }
        }
    }

    private static func matches(_ segments: [Substring], _ asked: [Substring]) -> Bool {
        segments.count == asked.count && zip(segments, asked).allSatisfy { template, segment in template.first == "{" || template == segment }
    }
}

/// The outermost middleware: request id, CORS, draining, the JSON error format for every
/// failure (unknown routes and oversized bodies included), the access log and the metrics.
struct EdgeMiddleware: RouterMiddleware {
    typealias Context = GatewayContext
    let drain: DrainState
    let metrics: Metrics
    let allowedOrigins: AllowedOrigins
    let routes: RouteTable
    /// Whether a caller's `traceparent` is continued: only in a service behind the gateway,
    /// whose callers are ours. The public edge starts its own traces, so no outside caller
    /// chooses to be sampled or joins a trace of ours.
    var continuesCallersTrace = false

    static let traceparent = HTTPField.Name("traceparent")!

    /// Whether the path, percent-decoded, holds a control character (or is not decodable).
    static func hasControlCharacter(_ path: String) -> Bool {
        guard let decoded = path.removingPercentEncoding else { return true }
        return decoded.unicodeScalars.contains { $0.properties.generalCategory == .control }
            || path.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    func handle(_ request: Request, context: GatewayContext, next: (Request, GatewayContext) async throws -> Response) async throws -> Response {
        var context = context
        // ASCII letters, digits, '-', '_' and '.', 1 to 128 bytes: it goes into every event's
        // metadata and every log line (a letter with 40,000 combining marks is one Character).
        if let incoming = request.headers[.requestId], (1...128).contains(incoming.utf8.count),
            incoming.utf8.allSatisfy({ byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
                    || byte == UInt8(ascii: ".")
            })
        {
            context.requestId = incoming
        }
        let started = ContinuousClock.now
        let span = Traces.enabled ? serverSpan(request) : nil
        var response: Response
        if drain.isDraining {
            response = ServiceError.indisponivel("o servidor está encerrando; tente de novo em instantes", retryAfter: 2)
                .response(requestId: context.requestId)
        } else if request.method == .options {
            response = Response(status: .noContent)
        } else if Self.hasControlCharacter(request.uri.path) {
            // A NUL or a line break in a path names no route and no file: refused before any
            // file or route sees it (`/index.html%00.js` would otherwise serve a page as script).
            response = ServiceError.requisicaoInvalida("o caminho da requisição contém caracteres de controle ou um escape % inválido")
                .response(requestId: context.requestId)
        } else {
            do {
                if let span {
                    response = try await InstrumentationContext.$current.withValue(span.context) { try await next(request, context) }
                } else {
                    response = try await next(request, context)
                }
            } catch let error as ServiceError {
                if let causa = error.causa {
                    context.logger.warning("\(error.codigo): \(causa)", metadata: ["requestId": "\(context.requestId)"])
                }
                response = error.response(requestId: context.requestId)
            } catch is WrongExpectedVersion {
                response = ServiceError.conflito("conflito_de_versao", "o recurso mudou durante a requisição; tente de novo")
                    .response(requestId: context.requestId)
            } catch let error as EventStoreError where error.code == .unavailable {
                // The database is down or restarting. Usually nothing was decided (the call
                // failed before it reached the database), but a connection lost mid-statement
                // leaves it unknown: the message does not promise either way.
                context.logger.error("database unavailable", metadata: ["requestId": "\(context.requestId)", "error": "\(error.message)"])
                response = ServiceError(
                    .indisponivel, codigo: "banco_de_dados_indisponivel",
                    mensagem: "o banco de dados está inacessível no momento; tente de novo em instantes", retryAfter: 2
                )
                .response(requestId: context.requestId)
            } catch let error as PaymentProviderError {
                // The provider refused or did not answer (the sandbox's tester routes): not our 500.
                context.logger.error("payment provider failed: \(error)", metadata: ["requestId": "\(context.requestId)"])
                response = ServiceError(
                    .indisponivel, codigo: "provedor_de_pagamento_indisponivel",
                    mensagem: "o provedor de pagamentos não atendeu; tente de novo em instantes", retryAfter: 5
                )
                .response(requestId: context.requestId, status: 502)
            } catch let error as HTTPError where error.status == .notFound {
                let methods = routes.methods(for: request.uri.path)
                if methods.isEmpty {
                    response = ServiceError(
                        .naoEncontrado, codigo: "rota_nao_encontrada",
                        mensagem: "nenhuma rota \(request.method) \(request.uri.path); veja /openapi.json"
                    )
                    .response(requestId: context.requestId)
                } else {
                    let allowed = methods.map(\.rawValue).sorted().joined(separator: ", ")
                    response = ServiceError(
                        .requisicaoInvalida, codigo: "metodo_nao_permitido",
                        mensagem: "\(request.uri.path) aceita \(allowed), não \(request.method); veja /openapi.json"
                    )
                    .response(requestId: context.requestId, status: 405)
                    response.headers[.allow] = allowed
                }
            } catch let error as HTTPError {
                response = ServiceError(
                    .requisicaoInvalida, codigo: error.status.code == 413 ? "corpo_grande_demais" : "requisicao_invalida",
                    mensagem: error.body ?? error.status.reasonPhrase
                )
                .response(requestId: context.requestId, status: Int(error.status.code))
            } catch let error as any HTTPResponseError {
                let tooLarge = error.status == .contentTooLarge
                response = ServiceError(
                    .requisicaoInvalida, codigo: tooLarge ? "corpo_grande_demais" : "requisicao_invalida",
                    mensagem: tooLarge ? "o corpo passa de \(context.maxUploadSize) bytes" : error.status.reasonPhrase
                )
                .response(requestId: context.requestId, status: Int(error.status.code))
            } catch {
                // (A request body's decoding errors are 400s from `JSON.decode`; one that gets
                // here is stored data that did not decode: ours, logged.)
                context.logger.error(
                    "unexpected failure",
                    metadata: [
                        "requestId": "\(context.requestId)", "error": "\(String(reflecting: error))",
                    ])
                response = ServiceError(.interno, codigo: "erro_interno", mensagem: "erro interno; informe o requestId")
                    .response(requestId: context.requestId)
            }
        }
        response.headers[.requestId] = context.requestId
        // Every answer is what its Content-Type says (never sniffed into script or a page),
        // and no page of ours is framed by another site (clickjacking).
        response.headers[.xContentTypeOptions] = "nosniff"
        if response.headers[.contentSecurityPolicy] == nil { response.headers[.contentSecurityPolicy] = "frame-ancestors 'none'" }
        response.headers[.xFrameOptions] = "DENY"
        if let origin = request.headers[.origin], allowedOrigins.allows(origin) {
            response.headers[.accessControlAllowOrigin] = allowedOrigins.everyone ? "*" : origin
        }
        if !allowedOrigins.everyone { response.headers[.vary] = "Origin" }
        response.headers[.accessControlAllowHeaders] = "Authorization, Content-Type, Idempotency-Key, X-Request-Id, Coworkflow-Consistencia"
        response.headers[.accessControlAllowMethods] = "GET, POST, PUT, PATCH, DELETE, OPTIONS"
        response.headers[.accessControlExposeHeaders] = "X-Request-Id, Retry-After, Coworkflow-Consistencia, Idempotent-Replayed"
        let elapsed = ContinuousClock.now - started
        // Series are labelled with the route's template, the web app's files share one, and
        // any other path shares "(desconhecida)": no request can grow the metrics without bound.
        // The router names the route it matched (`/api/espacos/{id}`); otherwise (a 405, a
        // request refused before routing) the table finds it.
        let route =
            switch context.endpointPath {
            case "FileMiddleware": "(web)"
            case let matched? where matched.hasPrefix("/"): matched
            default: routes.template(for: request.uri.path) ?? "(desconhecida)"
            }
        metrics.observe(method: Metrics.method(request.method), route: route, status: Int(response.status.code), duration: elapsed)
        func log() {
            context.logger.info(
                "\(request.method) \(AccessLog.path(request.uri.path)) \(response.status.code)",
                metadata: [
                    "requestId": "\(context.requestId)",
                    "ms": "\(String(format: "%.1f", Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000))",
                ])
        }
        guard let span else {
            log()
            return response
        }
        span.operationName = "\(Metrics.method(request.method)) \(route)"
        span.attributes["http.route"] = route
        span.attributes["http.response.status_code"] = Int(response.status.code)
        span.attributes["coworkflow.request_id"] = context.requestId
        if response.status.code >= 500 { span.setStatus(SpanStatus(code: .error)) }
        // The access log line carries the span's trace and span ids.
        InstrumentationContext.$current.withValue(span.context) { log() }
        span.end()
        return response
    }
}

extension EdgeMiddleware {
    /// The request's server span (named by its route once routed); the caller's trace continues
    /// only where ``continuesCallersTrace``. Its path and query stay out of it (a query may hold
    /// an e-mail address).
    func serverSpan(_ request: Request) -> any Span {
        let parent =
            continuesCallersTrace
            ? Traces.context(traceparent: request.headers[Self.traceparent])
            : InstrumentationContext.current ?? .topLevel
        let span = startSpan("\(Metrics.method(request.method))", context: parent, ofKind: .server)
        span.attributes["http.request.method"] = Metrics.method(request.method)
        return span
    }
}

/// How the access log writes a request's path. A tour's id and a company invitation's token are
/// the secret of a link sent by e-mail (whoever holds `/tour/<id>` sees and cancels the tour;
/// `/convite/<token>` joins the company), so the segment after `tour(s)` or `convite(s)` is written
/// `…` (also on the team's routes, `/api/admin/tours/<id>/…`, the same id); the routes' own words
/// there (`/api/tours/horarios`) are lowercase letters only, which no id or token is.
enum AccessLog {
    static func path(_ path: String) -> String {
        var segments = path.split(separator: "/", omittingEmptySubsequences: false)
        var masked = false
        // The word before is the segment before that is not empty: the router skips empty ones
        // (`/api/tours//<id>` is the tour).
        var anterior: Substring = ""
        for i in segments.indices where !segments[i].isEmpty {
            if links.contains(anterior) && !literal(segments[i]) {
                segments[i] = "…"
                masked = true
            }
            anterior = segments[i]
        }
        return masked ? segments.joined(separator: "/") : path
    }

    private static let links: Set<Substring> = ["tour", "tours", "convite", "convites"]

    private static func literal(_ segment: Substring) -> Bool { segment.utf8.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) } }
}

/// The web origins other than the app's own that may call the API from a browser (CORS):
/// `CORS_ORIGINS`, exact origins separated by commas, or `*` for any. Default: none (the web
/// app is served from the API's own origin and needs no CORS).
public struct AllowedOrigins: Sendable, Equatable {
    let origins: Set<String>
    let everyone: Bool

    public static let none = AllowedOrigins(origins: [], everyone: false)

    init(origins: Set<String>, everyone: Bool) {
        self.origins = origins
        self.everyone = everyone
    }

    /// Parses `https://app.example.com, http://localhost:3000` or `*`.
    public init(parsing text: String) {
        let entries = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        self.init(origins: Set(entries.filter { $0 != "*" }.map { $0.lowercased() }), everyone: entries.contains("*"))
    }

    func allows(_ origin: String) -> Bool { everyone || origins.contains(origin.lowercased()) }
}

/// Reads the bearer token when there is one; routes decide whether they need it.
struct AuthMiddleware: RouterMiddleware {
    typealias Context = GatewayContext
    let usuarios: UsuariosService
    /// How old a check of the account may be and still count (nil: every request reads it).
    /// A service behind the gateway, which checks it on every request it forwards (but those
    /// in ``adiadas``), accepts one made in the last second (ADR 0005); the gateway and the
    /// all-in-one server always read.
    var staleness: Duration? = nil

    /// A service's ``staleness``.
    static let behindGateway: Duration = .seconds(1)
    /// The routes whose command checks the account itself, with what it reads ahead
    /// (``Operation/contaNoComando``), here or, at the distributed gateway, in the service it
    /// forwards them to: for them the account is not read here.
    var adiadas: ContasAdiadas? = nil

    func handle(_ request: Request, context: GatewayContext, next: (Request, GatewayContext) async throws -> Response) async throws -> Response {
        var context = context
        if let header = request.headers[.authorization] {
            let invalid = ServiceError(.naoAutenticado, codigo: "token_invalido", mensagem: "o token é inválido ou expirou; faça login de novo")
            guard header.lowercased().hasPrefix("bearer "),
                let subject = await usuarios.verificar(token: String(header.dropFirst("bearer ".count)).trimmingCharacters(in: .whitespaces))
            else { throw invalid }
            if let adiadas, adiadas.contains(request.method, request.uri.path) {
                // Checked by the command, in the same round trip as what it reads ahead, before
                // it decides anything (the API checks it here when the command did not).
                context.subject = TokenIssuer.Subject(usuario: subject.usuario, papel: subject.papel, emitidoEm: subject.emitidoEm)
                // Read fresh, also behind the gateway: it left this check to the command.
                context.conta = ContaPendente(usuarios: usuarios, usuario: subject.usuario, emitidoEm: subject.emitidoEm, staleness: nil)
                return try await next(request, context)
            }
            // The account as it is now: a deactivated or erased account's token stops working,
            // so does one issued before the last password change, and the role is today's, not
            // the one at login.
            guard let acesso = try await usuarios.acesso(usuario: subject.usuario, emitidoEm: subject.emitidoEm, staleness: staleness) else {
                throw invalid
            }
            context.subject = TokenIssuer.Subject(usuario: subject.usuario, papel: acesso.papel, emitidoEm: subject.emitidoEm, plano: acesso.plano)
        }
        return try await next(request, context)
    }
}

/// The routes (method and path, as the router matches it: repeated and trailing slashes
/// ignored) whose command checks the caller's account itself (``Operation/contaNoComando``),
/// in this process or in the service the gateway forwards it to. Filled while the routes are
/// added, before any request.
final class ContasAdiadas: Sendable {
    /// Per method, the paths (their segments joined by single slashes).
    private let rotas = Mutex<[HTTPRequest.Method: Set<String>]>([:])

    func add(_ method: HTTPRequest.Method, _ path: String) {
        rotas.withLock { _ = $0[method, default: []].insert(Self.normal(path)) }
    }

    /// Every authenticated request asks: one of another method (a query) is answered without
    /// building anything.
    func contains(_ method: HTTPRequest.Method, _ path: String) -> Bool {
        rotas.withLock { rotas in rotas[method].map { $0.contains(Self.normal(path)) } ?? false }
    }

    private static func normal(_ path: String) -> String {
        path.split(separator: "/").joined(separator: "/")
    }
}

/// Token buckets per client IP (before authentication) and per user (after it); login,
/// registration, password change and data export have tighter ones of their own.
struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = GatewayContext
    let limiter: RateLimiter
    /// Where it runs: before authentication the client's buckets (so a request with a forged
    /// or stale token spends its client's budget before the token is checked), after it the
    /// user's.
    let stage: Stage

    enum Stage { case client, user }

    func handle(_ request: Request, context: GatewayContext, next: (Request, GatewayContext) async throws -> Response) async throws -> Response {
        let ip = clientAddress(request, context, proxies: limiter.proxies)
        let user = context.subject?.usuario
        var keys: [(String, RateLimiter.Limit)] = []
        // The router ignores repeated and trailing slashes; so must these checks. The routes
        // that hash or check a password (~0.15 s of CPU each, twice for a password change)
        // have tight buckets per client, and per user for a password change (its wrong guesses
        // lock the account, but right ones, alternating two passwords, only cost CPU); a
        // member's data export reads the whole log, so it has a bucket of its own per user.
        let route = (request.method, request.uri.path.split(separator: "/").joined(separator: "/"))
        switch stage {
        case .client:
            keys.append(("ip:\(ip)", limiter.perClient))
            switch route {
            case (_, "api/auth/login"): keys.append(("login:\(ip)", limiter.login))
            case (.post, "api/auth/registro"): keys.append(("registro:\(ip)", limiter.registration))
            // A tour's booking sends an e-mail to the address typed, with no account behind it.
            case (.post, "api/tours"): keys.append(("tour:\(ip)", limiter.tours))
            case (.post, "api/auth/me/senha"): keys.append(("senha:\(ip)", limiter.passwordChange))
            default: break
            }
        case .user:
            if let user { keys.append(("user:\(user)", limiter.perUser)) }
            switch route {
            case (.post, "api/auth/me/senha"): if let user { keys.append(("senha-usuario:\(user)", limiter.passwordChange)) }
            case (.get, "api/auth/me/dados"), (.head, "api/auth/me/dados"): keys.append(("exportacao:\(user ?? ip)", limiter.dataExport))
            default: break
            }
        }
        for (key, limit) in keys {
            if let wait = limiter.take(key, limit) {
                throw ServiceError(
                    .limiteExcedido, codigo: "muitas_requisicoes",
                    mensagem: "limite de requisições atingido; tente de novo em \(wait) s", retryAfter: wait)
            }
        }
        return try await next(request, context)
    }
}

/// Token buckets in memory (per process).
public final class RateLimiter: Sendable {
    public struct Limit: Sendable {
        /// Requests allowed at once.
        public var burst: Double
        /// Requests per second refilled.
        public var perSecond: Double
        public init(burst: Double, perSecond: Double) {
            self.burst = burst
            self.perSecond = perSecond
        }
    }

    public let perClient: Limit
    public let perUser: Limit
    public let login: Limit
    /// Registrations per client: each hashes a password, like a login.
    public let registration: Limit
    /// Password changes per client and per user: each checks one password and hashes another.
    public let passwordChange: Limit
    /// Tours booked on the public site per client: each takes a place of a unit's time and
    /// e-mails an address typed by someone without an account.
    public let tours: Limit
    /// A member's exports of their own data (LGPD) per user: each reads the whole log.
    public let dataExport: Limit
    /// Who may name the client in X-Forwarded-For.
    public let proxies: TrustedProxies
    private let buckets = Mutex<[String: Bucket]>([:])
    /// Buckets kept at most; past it, the ones refilled to full (they hold nothing a new one
    /// would not) go, then the least recently used, down to nine tenths.
    let capacity: Int

    struct Bucket {
        var tokens: Double
        var at: ContinuousClock.Instant
        let limit: Limit

        /// The tokens at `now`.
        func tokens(at now: ContinuousClock.Instant) -> Double {
            let elapsed = now - at
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            return min(limit.burst, tokens + seconds * limit.perSecond)
        }
    }

    public init(
        perClient: Limit = Limit(burst: 200, perSecond: 100), perUser: Limit = Limit(burst: 100, perSecond: 50),
        login: Limit = Limit(burst: 10, perSecond: 0.2), registration: Limit = Limit(burst: 20, perSecond: 1),
        passwordChange: Limit = Limit(burst: 5, perSecond: 0.1), dataExport: Limit = Limit(burst: 3, perSecond: 1.0 / 60),
        tours: Limit = Limit(burst: 20, perSecond: 2.0 / 60), proxies: TrustedProxies = .none, capacity: Int = 50_000
    ) {
        self.capacity = max(1, capacity)
        self.perClient = perClient
        self.perUser = perUser
        self.login = login
        self.registration = registration
        self.passwordChange = passwordChange
        self.dataExport = dataExport
        self.tours = tours
        self.proxies = proxies
    }

    /// Takes a token; nil when granted, else the whole seconds to wait.
    func take(_ key: String, _ limit: Limit) -> Int? {
        let now = ContinuousClock.now
        return buckets.withLock { buckets in
            var bucket = buckets[key] ?? Bucket(tokens: limit.burst, at: now, limit: limit)
            bucket.tokens = bucket.tokens(at: now)
            bucket.at = now
            guard bucket.tokens >= 1 else {
                buckets[key] = bucket
                return max(1, Int(((1 - bucket.tokens) / max(limit.perSecond, 0.001)).rounded(.up)))
            }
            bucket.tokens -= 1
            buckets[key] = bucket
            if buckets.count > capacity { Self.evict(&buckets, keeping: capacity * 9 / 10, now: now) }
            return nil
        }
    }

    /// Down to `keeping` buckets: first those refilled to full, which a new bucket would
    /// replace exactly, then the least recently used of those that still grant a request, and
    /// only then, least recently used first, the spent ones (a client being refused, a login
    /// being slowed): no flood of new addresses resets the limits of the clients it follows.
    static func evict(_ buckets: inout [String: Bucket], keeping: Int, now: ContinuousClock.Instant) {
        buckets = buckets.filter { $0.value.tokens(at: now) < $0.value.limit.burst }
        guard buckets.count > keeping else { return }
        let order = buckets.map { (key: $0.key, spent: $0.value.tokens(at: now) < 1, at: $0.value.at) }
            .sorted { ($0.spent ? 1 : 0, $0.at) < ($1.spent ? 1 : 0, $1.at) }
        for entry in order.prefix(buckets.count - keeping) { buckets[entry.key] = nil }
    }

    /// How many buckets are kept (for tests).
    var count: Int { buckets.withLock { $0.count } }
}
