import Domain
public import EventStore
import Foundation
import Messaging
import Projections

extension ReservasService {
    // MARK: Reactions

    public static let consumidor = "reservas"
    public static let bindings = [
        Topology.routingKey(Pagamento.Catalogo.confirmado), Topology.routingKey(Pagamento.Catalogo.recusado),
        Topology.routingKey(Checkin.Catalogo.noShowRegistrado), Topology.routingKey(Usuario.Catalogo.dadosPessoaisApagados),
    ]

    /// The bus reactor: a paid booking is confirmed; a declined payment releases the hold; a
    /// no-show frees the rest of the slot. Events that no longer apply (a payment arriving
    /// after the booking expired: pagamentos refunds it) change nothing.
    public func reagir(_ event: RecordedEvent) async throws -> [StreamWrite] {
        let now = clock.now
        var meta = event.metadata.caused(by: event.eventId, correlationId: event.metadata.correlationId)
        meta.service = Self.service
        meta.actor = "system:reservas"
        let cause = event.eventId.uppercasedString
        switch event.type {
        case Pagamento.Catalogo.confirmado:
            let pago = try EventJSON.decoder.decode(Pagamento.Confirmado.self, from: event.data)
            let id = Reserva.ID(pago.reservaId)
            let stream = StreamNames.reserva(id)
            let (state, version) = try await reservas.load(stream)
            guard let events = try? Reserva.decider.decide(.confirmar(pagamentoId: pago.pagamentoId.description, em: now), state),
                !events.isEmpty
            else { return [] }
            return [StreamWrite(stream: stream, expected: .after(version), events: try Events.derived(events, from: cause, at: now, metadata: meta))]
        case Pagamento.Catalogo.recusado:
            let recusado = try EventJSON.decoder.decode(Pagamento.Recusado.self, from: event.data)
            let id = Reserva.ID(recusado.reservaId)
            guard case .existente(let dados) = try await reservas.load(StreamNames.reserva(id)).state, dados.status == .solicitada else { return [] }
            do {
                return try await releaseWrites(id, meta: meta, at: now, cause: cause) { dados in
                    // Decided on the state the append is checked against: a booking an admin
                    // confirmed since the check above is not cancelled as declined.
                    guard dados.status == .solicitada else { throw NadaAFazer() }
                    return .cancelar(
                        por: "system:pagamentos", motivo: "pagamento recusado: \(recusado.motivo)", politica: .padrao, pago: .zero, em: now)
                }.writes
            } catch is NadaAFazer {
                return []
            }
        case Usuario.Catalogo.dadosPessoaisApagados:
            // The erasure refuses while bookings are active, but a booking made in the same
            // instant can pass that check: such a booking ends here, everything refunded (a
            // booking made after this ran is declined by pagamentos instead).
            let usuario = try EventJSON.decoder.decode(Usuario.DadosPessoaisApagados.self, from: event.data).usuarioId.description
            for reserva in try await ativas(usuario: usuario, emDia: true) {
                do {
                    _ = try await cancelar(
                        reserva.id, motivo: "conta excluída a pedido do membro (LGPD)", usuario: "system:lgpd", admin: true,
                        caller: Caller(requestId: event.metadata.requestId ?? cause, usuario: "system:lgpd"))
                } catch let error as ServiceError where [.naoEncontrado, .conflito].contains(error.kind) {
                    continue  // ended meanwhile, or already begun (it concludes as it is)
                }
            }
            return []
        case Checkin.Catalogo.noShowRegistrado:
            struct NoShow: Decodable { let reservaId: UUID }
            let noShow = try EventJSON.decoder.decode(NoShow.self, from: event.data)
            let id = Reserva.ID(noShow.reservaId)
            guard case .existente(let dados) = try await reservas.load(StreamNames.reserva(id)).state else { return [] }
            // The rest of its time is freed; the credits it spent come back as far as the
            // unit's policy said when the member booked (by default they are kept), in the
            // same append, so the statement says what the no-show cost.
            return try await agendaReleases(id, dados, meta: meta, at: now, cause: cause)
                + creditReturns(id, dados, devolverBP: Reserva.devolucaoNoNoShow(dados), noShow: true, meta: meta, at: now, cause: cause)
        default:
            return []
        }
    }
}

/// A reaction found, on the state it would append against, that nothing is left to do.
private struct NadaAFazer: Error {}
