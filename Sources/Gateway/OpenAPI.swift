import Foundation

/// The OpenAPI 3.1 document, built from the route table and the schemas below.
enum OpenAPI {
    static func document(_ operations: [Operation]) -> Data {
        var paths: [String: [String: Any]] = [:]
        var components = schemas.merging(bookingSchemas) { first, _ in first }.merging(negocioSchemas) { first, _ in first }.merging(
            assinaturaSchemas
        ) { first, _ in first }
        for operation in operations {
            var entry: [String: Any] = [
                "summary": operation.summary,
                "tags": [operation.tag],
                "operationId":
                    "\(operation.method.rawValue.lowercased())\(operation.path.replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "{", with: "").replacingOccurrences(of: "}", with: ""))",
            ]
            var parameters: [[String: Any]] = operation.path.split(separator: "/").filter { $0.hasPrefix("{") }.map { segment in
                let name = String(segment.dropFirst().dropLast())
                return ["name": name, "in": "path", "required": true, "schema": pathSchema(name, in: operation.path)]
            }
            for query in operation.query {
                parameters.append([
                    "name": query.name, "in": "query", "required": query.required, "description": query.description, "schema": schema(query.form),
                ])
            }
            // API.add honours (and checks) the key only on a request that writes and holds no secret.
            let idempotent = [.post, .put, .patch, .delete].contains(operation.method) && !operation.secret && operation.writes
            if idempotent {
                parameters.append([
                    "name": "Idempotency-Key", "in": "header", "required": false,
                    "schema": ["type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[!-~]+$"],
                    "description": operation.chaveNoComando
                        ? "1 a 255 caracteres ASCII visíveis (um UUID, por exemplo; outro valor → 400). Uma repetição com a mesma "
                            + "chave e o mesmo corpo, a qualquer tempo, recebe o que a primeira fez, como está agora "
                            + "(Idempotent-Replayed: true), também enquanto a primeira ainda corre; com outro corpo → 422."
                        : "1 a 255 caracteres ASCII visíveis (um UUID, por exemplo; outro valor → 400). Uma repetição com a mesma "
                            + "chave e o mesmo corpo recebe a primeira resposta; com outro corpo → 422; enquanto a primeira não termina → 409.",
                ])
            }
            // Read-your-writes across replicas (ADR 0005): any request may send back what a write answered.
            parameters.append([
                "name": PendingWrites.header, "in": "header", "required": false,
                "schema": ["type": "string", "pattern": PendingWrites.pattern],
                "description": "O valor que uma escrita de membro devolveu neste cabeçalho: a consulta espera, só se preciso, que as "
                    + "leituras tenham essa escrita (outro valor → 400; vazio: como ausente).",
            ])
            entry["parameters"] = parameters
            if let request = operation.request {
                entry["requestBody"] = ["required": true, "content": ["application/json": ["schema": ref(request)]]]
            }
            var responses: [String: Any] = [:]
            var success: [String: Any] = ["description": description(operation.success)]
            if let response = operation.response {
                success["content"] = [operation.contentType: ["schema": response == "text" ? ["type": "string"] : ref(response)]]
            }
            if idempotent, operation.auth {
                // A member's write: what it wrote, for the member's next reads (ADR 0005).
                success["headers"] = [
                    PendingWrites.header: [
                        "description": "O que a escrita gravou (Tipo=transação/posição, separados por vírgula), numa escrita de membro: "
                            + "enviado de volta nas consultas seguintes, elas veem a escrita em qualquer réplica.",
                        "schema": ["type": "string", "pattern": PendingWrites.pattern],
                    ]
                ]
            }
            responses[String(operation.success)] = success
            if let vazio = operation.vazio { responses["204"] = ["description": "Sem conteúdo: \(vazio)"] }
            // 503: the server is draining, or the database is unreachable (ADR 0001 §10).
            // 401: a token that is sent is checked on every route, public ones included.
            var errors = Set(operation.errors + [401, 429, 500, 503])
            // 400: a path parameter with a control character, a query parameter of another form
            // or one the route does not take, a body that is not JSON of its schema's types, a
            // malformed Idempotency-Key or Coworkflow-Consistencia: every operation may answer it.
            errors.insert(400)
            // 422: a body's value that breaks a rule (a control character in any string included).
            if operation.request != nil { errors.formUnion([413, 422]) }
            if idempotent { errors.formUnion([409, 422]) }
            if operation.admin { errors.insert(403) }
            for status in errors.sorted() {
                responses[String(status)] = [
                    "description": description(status),
                    "content": ["application/json": ["schema": ref("Erro")]],
                ]
            }
            entry["responses"] = responses
            // A body may carry only its schema's fields (422 naming another) and no control
            // character but tab and line breaks in any string (422).
            if let request = operation.request, var body = components[request] as? [String: Any] {
                if !operation.openBody, body["properties"] != nil { body["additionalProperties"] = false }
                components[request] = body
            }
            if operation.auth { entry["security"] = [["bearer": [String]()]] }
            paths[operation.path, default: [:]][operation.method.rawValue.lowercased()] = entry
        }
        // Every string of a request body, in the schemas it names too, holds no control character.
        var pending = operations.compactMap(\.request), seen = Set<String>()
        while let name = pending.popLast() {
            guard seen.insert(name).inserted, let schema = components[name] else { continue }
            components[name] = withoutControlCharacters(schema)
            pending += references(schema)
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
                "schemas": components,
            ],
        ]
        return (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
    }

