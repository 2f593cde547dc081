import Domain
import EventStore
import Foundation
import Projections

extension NotificacoesService {
    /// The e-mail of a company's invitation, to its address, with the link. The stored record
    /// (``Notificacao``, under `convite:<id>`, in no member's inbox) says who was invited to
    /// what, never the address nor the link. An invitation already accepted or revoked (its
    /// key erased) sends nothing.
    func convite(_ enviado: Empresa.ConviteEnviado) async throws -> Aviso? {
        let convite = enviado.convite
        guard let email = try await abrir(convite.email), let token = try await abrir(convite.token) else { return nil }
        let empresa = try await cadastro(enviado.empresaId)?.nome ?? "uma empresa"
        let papel = convite.papel == .gestor ? "gestor(a)" : "membro"
        let link = "\(enderecoPublico ?? "")/convite/\(token)"
        let validade = DataLocal(convite.expiraEm, em: Unidade.fuso(nil)).brasileira
        let titulo = "Convite para fazer parte de \(empresa) na CoworkFlow"
        return Aviso(
            tipo: .convite, usuarioId: "convite:\(convite.conviteId.lowercasedString)", reservaId: nil, titulo: titulo,
            texto: "Convite para \(empresa) como \(papel), válido até \(validade).",
            destino: Contato(nome: "", email: email),
            textoDoEmail: "\(empresa) convidou você para fazer parte da conta da empresa na CoworkFlow, como \(papel). "
                + "Para aceitar, abra o link abaixo (entre ou crie sua conta, se ainda não tiver uma). Ele vale até \(validade).\n\n\(link)\n\n"
                + "Se você não esperava este convite, ignore esta mensagem.")
    }

    /// A company's subscription is told to its billing e-mail (`titular` `empresa-<id>`); nil
    /// for any other holder.
    func contatoDaEmpresa(_ titular: String) async throws -> Contato? {
        guard let id = Empresa.id(doTitular: titular), let cadastro = try await cadastro(id) else { return nil }
        return Contato(nome: cadastro.nome, email: cadastro.emailDeCobranca)
    }

    /// A company's registration as its stream says now (nil: no such company).
    private func cadastro(_ id: UUID) async throws -> Empresa.Cadastro? {
        let eventos = try await store.readStream(StreamNames.empresa(id)).compactMap {
            try Empresa.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder)
        }
        return Empresa.decider.fold(eventos).dados?.cadastro
    }
}
