import Crypto
public import Domain
public import EventStore
import Foundation
import Messaging
public import Projections

/// The financeiro service: invoices every confirmed payment and issues a credit note for every
/// refund, each with its ledger entry, in the unit's invoice book (`faturas-<unidade>`, see
/// ``Fatura``); answers the admin's invoice, revenue and ledger queries from the `financeiro`
/// read model.
///
/// It only reacts to events (``reagir(_:)``): the bus commits the returned writes with the
/// event's inbox row and acknowledges after. The writes carry the exact version of the book
/// they were decided on, so a concurrent decision makes the bus redeliver and this decides
/// again on fresh state; numbers stay gapless. Ids are derived from the cause's event id, so a
/// decision taken twice for the same cause writes the same event ids (the store ignores a
/// repeated append) and, on a book that already has it, nothing at all.
public final class FinanceiroService: Sendable {
    let store: any ServiceStore
    let clock: any WallClock
    /// Folded invoice books: a book grows with every invoice, and each reaction would otherwise
    /// fold the unit's whole history again. (No personal data in it: ids and amounts.)
    let livros = StateCache(capacity: 1_000)
    /// A member's name for the spreadsheet exports (nil: unknown or erased).
    let nomeDoMembro: @Sendable (String) async throws -> String?

    public init(store: any ServiceStore, clock: any WallClock, nomeDoMembro: @escaping @Sendable (String) async throws -> String? = { _ in nil }) {
        self.store = store
        self.clock = clock
        self.nomeDoMembro = nomeDoMembro
    }

    /// How an export is written.
    public enum DialetoCSV: String, Sendable, CaseIterable {
        /// RFC 4180 for programs: `,` between fields, amounts with a dot, instants in UTC, ids.
        case rfc4180
        /// What Excel (and LibreOffice) in Portuguese opens as is: a UTF-8 BOM, `;` between
        /// fields, decimal commas, local dates and times in the unit's time zone, and the
        /// names of the unit, the space and the member before the ids.
        case excel
    }

    /// The bus consumer's name (queue `coworkflow.financeiro`, inbox consumer).
    public static let consumidor = "financeiro"
    public static let bindings = [Topology.routingKey(Pagamento.Catalogo.confirmado), Topology.routingKey(Pagamento.Catalogo.reembolsoConcluido)]
    static let ator = "system:financeiro"
    static let porPagina = 50
    /// The longest period a report or export covers, in days (a leap year).
    static let diasMaximos = 366

