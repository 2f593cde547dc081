import Domain
import Foundation
import Testing

@Suite("Espaco decider")
struct EspacosTests {
    let id = Espaco.ID(UUID())
    let unidade = Unidade.ID(UUID())
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    var scenario: Scenario<Espaco.Command, Espaco.State, Espaco.Event, Espaco.Failure> { Scenario(Espaco.decider) }

    var cadastrado: Espaco.Event {
        .cadastrado(
            Espaco.Cadastrado(
                espacoId: id, unidadeId: unidade, nome: "Sala Ipê", tipo: .salaReuniao, capacidade: 8,
                comodidades: ["wi-fi", "tv"], fotos: [Espaco.Foto(url: "https://img/1.jpg", legenda: "Vista")],
                regras: .padrao, horario: .padrao, em: t0))
    }

    var desativado: Espaco.Event { .desativado(Espaco.Desativado(espacoId: id, motivo: "reforma", em: t0)) }

    func cadastrar(
        nome: String = "Sala Ipê", tipo: Espaco.Tipo = .salaReuniao, capacidade: Int = 8,
        comodidades: [String] = ["wi-fi", "tv"], fotos: [Espaco.Foto] = [Espaco.Foto(url: "https://img/1.jpg", legenda: "Vista")],
        regras: Espaco.RegrasDeReserva = .padrao
    ) -> Espaco.Command {
        .cadastrar(
            id: id, unidade: unidade, nome: nome, tipo: tipo, capacidade: capacidade, comodidades: comodidades, fotos: fotos, regras: regras, em: t0)
    }

    func atualizar(
        nome: String? = nil, capacidade: Int? = nil, comodidades: [String]? = nil, fotos: [Espaco.Foto]? = nil,
        regras: Espaco.RegrasDeReserva? = nil
    ) -> Espaco.Command {
        .atualizar(nome: nome, capacidade: capacidade, comodidades: comodidades, fotos: fotos, regras: regras, em: t0)
    }

    func bloqueio(_ id: UUID = UUID(), horas: ClosedRange<Double>, descricao: String? = nil) -> Espaco.Bloqueio {
        let range = try! TimeRange(start: t0.addingTimeInterval(horas.lowerBound * 3_600), end: t0.addingTimeInterval(horas.upperBound * 3_600))
        return Espaco.Bloqueio(id: id, intervalo: range, motivo: .manutencao, descricao: descricao)
    }

    func agendado(_ bloqueio: Espaco.Bloqueio) -> Espaco.Event {
        .bloqueioAgendado(Espaco.BloqueioAgendado(espacoId: id, bloqueio: bloqueio, em: t0))
    }

    func estado(_ events: Espaco.Event...) -> Espaco.Dados? {
        guard case .existente(let dados) = Espaco.decider.fold(events) else { return nil }
        return dados
    }

    // MARK: cadastrar

    @Test func registering_a_space_records_the_default_opening_hours_and_a_second_time_is_refused() {
        #expect(scenario.given().when(cadastrar()).outcome == .events([cadastrado]))
        #expect(scenario.given(cadastrado).when(cadastrar()).outcome == .failure(.jaCadastrado))
    }

    @Test func a_new_space_is_active_with_no_blackouts() throws {
        let dados = try #require(estado(cadastrado))
        #expect(dados.ativo)
        #expect(dados.bloqueios.isEmpty)
        #expect(dados.horario == .padrao)
        #expect(dados.unidade == unidade)
        #expect(dados.cadastradoEm == t0)
        #expect(dados.tipo == .salaReuniao)
        #expect(dados.capacidade == 8)
    }

    @Test func amenities_are_trimmed_lowercased_and_deduplicated() {
        let outcome = scenario.given().when(cadastrar(comodidades: ["  Wi-Fi ", "TV", "wi-fi", "tv"])).outcome
        #expect(outcome == .events([cadastrado]))
    }

    @Test func a_blank_or_too_long_amenity_is_refused() {
        #expect(scenario.given().when(cadastrar(comodidades: ["café", "  "])).outcome == .failure(.comodidadeInvalida))
        #expect(scenario.given().when(cadastrar(comodidades: [String(repeating: "x", count: 61)])).outcome == .failure(.comodidadeInvalida))
        #expect(scenario.given().when(cadastrar(comodidades: [String(repeating: "x", count: 60)])).outcome != .failure(.comodidadeInvalida))
        let cinquenta = (1...50).map { "item \($0)" }
        #expect(scenario.given().when(cadastrar(comodidades: cinquenta)).outcome != .failure(.comodidadeInvalida))
        #expect(scenario.given().when(cadastrar(comodidades: cinquenta + ["mais um"])).outcome == .failure(.comodidadeInvalida))
    }

