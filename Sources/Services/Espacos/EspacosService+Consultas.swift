public import Domain
public import Foundation
public import Projections

extension EspacosService {
    // MARK: Queries (read models)

    public struct Filtro: Sendable {
        public var unidade: String?
        public var tipo: Espaco.Tipo?
        public var capacidadeMinima: Int?
        public var comodidade: String?
        public var incluirInativos = false

        public init(
            unidade: String? = nil, tipo: Espaco.Tipo? = nil, capacidadeMinima: Int? = nil, comodidade: String? = nil, incluirInativos: Bool = false
        ) {
            self.unidade = unidade
            self.tipo = tipo
            self.capacidadeMinima = capacidadeMinima
            self.comodidade = comodidade
            self.incluirInativos = incluirInativos
        }
    }

    public struct ItemDoCatalogo: Codable, Sendable {
        public let espaco: EspacoView
        public let unidade: UnidadeView?
        public let precos: TabelaDePreco.Valores?
    }

    public func catalogo(_ filtro: Filtro, pagina: Int, porPagina: Int = 50) async throws -> Pagina<ItemDoCatalogo> {
        catalogo(filtro, pagina: pagina, porPagina: porPagina, from: try await snapshot())
    }

    /// The catalog page as JSON: encoded once per catalog change, filter and page (at most
    /// 1,000 kept), so a read of an unchanged catalog costs one small query and a copy.
    public func catalogoJSON(_ filtro: Filtro, pagina: Int) async throws -> Data {
        let snapshot = try await snapshot()
        let key = [
            filtro.unidade ?? "", filtro.tipo?.rawValue ?? "", filtro.capacidadeMinima.map(String.init) ?? "",
            filtro.comodidade ?? "", String(filtro.incluirInativos), String(pagina),
        ].joined(separator: "|")
        if let data = pages.withLock({ $0.position == snapshot.position ? $0.pages[key] : nil }) { return data }
        let data = try ReadModelJSON.encode(catalogo(filtro, pagina: pagina, porPagina: 50, from: snapshot))
        pages.withLock { cache in
            if cache.position != snapshot.position { cache = (snapshot.position, [:]) }
            if cache.pages.count < 1_000 { cache.pages[key] = data }
        }
        return data
    }

