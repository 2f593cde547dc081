public import Domain
public import EventStore
public import Foundation

extension StreamNames {
    /// A plan: `plano-<id>`.
    public static func plano(_ id: UUID) -> StreamName { StreamName(category: Plano.Catalogo.category, id: id.lowercasedString) }
    /// A holder's subscription: `assinatura-<titular>` (one at a time; a new one after the last ended).
    public static func assinatura(_ titular: String) -> StreamName { StreamName(category: Assinatura.Catalogo.category, id: titular) }
}

/// A plan as operators and members read it.
public struct PlanoView: Codable, Sendable, Equatable {
    public let planoId: String
    public let nome: String
    public let descricao: String?
    public let unidadeId: String?
    public var versoes: [Plano.Versao]
    public var arquivado: Bool
    public let criadoEm: Date
    public var atualizadoEm: Date
}

/// One cycle of a subscription.
public struct CicloView: Codable, Sendable, Equatable {
    public let numero: Int
    public let inicio: DataLocal
    /// The last day it covers.
    public let ate: DataLocal
    public let plano: Plano.Referencia
    public let proporcaoBP: Int64
    public let valorCentavos: Int64
    public let adesaoCentavos: Int64
    /// Upgrades' prorated differences of the cycle before, charged with this one.
    public let trocasCentavos: Int64
    public let minutos: Int64
    public let centavos: Int64
    public var pago: Bool
    /// Payments of this cycle at the provider given back because an operator had recorded it as
    /// paid (absent: none).
    public var devolucoes: [DevolucaoDeCicloView]?

    init(_ ciclo: Assinatura.Ciclo) {
        numero = ciclo.numero
        inicio = ciclo.inicio
        ate = ciclo.fim.adding(dias: -1)
        plano = ciclo.plano
        proporcaoBP = ciclo.proporcaoBP
        valorCentavos = ciclo.valorCentavos
        adesaoCentavos = ciclo.adesaoCentavos
        trocasCentavos = ciclo.trocasCentavos
        minutos = ciclo.lotes.filter { $0.medida == .minutos }.reduce(0) { $0 + $1.quantidade }
        centavos = ciclo.lotes.filter { $0.medida == .centavos }.reduce(0) { $0 + $1.quantidade }
        pago = ciclo.valorCentavos == 0
    }
}

/// A cycle's payment at the provider given back (the cycle was also recorded as paid by an
/// operator), and when the provider paid the refund out.
public struct DevolucaoDeCicloView: Codable, Sendable, Equatable {
    public let reembolsoId: String
    public let cobrancaId: String
    public let valorCentavos: Int64
    public let pedidaEm: Date
    /// Nil while the refund is in processing at the provider.
    public var concluidaEm: Date?
}

/// A cycle's latest charge at the payment provider, as a member pays it.
public struct CobrancaDeCicloView: Codable, Sendable, Equatable {
    public let ciclo: Int
    public let tentativa: Int
    public let cobrancaId: String
    public let metodo: MetodoDePagamento
    public let valorCentavos: Int64
    public let pix: Pagamento.Pix?
    public let boleto: Pagamento.Boleto?
}

/// A holder's subscription: plan, status, current cycle, what is scheduled, charges.
public struct AssinaturaView: Codable, Sendable, Equatable {
    public let assinaturaId: String
    public let titular: String
    public var plano: Plano.Referencia
    public var termos: Plano.Termos
    public let unidadeId: String?
    public var metodo: Assinatura.Metodo
    public let fusoHorario: String
    public let inicio: DataLocal
    /// People covered (a company's subscription); absent in documents from before seats: one.
    public let assentos: Int?
    public var status: Assinatura.Status
    public var cicloAtual: CicloView?
    /// The latest first (up to 36).
    public var ciclos: [CicloView]
    public var agendamento: Assinatura.Agendamento?
    public var inadimplencia: Assinatura.Inadimplencia?
    /// When the next cycle is charged (nil when it ends, pauses or is not active).
    public var proximaCobranca: DataLocal?
    public var motivoDoEncerramento: Assinatura.MotivoDoEncerramento?
    /// A failed charge's retry is due and was not asked for yet (the timer's business).
    public var retentativaPendente: Bool?
    /// The latest charge made at the provider, per cycle (the latest cycles first).
    public var cobrancas: [CobrancaDeCicloView]?
    public let criadaEm: Date
    public var atualizadaEm: Date

    mutating func recalcular() {
        let continua = (status == .ativa || status == .agendada) && agendamento.map { $0.tipo == .troca } ?? true
        proximaCobranca = continua ? (status == .agendada ? inicio : cicloAtual.map { $0.ate.adding(dias: 1) }) : nil
    }

