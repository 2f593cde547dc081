public import Domain
public import EventStore
import Foundation
import Projections

/// The analytics queries behind the admin routes `/api/analytics/...`, answered from the
/// analytics read model (definitions on `AnalyticsModel`). Hours are decimal hours, rates
/// fractions in 0…1 (absent when nothing was there to divide by), money integer centavos.
public final class AnalyticsService: Sendable {
    let store: any ReadModelStore

    public init(store: any ReadModelStore) { self.store = store }

    /// The longest period a query by dates accepts.
    public static let diasMaximos = 366
    public static let limiteMaximo = 100

    // MARK: Answers

    /// `{de, ate, espacos: [{espacoId, nome, tipo, unidadeId, horasReservadas, horasAbertas,
    /// ocupacao?, dias: [{data, horasReservadas, horasAbertas, ocupacao?}]}]}`.
    public struct OcupacaoPorDia: Codable, Sendable, Equatable {
        public struct Dia: Codable, Sendable, Equatable {
            public let data: String
            public let horasReservadas: Double
            public let horasAbertas: Double
            /// Booked / open; absent when the space was closed.
            public let ocupacao: Double?
        }

        public struct Espaco: Codable, Sendable, Equatable {
            public let espacoId: String
            public let nome: String
            public let tipo: String
            public let unidadeId: String
            public let horasReservadas: Double
            public let horasAbertas: Double
            public let ocupacao: Double?
            public let dias: [Dia]
        }

        public let de: String
        public let ate: String
        public let espacos: [Espaco]
    }

    /// `{espacos: [{espacoId, nome, tipo, unidadeId, de?, ate?, horas: [Hora × 168]}],
    /// total: [Hora × 168]}`; hour 0 is domingo 00:00–01:00 local time.
    public struct OcupacaoPorHoraDaSemana: Codable, Sendable, Equatable {
        public struct Hora: Codable, Sendable, Equatable {
            /// 0…167.
            public let hora: Int
            public let diaDaSemana: String
            public let horaDoDia: Int
            public let horasReservadas: Double
            public let horasAbertas: Double
            public let ocupacao: Double?
        }

        public struct Espaco: Codable, Sendable, Equatable {
            public let espacoId: String
            public let nome: String
            public let tipo: String
            public let unidadeId: String
            /// The period counted: from the space's creation to the last day a confirmed
            /// booking touched; absent when it has none.
            public let de: String?
            public let ate: String?
            public let horas: [Hora]
        }

        public let espacos: [Espaco]
        /// All the spaces above together.
        public let total: [Hora]
    }

    /// `{de, ate, tipos: [{tipo, pagamentos, reembolsos, receita, quantidadePagamentos,
    /// quantidadeReembolsos}], total: {…}}`, highest revenue first.
    public struct ReceitaPorTipo: Codable, Sendable, Equatable {
        public struct Linha: Codable, Sendable, Equatable {
            public let tipo: String
            public let pagamentos: Money
            public let reembolsos: Money
            /// Payments − refunds.
            public let receita: Money
            public let quantidadePagamentos: Int
            public let quantidadeReembolsos: Int
        }

        public struct Total: Codable, Sendable, Equatable {
            public let pagamentos: Money
            public let reembolsos: Money
            public let receita: Money
            public let quantidadePagamentos: Int
            public let quantidadeReembolsos: Int
        }

        public let de: String
        public let ate: String
        public let tipos: [Linha]
        public let total: Total
    }

    /// Platform-wide counters and rates.
    public struct Indicadores: Codable, Sendable, Equatable {
        public let reservasSolicitadas: Int
        public let reservasConfirmadas: Int
        public let reservasCanceladas: Int
        public let canceladasAposConfirmacao: Int
        public let reservasExpiradas: Int
        /// Holds released because their payment was declined: not cancellations.
        public let reservasRecusadas: Int
        public let checkins: Int
        public let noShows: Int
        /// No-shows / (no-shows + check-ins).
        public let taxaDeNoShow: Double?
        /// Cancelled / requested.
        public let taxaDeCancelamento: Double?
        /// Mean of (start − requested at) over confirmed bookings.
        public let antecedenciaMediaHoras: Double?
        public let pagamentos: Money
        public let reembolsos: Money
        public let receita: Money
        public let quantidadePagamentos: Int
        public let quantidadeReembolsos: Int
    }

