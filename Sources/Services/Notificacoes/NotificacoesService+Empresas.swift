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
        var empresa = "uma empresa"
        for recorded in try await store.readStream(StreamNames.empresa(enviado.empresaId)) {
            switch try Empresa.Event.decode(type: recorded.type, data: recorded.data, using: EventJSON.decoder) {
            case .cadastrada(let e)?: empresa = e.cadastro.nome
            case .atualizada(let e)?: empresa = e.cadastro.nome
            default: break
            }
        }
        let papel = convite.papel == .gestor ? "gestor(a)" : "membro"
        let link = "\(enderecoPublico ?? "")/convite/\(token)"
        let validade = DataLocal(convite.expiraEm, em: TimeZone(identifier: "America/Sao_Paulo") ?? .gmt).brasileira
        let titulo = "Convite para fazer parte de \(empresa) na CoworkFlow"
        return Aviso(
            tipo: .convite, usuarioId: "convite:\(convite.conviteId.uuidString.lowercased())", reservaId: nil, titulo: titulo,
            texto: "Convite para \(empresa) como \(papel), válido até \(validade).",
            destino: Contato(nome: "", email: email),
            textoDoEmail: "\(empresa) convidou você para fazer parte da conta da empresa na CoworkFlow, como \(papel). "
                + "Para aceitar, abra o link abaixo (entre ou crie sua conta, se ainda não tiver uma). Ele vale até \(validade).\n\n\(link)\n\n"
                + "Se você não esperava este convite, ignore esta mensagem.")
    }

    /// A company's subscription is told to its billing e-mail (`titular` `empresa-<id>`); nil
    /// for any other holder.
    func contatoDaEmpresa(_ titular: String) async throws -> Contato? {
        guard titular.hasPrefix("empresa-"), let id = UUID(uuidString: String(titular.dropFirst("empresa-".count))) else { return nil }
        var contato: Contato?
        for recorded in try await store.readStream(StreamNames.empresa(id)) {
            switch try Empresa.Event.decode(type: recorded.type, data: recorded.data, using: EventJSON.decoder) {
            case .cadastrada(let e)?: contato = Contato(nome: e.cadastro.nome, email: e.cadastro.emailDeCobranca)
            case .atualizada(let e)?: contato = Contato(nome: e.cadastro.nome, email: e.cadastro.emailDeCobranca)
            default: break
            }
        }
        return contato
    }
}
