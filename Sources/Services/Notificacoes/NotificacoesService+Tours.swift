import Domain
import EventStore
import Foundation
import Projections

/// Tours (ADR 0020): the prospect, who has no account, is told at the address they typed
/// (stored as `tour:<id>`, in no member's inbox): the confirmation with the calendar invitation
/// and the link to see or cancel it, and a cancellation. Neither stored text names the prospect.
extension NotificacoesService {
    var toursDosInteressados: AggregateStore<Tour.Command, Tour.State, Tour.Event, Tour.Failure> {
        AggregateStore(store: store, decider: Tour.decider) { try Tour.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder) }
    }

    /// A tour as its prospect's notices speak of it: its stream's state, the contact opened, the
    /// unit's name and address, the time at the unit, the link to see or cancel it.
    struct TourDoInteressado {
        let dados: Tour.Dados
        let contato: Contato
        let lugar: String
        let endereco: String?
        let quando: String
        let link: String
        var agendado: Tour.Agendado { dados.agendado }
    }

    /// Nil when the tour is unknown, its contact erased, or its e-mail cannot be opened: nobody to tell.
    func tourDoInteressado(_ id: Tour.ID) async throws -> TourDoInteressado? {
        guard case .existente(let dados) = try await toursDosInteressados.load(StreamNames.tour(id)).state, !dados.dadosApagados
        else { return nil }
        let a = dados.agendado
        guard let email = try await abrir(a.contato.email) else { return nil }
        let nome = try await abrir(a.contato.nome) ?? ""
        let unidade = try await unidade(a.unidadeId)
        return TourDoInteressado(
            dados: dados, contato: Contato(nome: nome, email: email), lugar: unidade?.nome ?? "nossa unidade",
            endereco: unidade.map { "\($0.endereco.logradouro), \($0.endereco.numero), \($0.endereco.cidade)/\($0.endereco.uf)" },
            quando: Self.instante(a.inicio, fuso: unidade?.fusoHorario), link: "\(enderecoPublico ?? "")/tour/\(a.tourId)")
    }

    func avisoDeTour(_ event: Tour.Event) async throws -> Aviso? {
        // The tour's own stream: a notice no longer true when it goes is not sent (a booking
        // cancelled before its confirmation went), and an erased contact tells nobody.
        guard let t = try await tourDoInteressado(event.tourId) else { return nil }
        let (dados, a, lugar, endereco, quando, link) = (t.dados, t.agendado, t.lugar, t.endereco, t.quando, t.link)
        switch event {
        case .agendado(let e):
            guard dados.situacao == .agendado else { return nil }
            return Aviso(
                tipo: .tour, usuarioId: "tour:\(a.tourId)", reservaId: nil, titulo: "Tour agendado: \(lugar), \(quando)",
                texto: "Tour pela \(lugar) agendado para \(quando).",
                anexos: [convite(a, lugar: lugar, endereco: endereco, em: e.em, cancelado: false)],
                destino: t.contato,
                textoDoEmail: "Seu tour pela \(lugar)\(endereco.map { " (\($0))" } ?? "") está agendado para \(quando). "
                    + "Ao chegar, procure a recepção e diga seu nome. O convite para a sua agenda segue em anexo.\n\n"
                    + "Para ver ou cancelar o tour, abra o link abaixo:\n\n\(link)\n\n"
                    + "Se você não agendou este tour, ignore esta mensagem.")
        case .cancelado(let e):
            let motivo = try await e.motivo.asyncMap { try await abrir($0) } ?? nil
            let texto =
                e.pelaEquipe
                ? "A equipe da \(lugar) cancelou o seu tour de \(quando).\(Self.motivo(motivo).map { " \($0)" } ?? "") "
                    + "Se quiser, agende outro horário no nosso site."
                : "Seu tour pela \(lugar) em \(quando) foi cancelado, como você pediu. Quando quiser, agende outro horário no nosso site."
            return Aviso(
                tipo: .tour, usuarioId: "tour:\(a.tourId)", reservaId: nil, titulo: "Tour cancelado: \(lugar), \(quando)",
                texto: "Tour pela \(lugar) em \(quando), cancelado.",
                anexos: [convite(a, lugar: lugar, endereco: endereco, em: e.em, cancelado: true)],
                destino: t.contato, textoDoEmail: texto)
        default:
            return nil
        }
    }

    /// The prospect's reminder of a tour still booked (the timer, ``lembreteHoras`` before it):
    /// when, where, the link to see or cancel it. Nil for a tour cancelled, done or erased.
    func lembreteDeTour(_ id: Tour.ID) async throws -> Aviso? {
        guard let t = try await tourDoInteressado(id), t.dados.situacao == .agendado else { return nil }
        return Aviso(
            tipo: .lembrete, usuarioId: "tour:\(t.agendado.tourId)", reservaId: nil, titulo: "Lembrete: tour pela \(t.lugar), \(t.quando)",
            texto: "Lembrete do tour pela \(t.lugar) em \(t.quando).", destino: t.contato,
            textoDoEmail: "Lembrete: seu tour pela \(t.lugar)\(t.endereco.map { " (\($0))" } ?? "") é em \(t.quando). "
                + "Ao chegar, procure a recepção e diga seu nome.\n\n"
                + "Se não puder vir, cancele pelo link abaixo, e o horário fica livre para outra pessoa:\n\n\(t.link)")
    }

    /// The team's mailbox (``ConfiguracaoDeTours/Configuracao/emailDaEquipe``) is told of a tour
    /// booked on the public site, with the contact (opened now; the stored notice names the unit
    /// and the time only), and of one the prospect cancelled. A tour the team booked or
    /// cancelled itself tells it nothing.
    func avisoDeTourParaEquipe(_ event: Tour.Event) async throws -> Aviso? {
        guard case .existente(let dados) = try await toursDosInteressados.load(StreamNames.tour(event.tourId)).state, !dados.dadosApagados
        else { return nil }
        let a = dados.agendado
        let configuracao = try await configuracoes.load(StreamNames.configuracaoDeTours(a.unidadeId)).state
        guard let caixa = configuracao?.emailDaEquipe else { return nil }
        let unidade = try await unidade(a.unidadeId)
        let lugar = unidade?.nome ?? "unidade"
        let quando = Self.instante(a.inicio, fuso: unidade?.fusoHorario)
        let nome = try await abrir(a.contato.nome) ?? "Interessado"
        switch event {
        case .agendado where a.origem == .site:
            var linhas = ["\(nome) agendou um tour pela \(lugar) em \(quando), pelo site."]
            if let email = try await abrir(a.contato.email) { linhas.append("E-mail: \(email)") }
            if let selado = a.contato.telefone, let telefone = try await abrir(selado) { linhas.append("Telefone: \(telefone)") }
            if let selado = a.contato.empresa, let empresa = try await abrir(selado) { linhas.append("Empresa: \(empresa)") }
            if let interesse = a.interesse { linhas.append("Interesse: \(Self.interesse(interesse))") }
            linhas.append("Pessoas: \(a.pessoas)")
            if let selado = a.contato.mensagem, let mensagem = try await abrir(selado) { linhas.append("Mensagem: \(mensagem)") }
            linhas.append("Veja os tours do dia em Tours, na página Reservas do dia.")
            return Aviso(
                tipo: .tour, usuarioId: "tour:\(a.tourId)", reservaId: nil, titulo: "Novo tour: \(lugar), \(quando)",
                texto: "Novo tour agendado pelo site: \(lugar), \(quando).", destino: Contato(nome: "", email: caixa),
                textoDoEmail: linhas.joined(separator: "\n"))
        case .cancelado(let e) where !e.pelaEquipe:
            return Aviso(
                tipo: .tour, usuarioId: "tour:\(a.tourId)", reservaId: nil, titulo: "Tour cancelado pelo interessado: \(lugar), \(quando)",
                texto: "Tour pela \(lugar) em \(quando), cancelado pelo interessado.", destino: Contato(nome: "", email: caixa),
                textoDoEmail: "\(nome) cancelou o tour pela \(lugar) de \(quando). O horário ficou livre de novo.")
        default:
            return nil
        }
    }

    var configuracoes: AggregateStore<ConfiguracaoDeTours.Command, ConfiguracaoDeTours.State, ConfiguracaoDeTours.Event, ConfiguracaoDeTours.Failure>
    {
        AggregateStore(store: store, decider: ConfiguracaoDeTours.decider) {
            try ConfiguracaoDeTours.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder)
        }
    }

    static func interesse(_ interesse: Tour.Interesse) -> String {
        switch interesse {
        case .posicaoFlexivel: "posição flexível"
        case .posicaoFixa: "posição fixa"
        case .salaPrivativa: "sala privativa"
        case .salaDeReuniao: "sala de reunião"
        case .escritorioVirtual: "escritório virtual"
        case .outro: "outro"
        }
    }

    /// The tour as a calendar invitation (`UID` `tour-<id>@coworkflow`, the same in both notices,
    /// so a cancellation removes it).
    private func convite(_ a: Tour.Agendado, lugar: String, endereco: String?, em: Date, cancelado: Bool) -> EmailAttachment {
        let ics = Calendario.evento(
            uid: "tour-\(a.tourId)@coworkflow", inicio: a.inicio, fim: a.fim, resumo: "Tour pela \(lugar)",
            local: [lugar, endereco].compactMap { $0 }.joined(separator: " — "), descricao: "Ao chegar, procure a recepção e diga seu nome.",
            criadoEm: em, organizador: remetente.address, cancelado: cancelado)
        return EmailAttachment(
            filename: "tour.ics", contentType: cancelado ? Calendario.contentTypeDeCancelamento : Calendario.contentType, data: ics)
    }
}

extension Optional {
    fileprivate func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