    func livro(_ unidade: Unidade.ID) -> AggregateStore<Fatura.Command, Fatura.State, Fatura.Event, Fatura.Failure> {
        AggregateStore(store: store, decider: Fatura.decider(unidade: unidade), cache: livros) {
            try Fatura.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder)
        }
    }

    var unidades: AggregateStore<Unidade.Command, Unidade.State, Unidade.Event, Unidade.Failure> {
        AggregateStore(store: store, decider: Unidade.decider) { try Unidade.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder) }
    }

    var espacos: AggregateStore<Espaco.Command, Espaco.State, Espaco.Event, Espaco.Failure> {
        AggregateStore(store: store, decider: Espaco.decider) { try Espaco.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder) }
    }

    // MARK: Reactor

    /// The payload of `PagamentoConfirmado` this service reads (pagamentos owns the event).
    struct PagamentoConfirmado: Decodable {
        let pagamentoId: UUID
        let reservaId: UUID
        let usuarioId: String
        let unidadeId: UUID
        let espacoId: UUID
        let metodo: String
        let valor: Money
        let em: Date
    }

    /// The payload of `ReembolsoConcluido` this service reads.
    struct ReembolsoConcluido: Decodable {
        let pagamentoId: UUID
        let reembolsoId: UUID
        let unidadeId: UUID
        let valor: Money
        let em: Date
    }

    /// An event this service cannot act on: the bus retries it and then dead-letters it, where
    /// an operator sees `motivo`.
    struct ReacaoImpossivel: Error, CustomStringConvertible {
        let evento: UUID
        let tipo: String
        let motivo: String

        var description: String { "financeiro não pode tratar \(tipo) \(evento.uuidString.lowercased()): \(motivo)" }
    }

    /// The bus reactor: the writes `event` calls for (none for an event already accounted for,
    /// a payment or refund of zero, or a type it does not handle). An event it cannot account
    /// for (unknown unit or space, a refund beyond its invoice) throws: the bus retries it and
    /// then dead-letters it.
    public func reagir(_ event: RecordedEvent) async throws -> [StreamWrite] {
        switch event.type {
        case Pagamento.Catalogo.confirmado: try await faturar(event)
        case Pagamento.Catalogo.reembolsoConcluido: try await creditar(event)
        default: []
        }
    }

    private func faturar(_ event: RecordedEvent) async throws -> [StreamWrite] {
        let pagamento = try event.decode(PagamentoConfirmado.self)
        guard pagamento.valor != .zero else { return [] }  // nothing was charged: nothing to invoice
        let unidadeId = Unidade.ID(pagamento.unidadeId)
        let unidade = try await self.unidade(unidadeId, causa: event)
        guard case .existente(let espaco) = try await espacos.load(StreamNames.espaco(Espaco.ID(pagamento.espacoId))).state else {
            throw ReacaoImpossivel(evento: event.eventId, tipo: event.type, motivo: "o espaço \(pagamento.espacoId) não existe")
        }
        let now = clock.now
        let command = Fatura.Command.emitir(
            Fatura.Pagamento(
                pagamentoId: pagamento.pagamentoId, reservaId: pagamento.reservaId, usuarioId: pagamento.usuarioId, unidadeId: unidadeId,
                espacoId: pagamento.espacoId, tipoDeEspaco: espaco.tipo.rawValue, metodo: pagamento.metodo, valor: pagamento.valor,
                pagoEm: pagamento.em),
            faturaId: Fatura.ID(Self.id(causa: event.eventId, "fatura")), lancamentoId: Self.id(causa: event.eventId, "lancamento"),
            // Dated when the money moved, not when this reaction ran (a lagging bus, a
            // redriven event): the revenue of a day is what was paid that day, as analytics
            // counts it. The decider keeps dates in the order of the numbers.
            aliquotaISSBP: unidade.aliquotaISSBP, fuso: unidade.fuso, em: min(pagamento.em, now))
        return try await decidir(command, unidade: unidadeId, causa: event, em: now)
    }

    private func creditar(_ event: RecordedEvent) async throws -> [StreamWrite] {
        let reembolso = try event.decode(ReembolsoConcluido.self)
        guard reembolso.valor != .zero else { return [] }  // nothing went back: nothing to credit
        let unidadeId = Unidade.ID(reembolso.unidadeId)
        let unidade = try await self.unidade(unidadeId, causa: event)
        let now = clock.now
        let command = Fatura.Command.emitirNotaDeCredito(
            Fatura.Reembolso(
                reembolsoId: reembolso.reembolsoId, pagamentoId: reembolso.pagamentoId, unidadeId: unidadeId, valor: reembolso.valor,
                reembolsadoEm: reembolso.em),
            notaId: Fatura.NotaDeCredito.ID(Self.id(causa: event.eventId, "nota")), lancamentoId: Self.id(causa: event.eventId, "lancamento"),
            fuso: unidade.fuso, em: min(reembolso.em, now))
        return try await decidir(command, unidade: unidadeId, causa: event, em: now)
    }

    private func unidade(_ id: Unidade.ID, causa event: RecordedEvent) async throws -> Unidade.Dados {
        guard case .existente(let unidade) = try await unidades.load(StreamNames.unidade(id)).state else {
            throw ReacaoImpossivel(evento: event.eventId, tipo: event.type, motivo: "a unidade \(id) não existe")
        }
        return unidade
    }

    /// Decides `command` on the unit's book as it is now; the write expects exactly that version.
    private func decidir(_ command: Fatura.Command, unidade: Unidade.ID, causa event: RecordedEvent, em now: Date) async throws -> [StreamWrite] {
        let livro = self.livro(unidade)
        let stream = StreamNames.faturas(unidade)
        let (state, version) = try await livro.load(stream)
        let events: [Fatura.Event]
        do throws(Fatura.Failure) {
            events = try livro.decider.decide(command, state)
        } catch {
            throw ReacaoImpossivel(evento: event.eventId, tipo: event.type, motivo: Self.motivo(error))
        }
        guard !events.isEmpty else { return [] }
        var metadata = event.metadata.caused(by: event.eventId, correlationId: event.metadata.correlationId)
        metadata.actor = Self.ator
        metadata.service = Self.consumidor
        let novos = try events.enumerated().map { index, domainEvent in
            try NewEvent(eventId: Self.id(causa: event.eventId, "evento-\(index)"), event: domainEvent, metadata: metadata, occurredAt: now)
        }
        return [StreamWrite(stream: stream, expected: .after(version), events: novos)]
    }

    static func motivo(_ failure: Fatura.Failure) -> String {
        switch failure {
        case .outraUnidade(let unidade): "o comando é da unidade \(unidade), não deste livro"
        case .valorInvalido(let valor): "valor \(valor) inválido: deve ser positivo"
        case .aliquotaInvalida(let bp): "alíquota de ISS \(bp) pontos-base fora de 0…10000"
        case .faturaNaoEncontrada(let pagamento): "não há fatura do pagamento \(pagamento.uuidString.lowercased()) nesta unidade"
        case .reembolsoExcedeFatura(let disponivel): "o reembolso excede o saldo da fatura (\(disponivel))"
        case .lancamentoInvalido(let falha): "lançamento contábil inválido: \(falha)"
        }
    }

    /// A name-based UUID (RFC 9562 version 8, SHA-256) of the cause's event id and `nome`:
    /// the same cause always yields the same ids.
    static func id(causa: UUID, _ nome: String) -> UUID {
        let digest = SHA256.hash(data: Data("coworkflow.financeiro|\(causa.uuidString.lowercased())|\(nome)".utf8))
        var b = Array(digest.prefix(16))
        b[6] = (b[6] & 0x0F) | 0x80
        b[8] = (b[8] & 0x3F) | 0x80
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }
}

