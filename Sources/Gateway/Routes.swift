import App
import Domain
import EventStore
import Foundation
import Hummingbird
import Logging
import Messaging
import Projections
import Services
import Telemetry

struct RegistroBody: Decodable {
    let nome: String
    let email: String
    let senha: String
}
struct LoginBody: Decodable {
    let email: String
    let senha: String
}
struct TrocaDeSenhaBody: Decodable {
    let senhaAtual: String
    let novaSenha: String
}

enum Routes {
    static func usuarios(_ api: API, _ backend: Backend) {
        let usuarios = backend.usuarios
        api.add(
            Operation(
                method: .post, path: "/api/auth/registro", summary: "Registrar uma conta de membro", tag: "auth",
                request: "Registro", response: "Perfil", success: 201, errors: [409, 422])
        ) { _, context, body in
            let input = try JSON.decode(RegistroBody.self, from: body)
            let perfil = try await usuarios.registrar(nome: input.nome, email: input.email, senha: input.senha, context: context.caller)
            return try .json(perfil, status: 201)
        }
        api.add(
            Operation(
                method: .post, path: "/api/auth/login", summary: "Entrar: devolve um token JWT", tag: "auth",
                request: "Login", response: "Sessao", errors: [401, 403, 423], secret: true)
        ) { _, context, body in
            let input = try JSON.decode(LoginBody.self, from: body)
            return try .json(try await usuarios.entrar(email: input.email, senha: input.senha, context: context.caller))
        }
        api.add(
            Operation(
                method: .get, path: "/api/auth/me", summary: "Minha conta", tag: "auth", auth: true, response: "Perfil", errors: [404])
        ) { _, context, _ in
            try .json(try await usuarios.perfil(usuario: try context.requireUser().usuario))
        }
        api.add(
            Operation(
                method: .post, path: "/api/auth/me/senha",
                summary: "Trocar a minha senha: encerra todas as sessões e devolve uma nova para este dispositivo", tag: "auth", auth: true,
                request: "TrocaDeSenha", response: "Sessao", errors: [403, 422, 423], secret: true)
        ) { _, context, body in
            let input = try JSON.decode(TrocaDeSenhaBody.self, from: body)
            return try .json(
                try await usuarios.trocarSenha(
                    usuario: try context.requireUser().usuario, atual: input.senhaAtual, nova: input.novaSenha, context: context.caller))
        }
    }

    static func lgpd(_ api: API, _ backend: Backend) {
        let usuarios = backend.usuarios
        api.add(
            Operation(
                method: .get, path: "/api/auth/me/dados", summary: "LGPD: exportar tudo o que há sobre mim", tag: "lgpd", auth: true,
                response: "Exportacao", errors: [404])
        ) { _, context, _ in
            Reply(status: 200, body: try await usuarios.exportar(usuario: try context.requireUser().usuario))
        }
        let reservas = backend.reservas
        api.add(
            Operation(
                method: .delete, path: "/api/auth/me",
                summary: "LGPD: apagar meus dados pessoais (irreversível); 409 enquanto houver reservas ativas", tag: "lgpd",
                auth: true, success: 204, errors: [404, 409])
        ) { _, context, _ in
            let usuario = try context.requireUser().usuario
            try await semReservasAtivas(reservas, usuario)
            try await usuarios.apagar(usuario: usuario, context: context.caller)
            return Reply(status: 204)
        }
        // The same for an operator acting on a person's request: a deactivated account has no
        // token to ask with, and an erasure whose key deletion failed after it was recorded can
        // only be finished from here (the account's own tokens stop at the record).
        api.add(
            Operation(
                method: .get, path: "/api/admin/usuarios/{id}/dados", summary: "LGPD: exportar tudo o que há sobre uma conta (a pedido do titular)",
                tag: "lgpd", auth: true, admin: true, response: "Exportacao", errors: [404])
        ) { _, context, _ in
            Reply(status: 200, body: try await usuarios.exportar(usuario: try contaId(context)))
        }
        api.add(
            Operation(
                method: .delete, path: "/api/admin/usuarios/{id}/dados",
                summary:
                    "LGPD: apagar os dados pessoais de uma conta, também desativada (a pedido do titular; irreversível); 409 enquanto houver reservas ativas",
                tag: "lgpd", auth: true, admin: true, success: 204, errors: [404, 409])
        ) { _, context, _ in
            let usuario = try contaId(context)
            try await semReservasAtivas(reservas, usuario)
            try await usuarios.apagar(usuario: usuario, context: context.caller)
            return Reply(status: 204)
        }
    }

