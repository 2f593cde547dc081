import Domain
import EventStore
import Foundation
import Logging
import Services
import TestSupport
import Testing

@testable import Projections

/// The analytics read model: the fast rebuild yields exactly the documents the incremental
/// projection keeps, the figures match hand-computed ones, and bad input is refused.
@Suite struct AnalyticsTests {
    @Test func rebuilt_documents_equal_the_incrementally_maintained_ones() async throws {
        let (store, path) = try AnalyticsHistoria.store()
        defer { AnalyticsHistoria.remove(path) }
        var historia = AnalyticsHistoria(seed: 42)
        try await historia.gerar(store, reservas: 420, membros: 300)

        // Small batches, so events of one booking land in different runner batches.
        let runner = ProjectionRunner(AnalyticsReadModel.projection, store: store, batchSize: 7, logger: AnalyticsHistoria.logger)
        try await runner.catchUp()
        let incremental = try await AnalyticsHistoria.snapshot(store)
        #expect(incremental[AnalyticsReadModel.membrosPorHoras, default: []].count > 250, "enough documents for batched writes")
        #expect(incremental[AnalyticsReadModel.ocupacao, default: []].count > 10)
        #expect(incremental[AnalyticsReadModel.indicadores, default: []].count == 1)

        let result = try await AnalyticsReadModel.rebuild(store: store, leitores: 3, lote: 50)
        let rebuilt = try await AnalyticsHistoria.snapshot(store)
        #expect(AnalyticsHistoria.diferencas(rebuilt, incremental) == [])
        #expect(result.documentos > 500, "the batched write path (marker, batches, last batch) ran")
        let head = try await store.headPosition()
        #expect(result.posicao == head)
        #expect(try await store.checkpoint(AnalyticsReadModel.projection.checkpoint) == head)
        #expect(result.eventos == (try await store.readAll(after: .start, limit: 100_000)).count)
        #expect(result.documentos == rebuilt.values.reduce(0) { $0 + $1.count })

        // The runner goes on from the rebuilt documents and the checkpoint the rebuild left.
        try await historia.gerar(store, reservas: 60, membros: 300)
        try await runner.catchUp()
        let continued = try await AnalyticsHistoria.snapshot(store)
        _ = try await AnalyticsReadModel.rebuild(store: store, leitores: 1, lote: 10_000)
        #expect(AnalyticsHistoria.diferencas(try await AnalyticsHistoria.snapshot(store), continued) == [])
    }

