public import Foundation

/// A coworking unit (one address): its name, address, time zone and cancellation policy.
/// The time zone decides what "08:00" and "Monday" mean for every space of the unit.
public enum Unidade {}

extension Unidade {
    public typealias ID = Identifier<Unidade>

    /// A Brazilian postal address. ``normalizado`` trims every field, turns blank optional
    /// fields into nil and upper-cases the UF.
    public struct Endereco: Codable, Sendable, Equatable {
        public let logradouro: String
        public let numero: String
        public let complemento: String?
        public let bairro: String?
        public let cidade: String
        /// Two letters, e.g. `SP`.
        public let uf: String
        public let cep: String

        public init(
            logradouro: String, numero: String, complemento: String? = nil, bairro: String? = nil,
            cidade: String, uf: String, cep: String
        ) {
            self.logradouro = logradouro
            self.numero = numero
            self.complemento = complemento
            self.bairro = bairro
            self.cidade = cidade
            self.uf = uf
            self.cep = cep
        }

        /// Characters a field may hold (an address line, not a document).
        public static let tamanhoMaximo = 200

        /// The 26 states and the Federal District.
        public static let ufs: Set<String> = [
            "AC", "AL", "AP", "AM", "BA", "CE", "DF", "ES", "GO", "MA", "MT", "MS", "MG", "PA",
            "PB", "PR", "PE", "PI", "RJ", "RN", "RS", "RO", "RR", "SC", "SP", "SE", "TO",
        ]

        /// The trimmed address, or the name of the first field that is wrong (blank, or longer
        /// than ``tamanhoMaximo``).
        public func normalizado() throws(Failure) -> Endereco {
            func obrigatorio(_ value: String, _ campo: String) throws(Failure) -> String {
                guard let trimmed = try opcional(value, campo) else { throw .enderecoInvalido(campo: campo) }
                return trimmed
            }
            func opcional(_ value: String?, _ campo: String) throws(Failure) -> String? {
                guard let value, let trimmed = value.trimmed.nilIfEmpty else { return nil }
                guard TextoLivre.cabe(value, maximo: Self.tamanhoMaximo) else { throw .enderecoInvalido(campo: campo) }
                return trimmed
            }
            let uf = self.uf.trimmed.uppercased()
            guard Self.ufs.contains(uf) else { throw .enderecoInvalido(campo: "uf") }
            return Endereco(
                logradouro: try obrigatorio(logradouro, "logradouro"), numero: try obrigatorio(numero, "numero"),
                complemento: try opcional(complemento, "complemento"), bairro: try opcional(bairro, "bairro"),
                cidade: try obrigatorio(cidade, "cidade"), uf: uf, cep: try obrigatorio(cep, "cep"))
        }
    }

    /// Cancelling at least ``horasSemMulta`` hours before the start is free; later, the fee is
    /// ``multaBP`` basis points of the booking total. A no-show gives back
    /// ``devolucaoNoShowBP`` of the credits the booking spent (none unless the unit says so).
    public struct PoliticaDeCancelamento: Codable, Sendable, Equatable {
        public let horasSemMulta: Int
        /// 0…10,000 (10,000 = the whole total).
        public let multaBP: Int64
        /// 0…10,000 of the credits a no-show gives back; absent (policies recorded before it
        /// existed) reads as 0: the member who did not come keeps nothing.
        public let devolucaoNoShowBP: Int64?

        public init(horasSemMulta: Int, multaBP: Int64, devolucaoNoShowBP: Int64? = nil) {
            self.horasSemMulta = horasSemMulta
            self.multaBP = multaBP
            self.devolucaoNoShowBP = devolucaoNoShowBP
        }

        /// 24 h free, then half the total.
        public static let padrao = PoliticaDeCancelamento(horasSemMulta: 24, multaBP: 5_000)

        /// No fee at any time: an operator's cancellation gives everything back.
        public static let semMulta = PoliticaDeCancelamento(horasSemMulta: 0, multaBP: 0)

