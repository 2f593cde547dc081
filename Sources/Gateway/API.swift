import Foundation
import HTTPTypes
import Hummingbird
import Services

/// One documented route: what `/openapi.json` says about it.
struct Operation: Sendable {
    let method: HTTPRequest.Method
    /// OpenAPI form: `/api/usuarios/{id}`.
    let path: String
    let summary: String
    let tag: String
    /// Needs a bearer token (and, when `admin`, the admin role).
    var auth = false
    var admin = false
    /// Component schema names of the JSON body and of the success response.
    var request: String?
    var response: String?
    var success = 200
    var errors: [Int] = []
    var query: [(name: String, description: String)] = []
    /// Not JSON (metrics text, the docs page).
    var contentType = "application/json"
}

/// The route table: every route is registered through it, so the OpenAPI document lists
/// exactly what the router serves (a test holds the two together).
final class API {
    private(set) var router: Router<GatewayContext>
    private(set) var operations: [Operation] = []
    let idempotency: IdempotencyCache
    /// Run after a write succeeds, before it answers (read-your-writes in all-in-one mode).
    let settle: @Sendable () async -> Void

    init(router: Router<GatewayContext>, idempotency: IdempotencyCache, settle: @escaping @Sendable () async -> Void = {}) {
        self.router = router
        self.idempotency = idempotency
        self.settle = settle
    }

    func add(_ operation: Operation, _ respond: @escaping @Sendable (Request, GatewayContext, Data) async throws -> Reply) {
        operations.append(operation)
        let mutating = [.post, .put, .patch, .delete].contains(operation.method)
        let idempotency = self.idempotency
        let settle = self.settle
        @Sendable func handler(_ request: Request, _ context: GatewayContext, _ body: Data) async throws -> Reply {
            let reply = try await respond(request, context, body)
            if mutating { await settle() }
            return reply
        }
        router.on(RouterPath(operation.path), method: operation.method) { request, context -> Response in
            if operation.auth { _ = try context.requireUser() }
            if operation.admin { _ = try context.requireAdmin() }
            guard mutating else { return try await handler(request, context, Data()).response }
            let body = Data(try await request.body.collect(upTo: context.maxUploadSize).readableBytesView)
            guard let key = request.headers[.idempotencyKey] else {
                return try await handler(request, context, body).response
            }
            guard (1...255).contains(key.count) else {
                throw ServiceError.requisicaoInvalida("Idempotency-Key deve ter de 1 a 255 caracteres")
            }
            let owner = context.subject?.usuario ?? context.remoteAddress?.ipAddress ?? "anonimo"
            let scoped = "\(owner)|\(key)"
            let fingerprint = IdempotencyCache.fingerprint(method: request.method.rawValue, path: request.uri.path, body: body)
            switch try idempotency.begin(key: scoped, fingerprint: fingerprint) {
            case .replay(let reply):
                var response = reply.response
                response.headers[.init("Idempotent-Replayed")!] = "true"
                return response
            case .proceed:
                do {
                    let reply = try await handler(request, context, body)
                    idempotency.finish(key: scoped, reply: reply)
                    return reply.response
                } catch let error as ServiceError {
                    idempotency.finish(key: scoped, reply: error.reply(requestId: context.requestId))
                    throw error
                } catch {
                    idempotency.finish(key: scoped, reply: nil)
                    throw error
                }
            }
        }
    }
}

extension Reply {
    var response: Response {
        var response = body.map { JSON.data($0, status: HTTPResponse.Status(code: status), contentType: headers["Content-Type"] ?? "application/json; charset=utf-8") }
            ?? Response(status: HTTPResponse.Status(code: status))
        for (name, value) in headers where name != "Content-Type" {
            if let field = HTTPField.Name(name) { response.headers[field] = value }
        }
        return response
    }

    static func json<T: Encodable>(_ value: T, status: Int = 200) throws -> Reply {
        Reply(status: status, body: try JSON.encoder.encode(value))
    }
}