// MARK: Reports

/// Revenue of a period: per local day (every day of the period, zeros included), per space
/// type, and in total. Amounts in integer centavos.
public struct RelatorioDeReceita: Codable, Sendable, Equatable {
    /// One row of the report: `data` on rows per day, `tipoDeEspaco` on rows per space type,
    /// neither on the totals.
    public struct Linha: Codable, Sendable, Equatable {
        public var data: DataLocal?
        public var tipoDeEspaco: String?
        /// Invoiced.
        public var bruto: Money = .zero
        /// Refunded (credit notes).
        public var reembolsos: Money = .zero
        /// `bruto − reembolsos`.
        public var liquido: Money = .zero
        /// ISS owed: `issFaturado − issDevolvido`.
        public var iss: Money = .zero
        public var issFaturado: Money = .zero
        public var issDevolvido: Money = .zero
        public var faturas = 0
        public var notasDeCredito = 0

        init(data: DataLocal? = nil, tipoDeEspaco: String? = nil) {
            self.data = data
            self.tipoDeEspaco = tipoDeEspaco
        }

        mutating func somar(_ dia: ReceitaDiariaView) {
            bruto = bruto + dia.bruto
            reembolsos = reembolsos + dia.reembolsos
            issFaturado = issFaturado + dia.issFaturado
            issDevolvido = issDevolvido + dia.issDevolvido
            liquido = bruto - reembolsos
            iss = issFaturado - issDevolvido
            faturas += dia.faturas
            notasDeCredito += dia.notasDeCredito
        }
    }

    public let de: DataLocal
    public let ate: DataLocal
    /// nil: every unit.
    public let unidadeId: String?
    public let porDia: [Linha]
    public let porTipoDeEspaco: [Linha]
    public let totais: Linha
}

/// The ledger's balances per account, of one unit or of all.
public struct RazaoView: Codable, Sendable, Equatable {
    public struct Conta: Codable, Sendable, Equatable {
        /// `caixa`, `receita_de_servicos`, `iss_a_recolher`, `reembolsos`.
        public let conta: String
        public let nome: String
        /// `devedora` or `credora`: the side `saldo` is counted on.
        public let natureza: String
        public let debitos: Money
        public let creditos: Money
        public let saldo: Money
    }

    /// nil: every unit.
    public let unidadeId: String?
    public let contas: [Conta]
    public let totalDebitos: Money
    public let totalCreditos: Money
    /// Σ debits == Σ credits (always true unless something is badly wrong).
    public let equilibrado: Bool
    public let lancamentos: Int
}

/// Documents that have a local date their list is sorted by.
protocol Datado: Decodable {
    var data: DataLocal { get }
}

