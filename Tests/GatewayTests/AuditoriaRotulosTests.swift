import Domain
import Foundation
import Hummingbird
import HummingbirdTesting
import Services
import Testing

/// The audit trail names event types in words taken from the event catalogs, not from a second
/// list in the web app.
@Suite("Audit trail: labels from the catalogs")
struct AuditoriaRotulosTests {
    @Test("GET /api/admin/eventos lists every cataloged type with its label and context (admins only); each audit entry carries its type's label")
    func labels_from_the_catalogs() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let caller = Caller(requestId: "test")
        let perfil = try await harness.backend.usuarios.registrar(nome: "Root", email: "root@example.com", senha: "segredo-123", context: caller)
        try await harness.backend.usuarios.promover(usuario: perfil.id, context: caller)
        try await harness.test { client in
            let admin = try await client.token("root@example.com")
            _ = try await client.register("maria@example.com")
            let membro = try await client.token("maria@example.com")
            #expect(try await client.json(.get, "/api/admin/eventos", token: membro).status == .forbidden)

            let resposta = try await client.json(.get, "/api/admin/eventos", token: admin)
            #expect(resposta.status == .ok)
            let tipos = try #require(try JSONSerialization.jsonObject(with: Data(buffer: resposta.body)) as? [[String: String]])
            #expect(tipos.count == Catalogos.kinds.count)
            #expect(Set(tipos.compactMap { $0["tipo"] }) == Set(Catalogos.kinds.map(\.type)))
            #expect(tipos.contains { $0["tipo"] == "CupomReativado" && $0["rotulo"] == "Cupom reativado" && $0["contexto"] == "precos" })
            let rotulos = tipos.compactMap { $0["rotulo"] }
            #expect(rotulos == rotulos.sorted { $0.localizedStandardCompare($1) == .orderedAscending })

            let trilha = try await client.json(.get, "/api/admin/auditoria?tipo=UsuarioPromovido", token: admin)
            let itens = try #require(trilha.object["itens"] as? [[String: Any]])
            #expect(!itens.isEmpty && itens.allSatisfy { $0["rotulo"] as? String == "Conta promovida a administrador(a)" }, "\(itens)")
        }
    }
}
