public import Foundation

extension Reserva {
    public struct Dados: Sendable, Equatable {
        public var solicitacao: Solicitada
        public var status: Status
        public var pagamentoId: String?
        public var cancelamento: Cancelada?
        public var atualizadaEm: Date
        public var confirmadaEm: Date?
        /// How many times it was moved (``Remarcada``), and when last.
        public var remarcacoes = 0
        public var remarcadaEm: Date?
        /// The time it was requested for (`solicitacao` holds the time it holds now): what a
        /// retry of the request under its `Idempotency-Key` is compared with.
        public var intervaloSolicitado: TimeRange

        public var id: ID { solicitacao.reservaId }
        public var intervalo: TimeRange { solicitacao.intervalo }

        init(solicitacao: Solicitada, status: Status, atualizadaEm: Date) {
            self.solicitacao = solicitacao
            self.status = status
            self.atualizadaEm = atualizadaEm
            self.intervaloSolicitado = solicitacao.intervalo
        }
    }

    public enum State: Sendable, Equatable {
        case inexistente
        case existente(Dados)
    }

    /// Checks a request against the space's rules, in the order a member can act on:
    /// inactive space, past, lead time, duration, opening hours.
    static func validar(_ pedido: Pedido, _ condicoes: Condicoes, em: Date) throws(Failure) {
        try validar(pedido.intervalo, condicoes, em: em)
    }

    /// The same rules for an interval alone: what a quote checks, so that it never prices a
    /// booking that would be refused.
    public static func validar(_ intervalo: TimeRange, _ condicoes: Condicoes, em: Date) throws(Failure) {
        guard condicoes.ativo else { throw .espacoInativo }
        guard intervalo.start > em else { throw .noPassado }
        let antecedencia = intervalo.start.timeIntervalSince(em)
        guard antecedencia >= Double(condicoes.antecedenciaMinimaMinutos) * 60 else {
            throw .antecedenciaMinima(minutos: condicoes.antecedenciaMinimaMinutos)
        }
        guard antecedencia <= Double(condicoes.antecedenciaMaximaDias) * 86_400 else {
            throw .antecedenciaMaxima(dias: condicoes.antecedenciaMaximaDias)
        }
        let minutos = intervalo.duration / 60
        guard minutos >= Double(condicoes.duracaoMinimaMinutos) else {
            throw .duracaoCurta(minimoMinutos: condicoes.duracaoMinimaMinutos)
        }
        guard minutos <= Double(condicoes.duracaoMaximaMinutos) else {
            throw .duracaoLonga(maximoMinutos: condicoes.duracaoMaximaMinutos)
        }
        guard condicoes.aberto else { throw .fechado }
    }

    /// The fee and refund of a cancellation at `em`. They apply to what the booking's payment
    /// actually holds (`pago`, read from the payment, never assumed from the booking's status):
    /// an admin can confirm a booking nobody paid for, and a refund of money never received
    /// would be promised to the member. Nothing is due before confirmation; a confirmed booking
    /// follows the policy it was booked under (`politica`, the unit's policy now, only for
    /// bookings that predate that record), unless `isento`.
    public static func reembolso(
        _ dados: Dados, pago: Money, politica: Unidade.PoliticaDeCancelamento, isento: Bool = false, em: Date
    ) -> (pago: Money, multa: Money, reembolso: Money) {
        guard dados.status == .confirmada, pago > .zero else { return (.zero, .zero, .zero) }
        let (multa, devolvido) = termos(dados, politica, isento: isento).reembolso(total: pago, inicio: dados.intervalo.start, canceladaEm: em)
        return (pago, multa, devolvido)
    }

    /// The share (basis points) of the credits a booking spent that come back when `command`
    /// ends it: all of them when it expires, is cancelled before confirmation or by an operator
    /// without a fee; under its cancellation policy otherwise, as money is (a late cancellation
    /// keeps `multaBP` of them).
    public static func devolucaoDeCreditos(_ dados: Dados, _ command: Command) -> Int64 {
        guard case .cancelar(_, _, let politica, _, let isento, let em, _) = command, dados.status == .confirmada else { return 10_000 }
        return 10_000 - termos(dados, politica, isento: isento).multaBP(inicio: dados.intervalo.start, canceladaEm: em)
    }

    /// The share (basis points) of the credits a booking spent that come back when nobody came:
    /// what the unit's policy said when the member booked (none for bookings that predate that
    /// record, as before the policy had a say).
    public static func devolucaoNoNoShow(_ dados: Dados) -> Int64 {
        dados.solicitacao.politica?.devolucaoNoShow ?? 0
    }

    /// Until when the member may move the booking themselves: while cancelling it would cost
    /// nothing under its terms (nil: at any time before the start, a policy without a fee).
    public static func prazoDeRemarcacao(_ dados: Dados, politica: Unidade.PoliticaDeCancelamento) -> Date? {
        let termos = termos(dados, politica, isento: false)
        guard termos.multaBP > 0 else { return nil }
        return dados.intervalo.start.addingTimeInterval(-TimeInterval(termos.horasSemMulta) * 3_600)
    }