    @Test func figures_match_a_hand_computed_history() async throws {
        let (store, path) = try AnalyticsHistoria.store()
        defer { AnalyticsHistoria.remove(path) }
        try await AnalyticsHistoria.pequena(store)
        let runner = ProjectionRunner(AnalyticsReadModel.projection, store: store, logger: AnalyticsHistoria.logger)
        try await runner.catchUp()
        let service = AnalyticsService(store: store)
        let sala = AnalyticsHistoria.sala.description

        for passo in ["incremental", "rebuilt"] {
            if passo == "rebuilt" { _ = try await AnalyticsReadModel.rebuild(store: store) }

            // Open 08–18 (10 h); from 03-12 08–12 (4 h); deactivated on 03-13.
            let ocupacao = try await service.ocupacao(espaco: sala, de: "2026-03-10", ate: "2026-03-13")
            let espaco = try #require(ocupacao.espacos.first)
            #expect(ocupacao.espacos.count == 1)
            #expect(espaco.dias.map(\.data) == ["2026-03-10", "2026-03-11", "2026-03-12", "2026-03-13"])
            // R3's no-show at 08:30 freed its last half hour.
            #expect(espaco.dias.map(\.horasReservadas) == [2, 0.5, 0, 0], "\(passo)")
            #expect(espaco.dias.map(\.horasAbertas) == [10, 10, 4, 0], "\(passo)")
            #expect(espaco.dias.map(\.ocupacao) == [0.2, 0.05, 0, nil], "\(passo)")
            #expect(espaco.horasReservadas == 2.5 && espaco.horasAbertas == 24)
            #expect(espaco.tipo == "sala_reuniao" && espaco.nome == "Sala Ipê")

            let todas = try await service.ocupacao(espaco: nil, de: "2026-03-10", ate: "2026-03-10")
            #expect(todas.espacos.map(\.espacoId) == [sala])

            let indicadores = try await service.indicadores()
            #expect(indicadores.reservasSolicitadas == 4 && indicadores.reservasConfirmadas == 3)
            #expect(indicadores.reservasCanceladas == 2 && indicadores.canceladasAposConfirmacao == 1)
            #expect(indicadores.checkins == 1 && indicadores.noShows == 1)
            #expect(indicadores.taxaDeCancelamento == 0.5, "\(passo)")
            #expect(indicadores.taxaDeNoShow == 0.5, "\(passo)")
            #expect(indicadores.antecedenciaMediaHoras == 144, "(216 + 48 + 168) / 3")
            #expect(indicadores.pagamentos == Money(centavos: 23_000) && indicadores.reembolsos == Money(centavos: 5_000))
            #expect(indicadores.receita == Money(centavos: 18_000))

            let marco = try await service.receitaPorTipo(de: "2026-03-01", ate: "2026-03-31")
            #expect(marco.tipos.map(\.tipo) == ["sala_reuniao"])
            #expect(marco.tipos.first?.receita == Money(centavos: 18_000))
            #expect(marco.tipos.first?.quantidadePagamentos == 3 && marco.tipos.first?.quantidadeReembolsos == 1)
            #expect(marco.total.receita == Money(centavos: 18_000))
            let diaDoReembolso = try await service.receitaPorTipo(de: "2026-03-06", ate: "2026-03-06")
            #expect(diaDoReembolso.total.receita == Money(centavos: -5_000) && diaDoReembolso.total.pagamentos == .zero)

            let top = try await service.topMembros(limite: 10)
            #expect(top.porHoras.map(\.usuarioId) == [AnalyticsHistoria.ana, AnalyticsHistoria.bia])
            #expect(top.porHoras.map(\.horasConfirmadas) == [2, 1])
            #expect(top.porReceita.map(\.receita) == [Money(centavos: 10_000), Money(centavos: 8_000)])
            #expect(try await service.topMembros(limite: 1).porHoras.count == 1)

            // 2026-03-10 is a Tuesday (terca = 2): hours 58 and 59; over 03-01…03-12 two
            // Tuesdays were open at 10:00.
            let semana = try await service.ocupacaoPorHoraDaSemana(espaco: sala)
            let horas = try #require(semana.espacos.first?.horas)
            #expect(semana.espacos.first?.de == "2026-03-01" && semana.espacos.first?.ate == "2026-03-12")
            #expect(horas[58].diaDaSemana == "terca" && horas[58].horaDoDia == 10)
            #expect(horas[58].horasReservadas == 1 && horas[58].horasAbertas == 2 && horas[58].ocupacao == 0.5)
            #expect(horas[80].horasReservadas == 0.5 && horas[80].ocupacao == 0.25, "quarta 08:00, half of it a no-show's freed rest")
            #expect(horas[3].ocupacao == nil, "closed at 03:00")
            #expect(semana.total == horas)
        }
    }