        /// At most a year (8,784 h) of notice for a free cancellation.
        public static let horasMaximas = 366 * 24

        public var valida: Bool {
            (0...Self.horasMaximas).contains(horasSemMulta) && (0...10_000).contains(multaBP)
                && (0...10_000).contains(devolucaoNoShowBP ?? 0)
        }

        /// The share (basis points) of its credits a booking that nobody came to gets back.
        public var devolucaoNoShow: Int64 { min(max(devolucaoNoShowBP ?? 0, 0), 10_000) }

        /// The fee and the refund of cancelling at `canceladaEm` a booking of `total` that starts
        /// at `inicio`. Exactly ``horasSemMulta`` hours before the start is still free; a
        /// cancellation after the start pays the fee. Both parts are never negative and add up
        /// to `total` (a negative total counts as zero).
        public func reembolso(total: Money, inicio: Date, canceladaEm: Date) -> (multa: Money, reembolso: Money) {
            guard total > .zero else { return (.zero, .zero) }
            let multa = min(max(total.applying(basisPoints: multaBP(inicio: inicio, canceladaEm: canceladaEm)), .zero), total)
            return (multa, total - multa)
        }

        /// The share (basis points, 0…10,000) a cancellation at `canceladaEm` of a booking that
        /// starts at `inicio` keeps: nothing with ``horasSemMulta`` hours of notice or more.
        public func multaBP(inicio: Date, canceladaEm: Date) -> Int64 {
            inicio.timeIntervalSince(canceladaEm) >= TimeInterval(horasSemMulta) * 3_600 ? 0 : min(max(multaBP, 0), 10_000)
        }
    }

    /// When members may check in around a booking's start.
    public struct JanelaDeCheckin: Codable, Sendable, Equatable {
        /// Minutes before the start the check-in opens.
        public let antesMinutos: Int
        /// Minutes after the start it closes (the no-show grace).
        public let depoisMinutos: Int

        public init(antesMinutos: Int, depoisMinutos: Int) {
            self.antesMinutos = antesMinutos
            self.depoisMinutos = depoisMinutos
        }

        /// 15 minutes before until 30 minutes after the start.
        public static let padrao = JanelaDeCheckin(antesMinutos: 15, depoisMinutos: 30)

        public var valida: Bool { (0...1_440).contains(antesMinutos) && (0...1_440).contains(depoisMinutos) }
    }

    /// How a unit runs its business beyond opening hours: the ISS rate it invoices with and its
    /// check-in window. Units recorded before it existed read as ``padrao``.
    public struct Operacao: Codable, Sendable, Equatable {
        /// The municipal service tax, in basis points of the invoice (500 = 5 %), 0…10,000.
        public let aliquotaISSBP: Int64
        public let janelaDeCheckin: JanelaDeCheckin

        public init(aliquotaISSBP: Int64, janelaDeCheckin: JanelaDeCheckin) {
            self.aliquotaISSBP = aliquotaISSBP
            self.janelaDeCheckin = janelaDeCheckin
        }

        /// ISS 5 %, check-in from 15 minutes before to 30 minutes after the start.
        public static let padrao = Operacao(aliquotaISSBP: 500, janelaDeCheckin: .padrao)

        public var valida: Bool { (0...10_000).contains(aliquotaISSBP) && janelaDeCheckin.valida }
    }

    public static let tamanhoMaximoDoNome = 120

    public enum Command: Sendable, Equatable {
        case cadastrar(
            id: ID, nome: String, endereco: Endereco, fusoHorario: String, politica: PoliticaDeCancelamento,
            operacao: Operacao = .padrao, em: Date)
        /// nil leaves a field as it is; an update that changes nothing emits no event.
        case atualizar(
            nome: String?, endereco: Endereco?, fusoHorario: String?, politica: PoliticaDeCancelamento?, operacao: Operacao? = nil,
            em: Date)
    }

