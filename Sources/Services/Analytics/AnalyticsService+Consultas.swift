import Domain
import Foundation
import Projections

extension AnalyticsService {
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
            var (totalReservado, totalLocado, totalAberto): (Int64, Int64, Int64) = (0, 0, 0)
            for dia in inicio...fim {
                let (ano, mes, diaDoMes) = CalendarioAnalitico.civil(dia)
                let data = CalendarioAnalitico.data(dia)
                let doMes = reservados[AnalyticsReadModel.chaveDeOcupacao(espaco.espacoId, CalendarioAnalitico.mes(ano: ano, mes: mes))]
                let reservado = doMes.flatMap { $0.indices.contains(diaDoMes - 1) ? $0[diaDoMes - 1] : nil } ?? 0
                let (vigencia, diaDaSemana) = (espaco.vigencia(em: data), CalendarioAnalitico.diaDaSemana(dia))
                let aberto = vigencia?.segundosAbertos(diaDaSemana: diaDaSemana) ?? 0
                let locado = vigencia?.segundosAbertos(diaDaSemana: diaDaSemana, dentro: espaco.minutosLocados(em: data)) ?? 0
                totalReservado += reservado
                totalLocado += locado
                totalAberto += aberto
                dias.append(
                    OcupacaoPorDia.Dia(
                        data: data, horasReservadas: Self.horas(reservado), horasLocadas: Self.horas(locado), horasAbertas: Self.horas(aberto),
                        ocupacao: Self.razao(reservado + locado, aberto)))
            }
            return OcupacaoPorDia.Espaco(
                espacoId: espaco.espacoId, nome: espaco.nome, tipo: espaco.tipo, unidadeId: espaco.unidadeId,
                horasReservadas: Self.horas(totalReservado), horasLocadas: Self.horas(totalLocado), horasAbertas: Self.horas(totalAberto),
                ocupacao: Self.razao(totalReservado + totalLocado, totalAberto), dias: dias)
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
        var totalLocado = [Int64](repeating: 0, count: 168)
        var totalAberto = [Int64](repeating: 0, count: 168)
        let linhas = espacos.map { espaco in
            let semana = semanas[espaco.espacoId]
            let reservado = semana?.segundosReservados ?? Array(repeating: 0, count: 168)
            var locado = [Int64](repeating: 0, count: 168)
            var aberto = [Int64](repeating: 0, count: 168)
            let primeiro = espaco.vigencias.first.flatMap { CalendarioAnalitico.dias($0.desde) }
            // The last day a booking or a lease touched.
            let ate = [semana?.ultimoDia, espaco.ultimoDiaLocado].compactMap { $0 }.max()
            let ultimo = ate.flatMap(CalendarioAnalitico.dias)
            if let primeiro, let ultimo, primeiro <= ultimo {
                for dia in primeiro...ultimo {
                    let data = CalendarioAnalitico.data(dia)
                    guard let vigencia = espaco.vigencia(em: data), vigencia.ativo else { continue }
                    let diaDaSemana = CalendarioAnalitico.diaDaSemana(dia)
                    let locados = espaco.minutosLocados(em: data)
                    for faixa in vigencia.horario.dias[diaDaSemana] {
                        for hora in (faixa.abre / 60)..<((faixa.fecha + 59) / 60) {
                            let minutos = min(faixa.fecha, (hora + 1) * 60) - max(faixa.abre, hora * 60)
                            aberto[diaDaSemana * 24 + hora] += Int64(minutos) * 60 * Int64(vigencia.lugares)
                        }
                    }
                    if !locados.isEmpty {
                        for hora in 0..<24 {
                            locado[diaDaSemana * 24 + hora] += vigencia.segundosAbertos(
                                diaDaSemana: diaDaSemana, de: hora * 60, ate: (hora + 1) * 60, dentro: locados)
                        }
                    }
                }
            }
            for hora in 0..<168 where reservado.indices.contains(hora) {
                totalReservado[hora] += reservado[hora]
                totalLocado[hora] += locado[hora]
                totalAberto[hora] += aberto[hora]
            }
            let temPeriodo = primeiro != nil && ultimo != nil
            return OcupacaoPorHoraDaSemana.Espaco(
                espacoId: espaco.espacoId, nome: espaco.nome, tipo: espaco.tipo, unidadeId: espaco.unidadeId,
                de: temPeriodo ? espaco.vigencias.first?.desde : nil, ate: temPeriodo ? ate : nil,
                horas: Self.horasDaSemana(reservado, locado, aberto))
        }
        return OcupacaoPorHoraDaSemana(espacos: linhas, total: Self.horasDaSemana(totalReservado, totalLocado, totalAberto))
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
        let doc =
            try await store.document(AnalyticsReadModel.indicadores, key: AnalyticsReadModel.geral)
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
}