    static func ref(_ name: String) -> [String: Any] { ["$ref": "#/components/schemas/\(name)"] }

    /// The top-level fields of each object schema (those with `properties` and no
    /// `additionalProperties`), which a request body of that schema may carry.
    static let requestFields: [String: Set<String>] = {
        let all = schemas.merging(bookingSchemas) { first, _ in first }.merging(negocioSchemas) { first, _ in first }.merging(assinaturaSchemas) {
            first, _ in first
        }
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
    /// A new password: 8 characters or more (as people see them), at most 4096 UTF-8 bytes, not only blanks.
    static var senha: [String: Any] {
        [
            "type": "string", "minLength": 8, "maxLength": 1_024, "pattern": "^" + branco + "*" + naoBranco + caractere + "*$",
            "description": "ao menos 8 caracteres (como as pessoas os contam), não só espaços; até 4096 bytes em UTF-8",
        ]
    }
    static var instant: [String: Any] { ["type": "string", "format": "date-time"] }

    static var schemas: [String: Any] {
        [
            "Erro": object(
                [
                    "erro": ["type": "string", "description": "stable code, e.g. email_em_uso"],
                    "mensagem": ["type": "string", "description": "what is wrong, for people"],
                    "detalhes": ["type": "object", "additionalProperties": ["type": "string"]],
                    "requestId": text,
                ], required: ["erro", "mensagem"]),
            "Registro": object(
                [
                    "nome": nomeDePessoa,
                    "email": enderecoDeEmail,
                    "senha": senha,
                ], required: ["nome", "email", "senha"]),
            "Login": object(["email": ["type": "string", "format": "email"], "senha": text], required: ["email", "senha"]),
            "Perfil": object(
                [
                    "id": ["type": "string", "format": "uuid"], "nome": text, "email": text,
                    "papel": ["type": "string", "enum": ["membro", "admin"]], "ativo": ["type": "boolean"], "registradoEm": instant,
                    "plano": ["type": "string", "description": "o plano do membro (as regras de preço do plano valem para ele); ausente: nenhum"],
                ], required: ["id", "nome", "email", "papel", "ativo", "registradoEm"]),
            "DefinicaoDePlano": object(
                [
                    "plano": textoLivre(100, obrigatorio: true, description: "null tira o membro do plano").merging(["type": ["string", "null"]]) {
                        $1
                    }
                ], required: ["plano"]),
            "Sessao": object(["token": text, "expiraEm": instant, "usuario": ref("Perfil")], required: ["token", "expiraEm"]),
            "TrocaDeSenha": object(["senhaAtual": text, "novaSenha": senha], required: ["senhaAtual", "novaSenha"]),
            "PaginaDePerfis": object(
                [
                    "itens": ["type": "array", "items": ref("Perfil")], "total": ["type": "integer"], "pagina": ["type": "integer"],
                ], required: ["itens", "total", "pagina"]),
            "RegistroDeAuditoria": object(
                [
                    "id": text, "tipo": text, "rotulo": text, "stream": text, "em": instant, "ator": text, "requestId": text, "servico": text,
                ], required: ["id", "tipo", "rotulo", "stream", "em"]),
            "TiposDeEvento": [
                "type": "array", "items": object(["tipo": text, "rotulo": text, "contexto": text], required: ["tipo", "rotulo", "contexto"]),
            ],
            "PaginaDeAuditoria": object(
                [
                    "itens": ["type": "array", "items": ref("RegistroDeAuditoria")], "total": ["type": "integer"],
                    "pagina": ["type": "integer"],
                ], required: ["itens", "total", "pagina"]),
            "Exportacao": object(
                [
                    "perfil": ref("Perfil"), "conta": ["type": "array", "items": ["type": "object"]],
                    "atividade": ["type": "array", "items": ["type": "object"]], "geradoEm": instant,
                    "resumo": [
                        "type": "object",
                        "description":
                            "a parte para ler: como conhecemos você, suas reservas (espaço, horário local, situação, total), pagamentos, avisos, sua assinatura (últimos ciclos), pacotes comprados, créditos, sua empresa e a base do tratamento",
                    ],
                ], required: ["perfil", "conta", "atividade", "resumo"]),
            "ValorJSON": valorJSON,
            "Saude": object(
                [
                    "status": ["type": "string", "enum": ["ok", "degradado"]],
                    "componentes": ["type": "object", "additionalProperties": ["type": "object"]],
                ], required: ["status", "componentes"]),
        ]
    }
}

extension OpenAPI {
    /// A character JSON bodies may hold in a string: anything but a control character other
    /// than tab, line feed and carriage return (``JSON/decode(_:from:)`` refuses those, 422).
    static let caractere = "[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]"