    /// When the renewal timer is due: the first cycle's start, or the current one's end.
    var prazo: Date? {
        let fuso = Unidade.fuso(fusoHorario)
        switch status {
        case .agendada: return inicio.instante(minutos: 0, em: fuso)
        case .ativa, .suspensa:
            let fim = cicloAtual.map { $0.ate.adding(dias: 1).instante(minutos: 0, em: fuso) }
            let retentativa = retentativaPendente == true ? inadimplencia?.proximaTentativa : nil
            return [fim, retentativa].compactMap { $0 }.min()
        case .pausada, .encerrada: return nil
        }
    }
}

/// A subscription renewal timer (`assinaturas_prazos`).
public struct AssinaturaPrazoView: Codable, Sendable, Equatable {
    public let titular: String
    public let vence: Date
}

extension PlanoView {
    /// The view of a plan after `events` (nil before its creation).
    public static func folding(_ events: [Plano.Event]) -> PlanoView? {
        events.reduce(nil) { $0.aplicando($1) }
    }
}

extension Optional where Wrapped == PlanoView {
    func aplicando(_ event: Plano.Event) -> PlanoView? {
        switch (self, event) {
        case (_, .criado(let e)):
            return PlanoView(
                planoId: e.planoId.lowercasedString, nome: e.nome, descricao: e.descricao, unidadeId: e.unidadeId?.lowercasedString,
                versoes: [e.versao], arquivado: false, criadoEm: e.em, atualizadoEm: e.em)
        case (var view?, .revisado(let e)):
            view.versoes.append(e.versao)
            view.atualizadoEm = e.em
            return view
        case (var view?, .arquivado(let e)):
            view.arquivado = true
            view.atualizadoEm = e.em
            return view
        case (nil, _):
            return nil
        }
    }
}

extension AssinaturaView {
    /// The view of a holder's subscription after `events` of its stream (nil before any; the
    /// last subscription when several followed each other).
    public static func folding(_ events: [Assinatura.Event]) -> AssinaturaView? {
        events.reduce(nil) { $0.aplicando($1) }
    }
}

extension Optional where Wrapped == AssinaturaView {
    func aplicando(_ event: Assinatura.Event) -> AssinaturaView? {
        if case .iniciada(let e) = event {
            var view = AssinaturaView(
                assinaturaId: e.assinaturaId.lowercasedString, titular: e.titular, plano: e.plano, termos: e.termos,
                unidadeId: e.unidadeId?.lowercasedString, metodo: e.cobranca.metodo, fusoHorario: e.fusoHorario, inicio: e.inicio,
                assentos: e.assentos, status: .agendada, cicloAtual: nil, ciclos: [], agendamento: nil, inadimplencia: nil, proximaCobranca: nil,
                motivoDoEncerramento: nil, retentativaPendente: nil, cobrancas: nil, criadaEm: e.em, atualizadaEm: e.em)
            view.recalcular()
            return view
        }
        guard var view = self else { return nil }
        func alterarCiclo(_ numero: Int, _ alterar: (inout CicloView) -> Void) {
            if view.cicloAtual?.numero == numero, var atual = view.cicloAtual {
                alterar(&atual)
                view.cicloAtual = atual
            }
            if let i = view.ciclos.firstIndex(where: { $0.numero == numero }) { alterar(&view.ciclos[i]) }
        }
        func marcarPago(_ numero: Int) { alterarCiclo(numero) { $0.pago = true } }
        switch event {
        case .iniciada:
            break
        case .cicloIniciado(let e):
            let ciclo = CicloView(e.ciclo)
            view.cicloAtual = ciclo
            view.ciclos.insert(ciclo, at: 0)
            if view.ciclos.count > 36 { view.ciclos.removeLast(view.ciclos.count - 36) }
            view.plano = e.ciclo.plano
            view.termos = e.ciclo.termos
            view.status = .ativa
            view.agendamento = nil
        case .alteracaoAgendada(let e):
            view.agendamento = e.agendamento
        case .alteracaoDesfeita:
            view.agendamento = nil
        case .planoTrocado(let e):
            view.plano = e.para
            view.termos = e.termos
            view.agendamento = nil
        case .pausada:
            view.status = .pausada
            view.agendamento = nil
        case .retomada, .reativada:
            view.status = .ativa
        case .encerrada(let e):
            view.status = .encerrada
            view.agendamento = nil
            view.motivoDoEncerramento = e.motivo
        case .cobrancaConfirmada(let e):
            marcarPago(e.ciclo)
            if view.inadimplencia?.ciclo == e.ciclo {
                view.inadimplencia = nil
                view.retentativaPendente = false
            }
        case .cobrancaRecusada(let e):
            view.inadimplencia = Assinatura.Inadimplencia(
                ciclo: e.ciclo, primeiraFalha: view.inadimplencia.flatMap { $0.ciclo == e.ciclo ? $0.primeiraFalha : nil } ?? e.em,
                tentativas: e.tentativa, proximaTentativa: e.proximaTentativa)
            view.retentativaPendente = e.proximaTentativa != nil
        case .suspensa:
            view.status = .suspensa
        case .cobrancaEmitida(let e):
            let emissao = e.emissao
            var cobrancas = (view.cobrancas ?? []).filter { $0.ciclo != emissao.ciclo }
            cobrancas.insert(
                CobrancaDeCicloView(
                    ciclo: emissao.ciclo, tentativa: emissao.tentativa, cobrancaId: emissao.cobranca.cobrancaId, metodo: emissao.cobranca.metodo,
                    valorCentavos: emissao.valorCentavos, pix: emissao.cobranca.pix, boleto: emissao.cobranca.boleto), at: 0)
            view.cobrancas = Array(cobrancas.prefix(12))
        case .cobrancaReapresentada:
            view.retentativaPendente = false
        case .cobrancaAlterada(let e):
            view.metodo = e.cobranca.metodo
        case .duplicadoDevolvido(let e):
            let id = e.reembolsoId.lowercasedString
            alterarCiclo(e.ciclo) { ciclo in
                guard !(ciclo.devolucoes ?? []).contains(where: { $0.reembolsoId == id }) else { return }
                ciclo.devolucoes =
                    (ciclo.devolucoes ?? []) + [
                        DevolucaoDeCicloView(
                            reembolsoId: id, cobrancaId: e.cobrancaId, valorCentavos: e.valorCentavos, pedidaEm: e.em, concluidaEm: nil)
                    ]
            }
        case .devolucaoConcluida(let e):
            let id = e.reembolsoId.lowercasedString
            alterarCiclo(e.ciclo) { ciclo in
                guard let i = ciclo.devolucoes?.firstIndex(where: { $0.reembolsoId == id }) else { return }
                ciclo.devolucoes?[i].concluidaEm = e.em
            }
        }
        view.atualizadaEm = AssinaturasReadModel.titularEInstante(event).1
        view.recalcular()
        return view
    }
}