    /// The account id of the path, as stored (lower case): bookings, events and the audit trail
    /// name accounts so, and a match in another case would find nothing. 404 for a non-id.
    private static func contaId(_ context: GatewayContext) throws -> String {
        guard let id = Usuario.ID(try context.parameters.require("id")) else { throw ServiceError.naoEncontrado("conta não encontrada") }
        return id.description
    }

    /// A held or confirmed booking still needs its member (the charge, the refund, the
    /// check-in, the e-mails): 409 until it is cancelled or ends.
    private static func semReservasAtivas(_ reservas: ReservasService, _ usuario: String) async throws {
        let ativas = try await reservas.ativas(usuario: usuario, emDia: true)
        guard !ativas.isEmpty else { return }
        throw ServiceError(
            .conflito, codigo: "reservas_ativas",
            mensagem: ativas.count == 1
                ? "há 1 reserva ativa nesta conta; cancele-a ou espere que termine antes de apagar os dados"
                : "há \(ativas.count) reservas ativas nesta conta; cancele-as ou espere que terminem antes de apagar os dados",
            detalhes: ["reservas": ativas.prefix(20).map(\.id).joined(separator: ",")])
    }

    static func admin(_ api: API, _ backend: Backend) {
        let usuarios = backend.usuarios
        api.add(
            Operation(
                method: .get, path: "/api/admin/usuarios", summary: "Contas (paginadas, filtro por e-mail)", tag: "admin",
                auth: true, admin: true, response: "PaginaDePerfis", errors: [400],
                query: [.text("email", "parte do e-mail"), .pagina])
        ) { request, _, _ in
            let pagina = try Query.page(request)
            return try .json(try await usuarios.listar(email: request.uri.queryParameters.get("email"), pagina: pagina))
        }
        api.add(
            Operation(
                method: .get, path: "/api/admin/usuarios/{id}", summary: "Uma conta", tag: "admin",
                auth: true, admin: true, response: "Perfil", errors: [404])
        ) { _, context, _ in
            try .json(try await usuarios.consultar(usuario: try context.parameters.require("id")))
        }
        api.add(
            Operation(
                method: .post, path: "/api/admin/usuarios/{id}/promocao", summary: "Promover a administrador", tag: "admin",
                auth: true, admin: true, success: 204, errors: [404, 409])
        ) { _, context, _ in
            try await usuarios.promover(usuario: try context.parameters.require("id"), context: context.caller)
            return Reply(status: 204)
        }
        api.add(
            Operation(
                method: .put, path: "/api/admin/usuarios/{id}/plano",
                summary: "Pôr um membro num plano (null: tirar): as regras de preço do plano valem nas cotações e reservas dele", tag: "admin",
                auth: true, admin: true, request: "DefinicaoDePlano", response: "Perfil", errors: [404, 409, 422])
        ) { _, context, body in
            struct Definicao: Decodable { let plano: String? }
            guard (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?.keys.contains("plano") == true else {
                throw ServiceError.invalido("plano", "informe 'plano': o nome do plano, ou null para tirar o membro do plano")
            }
            return try .json(
                try await usuarios.definirPlano(
                    usuario: try context.parameters.require("id"), plano: try JSON.decode(Definicao.self, from: body).plano, context: context.caller))
        }
        api.add(
            Operation(
                method: .post, path: "/api/admin/usuarios/{id}/desativacao", summary: "Desativar uma conta", tag: "admin",
                auth: true, admin: true, success: 204, errors: [404, 409])
        ) { _, context, _ in
            try await usuarios.desativar(usuario: try context.parameters.require("id"), context: context.caller)
            return Reply(status: 204)
        }
        api.add(
            Operation(
                method: .get, path: "/api/admin/eventos", summary: "Os tipos de evento do log, com seus nomes em português (dos catálogos)",
                tag: "admin",
                auth: true, admin: true, response: "TiposDeEvento")
        ) { _, _, _ in
            try .json(usuarios.tiposDeEvento())
        }
        api.add(
            Operation(
                method: .get, path: "/api/admin/auditoria", summary: "Trilha de auditoria: o log de eventos, filtrado", tag: "admin",
                auth: true, admin: true, response: "PaginaDeAuditoria", errors: [400],
                query: [
                    .text("usuario", "id de quem agiu"), .text("tipo", "tipo do evento"),
                    .instant("desde", "instante RFC 3339 com fuso (Z ou ±HH:MM); não depois de 'ate' (400)"),
                    .instant("ate", "instante RFC 3339 com fuso (Z ou ±HH:MM), exclusivo"), .pagina,
                ])
        ) { request, _, _ in
            let query = request.uri.queryParameters
            // An account id in any case, as stored; an actor that is no account ("system:…") as given.
            let usuario = query.get("usuario").map { Usuario.ID($0)?.description ?? $0 }
            return try .json(
                try await usuarios.auditoria(
                    usuario: usuario, tipo: query.get("tipo"), desde: try Query.instant(request, "desde"),
                    ate: try Query.instant(request, "ate"), pagina: try Query.page(request)))
        }
    }

    static func operations(_ api: API, _ backend: Backend) {
        api.add(
            Operation(
                method: .get, path: "/saude", summary: "Saúde: o store, o bus e as projeções", tag: "operacao", response: "Saude",
                errors: [503])
        ) { _, _, _ in
            var components: [String: [String: String]] = [:]
            var healthy = true
            // The store's head and the lags in two queries (the lags' read answers both).
            var lags: [(name: String, position: GlobalPosition, lag: Int64)] = []
            do {
                let (head, read) = try await backend.lags()
                lags = read
                components["store"] = ["status": "ok", "posicao": head.description]
            } catch {
                healthy = false
                components["store"] = ["status": "erro", "detalhe": String(describing: error)]
            }
            if let broker = backend.broker?.snapshot {
                switch broker.status {
                case .up: components["bus"] = ["status": "ok", "desde": broker.since.formatted(.iso8601)]
                case .starting: components["bus"] = ["status": "iniciando"]
                case .standby: components["bus"] = ["status": "em_espera", "desde": broker.since.formatted(.iso8601)]
                case .down(let reason):
                    healthy = false
                    components["bus"] = ["status": "erro", "detalhe": reason, "desde": broker.since.formatted(.iso8601)]
                }
            }
            // How far each read model (and the relay) is behind; reported, never a failure:
            // a runner catching up is slow but healthy.
            for (name, position, lag) in lags {
                components[name] = ["status": "ok", "posicao": position.description, "atraso": String(lag)]
            }
            // A runner of this process that stopped (an event it cannot apply): its read model no
            // longer moves. Reported as degraded but answered 200: a restart would not get past
            // that event, and would stop this process's other runners and relay with it.
            var stuck = false
            for runner in backend.projections {
                guard let failure = runner.failure else { continue }
                stuck = true
                var component = components[runner.projection.checkpoint] ?? [:]
                component["status"] = "erro"
                component["detalhe"] = failure.description
                component["desde"] = failure.since.formatted(.iso8601)
                component["tentativas"] = String(failure.attempts)
                components[runner.projection.checkpoint] = component
            }
            struct Health: Encodable {
                let status: String
                let componentes: [String: [String: String]]
            }
            return try .json(Health(status: healthy && !stuck ? "ok" : "degradado", componentes: components), status: healthy ? 200 : 503)
        }
        api.add(
            Operation(
                method: .get, path: "/metrics", summary: "Métricas no formato de texto do Prometheus", tag: "operacao",
                response: "text", contentType: "text/plain")
        ) { _, _, _ in
            // The state held elsewhere, read now: how far each subscription (read models,
            // the relay) is behind the head, and the runners of this process that are stuck.
            if let (head, lags) = try? await backend.lags() {
                Telemetry.gauge(Catalog.storeHead).record(head.sequence)
                for (name, _, lag) in lags { Telemetry.gauge(Catalog.subscriptionLag, [("subscription", name)]).record(lag) }
            }
            for runner in backend.projections {
                Telemetry.gauge(Catalog.projectionFailing, [("projection", runner.projection.name)]).record(runner.failure == nil ? 0 : 1)
            }
            let text = Telemetry.render()
            return Reply(status: 200, body: Data(text.utf8), headers: ["Content-Type": "text/plain; version=0.0.4; charset=utf-8"])
        }
    }

    static func documentation(_ api: API) {
        // Registered last so the document includes itself and every route above. The reference
        // (Referencia.swift) comes from this binary: nothing is loaded from another origin.
        let administrativas = api.operations.filter(\.admin).map { "\($0.method.rawValue.lowercased()) \($0.path)" }
        let arquivos = [
            (
                path: "/docs", type: "text/html", text: Referencia.pagina,
                summary: "Referência da API: as operações por serviço, com esquemas, exemplos e um formulário para experimentá-las"
            ),
            (
                path: "/docs/referencia.js", type: "text/javascript", text: Referencia.script(administrativas: administrativas),
                summary: "O script da referência da API"
            ),
            (path: "/docs/referencia.css", type: "text/css", text: Referencia.estilo, summary: "A folha de estilo da referência da API"),
        ]
        for arquivo in arquivos {
            let body = Data(arquivo.text.utf8)
            let headers = [
                "Content-Type": "\(arquivo.type); charset=utf-8", "Content-Security-Policy": Referencia.politica, "Cache-Control": "no-cache",
            ]
            api.add(
                Operation(method: .get, path: arquivo.path, summary: arquivo.summary, tag: "operacao", response: "text", contentType: arquivo.type)
            ) { _, _, _ in Reply(status: 200, body: body, headers: headers) }
        }
        let operations =
            api.operations + [
                Operation(
                    method: .get, path: "/openapi.json", summary: "Este documento (OpenAPI 3.1)", tag: "operacao", response: "text")
            ]
        let document = OpenAPI.document(operations)
        api.add(operations[operations.count - 1]) { _, _, _ in Reply(status: 200, body: document) }
    }
}

extension JSON {
    /// Reads a body as `T`, with a 400 that says what is wrong: empty, not JSON, a missing
    /// field, a field of the wrong type.
    static func decode<T: Decodable>(_ type: T.Type, from body: Data) throws -> T {
        guard !body.isEmpty else { throw ServiceError.requisicaoInvalida("o corpo da requisição está vazio; envie um objeto JSON") }
        // JSON between systems is UTF-8 (RFC 8259 §8.1); Foundation would also read UTF-16 and
        // UTF-32, whose every ASCII character carries a zero byte. A zero byte is never valid
        // UTF-8 JSON: raw, even inside a string, it must be escaped.
        guard !body.contains(0) else {
            throw ServiceError.requisicaoInvalida("o corpo deve ser JSON em UTF-8; ele contém um byte nulo (UTF-16 e UTF-32 não são aceitos)")
        }
        if mayHoldControlCharacters(body) {
            // Names, addresses and reasons travel into e-mails, CSV files and invoices: a NUL or
            // an escape character there is never meant. Tab and line breaks are text.
            let parsed = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
            if let parsed, let field = withControlCharacter(parsed, path: "") {
                throw ServiceError.invalido(
                    field, "o campo '\(field)' contém caracteres de controle (como U+0000); só são aceitos texto, tabulação e quebras de linha")
            }
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            // A string that is not an instant is a value breaking a rule (422, naming the field
            // and the form); a number or an object where an instant goes stays a 400.
            guard let instant = instant(try container.decode(String.self)) else {
                let campo = decoder.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
                throw ServiceError.invalido(campo, "o campo '\(campo)' deve ser um instante ISO 8601 (RFC 3339): \(RFC3339.forma)")
            }
            return instant
        }
        do {
            return try decoder.decode(T.self, from: body)
        } catch DecodingError.dataCorrupted(let context) where context.underlyingError is Espaco.HorarioSemanal.Invalido {
            // Well-formed JSON, but opening hours that break a rule: say which day and which one.
            let campo = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw ServiceError.invalido(campo.isEmpty ? "horario" : campo, horario(context.underlyingError as? Espaco.HorarioSemanal.Invalido))
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            // Foundation says "not valid JSON", with no field, also for valid JSON holding a
            // number our integer fields cannot take (1.5, 1e30): find those and name them.
            guard let parsed = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) else {
                throw ServiceError.requisicaoInvalida("o corpo não é JSON válido")
            }
            guard let field = notInteger(parsed, path: "") else {
                throw ServiceError.requisicaoInvalida("o corpo não pôde ser lido")
            }
            throw ServiceError.requisicaoInvalida(
                "o campo '\(field)' deve ser um número inteiro (sem casas decimais, de até 64 bits)", detalhes: ["campo": field])
        } catch let error as DecodingError {
            throw explain(error)
        }
    }