    static func remarcar(
        _ dados: Dados, para: TimeRange, dias: [DataLocal], condicoes: Condicoes, por: String, politica: Unidade.PoliticaDeCancelamento,
        livre: Bool, em: Date, daSerie: Bool = false
    ) throws(Failure) -> [Event] {
        switch dados.status {
        case .confirmada: break
        case .solicitada: throw .naoConfirmada
        default: throw .transicaoInvalida(status: dados.status)
        }
        guard dados.intervalo.start > em else { throw .jaIniciada }
        if para == dados.intervalo { return [] }
        let minutos = Int(dados.intervalo.duration / 60)
        guard para.duration == dados.intervalo.duration else { throw .duracaoDiferente(minutos: minutos) }
        if !livre, let ate = prazoDeRemarcacao(dados, politica: politica), em > ate { throw .foraDoPrazoDeRemarcacao(ate: ate) }
        try validar(para, condicoes, em: em)
        let s = dados.solicitacao
        return [
            .remarcada(
                Remarcada(
                    reservaId: s.reservaId, espacoId: s.espacoId, unidadeId: s.unidadeId, usuarioId: s.usuarioId, de: s.intervalo,
                    diasAnteriores: s.dias, para: para, dias: dias, por: por, em: em, daSerie: daSerie ? true : nil))
        ]
    }

    /// The terms a cancellation of a confirmed booking follows: its own (the unit's now, for
    /// bookings that predate that record), none when `isento`.
    private static func termos(_ dados: Dados, _ politica: Unidade.PoliticaDeCancelamento, isento: Bool) -> Unidade.PoliticaDeCancelamento {
        isento ? .semMulta : dados.solicitacao.politica ?? politica
    }

    public static let decider = Decider<Command, State, Event, Failure>(
        initialState: .inexistente,
        decide: { command, state throws(Failure) in
            switch (command, state) {
            case (.solicitar(let pedido, let condicoes, let em), .inexistente):
                try validar(pedido, condicoes, em: em)
                return [.solicitada(Solicitada(pedido, em: em))]
            case (.solicitar, .existente):
                throw .jaExiste
            case (_, .inexistente):
                throw .naoEncontrada
            case (.confirmar(let pagamento, let em), .existente(let dados)):
                if dados.status == .confirmada, dados.pagamentoId == pagamento { return [] }
                guard dados.status == .solicitada else { throw .transicaoInvalida(status: dados.status) }
                return [.confirmada(Confirmada(reservaId: dados.id, pagamentoId: pagamento, em: em))]
            case (.cancelar(let por, let motivo, let politica, let pago, let isento, let em, let daSerie), .existente(let dados)):
                guard dados.status.ativa else { throw .transicaoInvalida(status: dados.status) }
                if dados.status == .confirmada, dados.intervalo.start <= em { throw .jaIniciada }
                let valores = reembolso(dados, pago: pago, politica: politica, isento: isento, em: em)
                return [
                    .cancelada(
                        Cancelada(
                            reservaId: dados.id, por: por, motivo: motivo, pago: valores.pago, multa: valores.multa,
                            reembolso: valores.reembolso, em: em, daSerie: daSerie ? true : nil))
                ]
            case (.expirar(let em), .existente(let dados)):
                guard dados.status == .solicitada else { throw .transicaoInvalida(status: dados.status) }
                guard em >= dados.solicitacao.expiraEm else { throw .aindaNaoExpirou(expiraEm: dados.solicitacao.expiraEm) }
                return [.expirada(Expirada(reservaId: dados.id, em: em))]
            case (.concluir(let em), .existente(let dados)):
                guard dados.status == .confirmada else { throw .transicaoInvalida(status: dados.status) }
                guard em >= dados.intervalo.end else { throw .aindaNaoTerminou(fim: dados.intervalo.end) }
                return [.concluida(Concluida(reservaId: dados.id, em: em))]
            case (.remarcar(let para, let dias, let condicoes, let por, let politica, let livre, let em, let daSerie), .existente(let dados)):
                return try remarcar(
                    dados, para: para, dias: dias, condicoes: condicoes, por: por, politica: politica, livre: livre, em: em, daSerie: daSerie)
            }
        },
        evolve: { state, event in
            switch (state, event) {
            case (.inexistente, .solicitada(let e)):
                return .existente(Dados(solicitacao: e, status: .solicitada, atualizadaEm: e.em))
            case (.existente(var dados), .confirmada(let e)):
                dados.status = .confirmada
                dados.pagamentoId = e.pagamentoId
                dados.confirmadaEm = e.em
                dados.atualizadaEm = e.em
                return .existente(dados)
            case (.existente(var dados), .cancelada(let e)):
                dados.status = .cancelada
                dados.cancelamento = e
                dados.atualizadaEm = e.em
                return .existente(dados)
            case (.existente(var dados), .expirada(let e)):
                dados.status = .expirada
                dados.atualizadaEm = e.em
                return .existente(dados)
            case (.existente(var dados), .concluida(let e)):
                dados.status = .concluida
                dados.atualizadaEm = e.em
                return .existente(dados)
            case (.existente(var dados), .remarcada(let e)):
                dados.solicitacao.intervalo = e.para
                dados.solicitacao.dias = e.dias
                dados.remarcacoes += 1
                dados.remarcadaEm = e.em
                dados.atualizadaEm = e.em
                return .existente(dados)
            default:
                return state
            }
        },
        isTerminal: { state in
            if case .existente(let dados) = state { return !dados.status.ativa }
            return false
        })
}
