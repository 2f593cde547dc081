public import Foundation

extension TabelaDePreco {
    /// One pricing rule of a space's table. Stored flat, the kind in `tipo`:
    /// `{"id":…, "tipo":"horario_de_pico", "dias":["segunda",…], "inicioMinutos":480, "fimMinutos":600, "multiplicadorBP":15000}`,
    /// `{"id":…, "tipo":"fim_de_semana", "multiplicadorBP":12000}`,
    /// `{"id":…, "tipo":"longa_duracao", "aPartirDeMinutos":480, "descontoBP":1000}`,
    /// `{"id":…, "tipo":"plano", "plano":"Mensal", "descontoBP":2000}`.
    public struct Regra: Codable, Sendable, Equatable {
        public enum Tipo: Sendable, Equatable {
            /// Minutes booked inside `[inicioMinutos, fimMinutos)` local time on `dias` cost
            /// `porHora × multiplicadorBP / 10_000` per hour (above 10_000 raises the price).
            case horarioDePico(dias: Set<DiaDaSemana>, inicioMinutos: Int, fimMinutos: Int, multiplicadorBP: Int64)
            /// The base price of Saturdays and Sundays is scaled by `multiplicadorBP / 10_000`.
            case fimDeSemana(multiplicadorBP: Int64)
            /// A discount on bookings that last at least `aPartirDeMinutos`; the largest applicable one wins.
            case longaDuracao(aPartirDeMinutos: Int, descontoBP: Int64)
            /// A discount for members on `plano` (compared case-insensitively).
            case plano(plano: String, descontoBP: Int64)
        }

        public let id: UUID
        public let tipo: Tipo

        public init(id: UUID, tipo: Tipo) {
            self.id = id
            self.tipo = tipo
        }

        public static let multiplicadores: ClosedRange<Int64> = 1...50_000
        public static let descontos: ClosedRange<Int64> = 1...10_000

        /// Why the rule cannot be added, in Portuguese; nil when it is valid.
        public var problema: String? {
            switch tipo {
            case .horarioDePico(let dias, let inicio, let fim, let multiplicador):
                if dias.isEmpty { return "o horário de pico precisa de ao menos um dia da semana" }
                guard 0 <= inicio, inicio < fim, fim <= 24 * 60 else {
                    return "a janela do horário de pico deve cumprir 0 ≤ início < fim ≤ 1440 minutos"
                }
                return Self.problema(multiplicador: multiplicador)
            case .fimDeSemana(let multiplicador):
                return Self.problema(multiplicador: multiplicador)
            case .longaDuracao(let aPartir, let desconto):
                if aPartir < 1 { return "a longa duração deve começar em ao menos 1 minuto" }
                return Self.problema(desconto: desconto)
            case .plano(let plano, let desconto):
                let nome = plano.trimmingCharacters(in: .whitespacesAndNewlines)
                if nome.isEmpty { return "o nome do plano não pode ser vazio" }
                if !TextoLivre.cabe(plano, maximo: 100) {
                    return "o nome do plano deve ter \(TextoLivre.limite(100)) e não começar com '\(TextoLivre.prefixoSelado)'"
                }
                return Self.problema(desconto: desconto)
            }
        }

        /// The rule as stored: plan names trimmed.
        public var normalizada: Regra {
            guard case .plano(let plano, let desconto) = tipo else { return self }
            return Regra(id: id, tipo: .plano(plano: plano.trimmingCharacters(in: .whitespacesAndNewlines), descontoBP: desconto))
        }

        private static func problema(multiplicador: Int64) -> String? {
            multiplicadores.contains(multiplicador) ? nil : "o multiplicador deve estar entre 1 e 50000 pontos-base"
        }

        private static func problema(desconto: Int64) -> String? {
            descontos.contains(desconto) ? nil : "o desconto deve estar entre 1 e 10000 pontos-base (até 100 %)"
        }

        private enum CodingKeys: String, CodingKey {
            case id, tipo, dias, inicioMinutos, fimMinutos, multiplicadorBP, aPartirDeMinutos, descontoBP, plano
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(UUID.self, forKey: .id)
            let kind = try container.decode(String.self, forKey: .tipo)
            switch kind {
            case "horario_de_pico":
                tipo = .horarioDePico(
                    dias: Set(try container.decode([DiaDaSemana].self, forKey: .dias)),
                    inicioMinutos: try container.decode(Int.self, forKey: .inicioMinutos),
                    fimMinutos: try container.decode(Int.self, forKey: .fimMinutos),
                    multiplicadorBP: try container.decode(Int64.self, forKey: .multiplicadorBP))
            case "fim_de_semana":
                tipo = .fimDeSemana(multiplicadorBP: try container.decode(Int64.self, forKey: .multiplicadorBP))
            case "longa_duracao":
                tipo = .longaDuracao(
                    aPartirDeMinutos: try container.decode(Int.self, forKey: .aPartirDeMinutos),
                    descontoBP: try container.decode(Int64.self, forKey: .descontoBP))
            case "plano":
                tipo = .plano(
                    plano: try container.decode(String.self, forKey: .plano),
                    descontoBP: try container.decode(Int64.self, forKey: .descontoBP))
            default:
                throw DecodingError.dataCorruptedError(forKey: .tipo, in: container, debugDescription: "unknown rule kind '\(kind)'")
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            // Lower case, as every other id the API shows (UUID's own encoding is upper case).
            try container.encode(id.lowercasedString, forKey: .id)
            switch tipo {
            case .horarioDePico(let dias, let inicio, let fim, let multiplicador):
                try container.encode("horario_de_pico", forKey: .tipo)
                // Week order, so the stored form does not depend on Set's iteration order.
                try container.encode(DiaDaSemana.allCases.filter(dias.contains), forKey: .dias)
                try container.encode(inicio, forKey: .inicioMinutos)
                try container.encode(fim, forKey: .fimMinutos)
                try container.encode(multiplicador, forKey: .multiplicadorBP)
            case .fimDeSemana(let multiplicador):
                try container.encode("fim_de_semana", forKey: .tipo)
                try container.encode(multiplicador, forKey: .multiplicadorBP)
            case .longaDuracao(let aPartir, let desconto):
                try container.encode("longa_duracao", forKey: .tipo)
                try container.encode(aPartir, forKey: .aPartirDeMinutos)
                try container.encode(desconto, forKey: .descontoBP)
            case .plano(let plano, let desconto):
                try container.encode("plano", forKey: .tipo)
                try container.encode(plano, forKey: .plano)
                try container.encode(desconto, forKey: .descontoBP)
            }
        }
    }
}
