public import Foundation

/// A bundle an operator sells without a plan (`pacote-<id>`): a number of hours (or an amount)
/// of credits, for some space types and one unit or the whole network, valid for a number of
/// days after it is paid — "Pacote 10 horas de sala de reunião", or a day pass ("Passe diário":
/// a day's hours of hot desk, valid for one day).
///
/// A bundle is not versioned: a purchase keeps a copy of the offer it paid for, and a new price
/// is a new bundle (the old one archived).
public enum Pacote {
    public typealias ID = Identifier<Pacote>

    /// What one purchase of the bundle buys, and for how much.
    public struct Oferta: Codable, Sendable, Equatable {
        public let nome: String
        public let medida: Carteira.Medida
        /// Minutes or centavos of credits.
        public let quantidade: Int64
        /// The space types the credits pay for; empty: any.
        public let tipos: [Espaco.Tipo]
        /// The unit they may be spent at; nil: any unit of the network.
        public let unidadeId: UUID?
        /// Days after the payment the credits may be spent (1: a day pass).
        public let validadeDias: Int
        public let precoCentavos: Int64

        public init(
            nome: String, medida: Carteira.Medida, quantidade: Int64, tipos: [Espaco.Tipo] = [], unidadeId: UUID? = nil, validadeDias: Int,
            precoCentavos: Int64
        ) {
            self.nome = nome
            self.medida = medida
            self.quantidade = quantidade
            self.tipos = tipos
            self.unidadeId = unidadeId
            self.validadeDias = validadeDias
            self.precoCentavos = precoCentavos
        }

        enum CodingKeys: String, CodingKey { case nome, medida, quantidade, tipos, unidadeId, validadeDias, precoCentavos }

        /// The unit's id in lower case, as every id the API shows.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(nome, forKey: .nome)
            try c.encode(medida, forKey: .medida)
            try c.encode(quantidade, forKey: .quantidade)
            try c.encode(tipos, forKey: .tipos)
            try c.encodeIfPresent(unidadeId?.lowercasedString, forKey: .unidadeId)
            try c.encode(validadeDias, forKey: .validadeDias)
            try c.encode(precoCentavos, forKey: .precoCentavos)
        }

        /// The longest validity: two years.
        public static let validadeMaxima = 730

        /// The first field out of bounds, or nil (the name is checked on its own).
        public var campoInvalido: String? {
            if !(1...Carteira.maximo(medida)).contains(quantidade) { return "quantidade" }
            if !(1...Self.validadeMaxima).contains(validadeDias) { return "validadeDias" }
            if !(1...Plano.Termos.maximoCentavos).contains(precoCentavos) { return "precoCentavos" }
            return nil
        }

        /// The credits one purchase paid at `pagoEm` grants: lot `loteId`, valid for
        /// `validadeDias` days from the payment.
        public func lote(_ loteId: UUID, pagoEm: Date) -> Carteira.Lote {
            Carteira.Lote(
                loteId: loteId, medida: medida, quantidade: quantidade, tipos: tipos, unidadeId: unidadeId,
                validoAte: pagoEm.addingTimeInterval(TimeInterval(validadeDias) * 86_400), origem: .pacote, descricao: "Pacote \(nome)")
        }
    }

    public struct Dados: Sendable, Equatable {
        public let pacoteId: UUID
        public let oferta: Oferta
        public let descricao: String?
        public var arquivado: Bool
    }

    public enum State: Sendable, Equatable {
        case inexistente
        case existente(Dados)
    }

    public enum Command: Sendable, Equatable {
        case criar(id: UUID, oferta: Oferta, descricao: String?, por: String, em: Date)
        /// Off sale; purchases already made keep their credits.
        case arquivar(por: String, em: Date)
    }

    public enum Failure: Error, Equatable, Sendable {
        case jaExiste
        case naoEncontrado
        case nomeInvalido
        case descricaoInvalida
        case termoInvalido(campo: String)
        case arquivado
    }

    public static let tamanhoMaximoDoNome = 100

    public static let decider = Decider<Command, State, Event, Failure>(
        initialState: .inexistente,
        decide: { command, state throws(Failure) in
            switch (command, state) {
            case (.criar(let id, let oferta, let descricao, let por, let em), .inexistente):
                let nome = oferta.nome.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !nome.isEmpty, TextoLivre.cabe(oferta.nome, maximo: tamanhoMaximoDoNome) else { throw .nomeInvalido }
                if let descricao, !TextoLivre.cabe(descricao, maximo: 500) { throw .descricaoInvalida }
                let descricao = descricao?.trimmingCharacters(in: .whitespacesAndNewlines)
                if let campo = oferta.campoInvalido { throw .termoInvalido(campo: campo) }
                let limpa = Oferta(
                    nome: nome, medida: oferta.medida, quantidade: oferta.quantidade, tipos: oferta.tipos, unidadeId: oferta.unidadeId,
                    validadeDias: oferta.validadeDias, precoCentavos: oferta.precoCentavos)
                return [
                    .criado(Criado(pacoteId: id, oferta: limpa, descricao: descricao.flatMap { $0.isEmpty ? nil : $0 }, por: por, em: em))
                ]
            case (.criar, .existente):
                throw .jaExiste
            case (.arquivar, .inexistente):
                throw .naoEncontrado
            case (.arquivar(let por, let em), .existente(let dados)):
                if dados.arquivado { return [] }
                return [.arquivado(Arquivado(pacoteId: dados.pacoteId, por: por, em: em))]
            }
        },
        evolve: { state, event in
            switch (state, event) {
            case (_, .criado(let e)):
                return .existente(Dados(pacoteId: e.pacoteId, oferta: e.oferta, descricao: e.descricao, arquivado: false))
            case (.existente(var dados), .arquivado):
                dados.arquivado = true
                return .existente(dados)
            case (.inexistente, .arquivado):
                return state
            }
        })
}
