import Domain
import Foundation
import Testing

private func instant(_ text: String) -> Date { try! Date(text, strategy: .iso8601) }
private func range(_ start: String, _ end: String) -> TimeRange { try! TimeRange(start: instant(start), end: instant(end)) }

/// Moving a confirmed booking to another time (ADR 0021): the booking's rules, its member's
/// free window, and its check-in code moved with it.
@Suite("Moving a booking (Reserva and Checkin deciders)")
struct RemarcacaoTests {
    let id = Reserva.ID(UUID())
    let espaco = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!
    let unidade = UUID(uuidString: "00000000-0000-0000-0000-000000000002")!
    let now = instant("2026-11-23T08:00:00-03:00")
    let politica = Unidade.PoliticaDeCancelamento(horasSemMulta: 24, multaBP: 5_000)
    let original = range("2026-11-25T10:00:00-03:00", "2026-11-25T12:00:00-03:00")
    let novo = range("2026-11-26T14:00:00-03:00", "2026-11-26T16:00:00-03:00")
    let diasNovos = [DataLocal("2026-11-26")!]
    var scenario: Scenario<Reserva.Command, Reserva.State, Reserva.Event, Reserva.Failure> { Scenario(Reserva.decider) }

    var condicoes: Reserva.Condicoes {
        Reserva.Condicoes(
            ativo: true, aberto: true, duracaoMinimaMinutos: 30, duracaoMaximaMinutos: 480, antecedenciaMinimaMinutos: 15, antecedenciaMaximaDias: 90)
    }

    var solicitada: Reserva.Event {
        .solicitada(
            Reserva.Solicitada(
                Reserva.Pedido(
                    id: id, espacoId: espaco, unidadeId: unidade, usuarioId: "u1", intervalo: original, dias: [DataLocal("2026-11-25")!],
                    total: .reais(100), linhas: [], cupom: nil, expiraEm: now.addingTimeInterval(900), politica: politica), em: now))
    }
    var confirmada: Reserva.Event { .confirmada(Reserva.Confirmada(reservaId: id, pagamentoId: "p1", em: now)) }

    func remarcar(
        _ para: TimeRange? = nil, dias: [DataLocal]? = nil, condicoes: Reserva.Condicoes? = nil, livre: Bool = false, em: Date? = nil
    ) -> Reserva.Command {
        .remarcar(
            para: para ?? novo, dias: dias ?? diasNovos, condicoes: condicoes ?? self.condicoes, por: "u1", politica: .padrao, livre: livre,
            em: em ?? now)
    }

    func remarcada(
        de: TimeRange, para: TimeRange, dias: [DataLocal], diasAnteriores: [DataLocal], por: String = "u1", em: Date? = nil
    )
        -> Reserva.Event
    {
        .remarcada(
            Reserva.Remarcada(
                reservaId: id, espacoId: espaco, unidadeId: unidade, usuarioId: "u1", de: de, diasAnteriores: diasAnteriores, para: para,
                dias: dias, por: por, em: em ?? now))
    }

