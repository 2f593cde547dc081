import Domain
import EventStore
public import Foundation

/// One plan's figures in ``AnalyticsAssinaturasResumo`` and ``AnalyticsAssinaturasMes``.
public struct AnalyticsPlanoView: Codable, Sendable, Equatable {
    public var nome: String
    /// Active subscriptions (now; in a month: at its end).
    public var ativas: Int
    /// Monthly recurring revenue of those (a yearly fee counts a twelfth).
    public var mrrCentavos: Int64
    /// Invoiced in the month (cycles paid), in ``AnalyticsAssinaturasMes`` only.
    public var receitaCentavos: Int64
    /// A bundle of credits sold without a plan (its key is the bundle's id), not a plan; absent
    /// for plans.
    public var pacote: Bool?

    public init(nome: String) {
        self.nome = nome
        ativas = 0
        mrrCentavos = 0
        receitaCentavos = 0
    }
}

/// The memberships now: active, suspended, paused and scheduled subscriptions, the MRR, by plan.
public struct AnalyticsAssinaturasResumo: Codable, Sendable, Equatable {
    public var ativas: Int
    public var suspensas: Int
    public var pausadas: Int
    public var agendadas: Int
    public var mrrCentavos: Int64
    /// By plan id.
    public var porPlano: [String: AnalyticsPlanoView]
    public var atualizadoEm: Date?

    public init() {
        ativas = 0
        suspensas = 0
        pausadas = 0
        agendadas = 0
        mrrCentavos = 0
        porPlano = [:]
    }
}

/// One calendar month (`AAAA-MM`, in each subscription's zone): subscriptions started and ended,
/// those active at its start and end (churn is ended ÷ active at the start), revenue invoiced by
/// plan and by bundle (cycles and bundles paid, less bundles refunded), and credits in minutes granted and spent (net
/// of those given back).
public struct AnalyticsAssinaturasMes: Codable, Sendable, Equatable {
    public let mes: String
    public var ativasNoInicio: Int
    public var ativasNoFim: Int
    public var mrrNoFimCentavos: Int64
    public var novas: Int
    public var encerradas: Int
    public var receitaCentavos: Int64
    public var receitaPorPlano: [String: AnalyticsPlanoView]
    /// Of `receitaCentavos`, the bundles' (absent in months before bundles were counted).
    public var receitaDePacotesCentavos: Int64?
    public var minutosConcedidos: Int64
    public var minutosConsumidos: Int64

    public init(mes: String, ativas: Int, mrrCentavos: Int64) {
        self.mes = mes
        ativasNoInicio = ativas
        ativasNoFim = ativas
        mrrNoFimCentavos = mrrCentavos
        novas = 0
        encerradas = 0
        receitaCentavos = 0
        receitaPorPlano = [:]
        minutosConcedidos = 0
        minutosConsumidos = 0
    }
}

/// What the projection keeps of one subscription: enough to move the totals when it changes.
struct AnalyticsAssinaturaEstado: Codable, Sendable, Equatable {
    var assinaturaId: UUID
    var status: Assinatura.Status
    var planoId: String
    var planoNome: String
    var mensalCentavos: Int64
    var fusoHorario: String

    static func mensal(_ termos: Plano.Termos) -> Int64 { termos.periodicidade == .anual ? termos.valorCentavos / 12 : termos.valorCentavos }
}

/// The memberships' figures for operators (MRR, churn, revenue by plan, credit utilisation),
/// beside the bookings' analytics. Its own projection: subscriptions are few next to bookings,
/// and folding them needs none of the booking model's machinery.
public enum AnalyticsAssinaturasReadModel {
    public static let resumo = "analytics_assinaturas"
    public static let meses = "analytics_assinaturas_meses"
    static let estados = "analytics_assinaturas_estados"
    public static let chaveDoResumo = "resumo"

