import EventStore
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import Services
import Synchronization

extension HTTPField.Name {
    static let requestId = Self("X-Request-Id")!
    static let idempotencyKey = Self("Idempotency-Key")!
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
    let allowedOrigin: String
    let routes: RouteTable

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
        var response: Response
        if drain.isDraining {
            response = ServiceError.indisponivel("o servidor está encerrando; tente de novo em instantes", retryAfter: 2)
                .response(requestId: context.requestId)
        } else if request.method == .options {
            response = Response(status: .noContent)
        } else {
            do {
                response = try await next(request, context)
            } catch let error as ServiceError {
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
                    status: 503, codigo: "banco_de_dados_indisponivel",
                    mensagem: "o banco de dados está inacessível no momento; tente de novo em instantes", retryAfter: 2)
                    .response(requestId: context.requestId)
            } catch let error as PaymentProviderError {
                // The provider refused or did not answer (the sandbox's tester routes): not our 500.
                context.logger.error("payment provider failed: \(error)", metadata: ["requestId": "\(context.requestId)"])
                response = ServiceError(
                    status: 502, codigo: "provedor_de_pagamento_indisponivel",
                    mensagem: "o provedor de pagamentos não atendeu; tente de novo em instantes", retryAfter: 5)
                    .response(requestId: context.requestId)
            } catch let error as HTTPError where error.status == .notFound {
                let methods = routes.methods(for: request.uri.path)
                if methods.isEmpty {
                    response = ServiceError(
                        status: 404, codigo: "rota_nao_encontrada",
                        mensagem: "nenhuma rota \(request.method) \(request.uri.path); veja /openapi.json")
                        .response(requestId: context.requestId)
                } else {
                    let allowed = methods.map(\.rawValue).sorted().joined(separator: ", ")
                    response = ServiceError(
                        status: 405, codigo: "metodo_nao_permitido",
                        mensagem: "\(request.uri.path) aceita \(allowed), não \(request.method); veja /openapi.json")
                        .response(requestId: context.requestId)
                    response.headers[.allow] = allowed
                }
            } catch let error as HTTPError {
                response = ServiceError(
                    status: Int(error.status.code), codigo: error.status.code == 413 ? "corpo_grande_demais" : "requisicao_invalida",
                    mensagem: error.body ?? error.status.reasonPhrase)
                    .response(requestId: context.requestId)
            } catch let error as any HTTPResponseError {
                let tooLarge = error.status == .contentTooLarge
                response = ServiceError(
                    status: Int(error.status.code), codigo: tooLarge ? "corpo_grande_demais" : "requisicao_invalida",
                    mensagem: tooLarge ? "o corpo passa de \(context.maxUploadSize) bytes" : error.status.reasonPhrase)
                    .response(requestId: context.requestId)
            } catch {
                // (A request body's decoding errors are 400s from `JSON.decode`; one that gets
                // here is stored data that did not decode: ours, logged.)
                context.logger.error("unexpected failure", metadata: [
                    "requestId": "\(context.requestId)", "error": "\(String(reflecting: error))",
                ])
                response = ServiceError(status: 500, codigo: "erro_interno", mensagem: "erro interno; informe o requestId")
                    .response(requestId: context.requestId)
            }
        }
        response.headers[.requestId] = context.requestId
        response.headers[.accessControlAllowOrigin] = allowedOrigin
        response.headers[.accessControlAllowHeaders] = "Authorization, Content-Type, Idempotency-Key, X-Request-Id"
        response.headers[.accessControlAllowMethods] = "GET, POST, PUT, PATCH, DELETE, OPTIONS"
        response.headers[.accessControlExposeHeaders] = "X-Request-Id, Retry-After"
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
        context.logger.info("\(request.method) \(request.uri.path) \(response.status.code)", metadata: [
            "requestId": "\(context.requestId)", "ms": "\(String(format: "%.1f", Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000))",
        ])
        return response
    }
}

/// Reads the bearer token when there is one; routes decide whether they need it.
struct AuthMiddleware: RouterMiddleware {
    typealias Context = GatewayContext
    let usuarios: UsuariosService
    /// How old a check of the account may be and still count (nil: every request reads it).
    /// A service behind the gateway, which checks it on every request, accepts one made in the
    /// last second (ADR 0005); the gateway and the all-in-one server always read.
    var staleness: Duration? = nil

    /// A service's ``staleness``.
    static let behindGateway: Duration = .seconds(1)

    func handle(_ request: Request, context: GatewayContext, next: (Request, GatewayContext) async throws -> Response) async throws -> Response {
        var context = context
        if let header = request.headers[.authorization] {
            let invalid = ServiceError(status: 401, codigo: "token_invalido", mensagem: "o token é inválido ou expirou; faça login de novo")
            guard header.lowercased().hasPrefix("bearer "),
                let subject = await usuarios.verificar(token: String(header.dropFirst("bearer ".count)).trimmingCharacters(in: .whitespaces))
            else { throw invalid }
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
        let ip = clientAddress(request, context, trustForwardedFor: limiter.trustForwardedFor)
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
                    status: 429, codigo: "muitas_requisicoes",
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
    /// A member's exports of their own data (LGPD) per user: each reads the whole log.
    public let dataExport: Limit
    public let trustForwardedFor: Bool
    private let buckets = Mutex<[String: (tokens: Double, at: ContinuousClock.Instant)]>([:])

    public init(
        perClient: Limit = Limit(burst: 200, perSecond: 100), perUser: Limit = Limit(burst: 100, perSecond: 50),
        login: Limit = Limit(burst: 10, perSecond: 0.2), registration: Limit = Limit(burst: 20, perSecond: 1),
        passwordChange: Limit = Limit(burst: 5, perSecond: 0.1), dataExport: Limit = Limit(burst: 3, perSecond: 1.0 / 60),
        trustForwardedFor: Bool = false
    ) {
        self.perClient = perClient
        self.perUser = perUser
        self.login = login
        self.registration = registration
        self.passwordChange = passwordChange
        self.dataExport = dataExport
        self.trustForwardedFor = trustForwardedFor
    }

    /// Takes a token; nil when granted, else the whole seconds to wait.
    func take(_ key: String, _ limit: Limit) -> Int? {
        let now = ContinuousClock.now
        return buckets.withLock { buckets in
            if buckets.count > 50_000 { buckets.removeAll() }
            var bucket = buckets[key] ?? (limit.burst, now)
            let elapsed = now - bucket.at
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            bucket.tokens = min(limit.burst, bucket.tokens + seconds * limit.perSecond)
            bucket.at = now
            guard bucket.tokens >= 1 else {
                buckets[key] = bucket
                return max(1, Int(((1 - bucket.tokens) / max(limit.perSecond, 0.001)).rounded(.up)))
            }
            bucket.tokens -= 1
            buckets[key] = bucket
            return nil
        }
    }
}