extension FaturaView: Datado {}
extension DocumentoFiscalView: Datado {}
extension ReceitaDiariaView: Datado {}
extension Razao.Lancamento: Datado {}

/// A period of local dates, both ends included; an open end is nil.
struct Periodo {
    var de: DataLocal?
    var ate: DataLocal?
}

extension FinanceiroService {
    // MARK: Queries (read models)

    /// The invoices (with their credit notes) of a unit, or of all units, issued in the period,
    /// in number order, 50 a page. `de`/`ate` are optional local dates (`AAAA-MM-DD`).
    public func faturas(unidade: String?, de: String?, ate: String?, pagina: Int) async throws -> Pagina<FaturaView> {
        let grupo = try await filtro(unidade)
        let periodo = try Self.periodo(de: de, ate: ate, obrigatorio: false)
        guard pagina >= 1 else { throw ServiceError.requisicaoInvalida("'pagina' deve ser um número a partir de 1", detalhes: ["campo": "pagina"]) }
        let faixa = try await self.faixa(FinanceiroReadModel.faturas, grupo: grupo, periodo, FaturaView.self)
        let inicio = faixa.lowerBound + (pagina - 1) * Self.porPagina
        let itens: [FaturaView] = try await ler(
            FinanceiroReadModel.faturas, grupo: grupo, inicio..<max(inicio, min(faixa.upperBound, inicio + Self.porPagina)))
        return Pagina(itens: itens, total: faixa.count, pagina: pagina)
    }

    /// One invoice by id, or 404.
    public func fatura(_ id: String) async throws -> FaturaView {
        guard let faturaId = Fatura.ID(id), let doc = try await store.document(FinanceiroReadModel.faturas, key: faturaId.description) else {
            throw ServiceError.naoEncontrado("a fatura \(id.prefix(60)) não existe")
        }
        return try ReadModelJSON.decoder.decode(FaturaView.self, from: doc)
    }

    /// The member's own invoices with their credit notes, newest first, 50 a page.
    public func faturas(doMembro usuario: String, pagina: Int) async throws -> Pagina<FaturaView> {
        guard pagina >= 1 else { throw ServiceError.requisicaoInvalida("'pagina' deve ser um número a partir de 1", detalhes: ["campo": "pagina"]) }
        let grupo = usuario.lowercased()
        let docs = try await store.documents(FinanceiroReadModel.faturasDoMembro, grupo: grupo, limit: Self.porPagina, offset: (pagina - 1) * Self.porPagina)
        return Pagina(
            itens: try docs.map { try ReadModelJSON.decoder.decode(FaturaView.self, from: $0) },
            total: try await store.count(FinanceiroReadModel.faturasDoMembro, grupo: grupo), pagina: pagina)
    }

    /// An invoice as a receipt a person prints: the unit (name, address), the member's name,
    /// the space, the booking's time in the unit's zone and its price lines, ISS and totals, and
    /// its credit notes. The member sees their own; an admin any; anyone else a 404 (the same
    /// answer as for an invoice that does not exist).
    public func recibo(_ id: String, usuario: String, admin: Bool) async throws -> Recibo {
        let fatura = try await fatura(id)
        guard admin || fatura.usuarioId.lowercased() == usuario.lowercased() else {
            throw ServiceError.naoEncontrado("a fatura \(id.prefix(60)) não existe")
        }
        var catalogo = LeituraDoCatalogo(store: store)
        let unidade = try await catalogo.unidade(fatura.unidadeId)
        let espaco = try await catalogo.espaco(fatura.espacoId)
        let reserva = try await store.document(ReservasReadModel.reservas, key: fatura.reservaId).map {
            try ReadModelJSON.decoder.decode(ReservaView.self, from: $0)
        }
        let quando = reserva.flatMap { try? TimeRange(start: $0.inicio, end: $0.fim) }.map {
            NotificacoesService.quando($0, fuso: unidade?.fusoHorario)
        }
        return Recibo(
            fatura: fatura, unidade: unidade.map { Recibo.Unidade(nome: $0.nome, endereco: $0.endereco, fusoHorario: $0.fusoHorario) },
            membro: try await nomeDoMembro(fatura.usuarioId) ?? "(dados apagados)", espaco: espaco?.nome ?? "espaço", quando: quando,
            itens: reserva?.linhas ?? [])
    }

