import Domain
import Foundation
import HTTPTypes
import HummingbirdTesting
import Services
import Testing

/// A dedicated desk or a private office let to a member or a company (`motivo` `locacao`): a
/// block with its holder. Nobody books it while let; the catalog does not say who holds it;
/// ending it early gives the days after back to bookings, the time before stays let.
@Suite("Leases of desks and private offices")
struct LeaseTests {
    @Test("an operator lets a private office to a company: checked, refused over bookings, unbookable while let, ended early to the hour")
    func operator_lets_a_private_office() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))  // Monday 23/11 08:00 in São Paulo
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let ana = try #require(try await client.json(.get, "/api/auth/me", token: cenario.membro).object["id"] as? String)
            let criada = try await client.json(.post, "/api/admin/empresas", EmpresasTests.corpo(gestor: ana), token: cenario.admin)
            let acme = try #require(criada.object["empresaId"] as? String, "\(String(buffer: criada.body))")
            let feito = try await client.json(
                .post, "/api/admin/espacos",
                #"{"unidadeId":"\#(cenario.unidade)","nome":"Sala 12","tipo":"sala_privativa","capacidade":4,"#
                    + #""regras":{"duracaoMinimaMinutos":30,"duracaoMaximaMinutos":600,"antecedenciaMinimaMinutos":10,"antecedenciaMaximaDias":90}}"#,
                token: cenario.admin)
            let sala12 = try #require(feito.object["id"] as? String, "\(String(buffer: feito.body))")
            let precos = try await client.json(
                .put, "/api/admin/espacos/\(sala12)/precos", #"{"porHora":4000,"meioPeriodo":15000,"diaria":25000,"duracaoMinimaMinutos":30}"#,
                token: cenario.admin)
            #expect(precos.status == .ok, "\(String(buffer: precos.body))")
            // Ana holds the office next Monday morning.
            let reserva = try await client.json(
                .post, "/api/reservas", pedido(sala12, "2026-11-30T10:00:00-03:00", "2026-11-30T12:00:00-03:00"), token: cenario.membro)
            let reservaId = try #require(reserva.object["id"] as? String, "\(String(buffer: reserva.body))")

            func locar(
                _ espaco: String, _ inicio: String, _ fim: String, motivo: String = "locacao", locatario: String? = #"{"empresaId":"ACME"}"#,
                token: String? = nil
            ) async throws -> TestResponse {
                let quem = locatario.map { #","locatario":\#($0.replacingOccurrences(of: "ACME", with: acme))"# } ?? ""
                return try await client.json(
                    .post, "/api/admin/espacos/\(espaco)/bloqueios",
                    #"{"inicio":"\#(inicio)","fim":"\#(fim)","motivo":"\#(motivo)","descricao":"Acme"\#(quem)}"#, token: token ?? cenario.admin)
            }
            func campo(_ resposta: TestResponse) -> String? { (resposta.object["detalhes"] as? [String: Any])?["campo"] as? String }
            func bloqueiosEscritos() async throws -> Int {
                try await harness.allEvents().filter { ["BloqueioAgendado", "AgendaBloqueada"].contains($0.type) }.count
            }
            let (dezembro, junho) = ("2026-12-01T00:00:00-03:00", "2027-06-01T00:00:00-03:00")

            // What is refused writes nothing.
            #expect(try await locar(sala12, dezembro, junho, token: cenario.membro).status == .forbidden)
            let semLocatario = try await locar(sala12, dezembro, junho, locatario: nil)
            #expect(semLocatario.status == .unprocessableContent && campo(semLocatario) == "locatario", "\(String(buffer: semLocatario.body))")
            let ambos = try await locar(sala12, dezembro, junho, locatario: #"{"empresaId":"ACME","usuarioId":"\#(ana)"}"#)
            #expect(ambos.status == .unprocessableContent && campo(ambos) == "locatario")
            let manutencao = try await locar(sala12, dezembro, junho, motivo: "manutencao")
            #expect(manutencao.status == .unprocessableContent && campo(manutencao) == "locatario")
            let ninguem = try await locar(sala12, dezembro, junho, locatario: #"{"usuarioId":"\#(UUID().uuidString)"}"#)
            #expect(ninguem.status == .unprocessableContent && campo(ninguem) == "locatario.usuarioId", "\(String(buffer: ninguem.body))")
            let reuniao = try await locar(cenario.sala, dezembro, junho)
            #expect(reuniao.status == .unprocessableContent && campo(reuniao) == "motivo", "\(String(buffer: reuniao.body))")
            let longa = try await locar(sala12, dezembro, "2027-12-05T00:00:00-03:00")
            #expect(longa.status == .unprocessableContent && campo(longa) == "fim")
            #expect((longa.object["mensagem"] as? String)?.contains("renová-la") == true)
            // Over Ana's booking: 409 naming it.
            let sobre = try await locar(sala12, "2026-11-30T00:00:00-03:00", junho)
            #expect(sobre.status == .conflict && sobre.erro == "bloqueio_sobre_reservas", "\(String(buffer: sobre.body))")
            #expect((sobre.object["detalhes"] as? [String: Any])?["reservas"] as? String == reservaId)
            #expect((sobre.object["mensagem"] as? String)?.hasSuffix("para a locação") == true)
            #expect(try await bloqueiosEscritos() == 0)

            // Let to Acme from December to May. The catalog shows the lease, not who holds it.
            let locada = try await locar(sala12, dezembro, junho)
            #expect(locada.status == .created, "\(String(buffer: locada.body))")
            let mostrado = try await eventually("the lease in the catalog") {
                let publico = try await client.json(.get, "/api/espacos/\(sala12)").object
                return ((publico["espaco"] as? [String: Any])?["bloqueios"] as? [[String: Any]])?.first
            }
            // Not its description either, which is the operator's note (here, the company's name).
            #expect(mostrado["motivo"] as? String == "locacao" && mostrado["locatario"] == nil && mostrado["descricao"] == nil, "\(mostrado)")
            #expect(String(buffer: locada.body).contains(acme) == false)
            let doOperador = try await client.json(.get, "/api/admin/espacos/\(sala12)/bloqueios", token: cenario.admin)
            let lease = try #require((doOperador.object["bloqueios"] as? [[String: Any]])?.first, "\(String(buffer: doOperador.body))")
            #expect((lease["locatario"] as? [String: Any])?["empresaId"] as? String == acme)
            let leaseId = try #require(lease["id"] as? String)
            #expect(try await client.json(.get, "/api/admin/espacos/\(sala12)/bloqueios", token: cenario.membro).status == .forbidden)

            // Nobody books it while let, and no time of it is free.
            let emDezembro = try await client.json(
                .post, "/api/reservas", pedido(sala12, "2026-12-02T10:00:00-03:00", "2026-12-02T11:00:00-03:00"), token: cenario.membro)
            #expect(emDezembro.status == .unprocessableContent, "\(String(buffer: emDezembro.body))")
            #expect((emDezembro.object["mensagem"] as? String)?.contains("locado") == true)
            let livres = try await client.json(.get, "/api/espacos/\(sala12)/disponibilidade?data=2026-12-02").object["livres"] as? [Any]
            #expect(livres?.isEmpty == true)

            // Acme leaves at noon on 31 December: that afternoon and January take bookings again;
            // the morning is still Acme's.
            func encurtar(_ fim: String) async throws -> TestResponse {
                try await client.json(
                    .patch, "/api/admin/espacos/\(sala12)/bloqueios/\(leaseId)", #"{"fim":"\#(fim)"}"#, token: cenario.admin)
            }
            #expect(try await encurtar("2026-11-01T00:00:00-03:00").status == .unprocessableContent)
            let depois = try await encurtar("2027-07-01T00:00:00-03:00")
            #expect(depois.status == .unprocessableContent && campo(depois) == "fim")
            #expect(try await encurtar("2026-12-31T12:00:00-03:00").status == .ok)
            // Sent again (a retry), it changes nothing.
            func doEspaco() async throws -> Int { try await harness.allEvents().filter { ["espaco", "agenda"].contains($0.stream.category) }.count }
            let antesDoReenvio = try await doEspaco()
            #expect(try await encurtar("2026-12-31T12:00:00-03:00").status == .ok)
            #expect(try await doEspaco() == antesDoReenvio)
            // A day after the new end is simply unblocked; the day it falls in keeps its morning.
            func agenda(_ dia: String) async throws -> [String] {
                try await harness.allEvents().filter { $0.stream.rawValue == "agenda-\(sala12)-\(dia)" }.map(\.type)
            }
            #expect(try await agenda("2027-01-02") == ["AgendaBloqueada", "AgendaDesbloqueada"])
            #expect(try await agenda("2026-12-31") == ["AgendaBloqueada", "AgendaDesbloqueada", "AgendaBloqueada"])
            func reservar(_ inicio: String, _ fim: String) async throws -> HTTPResponse.Status {
                try await client.json(.post, "/api/reservas", pedido(sala12, inicio, fim), token: cenario.membro).status
            }
            #expect(try await reservar("2026-12-31T10:00:00-03:00", "2026-12-31T11:00:00-03:00") == .unprocessableContent)
            #expect(try await reservar("2026-12-31T14:00:00-03:00", "2026-12-31T15:00:00-03:00") == .created)
            #expect(try await reservar("2027-01-04T10:00:00-03:00", "2027-01-04T11:00:00-03:00") == .created)
            let encurtada = try await client.json(.get, "/api/admin/espacos/\(sala12)/bloqueios", token: cenario.admin)
            let fim = ((encurtada.object["bloqueios"] as? [[String: Any]])?.first?["intervalo"] as? [String: Any])?["fim"] as? String
            #expect(fim.flatMap { ISO8601DateFormatter().date(from: $0) } == ISO8601DateFormatter().date(from: "2026-12-31T15:00:00Z"))

            // The desk is let to Ana herself from February.
            let paraAna = try await locar(sala12, "2027-02-01T00:00:00-03:00", "2027-03-01T00:00:00-03:00", locatario: #"{"usuarioId":"\#(ana)"}"#)
            #expect(paraAna.status == .created, "\(String(buffer: paraAna.body))")
            let todas = try await client.json(.get, "/api/admin/espacos/\(sala12)/bloqueios", token: cenario.admin).object["bloqueios"]
            #expect((todas as? [[String: Any]])?.compactMap { ($0["locatario"] as? [String: Any])?["usuarioId"] as? String } == [ana])

            // Ana reads hers and her company's; someone else reads none; signed out, 401.
            let delas = try await client.json(.get, "/api/locacoes", token: cenario.membro).object["locacoes"] as? [[String: Any]] ?? []
            #expect(delas.map { $0["espacoId"] as? String } == [sala12, sala12], "\(delas)")
            #expect(delas.map { $0["empresaId"] as? String } == [acme, nil], "\(delas)")
            #expect(delas.first?["espacoNome"] as? String == "Sala 12" && delas.first?["descricao"] as? String == "Acme")
            #expect(try await client.register("caio@example.com", nome: "Caio").status == .created)
            let caio = try await client.token("caio@example.com")
            #expect((try await client.json(.get, "/api/locacoes", token: caio).object["locacoes"] as? [Any])?.isEmpty == true)
            #expect(try await client.json(.get, "/api/locacoes").status == .unauthorized)
            // Her data export (LGPD) names the lease that is hers, not her company's.
            let resumo = try await client.json(.get, "/api/auth/me/dados", token: cenario.membro).object["resumo"] as? [String: Any]
            let exportadas = resumo?["locacoes"] as? [[String: Any]] ?? []
            #expect(exportadas.count == 1 && exportadas.first?["espaco"] as? String == "Sala 12", "\(exportadas)")
            #expect(exportadas.first?["periodo"] as? String == "01/02/2027 a 28/02/2027 (último dia)", "\(exportadas)")

            // Once begun, a lease is ended early, not erased; one still to come is cancelled whole.
            harness.clock.advance(by: 9 * 86_400)  // Wednesday 2 December
            let remover = try await client.json(.delete, "/api/admin/espacos/\(sala12)/bloqueios/\(leaseId)", token: cenario.admin)
            #expect(remover.status == .conflict && remover.erro == "locacao_iniciada", "\(String(buffer: remover.body))")
            let dela = try #require(
                (todas as? [[String: Any]])?.first { ($0["locatario"] as? [String: Any])?["usuarioId"] != nil }?["id"] as? String)
            #expect(try await client.json(.delete, "/api/admin/espacos/\(sala12)/bloqueios/\(dela)", token: cenario.admin).status == .ok)
            let restantes = try await client.json(.get, "/api/locacoes", token: cenario.membro).object["locacoes"] as? [[String: Any]] ?? []
            #expect(restantes.map { $0["empresaId"] as? String } == [acme], "\(restantes)")

            // Her export's activity has her lease's events, from its scheduling to its removal,
            // and none of her company's (another party's record).
            let atividade = try await client.json(.get, "/api/auth/me/dados", token: cenario.membro).object["atividade"] as? [[String: Any]] ?? []
            let doEspaco = atividade.filter { ($0["stream"] as? String)?.hasPrefix("espaco-") == true }
            #expect(doEspaco.map { $0["tipo"] as? String } == ["BloqueioAgendado", "BloqueioRemovido"], "\(doEspaco)")
            #expect(doEspaco.allSatisfy { "\($0["dados"] ?? "")".contains(ana) }, "\(doEspaco)")
        }
    }
}