    /// What is wrong with a week of opening hours, for people.
    static func horario(_ invalido: Espaco.HorarioSemanal.Invalido?) -> String {
        switch invalido {
        case .faixaInvalida(let dia, let faixa):
            "\(dia.rawValue): a faixa {abre \(faixa.abre), fecha \(faixa.fecha)} é inválida; cada faixa vai de 'abre' a 'fecha' em minutos "
                + "desde a meia-noite, com 0 ≤ abre < fecha ≤ 1440"
        case .faixasSobrepostas(let dia):
            "\(dia.rawValue): duas faixas se sobrepõem; faixas do mesmo dia não podem compartilhar nenhum minuto"
        case .diaDesconhecido(let nome):
            "'\(nome.prefix(40))' não é um dia da semana; use \(DiaDaSemana.allCases.map(\.rawValue).joined(separator: ", "))"
        case nil:
            "o horário é inválido"
        }
    }

    /// 422 naming the first field of a JSON object body that is not among `accepted` (with the
    /// accepted field it most likely meant); anything but an object is left to the decoder.
    static func knownKeys(_ body: Data, _ accepted: Set<String>) throws {
        guard !body.isEmpty, let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return }
        guard let extra = object.keys.sorted().first(where: { !accepted.contains($0) }) else { return }
        let guess = accepted.map { ($0, distance($0.lowercased(), extra.lowercased())) }.filter { $0.1 <= 2 }.min { $0.1 < $1.1 }?.0
        throw ServiceError.invalido(
            extra,
            "o campo '\(extra.prefix(60))' não existe aqui" + (guess.map { "; você quis dizer '\($0)'?" } ?? "")
                + " (campos aceitos: \(accepted.sorted().joined(separator: ", ")))")
    }

    /// Edit distance (insertions, deletions, substitutions) between two short names.
    private static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.prefix(64)), b = Array(b.prefix(64))
        guard !a.isEmpty else { return b.count }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return row[b.count]
    }

    /// A partial update (PATCH) names only fields it can change: any other top-level key is a
    /// 422 naming it (with `hints` for the ones that change elsewhere), not silently ignored.
    static func onlyKeys(_ body: Data, _ allowed: Set<String>, hints: [String: String] = [:]) throws {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return }  // decode says what is wrong
        guard let extra = object.keys.sorted().first(where: { !allowed.contains($0) }) else { return }
        throw ServiceError.invalido(
            extra,
            hints[extra] ?? "o campo '\(extra)' não pode ser alterado aqui; os campos alteráveis são: \(allowed.sorted().joined(separator: ", "))")
    }

    /// Whether `body` has a JSON escape (`\u00XX`, `\b`, `\f`) or a raw byte (DEL, a C1
    /// control) that can stand for a control character: a quick pass, so that only such
    /// bodies are parsed again to find the field.
    private static func mayHoldControlCharacters(_ body: Data) -> Bool {
        body.withUnsafeBytes { bytes in
            var index = 0
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\\"):
                    guard index + 1 < bytes.count else { return false }
                    switch bytes[index + 1] {
                    case UInt8(ascii: "u"), UInt8(ascii: "b"), UInt8(ascii: "f"): return true
                    default: index += 2  // an escaped character, a backslash included
                    }
                case 0x7F:
                    return true
                case 0xC2 where index + 1 < bytes.count && (0x80...0x9F).contains(bytes[index + 1]):
                    return true
                default:
                    index += 1
                }
            }
            return false
        }
    }

    /// The path of the first value (depth first, keys in order) that `matches`; a key that
    /// matches names its object ("corpo" at the top).
    private static func firstField(_ value: Any, path: String, _ matches: (Any) -> Bool) -> String? {
        switch value {
        case let object as [String: Any]:
            for key in object.keys.sorted() {
                if matches(key) { return path.isEmpty ? "corpo" : path }
                if let found = firstField(object[key] as Any, path: path.isEmpty ? key : "\(path).\(key)", matches) { return found }
            }
        case let array as [Any]:
            for (index, item) in array.enumerated() {
                if let found = firstField(item, path: "\(path)[\(index)]", matches) { return found }
            }
        default:
            if matches(value) { return path.isEmpty ? "corpo" : path }
        }
        return nil
    }

    /// The first string (or key) holding a control character other than tab, line feed and
    /// carriage return.
    private static func withControlCharacter(_ value: Any, path: String) -> String? {
        firstField(value, path: path) { value in
            guard let text = value as? String else { return false }
            return text.unicodeScalars.contains { $0.properties.generalCategory == .control && !["\t", "\n", "\r"].contains($0) }
        }
    }

    /// The first number that is not an integer of 64 bits.
    private static func notInteger(_ value: Any, path: String) -> String? {
        firstField(value, path: path) { value in
            // What the decoder refuses for an integer: a fraction, or beyond 64 bits (1.0 and
            // 1e3 it takes).
            guard let number = value as? NSNumber, !(value is String) else { return false }
            let double = number.doubleValue
            return double.rounded() != double || abs(double) >= 9.2e18
        }
    }

    /// An instant as the API takes it, on every route: ``RFC3339/instante(_:)``.
    static func instant(_ text: String) -> Date? { RFC3339.instante(text) }
}

