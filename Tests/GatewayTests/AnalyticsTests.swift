import Domain
import EventStore
import Foundation
import Logging
import Services
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

/// Histories appended the way the services append them (real payload types where they exist;
/// pagamentos and checkin payloads in their documented shapes).
struct AnalyticsHistoria {
    static let unidade = Unidade.ID(UUID(uuidString: "0B5D2A44-7C1B-4E9C-9B0E-2F7A1C3D4E01") ?? UUID())
    static let sala = Espaco.ID(UUID(uuidString: "5A1E0C0D-1B2C-4D3E-8F40-5A6B7C8D9E02") ?? UUID())
    static let ana = "a0000000-0000-4000-8000-00000000000a"
    static let bia = "b0000000-0000-4000-8000-00000000000b"

    static let logger: Logger = {
        var logger = Logger(label: "analytics-tests")
        logger.logLevel = .critical
        return logger
    }()

    static func store() throws -> (SQLiteEventStore, String) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("coworkflow-analytics-\(UUID().uuidString).sqlite").path
        return (try SQLiteEventStore(path: path), path)
    }

    static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// Every analytics document, per collection, in the store's list order.
    static func snapshot(_ store: any EventStore) async throws -> [String: [String]] {
        var snapshot: [String: [String]] = [:]
        for colecao in AnalyticsReadModel.colecoes {
            snapshot[colecao] = try await store.documents(colecao, grupo: nil, limit: 1_000_000, offset: 0).map {
                String(decoding: $0, as: UTF8.self)
            }
        }
        return snapshot
    }

    /// One line per collection whose documents differ (count, or the first differing pair).
    static func diferencas(_ a: [String: [String]], _ b: [String: [String]]) -> [String] {
        AnalyticsReadModel.colecoes.compactMap { colecao in
            let (x, y) = (a[colecao] ?? [], b[colecao] ?? [])
            guard x != y else { return nil }
            guard x.count == y.count else { return "\(colecao): \(x.count) documents against \(y.count)" }
            return zip(x, y).first { $0 != $1 }.map { "\(colecao): \($0) vs \($1)" }
        }
    }

    static func date(_ text: String) throws -> Date { try Date(text, strategy: .iso8601) }

    static func novo<E: DomainEvent>(_ event: E, _ em: Date) throws -> NewEvent {
        try NewEvent(eventId: UUID(), event: event, occurredAt: em)
    }

    static func json(_ type: String, _ body: String, _ em: Date) -> NewEvent {
        NewEvent(eventId: UUID(), type: type, data: Data(body.utf8), occurredAt: em)
    }

    static func solicitada(
        reserva: UUID, usuario: String, inicio: String, fim: String, em: String, espaco: Espaco.ID = sala,
        unidade: Unidade.ID = unidade, fuso: TimeZone = TimeZone(identifier: "America/Sao_Paulo") ?? .gmt
    ) throws -> NewEvent {
        let intervalo = try TimeRange(start: try date(inicio), end: try date(fim))
        let pedido = Reserva.Pedido(
            id: Reserva.ID(reserva), espacoId: espaco.rawValue, unidadeId: unidade.rawValue, usuarioId: usuario, intervalo: intervalo,
            dias: DataLocal.dias(de: intervalo, em: fuso), total: Money(centavos: 10_000),
            linhas: [Reserva.LinhaDePreco(codigo: "hora", descricao: "2 h × R$ 50,00", valor: Money(centavos: 10_000))],
            cupom: nil, expiraEm: try date(em).addingTimeInterval(900))
        return try novo(Reserva.Event.solicitada(Reserva.Solicitada(pedido, em: try date(em))), try date(em))
    }

    static func pagamento(
        _ tipo: String, reserva: UUID, usuario: String, valor: Int64, em: String, espaco: Espaco.ID = sala,
        unidade: Unidade.ID = unidade
    ) throws -> NewEvent {
        let id = UUID().uuidString.lowercased()
        let extra = tipo == "PagamentoConfirmado" ? #""cobrancaId":"cob_1","metodo":"pix","# : #""reembolsoId":"\#(UUID())","#
        return json(
            tipo,
            """
            {\(extra)"em":"\(em)","espacoId":"\(espaco)","pagamentoId":"\(id)","reservaId":"\(reserva.uuidString.lowercased())",\
            "unidadeId":"\(unidade)","usuarioId":"\(usuario)","valor":\(valor)}
            """, try date(em))
    }

    static func checkin(_ tipo: String, reserva: UUID, usuario: String, inicio: String, fim: String, em: String) throws -> NewEvent {
        json(
            tipo,
            """
            {"em":"\(em)","espacoId":"\(sala)","fim":"\(fim)","inicio":"\(inicio)","reservaId":"\(reserva.uuidString.lowercased())",\
            "unidadeId":"\(unidade)","usuarioId":"\(usuario)"}
            """, try date(em))
    }

    static func append(_ store: any EventStore, _ stream: StreamName, _ events: [NewEvent]) async throws {
        try await store.append(to: stream, expected: .any, events: events)
    }

    /// One room open 08–18 every day in São Paulo; four bookings (see the test for the sums).
    /// Returns the booking that was a no-show.
    @discardableResult
    static func pequena(_ store: any EventStore) async throws -> UUID {
        let sp = "America/Sao_Paulo"
        try await append(
            store, StreamNames.unidade(unidade),
            [
                try novo(
                    Unidade.Event.cadastrada(
                        Unidade.Cadastrada(
                            unidadeId: unidade, nome: "Paulista",
                            endereco: Unidade.Endereco(logradouro: "Av. Paulista", numero: "1000", cidade: "São Paulo", uf: "SP", cep: "01310-100"),
                            fusoHorario: sp, politica: .padrao, em: try date("2026-03-01T11:00:00Z"))), try date("2026-03-01T11:00:00Z"))
            ])
        let todoDia = [Espaco.Faixa(abre: 480, fecha: 1_080)]
        let horario = try Espaco.HorarioSemanal(Dictionary(uniqueKeysWithValues: DiaDaSemana.allCases.map { ($0, todoDia) }))
        try await append(
            store, StreamNames.espaco(sala),
            [
                try novo(
                    Espaco.Event.cadastrado(
                        Espaco.Cadastrado(
                            espacoId: sala, unidadeId: unidade, nome: "Sala Ipê", tipo: .salaReuniao, capacidade: 8, comodidades: [], fotos: [],
                            regras: .padrao, horario: horario, em: try date("2026-03-01T12:00:00Z"))), try date("2026-03-01T12:00:00Z"))
            ])

        let (r1, r2, r3, r4) = (UUID(), UUID(), UUID(), UUID())
        func reserva(_ id: UUID, _ events: [NewEvent]) async throws { try await append(store, StreamNames.reserva(Reserva.ID(id)), events) }
        func confirmada(_ id: UUID, _ em: String) throws -> NewEvent {
            try novo(Reserva.Event.confirmada(Reserva.Confirmada(reservaId: Reserva.ID(id), pagamentoId: "p", em: try date(em))), try date(em))
        }
        func cancelada(_ id: UUID, pago: Int64, _ em: String) throws -> NewEvent {
            try novo(
                Reserva.Event.cancelada(
                    Reserva.Cancelada(
                        reservaId: Reserva.ID(id), por: "membro", motivo: nil, pago: Money(centavos: pago), multa: .zero,
                        reembolso: Money(centavos: pago), em: try date(em))), try date(em))
        }
        // R1 (Ana): 03-10 10:00–12:00 local, requested 216 h ahead, paid 100,00, checked in.
        try await reserva(
            r1, [try solicitada(reserva: r1, usuario: ana, inicio: "2026-03-10T13:00:00Z", fim: "2026-03-10T15:00:00Z", em: "2026-03-01T13:00:00Z")])
        try await append(
            store, StreamName(category: "pagamento", id: "r1"),
            [try pagamento("PagamentoConfirmado", reserva: r1, usuario: ana, valor: 10_000, em: "2026-03-01T13:05:00Z")])
        try await reserva(r1, [try confirmada(r1, "2026-03-01T13:05:00Z")])
        // R2 (Bia): requested, cancelled unpaid. (A coupon had made it free: its payment is
        // R$ 0, which is no payment to count.)
        try await reserva(
            r2, [try solicitada(reserva: r2, usuario: bia, inicio: "2026-03-10T17:00:00Z", fim: "2026-03-10T18:00:00Z", em: "2026-03-02T12:00:00Z")])
        try await append(
            store, StreamName(category: "pagamento", id: "r2"),
            [try pagamento("PagamentoConfirmado", reserva: r2, usuario: bia, valor: 0, em: "2026-03-02T12:01:00Z")])
        try await reserva(r2, [try cancelada(r2, pago: 0, "2026-03-02T12:30:00Z")])
        // R4 (Ana): 03-12 16:00–18:00, 168 h ahead, paid 50,00, cancelled and refunded on 03-06.
        try await reserva(
            r4, [try solicitada(reserva: r4, usuario: ana, inicio: "2026-03-12T19:00:00Z", fim: "2026-03-12T21:00:00Z", em: "2026-03-05T19:00:00Z")])
        try await append(
            store, StreamName(category: "pagamento", id: "r4"),
            [try pagamento("PagamentoConfirmado", reserva: r4, usuario: ana, valor: 5_000, em: "2026-03-05T19:02:00Z")])
        try await reserva(r4, [try confirmada(r4, "2026-03-05T19:02:00Z")])
        try await reserva(r4, [try cancelada(r4, pago: 5_000, "2026-03-06T10:00:00Z")])
        try await append(
            store, StreamName(category: "pagamento", id: "r4"),
            [try pagamento("ReembolsoConcluido", reserva: r4, usuario: ana, valor: 5_000, em: "2026-03-06T10:05:00Z")])
        // R3 (Bia): 03-11 08:00–09:00, 48 h ahead, paid 80,00, no-show.
        try await reserva(
            r3,
            [
                try solicitada(
                    reserva: r3, usuario: bia.uppercased(), inicio: "2026-03-11T11:00:00Z", fim: "2026-03-11T12:00:00Z", em: "2026-03-09T11:00:00Z")
            ])
        try await append(
            store, StreamName(category: "pagamento", id: "r3"),
            [try pagamento("PagamentoConfirmado", reserva: r3, usuario: bia, valor: 8_000, em: "2026-03-09T11:01:00Z")])
        try await reserva(r3, [try confirmada(r3, "2026-03-09T11:01:00Z")])
        try await append(
            store, StreamName(category: "checkin", id: r1.uuidString.lowercased()),
            [
                try checkin(
                    "CheckinRealizado", reserva: r1, usuario: ana, inicio: "2026-03-10T13:00:00Z", fim: "2026-03-10T15:00:00Z",
                    em: "2026-03-10T13:02:00Z")
            ])
        try await append(
            store, StreamName(category: "checkin", id: r3.uuidString.lowercased()),
            [
                try checkin(
                    "NoShowRegistrado", reserva: r3, usuario: bia, inicio: "2026-03-11T11:00:00Z", fim: "2026-03-11T12:00:00Z",
                    em: "2026-03-11T11:30:00Z")
            ])
        // From 03-12 the room opens 08–12 only; on 03-13 it is deactivated.
        let manhas = try Espaco.HorarioSemanal(
            Dictionary(uniqueKeysWithValues: DiaDaSemana.allCases.map { ($0, [Espaco.Faixa(abre: 480, fecha: 720)]) }))
        try await append(
            store, StreamNames.espaco(sala),
            [
                try novo(
                    Espaco.Event.horarioDefinido(Espaco.HorarioDefinido(espacoId: sala, horario: manhas, em: try date("2026-03-12T12:00:00Z"))),
                    try date("2026-03-12T12:00:00Z")),
                try novo(
                    Espaco.Event.desativado(Espaco.Desativado(espacoId: sala, motivo: "reforma", em: try date("2026-03-13T12:00:00Z"))),
                    try date("2026-03-13T12:00:00Z")),
            ])
        return r3
    }

    // MARK: A larger random history

    private var estado: UInt64
    private var unidades: [(Unidade.ID, String)] = []
    private var espacos: [(Espaco.ID, Unidade.ID, String)] = []
    private var dia = 0

    init(seed: UInt64) { estado = seed }

    private mutating func aleatorio(_ limite: Int) -> Int {
        estado = estado &+ 0x9E37_79B9_7F4A_7C15
        var z = estado
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(limite))
    }

    /// Two units in different time zones, five spaces (one shared), schedule changes, and
    /// `reservas` bookings by `membros` members with every outcome, appended in many
    /// transactions; a second call adds bookings on later days.
    mutating func gerar(_ store: any EventStore, reservas: Int, membros: Int) async throws {
        func iso(_ segundos: Int) -> String { Date(timeIntervalSince1970: TimeInterval(segundos)).formatted(.iso8601) }
        let base = 1_767_225_600  // 2026-01-01T00:00:00Z
        if unidades.isEmpty {
            for (indice, fuso) in ["America/Sao_Paulo", "America/Manaus"].enumerated() {
                let id = Unidade.ID(UUID())
                unidades.append((id, fuso))
                let em = Date(timeIntervalSince1970: TimeInterval(base - 86_400 * 30 + indice))
                try await AnalyticsHistoria.append(
                    store, StreamNames.unidade(id),
                    [
                        try AnalyticsHistoria.novo(
                            Unidade.Event.cadastrada(
                                Unidade.Cadastrada(
                                    unidadeId: id, nome: "Unidade \(indice)",
                                    endereco: Unidade.Endereco(
                                        logradouro: "Rua \(indice)", numero: "1", cidade: "Cidade", uf: "SP", cep: "01000-000"),
                                    fusoHorario: fuso, politica: .padrao, em: em)), em)
                    ])
            }
            let tipos: [(Espaco.Tipo, Int)] = [(.salaReuniao, 8), (.estacaoCompartilhada, 3), (.salaPrivativa, 4), (.auditorio, 80), (.mesaFixa, 1)]
            for (indice, (tipo, capacidade)) in tipos.enumerated() {
                let id = Espaco.ID(UUID())
                let (unidade, fuso) = unidades[indice % 2]
                espacos.append((id, unidade, fuso))
                let util = [Espaco.Faixa(abre: 480, fecha: 1_200)]
                let horario = try Espaco.HorarioSemanal([
                    .segunda: util, .terca: util, .quarta: util, .quinta: util, .sexta: util, .sabado: [Espaco.Faixa(abre: 540, fecha: 780)],
                ])
                let em = Date(timeIntervalSince1970: TimeInterval(base - 86_400 * 20 + indice))
                try await AnalyticsHistoria.append(
                    store, StreamNames.espaco(id),
                    [
                        try AnalyticsHistoria.novo(
                            Espaco.Event.cadastrado(
                                Espaco.Cadastrado(
                                    espacoId: id, unidadeId: unidade, nome: "Espaço \(indice)", tipo: tipo, capacidade: capacidade, comodidades: [],
                                    fotos: [], regras: .padrao, horario: horario, em: em)), em)
                    ])
            }
        }
        var pendentes: [(Int, StreamName, NewEvent)] = []
        for n in 0..<reservas {
            dia += aleatorio(3) == 0 ? 1 : 0
            let (espaco, unidade, fuso) = espacos[aleatorio(espacos.count)]
            let offset = fuso == "America/Manaus" ? 4 * 3_600 : 3 * 3_600
            // 07:00–21:00 local starts, 1–5 h, a few overnight or over several days.
            let inicio = base + dia * 86_400 + offset + (7 + aleatorio(14)) * 3_600 + aleatorio(4) * 900
            let duracao = aleatorio(25) == 0 ? 86_400 * (1 + aleatorio(3)) + 1_800 : (1 + aleatorio(5)) * 3_600
            let pedido = inicio - 3_600 * (1 + aleatorio(24 * 20))
            let usuario = String(format: "%08lx-0000-4000-8000-%012lx", aleatorio(membros), n % 7)
            let reserva = UUID()
            let stream = StreamNames.reserva(Reserva.ID(reserva))
            let pagamentos = StreamName(category: "pagamento", id: reserva.uuidString.lowercased())
            let checkins = StreamName(category: "checkin", id: reserva.uuidString.lowercased())
            pendentes.append(
                (
                    pedido, stream,
                    try AnalyticsHistoria.solicitada(
                        reserva: reserva, usuario: aleatorio(4) == 0 ? usuario.uppercased() : usuario, inicio: iso(inicio),
                        fim: iso(inicio + duracao),
                        em: iso(pedido), espaco: espaco, unidade: unidade, fuso: TimeZone(identifier: fuso) ?? .gmt)
                ))
            pendentes.append(
                (pedido + 1, StreamName(category: "agenda", id: "\(espaco)-\(n)"), AnalyticsHistoria.json("AgendaOcupada", #"{"x":1}"#, Date())))
            let valor = Int64(5_000 + aleatorio(20) * 500)
            switch aleatorio(10) {
            case 0:
                pendentes.append(
                    (
                        pedido + 900, stream,
                        try AnalyticsHistoria.novo(
                            Reserva.Event.expirada(
                                Reserva.Expirada(
                                    reservaId: Reserva.ID(reserva), em: Date(timeIntervalSince1970: TimeInterval(pedido + 900)))), Date())
                    ))
            case 1:
                pendentes.append(
                    (
                        pedido + 300, stream,
                        try AnalyticsHistoria.novo(
                            Reserva.Event.cancelada(
                                Reserva.Cancelada(
                                    reservaId: Reserva.ID(reserva), por: "membro", motivo: nil, pago: .zero, multa: .zero, reembolso: .zero,
                                    em: Date(timeIntervalSince1970: TimeInterval(pedido + 300)))), Date())
                    ))
            default:
                let pago = pedido + 60
                pendentes.append(
                    (
                        pago, pagamentos,
                        try AnalyticsHistoria.pagamento(
                            "PagamentoConfirmado", reserva: reserva, usuario: usuario, valor: valor, em: iso(pago), espaco: espaco, unidade: unidade)
                    ))
                pendentes.append(
                    (
                        pago + 1, stream,
                        try AnalyticsHistoria.novo(
                            Reserva.Event.confirmada(
                                Reserva.Confirmada(
                                    reservaId: Reserva.ID(reserva), pagamentoId: nil, em: Date(timeIntervalSince1970: TimeInterval(pago + 1)))),
                            Date())
                    ))
                switch aleatorio(8) {
                case 0:
                    let cancelamento = pago + (inicio - pago) / 2
                    pendentes.append(
                        (
                            cancelamento, stream,
                            try AnalyticsHistoria.novo(
                                Reserva.Event.cancelada(
                                    Reserva.Cancelada(
                                        reservaId: Reserva.ID(reserva), por: "membro", motivo: "mudou de ideia", pago: Money(centavos: valor),
                                        multa: .zero, reembolso: Money(centavos: valor), em: Date(timeIntervalSince1970: TimeInterval(cancelamento)))),
                                Date())
                        ))
                    pendentes.append(
                        (
                            cancelamento + 60, pagamentos,
                            try AnalyticsHistoria.pagamento(
                                "ReembolsoConcluido", reserva: reserva, usuario: usuario, valor: valor, em: iso(cancelamento + 60), espaco: espaco,
                                unidade: unidade)
                        ))
                case 1:
                    pendentes.append(
                        (
                            inicio + 1_800, checkins,
                            AnalyticsHistoria.json(
                                "NoShowRegistrado",
                                """
                                {"em":"\(iso(inicio + 1_800))","reservaId":"\(reserva)","usuarioId":"\(usuario)"}
                                """, Date())
                        ))
                default:
                    pendentes.append(
                        (
                            inicio + 120, checkins,
                            AnalyticsHistoria.json(
                                "CheckinRealizado",
                                """
                                {"em":"\(iso(inicio + 120))","reservaId":"\(reserva)","usuarioId":"\(usuario)"}
                                """, Date())
                        ))
                    pendentes.append((inicio + duracao, checkins, AnalyticsHistoria.json("CheckoutRealizado", #"{"x":1}"#, Date())))
                }
            }
        }
        if let espaco = espacos.first?.0 {
            let horario = try Espaco.HorarioSemanal([
                .segunda: [Espaco.Faixa(abre: 420, fecha: 1_320)], .domingo: [Espaco.Faixa(abre: 600, fecha: 960)],
            ])
            pendentes.append(
                (
                    base + dia * 43_200, StreamNames.espaco(espaco),
                    try AnalyticsHistoria.novo(
                        Espaco.Event.horarioDefinido(
                            Espaco.HorarioDefinido(
                                espacoId: espaco, horario: horario, em: Date(timeIntervalSince1970: TimeInterval(base + dia * 43_200)))), Date())
                ))
        }
        if espacos.count > 2 {
            let espaco = espacos[2].0
            pendentes.append(
                (
                    base + dia * 30_000, StreamNames.espaco(espaco),
                    try AnalyticsHistoria.novo(
                        Espaco.Event.desativado(
                            Espaco.Desativado(espacoId: espaco, motivo: nil, em: Date(timeIntervalSince1970: TimeInterval(base + dia * 30_000)))),
                        Date())
                ))
            pendentes.append(
                (
                    base + dia * 50_000, StreamNames.espaco(espaco),
                    try AnalyticsHistoria.novo(
                        Espaco.Event.reativado(
                            Espaco.Reativado(espacoId: espaco, em: Date(timeIntervalSince1970: TimeInterval(base + dia * 50_000)))), Date())
                ))
        }
        // In time order (a stream's events keep their order), several streams per append.
        let ordenados = pendentes.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map(\.element)
        var inicioDoLote = 0
        while inicioDoLote < ordenados.count {
            let tamanho = 1 + aleatorio(12)
            var porStream: [StreamName: [NewEvent]] = [:]
            var ordem: [StreamName] = []
            for (_, stream, evento) in ordenados[inicioDoLote..<min(ordenados.count, inicioDoLote + tamanho)] {
                if porStream[stream] == nil { ordem.append(stream) }
                porStream[stream, default: []].append(evento)
            }
            try await store.append(ordem.map { StreamWrite(stream: $0, expected: .any, events: porStream[$0] ?? []) })
            inicioDoLote += tamanho
        }
    }
}
