import Domain
import EventStore
import Foundation
import Gateway
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Projections
import Services
import Synchronization
import Testing

/// 2026-11-23 08:00 in São Paulo, a Monday: every test's "now".
let segundaDeManha = try! Date("2026-11-23T08:00:00-03:00", strategy: .iso8601)

/// A unit with spaces and prices, made through the admin routes.
struct Cenario {
    let admin: String
    let membro: String
    let unidade: String
    let sala: String
    let estacoes: String

    /// Open every day 07:00–22:00; the room books one at a time, the desks take three.
    static func make(_ harness: Harness, _ client: any TestClientProtocol) async throws -> Cenario {
        let caller = Caller(requestId: "test")
        let root = try await harness.backend.usuarios.registrar(nome: "Root", email: "root@example.com", senha: "segredo-123", context: caller)
        try await harness.backend.usuarios.promover(usuario: root.id, context: caller)
        let admin = try await client.token("root@example.com")
        #expect(try await client.register("ana@example.com").status == .created)
        let membro = try await client.token("ana@example.com")

        let unidade = try await client.json(
            .post, "/api/admin/unidades",
            #"""
            {"nome":"Paulista","endereco":{"logradouro":"Av. Paulista","numero":"1000","cidade":"São Paulo","uf":"sp","cep":"01310-100"},
             "politicaDeCancelamento":{"horasSemMulta":24,"multaBP":5000}}
            """#, token: admin)
        #expect(unidade.status == .created, "\(String(buffer: unidade.body))")
        let unidadeId = try #require(unidade.object["id"] as? String)
        let horario =
            #"{"domingo":[{"abre":420,"fecha":1320}],"segunda":[{"abre":420,"fecha":1320}],"terca":[{"abre":420,"fecha":1320}],"quarta":[{"abre":420,"fecha":1320}],"quinta":[{"abre":420,"fecha":1320}],"sexta":[{"abre":420,"fecha":1320}],"sabado":[{"abre":420,"fecha":1320}]}"#
        func espaco(_ nome: String, _ tipo: String, _ capacidade: Int) async throws -> String {
            let created = try await client.json(
                .post, "/api/admin/espacos",
                """
                {"unidadeId":"\(unidadeId)","nome":"\(nome)","tipo":"\(tipo)","capacidade":\(capacidade),"comodidades":["Projetor"," wi-fi "],
                 "regras":{"duracaoMinimaMinutos":30,"duracaoMaximaMinutos":600,"antecedenciaMinimaMinutos":10,"antecedenciaMaximaDias":90},
                 "horario":\(horario)}
                """, token: admin)
            #expect(created.status == .created, "\(String(buffer: created.body))")
            let id = try #require(created.object["id"] as? String)
            let precos = try await client.json(
                .put, "/api/admin/espacos/\(id)/precos",
                #"{"porHora":5000,"meioPeriodo":18000,"diaria":30000,"duracaoMinimaMinutos":30}"#, token: admin)
            #expect(precos.status == .ok, "\(String(buffer: precos.body))")
            return id
        }
        return Cenario(
            admin: admin, membro: membro, unidade: unidadeId, sala: try await espaco("Sala Ipê", "sala_reuniao", 8),
            estacoes: try await espaco("Salão", "estacao_compartilhada", 3))
    }
}

/// A booking request body; `cartao`: paid by card with that sandbox token (PIX otherwise).
func pedido(_ espaco: String, _ inicio: String, _ fim: String, cupom: String? = nil, cartao: String? = nil, boleto: Bool = false) -> String {
    #"{"espacoId":"\#(espaco)","inicio":"\#(inicio)","fim":"\#(fim)"\#(cupom.map { #","cupom":"\#($0)""# } ?? "")"#
        + (cartao.map { #","pagamento":{"metodo":"cartao","cartaoToken":"\#($0)"}"# } ?? "")
        + (boleto ? #","pagamento":{"metodo":"boleto"}"# : "") + "}"
}

/// The meeting room's hourly price as the catalog shows it.
func porHoraDaSala(_ client: any TestClientProtocol) async throws -> Int? {
    let itens = try await client.json(.get, "/api/espacos?tipo=sala_reuniao").object["itens"] as? [[String: Any]]
    return (itens?.first?["precos"] as? [String: Any])?["porHora"] as? Int
}

@Suite("Booking through the API")
struct BookingTests {
    @Test("the catalog, kept in memory between changes, shows a change at once and stays put through bookings")
    func catalog_follows_changes() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            func porHora() async throws -> Int? { try await porHoraDaSala(client) }
            #expect(try await porHora() == 5000)
            // A booking moves every checkpoint but changes nothing in the catalog.
            let reserva = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-25T10:00:00-03:00", "2026-11-25T11:00:00-03:00"), token: cenario.membro)
            #expect(reserva.status == .created)
            #expect(try await porHora() == 5000)
            let novo = try await client.json(
                .put, "/api/admin/espacos/\(cenario.sala)/precos", #"{"porHora":6500,"meioPeriodo":24000,"diaria":40000,"duracaoMinimaMinutos":30}"#,
                token: cenario.admin)
            #expect(novo.status == .ok, "\(String(buffer: novo.body))")
            #expect(try await porHora() == 6500)
            let reservaId = try #require(reserva.object["id"] as? String)
            #expect(try await client.json(.post, "/api/reservas/\(reservaId)/cancelamento", "{}", token: cenario.membro).status == .ok)
            let desativado = try await client.json(
                .post, "/api/admin/espacos/\(cenario.sala)/desativacao", #"{"motivo":"reforma"}"#, token: cenario.admin)
            #expect(desativado.status == .ok, "\(String(buffer: desativado.body))")
            #expect(try await client.json(.get, "/api/espacos?tipo=sala_reuniao").object["total"] as? Int == 0)
        }
    }

    @Test("the units list finds a unit by part of its name or address, ignoring case and accents, and pages what it finds")
    func units_search() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            for (nome, bairro, cidade, uf) in [
                ("Jardins", "Jardim Paulista", "São Paulo", "SP"), ("Savassi", "Funcionários", "Belo Horizonte", "MG"),
            ] {
                let criada = try await client.json(
                    .post, "/api/admin/unidades",
                    """
                    {"nome":"\(nome)","endereco":{"logradouro":"Rua Um","numero":"1","bairro":"\(bairro)","cidade":"\(cidade)","uf":"\(uf)","cep":"01310-100"}}
                    """, token: cenario.admin)
                #expect(criada.status == .created, "\(String(buffer: criada.body))")
            }
            func nomes(_ query: String) async throws -> (nomes: [String], total: Int?) {
                let page = try await client.json(.get, "/api/unidades?\(query)")
                #expect(page.status == .ok, "\(query): \(String(buffer: page.body))")
                return ((page.object["itens"] as? [[String: Any]] ?? []).compactMap { $0["nome"] as? String }, page.object["total"] as? Int)
            }
            #expect(try await nomes("pagina=1") == (["Jardins", "Paulista", "Savassi"], 3))
            // By name, street, district, city or state; case and accents do not matter.
            #expect(try await nomes("busca=PAUL") == (["Jardins", "Paulista"], 2))  // Jardim Paulista; Av. Paulista
            #expect(try await nomes("busca=sao%20paulo") == (["Jardins", "Paulista"], 2))
            #expect(try await nomes("busca=funcionarios") == (["Savassi"], 1))
            #expect(try await nomes("busca=mg") == (["Savassi"], 1))
            #expect(try await nomes("busca=%20savassi%20") == (["Savassi"], 1))
            #expect(try await nomes("busca=Recife") == ([], 0))
            #expect(try await nomes("busca=") == (["Jardins", "Paulista", "Savassi"], 3))
            #expect(try await nomes("busca=paul&pagina=2") == ([], 2))
            let longa = try await client.json(.get, "/api/unidades?busca=\(String(repeating: "a", count: 101))")
            #expect(longa.status == .badRequest && (longa.object["detalhes"] as? [String: Any])?["campo"] as? String == "busca")
        }
    }

    @Test("a rebuild swapped in shows in the catalog kept in memory, also when it ends at the position the old build stood")
    func catalog_reloads_after_a_rebuild() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            func porHora() async throws -> Int? { try await porHoraDaSala(client) }
            // The old build wrote a wrong price (a bug the new version fixes), at the last change.
            let catalogo = try #require(harness.backend.projections.first { $0.projection.name == CatalogoReadModel.projection.name })
            let chave = cenario.sala.lowercased()
            let doc = try #require(try await harness.store.document(CatalogoReadModel.tabelas, key: chave))
            let errado = try #require(String(data: doc, encoding: .utf8)?.replacingOccurrences(of: #""porHora":5000"#, with: #""porHora":1"#))
            let onde = try await harness.store.checkpoint(CatalogoReadModel.projection.checkpoint)
            try await harness.store.commit(
                [ReadModelChange(collection: CatalogoReadModel.tabelas, key: chave, grupo: nil, doc: Data(errado.utf8))],
                checkpoint: CatalogoReadModel.projection.checkpoint, at: onde)
            #expect(try await porHora() == 1)
            // The rebuild ends where the old build stood (no catalog change since).
            #expect(try await catalogo.rebuild() > 0)
            #expect(try await harness.store.checkpoint(CatalogoReadModel.projection.checkpoint) >= onde)
            #expect(try await porHora() == 5000)
        }
    }

    @Test("a space is not deactivated, nor its hours changed, under bookings still to come (409 naming them); once they end or are cancelled, it is")
    func deactivation_and_hours_respect_bookings() async throws {
        let clock = ManualClock(segundaDeManha)
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let reserva = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-25T18:00:00-03:00", "2026-11-25T20:00:00-03:00"), token: cenario.membro)
            let id = try #require(reserva.object["id"] as? String)
            func desativar() async throws -> TestResponse {
                try await client.json(.post, "/api/admin/espacos/\(cenario.sala)/desativacao", #"{"motivo":"reforma"}"#, token: cenario.admin)
            }
            func horario(fecha: Int) async throws -> TestResponse {
                let dias = ["domingo", "segunda", "terca", "quarta", "quinta", "sexta", "sabado"].map {
                    #""\#($0)":[{"abre":420,"fecha":\#(fecha)}]"#
                }
                return try await client.json(
                    .put, "/api/admin/espacos/\(cenario.sala)/horario", "{\(dias.joined(separator: ","))}", token: cenario.admin)
            }
            let recusada = try await desativar()
            #expect(recusada.status == .conflict && recusada.erro == "espaco_com_reservas", "\(String(buffer: recusada.body))")
            #expect((recusada.object["detalhes"] as? [String: Any])?["reservas"] as? String == id)
            // Closing at 19:00 would leave the 18:00–20:00 booking half outside; 20:00 keeps it.
            let cedo = try await horario(fecha: 1_140)
            #expect(cedo.status == .conflict && cedo.erro == "horario_sobre_reservas", "\(String(buffer: cedo.body))")
            #expect((cedo.object["detalhes"] as? [String: Any])?["reservas"] as? String == id)
            #expect(try await horario(fecha: 1_200).status == .ok)
            #expect(try await harness.allEvents().filter { $0.type == "EspacoDesativado" }.isEmpty)
            // Once it is over, nothing stands in the way.
            clock.set(try Date("2026-11-25T20:00:01-03:00", strategy: .iso8601))
            #expect(try await desativar().status == .ok)
        }
    }

    @Test("a member finds a space, gets a quote, books it, sees it, and the slot is no longer free")
    func book_and_read_back() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let catalogo = try await client.json(.get, "/api/espacos?tipo=sala_reuniao&capacidade=6&comodidade=projetor")
            let itens = try #require(catalogo.object["itens"] as? [[String: Any]])
            #expect(catalogo.object["total"] as? Int == 1)
            #expect((itens.first?["espaco"] as? [String: Any])?["id"] as? String == cenario.sala)
            #expect((itens.first?["precos"] as? [String: Any])?["porHora"] as? Int == 5000)
            #expect(try await client.json(.get, "/api/espacos?capacidade=9").object["total"] as? Int == 0)
            // An amenity of two words, as a browser's form or URLSearchParams sends it (`+`), or %20.
            let alterada = try await client.json(
                .patch, "/api/admin/espacos/\(cenario.sala)", #"{"comodidades":["Projetor","Ar  condicionado"]}"#, token: cenario.admin)
            #expect(alterada.status == .ok, "\(String(buffer: alterada.body))")
            for consulta in ["ar+condicionado", "ar%20condicionado", "%20AR+condicionado+"] {
                let achados = try await eventually("the amenity filter: \(consulta)") {
                    try await client.json(.get, "/api/espacos?comodidade=\(consulta)").object["total"] as? Int == 1 ? true : nil
                }
                #expect(achados)
            }
            // An id filter takes the id in any case; a malformed one is a 400, not "no results".
            #expect(try await client.json(.get, "/api/espacos?unidade=\(cenario.unidade.uppercased())").object["total"] as? Int == 2)
            let typo = try await client.json(.get, "/api/espacos?unidade=\(cenario.unidade.dropLast())")
            #expect(typo.status == .badRequest)
            #expect((typo.object["detalhes"] as? [String: Any])?["campo"] as? String == "unidade")
            // A well-formed id of no unit is a 404, and a blank amenity a 400: neither is "no results".
            #expect(try await client.json(.get, "/api/espacos?unidade=\(UUID())").status == .notFound)
            for vazia in ["", "+", "%20%20"] {
                let blank = try await client.json(.get, "/api/espacos?comodidade=\(vazia)")
                #expect(
                    blank.status == .badRequest && (blank.object["detalhes"] as? [String: Any])?["campo"] as? String == "comodidade", "'\(vazia)'")
            }
            #expect(try await client.json(.get, "/api/analytics/ocupacao/semana?espaco=sala", token: cenario.admin).status == .badRequest)

            let cotacao = try await client.json(
                .post, "/api/precos/cotacao", pedido(cenario.sala, "2026-11-25T10:00:00-03:00", "2026-11-25T13:00:00-03:00"))
            #expect(cotacao.status == .ok)
            #expect(cotacao.object["total"] as? Int == 15_000)  // 3 h × R$ 50,00 beats the half day
            // Fractions of a second are dropped (what is stored is whole seconds), not charged as a started hour.
            let fracao = try await client.json(
                .post, "/api/precos/cotacao", pedido(cenario.sala, "2026-11-25T10:00:00.000-03:00", "2026-11-25T13:00:00.900-03:00"))
            #expect(fracao.object["total"] as? Int == 15_000, "\(String(buffer: fracao.body))")
            // A quote refuses what a booking would refuse, with the same answer: never a price for
            // what cannot be booked.
            for (inicio, fim) in [
                ("2026-11-25T03:00:00-03:00", "2026-11-25T05:00:00-03:00"),  // closed (opens at 07:00)
                ("2026-11-20T10:00:00-03:00", "2026-11-20T11:00:00-03:00"),  // past
                ("2026-11-25T10:00:00-03:00", "2026-11-25T10:15:00-03:00"),  // under 30 min
                ("2027-06-01T10:00:00-03:00", "2027-06-01T11:00:00-03:00"),  // beyond 90 days
            ] {
                let cotada = try await client.json(.post, "/api/precos/cotacao", pedido(cenario.sala, inicio, fim))
                let reservada = try await client.json(.post, "/api/reservas", pedido(cenario.sala, inicio, fim), token: cenario.membro)
                #expect(
                    cotada.status == .unprocessableContent && reservada.status == .unprocessableContent, "\(inicio): \(String(buffer: cotada.body))")
                #expect(cotada.object["mensagem"] as? String == reservada.object["mensagem"] as? String, "\(inicio)")
            }

            let reserva = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-25T10:00:00-03:00", "2026-11-25T13:00:00-03:00"), token: cenario.membro)
            #expect(reserva.status == .created, "\(String(buffer: reserva.body))")
            #expect(reserva.object["status"] as? String == "solicitada")
            #expect(reserva.object["total"] as? Int == 15_000)
            let id = try #require(reserva.object["id"] as? String)
            #expect(reserva.object["expiraEm"] as? String == "2026-11-23T11:15:00Z")

            let lida = try await client.json(.get, "/api/reservas/\(id)", token: cenario.membro)
            #expect(lida.status == .ok)
            #expect(lida.object["status"] as? String == "solicitada")
            let minhas = try await client.json(.get, "/api/reservas", token: cenario.membro)
            #expect(minhas.object["total"] as? Int == 1)
            // Another member cannot see it.
            #expect(try await client.register("bia@example.com").status == .created)
            let outra = try await client.token("bia@example.com")
            #expect(try await client.json(.get, "/api/reservas/\(id)", token: outra).status == .notFound)

            let livre = try await client.json(.get, "/api/espacos/\(cenario.sala)/disponibilidade?data=2026-11-25")
            let livres = try #require(livre.object["livres"] as? [[String: Any]])
            #expect(
                livres.map { "\($0["inicio"]!)–\($0["fim"]!)" } == [
                    "2026-11-25T10:00:00Z–2026-11-25T13:00:00Z", "2026-11-25T16:00:00Z–2026-11-26T01:00:00Z",
                ])
            // Nothing is free where no booking could start: a past day, beyond the 90 days ahead.
            for dia in ["2026-11-20", "2027-03-01"] {
                let fora = try await client.json(.get, "/api/espacos/\(cenario.sala)/disponibilidade?data=\(dia)")
                #expect((fora.object["livres"] as? [Any])?.isEmpty == true && (fora.object["aberto"] as? [Any])?.isEmpty == false, "\(dia)")
            }
            // Today (08:00, bookings need 10 minutes' notice): from 08:10 on.
            let hoje = try await client.json(.get, "/api/espacos/\(cenario.sala)/disponibilidade?data=2026-11-23")
            #expect(
                (hoje.object["livres"] as? [[String: Any]])?.first?["inicio"] as? String == "2026-11-23T11:10:00Z", "\(String(buffer: hoje.body))")

            let sobreposta = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-25T12:00:00-03:00", "2026-11-25T14:00:00-03:00"), token: outra)
            #expect(sobreposta.status == .conflict)
            #expect(sobreposta.erro == "horario_indisponivel")
            let emSeguida = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-25T13:00:00-03:00", "2026-11-25T14:00:00-03:00"), token: outra)
            #expect(emSeguida.status == .created)

            let doDia = try await client.json(.get, "/api/admin/reservas?unidade=\(cenario.unidade)&data=2026-11-25", token: cenario.admin)
            #expect(doDia.object["total"] as? Int == 2)
            #expect(try await client.json(.get, "/api/admin/reservas?unidade=\(cenario.unidade)&data=2026-11-25", token: outra).status == .forbidden)
            // A unit that does not exist is a 404, not an empty day that hides the typo.
            let semUnidade = try await client.json(.get, "/api/admin/reservas?unidade=\(UUID())&data=2026-11-25", token: cenario.admin)
            #expect(semUnidade.status == .notFound && semUnidade.erro == "nao_encontrado", "\(String(buffer: semUnidade.body))")
        }
    }

    @Test("requests that break a rule get 422 with the rule, bad bodies 400, and neither writes an event")
    func rule_violations() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let before = try await harness.allEvents().count
            let cases: [(String, String, String)] = [
                (pedido(cenario.sala, "2026-11-25T06:00:00-03:00", "2026-11-25T08:00:00-03:00"), "inicio", "fechado"),
                (pedido(cenario.sala, "2026-11-25T10:00:00-03:00", "2026-11-25T10:15:00-03:00"), "fim", "mínima"),
                (pedido(cenario.sala, "2026-11-23T07:00:00-03:00", "2026-11-23T09:00:00-03:00"), "inicio", "passou"),
                (pedido(cenario.sala, "2026-11-23T08:05:00-03:00", "2026-11-23T09:00:00-03:00"), "inicio", "antecedência"),
                (pedido(cenario.sala, "2026-11-25T08:00:00-03:00", "2026-11-25T19:00:00-03:00"), "fim", "máxima"),
                (pedido(cenario.sala, "2026-11-25T10:00:00-03:00", "2026-11-25T09:00:00-03:00"), "fim", "depois"),
                (pedido(UUID().uuidString, "2026-11-25T10:00:00-03:00", "2026-11-25T11:00:00-03:00"), "espacoId", "não existe"),
                (pedido(cenario.sala, "2026-11-25T10:00:00-03:00", "2026-11-25T11:00:00-03:00", cupom: "NAOEXISTE"), "cupom", "não existe"),
            ]
            for (body, campo, palavra) in cases {
                let response = try await client.json(.post, "/api/reservas", body, token: cenario.membro)
                #expect(response.status == .unprocessableContent, "\(body): \(String(buffer: response.body))")
                #expect((response.object["detalhes"] as? [String: Any])?["campo"] as? String == campo, "\(body)")
                #expect((response.object["mensagem"] as? String)?.contains(palavra) == true, "\(String(buffer: response.body))")
            }
            for body in [#"{"espacoId":"x","inicio":1,"fim":"2026-11-25T10:00:00Z"}"#, #"{"inicio":"2026-11-25T10:00:00Z"}"#, "[]", "nada"] {
                #expect(try await client.json(.post, "/api/reservas", body, token: cenario.membro).status == .badRequest, "\(body)")
            }
            // A text where an instant goes is a value that breaks the instant's rule: 422 naming it.
            let amanha = try await client.json(
                .post, "/api/reservas", #"{"espacoId":"x","inicio":"amanhã","fim":"2026-11-25T10:00:00Z"}"#, token: cenario.membro)
            #expect(amanha.status == .unprocessableContent && (amanha.object["detalhes"] as? [String: Any])?["campo"] as? String == "inicio")
            // Numbers an integer field cannot take are named, not reported as "not JSON".
            for (body, campo) in [
                (#"{"porHora":5000.5,"meioPeriodo":18000,"diaria":30000,"duracaoMinimaMinutos":30}"#, "porHora"),
                (#"{"porHora":5000,"meioPeriodo":18000,"diaria":30000,"duracaoMinimaMinutos":99999999999999999999}"#, "duracaoMinimaMinutos"),
            ] {
                let response = try await client.json(.put, "/api/admin/espacos/\(cenario.sala)/precos", body, token: cenario.admin)
                #expect(response.status == .badRequest, "\(String(buffer: response.body))")
                #expect((response.object["detalhes"] as? [String: Any])?["campo"] as? String == campo, "\(String(buffer: response.body))")
            }
            #expect(
                try await client.json(.put, "/api/admin/espacos/\(cenario.sala)/precos", "{nada", token: cenario.admin).erro == "requisicao_invalida")
            // Free texts are bounded: each too-long one is a 422 naming its field.
            let longo = String(repeating: "x", count: 501)
            let unidade = try await client.json(
                .post, "/api/admin/unidades",
                #"""
                {"nome":"Centro","endereco":{"logradouro":"Rua A","numero":"1","complemento":"\#(longo)","cidade":"São Paulo","uf":"SP","cep":"01000-000"}}
                """#, token: cenario.admin)
            let textos: [(TestResponse, String)] = [
                (unidade, "endereco.complemento"),
                (
                    try await client.json(
                        .post, "/api/admin/espacos/\(cenario.sala)/bloqueios",
                        #"{"inicio":"2026-12-01T00:00:00-03:00","fim":"2026-12-02T00:00:00-03:00","motivo":"manutencao","descricao":"\#(longo)"}"#,
                        token: cenario.admin), "descricao"
                ),
                (
                    try await client.json(
                        .post, "/api/admin/espacos/\(cenario.sala)/precos/regras",
                        #"{"tipo":"plano","plano":"\#(longo)","descontoBP":1000}"#, token: cenario.admin), "regra"
                ),
                (
                    try await client.json(
                        .post, "/api/reservas",
                        #"{"espacoId":"\#(cenario.sala)","inicio":"2026-11-25T10:00:00-03:00","fim":"2026-11-25T11:00:00-03:00","pagamento":{"metodo":"cartao","cartaoToken":"\#(longo)"}}"#,
                        token: cenario.membro), "pagamento.cartaoToken"
                ),
                (
                    try await client.json(.post, "/api/admin/espacos/\(cenario.sala)/desativacao", #"{"motivo":"\#(longo)"}"#, token: cenario.admin),
                    "motivo"
                ),
            ]
            for (response, campo) in textos {
                #expect(response.status == .unprocessableContent, "\(campo): \(String(buffer: response.body))")
                #expect((response.object["detalhes"] as? [String: Any])?["campo"] as? String == campo, "\(String(buffer: response.body))")
            }
            // Control characters (a NUL, an escape, a form feed) are refused, naming the field.
            let endereco = #""endereco":{"logradouro":"Rua A","numero":"1","cidade":"São Paulo","uf":"SP","cep":"01000-000"}"#
            let controles: [(TestResponse, String)] = [
                (try await client.json(.post, "/api/admin/unidades", #"{"nome":"Cen\u0000tro",\#(endereco)}"#, token: cenario.admin), "nome"),
                (
                    try await client.json(
                        .patch, "/api/admin/espacos/\(cenario.sala)", #"{"comodidades":["wifi","\u001b[31m"]}"#, token: cenario.admin),
                    "comodidades[1]"
                ),
                (
                    try await client.json(.post, "/api/admin/espacos/\(cenario.sala)/desativacao", #"{"motivo":"reforma\f"}"#, token: cenario.admin),
                    "motivo"
                ),
            ]
            for (response, campo) in controles {
                #expect(response.status == .unprocessableContent, "\(campo): \(String(buffer: response.body))")
                #expect((response.object["detalhes"] as? [String: Any])?["campo"] as? String == campo, "\(String(buffer: response.body))")
            }
            // A blackout that has already ended could block nothing: a 422 on 'fim'.
            let encerrado = try await client.json(
                .post, "/api/admin/espacos/\(cenario.sala)/bloqueios",
                #"{"inicio":"2026-11-20T08:00:00-03:00","fim":"2026-11-20T18:00:00-03:00","motivo":"feriado"}"#, token: cenario.admin)
            #expect(encerrado.status == .unprocessableContent, "\(String(buffer: encerrado.body))")
            #expect((encerrado.object["detalhes"] as? [String: Any])?["campo"] as? String == "fim", "\(String(buffer: encerrado.body))")
            // JSON is UTF-8: the same body in UTF-16 is a 400, not read.
            for encoding in [String.Encoding.utf16LittleEndian, .utf16BigEndian, .utf16, .utf32] {
                let texto = #"{"motivo":"reforma"}"#
                var headers = HTTPFields()
                headers[.contentType] = "application/json"
                headers[.authorization] = "Bearer \(cenario.admin)"
                let response = try await client.execute(
                    uri: "/api/admin/espacos/\(cenario.sala)/desativacao", method: .post, headers: headers,
                    body: ByteBuffer(bytes: try #require(texto.data(using: encoding))))
                #expect(response.status == .badRequest, "\(encoding): \(String(buffer: response.body))")
                #expect((response.object["mensagem"] as? String)?.contains("UTF-8") == true, "\(String(buffer: response.body))")
            }
            // A partial update names what it cannot change instead of ignoring it.
            for (body, campo) in [
                (#"{"nome":"Sala Ipê","tipo":"auditorio"}"#, "tipo"), (#"{"ativo":false}"#, "ativo"), (#"{"capacidad":9}"#, "capacidad"),
            ] {
                let response = try await client.json(.patch, "/api/admin/espacos/\(cenario.sala)", body, token: cenario.admin)
                #expect(response.status == .unprocessableContent, "\(String(buffer: response.body))")
                #expect((response.object["detalhes"] as? [String: Any])?["campo"] as? String == campo)
            }
            #expect(
                try await client.json(.patch, "/api/admin/unidades/\(cenario.unidade)", #"{"fuso":"UTC"}"#, token: cenario.admin).status
                    == .unprocessableContent)
            // A wrong shape is described in JSON's words, not Swift's type names.
            let forma = try await client.json(
                .post, "/api/reservas",
                #"{"espacoId":"\#(cenario.sala)","inicio":"2026-11-25T10:00:00-03:00","fim":"2026-11-25T11:00:00-03:00","pagamento":"pix"}"#,
                token: cenario.membro)
            #expect(forma.status == .badRequest)
            #expect(forma.object["mensagem"] as? String == "o campo 'pagamento' deve ser um objeto JSON", "\(String(buffer: forma.body))")
            // An unknown value of an enumeration lists the ones it takes; a body that is not an
            // object says so, without an empty field name.
            let metodo = try await client.json(
                .post, "/api/reservas",
                #"{"espacoId":"\#(cenario.sala)","inicio":"2026-11-25T10:00:00-03:00","fim":"2026-11-25T11:00:00-03:00","pagamento":{"metodo":"PIX"}}"#,
                token: cenario.membro)
            #expect(metodo.status == .badRequest)
            #expect(
                metodo.object["mensagem"] as? String == "o campo 'pagamento.metodo' tem um valor inválido; use pix, cartao, boleto (em minúsculas)",
                "\(String(buffer: metodo.body))")
            for corpo in ["[]", "null", "1"] {
                let answer = try await client.json(.post, "/api/reservas", corpo, token: cenario.membro)
                #expect(
                    answer.status == .badRequest && answer.object["mensagem"] as? String == "o corpo deve ser um objeto JSON",
                    "\(corpo): \(String(buffer: answer.body))")
            }
            // Instants that do not exist are refused, not rolled over to another day or hour;
            // and only an RFC 3339 date-time with `Z` or `±HH:MM` is an instant: no trailing
            // text, no second offset after `Z`, no `-0300`, `-03` or `-03:00:00` (422).
            for (inicio, fim, campo) in [
                ("2026-02-30T10:00:00-03:00", "2026-02-30T11:00:00-03:00", "inicio"),
                ("2026-11-25T10:00:00-03:00", "2026-11-25T24:30:00-03:00", "fim"),
                ("2026-11-25T10:00:00-03:00", "2026-11-25T11:60:00-03:00", "fim"), ("2026-11-25T10:00:00", "2026-11-25T11:00:00", "inicio"),
                ("2026-11-25T10:00:00-03:00garbage", "2026-11-25T11:00:00-03:00", "inicio"),
                ("2026-11-25T10:00:00-03:00", "2026-11-25T14:00:00Z-03:00", "fim"),
                ("2026-11-25T10:00:00-0300", "2026-11-25T11:00:00-03:00", "inicio"),
                ("2026-11-25T10:00:00-03", "2026-11-25T11:00:00-03:00", "inicio"),
                ("2026-11-25T10:00:00-03:00", "2026-11-25T11:00:00-03:00:00", "fim"),
                ("2026-11-25 10:00:00-03:00", "2026-11-25T11:00:00-03:00", "inicio"),
            ] {
                let response = try await client.json(.post, "/api/reservas", pedido(cenario.sala, inicio, fim), token: cenario.membro)
                #expect(response.status == .unprocessableContent, "\(inicio)–\(fim): \(String(buffer: response.body))")
                #expect((response.object["detalhes"] as? [String: Any])?["campo"] as? String == campo, "\(String(buffer: response.body))")
                #expect((response.object["mensagem"] as? String)?.contains("ISO 8601") == true, "\(String(buffer: response.body))")
            }
            #expect(
                try await client.json(.post, "/api/reservas", pedido(cenario.sala, "2026-11-25T10:00:00Z", "2026-11-25T11:00:00Z")).status
                    == .unauthorized)
            #expect(try await harness.allEvents().count == before)
            // Tab and line breaks are text, and so is an escaped backslash before "u0000".
            let texto = try await client.json(
                .post, "/api/admin/unidades",
                #"""
                {"nome":"Centro \\u0000 S\u00e3o","endereco":{"logradouro":"Rua A","numero":"1","complemento":"bloco A\n\tfundos","cidade":"São Paulo","uf":"SP","cep":"01000-000"}}
                """#, token: cenario.admin)
            #expect(texto.status == .created, "\(String(buffer: texto.body))")
            #expect(texto.object["nome"] as? String == #"Centro \u0000 São"#)
            #expect((texto.object["endereco"] as? [String: Any])?["complemento"] as? String == "bloco A\n\tfundos")

            let desativado = try await client.json(
                .post, "/api/admin/espacos/\(cenario.sala)/desativacao", #"{"motivo":"reforma"}"#, token: cenario.admin)
            #expect(desativado.object["ativo"] as? Bool == false)
            let inativo = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-25T10:00:00-03:00", "2026-11-25T11:00:00-03:00"), token: cenario.membro)
            #expect(inativo.status == .unprocessableContent)
            #expect(try await client.json(.get, "/api/espacos").object["total"] as? Int == 1)  // inactive spaces leave the catalog

            let bloqueio = try await client.json(
                .post, "/api/admin/espacos/\(cenario.estacoes)/bloqueios",
                #"{"inicio":"2026-11-26T00:00:00-03:00","fim":"2026-11-27T00:00:00-03:00","motivo":"feriado"}"#, token: cenario.admin)
            #expect(bloqueio.status == .created)
            let feriado = try await client.json(
                .post, "/api/reservas", pedido(cenario.estacoes, "2026-11-26T10:00:00-03:00", "2026-11-26T11:00:00-03:00"), token: cenario.membro)
            #expect(feriado.status == .unprocessableContent)
            let closed = try await client.json(.get, "/api/espacos/\(cenario.estacoes)/disponibilidade?data=2026-11-26")
            #expect((closed.object["livres"] as? [Any])?.isEmpty == true)
            #expect(try await client.json(.get, "/api/espacos/\(cenario.estacoes)/disponibilidade?data=26-11-2026").status == .badRequest)
        }
    }

    @Test("availability of a space open across midnight shows a short stretch before midnight that a booking into the next day can take")
    func availability_across_midnight() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let sempre = ["domingo", "segunda", "terca", "quarta", "quinta", "sexta", "sabado"].map { #""\#($0)":[{"abre":0,"fecha":1440}]"# }
            let criado = try await client.json(
                .post, "/api/admin/espacos",
                """
                {"unidadeId":"\(cenario.unidade)","nome":"Sala 24 h","tipo":"sala_reuniao","capacidade":4,
                 "regras":{"duracaoMinimaMinutos":60,"duracaoMaximaMinutos":600,"antecedenciaMinimaMinutos":10,"antecedenciaMaximaDias":90},
                 "horario":{\(sempre.joined(separator: ","))}}
                """, token: cenario.admin)
            let sala = try #require(criado.object["id"] as? String, "\(String(buffer: criado.body))")
            #expect(
                try await client.json(
                    .put, "/api/admin/espacos/\(sala)/precos",
                    #"{"porHora":5000,"meioPeriodo":18000,"diaria":30000,"duracaoMinimaMinutos":30}"#, token: cenario.admin
                ).status == .ok)
            #expect(
                try await client.json(
                    .post, "/api/reservas", pedido(sala, "2026-11-25T20:00:00-03:00", "2026-11-25T23:30:00-03:00"), token: cenario.membro
                ).status == .created)
            // The member who booked asks: their read waits for the booking (ADR 0005).
            let quarta = try await client.json(.get, "/api/espacos/\(sala)/disponibilidade?data=2026-11-25", token: cenario.membro)
            let livres = try #require(quarta.object["livres"] as? [[String: Any]], "\(String(buffer: quarta.body))")
            // 23:30–24:00 is only 30 minutes, but goes on into Thursday's free morning.
            #expect(livres.last.map { "\($0["inicio"]!)–\($0["fim"]!)" } == "2026-11-26T02:30:00Z–2026-11-26T03:00:00Z", "\(livres)")
            let quinta = try await client.json(.get, "/api/espacos/\(sala)/disponibilidade?data=2026-11-26")
            #expect((quinta.object["livres"] as? [[String: Any]])?.first?["inicio"] as? String == "2026-11-26T03:00:00Z")
            #expect(
                try await client.json(
                    .post, "/api/reservas", pedido(sala, "2026-11-25T23:30:00-03:00", "2026-11-26T00:30:00-03:00"), token: cenario.membro
                ).status == .created)
        }
    }

    @Test("50 concurrent requests for one room slot: exactly one 201 and 49 × 409; a 3-seat space takes exactly 3")
    func concurrent_requests_never_double_book() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        // One member sends 100 bookings and then reads theirs, in a fraction of a second: the
        // default bucket (100 at once, 50/s) answers that read 429 unless 20 ms have passed
        // (seen in CI on the release build). The race is the point here, not the limit.
        try await harness.test(rateLimiter: RateLimiter(perUser: RateLimiter.Limit(burst: 200, perSecond: 50))) { client in
            let cenario = try await Cenario.make(harness, client)
            for (espaco, vagas) in [(cenario.sala, 1), (cenario.estacoes, 3)] {
                let body = pedido(espaco, "2026-11-27T14:00:00-03:00", "2026-11-27T16:00:00-03:00")
                let token = cenario.membro
                let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                    for _ in 0..<50 { group.addTask { try await client.json(.post, "/api/reservas", body, token: token).status } }
                    return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
                }
                #expect(statuses.filter { $0 == .created }.count == vagas)
                #expect(statuses.filter { $0 == .conflict }.count == 50 - vagas)
                // The read models agree: the day's occupancy holds exactly the winners (once its
                // runner has applied them: under load it waits for the beat, ADR 0005).
                let data = try #require(DataLocal("2026-11-27"))
                let chave = ReservasReadModel.ocupacaoKey(try #require(UUID(uuidString: espaco)), data)
                let view = try await eventually("the day's occupancy holds the \(vagas) winners") { () -> OcupacaoView? in
                    guard let ocupacao = try await harness.store.document(ReservasReadModel.ocupacao, key: chave) else { return nil }
                    let view = try ReadModelJSON.decoder.decode(OcupacaoView.self, from: ocupacao)
                    return view.reservas.count >= vagas ? view : nil
                }
                #expect(view.reservas.count == vagas)
                let livres =
                    try await client.json(.get, "/api/espacos/\(espaco)/disponibilidade?data=2026-11-27").object["livres"] as? [[String: Any]]
                #expect(livres?.contains { $0["inicio"] as? String == "2026-11-27T17:00:00Z" } == false)
            }
            let minhas = try await client.json(.get, "/api/reservas", token: cenario.membro)
            #expect(minhas.object["total"] as? Int == 4, "\(minhas.status) \(String(buffer: minhas.body))")
        }
    }

    @Test(
        "a booking's Idempotency-Key is kept by the booking alone: a retry gets it (replayed), the key with another request is a 422, and nothing goes to request_keys"
    )
    func idempotent_booking_through_its_events() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let membro = try #require(try await client.json(.get, "/api/auth/me", token: cenario.membro).object["id"] as? String)
            let key: HTTPField.Name = .init("Idempotency-Key")!
            let body = pedido(cenario.estacoes, "2026-11-27T14:00:00-03:00", "2026-11-27T16:00:00-03:00")
            let first = try await client.json(.post, "/api/reservas", body, token: cenario.membro, headers: [key: "r-1"])
            #expect(first.status == .created, "\(String(buffer: first.body))")
            #expect(first.headers[.init("Idempotent-Replayed")!] == nil)
            let id = try #require(first.object["id"] as? String)
            // No answer kept apart: the booking, made under an id derived from the key, is the record.
            #expect(try await harness.store.purgeRequestKeys(before: .distantFuture) == 0)
            // The answer never reached the member: the retry finds the booking, as it stands.
            let retry = try await client.json(.post, "/api/reservas", body, token: cenario.membro, headers: [key: "r-1"])
            #expect(retry.status == .created, "\(String(buffer: retry.body))")
            #expect(retry.object["id"] as? String == id)
            #expect(retry.headers[.init("Idempotent-Replayed")!] == "true")
            // The key with another slot, or with the same slot and another body (a coupon, a
            // card): refused, nothing written.
            for other in [
                pedido(cenario.estacoes, "2026-11-27T17:00:00-03:00", "2026-11-27T18:00:00-03:00"),
                pedido(cenario.estacoes, "2026-11-27T14:00:00-03:00", "2026-11-27T16:00:00-03:00", cartao: "tok_visa"),
            ] {
                let refused = try await client.json(.post, "/api/reservas", other, token: cenario.membro, headers: [key: "r-1"])
                #expect(refused.status == .unprocessableContent, "\(other)")
                #expect(refused.erro == "chave_de_idempotencia_reutilizada")
            }
            // Ten at once with one key, on the room (one seat): one booking, and every request
            // answers it (none is told its own slot is taken, nor to wait), nine as replayed.
            let sala = pedido(cenario.sala, "2026-11-27T09:00:00-03:00", "2026-11-27T10:00:00-03:00")
            let token = cenario.membro
            let answers = try await withThrowingTaskGroup(of: (Int, String?, Bool).self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        let answer = try await client.json(.post, "/api/reservas", sala, token: token, headers: [key: "r-2"])
                        return (Int(answer.status.code), answer.object["id"] as? String, answer.headers[.init("Idempotent-Replayed")!] == "true")
                    }
                }
                return try await group.reduce(into: [(Int, String?, Bool)]()) { $0.append($1) }
            }
            #expect(answers.allSatisfy { $0.0 == 201 }, "\(answers)")
            #expect(Set(answers.compactMap(\.1)).count == 1)
            #expect(answers.filter(\.2).count == 9)
            // A booking made with a key by a release before this one (no fingerprint in its
            // events): a retry answers it; the key with another slot is a 422.
            let antigo = pedido(cenario.estacoes, "2026-11-28T14:00:00-03:00", "2026-11-28T15:00:00-03:00")
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            let feita = try await harness.backend.reservas.solicitar(
                try decoder.decode(ReservasService.PedidoDeReserva.self, from: Data(antigo.utf8)), usuario: membro,
                caller: Caller(requestId: "legado", usuario: membro, papel: "membro", idempotencyKey: "\(membro)|legado-1"))
            // Asked again with the key, the command says it replayed, and hands the edge what the
            // first append wrote (the booking and the day's hold it took in the same transaction),
            // so that the member's next query waits for those read models as after the first answer.
            let recibo = WriteReceipt()
            let denovo = try await harness.backend.reservas.solicitar(
                try decoder.decode(ReservasService.PedidoDeReserva.self, from: Data(antigo.utf8)), usuario: membro,
                caller: Caller(requestId: "legado-2", usuario: membro, papel: "membro", idempotencyKey: "\(membro)|legado-1", receipt: recibo))
            #expect(denovo.id == feita.id && recibo.replayed)
            #expect(Set(recibo.types.keys) == [Reserva.Catalogo.solicitada.type, Agenda.Catalogo.ocupada.type], "\(recibo.types)")
            let replay = try await client.json(.post, "/api/reservas", antigo, token: cenario.membro, headers: [key: "legado-1"])
            #expect(replay.status == .created && replay.object["id"] as? String == feita.id, "\(String(buffer: replay.body))")
            #expect(replay.headers[.init("Idempotent-Replayed")!] == "true")
            let outro = try await client.json(
                .post, "/api/reservas", pedido(cenario.estacoes, "2026-11-28T16:00:00-03:00", "2026-11-28T17:00:00-03:00"),
                token: cenario.membro, headers: [key: "legado-1"])
            #expect(outro.status == .unprocessableContent && outro.erro == "chave_de_idempotencia_reutilizada")
            // One hold on the shared space's day, one booking each, one charge each.
            let minhas = try await client.json(.get, "/api/reservas", token: cenario.membro)
            #expect(minhas.object["total"] as? Int == 3)
            let ocupacao = try await harness.store.document(
                ReservasReadModel.ocupacao,
                key: ReservasReadModel.ocupacaoKey(try #require(UUID(uuidString: cenario.estacoes)), try #require(DataLocal("2026-11-27"))))
            #expect(try ReadModelJSON.decoder.decode(OcupacaoView.self, from: try #require(ocupacao)).reservas.count == 1)
            #expect(try await harness.store.purgeRequestKeys(before: .distantFuture) == 0)
        }
        #expect(try await harness.allEvents().filter { $0.type == "ReservaSolicitada" }.count == 3)
    }

    @Test("a shared space's capacity cannot drop below the seats its bookings take at once (409 naming the day); once freed, it can")
    func capacity_below_bookings() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            var ids: [String] = []
            for (inicio, fim) in [("09:00", "11:00"), ("10:00", "12:00"), ("10:30", "11:30")] {
                let r = try await client.json(
                    .post, "/api/reservas", pedido(cenario.estacoes, "2026-11-26T\(inicio):00-03:00", "2026-11-26T\(fim):00-03:00"),
                    token: cenario.membro)
                ids.append(try #require(r.object["id"] as? String, "\(String(buffer: r.body))"))
            }
            let reduzir = try await client.json(.patch, "/api/admin/espacos/\(cenario.estacoes)", #"{"capacidade":2}"#, token: cenario.admin)
            #expect(reduzir.status == .conflict && reduzir.erro == "capacidade_abaixo_das_reservas", "\(String(buffer: reduzir.body))")
            #expect((reduzir.object["detalhes"] as? [String: Any])?["dias"] as? String == "2026-11-26")
            #expect(
                try await client.json(.get, "/api/espacos/\(cenario.estacoes)").object["espaco"].flatMap {
                    ($0 as? [String: Any])?["capacidade"] as? Int
                } == 3)
            #expect(try await client.json(.patch, "/api/admin/espacos/\(cenario.estacoes)", #"{"capacidade":5}"#, token: cenario.admin).status == .ok)
            #expect(try await client.json(.post, "/api/reservas/\(ids[2])/cancelamento", "{}", token: cenario.membro).status == .ok)
            let agora = try await client.json(.patch, "/api/admin/espacos/\(cenario.estacoes)", #"{"capacidade":2}"#, token: cenario.admin)
            #expect(agora.status == .ok, "\(String(buffer: agora.body))")
            // Bookings that already ended today hold no seat: at 12:30 on the 26th, one seat is enough.
            harness.clock.set(try Date("2026-11-26T12:30:00-03:00", strategy: .iso8601))
            #expect(try await client.json(.patch, "/api/admin/espacos/\(cenario.estacoes)", #"{"capacidade":1}"#, token: cenario.admin).status == .ok)
        }
    }

    @Test("a day booked under a longer lead time still holds its seats when the capacity falls; a raise is never refused")
    func capacity_beyond_the_lead_time() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            for _ in 0..<2 {
                let r = try await client.json(
                    .post, "/api/reservas", pedido(cenario.estacoes, "2027-02-10T10:00:00-03:00", "2027-02-10T12:00:00-03:00"), token: cenario.membro)
                #expect(r.status == .created, "\(String(buffer: r.body))")
            }
            let regras =
                #"{"regras":{"duracaoMinimaMinutos":30,"duracaoMaximaMinutos":600,"antecedenciaMinimaMinutos":10,"antecedenciaMaximaDias":10}}"#
            #expect(try await client.json(.patch, "/api/admin/espacos/\(cenario.estacoes)", regras, token: cenario.admin).status == .ok)
            let reduzir = try await client.json(.patch, "/api/admin/espacos/\(cenario.estacoes)", #"{"capacidade":1}"#, token: cenario.admin)
            #expect(reduzir.status == .conflict && reduzir.erro == "capacidade_abaixo_das_reservas", "\(String(buffer: reduzir.body))")
            #expect((reduzir.object["detalhes"] as? [String: Any])?["dias"] as? String == "2027-02-10")
            #expect(try await client.json(.patch, "/api/admin/espacos/\(cenario.estacoes)", #"{"capacidade":2}"#, token: cenario.admin).status == .ok)
            #expect(try await client.json(.patch, "/api/admin/espacos/\(cenario.estacoes)", #"{"capacidade":4}"#, token: cenario.admin).status == .ok)
        }
    }

    @Test("a member on a plan gets the plan's discount in quotes and bookings; others, anonymous quotes and members taken off the plan do not")
    func plan_discount() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let regra = try await client.json(
                .post, "/api/admin/espacos/\(cenario.sala)/precos/regras", #"{"tipo":"plano","plano":"Mensal","descontoBP":2000}"#,
                token: cenario.admin)
            #expect(regra.status == .created, "\(String(buffer: regra.body))")
            let membro = try #require(try await client.json(.get, "/api/auth/me", token: cenario.membro).object["id"] as? String)
            func cotar(_ token: String?) async throws -> Int? {
                try await client.json(
                    .post, "/api/precos/cotacao", pedido(cenario.sala, "2026-11-25T10:00:00-03:00", "2026-11-25T12:00:00-03:00"), token: token
                )
                .object["total"] as? Int
            }
            #expect(try await cotar(cenario.membro) == 10_000)  // 2 h × R$ 50, no plan yet

            let definido = try await client.json(.put, "/api/admin/usuarios/\(membro)/plano", #"{"plano":" mensal "}"#, token: cenario.admin)
            #expect(definido.status == .ok && definido.object["plano"] as? String == "mensal", "\(String(buffer: definido.body))")
            #expect(try await client.json(.get, "/api/auth/me", token: cenario.membro).object["plano"] as? String == "mensal")
            #expect(try await cotar(cenario.membro) == 8_000)
            #expect(try await cotar(nil) == 10_000)  // anonymous: no plan
            let reserva = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-25T10:00:00-03:00", "2026-11-25T12:00:00-03:00"), token: cenario.membro)
            #expect(reserva.status == .created && reserva.object["total"] as? Int == 8_000, "\(String(buffer: reserva.body))")
            #expect((reserva.object["linhas"] as? [[String: Any]])?.contains { $0["codigo"] as? String == "plano" } == true)

            // Bad input changes nothing; null takes the member off the plan.
            for corpo in [#"{"plano":""}"#, #"{"plano":"\#(String(repeating: "p", count: 101))"}"#, "{}"] {
                let recusado = try await client.json(.put, "/api/admin/usuarios/\(membro)/plano", corpo, token: cenario.admin)
                #expect(recusado.status == .unprocessableContent, "\(corpo): \(String(buffer: recusado.body))")
            }
            #expect(
                try await client.json(.put, "/api/admin/usuarios/\(UUID())/plano", #"{"plano":"Mensal"}"#, token: cenario.admin).status == .notFound)
            #expect(
                try await client.json(.put, "/api/admin/usuarios/\(membro)/plano", #"{"plano":"Mensal"}"#, token: cenario.membro).status == .forbidden
            )
            #expect(try await cotar(cenario.membro) == 8_000)
            let fora = try await client.json(.put, "/api/admin/usuarios/\(membro)/plano", #"{"plano":null}"#, token: cenario.admin)
            #expect(fora.status == .ok && fora.object["plano"] == nil)
            #expect(try await cotar(cenario.membro) == 10_000)
            #expect(try await harness.allEvents().filter { $0.type == "PlanoDefinido" }.count == 2)
        }
    }

    @Test("a booking made with the total its quote showed is refused (409 preco_alterado, nothing held or charged) once the price changed")
    func a_price_change_between_quote_and_booking_is_not_charged_silently() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let (inicio, fim) = ("2026-11-25T10:00:00-03:00", "2026-11-25T12:00:00-03:00")
            let cotacao = try await client.json(.post, "/api/precos/cotacao", pedido(cenario.sala, inicio, fim))
            let mostrado = try #require(cotacao.object["total"] as? Int)
            #expect(mostrado == 10_000)
            func reservar(_ total: Int) async throws -> TestResponse {
                try await client.json(
                    .post, "/api/reservas",
                    #"{"espacoId":"\#(cenario.sala)","inicio":"\#(inicio)","fim":"\#(fim)","totalEsperado":\#(total),"pagamento":{"metodo":"cartao","cartaoToken":"tok_ok"}}"#,
                    token: cenario.membro)
            }
            // The operator raises the price meanwhile.
            #expect(
                try await client.json(
                    .put, "/api/admin/espacos/\(cenario.sala)/precos",
                    #"{"porHora":6500,"meioPeriodo":24000,"diaria":40000,"duracaoMinimaMinutos":30}"#, token: cenario.admin
                ).status == .ok)
            let recusada = try await reservar(mostrado)
            #expect(recusada.status == .conflict && recusada.erro == "preco_alterado", "\(String(buffer: recusada.body))")
            #expect((recusada.object["detalhes"] as? [String: Any])?["total"] as? String == "13000")
            #expect(try await harness.allEvents().filter { $0.type == "ReservaSolicitada" }.isEmpty, "nothing held, nothing to charge")
            #expect(try await reservar(-1).status == .unprocessableContent)
            // With the new total it books.
            let feita = try await reservar(13_000)
            #expect(feita.status == .created && feita.object["total"] as? Int == 13_000, "\(String(buffer: feita.body))")
        }
    }

    @Test("a coupon that takes nothing off (the plan made the booking free) is not spent: its one use stays")
    func a_coupon_that_discounts_nothing_is_not_spent() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            _ = try await client.json(
                .post, "/api/admin/espacos/\(cenario.sala)/precos/regras", #"{"tipo":"plano","plano":"Total","descontoBP":10000}"#,
                token: cenario.admin)
            let membro = try #require(try await client.json(.get, "/api/auth/me", token: cenario.membro).object["id"] as? String)
            #expect(try await client.json(.put, "/api/admin/usuarios/\(membro)/plano", #"{"plano":"Total"}"#, token: cenario.admin).status == .ok)
            let cupom = try await client.json(
                .post, "/api/admin/cupons",
                #"{"codigo":"vip","desconto":{"tipo":"percentual","bp":1000},"validoDe":"2026-11-01T00:00:00Z","validoAte":"2026-12-01T00:00:00Z","maxUsos":1}"#,
                token: cenario.admin)
            #expect(cupom.status == .created, "\(String(buffer: cupom.body))")
            let reserva = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-25T10:00:00-03:00", "2026-11-25T12:00:00-03:00", cupom: "VIP"),
                token: cenario.membro)
            #expect(reserva.status == .created && reserva.object["total"] as? Int == 0, "\(String(buffer: reserva.body))")
            #expect((reserva.object["linhas"] as? [[String: Any]])?.contains { ($0["codigo"] as? String)?.hasPrefix("cupom") == true } == false)
            #expect(try await harness.allEvents().filter { $0.type == "CupomUsado" }.isEmpty, "the use stays for a booking it discounts")
            // Off the plan, the same coupon discounts the next booking, and is spent.
            _ = try await client.json(.put, "/api/admin/usuarios/\(membro)/plano", #"{"plano":null}"#, token: cenario.admin)
            let outra = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-26T10:00:00-03:00", "2026-11-26T12:00:00-03:00", cupom: "VIP"),
                token: cenario.membro)
            #expect(outra.status == .created && outra.object["total"] as? Int == 9_000, "\(String(buffer: outra.body))")
            #expect(try await harness.allEvents().filter { $0.type == "CupomUsado" }.count == 1)
        }
    }

    @Test("a POST body with a field its schema does not have is a 422 naming it (with the likely intended one) and changes nothing")
    func unknown_fields_are_refused() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let typo = try await client.json(
                .post, "/api/reservas",
                #"{"espacoId":"\#(cenario.sala)","inicio":"2026-11-25T10:00:00-03:00","fim":"2026-11-25T11:00:00-03:00","cupon":"BEMVINDO"}"#,
                token: cenario.membro)
            #expect(typo.status == .unprocessableContent && typo.erro == "dados_invalidos", "\(String(buffer: typo.body))")
            #expect((typo.object["detalhes"] as? [String: Any])?["campo"] as? String == "cupon")
            #expect((typo.object["mensagem"] as? String)?.contains("'cupom'") == true, "\(String(buffer: typo.body))")
            #expect(
                try await client.json(
                    .post, "/api/precos/cotacao",
                    #"{"espacoId":"\#(cenario.sala)","inicio":"2026-11-25T10:00:00-03:00","fim":"2026-11-25T11:00:00-03:00","cupon":"X"}"#
                ).status
                    == .unprocessableContent)
            let unidade = try await client.json(
                .post, "/api/admin/unidades",
                #"""
                {"nome":"Lisboa","endereco":{"logradouro":"R","numero":"1","cidade":"Lisboa","uf":"LX","cep":"1000"},"fuso":"Europe/Lisbon"}
                """#, token: cenario.admin)
            #expect(
                unidade.status == .unprocessableContent && (unidade.object["detalhes"] as? [String: Any])?["campo"] as? String == "fuso",
                "\(String(buffer: unidade.body))")
            let dia = try await client.json(
                .put, "/api/admin/espacos/\(cenario.sala)/horario", #"{"segundaFeira":[{"abre":480,"fecha":1200}]}"#, token: cenario.admin)
            #expect(dia.status == .unprocessableContent && (dia.object["detalhes"] as? [String: Any])?["campo"] as? String == "segundaFeira")
            // Opening hours that break a rule: a 422 that names the day and the rule, on both routes.
            for (corpo, trecho) in [
                (#"{"segunda":[{"abre":600,"fecha":500}]}"#, "segunda: a faixa {abre 600, fecha 500}"),
                (#"{"terca":[{"abre":480,"fecha":720},{"abre":700,"fecha":900}]}"#, "terca: duas faixas se sobrepõem"),
                (#"{"quarta":[{"abre":0,"fecha":1441}]}"#, "0 ≤ abre < fecha ≤ 1440"),
            ] {
                let horario = try await client.json(.put, "/api/admin/espacos/\(cenario.sala)/horario", corpo, token: cenario.admin)
                #expect(
                    horario.status == .unprocessableContent && (horario.object["mensagem"] as? String)?.contains(trecho) == true,
                    "\(String(buffer: horario.body))")
            }
            let novo = try await client.json(
                .post, "/api/admin/espacos",
                """
                {"unidadeId":"\(cenario.unidade)","nome":"Nova","tipo":"sala_reuniao","capacidade":4,"horario":{"domingo":[{"abre":600,"fecha":500}]}}
                """, token: cenario.admin)
            #expect(
                novo.status == .unprocessableContent && (novo.object["detalhes"] as? [String: Any])?["campo"] as? String == "horario"
                    && (novo.object["mensagem"] as? String)?.contains("domingo") == true, "\(String(buffer: novo.body))")
            let tipos = try await harness.allEvents().map(\.type)
            #expect(tipos.filter { $0 == "ReservaSolicitada" || $0 == "UnidadeCadastrada" }.count == 1)  // the scenario's unit only
        }
    }

    @Test("a query parameter the route does not take is a 400 naming it (and what it takes), on queries and commands, and changes nothing")
    func unknown_query_parameters_are_refused() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            // `dta` for `data`: answered as today's availability, it would say the wrong day is free.
            let typo = try await client.json(.get, "/api/espacos/\(cenario.sala)/disponibilidade?dta=2026-11-27")
            #expect(typo.status == .badRequest && typo.erro == "parametro_desconhecido", "\(String(buffer: typo.body))")
            #expect((typo.object["detalhes"] as? [String: Any])?["campo"] as? String == "dta")
            #expect((typo.object["mensagem"] as? String)?.contains("'data'") == true, "\(String(buffer: typo.body))")
            #expect(try await client.json(.get, "/api/espacos/\(cenario.sala)/disponibilidade?data=2026-11-27").status == .ok)
            let lista = try await client.json(.get, "/api/reservas?pagina=1&statsu=confirmada", token: cenario.membro)
            #expect(lista.status == .badRequest && (lista.object["detalhes"] as? [String: Any])?["campo"] as? String == "statsu")
            // A command: refused before it runs.
            let reserva = try await client.json(
                .post, "/api/reservas?confirmar=true", pedido(cenario.sala, "2026-11-25T10:00:00-03:00", "2026-11-25T11:00:00-03:00"),
                token: cenario.membro)
            #expect(reserva.status == .badRequest && reserva.erro == "parametro_desconhecido", "\(String(buffer: reserva.body))")
            #expect((reserva.object["mensagem"] as? String)?.contains("não aceita parâmetros") == true, "\(String(buffer: reserva.body))")
            #expect(try await harness.allEvents().filter { $0.type == "ReservaSolicitada" }.isEmpty)
            // A name is named as it was sent (percent-encoded): a line break in it is not echoed back.
            let controle = try await client.json(.get, "/api/espacos?x%0Ay=1")
            #expect(
                controle.status == .badRequest && (controle.object["detalhes"] as? [String: Any])?["campo"] as? String == "x%0Ay",
                "\(String(buffer: controle.body))")
        }
    }

    @Test("a block over time a booking holds is refused (409, naming the bookings) and changes nothing; elsewhere, or once cancelled, it is placed")
    func block_over_bookings() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let reserva = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-26T18:00:00-03:00", "2026-11-26T21:00:00-03:00"), token: cenario.membro)
            let id = try #require(reserva.object["id"] as? String, "\(String(buffer: reserva.body))")
            func bloquear(_ inicio: String, _ fim: String) async throws -> TestResponse {
                try await client.json(
                    .post, "/api/admin/espacos/\(cenario.sala)/bloqueios",
                    #"{"inicio":"\#(inicio)","fim":"\#(fim)","motivo":"manutencao"}"#, token: cenario.admin)
            }
            // A block over the booking's last half hour (and on into the next day).
            let refused = try await bloquear("2026-11-26T20:30:00-03:00", "2026-11-27T08:00:00-03:00")
            #expect(refused.status == .conflict)
            #expect(refused.erro == "bloqueio_sobre_reservas")
            #expect((refused.object["detalhes"] as? [String: Any])?["reservas"] as? String == id)
            #expect(try await harness.allEvents().contains { $0.type == "BloqueioAgendado" } == false)
            // Right after the booking ends: fine.
            let placed = try await bloquear("2026-11-26T21:00:00-03:00", "2026-11-27T08:00:00-03:00")
            #expect(placed.status == .created)
            // Ids in lower case, like every other id the API shows.
            let ids = (placed.object["bloqueios"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
            #expect(ids.count == 1 && ids.allSatisfy { $0 == $0.lowercased() }, "\(ids)")
            let regra = try await client.json(
                .post, "/api/admin/espacos/\(cenario.sala)/precos/regras", #"{"tipo":"fim_de_semana","multiplicadorBP":12000}"#, token: cenario.admin)
            let regraId = try #require(regra.object["id"] as? String, "\(String(buffer: regra.body))")
            #expect(regraId == regraId.lowercased())
            #expect(try await client.json(.post, "/api/reservas/\(id)/cancelamento", "{}", token: cenario.membro).status == .ok)
            #expect(try await bloquear("2026-11-26T17:00:00-03:00", "2026-11-26T21:00:00-03:00").status == .created)
            // At most a year (longer is a deactivation), which also bounds the agenda days read.
            let seculos = try await bloquear("1970-01-01T00:00:00Z", "9999-12-31T00:00:00Z")
            #expect(seculos.status == .unprocessableContent)
            #expect((seculos.object["detalhes"] as? [String: Any])?["campo"] as? String == "fim")
        }
    }

    @Test("an unpaid hold expires and frees its slot, also after a restart; a paid one stays")
    func holds_expire_across_restarts() async throws {
        let clock = ManualClock(segundaDeManha)
        let first = try await Harness.make(clock: clock)
        defer { first.removeFiles() }
        let saved = Mutex<(cenario: Cenario?, paid: String, unpaid: String)>((nil, "", ""))
        try await first.test { client in
            let made = try await Cenario.make(first, client)
            let unpaid = try #require(
                try await client.json(
                    .post, "/api/reservas", pedido(made.sala, "2026-11-25T10:00:00-03:00", "2026-11-25T11:00:00-03:00"), token: made.membro
                ).object["id"] as? String)
            let paid = try #require(
                try await client.json(
                    .post, "/api/reservas", pedido(made.sala, "2026-11-25T11:00:00-03:00", "2026-11-25T12:00:00-03:00"), token: made.membro
                ).object["id"] as? String)
            saved.withLock { $0 = (made, paid, unpaid) }
            // Only the booking's own payment (its id is the booking's).
            let alheio = try await client.json(.post, "/api/admin/reservas/\(paid)/confirmacao", #"{"pagamentoId":"\#(unpaid)"}"#, token: made.admin)
            #expect(alheio.status == .unprocessableContent && (alheio.object["detalhes"] as? [String: Any])?["campo"] as? String == "pagamentoId")
            let confirmed = try await client.json(
                .post, "/api/admin/reservas/\(paid)/confirmacao", #"{"pagamentoId":"\#(paid.uppercased())"}"#, token: made.admin)
            #expect(confirmed.object["status"] as? String == "confirmada")
            clock.advance(by: 14 * 60)
            #expect(try await first.backend.reservas.executarPrazosVencidos() == 0)
        }
        // A new process over the same file: the timers were stored, not slept on.
        clock.advance(by: 60)
        let second = try await Harness.make(path: first.path, clock: clock)
        let (cenario, paid, unpaid) = saved.withLock { $0 }
        let made = try #require(cenario)
        try await second.test { client in
            await second.backend.settle()  // the new process's projections catch up with the file
            #expect(try await second.backend.reservas.executarPrazosVencidos() == 1)
            await second.backend.settle()
            #expect(try await client.json(.get, "/api/reservas/\(unpaid)", token: made.membro).object["status"] as? String == "expirada")
            #expect(try await client.json(.get, "/api/reservas/\(paid)", token: made.membro).object["status"] as? String == "confirmada")
            let again = try await client.json(
                .post, "/api/reservas", pedido(made.sala, "2026-11-25T10:00:00-03:00", "2026-11-25T11:00:00-03:00"), token: made.membro)
            #expect(again.status == .created)
            let late = try await client.json(.post, "/api/admin/reservas/\(unpaid)/confirmacao", "{}", token: made.admin)
            #expect(late.status == .conflict)
        }
    }

    @Test("a timer that keeps failing does not hold up the timers behind it")
    func a_failing_timer_does_not_block_the_rest() async throws {
        let clock = ManualClock(segundaDeManha)
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let estragada = try #require(
                try await client.json(
                    .post, "/api/reservas", pedido(cenario.sala, "2026-11-25T10:00:00-03:00", "2026-11-25T11:00:00-03:00"), token: cenario.membro
                ).object["id"] as? String)
            clock.advance(by: 60)
            let boa = try #require(
                try await client.json(
                    .post, "/api/reservas", pedido(cenario.sala, "2026-11-25T11:00:00-03:00", "2026-11-25T12:00:00-03:00"), token: cenario.membro
                ).object["id"] as? String)
            // The first booking's stream now holds an event it cannot read: its timer fails every time.
            try await harness.store.append(
                to: StreamName(category: "reserva", id: estragada), expected: .any,
                events: [NewEvent(eventId: UUID(), type: "ReservaConfirmada", data: Data(#"{"inesperado":true}"#.utf8), occurredAt: segundaDeManha)])
            clock.advance(by: 15 * 60)
            await #expect(throws: (any Error).self) { try await harness.backend.reservas.executarPrazosVencidos() }
            let expiradas = try await harness.allEvents().filter { $0.type == "ReservaExpirada" }.map(\.stream)
            #expect(expiradas == [StreamName(category: "reserva", id: boa)])
        }
    }

    @Test("a unit or space created again with the same Idempotency-Key (a retry after an unknown outcome) is the same one, not a second")
    func creations_with_a_key_are_made_once() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            let unidade = try decoder.decode(
                EspacosService.NovaUnidade.self,
                from: Data(
                    #"""
                    {"nome":"Centro","endereco":{"logradouro":"Rua A","numero":"1","cidade":"São Paulo","uf":"SP","cep":"01000-000"}}
                    """#.utf8))
            let caller = Caller(requestId: "retry", usuario: "admin", papel: "admin", idempotencyKey: "admin|unidade-1")
            let primeira = try await harness.backend.espacos.cadastrarUnidade(unidade, caller: caller)
            let segunda = try await harness.backend.espacos.cadastrarUnidade(unidade, caller: caller)
            #expect(primeira.id == segunda.id)
            let outra = try await harness.backend.espacos.cadastrarUnidade(unidade, caller: Caller(requestId: "x", idempotencyKey: "admin|unidade-2"))
            #expect(outra.id != primeira.id)

            let espaco = try decoder.decode(
                EspacosService.NovoEspaco.self,
                from: Data(#"{"unidadeId":"\#(cenario.unidade)","nome":"Sala Nova","tipo":"sala_reuniao","capacidade":4}"#.utf8))
            let chave = Caller(requestId: "retry", idempotencyKey: "admin|espaco-1")
            let a = try await harness.backend.espacos.cadastrarEspaco(espaco, caller: chave)
            let b = try await harness.backend.espacos.cadastrarEspaco(espaco, caller: chave)
            #expect(a.id == b.id)
            let cadastrados = try await harness.allEvents().filter { $0.type == "EspacoCadastrado" && $0.stream.rawValue.hasSuffix(a.id) }
            #expect(cadastrados.count == 1)

            // The key reused for another unit or space (once the gateway forgot its answer) is
            // refused; it neither answers the first one nor changes it.
            let outraUnidade = try decoder.decode(
                EspacosService.NovaUnidade.self,
                from: Data(
                    #"""
                    {"nome":"Norte","endereco":{"logradouro":"Rua B","numero":"2","cidade":"São Paulo","uf":"SP","cep":"02000-000"}}
                    """#.utf8))
            await #expect(throws: EspacosService.chaveReutilizada) {
                try await harness.backend.espacos.cadastrarUnidade(outraUnidade, caller: caller)
            }
            let auditorio = try decoder.decode(
                EspacosService.NovoEspaco.self,
                from: Data(
                    #"""
                    {"unidadeId":"\#(cenario.unidade)","nome":"Auditório","tipo":"auditorio","capacidade":80,
                     "horario":{"segunda":[{"abre":360,"fecha":420}]}}
                    """#.utf8))
            let antes = try await harness.allEvents().count
            await #expect(throws: EspacosService.chaveReutilizada) {
                try await harness.backend.espacos.cadastrarEspaco(auditorio, caller: chave)
            }
            #expect(try await harness.allEvents().count == antes, "Sala Nova's hours untouched")
            // The same request again after the space changed: answered as it is now, not redone.
            _ = try await harness.backend.espacos.atualizarEspaco(
                a.id,
                try decoder.decode(
                    EspacosService.AlteracaoDeEspaco.self, from: Data(#"{"nome":"Sala Nova 2"}"#.utf8)), caller: Caller(requestId: "y"))
            let depois = try await harness.backend.espacos.cadastrarEspaco(espaco, caller: chave)
            #expect(depois.id == a.id && depois.nome == "Sala Nova 2")
        }
    }

    @Test("cancelling follows the unit's policy: free with notice, a fee when late; the slot and the coupon use come back")
    func cancellation_policy_and_coupons() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let cupom = try await client.json(
                .post, "/api/admin/cupons",
                #"{"codigo":"bemvindo","desconto":{"tipo":"percentual","bp":1000},"validoDe":"2026-11-01T00:00:00Z","validoAte":"2026-12-01T00:00:00Z","maxUsos":1}"#,
                token: cenario.admin)
            #expect(cupom.status == .created, "\(String(buffer: cupom.body))")
            #expect(cupom.object["codigo"] as? String == "BEMVINDO")

            let early = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-25T10:00:00-03:00", "2026-11-25T12:00:00-03:00", cupom: "BemVindo"),
                token: cenario.membro)
            #expect(early.status == .created)
            #expect(early.object["total"] as? Int == 9_000)  // 2 h × R$ 50 − 10 %
            let earlyId = try #require(early.object["id"] as? String)
            let exhausted = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-25T14:00:00-03:00", "2026-11-25T15:00:00-03:00", cupom: "BEMVINDO"),
                token: cenario.membro)
            #expect(exhausted.status == .unprocessableContent)
            #expect((exhausted.object["mensagem"] as? String)?.contains("máximo") == true)

            // The table changes; the accepted price does not.
            let tabela = try await client.json(
                .put, "/api/admin/espacos/\(cenario.sala)/precos", #"{"porHora":9900,"meioPeriodo":30000,"diaria":50000,"duracaoMinimaMinutos":30}"#,
                token: cenario.admin)
            #expect(tabela.status == .ok)
            #expect(tabela.object["espacoId"] as? String == cenario.sala.lowercased())
            #expect(try await client.pagar(earlyId, token: cenario.membro)["total"] as? Int == 9_000)

            let longo = try await client.json(
                .post, "/api/reservas/\(earlyId)/cancelamento", #"{"motivo":"\#(String(repeating: "x", count: 501))"}"#, token: cenario.membro)
            #expect(longo.status == .unprocessableContent && (longo.object["detalhes"] as? [String: Any])?["campo"] as? String == "motivo")
            let cancelled = try await client.json(
                .post, "/api/reservas/\(earlyId)/cancelamento", #"{"motivo":"mudança de planos"}"#, token: cenario.membro)
            #expect(cancelled.status == .ok, "\(String(buffer: cancelled.body))")
            let policy = try #require(cancelled.object["cancelamento"] as? [String: Any])
            #expect(policy["multa"] as? Int == 0 && policy["reembolso"] as? Int == 9_000)
            #expect(try await client.json(.post, "/api/reservas/\(earlyId)/cancelamento", "{}", token: cenario.membro).status == .conflict)
            // The coupon's use came back with the cancellation.
            let reused = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-25T10:00:00-03:00", "2026-11-25T11:00:00-03:00", cupom: "BEMVINDO"),
                token: cenario.membro)
            #expect(reused.status == .created, "\(String(buffer: reused.body))")

            let late = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-23T20:00:00-03:00", "2026-11-23T22:00:00-03:00"), token: cenario.membro)
            let lateId = try #require(late.object["id"] as? String)
            #expect((late.object["politicaDeCancelamento"] as? [String: Any])?["multaBP"] as? Int == 5_000, "\(String(buffer: late.body))")
            _ = try await client.pagar(lateId, token: cenario.membro)
            // The unit's policy hardens after the booking: the booking keeps the terms it was made under.
            let harder = try await client.json(
                .patch, "/api/admin/unidades/\(cenario.unidade)", #"{"politicaDeCancelamento":{"horasSemMulta":48,"multaBP":10000}}"#,
                token: cenario.admin)
            #expect(harder.status == .ok, "\(String(buffer: harder.body))")
            let lateCancel = try await client.json(.post, "/api/reservas/\(lateId)/cancelamento", token: cenario.membro)
            let fee = try #require(lateCancel.object["cancelamento"] as? [String: Any])
            #expect(fee["multa"] as? Int == 9_900 && fee["reembolso"] as? Int == 9_900)  // 50 % of 2 h × R$ 99 inside 24 h
            let freed = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-23T20:00:00-03:00", "2026-11-23T22:00:00-03:00"), token: cenario.membro)
            #expect(freed.status == .created)

            // Someone else's booking cannot be cancelled by a member.
            #expect(try await client.register("bia@example.com").status == .created)
            let bia = try await client.token("bia@example.com")
            let freedId = try #require(freed.object["id"] as? String)
            #expect(try await client.json(.post, "/api/reservas/\(freedId)/cancelamento", token: bia).status == .notFound)
            // A member cannot choose to skip the fee.
            let escolha = try await client.json(.post, "/api/reservas/\(freedId)/cancelamento", #"{"aplicarMulta":false}"#, token: cenario.membro)
            #expect(escolha.status == .unprocessableContent && (escolha.object["detalhes"] as? [String: Any])?["campo"] as? String == "aplicarMulta")
            // The operator cancelling a member's late booking gives everything back; asked to, it
            // applies the unit's policy (the member phoned in late).
            _ = try await client.pagar(freedId, token: cenario.membro)
            let peloOperador = try await client.json(
                .post, "/api/reservas/\(freedId)/cancelamento", #"{"motivo":"manutenção"}"#, token: cenario.admin)
            let devolvido = try #require(peloOperador.object["cancelamento"] as? [String: Any], "\(String(buffer: peloOperador.body))")
            #expect(devolvido["multa"] as? Int == 0 && devolvido["reembolso"] as? Int == 19_800)
            let outra = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-23T20:00:00-03:00", "2026-11-23T22:00:00-03:00"), token: cenario.membro)
            let outraId = try #require(outra.object["id"] as? String)
            _ = try await client.pagar(outraId, token: cenario.membro)
            let aPedido = try await client.json(.post, "/api/reservas/\(outraId)/cancelamento", #"{"aplicarMulta":true}"#, token: cenario.admin)
            let comMulta = try #require(aPedido.object["cancelamento"] as? [String: Any], "\(String(buffer: aPedido.body))")
            #expect(comMulta["multa"] as? Int == 19_800 && comMulta["reembolso"] as? Int == 0)  // the new policy: 100 % inside 48 h
        }
        // A rebuild from the first event (as `coworkflow replay`) gives back the very same
        // documents, but the catalog's revision, which names the build that wrote it.
        for runner in harness.backend.projections {
            func snapshot() async throws -> [[Data]] {
                try await runner.projection.collections.filter { $0 != CatalogoReadModel.revisoes }
                    .asyncMap { try await harness.store.documents($0, grupo: nil, limit: 10_000, offset: 0) }
            }
            func revisao() async throws -> CatalogoReadModel.Revisao? {
                try await harness.store.document(CatalogoReadModel.revisoes, key: CatalogoReadModel.revisao)
                    .map { try ReadModelJSON.decoder.decode(CatalogoReadModel.Revisao.self, from: $0) }
            }
            let revisaoAntes = try await revisao()
            let before = try await snapshot()
            // This story has no payments: only the booking core's read models have documents.
            if ["catalogo", "reservas", "ocupacao", "usuarios"].contains(runner.projection.name) { #expect(before.contains { !$0.isEmpty }) }
            // While the live runner goes on following (it holds the projection's lease).
            let read = try await runner.rebuild()
            #expect(read > 0)
            #expect(try await snapshot() == before, "\(runner.projection.name) differs after a rebuild")
            if runner.projection.name == CatalogoReadModel.projection.name {
                let depois = try #require(try await revisao())
                #expect(depois.position == revisaoAntes?.position && revisaoAntes?.geracao == nil && depois.geracao != nil)
            }
        }
    }
}

extension Array {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }
}
