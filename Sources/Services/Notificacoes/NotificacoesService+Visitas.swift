import Domain
import EventStore
import Foundation
import Projections

extension NotificacoesService {
    /// The visitor's invitation, to the address the host gave: where, when and who expects them.
    /// The stored record (under `visita:<id>`, in no member's inbox) names the unit and the time,
    /// never the visitor. No address, the visit's data already erased (cancelled), or a visitor
    /// the front desk registered for their host (already at the desk): nothing.
    func conviteDeVisita(_ registrada: Visita.Registrada) async throws -> Aviso? {
        let registro = registrada.registro
        guard registrada.por == registro.usuarioId else { return nil }
        guard let selado = registro.email, let email = try await abrir(selado) else { return nil }
        let nome = try await abrir(registro.nome) ?? ""
        let unidade = try await unidade(registro.unidadeId)
        let quando = Self.instante(registro.chegadaPrevista, fuso: unidade?.fusoHorario)
        let lugar = unidade?.nome ?? "nossa unidade"
        let endereco = unidade.map { " (\($0.endereco.logradouro), \($0.endereco.numero), \($0.endereco.cidade)/\($0.endereco.uf))" } ?? ""
        let anfitriao = try await contato(registro.usuarioId)?.nome
        return Aviso(
            tipo: .visita, usuarioId: "visita:\(registro.visitaId)", reservaId: nil, titulo: "Sua visita à \(lugar): \(quando)",
            texto: "Convite de visita à \(lugar), \(quando).",
            destino: Contato(nome: nome, email: email),
            textoDoEmail: "\(anfitriao.map { "\($0) espera" } ?? "Esperamos") você na \(lugar)\(endereco) em \(quando). "
                + "Ao chegar, procure a recepção e diga seu nome.\n\n"
                + "Se você não esperava esta visita, ignore esta mensagem.")
    }