    /// `{porHoras: [Membro], porReceita: [Membro]}`, best first, members with nothing left out.
    public struct TopMembros: Codable, Sendable, Equatable {
        public struct Membro: Codable, Sendable, Equatable {
            public let usuarioId: String
            /// Confirmed bookings not cancelled afterwards.
            public let horasConfirmadas: Double
            public let reservasConfirmadas: Int
            /// Payments − refunds.
            public let receita: Money
        }

        public let porHoras: [Membro]
        public let porReceita: [Membro]
    }

    // MARK: Queries

    /// Occupancy of one space (or of every space) on each local day of `de`…`ate`
    /// (`AAAA-MM-DD`, inclusive, at most 366 days).
    public func ocupacao(espaco: String?, de: String, ate: String) async throws -> OcupacaoPorDia {
        let (inicio, fim) = try Self.periodo(de: de, ate: ate)
        let espacos = try await self.espacos(espaco)
        let meses = Self.meses(de: inicio, ate: fim)
        var reservados: [String: [Int64]] = [:]
        if espacos.count == 1, let unico = espacos.first {
            for mes in meses {
                if let data = try await store.document(AnalyticsReadModel.ocupacao, key: AnalyticsReadModel.chaveDeOcupacao(unico.espacoId, mes)) {
                    let doc = try ReadModelJSON.decoder.decode(AnalyticsOcupacaoMes.self, from: data)
                    reservados[AnalyticsReadModel.chaveDeOcupacao(doc.espacoId, doc.mes)] = doc.segundosReservados
                }
            }
        } else {
            for mes in meses {
                for doc in try await todos(AnalyticsOcupacaoMes.self, AnalyticsReadModel.ocupacao, grupo: mes) {
                    reservados[AnalyticsReadModel.chaveDeOcupacao(doc.espacoId, doc.mes)] = doc.segundosReservados
                }
            }
        }
        let linhas = espacos.map { espaco in
            var dias: [OcupacaoPorDia.Dia] = []
            var totalReservado: Int64 = 0
            var totalAberto: Int64 = 0
            for dia in inicio...fim {
                let (ano, mes, diaDoMes) = CalendarioAnalitico.civil(dia)
                let data = CalendarioAnalitico.data(dia)
                let doMes = reservados[AnalyticsReadModel.chaveDeOcupacao(espaco.espacoId, CalendarioAnalitico.mes(ano: ano, mes: mes))]
                let reservado = doMes.flatMap { $0.indices.contains(diaDoMes - 1) ? $0[diaDoMes - 1] : nil } ?? 0
                let aberto = espaco.vigencia(em: data)?.segundosAbertos(diaDaSemana: CalendarioAnalitico.diaDaSemana(dia)) ?? 0
                totalReservado += reservado
                totalAberto += aberto
                dias.append(OcupacaoPorDia.Dia(
                    data: data, horasReservadas: Self.horas(reservado), horasAbertas: Self.horas(aberto), ocupacao: Self.razao(reservado, aberto)))
            }
            return OcupacaoPorDia.Espaco(
                espacoId: espaco.espacoId, nome: espaco.nome, tipo: espaco.tipo, unidadeId: espaco.unidadeId,
                horasReservadas: Self.horas(totalReservado), horasAbertas: Self.horas(totalAberto),
                ocupacao: Self.razao(totalReservado, totalAberto), dias: dias)
        }
        return OcupacaoPorDia(de: CalendarioAnalitico.data(inicio), ate: CalendarioAnalitico.data(fim), espacos: linhas)
    }

