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
        /// A lease's holder (absent for other blocks, and in events recorded before session 77):
        /// the event is in the holder's record (their trail and data export).
        public let locatario: Bloqueio.Locatario?
        public let em: Date

        public init(espacoId: ID, bloqueioId: UUID, locatario: Bloqueio.Locatario? = nil, em: Date) {
            self.espacoId = espacoId
            self.bloqueioId = bloqueioId
            self.locatario = locatario
            self.em = em
        }
    }

    /// A block's end brought forward (a lease ended early); its start and the rest stay.
    public struct BloqueioEncurtado: Codable, Sendable, Equatable {
        public let espacoId: ID
        public let bloqueioId: UUID
        /// A lease's holder, as in ``BloqueioRemovido``.
        public let locatario: Bloqueio.Locatario?
        public let fim: Date
        public let em: Date

        public init(espacoId: ID, bloqueioId: UUID, locatario: Bloqueio.Locatario? = nil, fim: Date, em: Date) {
            self.espacoId = espacoId
            self.bloqueioId = bloqueioId
            self.locatario = locatario
            self.fim = fim
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

    public enum Event: PayloadEvent, Equatable {
        case cadastrado(Cadastrado)
        case atualizado(Atualizado)
        case horarioDefinido(HorarioDefinido)
        case bloqueioAgendado(BloqueioAgendado)
        case bloqueioRemovido(BloqueioRemovido)
        case bloqueioEncurtado(BloqueioEncurtado)
        case desativado(Desativado)
        case reativado(Reativado)

        public var kind: EventKind {
            switch self {
            case .cadastrado: Catalogo.cadastrado
            case .atualizado: Catalogo.atualizado
            case .horarioDefinido: Catalogo.horarioDefinido
            case .bloqueioAgendado: Catalogo.bloqueioAgendado
            case .bloqueioRemovido: Catalogo.bloqueioRemovido
            case .bloqueioEncurtado: Catalogo.bloqueioEncurtado
            case .desativado: Catalogo.desativado
            case .reativado: Catalogo.reativado
            }
        }

        public var payload: any Encodable & Sendable {
            switch self {
            case .cadastrado(let payload): payload
            case .atualizado(let payload): payload
            case .horarioDefinido(let payload): payload
            case .bloqueioAgendado(let payload): payload
            case .bloqueioRemovido(let payload): payload
            case .bloqueioEncurtado(let payload): payload
            case .desativado(let payload): payload
            case .reativado(let payload): payload
            }
        }

        public static let decoders = EventDecoders<Event>([
            .kind(Catalogo.cadastrado, Cadastrado.self) { .cadastrado($0) },
            .kind(Catalogo.atualizado, Atualizado.self) { .atualizado($0) },
            .kind(Catalogo.horarioDefinido, HorarioDefinido.self) { .horarioDefinido($0) },
            .kind(Catalogo.bloqueioAgendado, BloqueioAgendado.self) { .bloqueioAgendado($0) },
            .kind(Catalogo.bloqueioRemovido, BloqueioRemovido.self) { .bloqueioRemovido($0) },
            .kind(Catalogo.bloqueioEncurtado, BloqueioEncurtado.self) { .bloqueioEncurtado($0) },
            .kind(Catalogo.desativado, Desativado.self) { .desativado($0) },
            .kind(Catalogo.reativado, Reativado.self) { .reativado($0) },
        ])
    }
}
