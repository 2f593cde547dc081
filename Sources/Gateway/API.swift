import App
import EventStore
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
    /// When it answers 204 with no body instead: a singular resource of the caller's that may
    /// not exist yet (my subscription, my company). Nothing there is no error, and a 404 would
    /// say the address is wrong.
    var vazio: String?
    var errors: [Int] = []
    var query: [QueryParameter] = []
    /// Not JSON (metrics text, the docs page).
    var contentType = "application/json"
    /// A query the distributed gateway sends to the owning service anyway: its answer lives in
    /// that process, not in a read model (the in-process sandbox's charges).
    var forwarded = false
    /// The body may carry fields its schema does not list (a provider's webhook: providers add
    /// fields to their notices); every other POST or PUT body is held to its schema.
    var openBody = false
    /// The body holds a password or the answer a token: `Idempotency-Key` is not honoured, so
    /// that no answer with a working token is kept (a retry simply runs again).
    var secret = false
    /// False for a POST that only computes an answer (a quote): it changes nothing, so it
    /// neither keeps an `Idempotency-Key` answer nor waits for the read models (a request
    /// that writes nothing otherwise waits for every read model to reach the log's head, in
    /// case it answered from an earlier write).
    var writes = true
    /// Where this process answers it, the command checks the caller's account itself, reading
    /// it with what it reads ahead (``Services/ContaPendente``): one round trip fewer. A static
    /// path, for members (not `admin`).
    var contaNoComando = false
    /// The command keeps its own `Idempotency-Key`: it derives the id of what it makes from the
    /// key, so the store's append is the dedupe, and a request that finds what its key made
    /// answers it (``Services/WriteReceipt/replayed``: `Idempotent-Replayed: true`). No
    /// `request_keys` row is claimed, answered or kept for it: two write transactions fewer a
    /// request. The command is handed the request's fingerprint (``Idempotency/digest(method:path:body:)``,
    /// ``Services/Caller/requestFingerprint``) and answers the key with another request 422.
    var chaveNoComando = false
}

/// A query parameter of a route, with the form the handler checks (a value of another form is
/// a 400 naming it), so that `/openapi.json` says what is accepted.
struct QueryParameter: Sendable {
    enum Form: Sendable {
        /// Text, of these many characters (Unicode scalars) and holding a match of `pattern` when given.
        case text(ClosedRange<Int>? = nil, pattern: String? = nil)
        /// `AAAA-MM-DD`, or blank for none.
        case optionalDate
        case integer(ClosedRange<Int>)
        /// An RFC 3339 instant with an offset (``RFC3339``).
        case instant
        /// `AAAA-MM-DD`.
        case date
        /// A UUID.
        case id
        case choice([String])
    }

    let name: String
    let description: String
    var form: Form = .text()
    var required = false

    static let pagina = QueryParameter(name: "pagina", description: "página, a partir de 1", form: .integer(1...1_000_000))

    static func id(_ name: String, _ description: String, required: Bool = false) -> QueryParameter {
        QueryParameter(name: name, description: description, form: .id, required: required)
    }

    /// A date; one that is not `required` may also be blank (no filter) when `blank`.
    static func date(_ name: String, _ description: String, required: Bool = false, blank: Bool = false) -> QueryParameter {
        QueryParameter(name: name, description: description, form: blank ? .optionalDate : .date, required: required)
    }

    static func instant(_ name: String, _ description: String) -> QueryParameter {
        QueryParameter(name: name, description: description, form: .instant)
    }

    static func text(_ name: String, _ description: String) -> QueryParameter {
        QueryParameter(name: name, description: description)
    }
}

/// The route table: every route is registered through it, so the OpenAPI document lists
/// exactly what the router serves (a test holds the two together).
///
/// The role decides where a route runs: all here (all-in-one); a service's own routes only
/// (`--service <name>`); or, at the distributed gateway, commands of the services it forwards
/// to go to them and the rest is answered here.
final class API {
    private(set) var router: Router<GatewayContext>
    private(set) var operations: [Operation] = []
    let idempotency: Idempotency
    let role: Role
    /// The service whose routes are being added (nil: the gateway's own, like `/saude`).
    var owner: Deployable?
    /// Who may name the caller in X-Forwarded-For (a balancer, or the gateway).
    let proxies: TrustedProxies
    /// Waits for the read models (read-your-writes): after an operator's or anonymous write
    /// succeeds, before it answers, and before a query whose caller has writes pending
    /// (``PendingWrites``); given the last position to wait for and the stored types written
    /// (nil, nil: every read model, to the head).
    let settle: @Sendable (GlobalPosition?, [String: GlobalPosition]?) async -> Void
    /// Members' writes their next queries wait for (``PendingWrites``).
    let pending = PendingWrites()
    /// Where the routes whose command checks the account go (``Operation/contaNoComando``).
    let adiadas: ContasAdiadas?