    public static let projection = Projection(
        name: "analytics_assinaturas", collections: [resumo, meses, estados],
        types: Assinatura.Catalogo.todos.types.union([Fatura.Catalogo.assinaturaFaturada.type, Fatura.Catalogo.pacoteFaturado.type]).union(
            [
                Carteira.Catalogo.concedidos.type, Carteira.Catalogo.consumidos.type, Carteira.Catalogo.restituidos.type,
                CompraDePacote.Catalogo.reembolsada.type,
            ])
    ) { recorded, batch in
        var total = try await batch.get(AnalyticsAssinaturasResumo.self, resumo, chaveDoResumo) ?? AnalyticsAssinaturasResumo()
        let fusoPadrao = Unidade.fusoPadrao
        /// The month doc of `data`, created with the totals as they stand before this event.
        func mes(_ data: DataLocal) async throws -> AnalyticsAssinaturasMes {
            let chave = CalendarioAnalitico.mes(data)
            return try await batch.get(AnalyticsAssinaturasMes.self, meses, chave)
                ?? AnalyticsAssinaturasMes(mes: chave, ativas: total.ativas, mrrCentavos: total.mrrCentavos)
        }
        func salvar(_ doc: AnalyticsAssinaturasMes) throws { try batch.put(doc, meses, doc.mes, grupo: nil, ordem: doc.mes) }
        func local(_ instante: Date, _ fuso: String) -> DataLocal {
            DataLocal(instante, em: Unidade.fuso(fuso))
        }

        if let event = try Carteira.Event.decode(type: recorded.type, data: recorded.data, using: EventJSON.decoder) {
            var minutos: (concedidos: Int64, consumidos: Int64) = (0, 0)
            let em: Date
            switch event {
            case .concedidos(let e):
                em = e.em
                if e.lote.medida == .minutos { minutos.concedidos = e.lote.quantidade }
            case .consumidos(let e):
                em = e.em
                minutos.consumidos = e.partes.filter { $0.medida == .minutos }.reduce(0) { $0 + $1.quantidade }
            case .restituidos(let e):
                em = e.em
                minutos.consumidos = -e.partes.filter { $0.medida == .minutos }.reduce(0) { $0 + $1.quantidade }
            default:
                return
            }
            guard minutos != (0, 0) else { return }
            var doc = try await mes(local(em, fusoPadrao))
            doc.minutosConcedidos += minutos.concedidos
            doc.minutosConsumidos += minutos.consumidos
            try salvar(doc)
            return
        }
        // A bundle refunded: its money leaves the month it was refunded in (its line may be
        // negative there when it was sold in an earlier month).
        if case .reembolsada(let e)? = try CompraDePacote.Event.decode(type: recorded.type, data: recorded.data, using: EventJSON.decoder) {
            guard e.valor > .zero else { return }
            var doc = try await mes(local(e.em, fusoPadrao))
            var linha = doc.receitaPorPlano[e.pacoteId.lowercasedString] ?? AnalyticsPlanoView(nome: e.nome)
            linha.pacote = true
            linha.receitaCentavos -= e.valor.centavos
            doc.receitaPorPlano[e.pacoteId.lowercasedString] = linha
            doc.receitaCentavos -= e.valor.centavos
            doc.receitaDePacotesCentavos = (doc.receitaDePacotesCentavos ?? 0) - e.valor.centavos
            try salvar(doc)
            return
        }
        switch try Fatura.Event.decode(type: recorded.type, data: recorded.data, using: EventJSON.decoder) {
        case .assinaturaFaturada(let e)?:
            var doc = try await mes(e.data)
            let plano = e.plano.planoId.lowercasedString
            doc.receitaCentavos += e.valor.centavos
            doc.receitaPorPlano[plano, default: AnalyticsPlanoView(nome: e.plano.nome)].receitaCentavos += e.valor.centavos
            try salvar(doc)
            return
        case .pacoteFaturado(let e)?:
            var doc = try await mes(e.data)
            var linha = doc.receitaPorPlano[e.pacoteId.lowercasedString] ?? AnalyticsPlanoView(nome: e.pacote.nome)
            linha.pacote = true
            linha.receitaCentavos += e.valor.centavos
            doc.receitaPorPlano[e.pacoteId.lowercasedString] = linha
            doc.receitaCentavos += e.valor.centavos
            doc.receitaDePacotesCentavos = (doc.receitaDePacotesCentavos ?? 0) + e.valor.centavos
            try salvar(doc)
            return
        default:
            break
        }
        guard let event = try Assinatura.Event.decode(type: recorded.type, data: recorded.data, using: EventJSON.decoder) else { return }
        let (titular, em) = AssinaturasReadModel.titularEInstante(event)
        var estado = try await batch.get(AnalyticsAssinaturaEstado.self, estados, titular)
        let antes = estado
        var nova = false
        switch event {
        case .iniciada(let e):
            estado = AnalyticsAssinaturaEstado(
                assinaturaId: e.assinaturaId, status: .agendada, planoId: e.plano.planoId.lowercasedString, planoNome: e.plano.nome,
                mensalCentavos: AnalyticsAssinaturaEstado.mensal(e.termos), fusoHorario: e.fusoHorario)
            nova = true
        case .cicloIniciado(let e):
            estado?.status = .ativa
            estado?.planoId = e.ciclo.plano.planoId.lowercasedString
            estado?.planoNome = e.ciclo.plano.nome
            estado?.mensalCentavos = AnalyticsAssinaturaEstado.mensal(e.ciclo.termos)
        case .planoTrocado(let e):
            estado?.planoId = e.para.planoId.lowercasedString
            estado?.planoNome = e.para.nome
            estado?.mensalCentavos = AnalyticsAssinaturaEstado.mensal(e.termos)
        case .pausada: estado?.status = .pausada
        case .retomada, .reativada: estado?.status = .ativa
        case .suspensa: estado?.status = .suspensa
        case .encerrada: estado?.status = .encerrada
        default: return
        }
        guard let estado, estado != antes else { return }
        // Out with the old contribution, in with the new.
        func aplicar(_ e: AnalyticsAssinaturaEstado, _ sinal: Int) {
            switch e.status {
            case .ativa:
                total.ativas += sinal
                total.mrrCentavos += Int64(sinal) * e.mensalCentavos
                total.porPlano[e.planoId, default: AnalyticsPlanoView(nome: e.planoNome)].ativas += sinal
                total.porPlano[e.planoId, default: AnalyticsPlanoView(nome: e.planoNome)].mrrCentavos += Int64(sinal) * e.mensalCentavos
                total.porPlano[e.planoId]?.nome = e.planoNome
            case .suspensa: total.suspensas += sinal
            case .pausada: total.pausadas += sinal
            case .agendada: total.agendadas += sinal
            case .encerrada: break
            }
        }
        var doc = try await mes(local(em, estado.fusoHorario))
        if let antes { aplicar(antes, -1) }
        aplicar(estado, 1)
        total.porPlano = total.porPlano.filter { $0.value.ativas != 0 || $0.value.mrrCentavos != 0 }
        total.atualizadoEm = em
        if nova { doc.novas += 1 }
        if estado.status == .encerrada, antes?.status != .encerrada { doc.encerradas += 1 }
        doc.ativasNoFim = total.ativas
        doc.mrrNoFimCentavos = total.mrrCentavos
        try salvar(doc)
        try batch.put(estado, estados, titular)
        try batch.put(total, resumo, chaveDoResumo)
    }
}
