public import Domain
import EventStore
public import Foundation

/// An account as the admin list reads it. Name and e-mail stay sealed (vault fields): the
/// reader opens them, and once the person's key is shredded they open to nothing.
public struct ContaView: Codable, Sendable, Equatable {
    public let id: String
    public let nome: String
    public let email: String
    public let papel: String
    public let ativo: Bool
    public let registradoEm: Date
    public let plano: String?

    public init(_ conta: Usuario.Conta) {
        id = conta.id.description
        nome = conta.nome
        email = conta.email
        papel = conta.papel.rawValue
        ativo = conta.ativo
        registradoEm = conta.registradoEm
        plano = conta.plano
    }
}

/// Accounts, oldest first (the admin list); erased accounts leave the list.
public enum UsuariosReadModel {
    public static let contas = "contas"

    public static let projection = Projection(
        name: "usuarios", collections: [contas],
        types: [
            Usuario.Catalogo.registrado.type, Usuario.Catalogo.promovido.type, Usuario.Catalogo.desativado.type,
            Usuario.Catalogo.dadosPessoaisApagados.type, Usuario.Catalogo.planoDefinido.type,
        ]
    ) { recorded, batch in
        guard recorded.stream.category == "usuario" else { return }
        let history = try await batch.history(recorded.stream)
        switch try fold(history, Usuario.decider, decode: Usuario.Event.decode) {
        case .existente(let conta):
            try batch.put(
                ContaView(conta), contas, conta.id.description,
                ordem: conta.registradoEm.formatted(.iso8601) + "|" + conta.id.description)
        case .apagado(let id):
            batch.delete(contas, id.description)
        case .inexistente:
            return
        }
    }
}