    /// Occupancy of one space (or of every space) in each of the 168 hours of the week.
    public func ocupacaoPorHoraDaSemana(espaco: String?) async throws -> OcupacaoPorHoraDaSemana {
        let espacos = try await self.espacos(espaco)
        var semanas: [String: AnalyticsSemana] = [:]
        if espacos.count == 1, let unico = espacos.first {
            if let data = try await store.document(AnalyticsReadModel.semana, key: unico.espacoId) {
                semanas[unico.espacoId] = try ReadModelJSON.decoder.decode(AnalyticsSemana.self, from: data)
            }
        } else {
            for doc in try await todos(AnalyticsSemana.self, AnalyticsReadModel.semana, grupo: nil) { semanas[doc.espacoId] = doc }
        }
        var totalReservado = [Int64](repeating: 0, count: 168)
        var totalAberto = [Int64](repeating: 0, count: 168)
        let linhas = espacos.map { espaco in
            let semana = semanas[espaco.espacoId]
            let reservado = semana?.segundosReservados ?? Array(repeating: 0, count: 168)
            var aberto = [Int64](repeating: 0, count: 168)
            let primeiro = espaco.vigencias.first.flatMap { CalendarioAnalitico.dias($0.desde) }
            let ultimo = semana?.ultimoDia.flatMap(CalendarioAnalitico.dias)
            if let primeiro, let ultimo, primeiro <= ultimo {
                for dia in primeiro...ultimo {
                    guard let vigencia = espaco.vigencia(em: CalendarioAnalitico.data(dia)), vigencia.ativo else { continue }
                    let diaDaSemana = CalendarioAnalitico.diaDaSemana(dia)
                    for faixa in vigencia.horario.dias[diaDaSemana] {
                        for hora in (faixa.abre / 60)..<((faixa.fecha + 59) / 60) {
                            let minutos = min(faixa.fecha, (hora + 1) * 60) - max(faixa.abre, hora * 60)
                            aberto[diaDaSemana * 24 + hora] += Int64(minutos) * 60 * Int64(vigencia.lugares)
                        }
                    }
                }
            }
            for hora in 0..<168 where reservado.indices.contains(hora) {
                totalReservado[hora] += reservado[hora]
                totalAberto[hora] += aberto[hora]
            }
            let temPeriodo = primeiro != nil && ultimo != nil
            return OcupacaoPorHoraDaSemana.Espaco(
                espacoId: espaco.espacoId, nome: espaco.nome, tipo: espaco.tipo, unidadeId: espaco.unidadeId,
                de: temPeriodo ? espaco.vigencias.first?.desde : nil, ate: temPeriodo ? semana?.ultimoDia : nil,
                horas: Self.horasDaSemana(reservado, aberto))
        }
        return OcupacaoPorHoraDaSemana(espacos: linhas, total: Self.horasDaSemana(totalReservado, totalAberto))
    }

    /// Payments and refunds of `de`…`ate` (local days of each unit) by space type.
    public func receitaPorTipo(de: String, ate: String) async throws -> ReceitaPorTipo {
        let (inicio, fim) = try Self.periodo(de: de, ate: ate)
        struct Soma {
            var pagamentos = Money.zero
            var reembolsos = Money.zero
            var quantidadePagamentos = 0
            var quantidadeReembolsos = 0
        }
        var porTipo: [String: Soma] = [:]
        for mes in Self.meses(de: inicio, ate: fim) {
            guard let data = try await store.document(AnalyticsReadModel.receita, key: mes) else { continue }
            let doc = try ReadModelJSON.decoder.decode(AnalyticsReceitaMes.self, from: data)
            guard let primeiroDoMes = CalendarioAnalitico.dias(mes + "-01") else { continue }
            for (tipo, linha) in doc.tipos {
                var soma = porTipo[tipo] ?? Soma()
                for indice in linha.pagamentos.indices where (inicio...fim).contains(primeiroDoMes + Int64(indice)) {
                    soma.pagamentos = soma.pagamentos + linha.pagamentos[indice]
                    soma.reembolsos = soma.reembolsos + (linha.reembolsos.indices.contains(indice) ? linha.reembolsos[indice] : .zero)
                    soma.quantidadePagamentos += linha.quantidadePagamentos.indices.contains(indice) ? linha.quantidadePagamentos[indice] : 0
                    soma.quantidadeReembolsos += linha.quantidadeReembolsos.indices.contains(indice) ? linha.quantidadeReembolsos[indice] : 0
                }
                porTipo[tipo] = soma
            }
        }
        let tipos = porTipo.map { tipo, soma in
            ReceitaPorTipo.Linha(
                tipo: tipo, pagamentos: soma.pagamentos, reembolsos: soma.reembolsos, receita: soma.pagamentos - soma.reembolsos,
                quantidadePagamentos: soma.quantidadePagamentos, quantidadeReembolsos: soma.quantidadeReembolsos)
        }
        .filter { $0.quantidadePagamentos + $0.quantidadeReembolsos > 0 }
        .sorted { ($1.receita, $0.tipo) < ($0.receita, $1.tipo) }
        let total = ReceitaPorTipo.Total(
            pagamentos: tipos.reduce(.zero) { $0 + $1.pagamentos }, reembolsos: tipos.reduce(.zero) { $0 + $1.reembolsos },
            receita: tipos.reduce(.zero) { $0 + $1.receita }, quantidadePagamentos: tipos.reduce(0) { $0 + $1.quantidadePagamentos },
            quantidadeReembolsos: tipos.reduce(0) { $0 + $1.quantidadeReembolsos })
        return ReceitaPorTipo(de: CalendarioAnalitico.data(inicio), ate: CalendarioAnalitico.data(fim), tipos: tipos, total: total)
    }

