public import Foundation

/// A booking (`reserva-<id>`): solicitada (holding its slot) → confirmada (paid) → concluída;
/// or cancelada / expirada. The price the member accepted is recorded when it is requested and
/// never changes. The slot itself is held by the ``Agenda`` streams of the days it touches.
public enum Reserva {
    public typealias ID = Identifier<Reserva>

    public enum Status: String, Codable, Sendable, CaseIterable {
        case solicitada, confirmada, cancelada, expirada, concluida

        /// Still holding its slot.
        public var ativa: Bool { self == .solicitada || self == .confirmada }
    }

    /// One line of the accepted quote (discounts negative).
    public struct LinhaDePreco: Codable, Sendable, Equatable {
        public let codigo: String
        public let descricao: String
        public let valor: Money

        public init(codigo: String, descricao: String, valor: Money) {
            self.codigo = codigo
            self.descricao = descricao
            self.valor = valor
        }
    }

    /// What a booking request needs to know about its space, looked up by the handler.
    public struct Condicoes: Sendable, Equatable {
        public var ativo: Bool
        /// The whole interval lies inside opening hours and outside blackouts.
        public var aberto: Bool
        public var duracaoMinimaMinutos: Int
        public var duracaoMaximaMinutos: Int
        public var antecedenciaMinimaMinutos: Int
        public var antecedenciaMaximaDias: Int

        public init(
            ativo: Bool, aberto: Bool, duracaoMinimaMinutos: Int, duracaoMaximaMinutos: Int,
            antecedenciaMinimaMinutos: Int, antecedenciaMaximaDias: Int
        ) {
            self.ativo = ativo
            self.aberto = aberto
            self.duracaoMinimaMinutos = duracaoMinimaMinutos
            self.duracaoMaximaMinutos = duracaoMaximaMinutos
            self.antecedenciaMinimaMinutos = antecedenciaMinimaMinutos
            self.antecedenciaMaximaDias = antecedenciaMaximaDias
        }

        /// The space's state and rules for `intervalo` (`fuso`: its unit's time zone).
        public init(espaco: Espaco.Dados, intervalo: TimeRange, fuso: TimeZone) {
            let regras = espaco.regras
            self.init(
                ativo: espaco.ativo, aberto: espaco.permite(intervalo, fuso: fuso),
                duracaoMinimaMinutos: regras.duracaoMinimaMinutos, duracaoMaximaMinutos: regras.duracaoMaximaMinutos,
                antecedenciaMinimaMinutos: regras.antecedenciaMinimaMinutos, antecedenciaMaximaDias: regras.antecedenciaMaximaDias)
        }
    }

    /// How the member chose to pay: PIX unless they said otherwise. A card is named by the
    /// provider's token for it, never by its number.
    public struct FormaDePagamento: Codable, Sendable, Equatable {
        public let metodo: MetodoDePagamento
        public let cartaoToken: String?

        public init(metodo: MetodoDePagamento, cartaoToken: String? = nil) {
            self.metodo = metodo
            self.cartaoToken = cartaoToken
        }
    }

    /// The member's credits a booking spent (``Carteira``), recorded with it: what comes back
    /// when it ends early.
    public struct Creditos: Codable, Sendable, Equatable {
        public let titular: String
        public let minutos: Int64
        public let centavos: Int64
        /// The part of them the member's company's pool pays, as the quote counted (nil: none).
        public let daEmpresa: Cotacao.Creditos.Parte?
        /// The holder of that pool (`empresa-<id>`): a cancellation gives its part back there
        /// even after the member left the company (nil: no part, or a booking from before this
        /// was recorded, whose pool is the member's company at the time of the cancellation).
        public let empresa: String?

        public init(titular: String, minutos: Int64, centavos: Int64, daEmpresa: Cotacao.Creditos.Parte? = nil, empresa: String? = nil) {
            self.titular = titular
            self.minutos = minutos
            self.centavos = centavos
            self.daEmpresa = daEmpresa
            self.empresa = daEmpresa == nil ? nil : empresa
        }
    }

    /// The recurring booking (``SerieDeReservas``) a booking is an occurrence of.
    public struct NaSerie: Codable, Sendable, Equatable {
        public let serieId: SerieDeReservas.ID
        /// 1 for the first occurrence.
        public let numero: Int