    init(
        router: Router<GatewayContext>, idempotency: Idempotency, role: Role = .allInOne, proxies: TrustedProxies = .none,
        adiadas: ContasAdiadas? = nil, settle: @escaping @Sendable (GlobalPosition?, [String: GlobalPosition]?) async -> Void = { _, _ in }
    ) {
        self.router = router
        self.idempotency = idempotency
        self.role = role
        self.proxies = proxies
        self.adiadas = adiadas
        self.settle = settle
    }

    func add(_ operation: Operation, _ respond: @escaping @Sendable (Request, GatewayContext, Data) async throws -> Reply) {
        let mutating = [.post, .put, .patch, .delete].contains(operation.method)
        let changesState = mutating && operation.writes
        switch role {
        case .allInOne:
            break
        case .service(let service):
            guard owner == nil || owner == service else { return }
        case .operations:
            guard owner == nil else { return }
        case .gateway(let forwarder):
            if mutating || operation.forwarded, let owner, forwarder.targets[owner] != nil {
                operations.append(operation)
                forward(operation, to: owner, through: forwarder)
                return
            }
        }
        operations.append(operation)
        let idempotency = self.idempotency
        let settle = self.settle
        let pending = self.pending
        let proxies = self.proxies
        // A POST or PUT body may carry only its schema's fields: a misspelt one ("cupon",
        // "fuso") would otherwise be dropped in silence and the request done without it.
        // (PATCH routes list what they accept, with hints of their own.)
        let accepted = operation.method == .patch || operation.openBody ? nil : operation.request.flatMap { OpenAPI.requestFields[$0] }
        let service: Bool
        if case .service = role { service = true } else { service = false }
        @Sendable func handler(_ request: Request, _ context: GatewayContext, _ body: Data) async throws -> Reply {
            if let accepted { try JSON.knownKeys(body, accepted) }
            let token = try PendingWrites.token(request.headers[PendingWrites.field])
            var owners = PendingWrites.owners(context, template: operation.path, path: request.uri.path)
            guard changesState else {
                // A query waits for the caller's own writes, and only while a read model that
                // projects them is behind.
                await catchUp(owners: PendingWrites.readers(owners, context), token: token, pending: pending, settle: settle)
                return try await respond(request, context, body)
            }
            // The command records on the receipt what its appends wrote (each type's last position).
            let receipt = WriteReceipt()
            var context = context
            context.receipt = receipt
            var reply = try await respond(request, context, body)
            if receipt.replayed { reply.headers[API.replayedHeader] = "true" }
            if let acesso = context.conta?.verificada {
                // Checked by the command: whose write it is by the account's role today, not the token's.
                context.verificada(acesso)
                owners = PendingWrites.owners(context, template: operation.path, path: request.uri.path)
            }
            let written = receipt.types
            let types = written.isEmpty ? nil : written
            // A write someone else reads next (a booking made for a colleague) waits like an operator's.
            let keepers = PendingWrites.keepers(owners, shared: receipt.shared)
            if service {
                // The gateway keeps a member's write or waits for the read models, as below.
                if let types, let position = types.values.max() {
                    reply.headers[Forwarder.positionHeader] = position.description
                    reply.headers[Forwarder.typesHeader] = Forwarder.typesValue(types)
                    if receipt.shared { reply.headers[Forwarder.sharedHeader] = "1" }
                }
                if !keepers.isEmpty, types != nil { return reply }
            } else if !keepers.isEmpty, let types {
                pending.record(types, for: keepers)
                reply.headers[PendingWrites.header] = PendingWrites.value(types)
                return reply
            }
            // Anyone may read an operator's or an anonymous write next: it answers once the read
            // models that project what it wrote have it, each up to the last event of those
            // types; all of them, to the head, when it wrote nothing.
            await settle(written.values.max(), types)
            return reply
        }
        let contaNoComando = operation.contaNoComando && adiadas != nil
        if contaNoComando {
            precondition(
                !operation.admin && !operation.path.contains("{"),
                "\(operation.path): a route whose command checks the account is a member's, on a static path")
            adiadas?.add(operation.method, operation.path)
        }
        router.on(RouterPath(operation.path), method: operation.method) { request, incoming -> Response in
            try Query.known(request, operation)
            var context = incoming
            if !contaNoComando {
                // Left to a command that is not this one (no route should): checked here.
                try await Self.verificarConta(&context)
            }
            if operation.auth { _ = try context.requireUser() }
            if operation.admin { _ = try context.requireAdmin() }
            guard contaNoComando, context.conta != nil else {
                return try await Self.responder(operation, mutating, request, context, handler, idempotency, proxies)
            }
            // The command checks the account before it decides anything; when it failed first
            // (a 422, a 409…), the account's verdict comes first: a token that no longer counts
            // is a 401 whatever it asked. An answer without a check (none should be) is checked too.
            let response: Response
            do {
                response = try await Self.responder(operation, mutating, request, context, handler, idempotency, proxies)
            } catch {
                try await Self.verificarConta(&context)
                throw error
            }
            // Too late to keep an effect from a token that does not count: a command marked
            // `contaNoComando` that answered without checking is a bug.
            assert(context.conta?.verificada != nil, "\(operation.path) answered without checking the caller's account")
            try await Self.verificarConta(&context)
            return response
        }
    }

