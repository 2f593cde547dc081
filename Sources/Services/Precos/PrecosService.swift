public import Domain
import EventStore
public import Foundation
import Projections

/// The precos service: each space's price table and rules, coupons, and quotes. Quoting is the
/// pure `Cotacao.cotar`; the booking handler calls ``quote(_:intervalo:cupom:em:)`` too, so a
/// member is charged exactly what the quote said at that instant.
public final class PrecosService: Sendable {
    let store: any ServiceStore
    let clock: any WallClock
    /// Tables, coupons, spaces and units as last folded: a quote reads only what is new.
    let estados = StateCache()

    public init(store: any ServiceStore, clock: any WallClock) {
        self.store = store
        self.clock = clock
    }

    static let service = "precos"

    var tabelas: AggregateStore<TabelaDePreco.Command, TabelaDePreco.State, TabelaDePreco.Event, TabelaDePreco.Failure> {
        AggregateStore(store: store, decider: TabelaDePreco.decider, cache: estados) {
            try TabelaDePreco.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder)
        }
    }

    var cupons: AggregateStore<Cupom.Command, Cupom.State, Cupom.Event, Cupom.Failure> {
        AggregateStore(store: store, decider: Cupom.decider, cache: estados) {
            try Cupom.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder)
        }
    }

    var espacos: AggregateStore<Espaco.Command, Espaco.State, Espaco.Event, Espaco.Failure> {
        AggregateStore(store: store, decider: Espaco.decider, cache: estados) {
            try Espaco.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder)
        }
    }

    var unidades: AggregateStore<Unidade.Command, Unidade.State, Unidade.Event, Unidade.Failure> {
        AggregateStore(store: store, decider: Unidade.decider, cache: estados) {
            try Unidade.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder)
        }
    }

    /// Members' credits (``Carteira``): a quote spends them before money, and a booking in
    /// its own append.
    var carteiras: AggregateStore<Carteira.Command, Carteira.State, Carteira.Event, Carteira.Failure> {
        AggregateStore(store: store, decider: Carteira.decider, cache: estados) {
            try Carteira.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder)
        }
    }

    /// Members' subscriptions (``Assinatura``): an active one's plan discount applies.
    var assinaturas: AggregateStore<Assinatura.Command, Assinatura.State, Assinatura.Event, Assinatura.Failure> {
        AggregateStore(store: store, decider: Assinatura.decider, cache: estados) {
            try Assinatura.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder)
        }
    }

    /// The discount of `titular`'s subscription on a booking of `espaco` starting on a day of
    /// `inicio` (nil: no member, no active subscription, or its access does not cover it).
    func assinatura(
        _ titular: String?, espaco: Espaco.Dados, inicio: Date, fuso: TimeZone, prefetched: Prefetched?
    ) async throws
        -> Cotacao.Assinatura?
    {
        guard let titular else { return nil }
        guard let dados = try await assinaturas.load(StreamNames.assinatura(titular), prefetched: prefetched).state.dados,
            dados.beneficiosAtivos, dados.termos.descontoBP > 0,
            dados.termos.acesso.permite(espaco.tipo, em: DataLocal(inicio, em: fuso).diaDaSemana),
            dados.unidadeId == nil || dados.unidadeId == espaco.unidade.rawValue
        else { return nil }
        return Cotacao.Assinatura(plano: dados.plano.nome, descontoBP: dados.termos.descontoBP)
    }

    /// Whether the credits `titular`'s plan granted may be spent: not while the subscription is
    /// suspended for an unpaid cycle (its benefits stop; a payment gives them back).
    func planoAtivo(_ titular: String, prefetched: Prefetched?) async throws -> Bool {
        try await assinaturas.load(StreamNames.assinatura(titular), prefetched: prefetched).state.dados?.status != .suspensa
    }

    func metadata(_ caller: Caller) -> EventMetadata {
        EventMetadata(actor: caller.usuario, requestId: caller.requestId, service: Self.service)
    }

    // MARK: Tables

    public func definirTabela(_ espaco: String, _ valores: TabelaDePreco.Valores, caller: Caller) async throws -> TabelaDePreco.Tabela {
        let id = try await existingEspaco(espaco)
        let now = clock.now
        return try Self.tabela(
            try await tabelas.handle(StreamNames.tabela(id), at: now, metadata: metadata(caller), receipt: caller.receipt, failure: ServiceError.init)
            { _ in
                .definir(espacoId: id.rawValue, valores: valores, em: now)
            })
    }

    /// `body` is the rule as JSON without an id (`{"tipo":"fim_de_semana","multiplicadorBP":12000}`).
    public func adicionarRegra(_ espaco: String, body: Data, caller: Caller) async throws -> TabelaDePreco.Regra {
        let id = try await existingEspaco(espaco)
        guard var object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else {
            throw ServiceError.requisicaoInvalida("o corpo deve ser um objeto JSON com 'tipo' e os campos da regra")
        }
        object["id"] = EventIDs.random().uppercasedString
        let regra: TabelaDePreco.Regra
        do {
            regra = try JSONDecoder().decode(TabelaDePreco.Regra.self, from: JSONSerialization.data(withJSONObject: object))
        } catch {
            throw ServiceError.requisicaoInvalida(
                "regra inválida: 'tipo' deve ser horario_de_pico, fim_de_semana, longa_duracao ou plano, com os campos do tipo (veja /docs)")
        }
        let now = clock.now
        try await tabelas.handle(StreamNames.tabela(id), at: now, metadata: metadata(caller), receipt: caller.receipt, failure: ServiceError.init) {
            _ in
            .adicionarRegra(regra, em: now)
        }
        return regra.normalizada
    }

    public func removerRegra(_ espaco: String, regra: String, caller: Caller) async throws {
        let id = try await existingEspaco(espaco)
        guard let regraId = UUID(text: regra) else { throw ServiceError.naoEncontrado("a regra \(regra.prefix(60)) não existe") }
        let now = clock.now
        try await tabelas.handle(StreamNames.tabela(id), at: now, metadata: metadata(caller), receipt: caller.receipt, failure: ServiceError.init) {
            _ in
            .removerRegra(id: regraId, em: now)
        }
    }

    public func tabela(_ espaco: String) async throws -> TabelaDePreco.Tabela {
        guard let id = Espaco.ID(espaco), let doc = try await store.document(CatalogoReadModel.tabelas, key: id.description) else {
            throw ServiceError.naoEncontrado("o espaço \(espaco.prefix(60)) não tem tabela de preços")
        }
        return try ReadModelJSON.decoder.decode(TabelaDePreco.Tabela.self, from: doc)
    }

    // MARK: Coupons

    public struct NovoCupom: Decodable, Sendable {
        public let codigo: String
        public let desconto: Cupom.Desconto
        public let validoDe: Date
        public let validoAte: Date
        public let maxUsos: Int
    }

    public struct CupomView: Codable, Sendable {
        public let codigo: String
        public let desconto: Cupom.Desconto
        public let validoDe: Date
        public let validoAte: Date
        public let maxUsos: Int
        public let usos: Int
        public let ativo: Bool

        init(_ dados: Cupom.Dados) {
            codigo = dados.codigo
            desconto = dados.desconto
            validoDe = dados.validoDe
            validoAte = dados.validoAte
            maxUsos = dados.maxUsos
            usos = dados.usos.count
            ativo = dados.ativo
        }
    }

    public func criarCupom(_ input: NovoCupom, caller: Caller) async throws -> CupomView {
        guard let codigo = Cupom.normalizarCodigo(input.codigo) else {
            throw ServiceError.invalido("codigo", "o código deve ter de 3 a 32 caracteres entre A–Z, 0–9, - e _")
        }
        let now = clock.now
        let state = try await cupons.handle(
            StreamNames.cupom(codigo), at: now, metadata: metadata(caller), receipt: caller.receipt, failure: ServiceError.init
        ) { _ in
            .criar(codigo: codigo, desconto: input.desconto, validoDe: input.validoDe, validoAte: input.validoAte, maxUsos: input.maxUsos, em: now)
        }
        return try Self.cupom(state)
    }

    public func cupom(_ codigo: String) async throws -> CupomView {
        guard let codigo = Cupom.normalizarCodigo(codigo) else { throw ServiceError.naoEncontrado("o cupom não existe") }
        return try Self.cupom(try await cupons.existing(StreamNames.cupom(codigo), naoEncontrado: "o cupom \(codigo) não existe"))
    }

    public func desativarCupom(_ codigo: String, caller: Caller) async throws -> CupomView {
        guard let codigo = Cupom.normalizarCodigo(codigo) else { throw ServiceError.naoEncontrado("o cupom não existe") }
        let stream = StreamNames.cupom(codigo)
        _ = try await cupons.existing(stream, naoEncontrado: "o cupom \(codigo) não existe")
        let now = clock.now
        return try Self.cupom(
            try await cupons.handle(stream, at: now, metadata: metadata(caller), receipt: caller.receipt, failure: ServiceError.init) { _ in
                .desativar(em: now)
            })
    }

    /// Takes a deactivated coupon back into use; an active one is answered as it is.
    public func reativarCupom(_ codigo: String, caller: Caller) async throws -> CupomView {
        guard let codigo = Cupom.normalizarCodigo(codigo) else { throw ServiceError.naoEncontrado("o cupom não existe") }
        let stream = StreamNames.cupom(codigo)
        _ = try await cupons.existing(stream, naoEncontrado: "o cupom \(codigo) não existe")
        let now = clock.now
        return try Self.cupom(
            try await cupons.handle(stream, at: now, metadata: metadata(caller), receipt: caller.receipt, failure: ServiceError.init) { _ in
                .reativar(em: now)
            })
    }

    // MARK: Quotes

    public struct PedidoDeCotacao: Decodable, Sendable {
        public let espacoId: String
        public let inicio: Date
        public let fim: Date
        public let cupom: String?
        /// A quote for someone else (an operator at the reception, a company's manager): their
        /// credits and plan, as a booking for them (``ReservasService/PedidoDeReserva/paraUsuarioId``).
        public let paraUsuarioId: String?
    }

    /// What a quote was made of: the booking handler needs the same space, unit and coupon.
    struct Contexto: Sendable {
        let espaco: Espaco.Dados
        /// The version of the space's stream `espaco` was read at.
        let espacoVersao: Int64
        let unidade: Unidade.Dados
        let cupom: (codigo: String, dados: Cupom.Dados, version: Int64)?
        let cotacao: Cotacao.Resultado
    }

    /// A member's credits that serve a booking of `espaco` at `em` starting on local day `dia`
    /// (nil: no member, or none): their own, then their company's pool within their monthly cap.
    func creditos(
        _ titular: String?, espaco: Espaco.Dados, dia: DataLocal, em now: Date, prefetched: Prefetched?
    ) async throws
        -> Cotacao.Creditos?
    {
        guard let titular else { return nil }
        let (state, _) = try await carteiras.load(StreamNames.creditos(titular), prefetched: prefetched)
        let comPlano = try await planoAtivo(titular, prefetched: prefetched)
        var creditos = Cotacao.Creditos(
            minutos: state.disponivel(.minutos, tipo: espaco.tipo, unidade: espaco.unidade.rawValue, em: now, comPlano: comPlano),
            centavos: state.disponivel(.centavos, tipo: espaco.tipo, unidade: espaco.unidade.rawValue, em: now, comPlano: comPlano))
        if let pool = try await pool(titular, mes: CalendarioAnalitico.mes(dia), prefetched: prefetched) {
            let daEmpresa = try await disponivel(no: pool, espaco: espaco, em: now)
            creditos = Cotacao.Creditos(
                minutos: creditos.minutos + daEmpresa.minutos, centavos: creditos.centavos + daEmpresa.centavos,
                daEmpresa: daEmpresa)
        }
        return creditos.minutos > 0 || creditos.centavos > 0 ? creditos : nil
    }

    /// The price of a booking the space would take now: an interval a booking would refuse
    /// (closed, blocked, past, too short or long, too near or far, an inactive space) is the
    /// same 422, so a quote never shows a price for what cannot be booked.
    /// `plano`: the caller's plan, when they sent a token (``Caller/plano``): its rules apply.
    /// `titular`: the member who asks, whose credits pay first.
    public func cotar(_ pedido: PedidoDeCotacao, plano: String? = nil, titular: String? = nil) async throws -> Cotacao.Resultado {
        let espaco = try EspacosService.espacoId(pedido.espacoId, campo: "espacoId")
        let intervalo = try Self.intervalo(pedido.inicio, pedido.fim)
        let now = clock.now
        let contexto = try await quote(espaco, intervalo: intervalo, cupom: pedido.cupom, plano: plano, titular: titular, em: now)
        do {
            try Reserva.validar(intervalo, Reserva.Condicoes(espaco: contexto.espaco, intervalo: intervalo, fuso: contexto.unidade.fuso), em: now)
        } catch {
            throw ServiceError(error)
        }
        return contexto.cotacao
    }

    /// What a quote of space `id` (with coupon `codigo`) reads, as far as the states this
    /// process keeps tell it without reading anything: the space, its unit, its price table and
    /// the coupon, and the unit's time zone. Nil when the space or its unit was never loaded here.
    func leituras(_ id: Espaco.ID, cupom codigo: String?, titular: String? = nil) -> (fuso: TimeZone, leituras: [StreamRead])? {
        let espaco = StreamNames.espaco(id)
        guard case .existente(let dados)? = espacos.cached(espaco)?.0,
            case .existente(let unidade)? = unidades.cached(StreamNames.unidade(dados.unidade))?.0
        else { return nil }
        var leituras = [espacos.read(espaco), unidades.read(StreamNames.unidade(dados.unidade)), tabelas.read(StreamNames.tabela(id))]
        if let normal = codigo.flatMap(Cupom.normalizarCodigo) { leituras.append(cupons.read(StreamNames.cupom(normal))) }
        if let titular {
            leituras.append(carteiras.read(StreamNames.creditos(titular)))
            leituras.append(assinaturas.read(StreamNames.assinatura(titular)))
            leituras.append(vinculos.read(StreamNames.vinculo(titular)))
        }
        return (unidade.fuso, leituras)
    }

    /// `prefetched`: events read ahead (``leituras(_:cupom:)``), folded instead of read again.
    func quote(
        _ id: Espaco.ID, intervalo: TimeRange, cupom codigo: String?, plano: String?, titular: String? = nil, em now: Date,
        prefetched: Prefetched? = nil
    ) async throws -> Contexto {
        let (estado, espacoVersao) = try await espacos.load(StreamNames.espaco(id), prefetched: prefetched)
        guard case .existente(let espaco) = estado else {
            throw ServiceError.invalido("espacoId", "o espaço \(id) não existe")
        }
        guard case .existente(let unidade) = try await unidades.load(StreamNames.unidade(espaco.unidade), prefetched: prefetched).state else {
            throw ServiceError.invalido("espacoId", "a unidade do espaço \(id) não existe")
        }
        guard case .definida(let tabela) = try await tabelas.load(StreamNames.tabela(id), prefetched: prefetched).state else {
            throw ServiceError.invalido("espacoId", "o espaço \(id) ainda não tem tabela de preços e não aceita reservas")
        }
        guard intervalo.duration <= Self.maximo else { throw ServiceError.invalido("fim", "uma reserva pode durar no máximo um ano") }
        var cupom: (String, Cupom.Dados, Int64)?
        if let codigo {
            guard let normal = Cupom.normalizarCodigo(codigo) else { throw ServiceError(Cupom.Failure.naoEncontrado) }
            let (state, version) = try await cupons.load(StreamNames.cupom(normal), prefetched: prefetched)
            guard case .existente(let dados) = state else { throw ServiceError(Cupom.Failure.naoEncontrado) }
            cupom = (normal, dados, version)
        }
        let creditos = try await creditos(
            titular, espaco: espaco, dia: DataLocal(intervalo.start, em: unidade.fuso), em: now, prefetched: prefetched)
        let assinatura = try await assinatura(titular, espaco: espaco, inicio: intervalo.start, fuso: unidade.fuso, prefetched: prefetched)
        do {
            let cotacao = try Cotacao.cotar(
                tabela: tabela, intervalo: intervalo, fuso: unidade.fuso, plano: plano, cupom: cupom?.1, em: now, creditos: creditos,
                assinatura: assinatura)
            return Contexto(espaco: espaco, espacoVersao: espacoVersao, unidade: unidade, cupom: cupom, cotacao: cotacao)
        } catch {
            throw ServiceError(error)
        }
    }

    // MARK: Helpers

    /// The interval of a quote or a booking: 422 when it ends before it starts or lasts over a
    /// year, before anything is read (a booking reads one agenda per day it touches).
    static func intervalo(_ inicio: Date, _ fim: Date) throws -> TimeRange {
        guard let intervalo = try? TimeRange(start: inicio, end: fim) else { throw ServiceError.invalido("fim", "'fim' deve ser depois de 'inicio'") }
        guard intervalo.duration <= maximo else { throw ServiceError.invalido("fim", "uma reserva pode durar no máximo um ano") }
        return intervalo
    }

    static let maximo: TimeInterval = 366 * 86_400

    func existingEspaco(_ text: String) async throws -> Espaco.ID {
        let id = try EspacosService.espacoId(text)
        _ = try await espacos.existing(StreamNames.espaco(id), naoEncontrado: "o espaço \(id) não existe")
        return id
    }

    static func tabela(_ state: TabelaDePreco.State) throws -> TabelaDePreco.Tabela {
        guard case .definida(let tabela) = state else { throw ServiceError.naoEncontrado("a tabela de preços não existe") }
        return tabela
    }

    static func cupom(_ state: Cupom.State) throws -> CupomView {
        guard case .existente(let dados) = state else { throw ServiceError.naoEncontrado("o cupom não existe") }
        return CupomView(dados)
    }
}