    @Test func a_photo_needs_an_http_or_https_url() {
        for url in ["ftp://img/1.jpg", "img/1.jpg", "", "https://", "javascript:alert(1)"] {
            #expect(scenario.given().when(cadastrar(fotos: [Espaco.Foto(url: url)])).outcome == .failure(.fotoInvalida))
        }
        #expect(scenario.given().when(cadastrar(fotos: [Espaco.Foto(url: "http://img/1.jpg")])).outcome != .failure(.fotoInvalida))
        let longa = Espaco.Foto(url: "https://img/" + String(repeating: "x", count: 2_048))
        let legendaLonga = Espaco.Foto(url: "https://img/1.jpg", legenda: String(repeating: "x", count: 201))
        let vinteEUma = (1...21).map { Espaco.Foto(url: "https://img/\($0).jpg") }
        for fotos in [[longa], [legendaLonga], vinteEUma] {
            #expect(scenario.given().when(cadastrar(fotos: fotos)).outcome == .failure(.fotoInvalida))
        }
        #expect(scenario.given().when(cadastrar(fotos: Array(vinteEUma.prefix(20)))).outcome != .failure(.fotoInvalida))
    }

    @Test func a_name_must_be_present_and_at_most_120_characters() {
        #expect(scenario.given().when(cadastrar(nome: " \n ")).outcome == .failure(.nomeInvalido))
        #expect(scenario.given().when(cadastrar(nome: String(repeating: "a", count: 121))).outcome == .failure(.nomeInvalido))
    }

    @Test(arguments: Espaco.Tipo.allCases)
    func capacity_is_between_1_and_1000_for_every_type(tipo: Espaco.Tipo) {
        #expect(scenario.given().when(cadastrar(tipo: tipo, capacidade: 0)).outcome == .failure(.capacidadeInvalida))
        #expect(scenario.given().when(cadastrar(tipo: tipo, capacidade: 1_001)).outcome == .failure(.capacidadeInvalida))
        #expect(scenario.given().when(cadastrar(tipo: tipo, capacidade: 1_000)).outcome != .failure(.capacidadeInvalida))
        #expect(scenario.given().when(cadastrar(tipo: tipo, capacidade: 1)).outcome != .failure(.capacidadeInvalida))
    }

    @Test func only_the_shared_hot_desk_takes_overlapping_bookings() {
        #expect(Espaco.Tipo.allCases.filter(\.compartilhado) == [.estacaoCompartilhada])
        #expect(Espaco.Tipo.allCases.map(\.rawValue) == ["estacao_compartilhada", "mesa_fixa", "sala_privativa", "sala_reuniao", "auditorio"])
    }

    @Test func booking_rules_need_a_positive_minimum_a_maximum_above_it_and_no_negative_notice() {
        for regras in [
            Espaco.RegrasDeReserva(duracaoMinimaMinutos: 0),
            Espaco.RegrasDeReserva(duracaoMinimaMinutos: 60, duracaoMaximaMinutos: 59),
            Espaco.RegrasDeReserva(antecedenciaMinimaMinutos: -1),
            Espaco.RegrasDeReserva(antecedenciaMaximaDias: -1),
            // Beyond a year of duration or notice, or two years ahead: a typo, not a rule.
            Espaco.RegrasDeReserva(duracaoMaximaMinutos: 366 * 24 * 60 + 1),
            Espaco.RegrasDeReserva(antecedenciaMinimaMinutos: Int.max),
            Espaco.RegrasDeReserva(antecedenciaMaximaDias: 731),
        ] {
            #expect(scenario.given().when(cadastrar(regras: regras)).outcome == .failure(.regrasInvalidas))
        }
        let exatas = Espaco.RegrasDeReserva(
            duracaoMinimaMinutos: 60, duracaoMaximaMinutos: 60, antecedenciaMinimaMinutos: 0, antecedenciaMaximaDias: 0)
        #expect(scenario.given().when(cadastrar(regras: exatas)).outcome != .failure(.regrasInvalidas))
        let limites = Espaco.RegrasDeReserva(
            duracaoMinimaMinutos: 1, duracaoMaximaMinutos: 366 * 24 * 60, antecedenciaMinimaMinutos: 366 * 24 * 60, antecedenciaMaximaDias: 730)
        #expect(scenario.given().when(cadastrar(regras: limites)).outcome != .failure(.regrasInvalidas))
    }

