public import Foundation

/// The price table of one space (one stream per space): its hourly, half-day and daily
/// prices, the minimum booking length, and the rules that raise or discount them.
/// Quoting against it is ``Cotacao/cotar(tabela:intervalo:fuso:plano:cupom:em:)``.
public enum TabelaDePreco {}

extension TabelaDePreco {
    /// The prices of a space. `meioPeriodo` buys a block of ``minutosDoMeioPeriodo`` minutes.
    public struct Valores: Codable, Sendable, Equatable {
        public let porHora: Money
        public let meioPeriodo: Money
        public let diaria: Money
        public let duracaoMinimaMinutos: Int
        /// How time is charged by the hour: in fractions of this many minutes, a started
        /// fraction charged whole (60: by the started hour; 30: by the started half hour; 1: by
        /// the minute). A divisor of 60; absent (tables from before it existed): 60.
        public let fracaoMinutos: Int?

        /// The fractions an operator may choose.
        public static let fracoesPermitidas = [1, 5, 10, 15, 20, 30, 60]

        /// ``fracaoMinutos``, or 60.
        public var fracao: Int { fracaoMinutos ?? 60 }

        /// The most any one price may be (R$ 1.000.000,00): a booking's total stays far inside
        /// 64-bit centavos however long it is.
        public static let precoMaximo = Money.reais(1_000_000)

        public init(porHora: Money, meioPeriodo: Money, diaria: Money, duracaoMinimaMinutos: Int, fracaoMinutos: Int? = nil) {
            self.porHora = porHora
            self.meioPeriodo = meioPeriodo
            self.diaria = diaria
            self.duracaoMinimaMinutos = duracaoMinimaMinutos
            self.fracaoMinutos = fracaoMinutos
        }

        /// Why the values cannot be used, in Portuguese; nil when they are valid.
        public var problema: String? {
            if porHora <= .zero { return "o preço por hora deve ser positivo" }
            if meioPeriodo <= .zero { return "o preço do meio período deve ser positivo" }
            if diaria <= .zero { return "o preço da diária deve ser positivo" }
            if max(porHora, meioPeriodo, diaria) > Self.precoMaximo { return "cada preço deve ser no máximo \(Self.precoMaximo)" }
            // The quote sells the cheapest way: a half day cheaper than an hour would be sold
            // for every hour (a typo that would cost the operator).
            if meioPeriodo < porHora { return "o meio período (4 h) não pode custar menos que uma hora" }
            if diaria < meioPeriodo { return "a diária não pode custar menos que um meio período" }
            if !(1...(24 * 60)).contains(duracaoMinimaMinutos) { return "a duração mínima deve estar entre 1 e 1440 minutos" }
            if let fracaoMinutos, !Self.fracoesPermitidas.contains(fracaoMinutos) {
                return "a fração de cobrança (fracaoMinutos) deve ser de 1, 5, 10, 15, 20, 30 ou 60 minutos"
            }
            return nil
        }
    }

    /// A half-day block, in minutes.
    public static let minutosDoMeioPeriodo = 4 * 60

    /// The table in force: values plus rules, in the order they were added.
    public struct Tabela: Codable, Sendable, Equatable {
        public var espacoId: UUID
        public var valores: Valores
        public var regras: [Regra]

        public init(espacoId: UUID, valores: Valores, regras: [Regra] = []) {
            self.espacoId = espacoId
            self.valores = valores
            self.regras = regras
        }

        private enum CodingKeys: String, CodingKey { case espacoId, valores, regras }

