public import Domain
public import EventStore
public import Foundation

extension StreamNames {
    /// One unit's invoice book and ledger: `faturas-<unidade>` (see ``Fatura``).
    public static func faturas(_ unidade: Unidade.ID) -> StreamName { StreamName(category: "faturas", id: unidade.description) }
}

/// A credit note as it appears on its invoice.
public struct NotaDeCreditoView: Codable, Sendable, Equatable {
    public let id: String
    public let numero: Int
    /// `NC-3`.
    public let codigo: String
    public let reembolsoId: String
    public let valor: Money
    /// The ISS it reverted.
    public let iss: Money
    public let data: DataLocal
    public let emitidaEm: Date
}

/// What a subscription cycle's invoice bills: the plan's cycle.
public struct CicloDaFaturaView: Codable, Sendable, Equatable {
    public let assinaturaId: String
    public let ciclo: Int
    public let plano: Plano.Referencia
    public let inicio: DataLocal
    /// The first day after the cycle.
    public let fim: DataLocal
    /// The fee (in proportion), the setup fee, an upgrade's difference.
    public let itens: [Reserva.LinhaDePreco]
}

/// What a bundle's invoice bills: the bundle as it was bought.
public struct PacoteDaFaturaView: Codable, Sendable, Equatable {
    public let compraId: String
    public let pacoteId: String
    public let nome: String
    public let medida: Carteira.Medida
    public let quantidade: Int64
    public let validadeDias: Int
}

/// An invoice as operators read it, with its credit notes: of a booking (`reservaId`,
/// `espacoId`, `pagamentoId`), of a subscription's cycle (`assinatura`) or of a bundle (`pacote`).
public struct FaturaView: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable {
        case emitida, paga
        case parcialmenteReembolsada = "parcialmente_reembolsada"
        case reembolsada
    }

    public let id: String
    public let numero: Int
    /// `F-12`.
    public let codigo: String
    public let unidadeId: String
    public let reservaId: String?
    public let pagamentoId: String?
    public let assinatura: CicloDaFaturaView?
    public let pacote: PacoteDaFaturaView?
    public let usuarioId: String
    public let espacoId: String?
    /// A space type, or ``Fatura/tipoDaAssinatura`` for a subscription's invoice, or
    /// ``Fatura/tipoDoPacote`` for a bundle's.
    public let tipoDeEspaco: String
    public let metodo: String
    /// Integer centavos.
    public let valor: Money
    public let aliquotaISSBP: Int64
    public let iss: Money
    public var reembolsado: Money
    public var issDevolvido: Money
    /// `valor − reembolsado`.
    public var liquido: Money
    public var status: Status
    /// The unit's local date of issue.
    public let data: DataLocal
    public let emitidaEm: Date
    public var pagaEm: Date?
    public var notasDeCredito: [NotaDeCreditoView]

    public init(_ e: Fatura.Emitida) {
        self.init(
            e.faturaId, e.numero, e.unidadeId, reservaId: e.reservaId, pagamentoId: e.pagamentoId, usuarioId: e.usuarioId,
            espacoId: e.espacoId, tipoDeEspaco: e.tipoDeEspaco, metodo: e.metodo, valor: e.valor, aliquotaISSBP: e.aliquotaISSBP, iss: e.iss,
            data: e.data, emitidaEm: e.em)
    }

    /// A subscription cycle's invoice: issued paid.
    public init(_ e: Fatura.AssinaturaFaturada) {
        self.init(
            e.faturaId, e.numero, e.unidadeId,
            assinatura: CicloDaFaturaView(
                assinaturaId: e.assinaturaId.lowercasedString, ciclo: e.ciclo, plano: e.plano, inicio: e.inicio, fim: e.fim, itens: e.itens),
            usuarioId: e.usuarioId, tipoDeEspaco: Fatura.tipoDaAssinatura, metodo: e.metodo, valor: e.valor, aliquotaISSBP: e.aliquotaISSBP,
            iss: e.iss, data: e.data, emitidaEm: e.em, pagaEm: e.pagoEm)
    }

    /// A bundle's invoice: issued paid.
    public init(_ e: Fatura.PacoteFaturado) {
        self.init(
            e.faturaId, e.numero, e.unidadeId,
            pacote: PacoteDaFaturaView(
                compraId: e.compraId.lowercasedString, pacoteId: e.pacoteId.lowercasedString, nome: e.pacote.nome,
                medida: e.pacote.medida, quantidade: e.pacote.quantidade, validadeDias: e.pacote.validadeDias),
            usuarioId: e.usuarioId, tipoDeEspaco: Fatura.tipoDoPacote, metodo: e.metodo, valor: e.valor, aliquotaISSBP: e.aliquotaISSBP,
            iss: e.iss, data: e.data, emitidaEm: e.em, pagaEm: e.pagoEm)
    }

    /// A new invoice, nothing refunded yet: `emitida`, or `paga` when `pagaEm` is known.
    private init(
        _ faturaId: Fatura.ID, _ numero: Int, _ unidadeId: Unidade.ID, reservaId: UUID? = nil, pagamentoId: UUID? = nil,
        assinatura: CicloDaFaturaView? = nil, pacote: PacoteDaFaturaView? = nil, usuarioId: String, espacoId: UUID? = nil,
        tipoDeEspaco: String, metodo: String, valor: Money, aliquotaISSBP: Int64, iss: Money, data: DataLocal, emitidaEm: Date,
        pagaEm: Date? = nil
    ) {
        id = faturaId.description
        self.numero = numero
        codigo = "\(Fatura.serie)-\(numero)"
        self.unidadeId = unidadeId.description
        self.reservaId = reservaId?.lowercasedString
        self.pagamentoId = pagamentoId?.lowercasedString
        self.assinatura = assinatura
        self.pacote = pacote
        self.usuarioId = usuarioId
        self.espacoId = espacoId?.lowercasedString
        self.tipoDeEspaco = tipoDeEspaco
        self.metodo = metodo
        self.valor = valor
        self.aliquotaISSBP = aliquotaISSBP
        self.iss = iss
        reembolsado = .zero
        issDevolvido = .zero
        liquido = valor
        status = pagaEm == nil ? .emitida : .paga
        self.data = data
        self.emitidaEm = emitidaEm
        self.pagaEm = pagaEm
        notasDeCredito = []
    }
}