    /// A let office's open hours count as occupied (ADR 0016) from the lease's start to its
    /// (early) end; a lease removed before it began, and a maintenance block, count nothing.
    @Test func a_let_office_counts_its_open_hours_under_the_lease_as_occupied() async throws {
        let (store, path) = try AnalyticsHistoria.store()
        defer { AnalyticsHistoria.remove(path) }
        typealias H = AnalyticsHistoria
        try await H.pequena(store)
        let sala12 = Espaco.ID(UUID())
        let todoDia = [Espaco.Faixa(abre: 480, fecha: 1_080)]
        let horario = try Espaco.HorarioSemanal(Dictionary(uniqueKeysWithValues: DiaDaSemana.allCases.map { ($0, todoDia) }))
        let (lease, removida, manutencao) = (UUID(), UUID(), UUID())
        try await H.append(
            store, StreamNames.espaco(sala12),
            [
                try H.novo(
                    Espaco.Event.cadastrado(
                        Espaco.Cadastrado(
                            espacoId: sala12, unidadeId: H.unidade, nome: "Sala 12", tipo: .salaPrivativa, capacidade: 4, comodidades: [],
                            fotos: [], regras: .padrao, horario: horario, em: try H.date("2026-03-01T12:00:00Z"))),
                    try H.date("2026-03-01T12:00:00Z")),
                // 03-10 00:00 to 03-13 00:00 local (São Paulo, UTC−3), ended early at 03-12 12:00.
                try H.bloqueio(lease, espaco: sala12, de: "2026-03-10T03:00:00Z", ate: "2026-03-13T03:00:00Z", em: "2026-03-02T12:00:00Z"),
                try H.bloqueio(removida, espaco: sala12, de: "2026-03-20T03:00:00Z", ate: "2026-04-20T03:00:00Z", em: "2026-03-02T12:01:00Z"),
                try H.bloqueio(
                    manutencao, espaco: sala12, de: "2026-03-09T11:00:00Z", ate: "2026-03-09T21:00:00Z", em: "2026-03-02T12:02:00Z",
                    motivo: .manutencao),
                try H.removido(removida, espaco: sala12, em: "2026-03-03T12:00:00Z"),
                try H.encurtado(lease, espaco: sala12, fim: "2026-03-12T15:00:00Z", em: "2026-03-11T12:00:00Z"),
            ])
        let runner = ProjectionRunner(AnalyticsReadModel.projection, store: store, batchSize: 2, logger: H.logger)
        let service = AnalyticsService(store: store)
        for passo in ["incremental", "rebuilt"] {
            if passo == "rebuilt" { _ = try await AnalyticsReadModel.rebuild(store: store) } else { try await runner.catchUp() }
            let ocupacao = try await service.ocupacao(espaco: sala12.description, de: "2026-03-09", ate: "2026-03-13")
            let espaco = try #require(ocupacao.espacos.first)
            #expect(espaco.dias.map(\.horasLocadas) == [0, 10, 10, 4, 0], "\(passo)")
            #expect(espaco.dias.map(\.horasReservadas) == [0, 0, 0, 0, 0])
            #expect(espaco.dias.map(\.horasAbertas) == [10, 10, 10, 10, 10])
            #expect(espaco.dias.map(\.ocupacao) == [0, 1, 1, 0.4, 0], "\(passo)")
            #expect(espaco.horasLocadas == 24 && espaco.horasAbertas == 50 && espaco.ocupacao == 0.48)
            let depois = try await service.ocupacao(espaco: sala12.description, de: "2026-03-20", ate: "2026-03-21")
            #expect(depois.espacos.first?.horasLocadas == 0, "the lease removed before it began: \(passo)")
            // The room next door: booked, never let.
            let sala = try await service.ocupacao(espaco: H.sala.description, de: "2026-03-10", ate: "2026-03-10")
            #expect(sala.espacos.first?.dias.first?.horasLocadas == 0 && sala.espacos.first?.dias.first?.ocupacao == 0.2)

            // 03-01…03-12 (the lease's last day): two Tuesdays and two Thursdays open at 10:00,
            // one of each let; on Thursday 03-12 the lease ended at noon.
            let semana = try await service.ocupacaoPorHoraDaSemana(espaco: sala12.description)
            let linha = try #require(semana.espacos.first)
            #expect(linha.de == "2026-03-01" && linha.ate == "2026-03-12", "\(passo)")
            #expect(linha.horas[58].horasLocadas == 1 && linha.horas[58].horasAbertas == 2 && linha.horas[58].ocupacao == 0.5)
            #expect(linha.horas[4 * 24 + 11].horasLocadas == 1 && linha.horas[4 * 24 + 12].horasLocadas == 0, "\(passo)")
            #expect(linha.horas[4 * 24 + 12].ocupacao == 0 && linha.horas[3].ocupacao == nil)
        }
    }