/// Query parameters with a 400 that names the bad one.
enum Query {
    /// A parameter the route does not take is a 400 naming it, before anything is read or
    /// done: a misspelt filter (`?dta=` for `?data=`) dropped in silence would answer another
    /// question (today's availability, every booking) as if it were the one asked.
    static func known(_ request: Request, _ operation: Operation) throws {
        guard let query = request.uri.query, !query.isEmpty else { return }
        for (name, _) in request.uri.queryParameters where !operation.query.contains(where: { $0.name == name }) {
            let accepted = operation.query.map { "'\($0.name)'" }.joined(separator: ", ")
            let shown = String(name.unicodeScalars.prefix(60).filter { $0.value >= 0x20 && $0.value != 0x7F })
            throw ServiceError(
                .requisicaoInvalida, codigo: "parametro_desconhecido",
                mensagem: "parâmetro de consulta desconhecido: '\(shown)'; "
                    + (accepted.isEmpty ? "esta rota não aceita parâmetros de consulta" : "esta rota aceita \(accepted)"),
                detalhes: ["campo": shown])
        }
    }

    static func page(_ request: Request) throws -> Int {
        guard let text = request.uri.queryParameters.get("pagina") else { return 1 }
        guard let page = Int(text), (1...1_000_000).contains(page) else {
            throw ServiceError.requisicaoInvalida("'pagina' deve ser um inteiro de 1 a 1000000", detalhes: ["campo": "pagina"])
        }
        return page
    }