    /// On an answer an `Idempotency-Key` replays (the first one kept, or what the first request made).
    static let replayedHeader = "Idempotent-Replayed"

    /// The account check ``AuthMiddleware`` left pending, made now (a read) unless the command
    /// made it; throws 401 `token_invalido` for an account that does not count.
    private static func verificarConta(_ context: inout GatewayContext) async throws {
        guard let conta = context.conta else { return }
        context.verificada(try await conta.verificar())
    }

    /// A route's answer once its token and role passed: its body read and, with an
    /// `Idempotency-Key`, claimed (or the first answer replayed).
    private static func responder(
        _ operation: Operation, _ mutating: Bool, _ request: Request, _ context: GatewayContext,
        _ handler: @Sendable (Request, GatewayContext, Data) async throws -> Reply, _ idempotency: Idempotency, _ proxies: TrustedProxies
    ) async throws -> Response {
        guard mutating else { return try await handler(request, context, Data()).response }
        let body = Data(try await request.body.collect(upTo: context.maxUploadSize).readableBytesView)
        guard let key = request.headers[.idempotencyKey], !operation.secret, operation.writes else {
            return try await handler(request, context, body).response
        }
        // Bytes, not characters: one "character" of a letter and thousands of combining
        // marks passed a count of characters and broke the key index (a 500).
        guard (1...255).contains(key.utf8.count), key.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw ServiceError.requisicaoInvalida("Idempotency-Key deve ter de 1 a 255 caracteres ASCII visíveis (um UUID, por exemplo)")
        }
        let owner = context.subject?.usuario ?? clientAddress(request, context, proxies: proxies)
        let scoped = "\(owner)|\(key)"
        if operation.chaveNoComando {
            // The command finds what its key made, with what it reads anyway (ADR 0004).
            var context = context
            context.idempotencyKey = scoped
            context.requestFingerprint = Idempotency.digest(method: request.method.rawValue, path: request.uri.path, body: body)
            return try await handler(request, context, body).response
        }
        switch try await idempotency.begin(key: scoped, method: request.method.rawValue, path: request.uri.path, body: body) {
        case .replay(let reply):
            // Only for a caller whose account counts, when the command would have checked it.
            if let conta = context.conta { try await conta.verificar() }
            var response = reply.response
            response.headers[.init(replayedHeader)!] = "true"
            return response
        case .proceed:
            var context = context
            context.idempotencyKey = scoped
            do {
                let reply = try await handler(request, context, body)
                await idempotency.finish(key: scoped, reply: reply)
                return reply.response
            } catch let error as ServiceError {
                await idempotency.finish(key: scoped, reply: error.reply(requestId: context.requestId))
                throw error
            } catch {
                await idempotency.finish(key: scoped, reply: nil)
                throw error
            }
        }
    }

    /// A command the owning service answers: checked for a token here (a request the service
    /// would refuse never leaves the gateway), sent on, and answered once the read models the
    /// gateway serves have caught up with it. The service keeps the idempotency keys.
    ///
    /// A command that checks the caller's account itself (``Operation/contaNoComando``: a
    /// booking) has only its token checked here: the service reads the account with what the
    /// command reads ahead, in its one round trip, and refuses a token whose account no longer
    /// counts (401 `token_invalido`) before it decides anything. Reading it here too was a
    /// statement more a booking, for nothing the gateway needs.
    private func forward(_ operation: Operation, to service: Deployable, through forwarder: Forwarder) {
        if operation.contaNoComando, let adiadas {
            precondition(
                !operation.admin && !operation.path.contains("{"),
                "\(operation.path): a route whose command checks the account is a member's, on a static path")
            adiadas.add(operation.method, operation.path)
        }
        let settle = self.settle
        let pending = self.pending
        let proxies = self.proxies
        router.on(RouterPath(operation.path), method: operation.method) { request, context -> Response in
            try Query.known(request, operation)
            if operation.auth { _ = try context.requireUser() }
            if operation.admin { _ = try context.requireAdmin() }
            let token = try PendingWrites.token(request.headers[PendingWrites.field])
            let owners = PendingWrites.owners(context, template: operation.path, path: request.uri.path)
            let command = [.post, .put, .patch, .delete].contains(operation.method) && operation.writes
            if !command { await catchUp(owners: PendingWrites.readers(owners, context), token: token, pending: pending, settle: settle) }
            let body = Data(try await request.body.collect(upTo: context.maxUploadSize).readableBytesView)
            var answer = try await forwarder.forward(
                request, body: body, context: context, client: clientAddress(request, context, proxies: proxies),
                to: service)
            let position = answer.headers[Forwarder.positionField].flatMap(GlobalPosition.init(parsing:))
            let types = position == nil ? nil : answer.headers[Forwarder.typesField].flatMap(Forwarder.types(parsing:))
            let shared = answer.headers[Forwarder.sharedField] != nil
            answer.headers[Forwarder.positionField] = nil
            answer.headers[Forwarder.typesField] = nil
            answer.headers[Forwarder.sharedField] = nil
            let keepers = PendingWrites.keepers(owners, shared: shared)
            if (200..<300).contains(answer.status.code), command {
                if !keepers.isEmpty, let types {
                    pending.record(types, for: keepers)
                    answer.headers[PendingWrites.field] = PendingWrites.value(types)
                } else {
                    await settle(position, types)
                }
            }
            return answer
        }
    }
}