/// One fiscal document, invoice or credit note: a row of the invoices export. Amounts are
/// positive; `tipo` says which way they go.
public struct DocumentoFiscalView: Codable, Sendable, Equatable {
    public let tipo: Razao.Origem.Tipo
    public let id: String
    public let numero: Int
    public let codigo: String
    public let unidadeId: String
    public let faturaId: String
    public let numeroDaFatura: Int
    public let reservaId: String?
    public let pagamentoId: String?
    public let reembolsoId: String?
    /// A subscription's invoice: its subscription and cycle.
    public let assinaturaId: String?
    public let ciclo: Int?
    public let usuarioId: String
    public let espacoId: String?
    public let tipoDeEspaco: String
    public let metodo: String?
    public let valor: Money
    public let aliquotaISSBP: Int64
    public let iss: Money
    public let data: DataLocal
    public let em: Date
}

/// One unit's revenue on one local day for one space type: invoices issued and credit notes
/// issued that day (a refund counts on the day of its note, under its invoice's space type).
public struct ReceitaDiariaView: Codable, Sendable, Equatable {
    public let unidadeId: String
    public let data: DataLocal
    public let tipoDeEspaco: String
    public var bruto: Money
    public var reembolsos: Money
    public var issFaturado: Money
    public var issDevolvido: Money
    public var faturas: Int
    public var notasDeCredito: Int

    public init(unidadeId: String, data: DataLocal, tipoDeEspaco: String) {
        self.unidadeId = unidadeId
        self.data = data
        self.tipoDeEspaco = tipoDeEspaco
        bruto = .zero
        reembolsos = .zero
        issFaturado = .zero
        issDevolvido = .zero
        faturas = 0
        notasDeCredito = 0
    }
}

/// A unit's account balances after every entry so far.
public struct SaldosView: Codable, Sendable, Equatable {
    public let unidadeId: String
    /// One per account of the chart, in chart order.
    public var contas: [Razao.Saldo]
    public var lancamentos: Int
    public var atualizadoEm: Date?

    public init(unidadeId: String) {
        self.unidadeId = unidadeId
        contas = Razao.Conta.allCases.map { Razao.Saldo(conta: $0) }
        lancamentos = 0
        atualizadoEm = nil
    }
}

