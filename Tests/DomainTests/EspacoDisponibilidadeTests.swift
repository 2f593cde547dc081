import Domain
import Foundation
import Testing

@Suite("Disponibilidade")
struct DisponibilidadeTests {
    let segunda = Horarios.dia("2026-11-23")
    let fuso = Horarios.saoPaulo

    func livre(_ start: String, _ end: String, _ vagas: Int) -> Espaco.Livre {
        Espaco.Livre(inicio: Horarios.sp("2026-11-23T" + start), fim: Horarios.sp("2026-11-23T" + end), vagas: vagas)
    }

    func ocupacao(_ start: String, _ end: String) -> TimeRange { Horarios.sp("2026-11-23T" + start, "2026-11-23T" + end) }

    @Test func a_free_day_is_its_open_hours() {
        #expect(Horarios.espaco().disponibilidade(em: segunda, fuso: fuso, ocupacoes: []) == [livre("08:00", "20:00", 1)])
        let mesa = Horarios.espaco(tipo: .estacaoCompartilhada, capacidade: 4)
        #expect(mesa.disponibilidade(em: segunda, fuso: fuso, ocupacoes: []) == [livre("08:00", "20:00", 4)])
    }

    @Test func what_is_shown_free_is_where_a_booking_may_start_now() {
        var espaco = Horarios.espaco()
        espaco.regras = Espaco.RegrasDeReserva(
            duracaoMinimaMinutos: 30, duracaoMaximaMinutos: 600, antecedenciaMinimaMinutos: 60, antecedenciaMaximaDias: 1)
        let livres = [livre("08:00", "09:00", 1), livre("10:00", "12:00", 1), livre("15:00", "20:00", 1)]
        // 09:30 now: nothing before 10:30 (an hour's notice).
        #expect(espaco.reservaveis(livres, agora: Horarios.sp("2026-11-23T09:30")) == [livre("10:30", "12:00", 1), livre("15:00", "20:00", 1)])
        // The day before, at 12:00: starts up to 12:00 of this day (one day ahead) only.
        #expect(espaco.reservaveis(livres, agora: Horarios.sp("2026-11-22T12:00")) == [livre("08:00", "09:00", 1), livre("10:00", "12:00", 1)])
        // On the last day of the lead time a stretch ends where the longest booking that may
        // still start (up to 11:00, a day ahead; 30 minutes at most) would end: 11:30.
        var curtas = espaco
        curtas.regras = Espaco.RegrasDeReserva(
            duracaoMinimaMinutos: 30, duracaoMaximaMinutos: 30, antecedenciaMinimaMinutos: 60, antecedenciaMaximaDias: 1)
        #expect(curtas.reservaveis(livres, agora: Horarios.sp("2026-11-22T11:00")) == [livre("08:00", "09:00", 1), livre("10:00", "11:30", 1)])
        // At 11:45 the day before, the longest booking starting by 11:45 ends at 12:15, past the stretch.
        #expect(curtas.reservaveis(livres, agora: Horarios.sp("2026-11-22T11:45")) == [livre("08:00", "09:00", 1), livre("10:00", "12:00", 1)])
        // The next day: nothing left.
        #expect(espaco.reservaveis(livres, agora: Horarios.sp("2026-11-24T08:00")).isEmpty)
        // A gap shorter than the minimum duration (30 min) holds no booking of a room; a shared
        // space's stretches may join into one booking, so they stay.
        let curto = [livre("13:00", "13:20", 1), livre("13:20", "14:00", 1)]
        #expect(espaco.reservaveis(curto, agora: Horarios.sp("2026-11-23T08:00")) == [livre("13:20", "14:00", 1)])
        // A price table's minimum, when longer, holds as well: a booking shorter is refused by the quote.
        #expect(espaco.reservaveis(curto, agora: Horarios.sp("2026-11-23T08:00"), duracaoMinimaDaTabela: 45).isEmpty)
        #expect(espaco.reservaveis(curto, agora: Horarios.sp("2026-11-23T08:00"), duracaoMinimaDaTabela: 40) == [livre("13:20", "14:00", 1)])
        var mesa = Horarios.espaco(tipo: .estacaoCompartilhada, capacidade: 4)
        mesa.regras = espaco.regras
        #expect(mesa.reservaveis(curto, agora: Horarios.sp("2026-11-23T08:00")) == curto)
        // …but a gap no run of them makes long enough holds no booking of a shared space either
        // (10:00–10:15 between two full stretches: 409 for 30 minutes, 422 for 15).
        let entreCheios = [livre("08:00", "09:00", 1), livre("10:00", "10:15", 1), livre("12:00", "20:00", 2)]
        #expect(mesa.reservaveis(entreCheios, agora: Horarios.sp("2026-11-23T07:00")) == [livre("08:00", "09:00", 1), livre("12:00", "20:00", 2)])
        let emSequencia = [livre("10:00", "10:15", 1), livre("10:15", "10:40", 2)]
        #expect(mesa.reservaveis(emSequencia, agora: Horarios.sp("2026-11-23T07:00")) == emSequencia)
    }