    /// `dialeto` of a spreadsheet export: rfc4180 when absent, else one of ``FinanceiroService/DialetoCSV``.
    static func dialeto(_ request: Request) throws -> FinanceiroService.DialetoCSV {
        guard let text = request.uri.queryParameters.get("dialeto") else { return .rfc4180 }
        guard let dialeto = FinanceiroService.DialetoCSV(rawValue: text) else {
            throw ServiceError.requisicaoInvalida(
                "'dialeto' deve ser \(FinanceiroService.DialetoCSV.allCases.map(\.rawValue).joined(separator: " ou "))",
                detalhes: ["campo": "dialeto"])
        }
        return dialeto
    }

    static func instant(_ request: Request, _ name: String) throws -> Date? {
        guard let text = request.uri.queryParameters.get(name) else { return nil }
        guard let date = JSON.instant(text) else {
            throw ServiceError.requisicaoInvalida("'\(name)' deve ser um instante ISO 8601 (RFC 3339): \(RFC3339.forma)", detalhes: ["campo": name])
        }
        return date
    }

    /// An id filter (`unidade`, `espaco`): absent is nil; otherwise a UUID, answered in the
    /// lower-case form the read models keep, or a 400 naming it (a typo is not "no results").
    static func id(_ request: Request, _ name: String) throws -> String? {
        guard let text = request.uri.queryParameters.get(name) else { return nil }
        guard let id = UUID(text: text) else {
            throw ServiceError.requisicaoInvalida("'\(name)' deve ser um id (UUID)", detalhes: ["campo": name])
        }
        return id.lowercasedString
    }
}
