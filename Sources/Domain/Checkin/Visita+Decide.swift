public import Foundation

extension Visita {
    public struct Dados: Sendable, Equatable {
        public var registro: Registro
        public var situacao: Situacao
        public var registradaEm: Date
        public var registradaPor: String
        public var chegouEm: Date?
        /// Who recorded the arrival (the front desk).
        public var recebidaPor: String?
        public var saiuEm: Date?
        public var canceladaEm: Date?
        /// The visitor's name and e-mail were erased (cancellation or retention).
        public var dadosApagados: Bool

        public var id: ID { registro.visitaId }
        /// When the retention of the visitor's data ends: an hour after a cancellation, otherwise
        /// ``Visita/retencao`` after the expected arrival.
        public var retencaoAte: Date {
            canceladaEm.map { $0.addingTimeInterval(guardaAposCancelamento) } ?? registro.chegadaPrevista.addingTimeInterval(retencao)
        }
    }

    public enum State: Sendable, Equatable {
        case inexistente
        case existente(Dados)

        public var dados: Dados? {
            if case .existente(let dados) = self { return dados }
            return nil
        }
    }

    static func registrar(_ registro: Registro, por: String, em: Date) throws(Failure) -> [Event] {
        guard registro.chegadaPrevista >= em.addingTimeInterval(-atrasoAdmitido) else { throw .noPassado }
        guard registro.chegadaPrevista <= em.addingTimeInterval(antecedenciaMaxima) else { throw .longeDemais }
        return [.registrada(Registrada(registro, por: por, em: em))]
    }

    static func cancelar(_ dados: Dados, por: String, em: Date) throws(Failure) -> [Event] {
        switch dados.situacao {
        case .esperada: return [.cancelada(Ocorrencia(dados.registro, por: por, em: em))]
        case .cancelada: return []
        case .presente: throw .jaChegou
        case .saiu: throw .jaSaiu
        }
    }

    static func chegada(_ dados: Dados, por: String, em: Date) throws(Failure) -> [Event] {
        switch dados.situacao {
        case .esperada:
            let aPartirDe = dados.registro.chegadaPrevista.addingTimeInterval(-chegadaAntecipada)
            guard em >= aPartirDe else { throw .cedoDemais(aPartirDe: aPartirDe) }
            return [.chegou(Ocorrencia(dados.registro, por: por, em: em))]
        case .cancelada: throw .cancelada
        case .presente: throw .jaChegou
        case .saiu: throw .jaSaiu
        }
    }

    static func saida(_ dados: Dados, por: String, em: Date) throws(Failure) -> [Event] {
        switch dados.situacao {
        case .presente: return [.saiu(Ocorrencia(dados.registro, por: por, em: em))]
        case .esperada: throw .semChegada
        case .cancelada: throw .cancelada
        case .saiu: throw .jaSaiu
        }
    }

    static func apagar(_ dados: Dados, em: Date) throws(Failure) -> [Event] {
        if dados.dadosApagados { return [] }
        guard em >= dados.retencaoAte else { throw .retencaoNaoVenceu(em: dados.retencaoAte) }
        return [.dadosApagados(Ocorrencia(dados.registro, por: sistema, em: em))]
    }

    public static let decider = Decider<Command, State, Event, Failure>(
        initialState: .inexistente,
        decide: { command, state throws(Failure) in
            switch (command, state) {
            case (.registrar(let registro, let por, let em), .inexistente):
                return try registrar(registro, por: por, em: em)
            case (.registrar, .existente):
                throw .jaRegistrada
            case (_, .inexistente):
                throw .inexistente
            case (.cancelar(let por, let em), .existente(let dados)):
                return try cancelar(dados, por: por, em: em)
            case (.registrarChegada(let por, let em), .existente(let dados)):
                return try chegada(dados, por: por, em: em)
            case (.registrarSaida(let por, let em), .existente(let dados)):
                return try saida(dados, por: por, em: em)
            case (.apagarDados(let em), .existente(let dados)):
                return try apagar(dados, em: em)
            case (.apagarAgora(let por, let em), .existente(let dados)):
                return dados.dadosApagados ? [] : [.dadosApagados(Ocorrencia(dados.registro, por: por, em: em))]
            }
        },
        evolve: { state, event in
            switch (state, event) {
            case (.inexistente, .registrada(let e)):
                return .existente(Dados(registro: e.registro, situacao: .esperada, registradaEm: e.em, registradaPor: e.por, dadosApagados: false))
            case (.existente(var dados), .cancelada(let e)):
                dados.situacao = .cancelada
                dados.canceladaEm = e.em
                return .existente(dados)
            case (.existente(var dados), .chegou(let e)):
                dados.situacao = .presente
                dados.chegouEm = e.em
                dados.recebidaPor = e.por
                return .existente(dados)
            case (.existente(var dados), .saiu(let e)):
                dados.situacao = .saiu
                dados.saiuEm = e.em
                return .existente(dados)
            case (.existente(var dados), .dadosApagados):
                dados.dadosApagados = true
                return .existente(dados)
            default:
                return state
            }
        },
        isTerminal: { state in state.dados?.dadosApagados ?? false })
}