    @Test func an_exclusive_space_is_free_where_it_is_open_and_not_booked() {
        let ocupacoes = [ocupacao("09:00", "10:00"), ocupacao("10:00", "11:00"), ocupacao("14:00", "15:00")]
        #expect(
            Horarios.espaco().disponibilidade(em: segunda, fuso: fuso, ocupacoes: ocupacoes) == [
                livre("08:00", "09:00", 1), livre("11:00", "14:00", 1), livre("15:00", "20:00", 1),
            ])
    }

    @Test func bookings_that_extend_past_the_date_only_count_inside_it() {
        let ocupacoes = [
            Horarios.sp("2026-11-22T20:00", "2026-11-23T09:00"), Horarios.sp("2026-11-23T19:00", "2026-11-24T10:00"),
            Horarios.sp("2026-11-24T11:00", "2026-11-24T12:00"),
        ]
        #expect(Horarios.espaco().disponibilidade(em: segunda, fuso: fuso, ocupacoes: ocupacoes) == [livre("09:00", "19:00", 1)])
        let mesa = Horarios.espaco(tipo: .estacaoCompartilhada, capacidade: 2)
        #expect(
            mesa.disponibilidade(em: segunda, fuso: fuso, ocupacoes: ocupacoes) == [
                livre("08:00", "09:00", 1), livre("09:00", "19:00", 2), livre("19:00", "20:00", 1),
            ])
    }

    @Test func blackouts_and_bookings_both_take_time_away() {
        let espaco = Horarios.espaco(bloqueios: [Horarios.bloqueio(ocupacao("12:00", "13:00"))])
        #expect(
            espaco.disponibilidade(em: segunda, fuso: fuso, ocupacoes: [ocupacao("08:00", "09:30")]) == [
                livre("09:30", "12:00", 1), livre("13:00", "20:00", 1),
            ])
    }

    @Test func a_shared_space_counts_the_bookings_over_each_stretch() {
        let mesa = Horarios.espaco(tipo: .estacaoCompartilhada, capacidade: 3)
        let ocupacoes = [ocupacao("09:00", "11:00"), ocupacao("10:00", "12:00"), ocupacao("10:00", "12:00")]
        #expect(
            mesa.disponibilidade(em: segunda, fuso: fuso, ocupacoes: ocupacoes) == [
                livre("08:00", "09:00", 3), livre("09:00", "10:00", 2), livre("11:00", "12:00", 1), livre("12:00", "20:00", 3),
            ])
    }

    @Test func back_to_back_bookings_on_a_one_seat_shared_desk_fill_only_their_own_hours() {
        let mesa = Horarios.espaco(tipo: .estacaoCompartilhada, capacidade: 1)
        let ocupacoes = [ocupacao("09:00", "10:00"), ocupacao("10:00", "11:00"), ocupacao("11:00", "12:00")]
        #expect(mesa.disponibilidade(em: segunda, fuso: fuso, ocupacoes: ocupacoes) == [livre("08:00", "09:00", 1), livre("12:00", "20:00", 1)])
    }

    @Test func neighbouring_stretches_with_the_same_places_are_merged() {
        let mesa = Horarios.espaco(tipo: .estacaoCompartilhada, capacidade: 2)
        let ocupacoes = [ocupacao("09:00", "10:00"), ocupacao("10:00", "11:00")]
        #expect(
            mesa.disponibilidade(em: segunda, fuso: fuso, ocupacoes: ocupacoes) == [
                livre("08:00", "09:00", 2), livre("09:00", "11:00", 1), livre("11:00", "20:00", 2),
            ])
    }

    @Test func a_shared_space_with_a_blackout_keeps_its_two_periods_apart() {
        let mesa = Horarios.espaco(tipo: .estacaoCompartilhada, capacidade: 2, bloqueios: [Horarios.bloqueio(ocupacao("12:00", "13:00"))])
        #expect(
            mesa.disponibilidade(em: segunda, fuso: fuso, ocupacoes: [ocupacao("11:00", "14:00")]) == [
                livre("08:00", "11:00", 2), livre("11:00", "12:00", 1), livre("13:00", "14:00", 1), livre("14:00", "20:00", 2),
            ])
    }

    @Test func an_inactive_space_or_a_closed_day_has_nothing_free() {
        #expect(Horarios.espaco(ativo: false).disponibilidade(em: segunda, fuso: fuso, ocupacoes: []).isEmpty)
        #expect(Horarios.espaco().disponibilidade(em: Horarios.dia("2026-11-22"), fuso: fuso, ocupacoes: []).isEmpty)
    }
}

