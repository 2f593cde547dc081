import AsyncHTTPClient
public import Domain
public import Foundation
import NIOCore
import NIOHTTP1
public import Services

/// The tester's "bank app": pays or declines a pending charge at the sandbox, which then tells
/// us by webhook. The sandbox in this process, or the sandbox server over HTTP.
public protocol SandboxTester: Sendable {
    func consultar(_ id: String) async throws -> SandboxPSP.CobrancaSandbox?
    func pagar(_ id: String) async throws -> SandboxPSP.CobrancaSandbox
    func recusar(_ id: String, motivo: String) async throws -> SandboxPSP.CobrancaSandbox
}

extension SandboxPSP: SandboxTester {
    public func consultar(_ id: String) -> CobrancaSandbox? { cobranca(id) }
}

/// The sandbox PSP's HTTP API (`coworkflow serve --service sandbox`), as a provider would
/// publish it: the merchant's calls under `/v1/cobrancas` with `Authorization: Bearer <key>`,
/// and the tester's pay/decline beside them. Errors come back as `{erro, mensagem}`.
public enum SandboxAPI {
    public static let cobrancas = "/v1/cobrancas"

    /// The body of a refund request.
    public struct PedidoDeReembolso: Codable, Sendable {
        public let reembolsoId: UUID
        public let valor: Money

        public init(reembolsoId: UUID, valor: Money) {
            self.reembolsoId = reembolsoId
            self.valor = valor
        }
    }

    public struct Recusa: Codable, Sendable {
        public let motivo: String?

        public init(motivo: String?) { self.motivo = motivo }
    }

    public struct Erro: Codable, Sendable {
        public let erro: String
        public let mensagem: String

        public init(erro: String, mensagem: String) {
            self.erro = erro
            self.mensagem = mensagem
        }
    }

    public static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    public static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}

/// The payment provider at the other end of HTTP (distributed mode: the sandbox server at
/// `PSP_URL`). Every call is idempotent on our ids, so a timeout is safe to retry: the
/// reactor that called retries the whole reaction.
public struct ProvedorHTTP: PaymentProvider, SandboxTester {
    public let base: String
    let apiKey: String?
    static let timeout: TimeAmount = .seconds(10)
    static let idCharacters = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "_-"))

    /// - Parameter base: `http(s)://host[:port]`, without a trailing slash.
    public init(base: String, apiKey: String?) {
        self.base = base.hasSuffix("/") ? String(base.dropLast()) : base
        self.apiKey = apiKey
    }

    public func criarCobranca(_ pedido: PedidoDeCobranca) async throws -> Pagamento.Cobranca {
        try await call("criar", .POST, SandboxAPI.cobrancas, body: pedido, as: Pagamento.Cobranca.self)
    }

    public func cancelarCobranca(_ cobrancaId: String) async throws -> CancelamentoDeCobranca {
        do {
            _ = try await send("cancelar", .POST, path(cobrancaId, "cancelamento"), body: Data())
            return .cancelada
        } catch let error as ServiceError where error.kind == .conflito {
            // Refused: the charge is no longer pending. Paid, or no longer payable (declined,
            // expired, withdrawn before): what the protocol calls withdrawn.
            guard let cobranca = try await consultar(cobrancaId) else { throw error }
            return cobranca.situacao == .paga ? .paga(valor: cobranca.valor) : .cancelada
        }
    }

    public func reembolsar(cobrancaId: String, reembolsoId: UUID, valor: Money) async throws {
        _ = try await send(
            "reembolsar", .POST, path(cobrancaId, "reembolsos"),
            body: try SandboxAPI.encoder.encode(SandboxAPI.PedidoDeReembolso(reembolsoId: reembolsoId, valor: valor)))
    }

    public func reembolso(cobrancaId: String, reembolsoId: UUID) async throws -> SituacaoDoReembolso {
        do {
            let reembolso = try await call(
                "consultar reembolso", .GET, path(cobrancaId, "reembolsos/" + reembolsoId.lowercasedString), body: nil as SandboxAPI.Recusa?,
                as: SandboxPSP.ReembolsoSandbox.self)
            return reembolso.concluido ? .concluido(valor: reembolso.valor) : .emProcessamento
        } catch let error as ServiceError where error.kind == .naoEncontrado {
            return .desconhecido
        }
    }

    public func consultar(_ id: String) async throws -> SandboxPSP.CobrancaSandbox? {
        do {
            return try await call("consultar", .GET, path(id), body: nil as SandboxAPI.Recusa?, as: SandboxPSP.CobrancaSandbox.self)
        } catch let error as ServiceError where error.kind == .naoEncontrado {
            return nil
        }
    }

    public func pagar(_ id: String) async throws -> SandboxPSP.CobrancaSandbox {
        try await call("pagar", .POST, path(id, "pagamento"), body: nil as SandboxAPI.Recusa?, as: SandboxPSP.CobrancaSandbox.self)
    }

    public func recusar(_ id: String, motivo: String) async throws -> SandboxPSP.CobrancaSandbox {
        try await call("recusar", .POST, path(id, "recusa"), body: SandboxAPI.Recusa(motivo: motivo), as: SandboxPSP.CobrancaSandbox.self)
    }

    private func path(_ id: String, _ action: String? = nil) -> String {
        // Ids are the provider's (letters, digits, `_`, `-`); anything else is escaped.
        let escaped = id.addingPercentEncoding(withAllowedCharacters: Self.idCharacters) ?? id
        return SandboxAPI.cobrancas + "/" + escaped + (action.map { "/" + $0 } ?? "")
    }

    private func call<Body: Encodable, Answer: Decodable>(
        _ operacao: String, _ method: HTTPMethod, _ path: String, body: Body?, as: Answer.Type
    ) async throws -> Answer {
        let data = try await send(operacao, method, path, body: try body.map { try SandboxAPI.encoder.encode($0) })
        do {
            return try SandboxAPI.decoder.decode(Answer.self, from: data)
        } catch {
            throw PaymentProviderError(operacao: operacao, codigoDoProvedor: 200, mensagem: "resposta ilegível: \(error)")
        }
    }

    /// The answer's body on 2xx. A 404 or 409 becomes the ServiceError a caller would show (the
    /// tester's routes pass it on); anything else a PaymentProviderError.
    private func send(_ operacao: String, _ method: HTTPMethod, _ path: String, body: Data?) async throws -> Data {
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        request.headers.add(name: "Accept", value: "application/json")
        if let apiKey { request.headers.add(name: "Authorization", value: "Bearer \(apiKey)") }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(data: body))
        }
        let status: Int
        let data: Data
        do {
            let response = try await HTTPClient.shared.execute(request, timeout: Self.timeout)
            status = Int(response.status.code)
            data = Data(buffer: try await response.body.collect(upTo: 1024 * 1024))
        } catch {
            throw PaymentProviderError(operacao: operacao, codigoDoProvedor: nil, mensagem: "\(base): \(error)")
        }
        if (200..<300).contains(status) { return data }
        let mensagem =
            (try? SandboxAPI.decoder.decode(SandboxAPI.Erro.self, from: data))?.mensagem ?? String(decoding: data.prefix(200), as: UTF8.self)
        switch status {
        case 404: throw ServiceError.naoEncontrado(mensagem)
        case 409: throw ServiceError.conflito("cobranca_indisponivel", mensagem)
        default: throw PaymentProviderError(operacao: operacao, codigoDoProvedor: status, mensagem: mensagem)
        }
    }
}
