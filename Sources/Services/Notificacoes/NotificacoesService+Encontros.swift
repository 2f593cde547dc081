import Domain
import EventStore
import Foundation
import Projections

/// Community events (ADR 0019): a member is told of their place (with the calendar invitation),
/// of a place freed for them from the waiting list, of a cancelled event, and of the place they
/// gave up (the invitation withdrawn). Joining the waiting list, or leaving it, tells nobody.
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
        // Each notice is for what is still so when it goes (the consumer may be behind the stream).
        switch event {
        case .inscrito(let e) where !e.naEspera:
            guard dados.situacao(de: e.usuarioId) == .confirmada else { return nil }
            return Aviso(
                tipo: .encontro, usuarioId: e.usuarioId, reservaId: nil, titulo: "Inscrição confirmada: \(titulo)",
                texto: "Sua vaga em \(titulo) (\(quando), na \(lugar)) está garantida. O convite para a sua agenda segue em anexo. "
                    + "Se não puder ir, cancele a inscrição em Eventos: a vaga vai para quem está na lista de espera.",
                anexos: [convite(dados, unidade, em: e.em, cancelado: false)])
        case .vagaConcedida(let e):
            guard dados.situacao(de: e.usuarioId) == .confirmada else { return nil }
            return Aviso(
                tipo: .encontro, usuarioId: e.usuarioId, reservaId: nil, titulo: "Você conseguiu uma vaga: \(titulo)",
                texto: "Uma vaga em \(titulo) (\(quando), na \(lugar)) abriu, e ela é sua: você estava na lista de espera. "
                    + "O convite para a sua agenda segue em anexo. Se não puder ir, cancele a inscrição em Eventos.",
                anexos: [convite(dados, unidade, em: e.em, cancelado: false)])
        case .desistiu(let e) where e.razao == .encontroCancelado:
            let motivo = Self.motivo(dados.cancelado?.motivo).map { " \($0)" } ?? ""
            // Who only waited never had the invitation: nothing to withdraw.
            return Aviso(
                tipo: .encontro, usuarioId: e.usuarioId, reservaId: nil, titulo: "Evento cancelado: \(titulo)",
                texto: "A equipe da \(lugar) cancelou \(titulo) (\(quando)).\(motivo) "
                    + (e.tinhaVaga
                        ? "Sua inscrição foi encerrada e o convite, retirado da sua agenda." : "Você estava na lista de espera, que foi encerrada."),
                anexos: e.tinhaVaga ? [convite(dados, unidade, em: e.em, cancelado: true)] : [])
        case .desistiu(let e) where e.razao == .desistencia && e.tinhaVaga:
            // The member gave up their place: the invitation leaves their calendar (unless they
            // have signed up again since).
            guard dados.situacao(de: e.usuarioId) == nil else { return nil }
            return Aviso(
                tipo: .encontro, usuarioId: e.usuarioId, reservaId: nil, titulo: "Inscrição cancelada: \(titulo)",
                texto: "Você cancelou sua inscrição em \(titulo) (\(quando), na \(lugar)); a vaga foi para quem esperava, se havia alguém. "
                    + "O convite foi retirado da sua agenda.",
                anexos: [convite(dados, unidade, em: e.em, cancelado: true)])
        default:
            return nil
        }
    }

    /// A member's reminder of an event they have a place in (the timer, ``lembreteHoras``
    /// before it starts): what, when, where, and how to give the place up. Nil once they gave
    /// it up or the event was cancelled.
    func lembreteDeEncontro(_ id: Encontro.ID, usuario: String) async throws -> Aviso? {
        guard case .existente(let dados) = try await encontros.load(StreamNames.encontro(id)).state, dados.cancelado == nil,
            dados.situacao(de: usuario) == .confirmada
        else { return nil }
        let unidade = try await unidade(dados.publicado.unidadeId)
        let lugar = unidade?.nome ?? "unidade"
        let quando =
            (try? TimeRange(start: dados.publicado.inicio, end: dados.publicado.fim)).map { Self.quando($0, fuso: unidade?.fusoHorario) } ?? ""
        let onde = dados.local.map { "\($0), na \(lugar)" } ?? "na \(lugar)"
        return Aviso(
            tipo: .encontro, usuarioId: usuario, reservaId: nil, titulo: "Lembrete: \(dados.titulo), \(quando)",
            texto: "Você tem uma vaga em \(dados.titulo): \(quando), \(onde). "
                + "Se não puder ir, cancele a inscrição em Eventos: a vaga vai para o primeiro da lista de espera, se houver alguém.")
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