@Suite("Vagas")
struct VagasTests {
    func ocupacao(_ start: String, _ end: String) -> TimeRange { Horarios.sp("2026-11-23T" + start, "2026-11-23T" + end) }

    @Test func an_exclusive_space_fits_one_booking_where_none_overlaps() {
        let sala = Horarios.espaco(tipo: .salaReuniao, capacidade: 10)
        let ocupacoes = [ocupacao("09:00", "10:00")]
        #expect(sala.vagas(em: ocupacao("10:00", "11:00"), ocupacoes: ocupacoes) == 1)
        #expect(sala.vagas(em: ocupacao("08:00", "09:00"), ocupacoes: ocupacoes) == 1)
        #expect(sala.vagas(em: ocupacao("09:30", "10:30"), ocupacoes: ocupacoes) == 0)
        #expect(sala.vagas(em: ocupacao("08:00", "12:00"), ocupacoes: ocupacoes) == 0)
        #expect(sala.vagas(em: ocupacao("08:00", "12:00"), ocupacoes: []) == 1)
    }

    @Test func a_staircase_of_back_to_back_bookings_takes_one_seat_not_three() {
        let escada = [ocupacao("09:00", "10:00"), ocupacao("10:00", "11:00"), ocupacao("11:00", "12:00")]
        let umLugar = Horarios.espaco(tipo: .estacaoCompartilhada, capacidade: 1)
        #expect(umLugar.vagas(em: ocupacao("09:00", "12:00"), ocupacoes: escada) == 0)
        #expect(umLugar.vagas(em: ocupacao("12:00", "13:00"), ocupacoes: escada) == 1)
        #expect(umLugar.vagas(em: ocupacao("08:00", "09:00"), ocupacoes: escada) == 1)
        let doisLugares = Horarios.espaco(tipo: .estacaoCompartilhada, capacidade: 2)
        #expect(doisLugares.vagas(em: ocupacao("09:00", "12:00"), ocupacoes: escada) == 1)
        #expect(doisLugares.vagas(em: ocupacao("08:00", "13:00"), ocupacoes: escada) == 1)
    }