    /// The visitor is told that the host cancelled (when the host gave an address, and while it
    /// is kept: an hour after the cancellation, ``Visita/guardaAposCancelamento``).
    func cancelamentoDeVisita(_ cancelada: Visita.Ocorrencia) async throws -> Aviso? {
        let registro = try await store.readStream(StreamNames.visita(cancelada.visitaId)).lazy.compactMap {
            try? Visita.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder)
        }.first.flatMap { evento -> Visita.Registro? in
            if case .registrada(let registrada) = evento { return registrada.registro }
            return nil
        }
        guard let registro, let selado = registro.email, let email = try await abrir(selado) else { return nil }
        let nome = try await abrir(registro.nome) ?? ""
        let unidade = try await unidade(registro.unidadeId)
        let quando = Self.instante(registro.chegadaPrevista, fuso: unidade?.fusoHorario)
        let lugar = unidade?.nome ?? "nossa unidade"
        return Aviso(
            tipo: .visita, usuarioId: "visita:\(registro.visitaId)", reservaId: nil, titulo: "Visita cancelada: \(lugar), \(quando)",
            texto: "Visita à \(lugar), \(quando), cancelada.", destino: Contato(nome: nome, email: email),
            textoDoEmail: "A sua visita à \(lugar) em \(quando) foi cancelada por quem convidou você. Não é preciso vir.")
    }

    /// The host is told (inbox and e-mail) that their visitor arrived. The text names the unit
    /// and the expected time, not the visitor (the record is kept; the visitor's name is not).
    func chegadaDeVisita(_ chegou: Visita.Ocorrencia) async throws -> Aviso? {
        let unidade = try await unidade(chegou.unidadeId)
        let lugar = unidade?.nome ?? "unidade"
        let hora = Self.instante(chegou.chegadaPrevista, fuso: unidade?.fusoHorario, soHora: true)
        return Aviso(
            tipo: .visita, usuarioId: chegou.usuarioId, reservaId: nil, titulo: "Seu visitante chegou",
            texto: "Seu visitante esperado às \(hora) chegou à recepção da \(lugar).")
    }

    /// The member is told (inbox and e-mail) that a letter or parcel waits at the front desk
    /// (ADR 0017): what it is and where. The sender and the desk's note are sealed under the
    /// member's key: the e-mail gives them (opened now), the stored notice does not.
    func correspondencia(_ registrada: Encomenda.Registrada) async throws -> Aviso? {
        let lugar = try await unidade(registrada.unidadeId)?.nome ?? "unidade"
        let texto = "\(Self.oQue(registrada.tipo)) chegou para você e está na recepção da \(lugar). Retire quando vier."
        return Aviso(
            tipo: .correspondencia, usuarioId: registrada.usuarioId, reservaId: nil, titulo: "Correspondência na recepção da \(lugar)",
            texto: texto, textoDoEmail: try await textoDoEmail(texto, de: registrada))
    }

    /// The reminder of a letter or parcel still waiting (the timer, ``lembreteDeCorrespondenciaDias``
    /// after it arrived): what, since when and where. Nil once it was handed over or cancelled.
    func lembreteDeCorrespondencia(_ id: Encomenda.ID) async throws -> Aviso? {
        guard case .existente(let dados) = try await encomendas.load(StreamNames.encomenda(id)).state, dados.situacao == .aguardando
        else { return nil }
        let registrada = dados.registro
        let unidade = try await unidade(registrada.unidadeId)
        let lugar = unidade?.nome ?? "unidade"
        let quando = Self.instante(registrada.em, fuso: unidade?.fusoHorario)
        let texto = "\(Self.oQue(registrada.tipo)) chegou para você em \(quando) e ainda está na recepção da \(lugar). Retire quando vier."
        return Aviso(
            tipo: .correspondencia, usuarioId: registrada.usuarioId, reservaId: nil,
            titulo: "Lembrete: correspondência esperando na recepção da \(lugar)", texto: texto,
            textoDoEmail: try await textoDoEmail(texto, de: registrada))
    }

    var encomendas: AggregateStore<Encomenda.Command, Encomenda.State, Encomenda.Event, Encomenda.Failure> {
        AggregateStore(store: store, decider: Encomenda.decider) {
            try Encomenda.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder)
        }
    }

    private static func oQue(_ tipo: Encomenda.Tipo) -> String {
        switch tipo {
        case .carta: "Uma carta"
        case .pacote: "Um pacote"
        case .outro: "Uma correspondência"
        }
    }

    /// The e-mail adds the sender and the desk's note, opened now (nil: neither, or erased).
    private func textoDoEmail(_ texto: String, de registrada: Encomenda.Registrada) async throws -> String? {
        var detalhes: [String] = []
        if let selado = registrada.remetente, let remetente = try await abrir(selado) { detalhes.append("Remetente: \(remetente).") }
        if let selado = registrada.observacao, let nota = try await abrir(selado) { detalhes.append("Observação da recepção: \(nota).") }
        return detalhes.isEmpty ? nil : ([texto] + detalhes).joined(separator: "\n\n")
    }

    /// A registration the desk made by mistake and cancelled: the member, told of it, is told
    /// that nothing waits.
    func correspondenciaCancelada(_ cancelada: Encomenda.Ocorrencia) async throws -> Aviso? {
        let lugar = try await unidade(cancelada.unidadeId)?.nome ?? "unidade"
        return Aviso(
            tipo: .correspondencia, usuarioId: cancelada.usuarioId, reservaId: nil, titulo: "Correspondência: aviso cancelado",
            texto: "A recepção da \(lugar) registrou por engano uma correspondência para você e cancelou o registro: "
                + "nada espera por você lá. Desconsidere o aviso anterior.")
    }

    /// The team replied to the member's help-desk request (ADR 0018). The stored notice says
    /// where, not what (the request's texts are sealed under the member's key); the e-mail gives
    /// the reply, opened now. The member's own messages tell nobody.
    func respostaDeChamado(_ respondido: Chamado.Respondido) async throws -> Aviso? {
        guard respondido.daEquipe else { return nil }
        let lugar = try await unidade(respondido.unidadeId)?.nome ?? "unidade"
        let texto = "A equipe da \(lugar) respondeu ao seu chamado. Veja a resposta em Meus chamados."
        let resposta = try await abrir(respondido.texto)
        return Aviso(
            tipo: .chamado, usuarioId: respondido.usuarioId, reservaId: nil, titulo: "Resposta ao seu chamado na \(lugar)", texto: texto,
            textoDoEmail: resposta.map { "A equipe da \(lugar) respondeu ao seu chamado:\n\n\($0)\n\nPara responder, abra Meus chamados no app." })
    }

    /// The team marked the member's request resolved; the member may write again to reopen it.
    func chamadoResolvido(_ resolvido: Chamado.Ocorrencia) async throws -> Aviso? {
        guard resolvido.daEquipe else { return nil }
        let lugar = try await unidade(resolvido.unidadeId)?.nome ?? "unidade"
        return Aviso(
            tipo: .chamado, usuarioId: resolvido.usuarioId, reservaId: nil, titulo: "Chamado resolvido na \(lugar)",
            texto: "A equipe da \(lugar) marcou o seu chamado como resolvido. Se o problema continuar, responda no chamado para reabri-lo.")
    }

    func unidade(_ id: UUID) async throws -> UnidadeView? {
        try await store.document(CatalogoReadModel.unidades, key: id.lowercasedString)
            .flatMap { try? ReadModelJSON.decoder.decode(UnidadeView.self, from: $0) }
    }

    /// "01/12/2026 às 14:00" in the unit's zone (São Paulo's when unknown); "14:00" with `soHora`.
    static func instante(_ instante: Date, fuso: String?, soHora: Bool = false) -> String {
        let zone = Unidade.fuso(fuso)
        let formato = DateFormatter()
        formato.locale = Locale(identifier: "pt_BR")
        formato.timeZone = zone
        formato.dateFormat = soHora ? "HH:mm" : "dd/MM/yyyy 'às' HH:mm"
        return formato.string(from: instante)
    }
}
