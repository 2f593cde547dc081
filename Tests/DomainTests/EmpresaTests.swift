import Domain
import Foundation
import Testing

/// Company accounts: the CNPJ's check digits (numeric and alphanumeric), the registration's
/// fields, invitations (expiry, the link's hash), roles and the last manager, one company per person.
@Suite("Empresa and Vinculo deciders: CNPJ, registration, invitations, roles, one company per person")
struct EmpresaTests {
    let empresaId = UUID()
    let agora = Date(timeIntervalSince1970: 1_790_000_000)
    var endereco: Unidade.Endereco { Unidade.Endereco(logradouro: "Av. Paulista", numero: "1000", cidade: "São Paulo", uf: "sp", cep: "01310-100") }

    func cadastro(razao: String = "Acme Ltda", cnpj: String = "11.222.333/0001-81", email: String = "Financeiro@Acme.com.br") -> Empresa.Cadastro {
        Empresa.Cadastro(razaoSocial: razao, nomeFantasia: " Acme ", cnpj: CNPJ(cnpj)!, emailDeCobranca: email, endereco: endereco)
    }

    func convite(_ n: Int, papel: Empresa.Papel = .membro, expiraEm: Date? = nil) -> Empresa.Convite {
        Empresa.Convite(
            conviteId: UUID(uuidString: "00000000-0000-0000-0000-00000000000\(n)")!, email: "pii:v1:x", token: "pii:v1:y", tokenHash: "hash-\(n)",
            papel: papel, expiraEm: expiraEm ?? agora.addingTimeInterval(7 * 86_400), por: "gestora", em: agora)
    }

    func fold(_ commands: Empresa.Command...) throws -> Empresa.State {
        var state = Empresa.State.inexistente
        for command in commands { state = try Empresa.decider.decide(command, state).reduce(state, Empresa.decider.evolve) }
        return state
    }

    var cadastrada: Empresa.Command { .cadastrar(empresaId: empresaId, cadastro(), gestor: "gestora", por: "admin", em: agora) }

    @Test func the_cnpj_check_digits_are_verified_in_the_numeric_and_the_alphanumeric_form() {
        #expect(CNPJ("11.222.333/0001-81")?.rawValue == "11222333000181")
        #expect(CNPJ("11222333000181")?.formatado == "11.222.333/0001-81")
        #expect(CNPJ("11.222.333/0001-82") == nil)
        #expect(CNPJ("11.222.333/0001-8") == nil)
        #expect(CNPJ("00.000.000/0000-00") == nil)
        #expect(CNPJ("11.111.111/1111-11") == nil)
        // The Receita Federal's example of the alphanumeric CNPJ (from July 2026), lower case accepted.
        #expect(CNPJ("12.ABC.345/01DE-35")?.rawValue == "12ABC34501DE35")
        #expect(CNPJ("12abc34501de35")?.formatado == "12.ABC.345/01DE-35")
        #expect(CNPJ("12.ABC.345/01DE-36") == nil)
        #expect(CNPJ("12.ABC.345/01DE-3A") == nil)
        #expect(CNPJ("12.ABÇ.345/01DE-35") == nil)
    }

