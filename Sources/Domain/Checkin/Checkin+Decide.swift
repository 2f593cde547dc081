public import Foundation

extension Checkin {
    public struct Dados: Sendable, Equatable {
        public var liberacao: Liberado
        public var status: Status
        public var checkinEm: Date?
        public var checkoutEm: Date?
        public var atualizadoEm: Date

        public var reservaId: Reserva.ID { liberacao.reservaId }
        public var janela: Janela { liberacao.janela }
    }

    public enum State: Sendable, Equatable {
        case inexistente
        case existente(Dados)
    }

    /// Why a booking in `status` refuses a check-in, check-out, no-show or revocation.
    static func recusa(_ status: Status) -> Failure? {
        switch status {
        case .aguardando: nil
        case .presente, .encerrado: .jaRealizado
        case .noShow: .noShowRegistrado
        case .revogado: .revogado
        }
    }

    /// The check-in rules, in the order a member can act on: the booking's status, the code,
    /// then the window (a wrong code learns nothing about the window).
    static func checkin(_ dados: Dados, codigo: String, por: String, em: Date) throws(Failure) -> [Event] {
        if let failure = recusa(dados.status) { throw failure }
        guard Codigo(codigo) == dados.liberacao.codigo else { throw .codigoInvalido }
        guard em >= dados.janela.abreEm else { throw .cedoDemais(abreEm: dados.janela.abreEm) }
        guard em <= dados.janela.fechaEm else { throw .tardeDemais(fechaEm: dados.janela.fechaEm) }
        return [.realizado(Ocorrencia(dados.liberacao, por: por, em: em))]
    }

    static func checkout(_ dados: Dados, por: String, em: Date) throws(Failure) -> [Event] {
        switch dados.status {
        case .presente: return [.checkoutRealizado(Ocorrencia(dados.liberacao, por: por, em: em))]
        case .aguardando: throw .semCheckin
        case .encerrado: throw .checkoutJaRealizado
        case .noShow: throw .noShowRegistrado
        case .revogado: throw .revogado
        }
    }

    static func noShow(_ dados: Dados, em: Date) throws(Failure) -> [Event] {
        if dados.status == .noShow { return [] }
        if let failure = recusa(dados.status) { throw failure }
        guard em >= dados.janela.fechaEm else { throw .prazoNaoVenceu(fechaEm: dados.janela.fechaEm) }
        // Issued when the booking was already over: the member never had a code to use.
        if dados.liberacao.em >= dados.janela.fechaEm { return [] }
        return [.noShowRegistrado(Ocorrencia(dados.liberacao, por: sistema, em: em))]
    }

    static func revogar(_ dados: Dados, por: String, em: Date) throws(Failure) -> [Event] {
        if dados.status == .revogado { return [] }
        if let failure = recusa(dados.status) { throw failure }
        return [.revogado(Ocorrencia(dados.liberacao, por: por, em: em))]
    }

    static func remarcar(_ dados: Dados, intervalo: TimeRange, tolerancia: Tolerancia, em: Date) throws(Failure) -> [Event] {
        if let failure = recusa(dados.status) { throw failure }
        let atual = dados.liberacao
        if atual.inicio == intervalo.start, atual.fim == intervalo.end { return [] }
        let reserva = Reservada(
            reservaId: atual.reservaId, usuarioId: atual.usuarioId, espacoId: atual.espacoId, unidadeId: atual.unidadeId, intervalo: intervalo)
        return [.remarcado(Liberado(reserva, codigo: atual.codigo, janela: tolerancia.janela(para: intervalo, emitidoEm: em), em: em))]
    }

    public static let decider = Decider<Command, State, Event, Failure>(
        initialState: .inexistente,
        decide: { command, state throws(Failure) in
            switch (command, state) {
            case (.liberar(let reserva, let codigo, let tolerancia, let em), .inexistente):
                return [.liberado(Liberado(reserva, codigo: codigo, janela: tolerancia.janela(para: reserva.intervalo, emitidoEm: em), em: em))]
            case (.liberar, .existente):
                return []
            case (_, .inexistente):
                throw .naoLiberado
            case (.fazerCheckin(let codigo, let por, let em), .existente(let dados)):
                return try checkin(dados, codigo: codigo, por: por, em: em)
            case (.fazerCheckout(let por, let em), .existente(let dados)):
                return try checkout(dados, por: por, em: em)
            case (.registrarNoShow(let em), .existente(let dados)):
                return try noShow(dados, em: em)
            case (.revogar(let por, let em), .existente(let dados)):
                return try revogar(dados, por: por, em: em)
            case (.remarcar(let intervalo, let tolerancia, let em), .existente(let dados)):
                return try remarcar(dados, intervalo: intervalo, tolerancia: tolerancia, em: em)
            }
        },
        evolve: { state, event in
            switch (state, event) {
            case (.inexistente, .liberado(let e)):
                return .existente(Dados(liberacao: e, status: .aguardando, atualizadoEm: e.em))
            case (.existente(var dados), .realizado(let e)):
                dados.status = .presente
                dados.checkinEm = e.em
                dados.atualizadoEm = e.em
                return .existente(dados)
            case (.existente(var dados), .checkoutRealizado(let e)):
                dados.status = .encerrado
                dados.checkoutEm = e.em
                dados.atualizadoEm = e.em
                return .existente(dados)
            case (.existente(var dados), .noShowRegistrado(let e)):
                dados.status = .noShow
                dados.atualizadoEm = e.em
                return .existente(dados)
            case (.existente(var dados), .remarcado(let e)):
                dados.liberacao = e
                dados.atualizadoEm = e.em
                return .existente(dados)
            case (.existente(var dados), .revogado(let e)):
                dados.status = .revogado
                dados.atualizadoEm = e.em
                return .existente(dados)
            default:
                return state
            }
        },
        isTerminal: { state in
            if case .existente(let dados) = state { return dados.status.final }
            return false
        })
}
