extension Espaco {
    /// An opening range of one day, in minutes after local midnight: `[abre, fecha)`.
    /// 0 ≤ abre < fecha ≤ 1440; `fecha == 1440` is the next midnight.
    public struct Faixa: Codable, Sendable, Equatable, Hashable {
        public let abre: Int
        public let fecha: Int

        public init(abre: Int, fecha: Int) {
            self.abre = abre
            self.fecha = fecha
        }

        public var valida: Bool { 0 <= abre && abre < fecha && fecha <= 24 * 60 }
    }

    /// The weekly opening hours on the unit's wall clock. A closed day has no entry.
    ///
    /// Only the validating initialiser (and decoding, which uses it) builds one, so every value
    /// is canonical: each day's ranges valid, sorted, not overlapping, touching ranges merged
    /// (`08–12` + `12–14` is stored as `08–14`) and closed days absent, so equal hours compare
    /// equal. Stored as `{"segunda":[{"abre":480,"fecha":1200}],…}`.
    public struct HorarioSemanal: Codable, Sendable, Equatable {
        public enum Invalido: Error, Equatable, Sendable {
            /// Outside 0…1440 or not opening before it closes.
            case faixaInvalida(DiaDaSemana, Faixa)
            /// Two ranges of the same day share some minute.
            case faixasSobrepostas(DiaDaSemana)
            /// A stored key that is not a day name.
            case diaDesconhecido(String)
        }

        public let faixas: [DiaDaSemana: [Faixa]]

        /// Validates and normalises: sorts each day, merges touching ranges, drops closed days.
        public init(_ faixas: [DiaDaSemana: [Faixa]]) throws(Invalido) {
            var normalizadas: [DiaDaSemana: [Faixa]] = [:]
            for dia in DiaDaSemana.allCases {
                let doDia = (faixas[dia] ?? []).sorted { ($0.abre, $0.fecha) < ($1.abre, $1.fecha) }
                var resultado: [Faixa] = []
                for faixa in doDia {
                    guard faixa.valida else { throw .faixaInvalida(dia, faixa) }
                    if let ultima = resultado.last {
                        guard faixa.abre >= ultima.fecha else { throw .faixasSobrepostas(dia) }
                        if faixa.abre == ultima.fecha {
                            resultado[resultado.count - 1] = Faixa(abre: ultima.abre, fecha: faixa.fecha)
                            continue
                        }
                    }
                    resultado.append(faixa)
                }
                if !resultado.isEmpty { normalizadas[dia] = resultado }
            }
            self.faixas = normalizadas
        }

        private init(validadas: [DiaDaSemana: [Faixa]]) { self.faixas = validadas }

        /// Monday to Friday 08:00–20:00, Saturday 09:00–13:00, Sunday closed.
        public static let padrao: HorarioSemanal = {
            let util = [Faixa(abre: 8 * 60, fecha: 20 * 60)]
            return HorarioSemanal(validadas: [
                .segunda: util, .terca: util, .quarta: util, .quinta: util, .sexta: util,
                .sabado: [Faixa(abre: 9 * 60, fecha: 13 * 60)],
            ])
        }()

        /// Never open.
        public static let fechado = HorarioSemanal(validadas: [:])

        /// That day's ranges, sorted; empty when closed.
        public func faixas(de dia: DiaDaSemana) -> [Faixa] { faixas[dia] ?? [] }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            let porNome = try container.decode([String: [Faixa]].self)
            var faixas: [DiaDaSemana: [Faixa]] = [:]
            do {
                for (nome, doDia) in porNome {
                    guard let dia = DiaDaSemana(rawValue: nome) else { throw Invalido.diaDesconhecido(nome) }
                    faixas[dia] = doDia
                }
                try self.init(faixas)
            } catch {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: decoder.codingPath, debugDescription: "invalid opening hours: \(error)", underlyingError: error))
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(Dictionary(uniqueKeysWithValues: faixas.map { ($0.key.rawValue, $0.value) }))
        }
    }
}