    /// An amenity as the catalog filter compares it: `+` read as a space (HTML forms and
    /// `URLSearchParams` send a space so, and the router does not decode it), runs of spaces as
    /// one, trimmed, lowercase. The same on both sides, so "Ar  condicionado" is found as
    /// `ar+condicionado`, `ar%20condicionado` or " AR condicionado ".
    public static func comodidadeComparavel(_ text: String) -> String {
        text.replacingOccurrences(of: "+", with: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased()
    }

    func catalogo(_ filtro: Filtro, pagina: Int, porPagina: Int, from catalogo: Snapshot) -> Pagina<ItemDoCatalogo> {
        let comodidade = filtro.comodidade.map(Self.comodidadeComparavel)
        let matching = catalogo.espacos.filter { espaco in
            (filtro.incluirInativos || espaco.ativo)
                && filtro.unidade.map { espaco.unidadeId == $0.lowercased() } ?? true
                && filtro.tipo.map { espaco.tipo == $0 } ?? true
                && filtro.capacidadeMinima.map { espaco.capacidade >= $0 } ?? true
                && comodidade.map { procurada in espaco.comodidades.contains { Self.comodidadeComparavel($0) == procurada } } ?? true
        }
        let itens = matching.dropFirst((pagina - 1) * porPagina).prefix(porPagina).map { espaco in
            ItemDoCatalogo(espaco: espaco, unidade: catalogo.unidades[espaco.unidadeId], precos: catalogo.precos[espaco.id])
        }
        return Pagina(itens: itens, total: matching.count, pagina: pagina)
    }

    /// The whole catalog as of its last change (``CatalogoReadModel/revisao``, or the
    /// projection's checkpoint before that document exists): read again (three queries) only
    /// when the catalog changed, so catalog reads cost one small query, shared by the reads
    /// that arrive together.
    struct Snapshot: Sendable {
        /// Its revision: a rebuild swapped in changes it even at the same position.
        let position: CatalogoReadModel.Revisao
        let espacos: [EspacoView]
        let unidades: [String: UnidadeView]
        let precos: [String: TabelaDePreco.Valores]
    }

    func snapshot() async throws -> Snapshot {
        try await snapshots.value { try await self.readSnapshot() }
    }

    private func readSnapshot() async throws -> Snapshot {
        let position: CatalogoReadModel.Revisao
        if let revisao = try await store.document(CatalogoReadModel.revisoes, key: CatalogoReadModel.revisao) {
            position = try ReadModelJSON.decoder.decode(CatalogoReadModel.Revisao.self, from: revisao)
        } else {
            position = CatalogoReadModel.Revisao(try await store.checkpoint(CatalogoReadModel.projection.checkpoint), geracao: nil)
        }
        if let cached = cache.withLock({ $0 }), cached.position == position { return cached }
        let decoder = ReadModelJSON.decoder
        func all<T: Decodable>(_ type: T.Type, _ collection: String) async throws -> [T] {
            try await store.documents(collection, grupo: nil, limit: 1_000_000, offset: 0).map { try decoder.decode(T.self, from: $0) }
        }
        let snapshot = Snapshot(
            position: position, espacos: try await all(EspacoView.self, CatalogoReadModel.espacos),
            unidades: Dictionary(try await all(UnidadeView.self, CatalogoReadModel.unidades).map { ($0.id, $0) }) { first, _ in first },
            precos: Dictionary(
                try await all(TabelaDePreco.Tabela.self, CatalogoReadModel.tabelas).map { ($0.espacoId.lowercasedString, $0.valores) }
            ) { first, _ in first })
        cache.withLock { $0 = snapshot }
        return snapshot
    }

    /// The units by name, 50 a page; with `busca`, only those whose name, street, district, city
    /// or state holds it, ignoring case and accents ("sao" finds "São Paulo").
    public func unidadesCadastradas(pagina: Int, busca: String? = nil) async throws -> Pagina<UnidadeView> {
        let procurado = busca.map(Self.dobrado).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
        guard !procurado.isEmpty else {
            let docs = try await store.documents(CatalogoReadModel.unidades, grupo: nil, limit: 50, offset: (pagina - 1) * 50)
            return Pagina(
                itens: try docs.map { try ReadModelJSON.decoder.decode(UnidadeView.self, from: $0) },
                total: try await store.count(CatalogoReadModel.unidades, grupo: nil), pagina: pagina)
        }
        // Every unit, read and matched here: an operation has tens of units, not thousands (the
        // catalog keeps them all in memory too); more would want the match in the store.
        let todas = try await store.documents(CatalogoReadModel.unidades, grupo: nil, limit: 1_000_000, offset: 0)
            .map { try ReadModelJSON.decoder.decode(UnidadeView.self, from: $0) }
        let encontradas = todas.filter { unidade in
            let e = unidade.endereco
            return [unidade.nome, e.logradouro, e.bairro ?? "", e.cidade, e.uf].contains { Self.dobrado($0).contains(procurado) }
        }
        return Pagina(itens: Array(encontradas.dropFirst((pagina - 1) * 50).prefix(50)), total: encontradas.count, pagina: pagina)
    }

    private static func dobrado(_ texto: String) -> String {
        texto.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: Locale(identifier: "pt_BR"))
    }

    public func detalhe(_ id: String) async throws -> ItemDoCatalogo {
        let espaco = try await readEspaco(id)
        return ItemDoCatalogo(espaco: espaco, unidade: try await readUnidade(espaco.unidadeId), precos: try await readTabela(espaco.id)?.valores)
    }

    public struct Disponibilidade: Codable, Sendable {
        public let espacoId: String
        public let data: DataLocal
        public let fusoHorario: String
        public let aberto: [Faixa]
        public let livres: [Espaco.Livre]

        public struct Faixa: Codable, Sendable {
            public let inicio: Date
            public let fim: Date
        }
    }

