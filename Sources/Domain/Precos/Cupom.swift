public import Foundation

/// A discount coupon, one stream per normalised code (``normalizarCodigo(_:)``). The stream
/// holds the set of bookings currently using it, so "at most `maxUsos` uses" is enforced by
/// appending with the expected version read, never by a read model.
public enum Cupom {}

extension Cupom {
    /// The code's normal form: trimmed, upper-cased, 3…32 characters of `A–Z`, `0–9`, `-`, `_`;
    /// nil for anything else (accented or non-ASCII letters included).
    public static func normalizarCodigo(_ codigo: String) -> String? {
        let trimmed = codigo.trimmingCharacters(in: .whitespacesAndNewlines)
        let permitido = { (scalar: Unicode.Scalar) -> Bool in
            switch scalar {
            case "A"..."Z", "a"..."z", "0"..."9", "-", "_": true
            default: false
            }
        }
        guard (3...32).contains(trimmed.unicodeScalars.count), trimmed.unicodeScalars.allSatisfy(permitido) else { return nil }
        return trimmed.uppercased()
    }

    /// Stored as `{"tipo":"percentual","bp":1000}` or `{"tipo":"fixo","valor":5000}` (centavos).
    public enum Desconto: Codable, Sendable, Equatable {
        /// A share of what remains after the other discounts, in basis points (1…10_000).
        case percentual(bp: Int64)
        /// A fixed amount, capped at what remains.
        case fixo(Money)

        /// Why the discount cannot be used, in Portuguese; nil when it is valid.
        public var problema: String? {
            switch self {
            case .percentual(let bp): (1...10_000).contains(bp) ? nil : "o desconto percentual deve estar entre 1 e 10000 pontos-base"
            case .fixo(let valor):
                valor > .zero && valor <= TabelaDePreco.Valores.precoMaximo
                    ? nil : "o desconto fixo deve ser positivo e de no máximo R$ 1.000.000,00 (o maior preço de uma tabela)"
            }
        }