    /// What a printable receipt shows (``recibo(_:usuario:admin:)``).
    public struct Recibo: Codable, Sendable {
        public struct Unidade: Codable, Sendable {
            public let nome: String
            public let endereco: Domain.Unidade.Endereco
            public let fusoHorario: String
        }

        public let fatura: FaturaView
        /// Absent when the unit cannot be read (never in practice).
        public let unidade: Unidade?
        public let membro: String
        public let espaco: String
        /// The booked time in the unit's zone (`25/11/2026, 10:00–11:00`).
        public let quando: String?
        /// The booking's price lines, as quoted.
        public let itens: [Reserva.LinhaDePreco]
    }

    /// Revenue from `de` to `ate` (local dates, both included, at most 366 days) by day and by
    /// space type, of one unit or of all.
    public func receita(de: String, ate: String, unidade: String?) async throws -> RelatorioDeReceita {
        let grupo = try await filtro(unidade)
        let periodo = try Self.periodo(de: de, ate: ate, obrigatorio: true)
        guard let inicio = periodo.de, let fim = periodo.ate else { throw ServiceError.requisicaoInvalida("informe 'de' e 'ate'") }
        let faixa = try await self.faixa(FinanceiroReadModel.receitaDiaria, grupo: grupo, periodo, ReceitaDiariaView.self)
        let linhas: [ReceitaDiariaView] = try await ler(FinanceiroReadModel.receitaDiaria, grupo: grupo, faixa)
        var porDia: [DataLocal: RelatorioDeReceita.Linha] = [:]
        var dia = inicio
        while dia <= fim {
            porDia[dia] = RelatorioDeReceita.Linha(data: dia)
            dia = dia.seguinte
        }
        var porTipo: [String: RelatorioDeReceita.Linha] = [:]
        var totais = RelatorioDeReceita.Linha()
        for linha in linhas {
            porDia[linha.data, default: RelatorioDeReceita.Linha(data: linha.data)].somar(linha)
            porTipo[linha.tipoDeEspaco, default: RelatorioDeReceita.Linha(tipoDeEspaco: linha.tipoDeEspaco)].somar(linha)
            totais.somar(linha)
        }
        return RelatorioDeReceita(
            de: inicio, ate: fim, unidadeId: grupo,
            porDia: porDia.values.sorted { ($0.data ?? inicio) < ($1.data ?? inicio) },
            porTipoDeEspaco: porTipo.values.sorted { ($0.tipoDeEspaco ?? "") < ($1.tipoDeEspaco ?? "") },
            totais: totais)
    }

    /// The balance of every account, of one unit or of all.
    public func razao(unidade: String?) async throws -> RazaoView {
        let grupo = try await filtro(unidade)
        var saldos: [SaldosView] = []
        if let grupo {
            if let doc = try await store.document(FinanceiroReadModel.saldos, key: grupo) {
                saldos = [try ReadModelJSON.decoder.decode(SaldosView.self, from: doc)]
            }
        } else {
            saldos = try await ler(FinanceiroReadModel.saldos, grupo: nil, 0..<(try await store.count(FinanceiroReadModel.saldos, grupo: nil)))
        }
        var contas = Dictionary(uniqueKeysWithValues: Razao.Conta.allCases.map { ($0, Razao.Saldo(conta: $0)) })
        for saldo in saldos.flatMap(\.contas) {
            var total = contas[saldo.conta] ?? Razao.Saldo(conta: saldo.conta)
            total.debitos = total.debitos + saldo.debitos
            total.creditos = total.creditos + saldo.creditos
            contas[saldo.conta] = total
        }
        let linhas = contas.values.sorted { $0.conta < $1.conta }.map {
            RazaoView.Conta(
                conta: $0.conta.rawValue, nome: $0.conta.nome, natureza: $0.conta.natureza.rawValue, debitos: $0.debitos,
                creditos: $0.creditos, saldo: $0.saldo)
        }
        let debitos = linhas.reduce(Money.zero) { $0 + $1.debitos }
        let creditos = linhas.reduce(Money.zero) { $0 + $1.creditos }
        return RazaoView(
            unidadeId: grupo, contas: linhas, totalDebitos: debitos, totalCreditos: creditos, equilibrado: debitos == creditos,
            lancamentos: saldos.reduce(0) { $0 + $1.lancamentos })
    }

    // MARK: CSV exports

