import Domain
import EventStore
public import Foundation

/// A company in the operators' list.
public struct EmpresaResumoView: Codable, Sendable, Equatable {
    public let empresaId: String
    public var nome: String
    public var razaoSocial: String
    public var cnpj: String
    public var emailDeCobranca: String
    public var integrantes: Int
    public var gestores: Int
    public var convitesPendentes: Int
    public let criadaEm: Date
}

public enum EmpresasReadModel {
    /// ``EmpresaResumoView`` by company id, ordered by name.
    public static let empresas = "empresas"

    public static let projection = Projection(name: "empresas", collections: [empresas], types: Empresa.Catalogo.todos.types) { recorded, batch in
        guard let event = try Empresa.Event.decode(type: recorded.type, data: recorded.data, using: EventJSON.decoder) else { return }
        func salvar(_ view: EmpresaResumoView) throws {
            try batch.put(view, empresas, view.empresaId, grupo: nil, ordem: "\(view.nome.lowercased())|\(view.empresaId)")
        }
        func alterar(_ id: UUID, _ change: (inout EmpresaResumoView) -> Void) async throws {
            guard var view = try await batch.get(EmpresaResumoView.self, empresas, id.lowercasedString) else { return }
            change(&view)
            try salvar(view)
        }
        switch event {
        case .cadastrada(let e):
            try salvar(
                EmpresaResumoView(
                    empresaId: e.empresaId.lowercasedString, nome: e.cadastro.nome, razaoSocial: e.cadastro.razaoSocial,
                    cnpj: e.cadastro.cnpj.formatado, emailDeCobranca: e.cadastro.emailDeCobranca, integrantes: e.gestor == nil ? 0 : 1,
                    gestores: e.gestor == nil ? 0 : 1, convitesPendentes: 0, criadaEm: e.em))
        case .atualizada(let e):
            try await alterar(e.empresaId) {
                $0.nome = e.cadastro.nome
                $0.razaoSocial = e.cadastro.razaoSocial
                $0.emailDeCobranca = e.cadastro.emailDeCobranca
            }
        case .conviteEnviado(let e): try await alterar(e.empresaId) { $0.convitesPendentes += 1 }
        case .conviteRevogado(let e): try await alterar(e.empresaId) { $0.convitesPendentes = max(0, $0.convitesPendentes - 1) }
        case .conviteAceito(let e):
            try await alterar(e.empresaId) {
                $0.convitesPendentes = max(0, $0.convitesPendentes - 1)
                $0.integrantes += 1
                if e.papel == .gestor { $0.gestores += 1 }
            }
        case .papelDefinido(let e): try await alterar(e.empresaId) { $0.gestores += e.papel == .gestor ? 1 : -1 }
        case .limiteDefinido: return
        case .removido(let e):
            try await alterar(e.empresaId) {
                $0.integrantes = max(0, $0.integrantes - 1)
                if e.papel == .gestor { $0.gestores = max(0, $0.gestores - 1) }
            }
        }
    }
}