public enum FinanceiroReadModel {
    /// By invoice id, grouped by unit.
    public static let faturas = "financeiro_faturas"
    /// Invoices and credit notes, by document id, grouped by unit.
    public static let documentos = "financeiro_documentos"
    /// Each member's invoices (the same documents as ``faturas``, grouped by member, newest
    /// first): what a member reads of their own.
    public static let faturasDoMembro = "financeiro_faturas_membro"
    /// Ledger entries (``Razao/Lancamento``), by id, grouped by unit.
    public static let lancamentos = "financeiro_lancamentos"
    /// ``ReceitaDiariaView`` by `unidade|data|tipo`, grouped by unit.
    public static let receitaDiaria = "financeiro_receita_diaria"
    /// ``SaldosView`` by unit.
    public static let saldos = "financeiro_saldos"

    /// Invoices (with their credit notes), fiscal documents, ledger entries, daily revenue and
    /// balances. Every list's `ordem` starts with the unit's local date, then the instant, then
    /// the number: chronological, number order within a unit, and a period is a contiguous run
    /// (the service finds its ends by binary search).
    public static let projection = Projection(
        name: "financeiro", collections: [faturas, documentos, lancamentos, receitaDiaria, saldos, faturasDoMembro],
        types: Fatura.Catalogo.todos.types
    ) { recorded, batch in
        guard let event = try Fatura.Event.decode(type: recorded.type, data: recorded.data, using: EventJSON.decoder) else { return }
        switch event {
        case .emitida(let e): try await faturada(FaturaView(e), Int(recorded.version), batch)
        case .assinaturaFaturada(let e): try await faturada(FaturaView(e), Int(recorded.version), batch)
        case .pacoteFaturado(let e): try await faturada(FaturaView(e), Int(recorded.version), batch)
        case .paga(let e):
            guard var view = try await batch.get(FaturaView.self, faturas, e.faturaId.description) else { return }
            if view.status == .emitida { view.status = .paga }
            view.pagaEm = e.pagoEm
            try salvar(view, batch)
        case .notaDeCreditoEmitida(let e):
            let codigo = "\(Fatura.NotaDeCredito.serie)-\(e.numero)"
            if var view = try await batch.get(FaturaView.self, faturas, e.faturaId.description) {
                view.reembolsado = view.reembolsado + e.valor
                view.issDevolvido = view.issDevolvido + e.iss
                view.liquido = view.valor - view.reembolsado
                view.status = view.liquido == .zero ? .reembolsada : .parcialmenteReembolsada
                view.notasDeCredito.append(
                    NotaDeCreditoView(
                        id: e.notaId.description, numero: e.numero, codigo: codigo, reembolsoId: e.reembolsoId.lowercasedString,
                        valor: e.valor, iss: e.iss, data: e.data, emitidaEm: e.em))
                try salvar(view, batch)
            }
            let documento = DocumentoFiscalView(
                tipo: .notaDeCredito, id: e.notaId.description, numero: e.numero, codigo: codigo, unidadeId: e.unidadeId.description,
                faturaId: e.faturaId.description, numeroDaFatura: e.numeroDaFatura, reservaId: e.reservaId?.lowercasedString,
                pagamentoId: e.compraId == nil ? e.pagamentoId.lowercasedString : nil, reembolsoId: e.reembolsoId.lowercasedString,
                assinaturaId: nil, ciclo: nil, usuarioId: e.usuarioId, espacoId: e.espacoId?.lowercasedString, tipoDeEspaco: e.tipoDeEspaco,
                metodo: nil,
                valor: e.valor, aliquotaISSBP: e.aliquotaISSBP, iss: e.iss, data: e.data, em: e.em)
            try batch.put(documento, documentos, documento.id, grupo: documento.unidadeId, ordem: ordem(e.data, e.em, Int(recorded.version)))
            try await receita(documento.unidadeId, e.data, e.tipoDeEspaco, batch) { linha in
                linha.reembolsos = linha.reembolsos + e.valor
                linha.issDevolvido = linha.issDevolvido + e.iss
                linha.notasDeCredito += 1
            }
        case .contabilizado(let lancamento):
            let unidade = lancamento.unidadeId.description
            try batch.put(
                lancamento, lancamentos, lancamento.id.lowercasedString, grupo: unidade,
                ordem: ordem(lancamento.data, lancamento.em, lancamento.sequencia))
            var balanco = try await batch.get(SaldosView.self, saldos, unidade) ?? SaldosView(unidadeId: unidade)
            for partida in lancamento.partidas {
                if let index = balanco.contas.firstIndex(where: { $0.conta == partida.conta }) {
                    balanco.contas[index].lancar(partida)
                } else {
                    var saldo = Razao.Saldo(conta: partida.conta)
                    saldo.lancar(partida)
                    balanco.contas.append(saldo)
                }
            }
            balanco.lancamentos += 1
            balanco.atualizadoEm = lancamento.em
            try batch.put(balanco, saldos, unidade, grupo: nil, ordem: unidade)
        }
    }