    /// Every invoice and credit note of the period (local dates, both included, at most 366
    /// days) as RFC 4180 CSV: header row, every field quoted, CRLF line ends; amounts in reais
    /// with a dot (`123.45`) and in centavos. Credit note amounts are positive: `tipo` says
    /// they go back.
    public func faturasCSV(unidade: String?, de: String, ate: String, dialeto: DialetoCSV = .rfc4180) async throws -> String {
        let grupo = try await filtro(unidade)
        let periodo = try Self.periodo(de: de, ate: ate, obrigatorio: true)
        let faixa = try await self.faixa(FinanceiroReadModel.documentos, grupo: grupo, periodo, DocumentoFiscalView.self)
        let documentos: [DocumentoFiscalView] = try await ler(FinanceiroReadModel.documentos, grupo: grupo, faixa)
        if dialeto == .excel { return try await faturasExcel(documentos) }
        var linhas = [[
            "tipo", "codigo", "numero", "data", "emitido_em", "unidade_id", "documento_id", "fatura_id", "fatura_numero", "reserva_id",
            "pagamento_id", "reembolso_id", "usuario_id", "espaco_id", "tipo_de_espaco", "metodo", "valor", "valor_centavos",
            "aliquota_iss_bp", "iss", "iss_centavos",
        ]]
        for d in documentos {
            linhas.append([
                d.tipo.rawValue, d.codigo, String(d.numero), d.data.description, ReservasReadModel.ordem(d.em), d.unidadeId, d.id,
                d.faturaId, String(d.numeroDaFatura), d.reservaId, d.pagamentoId, d.reembolsoId ?? "", Self.texto(d.usuarioId),
                d.espacoId, d.tipoDeEspaco, d.metodo ?? "", Self.reais(d.valor), String(d.valor.centavos), String(d.aliquotaISSBP),
                Self.reais(d.iss), String(d.iss.centavos),
            ])
        }
        return Self.csv(linhas)
    }

    /// ``faturasCSV(unidade:de:ate:dialeto:)`` in Excel's Portuguese dialect.
    private func faturasExcel(_ documentos: [DocumentoFiscalView]) async throws -> String {
        var nomes = Nomes(financeiro: self)
        var linhas = [[
            "Tipo", "Número", "Código", "Data", "Emitido em", "Unidade", "Espaço", "Tipo de espaço", "Membro", "Método", "Valor (R$)",
            "Alíquota de ISS (%)", "ISS (R$)", "Fatura nº", "Reserva (id)", "Membro (id)", "Documento (id)",
        ]]
        for d in documentos {
            let unidade = try await nomes.unidade(d.unidadeId)
            linhas.append([
                d.tipo == .fatura ? "Fatura" : "Nota de crédito", String(d.numero), d.codigo, Self.data(d.data),
                Self.local(d.em, fuso: unidade.fuso), unidade.nome, try await nomes.espaco(d.espacoId), d.tipoDeEspaco,
                Self.texto(try await nomes.membro(d.usuarioId)), d.metodo ?? "", Self.reais(d.valor, decimal: ","),
                Self.reais(Money(centavos: d.aliquotaISSBP), decimal: ","), Self.reais(d.iss, decimal: ","), String(d.numeroDaFatura),
                d.reservaId, Self.texto(d.usuarioId), d.id,
            ])
        }
        return Self.csv(linhas, dialeto: .excel)
    }

    /// Names looked up once per export.
    struct Nomes {
        let financeiro: FinanceiroService
        var catalogo: LeituraDoCatalogo
        var membros: [String: String] = [:]

        init(financeiro: FinanceiroService) {
            self.financeiro = financeiro
            catalogo = LeituraDoCatalogo(store: financeiro.store)
        }

        mutating func unidade(_ id: String) async throws -> (nome: String, fuso: String) {
            let unidade = try await catalogo.unidade(id)
            return (unidade?.nome ?? id, unidade?.fusoHorario ?? "America/Sao_Paulo")
        }

        mutating func espaco(_ id: String) async throws -> String { try await catalogo.espaco(id)?.nome ?? id }

        mutating func membro(_ id: String) async throws -> String {
            if let known = membros[id] { return known }
            let nome = try await financeiro.nomeDoMembro(id).flatMap { $0.isEmpty ? nil : $0 } ?? "(dados apagados)"
            membros[id] = nome
            return nome
        }
    }

