import Domain
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Services
import Synchronization
import Testing

@testable import Gateway

/// `/openapi.json` states what the server checks, so that a client generated from it is never
/// refused a request the document allows (scripts/test-api-conformance runs schemathesis on it).
@Suite("OpenAPI document: the server's rules are in it")
struct OpenAPIConformanceTests {
    /// The document's paths, read from a server of the harness.
    private func document() async throws -> [String: Any] {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let body = Mutex(Data())
        try await harness.test { client in
            let response = try await client.json(.get, "/openapi.json")
            body.withLock { $0 = Data(buffer: response.body) }
        }
        return try JSONSerialization.jsonObject(with: body.withLock { $0 }) as? [String: Any] ?? [:]
    }

    /// The document's component schemas, by name.
    private func schemas() async throws -> [String: [String: Any]] {
        try #require((try await document()["components"] as? [String: Any])?["schemas"] as? [String: [String: Any]])
    }

    private func operations(_ document: [String: Any]) -> [(String, [String: Any])] {
        let paths = document["paths"] as? [String: [String: [String: Any]]] ?? [:]
        return paths.flatMap { path, methods in methods.map { ("\($0.key.uppercased()) \(path)", $0.value) } }
    }

    @Test("every operation documents 401 (a token that is sent is checked, on public routes too), and 400 when it takes parameters or a body")
    func every_operation_documents_the_statuses_the_edge_answers() async throws {
        let document = try await document()
        for (name, operation) in operations(document) {
            let responses = operation["responses"] as? [String: Any] ?? [:]
            #expect(responses["401"] != nil, "\(name) does not document 401")
            if !(operation["parameters"] as? [Any] ?? []).isEmpty || operation["requestBody"] != nil {
                #expect(responses["400"] != nil, "\(name) does not document 400")
            }
            if operation["requestBody"] != nil { #expect(responses["422"] != nil, "\(name) does not document 422") }
        }
    }

    @Test("the Idempotency-Key header is 1 to 255 visible ASCII characters, declared only where it is honoured")
    func idempotency_key_has_its_rule() async throws {
        let document = try await document()
        var seen = 0
        for (name, operation) in operations(document) {
            let parameters = operation["parameters"] as? [[String: Any]] ?? []
            guard let key = parameters.first(where: { $0["name"] as? String == "Idempotency-Key" }) else { continue }
            seen += 1
            let schema = key["schema"] as? [String: Any] ?? [:]
            #expect(schema["minLength"] as? Int == 1 && schema["maxLength"] as? Int == 255, "\(name)")
            #expect(schema["pattern"] as? String == "^[!-~]+$", "\(name)")
            #expect(name != "POST /api/precos/cotacao" && name != "POST /api/auth/login", "\(name) does not honour the key")
        }
        #expect(seen > 20)
    }

    @Test("query instants are date-time, dates are date, ids are uuid, and required parameters say so")
    func query_parameters_have_their_forms() async throws {
        let document = try await document()
        let all = Dictionary(uniqueKeysWithValues: operations(document))
        func parameter(_ operation: String, _ name: String) -> [String: Any]? {
            (all[operation]?["parameters"] as? [[String: Any]])?.first { $0["name"] as? String == name }
        }
        #expect((parameter("GET /api/admin/auditoria", "desde")?["schema"] as? [String: Any])?["format"] as? String == "date-time")
        #expect((parameter("GET /api/admin/auditoria", "ate")?["schema"] as? [String: Any])?["format"] as? String == "date-time")
        let data = try #require(parameter("GET /api/espacos/{id}/disponibilidade", "data"))
        #expect(data["required"] as? Bool == true && (data["schema"] as? [String: Any])?["format"] as? String == "date")
        #expect(parameter("GET /api/admin/reservas", "unidade")?["required"] as? Bool == true)
        let pagina = try #require(parameter("GET /api/reservas", "pagina")?["schema"] as? [String: Any])
        #expect(pagina["type"] as? String == "integer" && pagina["minimum"] as? Int == 1)
        #expect((parameter("GET /api/espacos", "unidade")?["schema"] as? [String: Any])?["format"] as? String == "uuid")
    }

    @Test("a request body takes only its fields, and free text says its limit and that it may not begin with 'pii:'")
    func request_bodies_are_closed_and_free_text_is_bounded() async throws {
        let schemas = try await self.schemas()
        for name in ["Registro", "PedidoDeReserva", "NovaUnidade", "AlteracaoDeEspaco", "Cancelamento"] {
            #expect(schemas[name]?["additionalProperties"] as? Bool == false, "\(name) is open")
        }
        #expect(schemas["AvisoDoProvedor"]?["additionalProperties"] as? Bool != false, "a provider's notice may carry fields of its own")
        let nome = try #require((schemas["NovaUnidade"]?["properties"] as? [String: Any])?["nome"] as? [String: Any])
        #expect(nome["maxLength"] as? Int == 120 && nome["minLength"] as? Int == 1)
        let pattern = try #require(nome["pattern"] as? String)
        #expect(pattern.hasPrefix("^(?!" + OpenAPI.branco + "*pii:)"))
        let regex = try Regex(pattern)
        #expect("Sala Ipê".wholeMatch(of: regex) != nil)
        #expect(" pii:v1:x".wholeMatch(of: regex) == nil)
        #expect("Sala\u{1}".wholeMatch(of: regex) == nil)
        #expect("   ".wholeMatch(of: regex) == nil)
        // Blanks around a word are taken (the server trims them); blanks alone, of any kind, are not.
        #expect(" \t Sala\n".wholeMatch(of: regex) != nil && "\u{3000}\t\n ".wholeMatch(of: regex) == nil)
    }

    @Test(
        "free text: the schema takes what the server takes, its length counted as sent, blanks around it included (schemathesis sent a blank and the most characters; the server trimmed, then counted)"
    )
    func free_text_length_is_counted_as_sent() async throws {
        let schemas = try await self.schemas()
        let nome = try #require((schemas["NovaUnidade"]?["properties"] as? [String: Any])?["nome"] as? [String: Any])
        let maximo = try #require(nome["maxLength"] as? Int)
        let regex = try Regex(try #require(nome["pattern"] as? String)).matchingSemantics(.unicodeScalar)
        func peloEsquema(_ texto: String) -> Bool {
            texto.wholeMatch(of: regex) != nil && (1...maximo).contains(texto.unicodeScalars.count)
        }
        let cheio = String(repeating: "a", count: maximo)
        let textos = [
            "Sala Ipê", " \t Sala\n", cheio, " " + cheio, cheio + "\n", "\u{3000}" + cheio.dropFirst(), "\u{3000}\t\n ", "",
            " pii:v1:x", "\u{A0}pii:x", "\u{2028}pii:x", "\u{FEFF}pii:x", "\u{FEFF}", "\u{85}Sala", "Sala\u{B}",
        ]
        let casos = textos.map { ($0, peloEsquema($0) ? 201 : 422) }
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.test { client in
            let caller = Caller(requestId: "test")
            let root = try await harness.backend.usuarios.registrar(nome: "Root", email: "root@example.com", senha: "segredo-123", context: caller)
            try await harness.backend.usuarios.promover(usuario: root.id, context: caller)
            let admin = try await client.token("root@example.com")
            for (texto, esperado) in casos {
                let corpo = try JSONSerialization.data(withJSONObject: [
                    "nome": texto,
                    "endereco": ["logradouro": "Av. Paulista", "numero": "1000", "cidade": "São Paulo", "uf": "SP", "cep": "01310-100"],
                ])
                let response = try await client.json(.post, "/api/admin/unidades", String(decoding: corpo, as: UTF8.self), token: admin)
                #expect(Int(response.status.code) == esperado, "\(texto.debugDescription): \(String(buffer: response.body))")
            }
        }
        // The same rule in the password's pattern (never trimmed): not blanks alone.
        let senha = try #require((schemas["Registro"]?["properties"] as? [String: Any])?["senha"] as? [String: Any])
        let regexDaSenha = try Regex(try #require(senha["pattern"] as? String)).matchingSemantics(.unicodeScalar)
        for texto in ["segredo-123", "  segredo ", "\u{3000}\u{A0}x\t\n"] {
            #expect(texto.wholeMatch(of: regexDaSenha) != nil, "\(texto.debugDescription)")
        }
        for texto in ["        ", "\t\n\r\u{2028}\u{3000}   ", "segredo\u{B}123"] {
            #expect(texto.wholeMatch(of: regexDaSenha) == nil, "\(texto.debugDescription)")
        }
    }

    @Test("an e-mail field's pattern takes what the server takes; 'format: email' adds the lengths and the '--' rule, which the server also has")
    func an_email_address_has_the_servers_rule() async throws {
        let schemas = try await self.schemas()
        // schemathesis sent `x@t4.test*`: not an e-mail to `format`, taken by the server (CI failed).
        let textos = [
            "a@b.co", "Ana.Silva+x@mail.example-1.com.br", "!#$%&'*+-/=?^_`{|}~@x.y", "a@b.123", "a@a--b.co", "a", "a@b", "@b.co", "a@",
            "a@@b.co", "a@b@c.co", "x@t4.test*", "a@b_c.co", "a@-b.co", "a@b-.co", "a@b..co", "a@.b.co", "a@b.co.", ".a@b.co", "a.@b.co",
            "a..b@b.co", "a b@c.co", "\"a\"@b.co", "a@[1.2.3.4]", "ünï@exämple.com", "a@\u{212A}.co", " a@b.co",
        ]
        for (schema, campo) in [("Registro", "email"), ("EmpresaNova", "emailDeCobranca"), ("ConviteNovo", "email")] {
            let email = try #require((schemas[schema]?["properties"] as? [String: Any])?[campo] as? [String: Any], "\(schema).\(campo)")
            #expect(email["format"] as? String == "email" && email["maxLength"] as? Int == 254)
            let regex = try Regex(try #require(email["pattern"] as? String)).matchingSemantics(.unicodeScalar)
            for texto in textos where texto != " a@b.co" {
                #expect((texto.wholeMatch(of: regex) != nil) == EmailClaim.enderecoValido(texto), "\(schema).\(campo): \(texto.debugDescription)")
            }
            // The server trims; the schema states the trimmed form.
            #expect(" a@b.co".wholeMatch(of: regex) == nil && EmailClaim.enderecoValido(" a@b.co"))
        }
    }

    @Test("a person's name: the schema allows a tab or line break only at its ends, as registration does (schemathesis found a CR inside one, 422)")
    func a_persons_name_has_no_control_character_inside() async throws {
        let schemas = try await self.schemas()
        let nome = try #require((schemas["Registro"]?["properties"] as? [String: Any])?["nome"] as? [String: Any])
        // JSON Schema's patterns match code points; a Swift regex, whole characters ("\r\n" is one).
        let regex = try Regex(try #require(nome["pattern"] as? String)).matchingSemantics(.unicodeScalar)
        let aceitos = ["Ana", " Ana Lívia ", "\r\n\tAna\u{3000}", "\u{2028}Zé\u{A0}"]
        let recusados = ["A\rna", "A\nna", "Ana\tLívia", "N\u{85}ul", "\u{B}Ana", "\t\r\n", " pii:v1:x", ""]
        for texto in aceitos { #expect(texto.wholeMatch(of: regex) != nil, "\(texto.debugDescription)") }
        for texto in recusados { #expect(texto.wholeMatch(of: regex) == nil, "\(texto.debugDescription)") }

        // And the server answers as the schema says.
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.test { client in
            for (indice, texto) in (aceitos + recusados).enumerated() {
                let corpo = try JSONSerialization.data(withJSONObject: ["nome": texto, "email": "p\(indice)@example.com", "senha": "segredo-123"])
                let response = try await client.json(.post, "/api/auth/registro", String(decoding: corpo, as: UTF8.self))
                let esperado = aceitos.contains(texto) ? 201 : 422
                #expect(Int(response.status.code) == esperado, "\(texto.debugDescription): \(String(buffer: response.body))")
            }
        }
    }
}
