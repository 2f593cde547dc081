public import Foundation

/// A membership plan an operator sells (`plano-<id>`): a fee per cycle, a setup fee, credits
/// granted every cycle, what it gives access to and the discount on bookings beyond credits.
///
/// Plans are versioned: a revision takes effect on a date and applies to the cycles that start
/// on or after it; a cycle keeps the terms it started with, so a past cycle is never rewritten.
public enum Plano {
    public typealias ID = Identifier<Plano>

    public enum Periodicidade: String, Codable, Sendable, CaseIterable {
        case mensal, anual

        public var meses: Int { self == .mensal ? 1 : 12 }
    }

    /// Which bookings a plan's benefits (its discount) apply to: space types and weekdays; an
    /// empty list means all.
    public struct Acesso: Codable, Sendable, Equatable {
        public let tipos: [Espaco.Tipo]
        public let dias: [DiaDaSemana]

        public init(tipos: [Espaco.Tipo] = [], dias: [DiaDaSemana] = []) {
            self.tipos = tipos
            self.dias = dias
        }

        public static let livre = Acesso()

        public func permite(_ tipo: Espaco.Tipo, em dia: DiaDaSemana) -> Bool {
            (tipos.isEmpty || tipos.contains(tipo)) && (dias.isEmpty || dias.contains(dia))
        }
    }

    /// What a version of a plan sells.
    public struct Termos: Codable, Sendable, Equatable {
        public let periodicidade: Periodicidade
        /// The fee of a whole cycle.
        public let valorCentavos: Int64
        /// Charged once, with the first cycle.
        public let adesaoCentavos: Int64
        /// Minutes of booking granted every cycle (0: none).
        public let horasMinutos: Int64
        /// The space types those minutes pay for; empty: any.
        public let tiposDasHoras: [Espaco.Tipo]
        /// An amount every cycle spends on bookings' prices (0: none).
        public let creditoCentavos: Int64
        /// The share (basis points) of a cycle's allowance that may roll into the next cycle
        /// when unused: 0 none, 10,000 all of it.
        public let rolloverBP: Int64
        public let acesso: Acesso
        /// The discount (basis points) on what a booking costs beyond credits.
        public let descontoBP: Int64

        public init(
            periodicidade: Periodicidade, valorCentavos: Int64, adesaoCentavos: Int64 = 0, horasMinutos: Int64 = 0,
            tiposDasHoras: [Espaco.Tipo] = [], creditoCentavos: Int64 = 0, rolloverBP: Int64 = 0, acesso: Acesso = .livre,
            descontoBP: Int64 = 0
        ) {
            self.periodicidade = periodicidade
            self.valorCentavos = valorCentavos
            self.adesaoCentavos = adesaoCentavos
            self.horasMinutos = horasMinutos
            self.tiposDasHoras = tiposDasHoras
            self.creditoCentavos = creditoCentavos
            self.rolloverBP = rolloverBP
            self.acesso = acesso
            self.descontoBP = descontoBP
        }

        /// The most a fee or a credit amount may be: R$ 1,000,000.00.
        public static let maximoCentavos: Int64 = 100_000_000

        /// The first field that is out of bounds, or nil.
        public var campoInvalido: String? {
            if !(0...Self.maximoCentavos).contains(valorCentavos) { return "valorCentavos" }
            if !(0...Self.maximoCentavos).contains(adesaoCentavos) { return "adesaoCentavos" }
            if !(0...Carteira.maximo(.minutos)).contains(horasMinutos) { return "horasMinutos" }
            if !(0...Carteira.maximo(.centavos)).contains(creditoCentavos) { return "creditoCentavos" }
            if !(0...10_000).contains(rolloverBP) { return "rolloverBP" }
            if !(0...10_000).contains(descontoBP) { return "descontoBP" }
            return nil
        }
    }

    /// A version of the plan: its terms from `vigenteDesde` on.
    public struct Versao: Codable, Sendable, Equatable {
        public let numero: Int
        public let vigenteDesde: DataLocal
        public let termos: Termos

        public init(numero: Int, vigenteDesde: DataLocal, termos: Termos) {
            self.numero = numero
            self.vigenteDesde = vigenteDesde
            self.termos = termos
        }
    }

    /// A plan and the version a cycle uses: what a subscription records.
    public struct Referencia: Codable, Sendable, Equatable {
        public let planoId: UUID
        public let nome: String
        public let versao: Int

        public init(planoId: UUID, nome: String, versao: Int) {
            self.planoId = planoId
            self.nome = nome
            self.versao = versao
        }

        enum CodingKeys: String, CodingKey { case planoId, nome, versao }

        /// The id in lower case, as every id the API shows.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(planoId.lowercasedString, forKey: .planoId)
            try container.encode(nome, forKey: .nome)
            try container.encode(versao, forKey: .versao)
        }
    }

    public struct Dados: Sendable, Equatable {
        public let planoId: UUID
        public var nome: String
        public var descricao: String?
        /// The unit it is sold at (its credits serve only there); nil: network-wide.
        public let unidadeId: UUID?
        /// In the order they take effect.
        public var versoes: [Versao]
        public var arquivado: Bool

        /// The version in force on `data`: the last that took effect on or before it (the
        /// first one, for a date before any).
        public func versao(em data: DataLocal) -> Versao {
            versoes.last { $0.vigenteDesde <= data } ?? versoes[0]
        }

        public func referencia(_ versao: Versao) -> Referencia { Referencia(planoId: planoId, nome: nome, versao: versao.numero) }
    }

    public enum State: Sendable, Equatable {
        case inexistente
        case existente(Dados)
    }

    public enum Command: Sendable, Equatable {
        case criar(id: UUID, nome: String, descricao: String?, unidadeId: UUID?, termos: Termos, vigenteDesde: DataLocal, por: String, em: Date)
        /// New terms from `vigenteDesde` (after every version's date): cycles that start on or
        /// after it use them.
        case revisar(termos: Termos, vigenteDesde: DataLocal, hoje: DataLocal, por: String, em: Date)
        /// No new subscriptions; the existing ones go on.
        case arquivar(por: String, em: Date)
    }

    public enum Failure: Error, Equatable, Sendable {
        case jaExiste
        case naoEncontrado
        case nomeInvalido
        case descricaoInvalida
        case termoInvalido(campo: String)
        /// A revision that would take effect on or before a version already recorded, or in the past.
        case versaoSobreposta(ultima: DataLocal)
        case arquivado
    }

    public static let tamanhoMaximoDoNome = 100
}

extension Plano.Termos {
    /// The terms for `assentos` people: the fee and the credits times `assentos`, the setup fee
    /// once (a company joins once), the rest as is.
    public func porAssentos(_ assentos: Int) -> Plano.Termos {
        guard assentos != 1 else { return self }
        let n = Int64(assentos)
        return Plano.Termos(
            periodicidade: periodicidade, valorCentavos: valorCentavos * n, adesaoCentavos: adesaoCentavos, horasMinutos: horasMinutos * n,
            tiposDasHoras: tiposDasHoras, creditoCentavos: creditoCentavos * n, rolloverBP: rolloverBP, acesso: acesso, descontoBP: descontoBP)
    }
}