    @Test func a_no_show_frees_the_rest_of_its_slot_which_a_new_booking_then_fills() async throws {
        let (store, path) = try AnalyticsHistoria.store()
        defer { AnalyticsHistoria.remove(path) }
        let semComparecimento = try await AnalyticsHistoria.pequena(store)
        typealias H = AnalyticsHistoria
        // R3 (03-11 08:00–09:00 local) was a no-show at 08:30; Caio books 08:30–09:00 then.
        let r5 = UUID()
        let stream = StreamNames.reserva(Reserva.ID(r5))
        try await H.append(
            store, stream,
            [
                try H.solicitada(
                    reserva: r5, usuario: "caio", inicio: "2026-03-11T11:30:00Z", fim: "2026-03-11T12:00:00Z", em: "2026-03-11T11:31:00Z")
            ])
        try await H.append(
            store, stream,
            [
                try H.novo(
                    Reserva.Event.confirmada(
                        Reserva.Confirmada(
                            reservaId: Reserva.ID(r5), pagamentoId: "p5", em: try H.date("2026-03-11T11:32:00Z"))), try H.date("2026-03-11T11:32:00Z")
                )
            ])
        let runner = ProjectionRunner(AnalyticsReadModel.projection, store: store, batchSize: 1, logger: H.logger)
        let service = AnalyticsService(store: store)
        func onzeDeMarco() async throws -> (dia: Double?, hora: Double?) {
            let porDia = try await service.ocupacao(espaco: H.sala.description, de: "2026-03-11", ate: "2026-03-11")
            let porHora = try await service.ocupacaoPorHoraDaSemana(espaco: H.sala.description)
            return (porDia.espacos.first?.dias.first?.horasReservadas, porHora.espacos.first?.horas[80].horasReservadas)
        }
        for passo in ["incremental", "rebuilt"] {
            if passo == "rebuilt" { _ = try await AnalyticsReadModel.rebuild(store: store) } else { try await runner.catchUp() }
            // 08:00–08:30 of R3 and 08:30–09:00 of R5: the hour is sold once, not one and a half times.
            let (dia, hora) = try await onzeDeMarco()
            #expect(dia == 1 && hora == 1, "\(passo)")
        }
        // An operator cancels R3 afterwards: only the half hour it still held comes off.
        try await H.append(
            store, StreamNames.reserva(Reserva.ID(semComparecimento)),
            [
                try H.novo(
                    Reserva.Event.cancelada(
                        Reserva.Cancelada(
                            reservaId: Reserva.ID(semComparecimento), por: "admin", motivo: nil, pago: Money(centavos: 8_000), multa: .zero,
                            reembolso: Money(centavos: 8_000), em: try H.date("2026-03-11T13:00:00Z"))), try H.date("2026-03-11T13:00:00Z"))
            ])
        for passo in ["incremental", "rebuilt"] {
            if passo == "rebuilt" { _ = try await AnalyticsReadModel.rebuild(store: store) } else { try await runner.catchUp() }
            let (dia, hora) = try await onzeDeMarco()
            #expect(dia == 0.5 && hora == 0.5, "\(passo)")
        }
    }

    /// A confirmed booking moved (ADR 0021) counts on its new time, not its old one, its lead
    /// time as confirmed; a no-show and a cancellation after the move free and take back the new
    /// hours. The same, folded incrementally one event a batch and rebuilt.
    @Test func a_moved_booking_counts_on_its_new_time_and_its_outcome_follows_it() async throws {
        let (store, path) = try AnalyticsHistoria.store()
        defer { AnalyticsHistoria.remove(path) }
        typealias H = AnalyticsHistoria
        try await H.pequena(store)
        // R7 (Caio): 03-10 15:00–16:00 local, requested 48 h ahead, confirmed; moved on 03-09 to
        // 03-11 14:00–15:00 local.
        let r7 = UUID()
        let stream = StreamNames.reserva(Reserva.ID(r7))
        let sp = TimeZone(identifier: "America/Sao_Paulo") ?? .gmt
        let de = try TimeRange(start: try H.date("2026-03-10T18:00:00Z"), end: try H.date("2026-03-10T19:00:00Z"))
        let para = try TimeRange(start: try H.date("2026-03-11T17:00:00Z"), end: try H.date("2026-03-11T18:00:00Z"))
        let movida = try H.novo(
            Reserva.Event.remarcada(
                Reserva.Remarcada(
                    reservaId: Reserva.ID(r7), espacoId: H.sala.rawValue, unidadeId: H.unidade.rawValue, usuarioId: "caio", de: de,
                    diasAnteriores: DataLocal.dias(de: de, em: sp), para: para, dias: DataLocal.dias(de: para, em: sp), por: "caio",
                    em: try H.date("2026-03-09T12:00:00Z"))), try H.date("2026-03-09T12:00:00Z"))
        #expect(
            try AnalyticsFact.decode(type: movida.type, data: movida.data)
                == .reservaRemarcada(
                    reserva: r7, inicio: Int64(para.start.timeIntervalSince1970), fim: Int64(para.end.timeIntervalSince1970),
                    em: Int64(try H.date("2026-03-09T12:00:00Z").timeIntervalSince1970)))
        try await H.append(
            store, stream,
            [try H.solicitada(reserva: r7, usuario: "caio", inicio: "2026-03-10T18:00:00Z", fim: "2026-03-10T19:00:00Z", em: "2026-03-08T18:00:00Z")])
        try await H.append(
            store, stream,
            [
                try H.novo(
                    Reserva.Event.confirmada(
                        Reserva.Confirmada(reservaId: Reserva.ID(r7), pagamentoId: "p7", em: try H.date("2026-03-08T18:05:00Z"))),
                    try H.date("2026-03-08T18:05:00Z"))
            ])
        try await H.append(store, stream, [movida])