/// Waits until the read models that project what the caller wrote (kept under `owners`, or
/// named by the request's header) have it; at once when nothing is pending or they already do.
/// After the wait (or its limit), the entries it covered are forgotten.
private func catchUp(
    owners: [String], token: [String: GlobalPosition]?, pending: PendingWrites,
    settle: @Sendable (GlobalPosition?, [String: GlobalPosition]?) async -> Void
) async {
    let types = pending.pending(for: owners, token: token)
    guard let position = types.values.max() else { return }
    await settle(position, types)
    pending.settled(types, for: owners)
}

extension Reply {
    var response: Response {
        var response =
            body.map {
                JSON.data($0, status: HTTPResponse.Status(code: status), contentType: headers["Content-Type"] ?? "application/json; charset=utf-8")
            }
            ?? Response(status: HTTPResponse.Status(code: status))
        for (name, value) in headers where name != "Content-Type" {
            if let field = HTTPField.Name(name) { response.headers[field] = value }
        }
        return response
    }

    static func json<T: Encodable>(_ value: T, status: Int = 200) throws -> Reply {
        Reply(status: status, body: try EventJSON.encode(value))
    }

    /// The value as JSON, or 204 with no body when there is none (``Operation/vazio``).
    static func jsonOrNoContent<T: Encodable>(_ value: T?) throws -> Reply {
        guard let value else { return Reply(status: 204) }
        return try json(value)
    }
}
