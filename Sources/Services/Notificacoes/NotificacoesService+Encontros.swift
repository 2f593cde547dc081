import Domain
import EventStore
import Foundation
import Projections

/// Community events (ADR 0019): a member is told of their place (with the calendar invitation),
/// of a place freed for them from the waiting list, and of a cancelled event (the invitation
/// withdrawn). Their own sign-up to the waiting list and their own giving up tell nobody.
extension NotificacoesService {
    var encontros: AggregateStore<Encontro.Command, Encontro.State, Encontro.Event, Encontro.Failure> {
        AggregateStore(store: store, decider: Encontro.decider) {
            try Encontro.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder)
        }
    }

    func avisoDeEncontro(_ event: Encontro.Event) async throws -> Aviso? {
        // The event's own stream (a read model may lag the sign-up it tells of).
        guard case .existente(let dados) = try await encontros.load(StreamNames.encontro(event.encontroId)).state else { return nil }
        let unidade = try await unidade(dados.publicado.unidadeId)
        let lugar = unidade?.nome ?? "unidade"
        let quando =
            (try? TimeRange(start: dados.publicado.inicio, end: dados.publicado.fim)).map { Self.quando($0, fuso: unidade?.fusoHorario) } ?? ""
        let titulo = dados.titulo
        switch event {
        case .inscrito(let e) where !e.naEspera:
            return Aviso(
                tipo: .encontro, usuarioId: e.usuarioId, reservaId: nil, titulo: "Inscrição confirmada: \(titulo)",
                texto: "Sua vaga em \(titulo) (\(quando), na \(lugar)) está garantida. O convite para a sua agenda segue em anexo. "
                    + "Se não puder ir, cancele a inscrição em Eventos: a vaga vai para quem está na lista de espera.",
                anexos: [convite(dados, unidade, em: e.em, cancelado: false)])
        case .vagaConcedida(let e):
            return Aviso(
                tipo: .encontro, usuarioId: e.usuarioId, reservaId: nil, titulo: "Você conseguiu uma vaga: \(titulo)",
                texto: "Uma vaga em \(titulo) (\(quando), na \(lugar)) abriu, e ela é sua: você estava na lista de espera. "
                    + "O convite para a sua agenda segue em anexo. Se não puder ir, cancele a inscrição em Eventos.",
                anexos: [convite(dados, unidade, em: e.em, cancelado: false)])
        case .desistiu(let e) where e.razao == .encontroCancelado:
            let motivo = dados.cancelado?.motivo.map { " Motivo: \($0)." } ?? ""
            return Aviso(
                tipo: .encontro, usuarioId: e.usuarioId, reservaId: nil, titulo: "Evento cancelado: \(titulo)",
                texto: "A equipe da \(lugar) cancelou \(titulo) (\(quando)).\(motivo) Sua inscrição foi encerrada.",
                anexos: [convite(dados, unidade, em: e.em, cancelado: true)])
        default:
            return nil
        }
    }

    /// The event as a calendar invitation (`UID` `encontro-<id>@coworkflow`, the same in every
    /// notice, so a cancellation removes it).
    private func convite(_ dados: Encontro.Dados, _ unidade: UnidadeView?, em: Date, cancelado: Bool) -> EmailAttachment {
        let endereco = unidade.map { "\($0.nome) — \($0.endereco.logradouro), \($0.endereco.numero), \($0.endereco.cidade)/\($0.endereco.uf)" }
        let local = [dados.local, endereco].compactMap { $0 }.joined(separator: " · ")
        let ics = Calendario.evento(
            uid: "encontro-\(dados.publicado.encontroId)@coworkflow", inicio: dados.publicado.inicio, fim: dados.publicado.fim,
            resumo: dados.titulo, local: local.isEmpty ? nil : local, descricao: dados.descricao, criadoEm: em,
            organizador: remetente.address, cancelado: cancelado)
        return EmailAttachment(
            filename: "evento.ics", contentType: cancelado ? Calendario.contentTypeDeCancelamento : Calendario.contentType, data: ics)
    }
}
