import Foundation

extension Plano {
    static func validar(_ termos: Termos) throws(Failure) {
        if let campo = termos.campoInvalido { throw .termoInvalido(campo: campo) }
    }

    public static let decider = Decider<Command, State, Event, Failure>(
        initialState: .inexistente,
        decide: { command, state throws(Failure) in
            switch (command, state) {
            case (.criar(let id, let nome, let descricao, let unidadeId, let termos, let vigenteDesde, let por, let em), .inexistente):
                guard !nome.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, TextoLivre.cabe(nome, maximo: tamanhoMaximoDoNome)
                else { throw .nomeInvalido }
                if let descricao, !TextoLivre.cabe(descricao, maximo: 500) { throw .descricaoInvalida }
                let nome = nome.trimmingCharacters(in: .whitespacesAndNewlines)
                let descricao = descricao?.trimmingCharacters(in: .whitespacesAndNewlines)
                try validar(termos)
                let versao = Versao(numero: 1, vigenteDesde: vigenteDesde, termos: termos)
                return [
                    .criado(
                        Criado(
                            planoId: id, nome: nome, descricao: descricao.flatMap { $0.isEmpty ? nil : $0 }, unidadeId: unidadeId, versao: versao,
                            por: por, em: em))
                ]
            case (.criar, .existente):
                throw .jaExiste
            case (_, .inexistente):
                throw .naoEncontrado
            case (.revisar(let termos, let vigenteDesde, let hoje, let por, let em), .existente(let dados)):
                guard !dados.arquivado else { throw .arquivado }
                try validar(termos)
                let ultima = dados.versoes[dados.versoes.count - 1]
                guard vigenteDesde > ultima.vigenteDesde, vigenteDesde >= hoje else { throw .versaoSobreposta(ultima: ultima.vigenteDesde) }
                let versao = Versao(numero: ultima.numero + 1, vigenteDesde: vigenteDesde, termos: termos)
                return [.revisado(Revisado(planoId: dados.planoId, versao: versao, por: por, em: em))]
            case (.arquivar(let por, let em), .existente(let dados)):
                if dados.arquivado { return [] }
                return [.arquivado(Arquivado(planoId: dados.planoId, por: por, em: em))]
            }
        },
        evolve: { state, event in
            switch (state, event) {
            case (_, .criado(let e)):
                return .existente(
                    Dados(planoId: e.planoId, nome: e.nome, descricao: e.descricao, unidadeId: e.unidadeId, versoes: [e.versao], arquivado: false))
            case (.existente(var dados), .revisado(let e)):
                dados.versoes.append(e.versao)
                return .existente(dados)
            case (.existente(var dados), .arquivado):
                dados.arquivado = true
                return .existente(dados)
            case (.inexistente, _):
                return state
            }
        })
}
