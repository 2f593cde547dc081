import Domain
import EventStore
import Foundation
import Logging
import Synchronization
import TestSupport
import Testing

@testable import Services

/// A server that refuses every recipient, echoing the address as real servers do.
private struct RecusaDestinatario: Mailer {
    func send(_ message: EmailMessage) async throws {
        let para = message.to.first?.address ?? ""
        throw MailerError(
            .rejected, stage: .rcptTo, replyCode: 550, replyText: "5.1.1 <\(para)>: Recipient address rejected", detail: "unexpected reply from mx")
    }
}

/// A relay that answers 421 (try later) to the first `falhas` messages, then takes them.
private final class RelayIndisponivel: Mailer, Sendable {
    let falhas: Int
    let enviadas = Mutex(0)
    let tentativas = Mutex(0)
    init(falhas: Int) { self.falhas = falhas }

    func send(_ message: EmailMessage) async throws {
        let tentativa = tentativas.withLock {
            $0 += 1
            return $0
        }
        if tentativa <= falhas {
            throw MailerError(.rejected, stage: .mailFrom, replyCode: 421, replyText: "4.3.2 Service not available", detail: "try later")
        }
        enviadas.withLock { $0 += 1 }
    }
}

@Suite("A notification that could not be sent")
struct NotificacaoFalhaTests {
    @Test("a failure that may pass (4xx) is thrown for the bus to retry, not recorded as the message's end; the retry sends it")
    func transient_failure_is_retried_by_the_bus() async throws {
        let path = TemporarySQLite.path("coworkflow-falha")
        defer { TemporarySQLite.remove(path) }
        let store = try SQLiteEventStore(path: path)
        let relay = RelayIndisponivel(falhas: 2)
        let servico = NotificacoesService(
            store: store, clock: ManualClock(Date(timeIntervalSince1970: 1_795_000_000)), mailer: relay,
            remetente: EmailAddress("nao-responda@coworkflow.dev"), contato: { _ in .init(nome: "Ana Souza", email: "ana.souza@example.com") },
            tentativas: 2, pausa: .zero, logger: Logger(label: "test"))
        let aviso = NotificacoesService.Aviso(
            tipo: .reservaConfirmada, usuarioId: "u-1", reservaId: nil, titulo: "Reserva confirmada", texto: "Até logo.")
        let id = UUID()
        let erro = await #expect(throws: MailerError.self) { try await servico.entregar(aviso, id: id, meta: EventMetadata()) }
        #expect(erro?.replyCode == 421)
        #expect(relay.enviadas.withLock { $0 } == 0)
        // The bus's next attempt: the relay is back.
        let writes = try await servico.entregar(aviso, id: id, meta: EventMetadata())
        #expect(writes.first?.events.map(\.type) == ["NotificacaoEnviada"])
        #expect(relay.enviadas.withLock { $0 } == 1)
    }

    @Test("is recorded with its stage and reply code, never with the server's text that names the member's address")
    func failure_record_keeps_no_address() async throws {
        let path = TemporarySQLite.path("coworkflow-falha")
        defer { TemporarySQLite.remove(path) }
        let store = try SQLiteEventStore(path: path)
        let servico = NotificacoesService(
            store: store, clock: ManualClock(Date(timeIntervalSince1970: 1_795_000_000)), mailer: RecusaDestinatario(),
            remetente: EmailAddress("nao-responda@coworkflow.dev"), contato: { _ in .init(nome: "Ana Souza", email: "ana.souza@example.com") },
            tentativas: 1, pausa: .zero, logger: Logger(label: "test"))
        let aviso = NotificacoesService.Aviso(
            tipo: .reservaConfirmada, usuarioId: "u-1", reservaId: nil, titulo: "Reserva confirmada", texto: "Até logo.")
        let writes = try await servico.entregar(aviso, id: UUID(), meta: EventMetadata())
        let evento = try #require(writes.first?.events.first)
        #expect(evento.type == "NotificacaoFalhou")
        let corpo = String(decoding: evento.data, as: UTF8.self)
        #expect(corpo.contains("rcptTo") && corpo.contains("550"), "\(corpo)")
        #expect(!corpo.contains("ana.souza@example.com") && !corpo.contains("Recipient address rejected"), "\(corpo)")
    }
}

@Suite("Notification texts")
struct NotificacaoTextoTests {
    @Test("a booking's time reads in the unit's zone, with the end's date when it ends on another day")
    func quando_names_the_end_date_on_another_day() throws {
        // 2026-12-25 09:00 in São Paulo (UTC−3) is 12:00 UTC.
        let inicio = Date(timeIntervalSince1970: 1_798_200_000)  // 2026-12-25T12:00:00Z
        func intervalo(_ horas: Double) throws -> TimeRange { try TimeRange(start: inicio, end: inicio.addingTimeInterval(horas * 3_600)) }
        #expect(NotificacoesService.quando(try intervalo(2), fuso: "America/Sao_Paulo") == "25/12/2026, 09:00–11:00")
        #expect(NotificacoesService.quando(try intervalo(4 * 24 + 9), fuso: "America/Sao_Paulo") == "25/12/2026, 09:00 – 29/12/2026, 18:00")
        // 21:00 to 02:00: past midnight.
        let noite = try TimeRange(start: inicio.addingTimeInterval(12 * 3_600), end: inicio.addingTimeInterval(17 * 3_600))
        #expect(NotificacoesService.quando(noite, fuso: "America/Sao_Paulo") == "25/12/2026, 21:00 – 26/12/2026, 02:00")
        // A zone no longer known, or none: São Paulo's.
        #expect(NotificacoesService.quando(try intervalo(2), fuso: "Marte/Olympus") == "25/12/2026, 09:00–11:00")
        #expect(NotificacoesService.quando(try intervalo(2), fuso: nil) == "25/12/2026, 09:00–11:00")
        #expect(NotificacoesService.quando(try intervalo(2), fuso: "America/Manaus") == "25/12/2026, 08:00–10:00")
    }

    @Test("a reason given reads as one sentence, its own closing mark kept rather than doubled; none or blanks say nothing")
    func motivo_is_one_sentence() {
        #expect(NotificacoesService.motivo("o projeto acabou") == "Motivo: o projeto acabou.")
        #expect(NotificacoesService.motivo(" o projeto acabou. \n") == "Motivo: o projeto acabou.")
        #expect(NotificacoesService.motivo("reforma!") == "Motivo: reforma!")
        #expect(NotificacoesService.motivo("  ") == nil && NotificacoesService.motivo(nil) == nil)
    }
}
