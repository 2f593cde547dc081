import Foundation

extension Empresa {
    /// The registration trimmed, or the first field that is wrong.
    static func validar(_ cadastro: Cadastro) throws(Failure) -> Cadastro {
        let razao = cadastro.razaoSocial.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !razao.isEmpty, TextoLivre.cabe(cadastro.razaoSocial, maximo: tamanhoMaximoDoNome) else { throw .campoInvalido("razaoSocial") }
        let fantasia = cadastro.nomeFantasia?.trimmingCharacters(in: .whitespacesAndNewlines)
        if let bruto = cadastro.nomeFantasia, !TextoLivre.cabe(bruto, maximo: tamanhoMaximoDoNome) { throw .campoInvalido("nomeFantasia") }
        guard EmailClaim.enderecoValido(cadastro.emailDeCobranca) else { throw .campoInvalido("emailDeCobranca") }
        let email = EmailClaim.normalise(cadastro.emailDeCobranca)
        let endereco: Unidade.Endereco
        do throws(Unidade.Failure) {
            endereco = try cadastro.endereco.normalizado()
        } catch {
            if case .enderecoInvalido(let campo) = error { throw .campoInvalido("endereco.\(campo)") }
            throw .campoInvalido("endereco")
        }
        return Cadastro(
            razaoSocial: razao, nomeFantasia: fantasia.flatMap { $0.isEmpty ? nil : $0 }, cnpj: cadastro.cnpj, emailDeCobranca: email,
            endereco: endereco)
    }

    public static let decider = Decider<Command, State, Event, Failure>(
        initialState: .inexistente,
        decide: { command, state throws(Failure) in
            switch (command, state) {
            case (.cadastrar(let id, let cadastro, let gestor, let por, let em), .inexistente):
                return [.cadastrada(Cadastrada(empresaId: id, cadastro: try validar(cadastro), gestor: gestor, por: por, em: em))]
            case (.cadastrar, .existente):
                throw .jaExiste
            case (_, .inexistente):
                throw .naoEncontrada

            case (.atualizar(let cadastro, let por, let em), .existente(let dados)):
                guard cadastro.cnpj == dados.cadastro.cnpj else { throw .outroCNPJ }
                let cadastro = try validar(cadastro)
                if cadastro == dados.cadastro { return [] }
                return [.atualizada(Atualizada(empresaId: dados.empresaId, cadastro: cadastro, por: por, em: em))]

            case (.convidar(let convite), .existente(let dados)):
                if dados.convites[convite.conviteId] != nil { return [] }
                let pendentes = dados.convites.values.filter { $0.expiraEm > convite.em }.count
                guard pendentes < convitesPendentesMaximos else { throw .convitesDemais }
                return [.conviteEnviado(ConviteEnviado(empresaId: dados.empresaId, convite: convite))]

            case (.revogarConvite(let id, let por, let em), .existente(let dados)):
                guard dados.convites[id] != nil else { throw .conviteNaoEncontrado }
                return [.conviteRevogado(ConviteRevogado(empresaId: dados.empresaId, conviteId: id, por: por, em: em))]

            case (.aceitarConvite(let hash, let usuario, let em), .existente(let dados)):
                guard let convite = dados.convites.values.first(where: { $0.tokenHash == hash }) else { throw .conviteNaoEncontrado }
                guard convite.expiraEm > em else { throw .conviteExpirado }
                guard dados.integrantes[usuario] == nil else { throw .jaIntegrante }
                return [
                    .conviteAceito(
                        ConviteAceito(empresaId: dados.empresaId, conviteId: convite.conviteId, usuarioId: usuario, papel: convite.papel, em: em))
                ]

            case (.definirPapel(let usuario, let papel, let por, let em), .existente(let dados)):
                guard let integrante = dados.integrantes[usuario] else { throw .naoIntegrante }
                if integrante.papel == papel { return [] }
                if integrante.papel == .gestor, dados.gestores.count == 1 { throw .ultimoGestor }
                return [.papelDefinido(PapelDefinido(empresaId: dados.empresaId, usuarioId: usuario, papel: papel, por: por, em: em))]

            case (.definirLimite(let usuario, let limite, let por, let em), .existente(let dados)):
                guard dados.integrantes[usuario] != nil else { throw .naoIntegrante }
                if let minutos = limite.minutosPorMes, !(0...Carteira.maximo(.minutos)).contains(minutos) { throw .limiteInvalido(.minutos) }
                if let centavos = limite.centavosPorMes, !(0...Carteira.maximo(.centavos)).contains(centavos) { throw .limiteInvalido(.centavos) }
                let atual = dados.limites[usuario] ?? Carteira.Limite(minutosPorMes: nil, centavosPorMes: nil)
                if atual == limite { return [] }
                return [.limiteDefinido(LimiteDefinido(empresaId: dados.empresaId, usuarioId: usuario, limite: limite, por: por, em: em))]

            case (.remover(let usuario, let por, let em), .existente(let dados)):
                guard let integrante = dados.integrantes[usuario] else { throw .naoIntegrante }
                if integrante.papel == .gestor, dados.gestores.count == 1 { throw .ultimoGestor }
                return [.removido(Removido(empresaId: dados.empresaId, usuarioId: usuario, papel: integrante.papel, por: por, em: em))]
            }
        },
        evolve: { state, event in
            switch (state, event) {
            case (_, .cadastrada(let e)):
                var integrantes: [String: Integrante] = [:]
                if let gestor = e.gestor { integrantes[gestor] = Integrante(usuarioId: gestor, papel: .gestor, desde: e.em) }
                return .existente(Dados(empresaId: e.empresaId, cadastro: e.cadastro, integrantes: integrantes, convites: [:], criadaEm: e.em))
            case (.existente(var dados), .atualizada(let e)):
                dados.cadastro = e.cadastro
                return .existente(dados)
            case (.existente(var dados), .conviteEnviado(let e)):
                dados.convites[e.convite.conviteId] = e.convite
                return .existente(dados)
            case (.existente(var dados), .conviteRevogado(let e)):
                dados.convites[e.conviteId] = nil
                return .existente(dados)
            case (.existente(var dados), .conviteAceito(let e)):
                dados.convites[e.conviteId] = nil
                dados.integrantes[e.usuarioId] = Integrante(usuarioId: e.usuarioId, papel: e.papel, desde: e.em)
                return .existente(dados)
            case (.existente(var dados), .papelDefinido(let e)):
                dados.integrantes[e.usuarioId]?.papel = e.papel
                return .existente(dados)
            case (.existente(var dados), .limiteDefinido(let e)):
                dados.limites[e.usuarioId] = e.limite.minutosPorMes == nil && e.limite.centavosPorMes == nil ? nil : e.limite
                return .existente(dados)
            case (.existente(var dados), .removido(let e)):
                dados.integrantes[e.usuarioId] = nil
                dados.limites[e.usuarioId] = nil
                return .existente(dados)
            case (.inexistente, _):
                return state
            }
        })
}