    public static func receitaKey(unidade: String, data: DataLocal, tipoDeEspaco: String) -> String { "\(unidade)|\(data)|\(tipoDeEspaco)" }

    /// `2026-11-21|2026-11-21T13:00:00.000Z|0000000012`: the unit's local date, the instant, then
    /// a number that orders one unit's documents (invoice number, ledger sequence, or the
    /// book's stream version for the mixed list of invoices and credit notes). Fixed width, so
    /// it sorts the same under any collation.
    /// An invoice under the unit's list and its member's (newest first): one document, encoded once.
    /// A new invoice (of a booking, a cycle or a bundle): the invoice, its row of the fiscal
    /// documents, and its day's revenue under its type.
    private static func faturada(_ view: FaturaView, _ versao: Int, _ batch: ProjectionBatch) async throws {
        try salvar(view, batch)
        let documento = DocumentoFiscalView(
            tipo: .fatura, id: view.id, numero: view.numero, codigo: view.codigo, unidadeId: view.unidadeId, faturaId: view.id,
            numeroDaFatura: view.numero, reservaId: view.reservaId, pagamentoId: view.pagamentoId, reembolsoId: nil,
            assinaturaId: view.assinatura?.assinaturaId, ciclo: view.assinatura?.ciclo, usuarioId: view.usuarioId, espacoId: view.espacoId,
            tipoDeEspaco: view.tipoDeEspaco, metodo: view.metodo, valor: view.valor, aliquotaISSBP: view.aliquotaISSBP, iss: view.iss,
            data: view.data, em: view.emitidaEm)
        try batch.put(documento, documentos, documento.id, grupo: documento.unidadeId, ordem: ordem(view.data, view.emitidaEm, versao))
        try await receita(view.unidadeId, view.data, view.tipoDeEspaco, batch) { linha in
            linha.bruto = linha.bruto + view.valor
            linha.issFaturado = linha.issFaturado + view.iss
            linha.faturas += 1
        }
    }

    private static func salvar(_ view: FaturaView, _ batch: ProjectionBatch) throws {
        let doc = try ReadModelJSON.encode(view)
        batch.put(json: doc, faturas, view.id, grupo: view.unidadeId, ordem: ordem(view.data, view.emitidaEm, view.numero))
        batch.put(
            json: doc, faturasDoMembro, "\(view.usuarioId)|\(view.id)", grupo: view.usuarioId,
            ordem: NotificacoesReadModel.recentesPrimeiro(view.emitidaEm) + view.id)
    }

    static func ordem(_ data: DataLocal, _ instant: Date, _ numero: Int) -> String {
        let digits = String(numero)
        return "\(data)|\(ReservasReadModel.ordem(instant))|\(String(repeating: "0", count: max(0, 12 - digits.count)) + digits)"
    }

    private static func receita(
        _ unidade: String, _ data: DataLocal, _ tipo: String, _ batch: ProjectionBatch, _ change: (inout ReceitaDiariaView) -> Void
    ) async throws {
        let key = receitaKey(unidade: unidade, data: data, tipoDeEspaco: tipo)
        var linha =
            try await batch.get(ReceitaDiariaView.self, receitaDiaria, key)
            ?? ReceitaDiariaView(unidadeId: unidade, data: data, tipoDeEspaco: tipo)
        change(&linha)
        try batch.put(linha, receitaDiaria, key, grupo: unidade, ordem: "\(data)|\(unidade)|\(tipo)")
    }
}
