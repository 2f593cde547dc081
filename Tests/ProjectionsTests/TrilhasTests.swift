import Domain
import EventStore
import Foundation
import TestSupport
import Testing

@testable import Projections

/// The trails index finds a member's id in a payload read in place as it did parsing it whole.
@Suite("Trails: a payload's member")
struct TrilhasTests {
    /// What it answered before, with `JSONSerialization`.
    func parsed(_ data: Data) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return (object["usuarioId"] ?? object["titular"]) as? String
    }

    static let payloads: [String] = [
        #"{"espacoId":"E","usuarioId":"4bf92f35-77b3-4da6-a3ce-929d0e0e4736","valor":1200}"#,
        #"{"titular":"T","x":[{"usuarioId":"nested"}]}"#,
        #"{"usuarioId":"U","titular":"T"}"#, #"{"titular":"T","usuarioId":"U"}"#,
        #"{"usuarioId":null,"titular":"T"}"#, #"{"usuarioId":7}"#, #"{"titular":{"usuarioId":"U"}}"#,
        #"{"a":{"usuarioId":"U"},"b":"\"usuarioId\":\"V\""}"#, #"{"usuarioId":"\u00e9\"x"}"#,
        #" { "usuarioId" : "U" } "#, #"{"usuarioId":"U","usuarioId":"V"}"#, #"{"usuarioId":"U"} x"#, #"{"usuarioId":"U""#,
        #"["usuarioId","U"]"#, #"{"outro":"titular"}"#, #"{}"#,
    ]

    @Test("the same member as parsing the whole payload", arguments: payloads)
    func same_member(payload: String) {
        let data = Data(payload.utf8)
        #expect(TrilhasReadModel.usuarioId(data) == parsed(data))
    }
}

/// The trails writer (``TrilhasReadModel/projection``): a booking's document, and both shapes read.
@Suite("Trails: a booking's document")
struct TrilhasReservaTests {
    let membro = "4bf92f35-77b3-4da6-a3ce-929d0e0e4736"
    let operador = "0af7651b-1d4c-4d2a-9b1e-2f5c3a4b5c6d"
    let instante = Date(timeIntervalSince1970: 1_795_000_000)

    func evento(_ type: String, por ator: String, reserva: UUID, _ data: String = "{}") -> NewEvent {
        NewEvent(
            eventId: UUID(), type: type, data: Data(data.utf8), metadata: EventMetadata(correlationId: reserva, actor: ator),
            occurredAt: instante)
    }

    func documentos(_ store: SQLiteEventStore, _ membro: String) async throws -> [Data] {
        try await store.documents(TrilhasReadModel.trilhas, grupo: membro, limit: 500, offset: 0)
    }