    @Test func a_confirmed_booking_moves_keeping_its_price_and_the_state_holds_the_new_time() throws {
        let movida = remarcada(de: original, para: novo, dias: diasNovos, diasAnteriores: [DataLocal("2026-11-25")!])
        #expect(scenario.given(solicitada, confirmada).when(remarcar()).outcome == .events([movida]))
        guard case .existente(let dados) = Reserva.decider.fold([solicitada, confirmada, movida]) else {
            Issue.record("no booking")
            return
        }
        #expect(dados.intervalo == novo && dados.solicitacao.dias == diasNovos && dados.remarcacoes == 1)
        #expect(dados.solicitacao.total == .reais(100) && dados.status == .confirmada)
        // The time it was requested for stays what a retry of the request is compared with.
        #expect(dados.intervaloSolicitado == original && dados.confirmadaEm == now)
        // Moving it to the time it has is nothing.
        #expect(scenario.given(solicitada, confirmada, movida).when(remarcar()).outcome == .events([]))
        // A second move starts from the first's time.
        let terceira = range("2026-11-27T09:00:00-03:00", "2026-11-27T11:00:00-03:00")
        let dias27 = [DataLocal("2026-11-27")!]
        #expect(
            scenario.given(solicitada, confirmada, movida).when(remarcar(terceira, dias: dias27)).outcome
                == .events([remarcada(de: novo, para: terceira, dias: dias27, diasAnteriores: diasNovos)]))
    }

    @Test func only_a_confirmed_booking_not_started_moves() {
        #expect(scenario.given(solicitada).when(remarcar()).outcome == .failure(.naoConfirmada))
        let cancelada = Reserva.Event.cancelada(
            Reserva.Cancelada(reservaId: id, por: "u1", motivo: nil, pago: .zero, multa: .zero, reembolso: .zero, em: now))
        #expect(scenario.given(solicitada, confirmada, cancelada).when(remarcar()).outcome == .failure(.transicaoInvalida(status: .cancelada)))
        #expect(scenario.when(remarcar()).outcome == .failure(.naoEncontrada))
        // Started: not even an operator moves it.
        #expect(
            scenario.given(solicitada, confirmada).when(remarcar(livre: true, em: instant("2026-11-25T10:00:00-03:00"))).outcome
                == .failure(.jaIniciada))
    }

    @Test func the_new_time_keeps_the_length_and_the_spaces_rules() {
        let curta = range("2026-11-26T14:00:00-03:00", "2026-11-26T15:00:00-03:00")
        #expect(scenario.given(solicitada, confirmada).when(remarcar(curta)).outcome == .failure(.duracaoDiferente(minutos: 120)))
        var fechado = condicoes
        fechado.aberto = false
        #expect(scenario.given(solicitada, confirmada).when(remarcar(condicoes: fechado)).outcome == .failure(.fechado))
        let passado = range("2026-11-23T06:00:00-03:00", "2026-11-23T08:00:00-03:00")
        #expect(scenario.given(solicitada, confirmada).when(remarcar(passado)).outcome == .failure(.noPassado))
        // An operator is held to them too.
        #expect(scenario.given(solicitada, confirmada).when(remarcar(condicoes: fechado, livre: true)).outcome == .failure(.fechado))
    }

    @Test func the_member_moves_it_only_while_cancelling_would_be_free_an_operator_until_it_starts() {
        let prazo = instant("2026-11-24T10:00:00-03:00")  // 24 h before 10:00 on the 25th
        #expect(
            scenario.given(solicitada, confirmada).when(remarcar(em: prazo)).outcome
                == .events([remarcada(de: original, para: novo, dias: diasNovos, diasAnteriores: [DataLocal("2026-11-25")!], em: prazo)]))
        let tarde = prazo.addingTimeInterval(1)
        #expect(scenario.given(solicitada, confirmada).when(remarcar(em: tarde)).outcome == .failure(.foraDoPrazoDeRemarcacao(ate: prazo)))
        #expect(
            scenario.given(solicitada, confirmada).when(remarcar(livre: true, em: tarde)).outcome
                == .events([remarcada(de: original, para: novo, dias: diasNovos, diasAnteriores: [DataLocal("2026-11-25")!], em: tarde)]))
    }

    @Test func a_booking_whose_terms_keep_no_fee_moves_until_it_starts() {
        let semMulta = Reserva.Event.solicitada(
            Reserva.Solicitada(
                Reserva.Pedido(
                    id: id, espacoId: espaco, unidadeId: unidade, usuarioId: "u1", intervalo: original, dias: [DataLocal("2026-11-25")!],
                    total: .reais(100), linhas: [], cupom: nil, expiraEm: now.addingTimeInterval(900),
                    politica: Unidade.PoliticaDeCancelamento(horasSemMulta: 48, multaBP: 0)), em: now))
        let pouco = instant("2026-11-25T09:00:00-03:00")
        let hoje = range("2026-11-25T16:00:00-03:00", "2026-11-25T18:00:00-03:00")
        let dia = [DataLocal("2026-11-25")!]
        #expect(
            scenario.given(semMulta, confirmada).when(remarcar(hoje, dias: dia, em: pouco)).outcome
                == .events([remarcada(de: original, para: hoje, dias: dia, diasAnteriores: dia, em: pouco)]))
    }

    @Test func the_moved_event_round_trips_through_its_stored_form() throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let event = remarcada(de: original, para: novo, dias: diasNovos, diasAnteriores: [DataLocal("2026-11-25")!])
        #expect(try Reserva.Event.decode(type: event.eventType, data: encoder.encode(event), using: decoder) == event)
        let checkin = Checkin.Event.remarcado(
            Checkin.Liberado(
                Checkin.Reservada(reservaId: id, usuarioId: "u1", espacoId: espaco, unidadeId: unidade, intervalo: novo),
                codigo: Checkin.Codigo("ABC234")!, janela: Checkin.Janela(abreEm: novo.start, fechaEm: novo.end), em: now))
        #expect(try Checkin.Event.decode(type: checkin.eventType, data: encoder.encode(checkin), using: decoder) == checkin)
    }

    // MARK: The check-in code

    var checkinScenario: Scenario<Checkin.Command, Checkin.State, Checkin.Event, Checkin.Failure> { Scenario(Checkin.decider) }
    let tolerancia = Checkin.Tolerancia(antesMinutos: 15, depoisMinutos: 30)

    var liberado: Checkin.Event {
        .liberado(
            Checkin.Liberado(
                Checkin.Reservada(reservaId: id, usuarioId: "u1", espacoId: espaco, unidadeId: unidade, intervalo: original),
                codigo: Checkin.Codigo("ABC234")!, janela: tolerancia.janela(para: original), em: now))
    }

    @Test func the_code_keeps_and_its_window_moves_with_the_booking() {
        let esperado = Checkin.Event.remarcado(
            Checkin.Liberado(
                Checkin.Reservada(reservaId: id, usuarioId: "u1", espacoId: espaco, unidadeId: unidade, intervalo: novo),
                codigo: Checkin.Codigo("ABC234")!,
                janela: Checkin.Janela(abreEm: instant("2026-11-26T13:45:00-03:00"), fechaEm: instant("2026-11-26T14:30:00-03:00")), em: now))
        #expect(checkinScenario.given(liberado).when(.remarcar(intervalo: novo, tolerancia: tolerancia, em: now)).outcome == .events([esperado]))
        // Its check-in follows the new window: too early at the old time, fine at the new one.
        #expect(
            checkinScenario.given(liberado, esperado).when(.fazerCheckin(codigo: "ABC234", por: "u1", em: instant("2026-11-25T10:00:00-03:00")))
                .outcome == .failure(.cedoDemais(abreEm: instant("2026-11-26T13:45:00-03:00"))))
        guard
            case .events(let feito) = checkinScenario.given(liberado, esperado).when(
                .fazerCheckin(codigo: "ABC234", por: "u1", em: instant("2026-11-26T13:50:00-03:00"))
            ).outcome
        else {
            Issue.record("no check-in")
            return
        }
        #expect(feito.count == 1)
        // The same time again is nothing; once present, it does not move.
        #expect(checkinScenario.given(liberado, esperado).when(.remarcar(intervalo: novo, tolerancia: tolerancia, em: now)).outcome == .events([]))
        let presente = Checkin.Event.realizado(
            Checkin.Ocorrencia(
                Checkin.Liberado(
                    Checkin.Reservada(reservaId: id, usuarioId: "u1", espacoId: espaco, unidadeId: unidade, intervalo: original),
                    codigo: Checkin.Codigo("ABC234")!, janela: tolerancia.janela(para: original), em: now), por: "u1", em: now))
        #expect(
            checkinScenario.given(liberado, presente).when(.remarcar(intervalo: novo, tolerancia: tolerancia, em: now)).outcome
                == .failure(.jaRealizado))
    }
}
