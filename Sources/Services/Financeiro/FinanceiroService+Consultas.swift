public import Domain
import EventStore
import Foundation
public import Projections

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
        let docs = try await store.documents(
            FinanceiroReadModel.faturasDoMembro, grupo: grupo, limit: Self.porPagina, offset: (pagina - 1) * Self.porPagina)
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
        let empresa = try await empresa(daFatura: fatura)
        guard admin || fatura.usuarioId.lowercased() == usuario.lowercased() || empresa?.gere(usuario) == true else {
            throw ServiceError.naoEncontrado("a fatura \(id.prefix(60)) não existe")
        }
        var catalogo = LeituraDoCatalogo(store: store)
        let unidade = try await catalogo.unidade(fatura.unidadeId)
        var membro = empresa.map { "\($0.cadastro.razaoSocial) (CNPJ \($0.cadastro.cnpj.formatado))" }
        if membro == nil { membro = try await nomeDoMembro(fatura.usuarioId) }
        var uso: [Recibo.UsoDePessoa]?
        if let empresa { uso = try await usoNoCiclo(empresa, fatura) }
        let recibo = { (espaco: String, quando: String?, itens: [Reserva.LinhaDePreco]) in
            Recibo(
                fatura: fatura, unidade: unidade.map { Recibo.Unidade(nome: $0.nome, endereco: $0.endereco, fusoHorario: $0.fusoHorario) },
                membro: membro ?? "(dados apagados)", espaco: espaco, quando: quando, itens: itens, uso: uso)
        }
        if let ciclo = fatura.assinatura {
            return recibo(
                "Plano \(ciclo.plano.nome)", "ciclo \(ciclo.ciclo), de \(ciclo.inicio.brasileira) a \(ciclo.fim.adding(dias: -1).brasileira)",
                ciclo.itens)
        }
        if let pacote = fatura.pacote {
            let quantidade =
                pacote.medida == .minutos ? Cotacao.formatar(duracao: Int(pacote.quantidade)) : Money(centavos: pacote.quantidade).description
            return recibo(
                "Pacote \(pacote.nome)",
                "\(quantidade) em créditos, válidos por \(pacote.validadeDias) \(pacote.validadeDias == 1 ? "dia" : "dias") a partir do pagamento",
                [Reserva.LinhaDePreco(codigo: "pacote", descricao: "Pacote \(pacote.nome)", valor: fatura.valor)])
        }
        var espaco: EspacoView?
        if let id = fatura.espacoId { espaco = try await catalogo.espaco(id) }
        var reserva: ReservaView?
        if let id = fatura.reservaId, let doc = try await store.document(ReservasReadModel.reservas, key: id) {
            reserva = try ReadModelJSON.decoder.decode(ReservaView.self, from: doc)
        }
        let quando = reserva.flatMap { try? TimeRange(start: $0.inicio, end: $0.fim) }.map {
            NotificacoesService.quando($0, fuso: unidade?.fusoHorario)
        }
        return recibo(espaco?.nome ?? "espaço", quando, reserva?.linhas ?? [])
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
        /// A company's cycle invoice: what each of its people spent of the pooled credits in the
        /// cycle's months (so far), the consolidated view of its use.
        public var uso: [UsoDePessoa]?

        public struct UsoDePessoa: Codable, Sendable {
            public let usuarioId: String
            public let nome: String?
            public let minutos: Int64
            public let centavos: Int64
        }
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

    /// The company a subscription's invoice was issued to (holder `empresa-<id>`), nil otherwise.
    func empresa(daFatura fatura: FaturaView) async throws -> Empresa.Dados? {
        guard fatura.assinatura != nil, let id = Empresa.id(doTitular: fatura.usuarioId) else { return nil }
        return try await empresa(id)
    }

    /// A company as its stream says now (nil: no such company).
    func empresa(_ id: UUID) async throws -> Empresa.Dados? {
        let eventos = try await store.readStream(StreamNames.empresa(id)).compactMap {
            try Empresa.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder)
        }
        return Empresa.decider.fold(eventos).dados
    }

    /// Each person's use of the company's pool in the months of the invoiced cycle.
    func usoNoCiclo(_ empresa: Empresa.Dados, _ fatura: FaturaView) async throws -> [Recibo.UsoDePessoa]? {
        guard let ciclo = fatura.assinatura else { return nil }
        let eventos = try await store.readStream(StreamNames.creditos(fatura.usuarioId)).compactMap {
            try Carteira.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder)
        }
        let carteira = Carteira.decider.fold(eventos)
        var meses: [String] = []
        var dia = DataLocal(ano: ciclo.inicio.ano, mes: ciclo.inicio.mes, dia: 1) ?? ciclo.inicio
        while dia < ciclo.fim {
            meses.append(CalendarioAnalitico.mes(dia))
            dia = dia.somandoMeses(1)
        }
        var uso: [Recibo.UsoDePessoa] = []
        for pessoa in Set(carteira.usoNoMes.keys.map { String($0.split(separator: "|").first ?? "") }).sorted() {
            var minutos: Int64 = 0
            var centavos: Int64 = 0
            for mes in meses {
                let doMes = carteira.usoNoMes["\(pessoa)|\(mes)"] ?? (0, 0)
                minutos += doMes.minutos
                centavos += doMes.centavos
            }
            guard minutos != 0 || centavos != 0 else { continue }
            uso.append(.init(usuarioId: pessoa, nome: try await nomeDoMembro(pessoa), minutos: minutos, centavos: centavos))
        }
        return uso
    }

    /// A company's invoices (its subscription's cycles), newest first, for its managers and
    /// operators; 404 for anyone else, as for a company that does not exist.
    public func faturas(daEmpresa id: String, usuario: String, admin: Bool, pagina: Int) async throws -> Pagina<FaturaView> {
        guard let uuid = UUID(text: id), let empresa = try await empresa(uuid), admin || empresa.gere(usuario) else {
            throw ServiceError.naoEncontrado("a empresa não existe")
        }
        return try await faturas(doMembro: Empresa.titular(uuid), pagina: pagina)
    }
}