    @Test func a_registration_is_trimmed_and_its_bad_fields_are_named() throws {
        guard case .existente(let dados) = try fold(cadastrada) else {
            Issue.record("not registered")
            return
        }
        #expect(
            dados.cadastro.nomeFantasia == "Acme" && dados.cadastro.emailDeCobranca == "financeiro@acme.com.br" && dados.cadastro.endereco.uf == "SP")
        #expect(dados.gestores == ["gestora"])
        for (ruim, campo) in [(cadastro(razao: "  "), "razaoSocial"), (cadastro(email: "financeiro"), "emailDeCobranca")] {
            #expect(throws: Empresa.Failure.campoInvalido(campo)) {
                try Empresa.decider.decide(.cadastrar(empresaId: empresaId, ruim, gestor: nil, por: "admin", em: agora), .inexistente)
            }
        }
        #expect(throws: Empresa.Failure.jaExiste) { try Empresa.decider.decide(cadastrada, try fold(cadastrada)) }
        // Another CNPJ is another company.
        #expect(throws: Empresa.Failure.outroCNPJ) {
            try Empresa.decider.decide(.atualizar(cadastro(cnpj: "12.ABC.345/01DE-35"), por: "admin", em: agora), try fold(cadastrada))
        }
    }

    @Test func an_invitation_is_accepted_once_by_the_links_holder_before_it_expires() throws {
        let state = try fold(cadastrada, .convidar(convite(1)), .convidar(convite(2, papel: .gestor, expiraEm: agora.addingTimeInterval(60))))
        let aceito = try Empresa.decider.decide(.aceitarConvite(tokenHash: "hash-1", usuario: "bia", em: agora), state)
        #expect(aceito.count == 1)
        let depois = aceito.reduce(state, Empresa.decider.evolve)
        #expect(depois.dados?.integrantes["bia"]?.papel == .membro && depois.dados?.convites.count == 1)
        #expect(throws: Empresa.Failure.conviteNaoEncontrado) {
            try Empresa.decider.decide(.aceitarConvite(tokenHash: "hash-1", usuario: "caio", em: agora), depois)
        }
        #expect(throws: Empresa.Failure.conviteExpirado) {
            try Empresa.decider.decide(.aceitarConvite(tokenHash: "hash-2", usuario: "caio", em: agora.addingTimeInterval(61)), depois)
        }
        #expect(throws: Empresa.Failure.jaIntegrante) {
            try Empresa.decider.decide(.aceitarConvite(tokenHash: "hash-2", usuario: "bia", em: agora), depois)
        }
        let revogado = try fold(cadastrada, .convidar(convite(1)), .revogarConvite(convite(1).conviteId, por: "gestora", em: agora))
        #expect(throws: Empresa.Failure.conviteNaoEncontrado) {
            try Empresa.decider.decide(.aceitarConvite(tokenHash: "hash-1", usuario: "bia", em: agora), revogado)
        }
    }

    @Test func the_last_manager_can_neither_leave_nor_become_a_member() throws {
        let state = try fold(cadastrada, .convidar(convite(1)), .aceitarConvite(tokenHash: "hash-1", usuario: "bia", em: agora))
        #expect(throws: Empresa.Failure.ultimoGestor) { try Empresa.decider.decide(.remover(usuario: "gestora", por: "gestora", em: agora), state) }
        #expect(throws: Empresa.Failure.ultimoGestor) {
            try Empresa.decider.decide(.definirPapel(usuario: "gestora", .membro, por: "gestora", em: agora), state)
        }
        let doisGestores = try Empresa.decider.decide(.definirPapel(usuario: "bia", .gestor, por: "gestora", em: agora), state)
            .reduce(state, Empresa.decider.evolve)
        #expect(try Empresa.decider.decide(.remover(usuario: "gestora", por: "gestora", em: agora), doisGestores).count == 1)
        #expect(throws: Empresa.Failure.naoIntegrante) { try Empresa.decider.decide(.remover(usuario: "caio", por: "bia", em: agora), state) }
    }

    @Test func a_person_belongs_to_one_company_at_a_time() throws {
        let outra = UUID()
        let vinculado = try Vinculo.decider.decide(.vincular(usuario: "bia", empresaId: empresaId, em: agora), nil).reduce(
            nil, Vinculo.decider.evolve)
        #expect(vinculado == empresaId)
        #expect(try Vinculo.decider.decide(.vincular(usuario: "bia", empresaId: empresaId, em: agora), vinculado).isEmpty)
        #expect(throws: Vinculo.Failure.outraEmpresa(empresaId)) {
            try Vinculo.decider.decide(.vincular(usuario: "bia", empresaId: outra, em: agora), vinculado)
        }
        let livre = try Vinculo.decider.decide(.desvincular(usuario: "bia", empresaId: empresaId, em: agora), vinculado)
            .reduce(vinculado, Vinculo.decider.evolve)
        #expect(livre == nil)
        #expect(try Vinculo.decider.decide(.vincular(usuario: "bia", empresaId: outra, em: agora), livre).count == 1)
    }
}