    public func indicadores() async throws -> Indicadores {
        let doc = try await store.document(AnalyticsReadModel.indicadores, key: AnalyticsReadModel.geral)
            .map { try ReadModelJSON.decoder.decode(AnalyticsIndicadores.self, from: $0) } ?? AnalyticsIndicadores()
        return Indicadores(
            reservasSolicitadas: doc.reservasSolicitadas, reservasConfirmadas: doc.reservasConfirmadas,
            reservasCanceladas: doc.reservasCanceladas, canceladasAposConfirmacao: doc.canceladasAposConfirmacao,
            reservasExpiradas: doc.reservasExpiradas, reservasRecusadas: doc.reservasRecusadas, checkins: doc.checkins, noShows: doc.noShows,
            taxaDeNoShow: Self.razao(Int64(doc.noShows), Int64(doc.noShows + doc.checkins)),
            taxaDeCancelamento: Self.razao(Int64(doc.reservasCanceladas), Int64(doc.reservasSolicitadas)),
            antecedenciaMediaHoras: doc.reservasConfirmadas > 0
                ? Self.arredondar(Double(doc.antecedenciaTotalSegundos) / Double(doc.reservasConfirmadas) / 3_600) : nil,
            pagamentos: doc.pagamentos, reembolsos: doc.reembolsos, receita: doc.pagamentos - doc.reembolsos,
            quantidadePagamentos: doc.quantidadePagamentos, quantidadeReembolsos: doc.quantidadeReembolsos)
    }

    /// The `limite` (1…100) best members by confirmed hours and by revenue.
    public func topMembros(limite: Int) async throws -> TopMembros {
        guard (1...Self.limiteMaximo).contains(limite) else {
            throw ServiceError.requisicaoInvalida("'limite' deve estar entre 1 e \(Self.limiteMaximo)", detalhes: ["campo": "limite"])
        }
        func ranking(_ colecao: String) async throws -> [AnalyticsMembro] {
            try await store.documents(colecao, grupo: nil, limit: limite, offset: 0).map {
                try ReadModelJSON.decoder.decode(AnalyticsMembro.self, from: $0)
            }
        }
        func membro(_ doc: AnalyticsMembro) -> TopMembros.Membro {
            TopMembros.Membro(
                usuarioId: doc.usuarioId, horasConfirmadas: Self.horas(doc.segundosConfirmados),
                reservasConfirmadas: doc.reservasConfirmadas, receita: doc.receita)
        }
        return TopMembros(
            porHoras: try await ranking(AnalyticsReadModel.membrosPorHoras).filter { $0.segundosConfirmados > 0 }.map(membro),
            porReceita: try await ranking(AnalyticsReadModel.membrosPorReceita).filter { $0.receita > .zero }.map(membro))
    }

    // MARK: Reading

