public import Domain
import EventStore
import Foundation
import Projections

extension AnalyticsService {
    /// The memberships: now (active, suspended, paused, scheduled, MRR by plan) and month by
    /// month (started, ended, churn, MRR at the end, revenue invoiced by plan, credit use).
    public struct Assinaturas: Codable, Sendable {
        public struct Mes: Codable, Sendable {
            public let mes: String
            public let ativasNoInicio: Int
            public let ativasNoFim: Int
            public let novas: Int
            public let encerradas: Int
            /// Ended ÷ active at the start (absent when none was active).
            public let churn: Double?
            public let mrrNoFim: Money
            public let receita: Money
            public let receitaPorPlano: [PlanoMes]
            /// Of `receita`, the bundles of credits sold without a plan.
            public let receitaDePacotes: Money
            public let minutosConcedidos: Int64
            public let minutosConsumidos: Int64
            /// Spent ÷ granted (absent when none was granted).
            public let utilizacaoDeCreditos: Double?
        }

        public struct PlanoMes: Codable, Sendable {
            /// The plan's id, or the bundle's (`tipo` says which).
            public let planoId: String
            public let nome: String
            /// `plano` or `pacote` (a bundle of credits sold without a plan).
            public let tipo: String
            public let receita: Money
        }

        public struct Plano: Codable, Sendable {
            public let planoId: String
            public let nome: String
            public let ativas: Int
            public let mrr: Money
        }

        public let ativas: Int
        public let suspensas: Int
        public let pausadas: Int
        public let agendadas: Int
        public let mrr: Money
        /// By MRR, largest first.
        public let porPlano: [Plano]
        /// Oldest first, the current month last; months without a change carry the last figures.
        public let meses: [Mes]
    }

    public static let mesesMaximos = 36

    /// `meses` (1…36) months up to the current one (in São Paulo).
    public func assinaturas(meses quantos: Int) async throws -> Assinaturas {
        let hoje = DataLocal(clock.now, em: Unidade.fuso(nil))
        guard (1...Self.mesesMaximos).contains(quantos) else {
            throw ServiceError.requisicaoInvalida("'meses' deve estar entre 1 e \(Self.mesesMaximos)", detalhes: ["campo": "meses"])
        }
        let resumo =
            try await store.document(AnalyticsAssinaturasReadModel.resumo, key: AnalyticsAssinaturasReadModel.chaveDoResumo)
            .map { try ReadModelJSON.decoder.decode(AnalyticsAssinaturasResumo.self, from: $0) } ?? AnalyticsAssinaturasResumo()
        let todos = try await store.documents(AnalyticsAssinaturasReadModel.meses, grupo: nil, limit: 10_000, offset: 0).map {
            try ReadModelJSON.decoder.decode(AnalyticsAssinaturasMes.self, from: $0)
        }
        let porMes = Dictionary(todos.map { ($0.mes, $0) }, uniquingKeysWith: { a, _ in a })
        let primeiro = DataLocal(ano: hoje.ano, mes: hoje.mes, dia: 1) ?? hoje
        // The figures at the end of the last month with a change before the window.
        let inicioDaJanela = CalendarioAnalitico.mes(primeiro.somandoMeses(-(quantos - 1)))
        var anterior = todos.filter { $0.mes < inicioDaJanela }.max { $0.mes < $1.mes }.map { ($0.ativasNoFim, $0.mrrNoFimCentavos) } ?? (0, 0)
        var meses: [Assinaturas.Mes] = []
        for passo in (0..<quantos).reversed() {
            let mes = CalendarioAnalitico.mes(primeiro.somandoMeses(-passo))
            let doc = porMes[mes] ?? AnalyticsAssinaturasMes(mes: mes, ativas: anterior.0, mrrCentavos: anterior.1)
            meses.append(
                Assinaturas.Mes(
                    mes: mes, ativasNoInicio: doc.ativasNoInicio, ativasNoFim: doc.ativasNoFim, novas: doc.novas, encerradas: doc.encerradas,
                    churn: Self.razao(Int64(doc.encerradas), Int64(doc.ativasNoInicio)), mrrNoFim: Money(centavos: doc.mrrNoFimCentavos),
                    receita: Money(centavos: doc.receitaCentavos),
                    receitaPorPlano: doc.receitaPorPlano.map {
                        Assinaturas.PlanoMes(
                            planoId: $0.key, nome: $0.value.nome, tipo: $0.value.pacote == true ? "pacote" : "plano",
                            receita: Money(centavos: $0.value.receitaCentavos))
                    }
                    .sorted { ($0.receita, $0.nome) > ($1.receita, $1.nome) },
                    receitaDePacotes: Money(centavos: doc.receitaDePacotesCentavos ?? 0),
                    minutosConcedidos: doc.minutosConcedidos, minutosConsumidos: doc.minutosConsumidos,
                    utilizacaoDeCreditos: Self.razao(doc.minutosConsumidos, doc.minutosConcedidos)))
            anterior = (doc.ativasNoFim, doc.mrrNoFimCentavos)
        }
        return Assinaturas(
            ativas: resumo.ativas, suspensas: resumo.suspensas, pausadas: resumo.pausadas, agendadas: resumo.agendadas,
            mrr: Money(centavos: resumo.mrrCentavos),
            porPlano: resumo.porPlano.map {
                Assinaturas.Plano(planoId: $0.key, nome: $0.value.nome, ativas: $0.value.ativas, mrr: Money(centavos: $0.value.mrrCentavos))
            }
            .sorted { ($0.mrr, $0.nome) > ($1.mrr, $1.nome) },
            meses: meses)
    }
}
