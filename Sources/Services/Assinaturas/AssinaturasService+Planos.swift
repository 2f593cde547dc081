import Domain
import EventStore
import Foundation
public import Projections

extension AssinaturasService {
    /// A plan as an operator sends it: to create one (`nome` required) or, without `nome`,
    /// `descricao` and `unidadeId`, a new version of its terms from `vigenteDesde`.
    public struct PedidoDePlano: Decodable, Sendable {
        public let nome: String?
        public let descricao: String?
        public let unidadeId: String?
        public let periodicidade: String
        public let valorCentavos: Int64
        public let adesaoCentavos: Int64?
        public let horasMinutos: Int64?
        public let tiposDasHoras: [String]?
        public let creditoCentavos: Int64?
        public let rolloverBP: Int64?
        public let tiposDeAcesso: [String]?
        public let diasDeAcesso: [String]?
        public let descontoBP: Int64?
        /// `YYYY-MM-DD`; today when absent on creation, required on a revision.
        public let vigenteDesde: String?
    }

    static func termos(_ pedido: PedidoDePlano) throws -> Plano.Termos {
        guard let periodicidade = Plano.Periodicidade(rawValue: pedido.periodicidade) else {
            throw ServiceError.invalido("periodicidade", "periodicidade deve ser mensal ou anual")
        }
        var dias: [DiaDaSemana] = []
        for texto in pedido.diasDeAcesso ?? [] {
            guard let dia = DiaDaSemana(rawValue: texto) else {
                throw ServiceError.invalido(
                    "diasDeAcesso", "dia desconhecido: '\(texto.prefix(20))' (use \(DiaDaSemana.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            if !dias.contains(dia) { dias.append(dia) }
        }
        let termos = Plano.Termos(
            periodicidade: periodicidade, valorCentavos: pedido.valorCentavos, adesaoCentavos: pedido.adesaoCentavos ?? 0,
            horasMinutos: pedido.horasMinutos ?? 0, tiposDasHoras: try tipos(pedido.tiposDasHoras, campo: "tiposDasHoras"),
            creditoCentavos: pedido.creditoCentavos ?? 0, rolloverBP: pedido.rolloverBP ?? 0,
            acesso: Plano.Acesso(tipos: try tipos(pedido.tiposDeAcesso, campo: "tiposDeAcesso"), dias: dias), descontoBP: pedido.descontoBP ?? 0)
        if let campo = termos.campoInvalido { throw ServiceError(Plano.Failure.termoInvalido(campo: campo)) }
        return termos
    }

    static func data(_ texto: String?, campo: String) throws -> DataLocal? {
        guard let texto else { return nil }
        guard let data = DataLocal(texto) else { throw ServiceError.invalido(campo, "\(campo) deve ser uma data AAAA-MM-DD") }
        return data
    }

    /// Today where the plan is sold (its unit's zone; the network's, São Paulo, otherwise).
    func fuso(unidade: UUID?) async throws -> String {
        guard let unidade, case .existente(let dados) = try await unidades.load(StreamNames.unidade(Unidade.ID(unidade))).state else {
            return Unidade.fusoPadrao
        }
        return dados.fusoHorario
    }

    func hoje(_ fusoHorario: String) -> DataLocal {
        DataLocal(clock.now, em: Unidade.fuso(fusoHorario))
    }

    public func criarPlano(_ pedido: PedidoDePlano, caller: Caller) async throws -> PlanoView {
        guard let nome = pedido.nome else { throw ServiceError.invalido("nome", "dê um nome ao plano") }
        try ServiceError.texto(pedido.descricao, campo: "descricao", maximo: 500)
        let termos = try Self.termos(pedido)
        let unidade = try await unidadeQueVende(pedido.unidadeId, oque: "um plano da rede")
        let fuso = try await fuso(unidade: unidade)
        let hoje = hoje(fuso)
        let desde = try Self.data(pedido.vigenteDesde, campo: "vigenteDesde") ?? hoje
        guard desde >= hoje else { throw ServiceError.invalido("vigenteDesde", "vigenteDesde não pode estar no passado") }
        let id = caller.idempotencyKey.map { Events.derivedId("plano", $0) } ?? EventIDs.random()
        try await nomeLivre(nome, unidade: unidade, exceto: id)
        let now = clock.now
        let por = caller.usuario ?? "admin"
        try await planos.handle(StreamNames.plano(id), at: now, metadata: metadata(caller), receipt: caller.receipt, failure: ServiceError.init) {
            _ in
            .criar(id: id, nome: nome, descricao: pedido.descricao, unidadeId: unidade, termos: termos, vigenteDesde: desde, por: por, em: now)
        }
        return try await planoLido(id)
    }

    /// Two plans on sale with one name in the same place (a unit, or the whole network) would
    /// be told apart by nobody at the desk or in the member's list: 409 naming `nome`. Case,
    /// accents and spaces do not make a name another; an archived plan's name is free again.
    /// (Read from the plans' read model: two operators creating the same name in the same
    /// instant could both pass.)
    func nomeLivre(_ nome: String, unidade: UUID?, exceto id: UUID) async throws {
        let chave = Self.chaveDoNome(nome)
        let unidadeId = unidade?.lowercasedString
        let docs = try await store.documents(AssinaturasReadModel.planos, grupo: "todos", limit: 1_000, offset: 0)
        for doc in docs {
            let plano = try ReadModelJSON.decoder.decode(PlanoView.self, from: doc)
            guard !plano.arquivado, plano.unidadeId?.lowercased() == unidadeId, plano.planoId.lowercased() != id.lowercasedString,
                Self.chaveDoNome(plano.nome) == chave
            else { continue }
            throw ServiceError.conflito(
                "nome_em_uso",
                "nome: já há um plano à venda chamado '\(plano.nome)' \(unidadeId == nil ? "na rede" : "nesta unidade"); escolha outro nome ou arquive aquele"
            )
        }
    }

    static func chaveDoNome(_ nome: String) -> String {
        nome.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: Locale(identifier: "pt_BR"))
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    public func revisarPlano(_ texto: String, _ pedido: PedidoDePlano, caller: Caller) async throws -> PlanoView {
        let id = try planoId(texto)
        guard pedido.nome == nil, pedido.descricao == nil, pedido.unidadeId == nil else {
            throw ServiceError.invalido("nome", "uma nova versão muda só os termos; nome, descrição e unidade ficam")
        }
        let termos = try Self.termos(pedido)
        guard let desde = try Self.data(pedido.vigenteDesde, campo: "vigenteDesde") else {
            throw ServiceError.invalido("vigenteDesde", "diga desde quando a nova versão vale (AAAA-MM-DD)")
        }
        let plano = try await planos.existing(StreamNames.plano(id), naoEncontrado: "o plano \(id.lowercasedString) não existe")
        guard case .existente(let dados) = plano else { throw ServiceError(Plano.Failure.naoEncontrado) }
        let hoje = hoje(try await fuso(unidade: dados.unidadeId))
        let now = clock.now
        let por = caller.usuario ?? "admin"
        try await planos.handle(StreamNames.plano(id), at: now, metadata: metadata(caller), receipt: caller.receipt, failure: ServiceError.init) {
            _ in
            .revisar(termos: termos, vigenteDesde: desde, hoje: hoje, por: por, em: now)
        }
        return try await planoLido(id)
    }

    public func arquivarPlano(_ texto: String, caller: Caller) async throws -> PlanoView {
        let id = try planoId(texto)
        _ = try await planos.existing(StreamNames.plano(id), naoEncontrado: "o plano \(id.lowercasedString) não existe")
        let now = clock.now
        let por = caller.usuario ?? "admin"
        try await planos.handle(StreamNames.plano(id), at: now, metadata: metadata(caller), receipt: caller.receipt, failure: ServiceError.init) {
            _ in
            .arquivar(por: por, em: now)
        }
        return try await planoLido(id)
    }

    func planoId(_ texto: String) throws -> UUID {
        guard let id = UUID(text: texto) else { throw ServiceError.naoEncontrado("o plano \(texto.prefix(60)) não existe") }
        return id
    }

    /// The plan as its stream says now (a command's answer: the read model may be behind).
    func planoLido(_ id: UUID) async throws -> PlanoView {
        let events = try await store.readStream(StreamNames.plano(id)).compactMap {
            try Plano.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder)
        }
        guard let view = PlanoView.folding(events) else { throw ServiceError.naoEncontrado("o plano \(id.lowercasedString) não existe") }
        return view
    }

    // MARK: Queries

    /// The plans, by name, 50 a page; members see only those on sale (not archived).
    public func planos(pagina: Int, todos: Bool) async throws -> Pagina<PlanoView> {
        let docs = try await store.documents(AssinaturasReadModel.planos, grupo: "todos", limit: 1_000, offset: 0)
        let views = try docs.map { try ReadModelJSON.decoder.decode(PlanoView.self, from: $0) }.filter { todos || !$0.arquivado }
        return Pagina(de: views, pagina: pagina)
    }

    public func plano(_ texto: String, todos: Bool) async throws -> PlanoView {
        let id = try planoId(texto)
        guard let doc = try await store.document(AssinaturasReadModel.planos, key: id.lowercasedString),
            case let view = try ReadModelJSON.decoder.decode(PlanoView.self, from: doc), todos || !view.arquivado
        else { throw ServiceError.naoEncontrado("o plano \(texto.prefix(60)) não existe") }
        return view
    }
}