        // One event a batch: the move, the no-show and the cancellation each fold the booking's history.
        let runner = ProjectionRunner(AnalyticsReadModel.projection, store: store, batchSize: 1, logger: H.logger)
        let service = AnalyticsService(store: store)
        func figuras() async throws -> (dias: [Double], terca15: Double?, quarta14: Double?) {
            let ocupacao = try await service.ocupacao(espaco: H.sala.description, de: "2026-03-10", ate: "2026-03-11")
            let porHora = try await service.ocupacaoPorHoraDaSemana(espaco: H.sala.description)
            let horas = porHora.espacos.first?.horas ?? []
            let hora = { (indice: Int) in horas.indices.contains(indice) ? horas[indice].horasReservadas : nil }
            return (ocupacao.espacos.first?.dias.map(\.horasReservadas) ?? [], hora(2 * 24 + 15), hora(3 * 24 + 14))
        }
        for passo in ["incremental", "rebuilt"] {
            if passo == "rebuilt" { _ = try await AnalyticsReadModel.rebuild(store: store) } else { try await runner.catchUp() }
            let f = try await figuras()
            // 03-10: R1's 2 h only; 03-11: R3's half hour and R7's hour.
            #expect(f.dias == [2, 1.5] && f.terca15 == 0 && f.quarta14 == 1, "\(passo): \(f)")
        }
        // A no-show at 14:30 local frees the rest of the new time.
        try await H.append(
            store, StreamName(category: "checkin", id: r7.uuidString.lowercased()),
            [
                try H.checkin(
                    "NoShowRegistrado", reserva: r7, usuario: "caio", inicio: "2026-03-11T17:00:00Z", fim: "2026-03-11T18:00:00Z",
                    em: "2026-03-11T17:30:00Z")
            ])
        for passo in ["incremental", "rebuilt"] {
            if passo == "rebuilt" { _ = try await AnalyticsReadModel.rebuild(store: store) } else { try await runner.catchUp() }
            let f = try await figuras()
            #expect(f.dias == [2, 1] && f.quarta14 == 0.5 && f.terca15 == 0, "\(passo): \(f)")
        }
        // An operator cancels it: the half hour it still held, on the new day, comes off.
        try await H.append(
            store, stream,
            [
                try H.novo(
                    Reserva.Event.cancelada(
                        Reserva.Cancelada(
                            reservaId: Reserva.ID(r7), por: "admin", motivo: nil, pago: Money(centavos: 10_000), multa: .zero,
                            reembolso: Money(centavos: 10_000), em: try H.date("2026-03-11T19:00:00Z"))), try H.date("2026-03-11T19:00:00Z"))
            ])
        for passo in ["incremental", "rebuilt"] {
            if passo == "rebuilt" { _ = try await AnalyticsReadModel.rebuild(store: store) } else { try await runner.catchUp() }
            let f = try await figuras()
            #expect(f.dias == [2, 0.5] && f.quarta14 == 0 && f.terca15 == 0, "\(passo): \(f)")
        }
    }

    @Test func a_hold_released_for_a_declined_payment_is_counted_as_declined_not_cancelled() async throws {
        let (store, path) = try AnalyticsHistoria.store()
        defer { AnalyticsHistoria.remove(path) }
        typealias H = AnalyticsHistoria
        try await H.pequena(store)
        let r6 = UUID()
        let stream = StreamNames.reserva(Reserva.ID(r6))
        try await H.append(
            store, stream,
            [
                try H.solicitada(
                    reserva: r6, usuario: "caio", inicio: "2026-03-12T13:00:00Z", fim: "2026-03-12T14:00:00Z", em: "2026-03-07T12:00:00Z")
            ])
        try await H.append(
            store, stream,
            [
                try H.novo(
                    Reserva.Event.cancelada(
                        Reserva.Cancelada(
                            reservaId: Reserva.ID(r6), por: "system:pagamentos", motivo: "pagamento recusado: cartão recusado", pago: .zero,
                            multa: .zero, reembolso: .zero, em: try H.date("2026-03-07T12:01:00Z"))), try H.date("2026-03-07T12:01:00Z"))
            ])
        let runner = ProjectionRunner(AnalyticsReadModel.projection, store: store, logger: H.logger)
        try await runner.catchUp()
        let service = AnalyticsService(store: store)
        for passo in ["incremental", "rebuilt"] {
            if passo == "rebuilt" { _ = try await AnalyticsReadModel.rebuild(store: store) }
            let indicadores = try await service.indicadores()
            #expect(indicadores.reservasSolicitadas == 5 && indicadores.reservasRecusadas == 1, "\(passo)")
            #expect(indicadores.reservasCanceladas == 2 && indicadores.taxaDeCancelamento == 0.4, "\(passo): the member's two only")
        }
        // A document written before declines were counted apart still reads (as none).
        var antigo = try #require(try JSONSerialization.jsonObject(with: try ReadModelJSON.encoder.encode(AnalyticsIndicadores())) as? [String: Any])
        antigo.removeValue(forKey: "reservasRecusadas")
        let lido = try ReadModelJSON.decoder.decode(AnalyticsIndicadores.self, from: try JSONSerialization.data(withJSONObject: antigo))
        #expect(lido == AnalyticsIndicadores())
    }

    @Test func bad_input_is_refused_naming_the_field() async throws {
        let (store, path) = try AnalyticsHistoria.store()
        defer { AnalyticsHistoria.remove(path) }
        try await AnalyticsHistoria.pequena(store)
        try await ProjectionRunner(AnalyticsReadModel.projection, store: store, logger: AnalyticsHistoria.logger).catchUp()
        let service = AnalyticsService(store: store)

        func campo(_ body: () async throws -> Void) async -> String? {
            do {
                try await body()
                return nil
            } catch let error as ServiceError {
                #expect(error.status == 400, "\(error)")
                return error.detalhes["campo"]
            } catch {
                Issue.record("unexpected \(error)")
                return nil
            }
        }
        #expect(await campo { _ = try await service.ocupacao(espaco: nil, de: "2026-02-30", ate: "2026-03-01") } == "de")
        #expect(await campo { _ = try await service.ocupacao(espaco: nil, de: "2026-03-01", ate: "amanhã") } == "ate")
        #expect(await campo { _ = try await service.ocupacao(espaco: nil, de: "2026-03-10", ate: "2026-03-01") } == "de")
        #expect(await campo { _ = try await service.receitaPorTipo(de: "2025-01-01", ate: "2026-01-02") } == "ate")
        #expect(await campo { _ = try await service.ocupacao(espaco: "sala-1", de: "2026-03-01", ate: "2026-03-02") } == "espaco")
        #expect(await campo { _ = try await service.topMembros(limite: 0) } == "limite")
        _ = try await service.receitaPorTipo(de: "2025-01-01", ate: "2026-01-01")  // 366 days: accepted
        await #expect(throws: ServiceError.naoEncontrado("espaço \(AnalyticsHistoria.ana) não encontrado")) {
            _ = try await service.ocupacaoPorHoraDaSemana(espaco: AnalyticsHistoria.ana)
        }
    }

    @Test func the_payload_reader_reads_what_foundation_writes() throws {
        let nome = "Sala \"Azul\" / Pátio\n☕ \u{1F600}"
        let horario = try Espaco.HorarioSemanal([
            .segunda: [Espaco.Faixa(abre: 480, fecha: 720), Espaco.Faixa(abre: 780, fecha: 1_080)], .sabado: [Espaco.Faixa(abre: 540, fecha: 780)],
        ])
        let em = try Date("2026-03-01T12:00:00Z", strategy: .iso8601)
        let cadastro = Espaco.Cadastrado(
            espacoId: AnalyticsHistoria.sala, unidadeId: AnalyticsHistoria.unidade, nome: nome, tipo: .estacaoCompartilhada,
            capacidade: 12, comodidades: ["wi-fi"], fotos: [], regras: .padrao, horario: horario, em: em)
        let fato = try AnalyticsFact.decode(type: "EspacoCadastrado", data: EventJSON.encoder.encode(Espaco.Event.cadastrado(cadastro)))
        guard case .espacoCadastrado(let lido) = fato else {
            Issue.record("read \(String(describing: fato))")
            return
        }
        #expect(lido.nome == nome && lido.tipo == "estacao_compartilhada" && lido.capacidade == 12)
        #expect(lido.espaco == AnalyticsHistoria.sala.rawValue && lido.unidade == AnalyticsHistoria.unidade.rawValue)
        #expect(lido.em == Int64(em.timeIntervalSince1970))
        #expect(lido.horario.dias[1] == [AnalyticsEspaco.Faixa(abre: 480, fecha: 720), AnalyticsEspaco.Faixa(abre: 780, fecha: 1_080)])
        #expect(lido.horario.dias[6] == [AnalyticsEspaco.Faixa(abre: 540, fecha: 780)] && lido.horario.dias[0].isEmpty)

        let solicitada = try AnalyticsHistoria.solicitada(
            reserva: UUID(), usuario: AnalyticsHistoria.ana.uppercased(), inicio: "2026-03-10T13:00:00Z", fim: "2026-03-10T15:00:00Z",
            em: "2026-03-01T13:00:00Z")
        guard case .reservaSolicitada(let pedido) = try AnalyticsFact.decode(type: solicitada.type, data: solicitada.data) else {
            Issue.record("not a request")
            return
        }
        #expect(pedido.usuario == AnalyticsHistoria.ana, "member ids are lower-cased")
        #expect(pedido.fim - pedido.inicio == 7_200)
        #expect(try AnalyticsFact.decode(type: "AgendaOcupada", data: Data("not even JSON".utf8)) == nil, "other types are not read")
        #expect(throws: AnalyticsDecodingError.self) { try AnalyticsFact.decode(type: "ReservaConfirmada", data: Data(#"{"reservaId":"x""#.utf8)) }
        #expect(throws: AnalyticsDecodingError.self) {
            try AnalyticsFact.decode(type: "ReservaConfirmada", data: Data(#"{"em":"2026-03-01T12:00:00Z"}"#.utf8))
        }
        let comOffset = try AnalyticsFact.decode(
            type: "ReservaExpirada",
            data: Data(#"{"extra":[{"a":"}]"},null,1.5e3],"reservaId":"\#(UUID())","em":"2026-03-01T09:00:00.250-03:00"}"#.utf8))
        guard case .reservaExpirada(_, let instante) = comOffset else {
            Issue.record("not an expiry")
            return
        }
        #expect(instante == Int64(em.timeIntervalSince1970))
    }

    @Test func the_runner_refuses_to_fold_onto_a_half_written_rebuild() async throws {
        let (store, path) = try AnalyticsHistoria.store()
        defer { AnalyticsHistoria.remove(path) }
        try await AnalyticsHistoria.pequena(store)
        let marcador = try ReadModelJSON.encoder.encode(AnalyticsReconstrucao(iniciadaEm: "2026-03-01T00:00:00Z"))
        try await store.commit(
            [ReadModelChange(collection: AnalyticsReadModel.controle, key: AnalyticsReadModel.marcador, grupo: nil, doc: marcador)],
            checkpoint: AnalyticsReadModel.projection.checkpoint, at: .start)
        let runner = ProjectionRunner(AnalyticsReadModel.projection, store: store, logger: AnalyticsHistoria.logger)
        await #expect(throws: AnalyticsReadModel.RebuildIncomplete.self) { try await runner.catchUp() }
        _ = try await AnalyticsReadModel.rebuild(store: store)
        #expect(try await runner.catchUp() == 0)
        #expect(try await AnalyticsService(store: store).indicadores().reservasSolicitadas == 4)
    }
}