        /// The space's id in lower case, like every id the API shows.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(espacoId.lowercasedString, forKey: .espacoId)
            try container.encode(valores, forKey: .valores)
            try container.encode(regras, forKey: .regras)
        }
    }

    public enum Command: Sendable, Equatable {
        /// Creates the table or replaces its values; the rules survive.
        case definir(espacoId: UUID, valores: Valores, em: Date)
        case adicionarRegra(Regra, em: Date)
        case removerRegra(id: UUID, em: Date)
    }

    public struct Definida: Codable, Sendable, Equatable {
        public let espacoId: UUID
        public let valores: Valores
        public let em: Date

        public init(espacoId: UUID, valores: Valores, em: Date) {
            self.espacoId = espacoId
            self.valores = valores
            self.em = em
        }
    }

    public struct RegraAdicionada: Codable, Sendable, Equatable {
        public let espacoId: UUID
        public let regra: Regra
        public let em: Date

        public init(espacoId: UUID, regra: Regra, em: Date) {
            self.espacoId = espacoId
            self.regra = regra
            self.em = em
        }
    }

    public struct RegraRemovida: Codable, Sendable, Equatable {
        public let espacoId: UUID
        public let regraId: UUID
        public let em: Date

        public init(espacoId: UUID, regraId: UUID, em: Date) {
            self.espacoId = espacoId
            self.regraId = regraId
            self.em = em
        }
    }

    public enum Event: PayloadEvent, Equatable {
        case definida(Definida)
        case regraAdicionada(RegraAdicionada)
        case regraRemovida(RegraRemovida)

        public var kind: EventKind {
            switch self {
            case .definida: Catalogo.definida
            case .regraAdicionada: Catalogo.regraAdicionada
            case .regraRemovida: Catalogo.regraRemovida
            }
        }

        public var payload: any Encodable & Sendable {
            switch self {
            case .definida(let payload): payload
            case .regraAdicionada(let payload): payload
            case .regraRemovida(let payload): payload
            }
        }

        public static let decoders = EventDecoders<Event>([
            .kind(Catalogo.definida, Definida.self) { .definida($0) },
            .kind(Catalogo.regraAdicionada, RegraAdicionada.self) { .regraAdicionada($0) },
            .kind(Catalogo.regraRemovida, RegraRemovida.self) { .regraRemovida($0) },
        ])
    }

    public enum State: Sendable, Equatable {
        case inexistente
        case definida(Tabela)
    }

    public enum Failure: Error, Equatable, Sendable {
        case valoresInvalidos(String)
        case regraInvalida(String)
        /// A rule was added or removed before the table was defined.
        case tabelaInexistente
        /// A rule with this id is already in the table.
        case regraDuplicada
        case regraNaoEncontrada
    }

    public static let decider = Decider<Command, State, Event, Failure>(
        initialState: .inexistente,
        decide: { command, state throws(Failure) in
            switch (command, state) {
            case (.definir(let espacoId, let valores, let em), _):
                if let problema = valores.problema { throw .valoresInvalidos(problema) }
                if case .definida(let tabela) = state {
                    guard tabela.espacoId == espacoId else { throw .valoresInvalidos("a tabela pertence a outro espaço") }
                    // Defining the values already in force changes nothing, so retries are harmless.
                    if tabela.valores == valores { return [] }
                }
                return [.definida(Definida(espacoId: espacoId, valores: valores, em: em))]
            case (.adicionarRegra, .inexistente), (.removerRegra, .inexistente):
                throw .tabelaInexistente
            case (.adicionarRegra(let regra, let em), .definida(let tabela)):
                let regra = regra.normalizada
                if let problema = regra.problema { throw .regraInvalida(problema) }
                guard !tabela.regras.contains(where: { $0.id == regra.id }) else { throw .regraDuplicada }
                return [.regraAdicionada(RegraAdicionada(espacoId: tabela.espacoId, regra: regra, em: em))]
            case (.removerRegra(let id, let em), .definida(let tabela)):
                guard tabela.regras.contains(where: { $0.id == id }) else { throw .regraNaoEncontrada }
                return [.regraRemovida(RegraRemovida(espacoId: tabela.espacoId, regraId: id, em: em))]
            }
        },
        evolve: { state, event in
            switch (state, event) {
            case (.inexistente, .definida(let e)):
                return .definida(Tabela(espacoId: e.espacoId, valores: e.valores))
            case (.definida(var tabela), .definida(let e)):
                tabela.valores = e.valores
                return .definida(tabela)
            case (.definida(var tabela), .regraAdicionada(let e)):
                tabela.regras.append(e.regra)
                return .definida(tabela)
            case (.definida(var tabela), .regraRemovida(let e)):
                tabela.regras.removeAll { $0.id == e.regraId }
                return .definida(tabela)
            default:
                return state
            }
        }
    )
}