        private enum CodingKeys: String, CodingKey { case tipo, bp, valor }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let tipo = try container.decode(String.self, forKey: .tipo)
            switch tipo {
            case "percentual": self = .percentual(bp: try container.decode(Int64.self, forKey: .bp))
            case "fixo": self = .fixo(try container.decode(Money.self, forKey: .valor))
            default: throw DecodingError.dataCorruptedError(forKey: .tipo, in: container, debugDescription: "unknown discount kind '\(tipo)'")
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case .percentual(let bp):
                try container.encode("percentual", forKey: .tipo)
                try container.encode(bp, forKey: .bp)
            case .fixo(let valor):
                try container.encode("fixo", forKey: .tipo)
                try container.encode(valor, forKey: .valor)
            }
        }
    }

    public enum Command: Sendable, Equatable {
        /// `codigo` is normalised by the decider; the stream is named after the normal form.
        case criar(codigo: String, desconto: Desconto, validoDe: Date, validoAte: Date, maxUsos: Int, em: Date)
        /// Takes one use for `reserva`; again for the same booking changes nothing.
        case usar(reserva: UUID, em: Date)
        /// The booking was cancelled or expired: its use is released.
        case devolver(reserva: UUID, em: Date)
        case desativar(em: Date)
        /// Takes a deactivated coupon back into use (its validity and uses as they were).
        case reativar(em: Date)
    }

    public struct Criado: Codable, Sendable, Equatable {
        public let codigo: String
        public let desconto: Desconto
        public let validoDe: Date
        public let validoAte: Date
        public let maxUsos: Int
        public let em: Date

        public init(codigo: String, desconto: Desconto, validoDe: Date, validoAte: Date, maxUsos: Int, em: Date) {
            self.codigo = codigo
            self.desconto = desconto
            self.validoDe = validoDe
            self.validoAte = validoAte
            self.maxUsos = maxUsos
            self.em = em
        }
    }

    public struct Usado: Codable, Sendable, Equatable {
        public let codigo: String
        public let reservaId: UUID
        public let em: Date

        public init(codigo: String, reservaId: UUID, em: Date) {
            self.codigo = codigo
            self.reservaId = reservaId
            self.em = em
        }
    }

    public struct Devolvido: Codable, Sendable, Equatable {
        public let codigo: String
        public let reservaId: UUID
        public let em: Date

        public init(codigo: String, reservaId: UUID, em: Date) {
            self.codigo = codigo
            self.reservaId = reservaId
            self.em = em
        }
    }

    public struct Desativado: Codable, Sendable, Equatable {
        public let codigo: String
        public let em: Date

        public init(codigo: String, em: Date) {
            self.codigo = codigo
            self.em = em
        }
    }

    public struct Reativado: Codable, Sendable, Equatable {
        public let codigo: String
        public let em: Date

        public init(codigo: String, em: Date) {
            self.codigo = codigo
            self.em = em
        }
    }

    public enum Event: PayloadEvent, Equatable {
        case criado(Criado)
        case usado(Usado)
        case devolvido(Devolvido)
        case desativado(Desativado)
        case reativado(Reativado)

        public var kind: EventKind {
            switch self {
            case .criado: Catalogo.criado
            case .usado: Catalogo.usado
            case .devolvido: Catalogo.devolvido
            case .desativado: Catalogo.desativado
            case .reativado: Catalogo.reativado
            }
        }

        public var payload: any Encodable & Sendable {
            switch self {
            case .criado(let payload): payload
            case .usado(let payload): payload
            case .devolvido(let payload): payload
            case .desativado(let payload): payload
            case .reativado(let payload): payload
            }
        }

        public static let decoders = EventDecoders<Event>([
            .kind(Catalogo.criado, Criado.self) { .criado($0) },
            .kind(Catalogo.usado, Usado.self) { .usado($0) },
            .kind(Catalogo.devolvido, Devolvido.self) { .devolvido($0) },
            .kind(Catalogo.desativado, Desativado.self) { .desativado($0) },
            .kind(Catalogo.reativado, Reativado.self) { .reativado($0) },
        ])
    }

    /// A coupon as its stream knows it.
    public struct Dados: Codable, Sendable, Equatable {
        public var codigo: String
        public var desconto: Desconto
        /// Valid from this instant (inclusive) to ``validoAte`` (exclusive).
        public var validoDe: Date
        public var validoAte: Date
        public var maxUsos: Int
        /// The bookings currently holding a use.
        public var usos: Set<UUID>
        public var ativo: Bool

        public init(
            codigo: String, desconto: Desconto, validoDe: Date, validoAte: Date, maxUsos: Int,
            usos: Set<UUID> = [], ativo: Bool = true
        ) {
            self.codigo = codigo
            self.desconto = desconto
            self.validoDe = validoDe
            self.validoAte = validoAte
            self.maxUsos = maxUsos
            self.usos = usos
            self.ativo = ativo
        }

        /// The checks of ``Command/usar(reserva:em:)`` without recording anything, for quotes.
        /// A `reserva` that already holds a use passes whatever else is true now (the use was
        /// granted when it was taken).
        public func validar(em: Date, reserva: UUID? = nil) throws(Failure) {
            if let reserva, usos.contains(reserva) { return }
            guard ativo else { throw .desativado }
            guard validoDe <= em, em < validoAte else { throw .foraDaValidade }
            guard usos.count < maxUsos else { throw .esgotado }
        }
    }

    public enum State: Sendable, Equatable {
        case inexistente
        case existente(Dados)
    }

    public enum Failure: Error, Equatable, Sendable {
        case naoEncontrado
        case jaExiste
        case desativado
        /// Outside `[validoDe, validoAte)`.
        case foraDaValidade
        /// Every use is held by some booking.
        case esgotado
        case invalido(String)
    }

    public static let decider = Decider<Command, State, Event, Failure>(
        initialState: .inexistente,
        decide: { command, state throws(Failure) in
            switch (command, state) {
            case (.criar(let codigo, let desconto, let validoDe, let validoAte, let maxUsos, let em), .inexistente):
                guard let codigo = normalizarCodigo(codigo) else {
                    throw .invalido("o código deve ter de 3 a 32 letras, algarismos, '-' ou '_'")
                }
                guard validoDe < validoAte else { throw .invalido("o fim da validade deve ser depois do início") }
                guard validoAte > em else { throw .invalido("a validade já terminou: um cupom assim nunca poderia ser usado") }
                guard maxUsos >= 1 else { throw .invalido("o cupom deve permitir ao menos um uso") }
                if let problema = desconto.problema { throw .invalido(problema) }
                return [.criado(Criado(codigo: codigo, desconto: desconto, validoDe: validoDe, validoAte: validoAte, maxUsos: maxUsos, em: em))]
            case (.criar, .existente):
                throw .jaExiste
            case (_, .inexistente):
                throw .naoEncontrado
            case (.usar(let reserva, let em), .existente(let dados)):
                // Using it again for the same booking changes nothing, so retries are harmless.
                if dados.usos.contains(reserva) { return [] }
                try dados.validar(em: em)
                return [.usado(Usado(codigo: dados.codigo, reservaId: reserva, em: em))]
            case (.devolver(let reserva, let em), .existente(let dados)):
                guard dados.usos.contains(reserva) else { return [] }
                return [.devolvido(Devolvido(codigo: dados.codigo, reservaId: reserva, em: em))]
            case (.desativar(let em), .existente(let dados)):
                guard dados.ativo else { return [] }
                return [.desativado(Desativado(codigo: dados.codigo, em: em))]
            case (.reativar(let em), .existente(let dados)):
                guard !dados.ativo else { return [] }
                return [.reativado(Reativado(codigo: dados.codigo, em: em))]
            }
        },
        evolve: { state, event in
            switch (state, event) {
            case (.inexistente, .criado(let e)):
                return .existente(
                    Dados(
                        codigo: e.codigo, desconto: e.desconto, validoDe: e.validoDe, validoAte: e.validoAte, maxUsos: e.maxUsos))
            case (.existente(var dados), .usado(let e)):
                dados.usos.insert(e.reservaId)
                return .existente(dados)
            case (.existente(var dados), .devolvido(let e)):
                dados.usos.remove(e.reservaId)
                return .existente(dados)
            case (.existente(var dados), .desativado):
                dados.ativo = false
                return .existente(dados)
            case (.existente(var dados), .reativado):
                dados.ativo = true
                return .existente(dados)
            default:
                return state
            }
        }
    )
}