    /// Free intervals of a space on a local date (the unit's time zone), where a booking could
    /// start now: none before the minimum notice or beyond the maximum lead time, none for a
    /// space without a price table (it takes no bookings); opening hours (`aberto`) as they are.
    /// `ignorando`: a booking whose time counts as free, for moving it (ADR 0021): its own time
    /// joins the stretches around it before the minimum duration is applied, so 10:00–11:00 is
    /// shown movable to 10:30–11:30 even when 11:00–11:30 alone is too short to book.
    public func disponibilidade(_ id: String, data texto: String, ignorando reserva: String? = nil) async throws -> Disponibilidade {
        guard let data = DataLocal(texto) else {
            throw ServiceError.requisicaoInvalida("'data' deve ser uma data AAAA-MM-DD, como 2026-11-23", detalhes: ["campo": "data"])
        }
        let espaco = try await readEspaco(id)
        guard let dados = espaco.dados else { throw ServiceError.naoEncontrado("espaço \(id) não existe") }
        let fuso = try await readUnidade(espaco.unidadeId).flatMap { TimeZone(identifier: $0.fusoHorario) } ?? .gmt
        let abertos = dados.periodosAbertos(em: data, fuso: fuso)
        func livresDo(_ dia: DataLocal) async throws -> [Espaco.Livre] {
            let ocupacao = try await store.document(ReservasReadModel.ocupacao, key: ReservasReadModel.ocupacaoKey(dados.id.rawValue, dia))
                .map { try ReadModelJSON.decoder.decode(OcupacaoView.self, from: $0) }
            let ocupacoes = ocupacao.map { $0.reservas.filter { $0.key != reserva?.lowercased() }.map(\.value) } ?? []
            return dados.disponibilidade(em: dia, fuso: fuso, ocupacoes: ocupacoes)
        }
        var livres = try await livresDo(data)
        // A free stretch that reaches midnight goes on into the day next to it, and a booking
        // may take both parts: the minimum duration holds for the whole (23:30–24:00 is
        // bookable as 23:30–00:30 when the next day is free from midnight).
        let diaInteiro = data.intervalo(em: fuso)
        if let diaInteiro, abertos.first?.start == diaInteiro.start { livres = try await livresDo(data.adding(dias: -1)) + livres }
        if let diaInteiro, abertos.last?.end == diaInteiro.end { livres += try await livresDo(data.seguinte) }
        if !dados.tipo.compartilhado {
            // A room's stretches on either side of midnight are one stretch.
            livres = livres.reduce(into: []) { juntos, livre in
                if let ultimo = juntos.last, ultimo.fim == livre.inicio {
                    juntos[juntos.count - 1] = Espaco.Livre(inicio: ultimo.inicio, fim: livre.fim, vagas: livre.vagas)
                } else {
                    juntos.append(livre)
                }
            }
        }
        let tabela = try await readTabela(espaco.id)
        let reservaveis = tabela.map { dados.reservaveis(livres, agora: clock.now, duracaoMinimaDaTabela: $0.valores.duracaoMinimaMinutos) } ?? []
        return Disponibilidade(
            espacoId: espaco.id, data: data, fusoHorario: fuso.identifier,
            aberto: abertos.map { Disponibilidade.Faixa(inicio: $0.start, fim: $0.end) },
            // What falls on this date.
            livres: reservaveis.compactMap { livre in
                guard let diaInteiro else { return nil }
                let inicio = max(livre.inicio, diaInteiro.start), fim = min(livre.fim, diaInteiro.end)
                return inicio < fim ? Espaco.Livre(inicio: inicio, fim: fim, vagas: livre.vagas) : nil
            })
    }

    func readEspaco(_ id: String) async throws -> EspacoView {
        let key = try Self.espacoId(id).description
        guard let doc = try await store.document(CatalogoReadModel.espacos, key: key) else {
            throw ServiceError.naoEncontrado("espaço \(id) não existe")
        }
        return try ReadModelJSON.decoder.decode(EspacoView.self, from: doc)
    }

    func readUnidade(_ id: String) async throws -> UnidadeView? {
        try await store.document(CatalogoReadModel.unidades, key: id).map { try ReadModelJSON.decoder.decode(UnidadeView.self, from: $0) }
    }

    func readTabela(_ espaco: String) async throws -> TabelaDePreco.Tabela? {
        try await store.document(CatalogoReadModel.tabelas, key: espaco).map { try ReadModelJSON.decoder.decode(TabelaDePreco.Tabela.self, from: $0) }
    }
}