    /// A unit's whole record, as registered (``Cadastrada``) or after an update
    /// (``Atualizada``, every field's value, changed or not).
    public struct Registro: Codable, Sendable, Equatable {
        public let unidadeId: ID
        public let nome: String
        public let endereco: Endereco
        /// An IANA identifier, e.g. `America/Sao_Paulo`.
        public let fusoHorario: String
        public let politica: PoliticaDeCancelamento
        /// Events stored before units had it (schema version 1) read as ``Operacao/padrao``
        /// (``Catalogo/upcasts``).
        public let operacao: Operacao
        public let em: Date

        public init(
            unidadeId: ID, nome: String, endereco: Endereco, fusoHorario: String, politica: PoliticaDeCancelamento,
            operacao: Operacao = .padrao, em: Date
        ) {
            self.unidadeId = unidadeId
            self.nome = nome
            self.endereco = endereco
            self.fusoHorario = fusoHorario
            self.politica = politica
            self.operacao = operacao
            self.em = em
        }
    }

    public typealias Cadastrada = Registro
    public typealias Atualizada = Registro

    public enum Event: PayloadEvent, Equatable {
        case cadastrada(Cadastrada)
        case atualizada(Atualizada)

        public var kind: EventKind {
            switch self {
            case .cadastrada: Catalogo.cadastrada
            case .atualizada: Catalogo.atualizada
            }
        }

        public var payload: any Encodable & Sendable {
            switch self {
            case .cadastrada(let payload): payload
            case .atualizada(let payload): payload
            }
        }

        public static let decoders = EventDecoders<Event>([
            .kind(Catalogo.cadastrada, Cadastrada.self) { .cadastrada($0) },
            .kind(Catalogo.atualizada, Atualizada.self) { .atualizada($0) },
        ])
    }

    public struct Dados: Sendable, Equatable {
        public var id: ID
        public var nome: String
        public var endereco: Endereco
        public var fusoHorario: String
        public var politica: PoliticaDeCancelamento
        public var operacao: Operacao = .padrao

        public var aliquotaISSBP: Int64 { operacao.aliquotaISSBP }
        public var janelaDeCheckin: JanelaDeCheckin { operacao.janelaDeCheckin }

        /// The unit's time zone; the identifier was checked before it was recorded.
        public var fuso: TimeZone { TimeZone(identifier: fusoHorario) ?? .gmt }
    }

    /// The platform's zone, where a unit names none (a unit's default) or none is at hand (a
    /// message about no unit, a member's data export).
    public static let fusoPadrao = "America/Sao_Paulo"