    @Test func every_command_but_registering_needs_the_space() {
        let commands: [Espaco.Command] = [
            atualizar(nome: "x"), .definirHorario(.padrao, em: t0), .agendarBloqueio(bloqueio(horas: 1...2), em: t0),
            .removerBloqueio(id: UUID(), em: t0), .desativar(motivo: nil, em: t0), .reativar(em: t0),
        ]
        for command in commands {
            #expect(scenario.given().when(command).outcome == .failure(.naoEncontrado))
        }
    }

    // MARK: atualizar

    @Test func an_update_records_every_editable_value_after_it() throws {
        let regras = Espaco.RegrasDeReserva(duracaoMinimaMinutos: 60)
        let outcome = scenario.given(cadastrado).when(atualizar(capacidade: 10, comodidades: [" Café "], regras: regras)).outcome
        let esperado = Espaco.Atualizado(
            espacoId: id, nome: "Sala Ipê", capacidade: 10, comodidades: ["café"],
            fotos: [Espaco.Foto(url: "https://img/1.jpg", legenda: "Vista")], regras: regras, em: t0)
        #expect(outcome == .events([.atualizado(esperado)]))
        let dados = try #require(estado(cadastrado, .atualizado(esperado)))
        #expect(dados.capacidade == 10)
        #expect(dados.comodidades == ["café"])
        #expect(dados.regras == regras)
    }

    @Test func an_update_that_changes_nothing_records_nothing() {
        #expect(scenario.given(cadastrado).when(atualizar()).outcome == .events([]))
        #expect(scenario.given(cadastrado).when(atualizar(nome: " Sala Ipê", capacidade: 8, comodidades: ["WI-FI", "tv"])).outcome == .events([]))
    }

