import Domain
import EventStore
import Foundation
import Logging
@testable import Services
import Testing

/// A server that refuses every recipient, echoing the address as real servers do.
private struct RecusaDestinatario: Mailer {
    func send(_ message: EmailMessage) async throws {
        let para = message.to.first?.address ?? ""
        throw MailerError(.rejected, stage: .rcptTo, replyCode: 550, replyText: "5.1.1 <\(para)>: Recipient address rejected", detail: "unexpected reply from mx")
    }
}

@Suite("A notification that could not be sent")
struct NotificacaoFalhaTests {
    @Test("is recorded with its stage and reply code, never with the server's text that names the member's address")
    func failure_record_keeps_no_address() async throws {
        let store = try SQLiteEventStore(path: FileManager.default.temporaryDirectory.appendingPathComponent("coworkflow-falha-\(UUID().uuidString).sqlite").path)
        let servico = NotificacoesService(
            store: store, clock: ManualClock(Date(timeIntervalSince1970: 1_795_000_000)), mailer: RecusaDestinatario(),
            remetente: EmailAddress("nao-responda@coworkflow.dev"), contato: { _ in .init(nome: "Ana Souza", email: "ana.souza@example.com") },
            tentativas: 1, pausa: .zero, logger: Logger(label: "test"))
        let aviso = NotificacoesService.Aviso(tipo: .reservaConfirmada, usuarioId: "u-1", reservaId: nil, titulo: "Reserva confirmada", texto: "Até logo.")
        let writes = try await servico.entregar(aviso, id: UUID(), meta: EventMetadata())
        let evento = try #require(writes.first?.events.first)
        #expect(evento.type == "NotificacaoFalhou")
        let corpo = String(decoding: evento.data, as: UTF8.self)
        #expect(corpo.contains("rcptTo") && corpo.contains("550"), "\(corpo)")
        #expect(!corpo.contains("ana.souza@example.com") && !corpo.contains("Recipient address rejected"), "\(corpo)")
    }
}