    /// A blank the server trims (Foundation's `whitespacesAndNewlines` less the control
    /// characters JSON bodies may not hold): each named, as Swift's regex refuses the range
    /// U+2000–U+200A. Not `\s`, which also holds U+FEFF (not trimmed) and `\v`, `\f` (refused).
    static let branco =
        "[\\t\\n\\r \\u00A0\\u1680\\u2000\\u2001\\u2002\\u2003\\u2004\\u2005\\u2006\\u2007\\u2008\\u2009\\u200A"
        + "\\u2028\\u2029\\u202F\\u205F\\u3000]"

    /// A ``caractere`` that is not ``branco``.
    static let naoBranco =
        "[^\\u0000-\\u0020\\u007F-\\u00A0\\u1680\\u2000\\u2001\\u2002\\u2003\\u2004\\u2005\\u2006\\u2007\\u2008\\u2009"
        + "\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000]"

    /// Free text (``TextoLivre``): at most `maximo` characters as sent (the server stores it
    /// trimmed, and counts the limit before trimming, as `maxLength` does), never beginning with
    /// `pii:` after its blanks; `obrigatorio`: not blank. (The server counts characters as people
    /// see them and allows 4 UTF-8 bytes each: `maxLength`, in Unicode scalars, is never more.)
    /// "Not blank" is said without a lookahead (blanks, then one character that is not), so
    /// that a generator draws from the pattern instead of drawing and filtering: schemathesis
    /// took minutes to draw the 2,000 characters of a request's description the other way.
    static func textoLivre(_ maximo: Int, obrigatorio: Bool = false, description: String? = nil) -> [String: Any] {
        var schema: [String: Any] = [
            "type": "string", "maxLength": maximo,
            "pattern": "^(?!" + branco + "*pii:)" + (obrigatorio ? branco + "*" + naoBranco : "") + caractere + "*$",
        ]
        if obrigatorio { schema["minLength"] = 1 }
        if let description { schema["description"] = description }
        return schema
    }

    /// An e-mail address as the server takes it (``EmailClaim/enderecoValido(_:)``, before it
    /// trims and lower-cases it): the pattern says a dot-atom, `@`, a host name of two labels or
    /// more; `format: email` adds the lengths (64 before the `@`, 63 a label) and refuses a label
    /// with "--" as its third and fourth characters. A generator draws from the pattern, so it has
    /// no lookaheads. (Checked against schemathesis's validator, jsonschema-rs: 230,000 addresses,
    /// the server's rule and the schema's never differed.)
    static var enderecoDeEmail: [String: Any] {
        let atomo = "[!#-'*+/0-9=?A-Z^-~-]+"
        let rotulo = "[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
        return [
            "type": "string", "format": "email", "maxLength": 254,
            "pattern": "^" + atomo + "(?:\\." + atomo + ")*@" + rotulo + "(?:\\." + rotulo + ")+$",
            "description":
                "ASCII: letras sem acento, algarismos e ! # $ % & ' * + - / = ? ^ _ ` { | } ~ antes do @ (pontos só entre eles, até 64); "
                + "depois, um domínio com ponto (letras, algarismos e hífens)",
        ]
    }

    /// A person's name (``UsuariosService/validNome(_:)``): free text of at most 200 characters
    /// whose trimmed part holds no control character at all; tabs and line breaks only around it.
    static var nomeDePessoa: [String: Any] {
        [
            "type": "string", "minLength": 1, "maxLength": 200,
            "pattern": "^(?!" + branco + "*pii:)" + branco + "*" + naoBranco + "[^\\u0000-\\u001F\\u007F-\\u009F]*" + branco + "*$",
            "description": "até 200 caracteres, sem caracteres de controle (tabulação e quebras de linha só nas pontas, que são aparadas)",
        ]
    }

    /// The schema of a path parameter: ids are UUIDs (another text is a 404), a coupon's code
    /// is its pattern, a sandbox charge is `cob_` and 24 letters or digits.
    static func pathSchema(_ name: String, in path: String) -> [String: Any] {
        switch name {
        case "codigo": ["type": "string", "pattern": "^[A-Za-z0-9_-]{3,32}$"]
        case "id" where path.hasPrefix("/api/sandbox/"): ["type": "string", "pattern": "^cob_[a-z0-9]{24}$"]
        default: uuid
        }
    }

