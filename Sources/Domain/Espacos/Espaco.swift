public import Foundation

/// A bookable space of a unit: a hot desk, a fixed desk, a private office, a meeting room or
/// an auditorium, with its opening hours, blackouts and booking rules.
public enum Espaco {}

extension Espaco {
    public typealias ID = Identifier<Espaco>

    public enum Tipo: String, Codable, Sendable, CaseIterable {
        case estacaoCompartilhada = "estacao_compartilhada"
        case mesaFixa = "mesa_fixa"
        case salaPrivativa = "sala_privativa"
        case salaReuniao = "sala_reuniao"
        case auditorio

        /// A shared space takes up to `capacidade` overlapping bookings; any other type takes
        /// one booking at a time (its capacity counts people, not bookings).
        public var compartilhado: Bool { self == .estacaoCompartilhada }
    }

    public struct Foto: Codable, Sendable, Equatable {
        /// `http://` or `https://`.
        public let url: String
        public let legenda: String?

        public init(url: String, legenda: String? = nil) {
            self.url = url
            self.legenda = legenda
        }
    }

    /// Limits on one booking's length and on how far ahead it is made.
    public struct RegrasDeReserva: Codable, Sendable, Equatable {
        public let duracaoMinimaMinutos: Int
        public let duracaoMaximaMinutos: Int
        /// How long before the start a booking must be made at the latest.
        public let antecedenciaMinimaMinutos: Int
        /// How far ahead a booking may start, in days of 24 h.
        public let antecedenciaMaximaDias: Int

        public init(
            duracaoMinimaMinutos: Int = 30, duracaoMaximaMinutos: Int = 7 * 24 * 60,
            antecedenciaMinimaMinutos: Int = 0, antecedenciaMaximaDias: Int = 180
        ) {
            self.duracaoMinimaMinutos = duracaoMinimaMinutos
            self.duracaoMaximaMinutos = duracaoMaximaMinutos
            self.antecedenciaMinimaMinutos = antecedenciaMinimaMinutos
            self.antecedenciaMaximaDias = antecedenciaMaximaDias
        }

        /// 30 min to 7 days, bookable from now up to 180 days ahead.
        public static let padrao = RegrasDeReserva()

        /// A year, in minutes: the longest booking, and the most notice a space may ask for.
        public static let minutosMaximos = 366 * 24 * 60
        /// How far ahead a space may take bookings at most.
        public static let antecedenciaMaximaPermitidaDias = 730

        public var validas: Bool {
            duracaoMinimaMinutos >= 1 && duracaoMaximaMinutos >= duracaoMinimaMinutos && duracaoMaximaMinutos <= Self.minutosMaximos
                && (0...Self.minutosMaximos).contains(antecedenciaMinimaMinutos)
                && (0...Self.antecedenciaMaximaPermitidaDias).contains(antecedenciaMaximaDias)
        }

        public enum Violacao: Error, Equatable, Sendable {
            case duracaoAbaixoDaMinima
            case duracaoAcimaDaMaxima
            /// Starts too soon after `agora` (or already started).
            case antecedenciaInsuficiente
            /// Starts too far after `agora`.
            case antecedenciaExcessiva
        }

        /// The first rule that a booking of `intervalo` requested at `agora` breaks, or nil.
        public func violacao(de intervalo: TimeRange, em agora: Date) -> Violacao? {
            let minutos = intervalo.duration / 60
            if minutos < Double(duracaoMinimaMinutos) { return .duracaoAbaixoDaMinima }
            if minutos > Double(duracaoMaximaMinutos) { return .duracaoAcimaDaMaxima }
            let antecedencia = intervalo.start.timeIntervalSince(agora)
            if antecedencia < Double(antecedenciaMinimaMinutos) * 60 { return .antecedenciaInsuficiente }
            if antecedencia > Double(antecedenciaMaximaDias) * 86_400 { return .antecedenciaExcessiva }
            return nil
        }
    }

    /// A period when the space is closed whatever its opening hours say; or, as a lease
    /// (``Motivo/locacao``), when it is one member's or one company's alone and nobody books it.
    public struct Bloqueio: Codable, Sendable, Equatable {
        public enum Motivo: String, Codable, Sendable, CaseIterable {
            case manutencao
            case feriado
            case evento
            case outro
            /// A dedicated desk or a private office let to ``Bloqueio/locatario`` for the period.
            case locacao
        }

        /// Who holds a lease: a member or a company, exactly one.
        public struct Locatario: Codable, Sendable, Equatable {
            public let usuarioId: UUID?
            public let empresaId: UUID?

            public init(usuarioId: UUID?, empresaId: UUID?) {
                self.usuarioId = usuarioId
                self.empresaId = empresaId
            }

            /// One of the two, not both.
            public var valido: Bool { (usuarioId == nil) != (empresaId == nil) }

            private enum CodingKeys: String, CodingKey { case usuarioId, empresaId }

            public func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encodeIfPresent(usuarioId?.lowercasedString, forKey: .usuarioId)
                try container.encodeIfPresent(empresaId?.lowercasedString, forKey: .empresaId)
            }
        }

        /// The space types that are let: dedicated desks and private offices.
        public static let tiposLocaveis: [Tipo] = [.mesaFixa, .salaPrivativa]

        public let id: UUID
        public let intervalo: TimeRange
        public let motivo: Motivo
        public let descricao: String?
        /// Only for a lease, and always for one. Absent in blocks recorded before leases existed.
        public let locatario: Locatario?

        public init(id: UUID, intervalo: TimeRange, motivo: Motivo, descricao: String? = nil, locatario: Locatario? = nil) {
            self.id = id
            self.intervalo = intervalo
            self.motivo = motivo
            self.descricao = descricao
            self.locatario = locatario
        }

        /// What the catalog shows everyone: a lease without its holder or its description (the
        /// operator's note, which may name the holder); any other block as it is.
        public var publico: Bloqueio {
            motivo == .locacao ? Bloqueio(id: id, intervalo: intervalo, motivo: motivo) : self
        }

        /// The same block ending at `fim`.
        public func terminando(em fim: Date) -> Bloqueio? {
            guard let intervalo = try? TimeRange(start: intervalo.start, end: fim) else { return nil }
            return Bloqueio(id: id, intervalo: intervalo, motivo: motivo, descricao: descricao, locatario: locatario)
        }

        private enum CodingKeys: String, CodingKey { case id, intervalo, motivo, descricao, locatario }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            // Lower case, as every other id the API shows (UUID's own encoding is upper case).
            try container.encode(id.lowercasedString, forKey: .id)
            try container.encode(intervalo, forKey: .intervalo)
            try container.encode(motivo, forKey: .motivo)
            try container.encodeIfPresent(descricao, forKey: .descricao)
            try container.encodeIfPresent(locatario, forKey: .locatario)
        }
    }

    public static let tamanhoMaximoDoNome = 120
    public static let capacidadeMaxima = 1_000
    public static let tamanhoMaximoDaComodidade = 60
    /// At most this many amenities and photos per space (the catalog serves them all).
    public static let maximoDeComodidades = 50
    public static let maximoDeFotos = 20
    /// A photo's url and caption, in characters.
    public static let tamanhoMaximoDaUrl = 2_048
    public static let tamanhoMaximoDaLegenda = 200
}