        public init(serieId: SerieDeReservas.ID, numero: Int) {
            self.serieId = serieId
            self.numero = numero
        }
    }

    public struct Pedido: Sendable, Equatable {
        public let id: ID
        public let espacoId: UUID
        public let unidadeId: UUID
        public let usuarioId: String
        public let intervalo: TimeRange
        /// The local days the interval touches (its agenda streams).
        public let dias: [DataLocal]
        public let total: Money
        public let linhas: [LinhaDePreco]
        public let cupom: String?
        public let expiraEm: Date
        public let pagamento: FormaDePagamento?
        /// The unit's cancellation policy as the member books: the terms the booking keeps.
        public let politica: Unidade.PoliticaDeCancelamento?
        /// The member's credits it spends (in the same append as its slot).
        public let creditos: Creditos?
        /// The series it is an occurrence of (nil: a booking of its own).
        public let serie: NaSerie?

        public init(
            id: ID, espacoId: UUID, unidadeId: UUID, usuarioId: String, intervalo: TimeRange, dias: [DataLocal],
            total: Money, linhas: [LinhaDePreco], cupom: String?, expiraEm: Date, pagamento: FormaDePagamento? = nil,
            politica: Unidade.PoliticaDeCancelamento? = nil, creditos: Creditos? = nil, serie: NaSerie? = nil
        ) {
            self.id = id
            self.espacoId = espacoId
            self.unidadeId = unidadeId
            self.usuarioId = usuarioId
            self.intervalo = intervalo
            self.dias = dias
            self.total = total
            self.linhas = linhas
            self.cupom = cupom
            self.expiraEm = expiraEm
            self.pagamento = pagamento
            self.politica = politica
            self.creditos = creditos
            self.serie = serie
        }
    }

    public enum Command: Sendable, Equatable {
        case solicitar(Pedido, condicoes: Condicoes, em: Date)
        case confirmar(pagamentoId: String?, em: Date)
        /// `pago`: what the booking's payment holds now (zero when it was never paid).
        /// `isento`: no fee whatever the terms (the operator cancels a member's booking).
        /// `daSerie`: one of the bookings a cancellation of their series cancels (``Cancelada/daSerie``).
        case cancelar(
            por: String, motivo: String?, politica: Unidade.PoliticaDeCancelamento, pago: Money, isento: Bool = false, em: Date,
            daSerie: Bool = false)
        /// The hold ran out without payment.
        case expirar(em: Date)
        case concluir(em: Date)
        /// Moves a confirmed booking to `para` (its local `dias`), of the same length, before it
        /// starts (ADR 0021). The member only while cancelling would cost nothing under the
        /// booking's terms (`politica`: the unit's now, for bookings that predate that record);
        /// an operator (`livre`) until the start. The new time is held to the space's rules
        /// (`condicoes`), as a booking is. Moving to the time it holds is a no-op.
        case remarcar(
            para: TimeRange, dias: [DataLocal], condicoes: Condicoes, por: String, politica: Unidade.PoliticaDeCancelamento, livre: Bool, em: Date,
            daSerie: Bool = false)
    }

    public enum Failure: Error, Equatable, Sendable {
        case jaExiste
        case naoEncontrada
        case espacoInativo
        /// Outside opening hours or inside a blackout.
        case fechado
        case noPassado
        case antecedenciaMinima(minutos: Int)
        case antecedenciaMaxima(dias: Int)
        case duracaoCurta(minimoMinutos: Int)
        case duracaoLonga(maximoMinutos: Int)
        /// The command does not apply in this status (confirming a cancelled booking, …).
        case transicaoInvalida(status: Status)
        case jaIniciada
        case aindaNaoExpirou(expiraEm: Date)
        case aindaNaoTerminou(fim: Date)
        /// Only a confirmed (paid) booking moves: an unpaid hold is cancelled at no cost and booked again.
        case naoConfirmada
        /// A move keeps the booking's length (`minutos`): its price and credits are for that.
        case duracaoDiferente(minutos: Int)
        /// The member's free window to move it closed at `ate` (cancelling now would keep a fee).
        case foraDoPrazoDeRemarcacao(ate: Date)
    }
}