    /// One space (404 when unknown) or every space, by name.
    private func espacos(_ espaco: String?) async throws -> [AnalyticsEspaco] {
        guard let texto = espaco?.trimmingCharacters(in: .whitespaces), !texto.isEmpty else {
            return try await todos(AnalyticsEspaco.self, AnalyticsReadModel.espacos, grupo: nil)
                .sorted { ($0.nome.lowercased(), $0.espacoId) < ($1.nome.lowercased(), $1.espacoId) }
        }
        guard let id = Espaco.ID(texto) else {
            throw ServiceError.requisicaoInvalida("'espaco' deve ser o id (UUID) de um espaço", detalhes: ["campo": "espaco"])
        }
        guard let data = try await store.document(AnalyticsReadModel.espacos, key: id.description) else {
            throw ServiceError.naoEncontrado("espaço \(id) não encontrado")
        }
        return [try ReadModelJSON.decoder.decode(AnalyticsEspaco.self, from: data)]
    }

    private func todos<T: Decodable>(_ type: T.Type, _ colecao: String, grupo: String?) async throws -> [T] {
        var itens: [T] = []
        var offset = 0
        while true {
            let docs = try await store.documents(colecao, grupo: grupo, limit: 1_000, offset: offset)
            itens += try docs.map { try ReadModelJSON.decoder.decode(T.self, from: $0) }
            guard docs.count == 1_000 else { return itens }
            offset += docs.count
        }
    }

    // MARK: Input and arithmetic

    /// `de` and `ate` as day numbers: valid `AAAA-MM-DD` dates, `de` not after `ate`, at most
    /// ``diasMaximos`` days together.
    static func periodo(de: String, ate: String) throws -> (Int64, Int64) {
        func dia(_ texto: String, _ campo: String) throws -> Int64 {
            let texto = texto.trimmingCharacters(in: .whitespaces)
            guard !texto.isEmpty else {
                throw ServiceError.requisicaoInvalida("'\(campo)' é obrigatório: uma data AAAA-MM-DD", detalhes: ["campo": campo])
            }
            guard DataLocal(texto) != nil, let dia = CalendarioAnalitico.dias(texto) else {
                throw ServiceError.requisicaoInvalida("'\(campo)' deve ser uma data AAAA-MM-DD válida", detalhes: ["campo": campo])
            }
            return dia
        }
        let (inicio, fim) = (try dia(de, "de"), try dia(ate, "ate"))
        guard inicio <= fim else {
            throw ServiceError.requisicaoInvalida("'de' deve ser anterior ou igual a 'ate'", detalhes: ["campo": "de"])
        }
        guard fim - inicio < Int64(diasMaximos) else {
            throw ServiceError.requisicaoInvalida(
                "o período de 'de' a 'ate' pode ter no máximo \(diasMaximos) dias", detalhes: ["campo": "ate"])
        }
        return (inicio, fim)
    }

    /// `yyyy-mm` of every month the days touch.
    static func meses(de inicio: Int64, ate fim: Int64) -> [String] {
        var meses: [String] = []
        var dia = inicio
        while dia <= fim {
            let (ano, mes, diaDoMes) = CalendarioAnalitico.civil(dia)
            meses.append(CalendarioAnalitico.mes(ano: ano, mes: mes))
            dia += Int64(CalendarioAnalitico.diasNoMes(ano: ano, mes: mes) - diaDoMes + 1)
        }
        return meses
    }

    static let nomesDosDias = ["domingo", "segunda", "terca", "quarta", "quinta", "sexta", "sabado"]

    static func horasDaSemana(_ reservado: [Int64], _ aberto: [Int64]) -> [OcupacaoPorHoraDaSemana.Hora] {
        (0..<168).map { hora in
            let (r, a) = (reservado.indices.contains(hora) ? reservado[hora] : 0, aberto[hora])
            return OcupacaoPorHoraDaSemana.Hora(
                hora: hora, diaDaSemana: nomesDosDias[hora / 24], horaDoDia: hora % 24,
                horasReservadas: horas(r), horasAbertas: horas(a), ocupacao: razao(r, a))
        }
    }

    static func horas(_ segundos: Int64) -> Double { arredondar(Double(segundos) / 3_600) }

    static func razao(_ parte: Int64, _ todo: Int64) -> Double? {
        todo > 0 ? arredondar(Double(parte) / Double(todo)) : nil
    }

    /// Four decimals: enough for hours (0.36 s) and rates (0.01 %).
    static func arredondar(_ valor: Double) -> Double { (valor * 10_000).rounded() / 10_000 }
}