    @Test func an_update_validates_what_it_changes() {
        #expect(scenario.given(cadastrado).when(atualizar(nome: "")).outcome == .failure(.nomeInvalido))
        #expect(scenario.given(cadastrado).when(atualizar(capacidade: 0)).outcome == .failure(.capacidadeInvalida))
        #expect(scenario.given(cadastrado).when(atualizar(comodidades: [""])).outcome == .failure(.comodidadeInvalida))
        #expect(scenario.given(cadastrado).when(atualizar(fotos: [Espaco.Foto(url: "file:///etc/passwd")])).outcome == .failure(.fotoInvalida))
        #expect(
            scenario.given(cadastrado).when(atualizar(regras: Espaco.RegrasDeReserva(duracaoMinimaMinutos: -3))).outcome == .failure(.regrasInvalidas)
        )
    }

    @Test func an_inactive_space_can_still_be_prepared() {
        let outcome = scenario.given(cadastrado, desativado).when(atualizar(nome: "Sala Jatobá")).outcome
        guard case .events(let events) = outcome else {
            Issue.record("expected an update")
            return
        }
        #expect(events.count == 1)
        let b = bloqueio(horas: 1...2)
        #expect(scenario.given(cadastrado, desativado).when(.agendarBloqueio(b, em: t0)).outcome == .events([agendado(b)]))
        #expect(
            scenario.given(cadastrado, desativado).when(.definirHorario(.fechado, em: t0)).outcome
                == .events([.horarioDefinido(Espaco.HorarioDefinido(espacoId: id, horario: .fechado, em: t0))]))
    }

    // MARK: horário

    @Test func defining_the_opening_hours_replaces_them() throws {
        let horario = try Espaco.HorarioSemanal([.domingo: [Espaco.Faixa(abre: 600, fecha: 900)]])
        let evento = Espaco.Event.horarioDefinido(Espaco.HorarioDefinido(espacoId: id, horario: horario, em: t0))
        #expect(scenario.given(cadastrado).when(.definirHorario(horario, em: t0)).outcome == .events([evento]))
        #expect(try #require(estado(cadastrado, evento)).horario == horario)
    }

    @Test func defining_the_same_opening_hours_again_records_nothing() {
        #expect(scenario.given(cadastrado).when(.definirHorario(.padrao, em: t0)).outcome == .events([]))
    }

    // MARK: bloqueios

    @Test func a_blackout_is_scheduled_with_a_trimmed_description() throws {
        let b = bloqueio(horas: 1...3, descricao: "  pintura ")
        let limpo = Espaco.Bloqueio(id: b.id, intervalo: b.intervalo, motivo: .manutencao, descricao: "pintura")
        #expect(scenario.given(cadastrado).when(.agendarBloqueio(b, em: t0)).outcome == .events([agendado(limpo)]))
        let semDescricao = bloqueio(horas: 1...3, descricao: " ")
        #expect(
            scenario.given(cadastrado).when(.agendarBloqueio(semDescricao, em: t0)).outcome
                == .events([agendado(Espaco.Bloqueio(id: semDescricao.id, intervalo: semDescricao.intervalo, motivo: .manutencao))]))
    }

    @Test func an_overlapping_blackout_is_refused_and_a_touching_one_is_not() {
        let primeiro = bloqueio(horas: 10...12)
        let history = scenario.given(cadastrado, agendado(primeiro))
        #expect(history.when(.agendarBloqueio(bloqueio(horas: 11...13), em: t0)).outcome == .failure(.bloqueioSobreposto))
        #expect(history.when(.agendarBloqueio(bloqueio(horas: 9...10.5), em: t0)).outcome == .failure(.bloqueioSobreposto))
        #expect(history.when(.agendarBloqueio(bloqueio(horas: 8...20), em: t0)).outcome == .failure(.bloqueioSobreposto))
        let seguinte = bloqueio(horas: 12...14)
        #expect(history.when(.agendarBloqueio(seguinte, em: t0)).outcome == .events([agendado(seguinte)]))
    }

    @Test func a_blackout_that_has_already_ended_is_refused_and_one_still_running_is_not() {
        #expect(scenario.given(cadastrado).when(.agendarBloqueio(bloqueio(horas: -3 ... -1), em: t0)).outcome == .failure(.bloqueioEncerrado))
        #expect(scenario.given(cadastrado).when(.agendarBloqueio(bloqueio(horas: -3...0), em: t0)).outcome == .failure(.bloqueioEncerrado))
        let emCurso = bloqueio(horas: -1...1)
        #expect(scenario.given(cadastrado).when(.agendarBloqueio(emCurso, em: t0)).outcome == .events([agendado(emCurso)]))
        // A retry after the blackout ended still records nothing, as any repeat does.
        #expect(
            scenario.given(cadastrado, agendado(emCurso)).when(.agendarBloqueio(emCurso, em: t0.addingTimeInterval(7_200))).outcome == .events([]))
    }

    @Test func scheduling_the_same_blackout_again_records_nothing_but_reusing_its_id_is_refused() {
        let b = bloqueio(horas: 10...12)
        let history = scenario.given(cadastrado, agendado(b))
        #expect(history.when(.agendarBloqueio(b, em: t0)).outcome == .events([]))
        #expect(history.when(.agendarBloqueio(bloqueio(b.id, horas: 30...31), em: t0)).outcome == .failure(.bloqueioSobreposto))
    }

    @Test func blackouts_are_kept_in_start_order() throws {
        let tarde = bloqueio(horas: 20...22)
        let cedo = bloqueio(horas: 1...2)
        #expect(try #require(estado(cadastrado, agendado(tarde), agendado(cedo))).bloqueios == [cedo, tarde])
    }

    @Test func a_blackout_can_be_removed_once() throws {
        let b = bloqueio(horas: 10...12)
        let removido = Espaco.Event.bloqueioRemovido(Espaco.BloqueioRemovido(espacoId: id, bloqueioId: b.id, em: t0))
        #expect(scenario.given(cadastrado, agendado(b)).when(.removerBloqueio(id: b.id, em: t0)).outcome == .events([removido]))
        #expect(
            scenario.given(cadastrado, agendado(b), removido).when(.removerBloqueio(id: b.id, em: t0)).outcome == .failure(.bloqueioNaoEncontrado))
        #expect(scenario.given(cadastrado).when(.removerBloqueio(id: UUID(), em: t0)).outcome == .failure(.bloqueioNaoEncontrado))
        #expect(try #require(estado(cadastrado, agendado(b), removido)).bloqueios.isEmpty)
    }

    @Test func a_removed_blackout_frees_its_time_for_another() {
        let b = bloqueio(horas: 10...12)
        let removido = Espaco.Event.bloqueioRemovido(Espaco.BloqueioRemovido(espacoId: id, bloqueioId: b.id, em: t0))
        let outro = bloqueio(horas: 11...13)
        #expect(scenario.given(cadastrado, agendado(b), removido).when(.agendarBloqueio(outro, em: t0)).outcome == .events([agendado(outro)]))
    }

    // MARK: desativar / reativar

    @Test func deactivating_records_the_trimmed_reason_and_twice_is_refused() throws {
        #expect(scenario.given(cadastrado).when(.desativar(motivo: " reforma ", em: t0)).outcome == .events([desativado]))
        #expect(
            scenario.given(cadastrado).when(.desativar(motivo: "  ", em: t0)).outcome
                == .events([.desativado(Espaco.Desativado(espacoId: id, motivo: nil, em: t0))]))
        #expect(scenario.given(cadastrado, desativado).when(.desativar(motivo: nil, em: t0)).outcome == .failure(.jaDesativado))
        #expect(try #require(estado(cadastrado, desativado)).ativo == false)
    }

    @Test func reactivating_needs_an_inactive_space() throws {
        let reativado = Espaco.Event.reativado(Espaco.Reativado(espacoId: id, em: t0))
        #expect(scenario.given(cadastrado).when(.reativar(em: t0)).outcome == .failure(.jaAtivo))
        #expect(scenario.given(cadastrado, desativado).when(.reativar(em: t0)).outcome == .events([reativado]))
        #expect(scenario.given(cadastrado, desativado, reativado).when(.reativar(em: t0)).outcome == .failure(.jaAtivo))
        #expect(try #require(estado(cadastrado, desativado, reativado)).ativo)
        #expect(!Espaco.decider.isTerminal(Espaco.decider.fold([cadastrado, desativado])))
    }

    // MARK: stored form

    @Test func events_round_trip_through_their_stored_form() throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let horario = try Espaco.HorarioSemanal([.sabado: [Espaco.Faixa(abre: 0, fecha: 60), Espaco.Faixa(abre: 1_200, fecha: 1_440)]])
        let events: [Espaco.Event] = [
            cadastrado,
            .atualizado(
                Espaco.Atualizado(
                    espacoId: id, nome: "n", capacidade: 2, comodidades: [], fotos: [Espaco.Foto(url: "http://x")], regras: .padrao, em: t0)),
            .horarioDefinido(Espaco.HorarioDefinido(espacoId: id, horario: horario, em: t0)),
            .horarioDefinido(Espaco.HorarioDefinido(espacoId: id, horario: .fechado, em: t0)),
            agendado(bloqueio(horas: 1...2, descricao: "feriado municipal")),
            .bloqueioRemovido(Espaco.BloqueioRemovido(espacoId: id, bloqueioId: UUID(), em: t0)),
            desativado,
            .desativado(Espaco.Desativado(espacoId: id, motivo: nil, em: t0)),
            .reativado(Espaco.Reativado(espacoId: id, em: t0)),
        ]
        for event in events {
            let data = try encoder.encode(event)
            #expect(try Espaco.Event.decode(type: event.eventType, data: data, using: decoder) == event)
        }
        #expect(
            events.map(\.eventType) == [
                "EspacoCadastrado", "EspacoAtualizado", "HorarioDefinido", "HorarioDefinido", "BloqueioAgendado",
                "BloqueioRemovido", "EspacoDesativado", "EspacoDesativado", "EspacoReativado",
            ])
        #expect(try Espaco.Event.decode(type: "Outro", data: Data("{}".utf8), using: decoder) == nil)
    }

    @Test func the_registered_event_stores_the_type_as_its_stable_name() throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let json = try #require(String(data: try encoder.encode(cadastrado), encoding: .utf8))
        #expect(json.contains("\"tipo\":\"sala_reuniao\""))
        #expect(json.contains("\"segunda\":[{"))
        #expect(json.contains("\"espacoId\":\"\(id.rawValue.uuidString)\""))
    }

    // MARK: leases

    func locacao(_ id: UUID = UUID(), horas: ClosedRange<Double>, locatario: Espaco.Bloqueio.Locatario?) -> Espaco.Bloqueio {
        let b = bloqueio(id, horas: horas)
        return Espaco.Bloqueio(id: b.id, intervalo: b.intervalo, motivo: .locacao, descricao: "contrato 12", locatario: locatario)
    }

    var escritorio: Espaco.Event {
        .cadastrado(
            Espaco.Cadastrado(
                espacoId: id, unidadeId: unidade, nome: "Sala 12", tipo: .salaPrivativa, capacidade: 4, comodidades: [], fotos: [],
                regras: .padrao, horario: .padrao, em: t0))
    }

    @Test func a_lease_has_one_holder_and_is_of_a_desk_or_an_office() {
        let membro = Espaco.Bloqueio.Locatario(usuarioId: UUID(), empresaId: nil)
        let lease = locacao(horas: 1...100, locatario: membro)
        #expect(scenario.given(escritorio).when(.agendarBloqueio(lease, em: t0)).outcome == .events([agendado(lease)]))
        #expect(
            scenario.given(escritorio).when(.agendarBloqueio(locacao(horas: 1...2, locatario: nil), em: t0)).outcome == .failure(.locatarioInvalido))
        let ambos = Espaco.Bloqueio.Locatario(usuarioId: UUID(), empresaId: UUID())
        #expect(
            scenario.given(escritorio).when(.agendarBloqueio(locacao(horas: 1...2, locatario: ambos), em: t0)).outcome == .failure(.locatarioInvalido)
        )
        let manutencaoComLocatario = Espaco.Bloqueio(id: UUID(), intervalo: lease.intervalo, motivo: .manutencao, locatario: membro)
        #expect(scenario.given(escritorio).when(.agendarBloqueio(manutencaoComLocatario, em: t0)).outcome == .failure(.locatarioInvalido))
        // The meeting room (`cadastrado`) is not let.
        #expect(scenario.given(cadastrado).when(.agendarBloqueio(lease, em: t0)).outcome == .failure(.tipoNaoLocavel))
        // The catalog's view keeps neither the holder nor the note.
        #expect(lease.publico == Espaco.Bloqueio(id: lease.id, intervalo: lease.intervalo, motivo: .locacao))
        let b = bloqueio(horas: 1...2, descricao: "pintura")
        #expect(b.publico == b)
    }

    @Test func a_lease_ends_early_between_its_start_and_its_end_and_once_begun_is_not_removed() throws {
        let lease = locacao(horas: 10...1_000, locatario: Espaco.Bloqueio.Locatario(usuarioId: nil, empresaId: UUID()))
        let history = scenario.given(escritorio, agendado(lease))
        let fim = t0.addingTimeInterval(500 * 3_600)
        let encurtado = Espaco.Event.bloqueioEncurtado(
            Espaco.BloqueioEncurtado(espacoId: id, bloqueioId: lease.id, locatario: lease.locatario, fim: fim, em: t0))
        #expect(history.when(.encurtarBloqueio(id: lease.id, fim: fim, em: t0)).outcome == .events([encurtado]))
        #expect(try #require(estado(escritorio, agendado(lease), encurtado)).bloqueios.first?.intervalo.end == fim)
        #expect(history.when(.encurtarBloqueio(id: lease.id, fim: lease.intervalo.end, em: t0)).outcome == .events([]))
        #expect(
            history.when(.encurtarBloqueio(id: lease.id, fim: lease.intervalo.end.addingTimeInterval(1), em: t0)).outcome == .failure(.fimInvalido))
        #expect(history.when(.encurtarBloqueio(id: lease.id, fim: lease.intervalo.start, em: t0)).outcome == .failure(.fimInvalido))
        #expect(history.when(.encurtarBloqueio(id: UUID(), fim: fim, em: t0)).outcome == .failure(.bloqueioNaoEncontrado))
        // Before it begins it is removed whole; once begun, it is ended early instead.
        #expect(
            history.when(.removerBloqueio(id: lease.id, em: t0)).outcome
                == .events([.bloqueioRemovido(Espaco.BloqueioRemovido(espacoId: id, bloqueioId: lease.id, locatario: lease.locatario, em: t0))]))
        #expect(history.when(.removerBloqueio(id: lease.id, em: t0.addingTimeInterval(11 * 3_600))).outcome == .failure(.locacaoIniciada))
    }
}
