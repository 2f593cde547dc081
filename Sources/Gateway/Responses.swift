import Domain
import EventStore
import Foundation
import Hummingbird
import Services

/// JSON in and out, with the project's settings (ISO 8601 dates, sorted keys).
enum JSON {
    static func data(_ data: Data, status: HTTPResponse.Status, contentType: String = "application/json; charset=utf-8") -> Response {
        Response(status: status, headers: [.contentType: contentType], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func explain(_ error: DecodingError) -> ServiceError {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            let field = path(context.codingPath + [key])
            return .requisicaoInvalida("o campo obrigatório '\(field)' está ausente", detalhes: ["campo": field])
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            let field = path(context.codingPath)
            guard !field.isEmpty else { return .requisicaoInvalida("o corpo deve ser \(describe(type))") }
            return .requisicaoInvalida("o campo '\(field)' deve ser \(describe(type))", detalhes: ["campo": field])
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return .requisicaoInvalida("o corpo não é JSON válido")
        case .dataCorrupted(let context):
            let field = path(context.codingPath)
            if let aceitos = aceitos(context.debugDescription) {
                return .requisicaoInvalida(
                    "o campo '\(field)' tem um valor inválido; use \(aceitos.joined(separator: ", ")) (em minúsculas)", detalhes: ["campo": field])
            }
            return .requisicaoInvalida("o campo '\(field)' tem um valor inválido", detalhes: ["campo": field])
        @unknown default:
            return .requisicaoInvalida("o corpo não pôde ser lido")
        }
    }

    /// The values an enumeration of a request body takes, from the decoder's words for a value
    /// it does not know ("Cannot initialize Tipo from invalid String value …").
    private static func aceitos(_ description: String) -> [String]? {
        guard let match = description.firstMatch(of: #/^Cannot initialize (\w+) from invalid String value/#) else { return nil }
        return switch match.1 {
        // What a member pays with (`manual`, the desk's, is an operator's word: OpenAPI says it).
        case "MetodoDePagamento": MetodoDePagamento.doProvedor.map(\.rawValue)
        case "Tipo": Espaco.Tipo.allCases.map(\.rawValue)
        case "Motivo": Espaco.Bloqueio.Motivo.allCases.map(\.rawValue)
        case "DiaDaSemana": DiaDaSemana.allCases.map(\.rawValue)
        default: nil
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "texto (string)"
        case is Int.Type, is Int64.Type: "um número inteiro"
        case is Double.Type: "um número"
        case is Bool.Type: "verdadeiro ou falso (boolean)"
        case is Date.Type: "uma data ISO 8601"
        // Not the Swift type's name: what the client sends is a JSON array or object.
        default:
            String(describing: type).hasPrefix("Array") || String(describing: type).hasPrefix("[") && !String(describing: type).contains(":")
                ? "uma lista JSON" : "um objeto JSON"
        }
    }
}

/// The error body of DESIGN §7.
struct ErrorBody: Encodable {
    let erro: String
    let mensagem: String
    let detalhes: [String: String]?
    let requestId: String
}

extension ServiceError {
    /// The answer to a failure: its kind's status (``ServiceError/Kind/status``), or `status`
    /// where the edge knows better (a method not allowed, a body too large, a provider down).
    func reply(requestId: String, status: Int? = nil) -> Reply {
        let body = ErrorBody(erro: codigo, mensagem: mensagem, detalhes: detalhes.isEmpty ? nil : detalhes, requestId: requestId)
        var reply = Reply(status: status ?? self.status, body: (try? EventJSON.encode(body)) ?? Data(#"{"erro":"erro_interno"}"#.utf8))
        if let retryAfter { reply.headers["Retry-After"] = String(retryAfter) }
        return reply
    }

    func response(requestId: String, status: Int? = nil) -> Response {
        reply(requestId: requestId, status: status).response
    }
}
