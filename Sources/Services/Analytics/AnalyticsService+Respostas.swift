public import Domain
import Foundation

extension AnalyticsService {
    // MARK: Answers

    /// `{de, ate, espacos: [{espacoId, nome, tipo, unidadeId, horasReservadas, horasLocadas,
    /// horasAbertas, ocupacao?, dias: [{data, horasReservadas, horasLocadas, horasAbertas,
    /// ocupacao?}]}]}`.
    public struct OcupacaoPorDia: Codable, Sendable, Equatable {
        public struct Dia: Codable, Sendable, Equatable {
            public let data: String
            public let horasReservadas: Double
            /// Open hours a lease held (ADR 0016).
            public let horasLocadas: Double
            public let horasAbertas: Double
            /// (Booked + let) / open; absent when the space was closed.
            public let ocupacao: Double?
        }

        public struct Espaco: Codable, Sendable, Equatable {
            public let espacoId: String
            public let nome: String
            public let tipo: String
            public let unidadeId: String
            public let horasReservadas: Double
            public let horasLocadas: Double
            public let horasAbertas: Double
            public let ocupacao: Double?
            public let dias: [Dia]
        }

        public let de: String
        public let ate: String
        public let espacos: [Espaco]
    }

    /// `{espacos: [{espacoId, nome, tipo, unidadeId, de?, ate?, horas: [Hora × 168]}],
    /// total: [Hora × 168]}`; hour 0 is domingo 00:00–01:00 local time.
    public struct OcupacaoPorHoraDaSemana: Codable, Sendable, Equatable {
        public struct Hora: Codable, Sendable, Equatable {
            /// 0…167.
            public let hora: Int
            public let diaDaSemana: String
            public let horaDoDia: Int
            public let horasReservadas: Double
            public let horasLocadas: Double
            public let horasAbertas: Double
            public let ocupacao: Double?
        }

        public struct Espaco: Codable, Sendable, Equatable {
            public let espacoId: String
            public let nome: String
            public let tipo: String
            public let unidadeId: String
            /// The period counted: from the space's creation to the last day a confirmed
            /// booking or a lease touched; absent when it has neither.
            public let de: String?
            public let ate: String?
            public let horas: [Hora]
        }

        public let espacos: [Espaco]
        /// All the spaces above together.
        public let total: [Hora]
    }

    /// `{de, ate, tipos: [{tipo, pagamentos, reembolsos, receita, quantidadePagamentos,
    /// quantidadeReembolsos}], total: {…}}`, highest revenue first.
    public struct ReceitaPorTipo: Codable, Sendable, Equatable {
        public struct Linha: Codable, Sendable, Equatable {
            public let tipo: String
            public let pagamentos: Money
            public let reembolsos: Money
            /// Payments − refunds.
            public let receita: Money
            public let quantidadePagamentos: Int
            public let quantidadeReembolsos: Int
        }

        public struct Total: Codable, Sendable, Equatable {
            public let pagamentos: Money
            public let reembolsos: Money
            public let receita: Money
            public let quantidadePagamentos: Int
            public let quantidadeReembolsos: Int
        }

        public let de: String
        public let ate: String
        public let tipos: [Linha]
        public let total: Total
    }

    /// Platform-wide counters and rates.
    public struct Indicadores: Codable, Sendable, Equatable {
        public let reservasSolicitadas: Int
        public let reservasConfirmadas: Int
        public let reservasCanceladas: Int
        public let canceladasAposConfirmacao: Int
        public let reservasExpiradas: Int
        /// Holds released because their payment was declined: not cancellations.
        public let reservasRecusadas: Int
        public let checkins: Int
        public let noShows: Int
        /// No-shows / (no-shows + check-ins).
        public let taxaDeNoShow: Double?
        /// Cancelled / requested.
        public let taxaDeCancelamento: Double?
        /// Mean of (start − requested at) over confirmed bookings.
        public let antecedenciaMediaHoras: Double?
        public let pagamentos: Money
        public let reembolsos: Money
        public let receita: Money
        public let quantidadePagamentos: Int
        public let quantidadeReembolsos: Int
    }

    /// `{porHoras: [Membro], porReceita: [Membro]}`, best first, members with nothing left out.
    public struct TopMembros: Codable, Sendable, Equatable {
        public struct Membro: Codable, Sendable, Equatable {
            public let usuarioId: String
            /// Confirmed bookings not cancelled afterwards.
            public let horasConfirmadas: Double
            public let reservasConfirmadas: Int
            /// Payments − refunds.
            public let receita: Money
        }

        public let porHoras: [Membro]
        public let porReceita: [Membro]
    }
}