    /// Every ledger line (one row per partida) of the period, in entry order, as RFC 4180 CSV
    /// like ``faturasCSV(unidade:de:ate:dialeto:)``, or in Excel's Portuguese dialect.
    public func razaoCSV(unidade: String?, de: String, ate: String, dialeto: DialetoCSV = .rfc4180) async throws -> String {
        let grupo = try await filtro(unidade)
        let periodo = try Self.periodo(de: de, ate: ate, obrigatorio: true)
        let faixa = try await self.faixa(FinanceiroReadModel.lancamentos, grupo: grupo, periodo, Razao.Lancamento.self)
        let lancamentos: [Razao.Lancamento] = try await ler(FinanceiroReadModel.lancamentos, grupo: grupo, faixa)
        if dialeto == .excel {
            var nomes = Nomes(financeiro: self)
            var linhas = [["Unidade", "Sequência", "Data", "Lançado em", "Origem", "Código", "Histórico", "Conta", "Débito (R$)", "Crédito (R$)", "Lançamento (id)"]]
            for l in lancamentos {
                let unidade = try await nomes.unidade(l.unidadeId.description)
                for p in l.partidas {
                    linhas.append([
                        unidade.nome, String(l.sequencia), Self.data(l.data), Self.local(l.em, fuso: unidade.fuso), l.origem.tipo.rawValue,
                        l.origem.codigo, Self.texto(l.historico), p.conta.nome, Self.reais(p.debito, decimal: ","),
                        Self.reais(p.credito, decimal: ","), l.id.uuidString.lowercased(),
                    ])
                }
            }
            return Self.csv(linhas, dialeto: .excel)
        }
        var linhas = [[
            "unidade_id", "sequencia", "data", "lancado_em", "lancamento_id", "origem", "origem_codigo", "documento_id", "historico",
            "conta", "debito", "debito_centavos", "credito", "credito_centavos",
        ]]
        for l in lancamentos {
            for p in l.partidas {
                linhas.append([
                    l.unidadeId.description, String(l.sequencia), l.data.description, ReservasReadModel.ordem(l.em),
                    l.id.uuidString.lowercased(), l.origem.tipo.rawValue, l.origem.codigo, l.origem.documentoId.uuidString.lowercased(),
                    Self.texto(l.historico), p.conta.rawValue, Self.reais(p.debito), String(p.debito.centavos), Self.reais(p.credito),
                    String(p.credito.centavos),
                ])
            }
        }
        return Self.csv(linhas)
    }

    // MARK: Reading ranges

    /// The offsets of the documents whose local date lies in `periodo`. Lists are sorted by
    /// `ordem`, which starts with the date, so each end is a binary search (a handful of
    /// one-document reads however long the list).
    func faixa<T: Datado>(_ collection: String, grupo: String?, _ periodo: Periodo, _ type: T.Type) async throws -> Range<Int> {
        let total = try await store.count(collection, grupo: grupo)
        var inicio = 0
        var fim = total
        if let de = periodo.de { inicio = try await primeiro(collection, grupo: grupo, total: total, naoAntesDe: de, T.self) }
        if let ate = periodo.ate { fim = try await primeiro(collection, grupo: grupo, total: total, naoAntesDe: ate.seguinte, T.self) }
        return inicio..<max(inicio, fim)
    }

    /// The offset of the first document dated `limite` or later (`total` when none is).
    private func primeiro<T: Datado>(_ collection: String, grupo: String?, total: Int, naoAntesDe limite: DataLocal, _ type: T.Type) async throws -> Int {
        try await store.primeiro(collection, grupo: grupo, total: total, T.self) { $0.data >= limite }
    }

    /// The documents at `offsets`, read 500 at a time.
    func ler<T: Decodable>(_ collection: String, grupo: String?, _ offsets: Range<Int>) async throws -> [T] {
        var itens: [T] = []
        var offset = offsets.lowerBound
        while offset < offsets.upperBound {
            let limite = min(500, offsets.upperBound - offset)
            let docs = try await store.documents(collection, grupo: grupo, limit: limite, offset: offset)
            itens += try docs.map { try ReadModelJSON.decoder.decode(T.self, from: $0) }
            guard docs.count == limite else { break }
            offset += limite
        }
        return itens
    }

    // MARK: Input

