public import Foundation

extension Pagamento {
    public struct Reembolso: Sendable, Equatable {
        public let reembolsoId: UUID
        public let valor: Money
        public var concluido: Bool
    }

    public struct Dados: Sendable, Equatable {
        public var inicio: Iniciado
        public var status: Status
        public var confirmadoEm: Date?
        public var motivo: String?
        public var reembolsos: [Reembolso]
        public var atualizadoEm: Date

        public var id: ID { inicio.pagamentoId }
        public var valor: Money { inicio.valor }
        /// Refunds asked for so far (concluded or not).
        public var reembolsado: Money { reembolsos.reduce(.zero) { $0 + $1.valor } }
        /// What can still be given back.
        public var disponivel: Money { status == .confirmado ? valor - reembolsado : .zero }
    }

    public enum State: Sendable, Equatable {
        case inexistente
        case existente(Dados)
    }

    public static let decider = Decider<Command, State, Event, Failure>(
        initialState: .inexistente,
        decide: { command, state throws(Failure) in
            switch (command, state) {
            case (.iniciar(let pedido, let cobranca, let metodo, let em), .inexistente):
                let iniciado = Iniciado(
                    pagamentoId: pedido.pagamentoId, reservaId: pedido.reservaId, usuarioId: pedido.usuarioId, unidadeId: pedido.unidadeId,
                    espacoId: pedido.espacoId, metodo: cobranca?.metodo ?? metodo, valor: pedido.valor, cobrancaId: cobranca?.cobrancaId,
                    pix: cobranca?.pix, boleto: cobranca?.boleto, expiraEm: pedido.expiraEm, em: em)
                guard cobranca == nil else { return [.iniciado(iniciado)] }
                // Nothing to charge (a full discount): paid as soon as it starts.
                return [.iniciado(iniciado), .confirmado(confirmado(iniciado, em: em))]
            case (.recusarSemCobrar(let pedido, let metodo, let motivo, let em), .inexistente):
                let iniciado = Iniciado(
                    pagamentoId: pedido.pagamentoId, reservaId: pedido.reservaId, usuarioId: pedido.usuarioId, unidadeId: pedido.unidadeId,
                    espacoId: pedido.espacoId, metodo: metodo, valor: pedido.valor, cobrancaId: nil, pix: nil, boleto: nil,
                    expiraEm: pedido.expiraEm, em: em)
                return [
                    .iniciado(iniciado), .recusado(Recusado(pagamentoId: pedido.pagamentoId, reservaId: pedido.reservaId, motivo: motivo, em: em)),
                ]
            case (.iniciar, .existente), (.recusarSemCobrar, .existente):
                throw .jaIniciado
            case (_, .inexistente):
                throw .naoEncontrado
            case (.confirmar(let cobrancaId, let valor, let em), .existente(let dados)):
                guard cobrancaId == dados.inicio.cobrancaId else { throw .cobrancaDiferente }
                guard valor == dados.valor else { throw .valorDivergente(esperado: dados.valor, recebido: valor) }
                switch dados.status {
                case .confirmado: return []
                // A charge paid after its booking ended (withdrawn, or declined and then paid
                // after all: providers do send a late "paid") is recorded, for the money
                // arrived; the service refunds it right away.
                case .pendente, .cancelado, .recusado: return [.confirmado(confirmado(dados.inicio, em: em))]
                }
            case (.recusar(let cobrancaId, let motivo, let em), .existente(let dados)):
                guard cobrancaId == dados.inicio.cobrancaId else { throw .cobrancaDiferente }
                switch dados.status {
                case .pendente:
                    return [.recusado(Recusado(pagamentoId: dados.id, reservaId: dados.inicio.reservaId, motivo: motivo, em: em))]
                case .recusado, .cancelado: return []
                case .confirmado: throw .transicaoInvalida(status: .confirmado)
                }
            case (.cancelar(let motivo, let em), .existente(let dados)):
                switch dados.status {
                case .pendente:
                    return [.cancelado(Cancelado(pagamentoId: dados.id, reservaId: dados.inicio.reservaId, motivo: motivo, em: em))]
                case .cancelado, .recusado: return []
                case .confirmado: throw .transicaoInvalida(status: .confirmado)
                }
            case (.reembolsar(let reembolsoId, let valor, let motivo, let em), .existente(let dados)):
                guard dados.status == .confirmado else { throw .transicaoInvalida(status: dados.status) }
                if dados.reembolsos.contains(where: { $0.reembolsoId == reembolsoId }) { return [] }
                let quanto = valor ?? dados.disponivel
                guard quanto <= dados.disponivel else { throw .reembolsoExcedente(disponivel: dados.disponivel) }
                guard quanto > .zero else { return [] }
                return [
                    .reembolsoSolicitado(
                        ReembolsoSolicitado(
                            pagamentoId: dados.id, reservaId: dados.inicio.reservaId, reembolsoId: reembolsoId, cobrancaId: dados.inicio.cobrancaId,
                            valor: quanto, motivo: motivo, em: em))
                ]
            case (.concluirReembolso(let reembolsoId, let em), .existente(let dados)):
                guard let reembolso = dados.reembolsos.first(where: { $0.reembolsoId == reembolsoId }) else { throw .reembolsoDesconhecido }
                guard !reembolso.concluido else { return [] }
                let inicio = dados.inicio
                return [
                    .reembolsoConcluido(
                        ReembolsoConcluido(
                            pagamentoId: dados.id, reservaId: inicio.reservaId, reembolsoId: reembolsoId, usuarioId: inicio.usuarioId,
                            unidadeId: inicio.unidadeId, espacoId: inicio.espacoId, valor: reembolso.valor, em: em))
                ]
            }
        },
        evolve: { state, event in
            switch (state, event) {
            case (.inexistente, .iniciado(let e)):
                return .existente(Dados(inicio: e, status: .pendente, reembolsos: [], atualizadoEm: e.em))
            case (.existente(var dados), .confirmado(let e)):
                dados.status = .confirmado
                dados.confirmadoEm = e.em
                dados.atualizadoEm = e.em
                return .existente(dados)
            case (.existente(var dados), .recusado(let e)):
                dados.status = .recusado
                dados.motivo = e.motivo
                dados.atualizadoEm = e.em
                return .existente(dados)
            case (.existente(var dados), .cancelado(let e)):
                dados.status = .cancelado
                dados.motivo = e.motivo
                dados.atualizadoEm = e.em
                return .existente(dados)
            case (.existente(var dados), .reembolsoSolicitado(let e)):
                dados.reembolsos.append(Reembolso(reembolsoId: e.reembolsoId, valor: e.valor, concluido: false))
                dados.atualizadoEm = e.em
                return .existente(dados)
            case (.existente(var dados), .reembolsoConcluido(let e)):
                if let index = dados.reembolsos.firstIndex(where: { $0.reembolsoId == e.reembolsoId }) {
                    dados.reembolsos[index].concluido = true
                }
                dados.atualizadoEm = e.em
                return .existente(dados)
            default:
                return state
            }
        },
        isTerminal: { _ in false })

    static func confirmado(_ e: Iniciado, em: Date) -> Confirmado {
        Confirmado(
            pagamentoId: e.pagamentoId, reservaId: e.reservaId, usuarioId: e.usuarioId, unidadeId: e.unidadeId, espacoId: e.espacoId,
            metodo: e.metodo, valor: e.valor, cobrancaId: e.cobrancaId, em: em)
    }
}