    /// The zone `identificador` names; ``fusoPadrao``'s when it is absent or unknown.
    public static func fuso(_ identificador: String?) -> TimeZone {
        identificador.flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: fusoPadrao) ?? TimeZone(secondsFromGMT: -10_800) ?? .gmt
    }

    public enum State: Sendable, Equatable {
        case inexistente
        case existente(Dados)
    }

    public enum Failure: Error, Equatable, Sendable {
        case jaCadastrada
        case naoEncontrada
        /// Blank, or longer than ``tamanhoMaximoDoNome``.
        case nomeInvalido
        /// Not a time zone identifier this system knows.
        case fusoInvalido(String)
        /// A unit keeps the zone it was registered with: every agenda stream and booking already
        /// made is keyed by local days in it, so another zone would let bookings overlap.
        case fusoImutavel(atual: String)
        /// Negative hours, or a fee outside 0…10,000 basis points.
        case politicaInvalida
        /// An ISS rate outside 0…10,000 basis points, or a check-in window outside 0…1,440 minutes.
        case operacaoInvalida
        /// A required field is blank, or the UF is not a Brazilian state's.
        case enderecoInvalido(campo: String)
    }

    static func nomeValido(_ nome: String) throws(Failure) -> String {
        let trimmed = nome.trimmed
        guard !trimmed.isEmpty, TextoLivre.cabe(nome, maximo: tamanhoMaximoDoNome) else { throw .nomeInvalido }
        return trimmed
    }

    /// The canonical identifier of a known time zone.
    /// An IANA zone name (`America/Sao_Paulo`, `Etc/GMT+3`), as the tz database lists it:
    /// Foundation also takes `GMT-3`, whose sign is the opposite of IANA's `Etc/GMT-3`, and does
    /// not list the `Etc/` zones it knows.
    static func fusoValido(_ identifier: String) throws(Failure) -> String {
        let nome = identifier.trimmed
        let etc = nome.hasPrefix("Etc/") && TimeZone(identifier: nome)?.identifier == nome
        guard TimeZone.knownTimeZoneIdentifiers.contains(nome) || nome == "UTC" || etc, let zone = TimeZone(identifier: nome) else {
            throw .fusoInvalido(identifier)
        }
        return zone.identifier
    }

    static func politicaValida(_ politica: PoliticaDeCancelamento) throws(Failure) -> PoliticaDeCancelamento {
        guard politica.valida else { throw .politicaInvalida }
        return politica
    }

    static func operacaoValida(_ operacao: Operacao) throws(Failure) -> Operacao {
        guard operacao.valida else { throw .operacaoInvalida }
        return operacao
    }

    public static let decider = Decider<Command, State, Event, Failure>(
        initialState: .inexistente,
        decide: { command, state throws(Failure) in
            switch (command, state) {
            case (.cadastrar(let id, let nome, let endereco, let fuso, let politica, let operacao, let em), .inexistente):
                return [
                    .cadastrada(
                        Cadastrada(
                            unidadeId: id, nome: try nomeValido(nome), endereco: try endereco.normalizado(),
                            fusoHorario: try fusoValido(fuso), politica: try politicaValida(politica), operacao: try operacaoValida(operacao), em: em)
                    )
                ]
            case (.cadastrar, .existente):
                throw .jaCadastrada
            case (.atualizar, .inexistente):
                throw .naoEncontrada
            case (.atualizar(let nome, let endereco, let fuso, let politica, let operacao, let em), .existente(let dados)):
                let novoNome = try nome.map { (value) throws(Failure) in try nomeValido(value) } ?? dados.nome
                let novoEndereco = try endereco.map { (value) throws(Failure) in try value.normalizado() } ?? dados.endereco
                // The unit's own zone sent back is fine even when it predates the IANA-only check.
                let novoFuso =
                    try fuso.map { (value) throws(Failure) in
                        value.trimmed == dados.fusoHorario ? dados.fusoHorario : try fusoValido(value)
                    } ?? dados.fusoHorario
                guard novoFuso == dados.fusoHorario else { throw .fusoImutavel(atual: dados.fusoHorario) }
                let novaPolitica = try politica.map { (value) throws(Failure) in try politicaValida(value) } ?? dados.politica
                let novaOperacao = try operacao.map { (value) throws(Failure) in try operacaoValida(value) } ?? dados.operacao
                guard
                    novoNome != dados.nome || novoEndereco != dados.endereco || novoFuso != dados.fusoHorario
                        || novaPolitica != dados.politica || novaOperacao != dados.operacao
                else { return [] }
                return [
                    .atualizada(
                        Atualizada(
                            unidadeId: dados.id, nome: novoNome, endereco: novoEndereco, fusoHorario: novoFuso,
                            politica: novaPolitica, operacao: novaOperacao, em: em))
                ]
            }
        },
        evolve: { state, event in
            switch (state, event) {
            case (_, .cadastrada(let e)):
                return .existente(
                    Dados(
                        id: e.unidadeId, nome: e.nome, endereco: e.endereco, fusoHorario: e.fusoHorario, politica: e.politica,
                        operacao: e.operacao))
            case (.existente(var dados), .atualizada(let e)):
                dados.nome = e.nome
                dados.endereco = e.endereco
                dados.fusoHorario = e.fusoHorario
                dados.politica = e.politica
                dados.operacao = e.operacao
                return .existente(dados)
            default:
                return state
            }
        }
    )
}

extension String {
    /// Without leading and trailing white space and new lines.
    var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }

    var nilIfEmpty: String? { isEmpty ? nil : self }
}