    /// The schema of a query parameter's form.
    static func schema(_ form: QueryParameter.Form) -> [String: Any] {
        switch form {
        case .text(let length, let pattern):
            var schema: [String: Any] = ["type": "string"]
            if let length { schema.merge(["minLength": length.lowerBound, "maxLength": length.upperBound]) { $1 } }
            if let pattern { schema["pattern"] = pattern }
            return schema
        case .optionalDate:
            return ["type": "string", "anyOf": [["format": "date"], ["pattern": "^[ \\t]*$"]], "description": "AAAA-MM-DD; em branco: sem filtro"]
        case .integer(let range): return ["type": "integer", "minimum": range.lowerBound, "maximum": range.upperBound]
        case .instant: return instant
        case .date: return ["type": "string", "format": "date", "description": "AAAA-MM-DD"]
        case .id: return uuid
        case .choice(let values): return ["type": "string", "enum": values]
        }
    }
}

extension OpenAPI {
    /// A request body's `schema` as the server reads it: integers of 64 bits; ``caractere``'s rule on every string
    /// that has no format, enum or pattern of its own and on the names of every object's fields;
    /// a field a nested object does not know is ignored, whatever JSON it holds (``valorJSON``,
    /// read all the same); an optional field may also be null (Codable reads null as absent),
    /// except in an object whose fields depend on one another (`oneOf`) or that lists no
    /// `required` (its own decoder).
    static func withoutControlCharacters(_ schema: Any) -> Any {
        guard var object = schema as? [String: Any] else { return (schema as? [Any])?.map(withoutControlCharacters) ?? schema }
        let types = (object["type"] as? [String]) ?? (object["type"] as? String).map { [$0] } ?? []
        if types.contains("string"), object["format"] == nil, object["enum"] == nil, object["pattern"] == nil {
            object["pattern"] = "^" + caractere + "*$"
        }
        // An integer past 64 bits (9.2e18 and beyond) is a 400: a bound where the field has none.
        if types.contains("integer") {
            if object["minimum"] == nil { object["minimum"] = -maiorInteiro }
            if object["maximum"] == nil { object["maximum"] = maiorInteiro }
        }
        if types.contains("object") {
            object["propertyNames"] = ["pattern": "^" + caractere + "*$"]
            if object["additionalProperties"] == nil { object["additionalProperties"] = ref("ValorJSON") }
            if let required = object["required"] as? [String], object["oneOf"] == nil, var properties = object["properties"] as? [String: Any] {
                for (name, property) in properties where !required.contains(name) { properties[name] = nullable(property) }
                object["properties"] = properties
            }
        }
        for key in ["properties", "items", "oneOf", "anyOf", "allOf", "additionalProperties"] {
            guard let value = object[key] else { continue }
            if key == "properties", let properties = value as? [String: Any] {
                object[key] = properties.mapValues(withoutControlCharacters)
            } else if !(value is Bool) {
                object[key] = withoutControlCharacters(value)
            }
        }
        return object
    }

    /// The largest integer a body's field takes (``JSON/decode(_:from:)`` refuses 9.2e18 and beyond).
    static let maiorInteiro = 9_000_000_000_000_000_000

    /// `schema`, or null.
    static func nullable(_ schema: Any) -> Any {
        guard var object = schema as? [String: Any], object["$ref"] == nil, let type = object["type"] else {
            return ["anyOf": [schema, ["type": "null"]]]
        }
        let types = (type as? [String]) ?? [type as? String].compactMap { $0 }
        if !types.contains("null") { object["type"] = types + ["null"] }
        if let values = object["enum"] as? [Any] { object["enum"] = values + [NSNull()] }
        return object
    }

    /// Any JSON value with ``caractere``'s rule on its strings and field names.
    static var valorJSON: [String: Any] {
        let name: [String: Any] = ["pattern": "^" + caractere + "*$"]
        return [
            "description": "qualquer valor JSON, sem caracteres de controle (salvo tabulação e quebras de linha) em textos e nomes de campos",
            "anyOf": [
                ["type": ["null", "boolean", "number"]], ["type": "string"].merging(name) { $1 }, ["type": "array", "items": ref("ValorJSON")],
                ["type": "object", "propertyNames": name, "additionalProperties": ref("ValorJSON")],
            ],
        ]
    }

    /// The component names `schema` refers to.
    static func references(_ schema: Any) -> [String] {
        if let object = schema as? [String: Any] {
            if let reference = object["$ref"] as? String { return [String(reference.dropFirst("#/components/schemas/".count))] }
            return object.values.flatMap(references)
        }
        return (schema as? [Any])?.flatMap(references) ?? []
    }
}
