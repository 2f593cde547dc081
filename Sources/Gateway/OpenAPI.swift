import Foundation

/// The OpenAPI 3.1 document, built from the route table and the schemas below.
enum OpenAPI {
    static func document(_ operations: [Operation]) -> Data {
        var paths: [String: [String: Any]] = [:]
        for operation in operations {
            var entry: [String: Any] = [
                "summary": operation.summary,
                "tags": [operation.tag],
                "operationId": "\(operation.method.rawValue.lowercased())\(operation.path.replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "{", with: "").replacingOccurrences(of: "}", with: ""))",
            ]
            var parameters: [[String: Any]] = operation.path.split(separator: "/").filter { $0.hasPrefix("{") }.map { segment in
                ["name": String(segment.dropFirst().dropLast()), "in": "path", "required": true, "schema": ["type": "string"]]
            }
            for query in operation.query {
                parameters.append(["name": query.name, "in": "query", "required": false, "description": query.description, "schema": ["type": "string"]])
            }
            if [.post, .put, .patch, .delete].contains(operation.method), !operation.secret {
                parameters.append([
                    "name": "Idempotency-Key", "in": "header", "required": false, "schema": ["type": "string"],
                    "description": "A retry with the same key and body gets the first answer; another body → 422.",
                ])
            }
            if !parameters.isEmpty { entry["parameters"] = parameters }
            if let request = operation.request {
                entry["requestBody"] = ["required": true, "content": ["application/json": ["schema": ref(request)]]]
            }
            var responses: [String: Any] = [:]
            var success: [String: Any] = ["description": description(operation.success)]
            if let response = operation.response {
                success["content"] = [operation.contentType: ["schema": response == "text" ? ["type": "string"] : ref(response)]]
            }
            responses[String(operation.success)] = success
            // 503: the server is draining, or the database is unreachable (ADR 0001 §10).
            var errors = Set(operation.errors + [429, 500, 503])
            if operation.request != nil { errors.formUnion([400, 413]) }
            if operation.auth { errors.insert(401) }
            if operation.admin { errors.insert(403) }
            for status in errors.sorted() {
                responses[String(status)] = [
                    "description": description(status),
                    "content": ["application/json": ["schema": ref("Erro")]],
                ]
            }
            entry["responses"] = responses
            if operation.auth { entry["security"] = [["bearer": [String]()]] }
            paths[operation.path, default: [:]][operation.method.rawValue.lowercased()] = entry
        }
        let document: [String: Any] = [
            "openapi": "3.1.0",
            "info": [
                "title": "CoworkFlow API", "version": "1.0.0",
                "description": "Event-sourced booking for coworking operators. Errors are `{erro, mensagem, detalhes}`.",
            ],
            "paths": paths,
            "components": [
                "securitySchemes": ["bearer": ["type": "http", "scheme": "bearer", "bearerFormat": "JWT"]],
                "schemas": schemas.merging(bookingSchemas) { first, _ in first }.merging(negocioSchemas) { first, _ in first },
            ],
        ]
        return (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
    }

    static func ref(_ name: String) -> [String: Any] { ["$ref": "#/components/schemas/\(name)"] }

    /// The top-level fields of each object schema (those with `properties` and no
    /// `additionalProperties`), which a request body of that schema may carry.
    static let requestFields: [String: Set<String>] = {
        let all = schemas.merging(bookingSchemas) { first, _ in first }.merging(negocioSchemas) { first, _ in first }
        var fields: [String: Set<String>] = [:]
        for (name, schema) in all {
            guard let schema = schema as? [String: Any], schema["additionalProperties"] == nil,
                let properties = schema["properties"] as? [String: Any]
            else { continue }
            fields[name] = Set(properties.keys)
        }
        return fields
    }()

    static func description(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Criado"
        case 204: "Sem conteúdo"
        case 400: "Requisição inválida (JSON, tipos, campos ausentes)"
        case 401: "Não autenticado"
        case 403: "Proibido"
        case 404: "Não encontrado"
        case 409: "Conflito"
        case 413: "Corpo grande demais"
        case 422: "Dados inválidos"
        case 423: "Conta bloqueada (Retry-After)"
        case 429: "Muitas requisições (Retry-After)"
        case 500: "Erro interno"
        case 503: "Indisponível"
        default: "HTTP \(status)"
        }
    }

