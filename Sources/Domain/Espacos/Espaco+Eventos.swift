public import Foundation

extension Espaco {
    /// A new space, active, with no blackouts and ``HorarioSemanal/padrao`` as its hours
    /// (recorded here, so a later change of the default does not change old spaces).
    public struct Cadastrado: Codable, Sendable, Equatable {
        public let espacoId: ID
        public let unidadeId: Unidade.ID
        public let nome: String
        public let tipo: Tipo
        public let capacidade: Int
        public let comodidades: [String]
        public let fotos: [Foto]
        public let regras: RegrasDeReserva
        public let horario: HorarioSemanal
        public let em: Date

        public init(
            espacoId: ID, unidadeId: Unidade.ID, nome: String, tipo: Tipo, capacidade: Int, comodidades: [String],
            fotos: [Foto], regras: RegrasDeReserva, horario: HorarioSemanal, em: Date
        ) {
            self.espacoId = espacoId
            self.unidadeId = unidadeId
            self.nome = nome
            self.tipo = tipo
            self.capacidade = capacidade
            self.comodidades = comodidades
            self.fotos = fotos
            self.regras = regras
            self.horario = horario
            self.em = em
        }
    }

    /// Carries every editable field's value after the update, changed or not, so a
    /// projection replaces them all.
    public struct Atualizado: Codable, Sendable, Equatable {
        public let espacoId: ID
        public let nome: String
        public let capacidade: Int
        public let comodidades: [String]
        public let fotos: [Foto]
        public let regras: RegrasDeReserva
        public let em: Date

        public init(
            espacoId: ID, nome: String, capacidade: Int, comodidades: [String], fotos: [Foto],
            regras: RegrasDeReserva, em: Date
        ) {
            self.espacoId = espacoId
            self.nome = nome
            self.capacidade = capacidade
            self.comodidades = comodidades
            self.fotos = fotos
            self.regras = regras
            self.em = em
        }
    }

    /// The whole new weekly schedule.
    public struct HorarioDefinido: Codable, Sendable, Equatable {
        public let espacoId: ID
        public let horario: HorarioSemanal
        public let em: Date

        public init(espacoId: ID, horario: HorarioSemanal, em: Date) {
            self.espacoId = espacoId
            self.horario = horario
            self.em = em
        }
    }

    public struct BloqueioAgendado: Codable, Sendable, Equatable {
        public let espacoId: ID
        public let bloqueio: Bloqueio
        public let em: Date

        public init(espacoId: ID, bloqueio: Bloqueio, em: Date) {
            self.espacoId = espacoId
            self.bloqueio = bloqueio
            self.em = em
        }
    }

    public struct BloqueioRemovido: Codable, Sendable, Equatable {
        public let espacoId: ID
        public let bloqueioId: UUID
        public let em: Date

        public init(espacoId: ID, bloqueioId: UUID, em: Date) {
            self.espacoId = espacoId
            self.bloqueioId = bloqueioId
            self.em = em
        }
    }

    public struct Desativado: Codable, Sendable, Equatable {
        public let espacoId: ID
        public let motivo: String?
        public let em: Date

        public init(espacoId: ID, motivo: String?, em: Date) {
            self.espacoId = espacoId
            self.motivo = motivo
            self.em = em
        }
    }

    public struct Reativado: Codable, Sendable, Equatable {
        public let espacoId: ID
        public let em: Date

        public init(espacoId: ID, em: Date) {
            self.espacoId = espacoId
            self.em = em
        }
    }

    public enum Event: DomainEvent, Equatable {
        case cadastrado(Cadastrado)
        case atualizado(Atualizado)
        case horarioDefinido(HorarioDefinido)
        case bloqueioAgendado(BloqueioAgendado)
        case bloqueioRemovido(BloqueioRemovido)
        case desativado(Desativado)
        case reativado(Reativado)

        public var eventType: String {
            switch self {
            case .cadastrado: "EspacoCadastrado"
            case .atualizado: "EspacoAtualizado"
            case .horarioDefinido: "HorarioDefinido"
            case .bloqueioAgendado: "BloqueioAgendado"
            case .bloqueioRemovido: "BloqueioRemovido"
            case .desativado: "EspacoDesativado"
            case .reativado: "EspacoReativado"
            }
        }

        /// The payload alone is stored; the type string says which case it is.
        public func encode(to encoder: any Encoder) throws {
            switch self {
            case .cadastrado(let payload): try payload.encode(to: encoder)
            case .atualizado(let payload): try payload.encode(to: encoder)
            case .horarioDefinido(let payload): try payload.encode(to: encoder)
            case .bloqueioAgendado(let payload): try payload.encode(to: encoder)
            case .bloqueioRemovido(let payload): try payload.encode(to: encoder)
            case .desativado(let payload): try payload.encode(to: encoder)
            case .reativado(let payload): try payload.encode(to: encoder)
            }
        }

        public init(from decoder: any Decoder) throws {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "decode with Espaco.Event.decode(type:data:)"))
        }

        /// Reads a stored event back; nil for a type this aggregate does not know.
        public static func decode(type: String, data: Data, using decoder: JSONDecoder) throws -> Event? {
            switch type {
            case "EspacoCadastrado": .cadastrado(try decoder.decode(Cadastrado.self, from: data))
            case "EspacoAtualizado": .atualizado(try decoder.decode(Atualizado.self, from: data))
            case "HorarioDefinido": .horarioDefinido(try decoder.decode(HorarioDefinido.self, from: data))
            case "BloqueioAgendado": .bloqueioAgendado(try decoder.decode(BloqueioAgendado.self, from: data))
            case "BloqueioRemovido": .bloqueioRemovido(try decoder.decode(BloqueioRemovido.self, from: data))
            case "EspacoDesativado": .desativado(try decoder.decode(Desativado.self, from: data))
            case "EspacoReativado": .reativado(try decoder.decode(Reativado.self, from: data))
            default: nil
            }
        }
    }
}
