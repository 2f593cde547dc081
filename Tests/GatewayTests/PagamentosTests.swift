import Domain
import EventStore
import Foundation
import Gateway
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Projections
import Services
import Synchronization
import TestSupport
import Testing

@testable import Integrations

/// Polls `probe` (every 20 ms, up to 10 s) until it returns a value.
@discardableResult
func eventually<T>(_ what: String, _ probe: () async throws -> T?) async throws -> T {
    for _ in 0..<500 {
        if let value = try await probe() { return value }
        try await Task.sleep(for: .milliseconds(20))
    }
    Issue.record("timed out waiting for \(what)")
    throw CancellationError()
}

extension TestClientProtocol {
    /// The booking's payment once it has reached `status`.
    func pagamento(_ reserva: String, token: String, status: String) async throws -> [String: Any] {
        try await eventually("payment \(status)") {
            let response = try await json(.get, "/api/reservas/\(reserva)/pagamento", token: token)
            return response.object["status"] as? String == status ? response.object : nil
        }
    }

    /// Pays the booking's charge at the sandbox and returns the booking once it is confirmed.
    func pagar(_ reserva: String, token: String) async throws -> [String: Any] {
        let cobranca = try #require(try await pagamento(reserva, token: token, status: "pendente")["cobrancaId"] as? String)
        #expect(try await json(.post, "/api/sandbox/cobrancas/\(cobranca)/pagamento").status == .ok)
        return try await self.reserva(reserva, token: token, status: "confirmada")
    }

    func reserva(_ id: String, token: String, status: String) async throws -> [String: Any] {
        try await eventually("booking \(status)") {
            let response = try await json(.get, "/api/reservas/\(id)", token: token)
            return response.object["status"] as? String == status ? response.object : nil
        }
    }
}

extension Harness {
    /// The e-mails written so far.
    func emails() throws -> [ParsedEmail] {
        let files = (try? FileManager.default.contentsOfDirectory(at: outbox, includingPropertiesForKeys: nil)) ?? []
        return try files.filter { $0.pathExtension == "eml" }.map { try ParsedEmail(raw: Data(contentsOf: $0)) }
    }

    /// A notice signed with the webhook's secret at `instant`.
    func aviso(_ body: String, em instant: Date) -> (Data, String) {
        let data = Data(body.utf8)
        return (data, AssinaturaDeWebhook.assinar(data, segredo: segredo, em: instant))
    }
}

@Suite("Payments through the API and the sandbox provider")
struct PagamentosTests {
    /// A harness on `clock` with no reactors (nothing reacts to what is written), its scenario,
    /// and the member's PIX booking of the room on the 25th, 10:00–11:00, as the API answered it.
    func semReatores(
        _ clock: ManualClock, _ body: @escaping @Sendable (Harness, any TestClientProtocol, Cenario, TestResponse) async throws -> Void
    ) async throws {
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test(reacting: []) { client in
            let cenario = try await Cenario.make(harness, client)
            let criada = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-25T10:00:00-03:00", "2026-11-25T11:00:00-03:00"), token: cenario.membro)
            try await body(harness, client, cenario, criada)
        }
    }

    @Test("book → PIX charge → the member pays at the sandbox → the webhook confirms the booking; e-mails with the .ics go out")
    func pix_paid_confirms_booking() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let booked = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-25T10:00:00-03:00", "2026-11-25T12:00:00-03:00"), token: cenario.membro)
            #expect(booked.status == .created)
            let id = try #require(booked.object["id"] as? String)

            let pendente = try await client.pagamento(id, token: cenario.membro, status: "pendente")
            #expect(pendente["metodo"] as? String == "pix")
            #expect(pendente["valor"] as? Int == 10_000)
            let pix = try #require(pendente["pix"] as? [String: Any])
            let txid = try #require(pix["txid"] as? String)
            #expect((26...35).contains(txid.count) && txid.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
            #expect((pix["copiaECola"] as? String)?.hasPrefix("000201") == true)
            #expect((pix["copiaECola"] as? String)?.contains(txid) == true)
            let cobranca = try #require(pendente["cobrancaId"] as? String)

            // Someone else's booking: 404, not a leak.
            #expect(try await client.json(.get, "/api/reservas/\(id)/pagamento", token: cenario.admin).status == .ok)
            #expect(try await client.register("bia@example.com").status == .created)
            let bia = try await client.token("bia@example.com")
            #expect(try await client.json(.get, "/api/reservas/\(id)/pagamento", token: bia).status == .notFound)

            #expect(try await client.json(.post, "/api/sandbox/cobrancas/\(cobranca)/pagamento").status == .ok)
            #expect(try await client.json(.post, "/api/sandbox/cobrancas/\(cobranca)/pagamento").status == .conflict)
            let confirmado = try await client.pagamento(id, token: cenario.membro, status: "confirmado")
            #expect(confirmado["confirmadoEm"] != nil)
            let reserva = try await client.reserva(id, token: cenario.membro, status: "confirmada")
            #expect(reserva["pagamentoId"] as? String == id)

            let emails = try await eventually("confirmation e-mail") {
                let all = try harness.emails()
                return all.contains { $0.subject?.hasPrefix("Reserva confirmada") == true } ? all : nil
            }
            let confirmacao = try #require(emails.first { $0.subject?.hasPrefix("Reserva confirmada") == true })
            #expect(confirmacao.to.map(\.address) == ["ana@example.com"])
            let ics = try #require(confirmacao.attachments.first { $0.filename.hasSuffix(".ics") })
            let calendario = String(decoding: ics.data, as: UTF8.self)
            #expect(calendario.contains("DTSTART:20261125T130000Z"))
            #expect(calendario.contains("DTEND:20261125T150000Z"))
            #expect(emails.contains { $0.subject == "Bem-vindo(a) à CoworkFlow" })
            try await eventually("payment e-mail") {
                try harness.emails().contains { $0.subject?.hasPrefix("Pagamento recebido") == true } ? true : nil
            }