    static func object(_ properties: [String: Any], required: [String]) -> [String: Any] {
        ["type": "object", "properties": properties, "required": required]
    }

    static var text: [String: Any] { ["type": "string"] }
    static var instant: [String: Any] { ["type": "string", "format": "date-time"] }

    static var schemas: [String: Any] {
        [
            "Erro": object([
                "erro": ["type": "string", "description": "stable code, e.g. email_em_uso"],
                "mensagem": ["type": "string", "description": "what is wrong, for people"],
                "detalhes": ["type": "object", "additionalProperties": ["type": "string"]],
                "requestId": text,
            ], required: ["erro", "mensagem"]),
            "Registro": object([
                "nome": ["type": "string", "maxLength": 200],
                "email": ["type": "string", "format": "email"],
                "senha": ["type": "string", "minLength": 8],
            ], required: ["nome", "email", "senha"]),
            "Login": object(["email": ["type": "string", "format": "email"], "senha": text], required: ["email", "senha"]),
            "Perfil": object([
                "id": ["type": "string", "format": "uuid"], "nome": text, "email": text,
                "papel": ["type": "string", "enum": ["membro", "admin"]], "ativo": ["type": "boolean"], "registradoEm": instant,
                "plano": ["type": "string", "description": "o plano do membro (as regras de preço do plano valem para ele); ausente: nenhum"],
            ], required: ["id", "nome", "email", "papel", "ativo", "registradoEm"]),
            "DefinicaoDePlano": object([
                "plano": ["type": ["string", "null"], "minLength": 1, "maxLength": 100, "description": "null tira o membro do plano"],
            ], required: ["plano"]),
            "Sessao": object(["token": text, "expiraEm": instant, "usuario": ref("Perfil")], required: ["token", "expiraEm"]),
            "TrocaDeSenha": object(["senhaAtual": text, "novaSenha": ["type": "string", "minLength": 8]], required: ["senhaAtual", "novaSenha"]),
            "PaginaDePerfis": object([
                "itens": ["type": "array", "items": ref("Perfil")], "total": ["type": "integer"], "pagina": ["type": "integer"],
            ], required: ["itens", "total", "pagina"]),
            "RegistroDeAuditoria": object([
                "id": text, "tipo": text, "stream": text, "em": instant, "ator": text, "requestId": text, "servico": text,
            ], required: ["id", "tipo", "stream", "em"]),
            "PaginaDeAuditoria": object([
                "itens": ["type": "array", "items": ref("RegistroDeAuditoria")], "total": ["type": "integer"],
                "pagina": ["type": "integer"],
            ], required: ["itens", "total", "pagina"]),
            "Exportacao": object([
                "perfil": ref("Perfil"), "conta": ["type": "array", "items": ["type": "object"]],
                "atividade": ["type": "array", "items": ["type": "object"]], "geradoEm": instant,
            ], required: ["perfil", "conta", "atividade"]),
            "Saude": object([
                "status": ["type": "string", "enum": ["ok", "degradado"]],
                "componentes": ["type": "object", "additionalProperties": ["type": "object"]],
            ], required: ["status", "componentes"]),
        ]
    }

    /// Swagger UI, loaded from a CDN, reading `/openapi.json`.
    static let docsPage = """
        <!doctype html>
        <html lang="pt-BR">
        <head>
          <meta charset="utf-8"><title>CoworkFlow API</title>
          <link rel="stylesheet" href="https://unpkg.com/swagger-ui-dist@5/swagger-ui.css">
        </head>
        <body>
          <div id="swagger-ui"><p style="font-family:sans-serif;padding:1em">Carregando a documentação…
            sem internet, leia <a href="/openapi.json">/openapi.json</a>.</p></div>
          <script src="https://unpkg.com/swagger-ui-dist@5/swagger-ui-bundle.js"></script>
          <script>window.ui = SwaggerUIBundle({ url: "/openapi.json", dom_id: "#swagger-ui" });</script>
        </body>
        </html>
        """
}