    /// ``grupo(_:)`` for a unit that exists (its own stream, not a read model that may lag):
    /// a filter naming no unit is a 404, not a report of zeros.
    func filtro(_ unidade: String?) async throws -> String? {
        guard let grupo = try Self.grupo(unidade) else { return nil }
        guard let id = Unidade.ID(grupo), case .existente = try await unidades.load(StreamNames.unidade(id)).state else {
            throw ServiceError.naoEncontrado("a unidade \(grupo) não existe")
        }
        return grupo
    }

    /// The unit filter: nil or blank for every unit, else a unit id (the read models' group).
    static func grupo(_ unidade: String?) throws -> String? {
        guard let texto = unidade?.trimmingCharacters(in: .whitespaces), !texto.isEmpty else { return nil }
        guard let id = Unidade.ID(texto) else {
            throw ServiceError.requisicaoInvalida("'unidade' deve ser o id (UUID) de uma unidade", detalhes: ["campo": "unidade"])
        }
        return id.description
    }

    /// `de` and `ate` as local dates (`AAAA-MM-DD`): `de` not after `ate`, at most 366 days
    /// together; both required when `obrigatorio`.
    static func periodo(de: String?, ate: String?, obrigatorio: Bool) throws -> Periodo {
        func data(_ texto: String?, _ campo: String) throws -> DataLocal? {
            guard let texto = texto?.trimmingCharacters(in: .whitespaces), !texto.isEmpty else {
                guard !obrigatorio else {
                    throw ServiceError.requisicaoInvalida("'\(campo)' é obrigatório: uma data AAAA-MM-DD", detalhes: ["campo": campo])
                }
                return nil
            }
            guard let valor = DataLocal(texto) else {
                throw ServiceError.requisicaoInvalida("'\(campo)' deve ser uma data AAAA-MM-DD válida", detalhes: ["campo": campo])
            }
            return valor
        }
        let periodo = Periodo(de: try data(de, "de"), ate: try data(ate, "ate"))
        if let inicio = periodo.de, let fim = periodo.ate {
            guard inicio <= fim else {
                throw ServiceError.requisicaoInvalida("'de' deve ser anterior ou igual a 'ate'", detalhes: ["campo": "de"])
            }
            guard fim < inicio.adding(dias: diasMaximos) else {
                throw ServiceError.requisicaoInvalida(
                    "o período de 'de' a 'ate' pode ter no máximo \(diasMaximos) dias", detalhes: ["campo": "ate"])
            }
        }
        return periodo
    }

    // MARK: CSV

    /// RFC 4180: every field quoted (quotes doubled), CRLF after every record; in Excel's
    /// dialect `;` between fields and a UTF-8 byte order mark first (without it Excel reads
    /// the bytes as Windows-1252).
    static func csv(_ linhas: [[String]], dialeto: DialetoCSV = .rfc4180) -> String {
        let corpo = linhas.map { linha in
            linha.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: dialeto == .excel ? ";" : ",")
        }.joined(separator: "\r\n") + "\r\n"
        return dialeto == .excel ? "\u{FEFF}" + corpo : corpo
    }

    /// `25/11/2026`.
    static func data(_ data: DataLocal) -> String {
        func dois(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(dois(data.dia))/\(dois(data.mes))/\(data.ano)"
    }

    /// `25/11/2026 14:05` in `fuso`.
    static func local(_ instante: Date, fuso: String) -> String {
        let formato = DateFormatter()
        formato.locale = Locale(identifier: "pt_BR")
        formato.timeZone = TimeZone(identifier: fuso) ?? TimeZone(identifier: "America/Sao_Paulo")
        formato.dateFormat = "dd/MM/yyyy HH:mm"
        return formato.string(from: instante)
    }

    /// Free text that a spreadsheet must not run as a formula (`=`, `+`, `-`, `@` first).
    static func texto(_ valor: String) -> String {
        guard let first = valor.first, "=+-@\t\r".contains(first) else { return valor }
        return "'" + valor
    }

    /// Centavos as reais with a dot (`123.45`, `-0.05`), or with `decimal` (`123,45`).
    static func reais(_ valor: Money, decimal: String = ".") -> String {
        let magnitude = valor.centavos.magnitude
        let centavos = magnitude % 100
        return "\(valor.isNegative ? "-" : "")\(magnitude / 100)\(decimal)\(centavos < 10 ? "0" : "")\(centavos)"
    }
}