    @Test("a booking's events that are its member's make one document, whoever appends them; another member's entry is its own")
    func one_document_per_booking() async throws {
        let (store, path) = try AnalyticsHistoria.store()
        defer { AnalyticsHistoria.remove(path) }
        let reserva = UUID()
        let id = reserva.uuidString.lowercased()
        // As a booking is appended: its request, the day's agenda and the payment, together.
        let pedido = try await store.append([
            StreamWrite(
                stream: StreamName("reserva-\(id)"), expected: .noStream,
                events: [evento("ReservaSolicitada", por: membro, reserva: reserva, #"{"usuarioId":"\#(membro)"}"#)]),
            StreamWrite(stream: StreamName("agenda-\(id)"), expected: .noStream, events: [evento("AgendaOcupada", por: membro, reserva: reserva)]),
            StreamWrite(
                stream: StreamName("pagamento-\(id)"), expected: .noStream, events: [evento("PagamentoIniciado", por: membro, reserva: reserva)]),
        ])
        let runner = ProjectionRunner(TrilhasReadModel.projection, store: store, logger: AnalyticsHistoria.logger)
        try await runner.catchUp()
        // Later, in another batch: the system confirms it, an operator cancels it.
        let confirmada = try await store.append(
            to: StreamName("reserva-\(id)"), expected: .exact(1), events: [evento("ReservaConfirmada", por: "system:reservas", reserva: reserva)])
        let cancelada = try await store.append(
            to: StreamName("reserva-\(id)"), expected: .exact(2), events: [evento("ReservaCancelada", por: operador, reserva: reserva)])
        try await runner.catchUp()

        let docs = try await documentos(store, membro)
        #expect(docs.count == 1, "one document for the booking, not one per event")
        let doc = try ReadModelJSON.decoder.decode(TrilhasReadModel.Reserva.self, from: try #require(docs.first))
        #expect(doc.dono == membro)
        #expect(try TrilhasReadModel.entradas(try #require(docs.first)) == doc.entradas, "the readers' view of it")
        #expect(doc.entradas.map(\.posicao) == pedido.positions + confirmada.positions + cancelada.positions)
        #expect(doc.entradas.map(\.tipo) == ["ReservaSolicitada", "AgendaOcupada", "PagamentoIniciado", "ReservaConfirmada", "ReservaCancelada"])
        #expect(doc.entradas.map(\.ator) == [true, true, true, false, false])
        #expect(try await store.document(TrilhasReadModel.trilhas, key: id) != nil, "keyed by the booking's id")
        // The operator who cancelled it: an entry of their own, not in the member's document.
        let doOperador = try await documentos(store, operador).flatMap { try TrilhasReadModel.entradas($0) }
        #expect(doOperador.map(\.tipo) == ["ReservaCancelada"] && doOperador.map(\.ator) == [true])
        #expect(try await TrilhasReadModel.dono(reserva) { try await store.document($0, key: $1) } == membro)
        // No row of its own for its member any more: the release before this one finds the
        // member in the booking's document, as this one does.
        #expect(try await store.document(TrilhasReadModel.donos, key: id) == nil, "one row a booking")
    }

    @Test("the index as written before (an entry per event, a booking's member apart) is read, and a booking of then goes on in it")
    func reads_the_earlier_index() async throws {
        let (store, path) = try AnalyticsHistoria.store()
        defer { AnalyticsHistoria.remove(path) }
        let reserva = UUID()
        let id = reserva.uuidString.lowercased()
        let pedido = try await store.append(
            to: StreamName("reserva-\(id)"), expected: .noStream, events: [evento("ReservaSolicitada", por: membro, reserva: reserva)])
        let posicao = try #require(pedido.positions.first)
        // What the earlier projection wrote for it, its checkpoint after it.
        let antiga = TrilhasReadModel.Entrada(posicao: posicao, stream: "reserva-\(id)", tipo: "ReservaSolicitada", ator: true)
        try await store.commit(
            [
                ReadModelChange(
                    collection: TrilhasReadModel.donos, key: id, grupo: nil, doc: try ReadModelJSON.encode(TrilhasReadModel.Dono(usuario: membro))),
                ReadModelChange(
                    collection: TrilhasReadModel.trilhas, key: "\(membro)|x", grupo: membro, ordem: TrilhasReadModel.ordem(posicao),
                    doc: try ReadModelJSON.encode(antiga)),
            ], checkpoint: TrilhasReadModel.projection.checkpoint, at: posicao)
        #expect(try await TrilhasReadModel.dono(reserva) { try await store.document($0, key: $1) } == membro)
        // The system confirms it now: the member's, found through the earlier document.
        let confirmada = try await store.append(
            to: StreamName("reserva-\(id)"), expected: .exact(1), events: [evento("ReservaConfirmada", por: "system:reservas", reserva: reserva)])
        try await ProjectionRunner(TrilhasReadModel.projection, store: store, logger: AnalyticsHistoria.logger).catchUp()
        let entradas = try await documentos(store, membro).flatMap { try TrilhasReadModel.entradas($0) }
        #expect(entradas.map(\.posicao) == [posicao] + confirmada.positions)
        #expect(entradas.map(\.ator) == [true, false])
    }
}