    @Test func a_shared_space_subtracts_the_busiest_instant() {
        let mesa = Horarios.espaco(tipo: .estacaoCompartilhada, capacidade: 3)
        let ocupacoes = [ocupacao("09:00", "11:00"), ocupacao("10:00", "12:00"), ocupacao("11:30", "13:00")]
        #expect(mesa.vagas(em: ocupacao("09:00", "13:00"), ocupacoes: ocupacoes) == 1)
        #expect(mesa.vagas(em: ocupacao("12:00", "13:00"), ocupacoes: ocupacoes) == 2)
        #expect(mesa.vagas(em: ocupacao("10:30", "11:30"), ocupacoes: ocupacoes) == 1)
        #expect(mesa.vagas(em: ocupacao("11:00", "11:30"), ocupacoes: ocupacoes) == 2)
        #expect(mesa.vagas(em: ocupacao("13:00", "14:00"), ocupacoes: ocupacoes) == 3)
    }

    @Test func identical_bookings_each_take_a_seat_and_the_count_never_goes_negative() {
        let mesa = Horarios.espaco(tipo: .estacaoCompartilhada, capacidade: 2)
        let duas = [ocupacao("09:00", "10:00"), ocupacao("09:00", "10:00")]
        #expect(mesa.vagas(em: ocupacao("09:00", "10:00"), ocupacoes: duas) == 0)
        #expect(mesa.vagas(em: ocupacao("09:00", "10:00"), ocupacoes: duas + duas) == 0)
    }

    @Test func an_inactive_space_fits_nothing() {
        #expect(Horarios.espaco(tipo: .estacaoCompartilhada, capacidade: 5, ativo: false).vagas(em: ocupacao("09:00", "10:00"), ocupacoes: []) == 0)
        #expect(Horarios.espaco(ativo: false).vagas(em: ocupacao("09:00", "10:00"), ocupacoes: []) == 0)
    }
}

@Suite("Regras de reserva")
struct RegrasDeReservaTests {
    let agora = Horarios.sp("2026-11-23T08:00")

    func reserva(daquiA minutos: Double, durando duracao: Double) -> TimeRange {
        Horarios.range(agora.addingTimeInterval(minutos * 60), agora.addingTimeInterval((minutos + duracao) * 60))
    }

    @Test func the_default_takes_30_minutes_to_7_days_starting_now_up_to_180_days_ahead() {
        let regras = Espaco.RegrasDeReserva.padrao
        #expect(regras.violacao(de: reserva(daquiA: 0, durando: 30), em: agora) == nil)
        #expect(regras.violacao(de: reserva(daquiA: 60, durando: 7 * 24 * 60), em: agora) == nil)
        #expect(regras.violacao(de: reserva(daquiA: 180 * 24 * 60, durando: 60), em: agora) == nil)
        #expect(regras.violacao(de: reserva(daquiA: 60, durando: 29), em: agora) == .duracaoAbaixoDaMinima)
        #expect(regras.violacao(de: reserva(daquiA: 60, durando: 7 * 24 * 60 + 1), em: agora) == .duracaoAcimaDaMaxima)
        #expect(regras.violacao(de: reserva(daquiA: -1, durando: 60), em: agora) == .antecedenciaInsuficiente)
        #expect(regras.violacao(de: reserva(daquiA: 180 * 24 * 60 + 1, durando: 60), em: agora) == .antecedenciaExcessiva)
    }

    @Test func a_minimum_notice_refuses_bookings_that_start_too_soon() {
        let regras = Espaco.RegrasDeReserva(antecedenciaMinimaMinutos: 120)
        #expect(regras.violacao(de: reserva(daquiA: 119, durando: 60), em: agora) == .antecedenciaInsuficiente)
        #expect(regras.violacao(de: reserva(daquiA: 120, durando: 60), em: agora) == nil)
        #expect(regras.validas)
        #expect(!Espaco.RegrasDeReserva(duracaoMinimaMinutos: 10, duracaoMaximaMinutos: 5).validas)
    }
}