            // The inbox is a read model: it follows the notices a moment later.
            try await eventually("the in-app inbox") {
                let inbox = try await client.json(.get, "/api/notificacoes", token: cenario.membro)
                let tipos = (inbox.object["itens"] as? [[String: Any]] ?? []).compactMap { $0["tipo"] as? String }
                return Set(tipos).isSuperset(of: ["boas_vindas", "reserva_confirmada", "pagamento_recebido"]) ? true : nil
            }
            // Newest first, also within one second (this clock stands still): the welcome went first.
            let inbox = try await client.json(.get, "/api/notificacoes", token: cenario.membro)
            let tipos = (inbox.object["itens"] as? [[String: Any]] ?? []).compactMap { $0["tipo"] as? String }
            #expect(tipos.last == "boas_vindas" && tipos.first != "boas_vindas", "\(tipos)")
            #expect(try await client.json(.get, "/api/notificacoes").status == .unauthorized)
        }
    }

    @Test("reminders due after a page of bookings that have already started (long bookings stay listed until they end) still go out")
    func reminders_past_started_bookings() async throws {
        let clock = ManualClock(segundaDeManha)
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            _ = try await reservaComLembrete(harness, client, cenario)
            // Three bookings that started last week and run for weeks: listed first (by start).
            let iniciadas = try (0..<3).map { n in
                let inicio = segundaDeManha.addingTimeInterval(-Double(7 - n) * 86_400)
                let outra = UUID().uuidString.lowercased()
                return ReadModelChange(
                    collection: NotificacoesReadModel.lembretes, key: outra, grupo: "prazo", ordem: ISO8601DateFormatter().string(from: inicio),
                    doc: try ReadModelJSON.encoder.encode(LembreteView(reservaId: outra, usuarioId: "u-\(n)", inicio: inicio)))
            }
            try await harness.store.commit(iniciadas, checkpoint: "teste-iniciadas", at: .start)
            clock.advance(by: 5 * 3_600)  // 21 h before the start: due
            #expect(try await harness.backend.negocio.notificacoes.enviarLembretesVencidos(limite: 2) == 1)
            #expect(try harness.emails().filter { $0.subject?.hasPrefix("Lembrete") == true }.count == 1)
        }
    }

    @Test("reminders due after a page of entries passed over (places in an event taken inside the lead, listed until it starts) still go out")
    func reminders_past_entries_inside_their_lead() async throws {
        let clock = ManualClock(segundaDeManha)
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            _ = try await reservaComLembrete(harness, client, cenario)
            clock.advance(by: 5 * 3_600)  // 21 h before the booking's start: due
            // Three places in an event an hour before the booking, taken just now (inside the lead):
            // due, and passed over; listed ahead of the booking.
            let inicio = clock.now.addingTimeInterval(20 * 3_600)
            let lugares = try (0..<3).map { n in
                let encontro = UUID().uuidString.lowercased()
                return ReadModelChange(
                    collection: NotificacoesReadModel.lembretes, key: "encontro-\(encontro)", grupo: "prazo",
                    ordem: ISO8601DateFormatter().string(from: inicio),
                    doc: try ReadModelJSON.encoder.encode(
                        LembreteView(reservaId: encontro, usuarioId: "u-\(n)", inicio: inicio, agendadoEm: clock.now, encontroId: encontro)))
            }
            try await harness.store.commit(lugares, checkpoint: "teste-lugares", at: .start)
            #expect(try await harness.backend.negocio.notificacoes.enviarLembretesVencidos(limite: 2) == 1)
            #expect(try harness.emails().filter { $0.subject?.hasPrefix("Lembrete") == true }.count == 1)
        }
    }

    @Test("a confirmed booking's cancellation withdraws its calendar invitation (METHOD:CANCEL, same UID); a hold never confirmed sends none")
    func a_cancellation_withdraws_the_invitation() async throws {
        let clock = ManualClock(segundaDeManha)
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let (id, _) = try await reservaComLembrete(harness, client, cenario)
            func campos(_ ics: String) -> [String: String] {
                Dictionary(
                    ics.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n").compactMap { linha in
                        linha.firstIndex(of: ":").map { (String(linha[..<$0]), String(linha[linha.index(after: $0)...])) }
                    }
                ) { first, _ in first }
            }
            let convite = try await eventually("the confirmation's invitation") {
                try harness.emails().first { $0.subject?.hasPrefix("Reserva confirmada") == true }?.attachments.first {
                    $0.filename.hasSuffix(".ics")
                }
            }
            #expect(try await client.json(.post, "/api/reservas/\(id)/cancelamento", "{}", token: cenario.membro).status == .ok)
            let cancelamento = try await eventually("the cancellation e-mail") { try harness.emails().first { $0.subject == "Reserva cancelada" } }
            let anexo = try #require(cancelamento.attachments.first { $0.filename.hasSuffix(".ics") })
            #expect(anexo.contentType.lowercased().contains("method=cancel"), "\(anexo.contentType)")
            let (antes, depois) = (campos(String(decoding: convite.data, as: UTF8.self)), campos(String(decoding: anexo.data, as: UTF8.self)))
            #expect(antes["METHOD"] == "REQUEST" && depois["METHOD"] == "CANCEL")
            #expect(depois["UID"] != nil && depois["UID"] == antes["UID"])
            #expect(depois["DTSTART"] == antes["DTSTART"] && depois["DTEND"] == antes["DTEND"])
            #expect(depois["STATUS"] == "CANCELLED" && depois["SEQUENCE"] == "1" && antes["SEQUENCE"] == "0")
            #expect(cancelamento.text?.contains("cancelamento do convite") == true)

            // A hold cancelled before it was paid: the member was never invited.
            let hold = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-27T10:00:00-03:00", "2026-11-27T11:00:00-03:00"), token: cenario.membro)
            let holdId = try #require(hold.object["id"] as? String, "\(String(buffer: hold.body))")
            #expect(try await client.json(.post, "/api/reservas/\(holdId)/cancelamento", "{}", token: cenario.membro).status == .ok)
            let semConvite = try await eventually("the hold's cancellation e-mail") {
                try harness.emails().filter { $0.subject == "Reserva cancelada" }.count == 2
                    ? try harness.emails().filter { $0.subject == "Reserva cancelada" } : nil
            }
            #expect(semConvite.filter { $0.attachments.isEmpty }.count == 1)
        }
    }

    @Test("no reminder for a booking cancelled while the reminders' read model still lists it (it reads the booking itself)")
    func no_reminder_after_a_cancellation_the_read_model_missed() async throws {
        let clock = ManualClock(segundaDeManha)
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let (id, lembrete) = try await reservaComLembrete(harness, client, cenario)
            #expect(try await client.json(.post, "/api/reservas/\(id)/cancelamento", "{}", token: cenario.membro).status == .ok)
            _ = try await eventually("the reminder gone") {
                try await harness.store.document(NotificacoesReadModel.lembretes, key: id) == nil ? true : nil
            }
            // The read model as a lagging projection would have it: the booking still listed.
            try await harness.store.commit(
                [ReadModelChange(collection: NotificacoesReadModel.lembretes, key: id, grupo: "prazo", ordem: "2026-11-24T13:00:00Z", doc: lembrete)],
                checkpoint: "teste-atraso", at: .start)
            clock.advance(by: 5 * 3_600)  // 21 h before the start: due
            #expect(try await harness.backend.negocio.notificacoes.enviarLembretesVencidos() == 0)
            #expect(try harness.emails().filter { $0.subject?.hasPrefix("Lembrete") == true }.isEmpty)
        }
    }

    @Test("a moved booking's reminder: one of the old time (read before the move) keeps the new time's due, and a list behind the move sends none")
    func a_moved_bookings_reminder_survives_the_old_times() async throws {
        let clock = ManualClock(segundaDeManha)
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let (id, antigo) = try await reservaComLembrete(harness, client, cenario)  // Tuesday 10:00
            let reservaId = try #require(UUID(uuidString: id))
            // The desk moves it to Tuesday 15:00 (once its check-in code is issued).
            _ = try await eventually("the move") {
                let r = try await client.json(
                    .post, "/api/reservas/\(id)/remarcacao", #"{"inicio":"2026-11-24T15:00:00-03:00","fim":"2026-11-24T16:00:00-03:00"}"#,
                    token: cenario.admin)
                return r.status == .ok ? true : nil
            }
            func listado() async throws -> LembreteView? {
                try await harness.store.document(NotificacoesReadModel.lembretes, key: id)
                    .map { try ReadModelJSON.decoder.decode(LembreteView.self, from: $0) }
            }
            let movido = try await eventually("the list at the new time") { try await listado()?.remarcadaEm != nil ? try await listado() : nil }
            let novo = try #require(try await harness.store.document(NotificacoesReadModel.lembretes, key: id))

            // A reminder of the old time sent by a timer that read the booking just before the
            // move (its instant is before the move's): the new time's reminder stays due.
            let antes = try #require(movido.remarcadaEm).addingTimeInterval(-60)
            let notificacaoId = UUID()
            let velho = Notificacao.Event.enviada(
                .init(
                    notificacaoId: notificacaoId, usuarioId: movido.usuarioId, tipo: .lembrete, canal: "email", titulo: "Lembrete",
                    texto: "Sua reserva começa às 10:00", reservaId: reservaId, messageId: "teste", tentativas: 1, em: antes))
            try await harness.store.append(
                to: StreamName(category: "notificacao", id: notificacaoId.lowercasedString), expected: .noStream,
                events: [try NewEvent(eventId: UUID(), event: velho, occurredAt: antes)])
            _ = try await eventually("the old reminder in the inbox") {
                try await harness.store.document(NotificacoesReadModel.caixa, key: notificacaoId.lowercasedString)
            }
            #expect(try await listado() == movido, "the old time's reminder ended the new time's")

            // The list as a projection behind the move would have it (the old time, due at 10:00
            // the day before): the timer reads the booking itself and sends nothing.
            try await harness.store.commit(
                [ReadModelChange(collection: NotificacoesReadModel.lembretes, key: id, grupo: "prazo", ordem: "2026-11-24T13:00:00Z", doc: antigo)],
                checkpoint: "teste-atraso", at: .start)
            clock.advance(by: 5 * 3_600)  // Monday 13:00: 21 h before the old start, 26 before the new
            #expect(try await harness.backend.negocio.notificacoes.enviarLembretesVencidos() == 0)
            #expect(try harness.emails().filter { $0.subject?.hasPrefix("Lembrete") == true }.isEmpty)

            // Caught up: the new time's reminder goes out once it is due.
            try await harness.store.commit(
                [ReadModelChange(collection: NotificacoesReadModel.lembretes, key: id, grupo: "prazo", ordem: "2026-11-24T18:00:00Z", doc: novo)],
                checkpoint: "teste-atraso", at: .start)
            clock.advance(by: 2 * 3_600 + 1_800)  // Monday 15:30
            #expect(try await harness.backend.negocio.notificacoes.enviarLembretesVencidos() == 1)
            let enviados = try harness.emails().filter { $0.subject?.hasPrefix("Lembrete") == true }
            #expect(enviados.count == 1 && enviados.first?.subject?.contains("15:00") == true, "\(enviados.map(\.subject))")
        }
    }

    @Test("reminders: a confirmed booking's member is told the day before; one that cannot be told does not hold up the rest")
    func reminders_go_out_past_one_that_cannot() async throws {
        let clock = ManualClock(segundaDeManha)
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            #expect(try await client.register("bia@example.com", nome: "Bia").status == .created)
            let bia = try await client.token("bia@example.com")
            let primeira = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-24T10:00:00-03:00", "2026-11-24T11:00:00-03:00"), token: cenario.membro)
            let segunda = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-24T12:00:00-03:00", "2026-11-24T13:00:00-03:00"), token: bia)
            for reserva in [primeira, segunda] {
                let id = try #require(reserva.object["id"] as? String, "\(String(buffer: reserva.body))")
                #expect(try await client.json(.post, "/api/admin/reservas/\(id)/confirmacao", "{}", token: cenario.admin).status == .ok)
            }
            // The earlier booking's member erased her data meanwhile (a race with the API's own
            // refusal): her reminder has nobody to go to.
            let ana = try #require(primeira.object["usuarioId"] as? String)
            try await harness.backend.usuarios.apagar(usuario: ana, context: Caller(requestId: "teste"))
            #expect(try await harness.backend.negocio.notificacoes.enviarLembretesVencidos() == 0)  // not due yet
            // Bia's earlier notices are in (reactions run on the bus; one that ran after the clock
            // moved would carry the later time).
            _ = try await eventually("Bia's confirmation in the inbox") {
                let itens = try await client.json(.get, "/api/notificacoes", token: bia).object["itens"] as? [[String: Any]] ?? []
                return itens.contains { $0["tipo"] as? String == "reserva_confirmada" } ? true : nil
            }
            clock.advance(by: 5 * 3_600)  // 21 h and 23 h before the two starts
            let enviados = try await harness.backend.negocio.notificacoes.enviarLembretesVencidos()
            let docs = try await harness.store.documents(NotificacoesReadModel.lembretes, grupo: "prazo", limit: 10, offset: 0)
            #expect(enviados == 1, "\(docs.map { String(decoding: $0, as: UTF8.self) })")
            let lembretes = try harness.emails().filter { $0.subject?.hasPrefix("Lembrete") == true }
            #expect(lembretes.map { $0.to.map(\.address) } == [["bia@example.com"]])
            #expect(try await harness.backend.negocio.notificacoes.enviarLembretesVencidos() == 0)  // once
            // Bia's inbox, newest first across hours too: the reminder, then what came before it.
            let tipos = try await eventually("the reminder in the inbox") {
                let itens = try await client.json(.get, "/api/notificacoes", token: bia).object["itens"] as? [[String: Any]] ?? []
                let tipos = itens.compactMap { $0["tipo"] as? String }
                return tipos.contains("lembrete") ? tipos : nil
            }
            #expect(tipos.first == "lembrete" && tipos.last == "boas_vindas" && tipos.count == 3, "\(tipos)")
        }
    }

    @Test("the sandbox's refusal reason is bounded: it travels into the booking, the inbox and an e-mail")
    func refusal_reason_is_bounded() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let id = try #require(
                try await client.json(
                    .post, "/api/reservas", pedido(cenario.sala, "2026-11-25T10:00:00-03:00", "2026-11-25T11:00:00-03:00"), token: cenario.membro
                ).object["id"] as? String)
            let cobranca = try #require(try await client.pagamento(id, token: cenario.membro, status: "pendente")["cobrancaId"] as? String)
            let longo = try await client.json(
                .post, "/api/sandbox/cobrancas/\(cobranca)/recusa", #"{"motivo":"\#(String(repeating: "x", count: 501))"}"#)
            #expect(longo.status == .unprocessableContent && (longo.object["detalhes"] as? [String: Any])?["campo"] as? String == "motivo")
            #expect(try await client.json(.post, "/api/sandbox/cobrancas/\(cobranca)/recusa", #"{"motivo":"saldo insuficiente"}"#).status == .ok)
            let cancelada = try await client.reserva(id, token: cenario.membro, status: "cancelada")
            #expect((cancelada["cancelamento"] as? [String: Any])?["motivo"] as? String != nil)
        }
    }

    @Test("the webhook refuses unsigned, badly signed, stale and unknown notices; a replay changes nothing")
    func webhook_checks() async throws {
        let clock = ManualClock(segundaDeManha)
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let booked = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-25T10:00:00-03:00", "2026-11-25T11:00:00-03:00"), token: cenario.membro)
            let id = try #require(booked.object["id"] as? String)
            let cobranca = try #require(try await client.pagamento(id, token: cenario.membro, status: "pendente")["cobrancaId"] as? String)
            let body =
                #"{"id":"evt_teste_1","tipo":"cobranca.paga","cobrancaId":"\#(cobranca)","referencia":"\#(id)","valor":5000,"criadoEm":"2026-11-23T11:00:00Z"}"#
            let path = "/api/pagamentos/webhooks/sandbox"
            let before = try await harness.allEvents().count

            #expect(try await client.json(.post, path, body).erro == "assinatura_ausente")
            let (_, wrong) = harness.aviso(body.replacingOccurrences(of: "5000", with: "1"), em: clock.now)
            let bad = try await client.json(.post, path, body, headers: [HTTPField.Name("X-Sandbox-Signature")!: wrong])
            #expect(bad.status == .unauthorized && bad.erro == "assinatura_invalida")
            let (_, stale) = harness.aviso(body, em: clock.now.addingTimeInterval(-301))
            let old = try await client.json(.post, path, body, headers: [HTTPField.Name("X-Sandbox-Signature")!: stale])
            #expect(old.status == .unauthorized && old.erro == "assinatura_expirada")
            for extremo in [Int.min, Int.max] {  // an age that overflows is stale, not a crash
                let (_, far) = harness.aviso(body, em: clock.now)
                let forjada = far.replacing(#/t=-?[0-9]+/#, with: "t=\(extremo)")
                let answer = try await client.json(.post, path, body, headers: [HTTPField.Name("X-Sandbox-Signature")!: forjada])
                #expect(answer.status == .unauthorized && answer.erro == "assinatura_expirada", "\(forjada): \(String(buffer: answer.body))")
            }
            // No booking behind the reference: unknown for good, not a "retry" the provider
            // would repeat until it gives up.
            let unknown = body.replacingOccurrences(of: id, with: UUID().uuidString.lowercased())
            let (_, signedUnknown) = harness.aviso(unknown, em: clock.now)
            let neverBooked = try await client.json(.post, path, unknown, headers: [HTTPField.Name("X-Sandbox-Signature")!: signedUnknown])
            #expect(neverBooked.status == .notFound && neverBooked.erro == "nao_encontrado", "\(String(buffer: neverBooked.body))")
            let refundNotYet =
                #"{"id":"evt_teste_2","tipo":"reembolso.concluido","cobrancaId":"\#(cobranca)","referencia":"\#(id)","valor":5000,"reembolsoId":"\#(UUID().uuidString)","criadoEm":"2026-11-23T11:00:00Z"}"#
            let (_, signedRefund) = harness.aviso(refundNotYet, em: clock.now)
            let refundAnswer = try await client.json(.post, path, refundNotYet, headers: [HTTPField.Name("X-Sandbox-Signature")!: signedRefund])
            #expect(refundAnswer.status == .serviceUnavailable && refundAnswer.erro == "ainda_nao_registrado", "\(String(buffer: refundAnswer.body))")
            // Another charge for a payment that exists: that one is unknown for good.
            let otherCharge = body.replacingOccurrences(of: cobranca, with: "cob_outra")
            let (_, signedOther) = harness.aviso(otherCharge, em: clock.now)
            #expect(
                try await client.json(.post, path, otherCharge, headers: [HTTPField.Name("X-Sandbox-Signature")!: signedOther]).status == .notFound)
            let (_, notJSON) = harness.aviso("{}", em: clock.now)
            #expect(try await client.json(.post, path, "{}", headers: [HTTPField.Name("X-Sandbox-Signature")!: notJSON]).status == .badRequest)
            #expect(try await harness.allEvents().count == before)

            let (_, good) = harness.aviso(body, em: clock.now)
            let first = try await client.json(.post, path, body, headers: [HTTPField.Name("X-Sandbox-Signature")!: good])
            #expect(first.status == .ok && first.object["duplicado"] as? Bool == false && first.object["status"] as? String == "confirmado")
            _ = try await client.reserva(id, token: cenario.membro, status: "confirmada")
            let afterFirst = try await harness.allEvents().filter { $0.stream.category == "pagamento" }.count
            let replay = try await client.json(.post, path, body, headers: [HTTPField.Name("X-Sandbox-Signature")!: good])
            #expect(replay.status == .ok && replay.object["duplicado"] as? Bool == true)
            #expect(try await harness.allEvents().filter { $0.stream.category == "pagamento" }.count == afterFirst)
        }
    }

    @Test(
        "a boleto holds its slot for three days (never past the start) and falls due a day before the hold ends; too close to the start it is refused"
    )
    func boleto_holds_for_days() async throws {
        let clock = ManualClock(segundaDeManha)  // Monday 08:00 in São Paulo
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            func boleto(_ inicio: String, _ fim: String) -> String { pedido(cenario.sala, inicio, fim, boleto: true) }
            func instante(_ texto: Any?) throws -> Date { try Date(try #require(texto as? String), strategy: .iso8601) }
            // A week ahead: three days to pay, due a day before the hold ends.
            let longe = try await client.json(
                .post, "/api/reservas", boleto("2026-11-30T10:00:00-03:00", "2026-11-30T11:00:00-03:00"), token: cenario.membro)
            #expect(longe.status == .created, "\(String(buffer: longe.body))")
            #expect(try instante(longe.object["expiraEm"]) == segundaDeManha + 3 * 24 * 3600)
            // Wednesday 10:00, 50 hours ahead: until it starts.
            let quarta = try await client.json(
                .post, "/api/reservas", boleto("2026-11-25T10:00:00-03:00", "2026-11-25T11:00:00-03:00"), token: cenario.membro)
            #expect(try instante(quarta.object["expiraEm"]) == (try Date("2026-11-25T10:00:00-03:00", strategy: .iso8601)))
            // Tomorrow: no time to pay and clear a boleto. Refused, and nothing is held.
            // (Counted by type: the reactions to the bookings above keep appending meanwhile.)
            let solicitadas = { try await harness.allEvents().filter { $0.type == "ReservaSolicitada" || $0.type == "AgendaOcupada" }.count }
            let antes = try await solicitadas()
            let amanha = try await client.json(
                .post, "/api/reservas", boleto("2026-11-24T10:00:00-03:00", "2026-11-24T11:00:00-03:00"), token: cenario.membro)
            #expect(amanha.status == .unprocessableContent && amanha.erro == "dados_invalidos", "\(String(buffer: amanha.body))")
            #expect((amanha.object["detalhes"] as? [String: Any])?["campo"] as? String == "pagamento.metodo")
            #expect((amanha.object["mensagem"] as? String)?.contains("use pix ou cartao") == true)
            #expect(try await solicitadas() == antes)
            // PIX: 15 minutes, as ever, even for tomorrow.
            let pix = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-24T10:00:00-03:00", "2026-11-24T11:00:00-03:00"), token: cenario.membro)
            #expect(try instante(pix.object["expiraEm"]) == segundaDeManha + 15 * 60)

            // The boleto falls due a day before the hold ends: paid on the due date, it clears in time.
            let id = try #require(longe.object["id"] as? String)
            let pagamento = try await client.pagamento(id, token: cenario.membro, status: "pendente")
            let dadosDoBoleto = try #require(pagamento["boleto"] as? [String: Any])
            #expect(try instante(dadosDoBoleto["vencimento"]) == segundaDeManha + 2 * 24 * 3600)
            #expect(try #require(dadosDoBoleto["linhaDigitavel"] as? String).count == 47)

            // Sixteen minutes on, only the PIX hold has run out: carried out a minute late (measured).
            let fired = metricSample("coworkflow_timer_fired_total", ["timer": "reservas:prazos"])
            let late = metricSample("coworkflow_timer_lateness_seconds_sum", ["timer": "reservas:prazos"])
            let expired = metricSample("coworkflow_bookings_total", ["status": "expirada"])
            clock.advance(by: 16 * 60)
            #expect(try await harness.backend.reservas.executarPrazosVencidos() == 1)
            #expect(metricSample("coworkflow_timer_fired_total", ["timer": "reservas:prazos"]) >= fired + 1)
            #expect(metricSample("coworkflow_timer_lateness_seconds_sum", ["timer": "reservas:prazos"]) - late >= 60)
            #expect(metricSample("coworkflow_bookings_total", ["status": "expirada"]) >= expired + 1)
            _ = try await client.reserva(try #require(pix.object["id"] as? String), token: cenario.membro, status: "expirada")
            #expect(try await client.reserva(id, token: cenario.membro, status: "solicitada")["status"] as? String == "solicitada")
            // Wednesday's booking expires at its start, unpaid; the week-ahead one still holds.
            clock.set(try Date("2026-11-25T10:00:01-03:00", strategy: .iso8601))
            #expect(try await harness.backend.reservas.executarPrazosVencidos() == 1)
            _ = try await client.reserva(try #require(quarta.object["id"] as? String), token: cenario.membro, status: "expirada")
            #expect(try await client.reserva(id, token: cenario.membro, status: "solicitada")["status"] as? String == "solicitada")
        }
    }

    @Test("a member holds at most three slots unpaid by boleto at once (409); PIX is not limited; a cancelled one frees its place")
    func boletos_pendentes_are_limited() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            func boleto(_ dia: String) -> String { pedido(cenario.sala, "\(dia)T10:00:00-03:00", "\(dia)T11:00:00-03:00", boleto: true) }
            var ids: [String] = []
            for dia in ["2026-11-26", "2026-11-27", "2026-11-30"] {
                let booked = try await client.json(.post, "/api/reservas", boleto(dia), token: cenario.membro)
                #expect(booked.status == .created && booked.object["metodo"] as? String == "boleto", "\(String(buffer: booked.body))")
                ids.append(try #require(booked.object["id"] as? String))
            }
            let quarta = try await client.json(.post, "/api/reservas", boleto("2026-12-01"), token: cenario.membro)
            #expect(quarta.status == .conflict && quarta.erro == "boletos_pendentes", "\(String(buffer: quarta.body))")
            #expect((quarta.object["mensagem"] as? String)?.contains("3 reservas aguardando boleto") == true)
            let pix = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-12-01T10:00:00-03:00", "2026-12-01T11:00:00-03:00"), token: cenario.membro)
            #expect(pix.status == .created)
            // Another member is not held back by this one's boletos.
            #expect(try await client.register("bia-boleto@example.com").status == .created)
            let outra = try await client.token("bia-boleto@example.com")
            #expect(try await client.json(.post, "/api/reservas", boleto("2026-12-03"), token: outra).status == .created)
            // Cancelled, one of the three frees its place.
            #expect(try await client.json(.post, "/api/reservas/\(ids[0])/cancelamento", "{}", token: cenario.membro).status == .ok)
            _ = try await client.reserva(ids[0], token: cenario.membro, status: "cancelada")
            #expect(try await client.json(.post, "/api/reservas", boleto("2026-12-02"), token: cenario.membro).status == .created)
        }
    }

    @Test("ten boleto bookings by one member at once, on ten different days: exactly three hold, and the rest are 409 boletos_pendentes")
    func concurrent_boletos_are_limited() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let token = cenario.membro
            let dias = [
                "2026-11-26", "2026-11-27", "2026-11-30", "2026-12-01", "2026-12-02", "2026-12-03", "2026-12-04", "2026-12-07", "2026-12-08",
                "2026-12-09",
            ]
            let bodies = dias.map { pedido(cenario.sala, "\($0)T10:00:00-03:00", "\($0)T11:00:00-03:00", boleto: true) }
            let answers = try await withThrowingTaskGroup(of: (HTTPResponse.Status, String?).self) { group in
                for body in bodies {
                    group.addTask {
                        let answer = try await client.json(.post, "/api/reservas", body, token: token)
                        return (answer.status, answer.erro)
                    }
                }
                return try await group.reduce(into: [(HTTPResponse.Status, String?)]()) { $0.append($1) }
            }
            #expect(answers.filter { $0.0 == .created }.count == BoletosPendentes.limite)
            #expect(answers.filter { $0.0 == .conflict && $0.1 == "boletos_pendentes" }.count == dias.count - BoletosPendentes.limite)
            let minhas = try await client.json(.get, "/api/reservas", token: token)
            #expect(minhas.object["total"] as? Int == BoletosPendentes.limite)
        }
    }

    @Test("a notice that outran the reaction recording its charge is 'not yet' (503, retried), until the payment is recorded")
    func webhook_before_the_charge_is_recorded() async throws {
        let clock = ManualClock(segundaDeManha)
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test(reacting: []) { client in
            let cenario = try await Cenario.make(harness, client)
            let booked = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-25T10:00:00-03:00", "2026-11-25T11:00:00-03:00"), token: cenario.membro)
            let id = try #require(booked.object["id"] as? String)
            let body =
                #"{"id":"evt_cedo_1","tipo":"cobranca.paga","cobrancaId":"cob_cedo","referencia":"\#(id)","valor":5000,"criadoEm":"2026-11-23T11:00:00Z"}"#
            let (_, signed) = harness.aviso(body, em: clock.now)
            let before = try await harness.allEvents().count
            let notYet = try await client.json(
                .post, "/api/pagamentos/webhooks/sandbox", body, headers: [HTTPField.Name("X-Sandbox-Signature")!: signed])
            #expect(notYet.status == .serviceUnavailable && notYet.erro == "ainda_nao_registrado", "\(String(buffer: notYet.body))")
            #expect(notYet.headers[.retryAfter] == "1")
            #expect(try await harness.allEvents().count == before)
        }
    }

    @Test("a declined card releases the hold; a late cancellation refunds part of a paid booking; an unpaid expiry withdraws the charge")
    func declined_refund_expired() async throws {
        let clock = ManualClock(segundaDeManha)
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            // Declined card: the booking is cancelled and the slot is free again.
            let cartao =
                #"{"espacoId":"\#(cenario.sala)","inicio":"2026-11-25T10:00:00-03:00","fim":"2026-11-25T11:00:00-03:00","pagamento":{"metodo":"cartao","cartaoToken":"tok_sandbox_recusado"}}"#
            let recusada = try #require(try await client.json(.post, "/api/reservas", cartao, token: cenario.membro).object["id"] as? String)
            let pagamento = try await client.pagamento(recusada, token: cenario.membro, status: "recusado")
            #expect(pagamento["metodo"] as? String == "cartao")
            _ = try await client.reserva(recusada, token: cenario.membro, status: "cancelada")
            #expect(
                try await client.json(
                    .post, "/api/reservas", pedido(cenario.sala, "2026-11-25T10:00:00-03:00", "2026-11-25T11:00:00-03:00"), token: cenario.membro
                ).status == .created)
            // The provider says "paid" after all: the money is recorded and given back whole; the
            // booking stays cancelled (its slot went to someone else).
            let cobrancaRecusada = try #require(pagamento["cobrancaId"] as? String)
            #expect(try await client.json(.post, "/api/sandbox/cobrancas/\(cobrancaRecusada)/pagamento").status == .ok)
            let devolvido = try await eventually("late payment refunded") {
                let p = try await client.json(.get, "/api/reservas/\(recusada)/pagamento", token: cenario.membro).object
                return p["reembolsado"] as? Int == 5_000 ? p : nil
            }
            #expect(devolvido["status"] as? String == "confirmado")
            _ = try await client.reserva(recusada, token: cenario.membro, status: "cancelada")
            let semToken =
                #"{"espacoId":"\#(cenario.sala)","inicio":"2026-11-26T10:00:00-03:00","fim":"2026-11-26T11:00:00-03:00","pagamento":{"metodo":"cartao"}}"#
            #expect(try await client.json(.post, "/api/reservas", semToken, token: cenario.membro).status == .unprocessableContent)

            // An approved card, then a cancellation 2 h before: the unit keeps 50 %.
            let aprovado = cartao.replacingOccurrences(of: "tok_sandbox_recusado", with: "tok_visa").replacingOccurrences(
                of: "2026-11-25", with: "2026-11-23"
            )
            .replacingOccurrences(of: "T10:00", with: "T11:00").replacingOccurrences(
                of: "T11:00:00-03:00\",\"pagamento", with: "T12:00:00-03:00\",\"pagamento")
            let paga = try #require(try await client.json(.post, "/api/reservas", aprovado, token: cenario.membro).object["id"] as? String)
            _ = try await client.reserva(paga, token: cenario.membro, status: "confirmada")
            clock.advance(by: 3_600)  // 09:00, two hours before 11:00
            let cancelada = try await client.json(.post, "/api/reservas/\(paga)/cancelamento", #"{"motivo":"imprevisto"}"#, token: cenario.membro)
            #expect(cancelada.status == .ok)
            #expect((cancelada.object["cancelamento"] as? [String: Any])?["reembolso"] as? Int == 2_500)
            let reembolsado = try await eventually("refund concluded") {
                let p = try await client.json(.get, "/api/reservas/\(paga)/pagamento", token: cenario.membro).object
                return p["reembolsado"] as? Int == 2_500 ? p : nil
            }
            #expect((reembolsado["reembolsos"] as? [[String: Any]])?.count == 1)
            let tipos = try await harness.allEvents().map(\.type)
            #expect(tipos.contains("ReembolsoSolicitado") && tipos.contains("ReembolsoConcluido"))

            // Unpaid PIX: when the hold expires, the charge is withdrawn.
            let pix = try #require(
                try await client.json(
                    .post, "/api/reservas", pedido(cenario.sala, "2026-11-27T10:00:00-03:00", "2026-11-27T11:00:00-03:00"), token: cenario.membro
                ).object["id"] as? String)
            let cobranca = try #require(try await client.pagamento(pix, token: cenario.membro, status: "pendente")["cobrancaId"] as? String)
            clock.advance(by: 16 * 60)
            #expect(try await harness.backend.reservas.executarPrazosVencidos() >= 1)
            _ = try await client.pagamento(pix, token: cenario.membro, status: "cancelado")
            #expect(try await client.json(.post, "/api/sandbox/cobrancas/\(cobranca)/pagamento").status == .conflict)
        }
    }

    @Test("a hold paid at the provider whose notice never reached us is refunded in full when it expires, not recorded as withdrawn")
    func paid_notice_lost_then_expired() async throws {
        let clock = ManualClock(segundaDeManha)
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let pix = try #require(
                try await client.json(
                    .post, "/api/reservas", pedido(cenario.sala, "2026-11-27T10:00:00-03:00", "2026-11-27T11:00:00-03:00"), token: cenario.membro
                ).object["id"] as? String)
            let pendente = try await client.pagamento(pix, token: cenario.membro, status: "pendente")
            let cobranca = try #require(pendente["cobrancaId"] as? String)
            let valor = try #require(pendente["valor"] as? Int)
            // The webhook is down from here on: the provider's notices never land.
            await harness.sandbox.entregarPor { _, _ in 503 }
            #expect(try await client.json(.post, "/api/sandbox/cobrancas/\(cobranca)/pagamento").status == .ok)
            clock.advance(by: 16 * 60)
            #expect(try await harness.backend.reservas.executarPrazosVencidos() >= 1)
            _ = try await client.reserva(pix, token: cenario.membro, status: "expirada")
            // Withdrawing the charge finds it paid: the payment is recorded and given back whole.
            // (Asked for, not concluded: the provider's notice of it cannot land either.)
            let pagamento = try await eventually("the refund of the paid charge") {
                let p = try await client.json(.get, "/api/reservas/\(pix)/pagamento", token: cenario.membro).object
                return (p["reembolsos"] as? [[String: Any]])?.first?["valor"] as? Int == valor ? p : nil
            }
            #expect(pagamento["status"] as? String == "confirmado")
            // The booking says so too, not only its payment.
            let reserva = try await eventually("the booking showing the refund") {
                let r = try await client.json(.get, "/api/reservas/\(pix)", token: cenario.membro).object
                return r["reembolsoSolicitado"] as? Int == valor ? r : nil
            }
            #expect(reserva["status"] as? String == "expirada" && reserva["cancelamento"] == nil)
            let naProvedora = try #require(await harness.sandbox.cobranca(cobranca))
            #expect(naProvedora.situacao == .paga && naProvedora.reembolsos.values.reduce(.zero, +) == Money(centavos: Int64(valor)))
        }
    }

    @Test(
        "a refund whose notice never arrives is concluded by asking the provider once it is overdue, once; a notice arriving after that changes nothing"
    )
    func refund_notice_lost_is_reconciled() async throws {
        let clock = ManualClock(segundaDeManha)
        let harness = try await Harness.make(clock: clock)
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let pagamentos = harness.backend.negocio.pagamentos
            let reserva = try #require(
                try await client.json(
                    .post, "/api/reservas", pedido(cenario.sala, "2026-11-25T10:00:00-03:00", "2026-11-25T11:00:00-03:00", cartao: "tok_visa"),
                    token: cenario.membro
                ).object["id"] as? String)
            _ = try await client.reserva(reserva, token: cenario.membro, status: "confirmada")
            // The webhook is down from here on: the refund's notice never lands.
            let avisos = AvisosRecusados()
            await harness.sandbox.entregarPor { _, _ in
                avisos.tentativas.add(1, ordering: .relaxed)
                return 503
            }
            #expect(try await client.json(.post, "/api/reservas/\(reserva)/cancelamento", "{}", token: cenario.membro).status == .ok)
            let pedido = try await eventually("the refund asked") {
                let p = try await client.json(.get, "/api/reservas/\(reserva)/pagamento", token: cenario.membro).object
                return (p["reembolsos"] as? [[String: Any]])?.first
            }
            let valor = try #require(pedido["valor"] as? Int)
            func concluidos() async throws -> Int { try await harness.allEvents().filter { $0.type == "ReembolsoConcluido" }.count }
            // The provider pays out 0.3 s after it was asked, then sends the notice: asked
            // before that, it would rightly answer "in processing".
            try await eventually("the provider paid the refund out") { avisos.tentativas.load(ordering: .relaxed) > 0 ? true : nil }

            // Not overdue yet: the provider is not asked.
            clock.advance(by: PagamentosReadModel.espera - 1)
            #expect(try await pagamentos.conciliarReembolsos() == 0)
            #expect(try await concluidos() == 0)
            // Overdue: the provider says it was paid out, and that is recorded as its notice would be.
            clock.advance(by: 2)
            #expect(try await pagamentos.conciliarReembolsos() == 1)
            #expect(try await concluidos() == 1)
            let pago = try await eventually("the refund concluded") {
                let p = try await client.json(.get, "/api/reservas/\(reserva)/pagamento", token: cenario.membro).object
                return p["reembolsado"] as? Int == valor ? p : nil
            }
            #expect((pago["reembolsos"] as? [[String: Any]])?.count == 1)
            // Nothing left to ask about; asking again records nothing.
            clock.advance(by: 3_600)
            #expect(try await pagamentos.conciliarReembolsos() == 0)
            #expect(try await concluidos() == 1)

            // The notice finally lands: answered as a duplicate, nothing recorded twice.
            let cobranca = try #require(pago["cobrancaId"] as? String)
            let reembolsoId = try #require(pedido["id"] as? String)
            let aviso =
                #"{"id":"evt_rf_\#(reembolsoId)","tipo":"reembolso.concluido","cobrancaId":"\#(cobranca)","referencia":"\#(reserva)","valor":\#(valor),"reembolsoId":"\#(reembolsoId)","criadoEm":"2026-11-23T11:00:00Z"}"#
            let (_, assinatura) = harness.aviso(aviso, em: clock.now)
            let resposta = try await client.json(
                .post, "/api/pagamentos/webhooks/sandbox", aviso, headers: [HTTPField.Name("X-Sandbox-Signature")!: assinatura])
            #expect(resposta.status == .ok && resposta.object["duplicado"] as? Bool == true, "\(String(buffer: resposta.body))")
            #expect(try await concluidos() == 1)
        }
    }

    @Test("an admin-confirmed booking nobody paid for, cancelled: no refund is promised or recorded, and the charge is withdrawn")
    func admin_confirmed_unpaid_booking_refunds_nothing() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let booked = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-25T10:00:00-03:00", "2026-11-25T12:00:00-03:00"), token: cenario.membro)
            let id = try #require(booked.object["id"] as? String, "\(String(buffer: booked.body))")
            let cobranca = try #require(try await client.pagamento(id, token: cenario.membro, status: "pendente")["cobrancaId"] as? String)
            #expect(try await client.json(.post, "/api/admin/reservas/\(id)/confirmacao", "{}", token: cenario.admin).status == .ok)

            let cancelled = try await client.json(.post, "/api/reservas/\(id)/cancelamento", "{}", token: cenario.membro)
            #expect(cancelled.status == .ok, "\(String(buffer: cancelled.body))")
            let termos = try #require(cancelled.object["cancelamento"] as? [String: Any])
            #expect(termos["reembolso"] as? Int == 0 && termos["multa"] as? Int == 0, "\(termos)")  // was R$ 100 promised back
            _ = try await client.pagamento(id, token: cenario.membro, status: "cancelado")
            #expect(try await client.json(.get, "/api/sandbox/cobrancas/\(cobranca)").object["situacao"] as? String == "cancelada")
            let events = try await harness.allEvents()
            let cancelada = try #require(events.last { $0.type == "ReservaCancelada" })
            let corpo = try EventJSON.decoder.decode(Reserva.Cancelada.self, from: cancelada.data)
            #expect(corpo.pago == .zero && corpo.reembolso == .zero)
            #expect(!events.contains { $0.type == "ReembolsoSolicitado" })
            // The member is not told that money is coming back.
            let aviso = try await eventually("the cancellation notice") {
                let itens = try await client.json(.get, "/api/notificacoes", token: cenario.membro).object["itens"] as? [[String: Any]] ?? []
                return itens.first { $0["tipo"] as? String == "cancelamento" }
            }
            #expect((aviso["texto"] as? String)?.contains("de volta") == false, "\(aviso)")
        }
    }

    @Test("a booking cancelled after its payment landed but before the confirmation reached it is refunded in full")
    func paid_then_cancelled_before_confirmation() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            let cartao = pedido(cenario.sala, "2026-11-25T10:00:00-03:00", "2026-11-25T11:00:00-03:00", cartao: "tok_visa")
            let id = try #require(try await client.json(.post, "/api/reservas", cartao, token: cenario.membro).object["id"] as? String)
            let pago = try await client.pagamento(id, token: cenario.membro, status: "confirmado")
            let valor = try #require(pago["valor"] as? Int)
            // The race: reservas cancelled the booking while it was still a hold, so the
            // cancellation says nothing was paid. Pagamentos must still give the money back.
            let reserva = try #require(UUID(uuidString: id))
            let cancelada = Reserva.Event.cancelada(
                Reserva.Cancelada(
                    reservaId: Reserva.ID(reserva), por: "membro", motivo: nil, pago: .zero, multa: .zero, reembolso: .zero, em: segundaDeManha))
            let novo = try NewEvent(eventId: UUID(), event: cancelada, occurredAt: segundaDeManha)
            let evento = RecordedEvent(
                position: .start, stream: StreamName(category: "reserva", id: id), version: 99, eventId: novo.eventId, type: novo.type,
                schemaVersion: novo.schemaVersion, data: novo.data, metadataJSON: Data("{}".utf8), occurredAt: segundaDeManha,
                recordedAt: segundaDeManha)
            let writes = try await harness.backend.negocio.pagamentos.reagir(evento)
            let tipos = writes.flatMap(\.events).map(\.type)
            #expect(tipos == ["ReembolsoSolicitado"])
            let solicitado = try #require(writes.first?.events.first)
            let corpo = try #require(try JSONSerialization.jsonObject(with: solicitado.data) as? [String: Any])
            #expect(corpo["valor"] as? Int == valor)
        }
    }

    /// The member cancels while the payment is pending; the payment lands and confirms the
    /// booking between the cancellation's read of the payment and its append. The cancellation
    /// must decide on the payment that confirmed the booking it ends: the fee of a late
    /// cancellation applies, and the event says what comes back.
    @Test("a cancellation racing the payment's confirmation decides on the payment it finds confirmed: the late fee applies")
    func cancellation_racing_confirmation_charges_the_fee() async throws {
        let harness = try await Harness.make(clock: ManualClock(segundaDeManha))
        defer { harness.removeFiles() }
        try await harness.test { client in
            let cenario = try await Cenario.make(harness, client)
            // Today, within the unit's 24 free hours: a late cancellation costs half.
            let criada = try await client.json(
                .post, "/api/reservas", pedido(cenario.sala, "2026-11-23T14:00:00-03:00", "2026-11-23T15:00:00-03:00"), token: cenario.membro)
            let id = try #require(criada.object["id"] as? String, "\(String(buffer: criada.body))")
            let membro = try #require(criada.object["usuarioId"] as? String)
            let reserva = try #require(UUID(uuidString: id))
            let cobranca = try #require(try await client.pagamento(id, token: cenario.membro, status: "pendente")["cobrancaId"] as? String)

            let pausing = PausingStore(harness.store, pausing: StreamName(category: "pagamento", id: Pagamento.ID(reserva).description))
            let reservas = ReservasService(store: pausing, clock: harness.clock, precos: PrecosService(store: pausing, clock: harness.clock))
            let cancelamento = Task {
                try await reservas.cancelar(id, motivo: nil, usuario: membro, admin: false, caller: Caller(requestId: "corrida"))
            }
            await pausing.reached()  // the cancellation has read the payment: pending
            #expect(try await client.json(.post, "/api/sandbox/cobrancas/\(cobranca)/pagamento").status == .ok)
            let confirmada = try await client.reserva(id, token: cenario.membro, status: "confirmada")
            let valor = Money(centavos: Int64(try #require(confirmada["total"] as? Int)))
            pausing.release()
            _ = try await cancelamento.value

            let events = try await harness.allEvents()
            let evento = try #require(events.last { $0.stream == StreamNames.reserva(Reserva.ID(reserva)) && $0.type == "ReservaCancelada" })
            let corpo = try EventJSON.decoder.decode(Reserva.Cancelada.self, from: evento.data)
            #expect(corpo.pago == valor, "\(corpo)")
            #expect(
                corpo.multa == Money(centavos: valor.centavos / 2) && corpo.reembolso == Money(centavos: valor.centavos - valor.centavos / 2),
                "\(corpo)")
            // Pagamentos gives back what the cancellation says, not everything.
            let pagamento = try await eventually("the partial refund") {
                let p = try await client.json(.get, "/api/reservas/\(id)/pagamento", token: cenario.membro).object
                return (p["reembolsos"] as? [[String: Any]])?.isEmpty == false ? p : nil
            }
            let reembolsos = try #require(pagamento["reembolsos"] as? [[String: Any]])
            #expect(reembolsos.compactMap { $0["valor"] as? Int }.reduce(0, +) == Int(corpo.reembolso.centavos), "\(pagamento)")
        }
    }

    /// The booking's request waited (retried, then dead-lettered while the provider was down)
    /// and its end found no payment to withdraw: redriven afterwards, it must not charge.
    @Test("a booking request handled after its booking ended (cancelled or expired) charges nothing", arguments: ["cancelada", "expirada"])
    func request_after_its_booking_ended_is_not_charged(fim: String) async throws {
        let clock = ManualClock(segundaDeManha)
        try await semReatores(clock) { harness, client, cenario, criada in
            let id = try #require(criada.object["id"] as? String, "\(String(buffer: criada.body))")
            let reserva = try #require(UUID(uuidString: id))
            if fim == "cancelada" {
                #expect(try await client.json(.post, "/api/reservas/\(id)/cancelamento", "{}", token: cenario.membro).status == .ok)
            } else {
                clock.advance(by: 16 * 60)
                #expect(try await harness.backend.reservas.executarPrazosVencidos() >= 1)
            }
            let events = try await harness.allEvents()
            #expect(
                events.contains {
                    $0.stream == StreamNames.reserva(Reserva.ID(reserva)) && $0.type == (fim == "cancelada" ? "ReservaCancelada" : "ReservaExpirada")
                })
            let solicitada = try #require(events.first { $0.stream == StreamNames.reserva(Reserva.ID(reserva)) && $0.type == "ReservaSolicitada" })

            let writes = try await harness.backend.negocio.pagamentos.reagir(solicitada)
            #expect(writes.isEmpty, "\(writes.flatMap(\.events).map(\.type))")
            #expect(await harness.sandbox.cobranca(referencia: Pagamento.ID(reserva).description) == nil)
        }
    }

    /// The bus hands pagamentos the bookings waiting in its queue together (issue 40): their
    /// charges are read in one round trip, and decided as each alone would be.
    @Test("bookings requested together are charged on one read of the store, as each alone would be; one cancelled meanwhile is not charged")
    func charges_read_ahead_together() async throws {
        let clock = ManualClock(segundaDeManha)
        try await semReatores(clock) { harness, client, cenario, _ in
            for hora in 12...13 {
                let criada = try await client.json(
                    .post, "/api/reservas", pedido(cenario.sala, "2026-11-25T\(hora):00:00-03:00", "2026-11-25T\(hora):30:00-03:00"),
                    token: cenario.membro)
                #expect(criada.status == .created, "\(String(buffer: criada.body))")
                if hora == 13, let id = criada.object["id"] as? String {
                    #expect(try await client.json(.post, "/api/reservas/\(id)/cancelamento", "{}", token: cenario.membro).status == .ok)
                }
            }
            let solicitadas = try await harness.allEvents().filter { $0.type == "ReservaSolicitada" }
            #expect(solicitadas.count == 3)
            // A service of its own over a store that counts its reads.
            let contando = PausingStore(harness.store, pausing: StreamName("nada-1"))
            var logger = Logger(label: "pagamentos-test")
            logger.logLevel = .critical
            let pagamentos = PagamentosService(
                store: contando, clock: clock, provider: SandboxProvider(psp: harness.sandbox), segredoDoWebhook: harness.segredo, logger: logger,
                contas: .de(harness.backend.usuarios))

            let handler = try await pagamentos.lerAntes(solicitadas)
            var juntas: [[StreamWrite]] = []
            for evento in solicitadas { juntas.append(try await handler(evento)) }
            #expect(contando.reads.withLock { $0.map(\.kind) } == ["streams"], "one read for the three charges")

            var sozinhas: [[StreamWrite]] = []
            for evento in solicitadas { sozinhas.append(try await pagamentos.reagir(evento)) }
            #expect(contando.reads.withLock { $0.count } == 4, "alone: one read each")
            #expect(juntas.map { $0.map(\.stream) } == sozinhas.map { $0.map(\.stream) })
            #expect(juntas.map { $0.flatMap(\.events).map(\.eventId) } == sozinhas.map { $0.flatMap(\.events).map(\.eventId) })
            #expect(juntas.map { $0.flatMap(\.events).map(\.data) } == sozinhas.map { $0.flatMap(\.events).map(\.data) })
            #expect(juntas.map { $0.flatMap(\.events).map(\.type) } == [["PagamentoIniciado"], ["PagamentoIniciado"], []])
        }
    }

    @Test(
        "a hold paid in time whose confirmation is late (the bus is down) is confirmed by its timer, not expired; one whose payment was given back expires",
        arguments: [false, true])
    func paid_hold_outlives_its_timer(devolvido: Bool) async throws {
        let clock = ManualClock(segundaDeManha)
        try await semReatores(clock) { harness, client, cenario, criada in
            let id = try #require(criada.object["id"] as? String)
            let reserva = try #require(UUID(uuidString: id))
            let total = Money(centavos: Int64(try #require(criada.object["total"] as? Int)))
            // What pagamentos records when the member pays: the charge and its confirmation.
            // No reactor runs, so reservas never hears of it.
            let pagamento = Pagamento.ID(reserva)
            let pedido = Pagamento.Pedido(
                pagamentoId: pagamento, reservaId: reserva, usuarioId: "u", unidadeId: try #require(UUID(uuidString: cenario.unidade)),
                espacoId: try #require(UUID(uuidString: cenario.sala)), valor: total, expiraEm: segundaDeManha + 900)
            var estado = Pagamento.decider.initialState
            var eventos: [NewEvent] = []
            var comandos = [
                Pagamento.Command.iniciar(
                    pedido, cobranca: Pagamento.Cobranca(cobrancaId: "cob_atrasada", metodo: .pix), metodo: .pix, em: segundaDeManha),
                .confirmar(cobrancaId: "cob_atrasada", valor: total, em: segundaDeManha + 60),
            ]
            if devolvido {
                // A late approval after a decline, refunded at once: that money backs nothing.
                comandos.append(.reembolsar(reembolsoId: UUID(), valor: nil, motivo: "pago depois de recusado", em: segundaDeManha + 61))
            }
            for comando in comandos {
                for evento in try Pagamento.decider.decide(comando, estado) {
                    eventos.append(try NewEvent(eventId: UUID(), event: evento, occurredAt: segundaDeManha))
                    estado = Pagamento.decider.evolve(estado, evento)
                }
            }
            try await harness.store.append(to: StreamName(category: "pagamento", id: pagamento.description), expected: .noStream, events: eventos)

            clock.advance(by: 16 * 60)
            #expect(try await harness.backend.reservas.executarPrazosVencidos() == 1)
            let status = devolvido ? "expirada" : "confirmada"
            let depois = try await client.reserva(id, token: cenario.membro, status: status)
            #expect(depois["status"] as? String == status)
            #expect(try await harness.allEvents().contains { $0.type == "ReservaExpirada" } == devolvido)
            #expect(try await harness.allEvents().contains { $0.type == "ReservaConfirmada" } == !devolvido)
        }
    }
}

@Suite("The sandbox provider over HTTP")
struct ProvedorHTTPTests {
    @Test(
        "withdrawing a pending charge cancels it (twice is harmless); withdrawing a paid one answers that it was paid (the provider refuses with 409)"
    )
    func withdraw_pending_and_paid() async throws {
        var logger = Logger(label: "sandbox-http-test")
        logger.logLevel = .critical
        let clock = ManualClock(segundaDeManha)
        let psp = SandboxPSP(segredo: Data("s".utf8), clock: clock, atraso: .milliseconds(5), logger: logger)
        let app = SandboxServer.application(psp: psp, apiKey: "chave", host: "127.0.0.1", port: 0, logger: logger)
        try await app.test(.live) { client in
            let provedor = ProvedorHTTP(base: "http://127.0.0.1:\(try #require(client.port))", apiKey: "chave")
            func cobranca(_ referencia: String) async throws -> Pagamento.Cobranca {
                try await provedor.criarCobranca(
                    PedidoDeCobranca(
                        referencia: referencia, valor: Money(centavos: 5_000), metodo: .pix, cartaoToken: nil, descricao: "teste",
                        expiraEm: segundaDeManha.addingTimeInterval(900)))
            }
            let pendente = try await cobranca("a")
            #expect(try await provedor.cancelarCobranca(pendente.cobrancaId) == .cancelada)
            #expect(await psp.cobranca(pendente.cobrancaId)?.situacao == .cancelada)
            #expect(try await provedor.cancelarCobranca(pendente.cobrancaId) == .cancelada)  // again: harmless

            let paga = try await cobranca("b")
            _ = try await provedor.pagar(paga.cobrancaId)
            #expect(try await provedor.cancelarCobranca(paga.cobrancaId) == .paga(valor: Money(centavos: 5_000)))
            #expect(await psp.cobranca(paga.cobrancaId)?.situacao == .paga)

            // The API key is asked however the path is spelled: `//v1/…` reaches the same route.
            for caminho in ["/v1/cobrancas/\(paga.cobrancaId)/reembolsos", "//v1/cobrancas/\(paga.cobrancaId)/reembolsos"] {
                let semChave = try await client.execute(
                    uri: caminho, method: .post, body: ByteBuffer(string: #"{"reembolsoId":"\#(UUID())","valor":100}"#))
                #expect(semChave.status == .unauthorized, "\(caminho)")
            }
            #expect(await psp.cobranca(paga.cobrancaId)?.reembolsos.isEmpty == true)

            // A refund, queried: in processing until it is paid out (its notice goes then);
            // another id is unknown.
            let reembolsoId = UUID()
            try await provedor.reembolsar(cobrancaId: paga.cobrancaId, reembolsoId: reembolsoId, valor: Money(centavos: 1_500))
            let primeira = try await provedor.reembolso(cobrancaId: paga.cobrancaId, reembolsoId: reembolsoId)
            #expect(primeira == .emProcessamento || primeira == .concluido(valor: Money(centavos: 1_500)))
            _ = try await eventually("the refund paid out") {
                try await provedor.reembolso(cobrancaId: paga.cobrancaId, reembolsoId: reembolsoId) == .concluido(valor: Money(centavos: 1_500))
                    ? true : nil
            }
            #expect(try await provedor.reembolso(cobrancaId: paga.cobrancaId, reembolsoId: UUID()) == .desconhecido)
            #expect(try await provedor.reembolso(cobrancaId: "cob_desconhecida", reembolsoId: reembolsoId) == .desconhecido)
        }
    }
}

/// The member's booking of 2026-11-24 10:00–11:00 (São Paulo), confirmed by the admin, once the
/// reminders' read model lists it: its id and that document.
private func reservaComLembrete(_ harness: Harness, _ client: any TestClientProtocol, _ cenario: Cenario) async throws -> (String, Data) {
    let reserva = try await client.json(
        .post, "/api/reservas", pedido(cenario.sala, "2026-11-24T10:00:00-03:00", "2026-11-24T11:00:00-03:00"), token: cenario.membro)
    let id = try #require(reserva.object["id"] as? String, "\(String(buffer: reserva.body))")
    #expect(try await client.json(.post, "/api/admin/reservas/\(id)/confirmacao", "{}", token: cenario.admin).status == .ok)
    let lembrete = try await eventually("the reminder listed") { try await harness.store.document(NotificacoesReadModel.lembretes, key: id) }
    return (id, lembrete)
}

/// How many notices a test's webhook refused (the sandbox sends a refund's once it paid it out).
final class AvisosRecusados: Sendable {
    let tentativas = Atomic<Int>(0)
}