public enum AssinaturasReadModel {
    public static let planos = "planos"
    public static let assinaturas = "assinaturas"
    public static let prazos = "assinaturas_prazos"
    public static let porStatus = "assinaturas_por_status"

    /// `planos` (group `todos`, by name), `assinaturas` (one per holder, group `todas`),
    /// `assinaturas_por_status` (the same documents grouped by their status, for the operators'
    /// filter; a holder's document moves group as its status changes) and `assinaturas_prazos`
    /// (the renewal timers in group `prazo`, ordered by due time).
    public static let projection = Projection(
        name: "assinaturas", collections: [planos, assinaturas, porStatus, prazos],
        types: Plano.Catalogo.todos.types.union(Assinatura.Catalogo.todos.types)
    ) { recorded, batch in
        if let event = try Plano.Event.decode(type: recorded.type, data: recorded.data, using: EventJSON.decoder) {
            let id: UUID
            switch event {
            case .criado(let e): id = e.planoId
            case .revisado(let e): id = e.planoId
            case .arquivado(let e): id = e.planoId
            }
            let chave = id.lowercasedString
            guard let view = try await batch.get(PlanoView.self, planos, chave).aplicando(event) else { return }
            try batch.put(view, planos, chave, grupo: "todos", ordem: view.nome.lowercased())
            return
        }
        guard let event = try Assinatura.Event.decode(type: recorded.type, data: recorded.data, using: EventJSON.decoder) else { return }
        let titular = titularEInstante(event).0
        guard let view = try await batch.get(AssinaturaView.self, assinaturas, titular).aplicando(event) else { return }
        let doc = try ReadModelJSON.encode(view)
        batch.put(json: doc, assinaturas, titular, grupo: "todas", ordem: titular)
        batch.put(json: doc, porStatus, titular, grupo: view.status.rawValue, ordem: titular)
        if let vence = view.prazo {
            try batch.put(AssinaturaPrazoView(titular: titular, vence: vence), prazos, titular, grupo: "prazo", ordem: ReservasReadModel.ordem(vence))
        } else {
            batch.delete(prazos, titular)
        }
    }

    static func titularEInstante(_ event: Assinatura.Event) -> (String, Date) {
        switch event {
        case .iniciada(let e): (e.titular, e.em)
        case .cicloIniciado(let e): (e.titular, e.em)
        case .alteracaoAgendada(let e): (e.titular, e.em)
        case .alteracaoDesfeita(let e): (e.titular, e.em)
        case .planoTrocado(let e): (e.titular, e.em)
        case .pausada(let e): (e.titular, e.em)
        case .retomada(let e): (e.titular, e.em)
        case .encerrada(let e): (e.titular, e.em)
        case .cobrancaConfirmada(let e): (e.titular, e.em)
        case .cobrancaRecusada(let e): (e.titular, e.em)
        case .suspensa(let e): (e.titular, e.em)
        case .reativada(let e): (e.titular, e.em)
        case .cobrancaEmitida(let e): (e.titular, e.em)
        case .cobrancaReapresentada(let e): (e.titular, e.em)
        case .cobrancaAlterada(let e): (e.titular, e.em)
        case .duplicadoDevolvido(let e): (e.titular, e.em)
        case .devolucaoConcluida(let e): (e.titular, e.em)
        }
    }
}
