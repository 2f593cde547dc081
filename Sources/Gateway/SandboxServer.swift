import Crypto
import Domain
import Foundation
import HTTPTypes
public import Hummingbird
public import Integrations
public import Logging
public import NIOCore
import Services

/// The sandbox PSP as its own small server (distributed mode, `coworkflow serve --service
/// sandbox`): the provider's API under `/v1/cobrancas` (create, withdraw, refund; bearer key
/// when one is configured), the tester's pay and decline beside them, and `/saude`. Outcomes
/// go to the merchant's webhook, signed, as the in-process sandbox sends them.
public enum SandboxServer {
    public static func application(
        psp: SandboxPSP, apiKey: String?, host: String, port: Int, logger: Logger,
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        Application(
            router: router(psp: psp, apiKey: apiKey),
            configuration: .init(address: .hostname(host, port: port), serverName: "coworkflow-sandbox"),
            onServerRunning: onServerRunning, logger: logger)
    }

    static func router(psp: SandboxPSP, apiKey: String?) -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: Errors(apiKey: apiKey))
        router.get("/saude") { _, _ in try reply(["status": "ok"]) }
        let cobrancas = router.group(RouterPath(SandboxAPI.cobrancas))
        cobrancas.post { request, context in
            let pedido = try await decode(PedidoDeCobranca.self, request, context)
            guard pedido.valor > .zero else { throw ServiceError.invalido("valor", "o valor deve ser positivo") }
            guard MetodoDePagamento.doProvedor.contains(pedido.metodo) else {
                throw ServiceError.invalido("metodo", "o provedor cobra por pix, cartao ou boleto")
            }
            if pedido.metodo == .cartao, (pedido.cartaoToken ?? "").isEmpty {
                throw ServiceError.invalido("cartaoToken", "cobrança no cartão sem token")
            }
            return try reply(await psp.criar(pedido), status: .created)
        }
        cobrancas.get(":id") { _, context in
            guard let cobranca = await psp.cobranca(try context.parameters.require("id")) else { throw Routes.sandboxError(.cobrancaDesconhecida) }
            return try reply(cobranca)
        }
        cobrancas.post(":id/cancelamento") { _, context in
            do { try await psp.cancelar(try context.parameters.require("id")) } catch let error as SandboxPSP.Falha {
                throw Routes.sandboxError(error)
            }
            return Response(status: .noContent)
        }
        cobrancas.post(":id/reembolsos") { request, context in
            let pedido = try await decode(SandboxAPI.PedidoDeReembolso.self, request, context)
            guard pedido.valor > .zero else { throw ServiceError.invalido("valor", "o valor deve ser positivo") }
            do {
                try await psp.reembolsar(try context.parameters.require("id"), reembolsoId: pedido.reembolsoId, valor: pedido.valor)
            } catch let error as SandboxPSP.Falha {
                throw Routes.sandboxError(error)
            }
            return Response(status: .accepted)
        }
        cobrancas.get(":id/reembolsos/:reembolso") { _, context in
            guard let reembolsoId = UUID(uuidString: try context.parameters.require("reembolso")),
                let reembolso = await psp.reembolso(try context.parameters.require("id"), reembolsoId: reembolsoId)
            else { throw ServiceError.naoEncontrado("reembolso desconhecido") }
            return try reply(reembolso)
        }
        cobrancas.post(":id/pagamento") { _, context in
            do { return try reply(try await psp.pagar(try context.parameters.require("id"))) } catch let error as SandboxPSP.Falha {
                throw Routes.sandboxError(error)
            }
        }
        cobrancas.post(":id/recusa") { request, context in
            let recusa = try await decode(SandboxAPI.Recusa.self, request, context, emptyAs: SandboxAPI.Recusa(motivo: nil))
            do {
                return try reply(try await psp.recusar(try context.parameters.require("id"), motivo: recusa.motivo ?? "recusado no sandbox"))
            } catch let error as SandboxPSP.Falha {
                throw Routes.sandboxError(error)
            }
        }
        return router
    }

    static func decode<T: Decodable>(_ type: T.Type, _ request: Request, _ context: BasicRequestContext, emptyAs empty: T? = nil) async throws -> T {
        let body = try await request.body.collect(upTo: 64 * 1024)
        if body.readableBytes == 0, let empty { return empty }
        do {
            return try SandboxAPI.decoder.decode(T.self, from: Data(buffer: body))
        } catch let error as DecodingError {
            throw JSON.explain(error)
        }
    }

    static func reply<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) throws -> Response {
        JSON.data(try SandboxAPI.encoder.encode(value), status: status)
    }

    /// Errors as `{erro, mensagem}`; the API key checked on `/v1`.
    struct Errors: RouterMiddleware {
        typealias Context = BasicRequestContext
        let apiKey: String?

        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
            do {
                // The router ignores empty segments (`//v1/…` reaches `/v1/…`): so must this check.
                if let apiKey, request.uri.path.split(separator: "/").first == "v1", !Self.same(request.headers[.authorization], "Bearer \(apiKey)") {
                    throw ServiceError(.naoAutenticado, codigo: "nao_autenticado", mensagem: "envie a chave da API em Authorization: Bearer <chave>")
                }
                return try await next(request, context)
            } catch let error as ServiceError {
                return try reply(SandboxAPI.Erro(erro: error.codigo, mensagem: error.mensagem), status: .init(code: error.status))
            } catch let error as HTTPError {
                return try reply(
                    SandboxAPI.Erro(erro: "http_\(error.status.code)", mensagem: error.body ?? error.status.reasonPhrase), status: error.status)
            }
        }

        /// Whether the header is the expected one, in time that does not depend on where they
        /// differ (their SHA-256 digests compare in constant time), so the key cannot be
        /// guessed a byte at a time from response times.
        static func same(_ header: String?, _ expected: String) -> Bool {
            SHA256.hash(data: Data((header ?? "").utf8)) == SHA256.hash(data: Data(expected.utf8))
        }
    }
}
