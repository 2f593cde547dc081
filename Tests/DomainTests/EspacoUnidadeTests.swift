import Domain
import Foundation
import Testing

@Suite("Unidade decider")
struct UnidadeTests {
    let id = Unidade.ID(UUID())
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    let endereco = Unidade.Endereco(
        logradouro: "Av. Paulista", numero: "1000", complemento: "10º andar", bairro: "Bela Vista",
        cidade: "São Paulo", uf: "SP", cep: "01310-100")
    var scenario: Scenario<Unidade.Command, Unidade.State, Unidade.Event, Unidade.Failure> { Scenario(Unidade.decider) }

    var cadastrada: Unidade.Event {
        .cadastrada(
            Unidade.Cadastrada(
                unidadeId: id, nome: "Paulista", endereco: endereco, fusoHorario: "America/Sao_Paulo", politica: .padrao, operacao: .padrao, em: t0))
    }

    func cadastrar(
        nome: String = "Paulista", endereco: Unidade.Endereco? = nil, fuso: String = "America/Sao_Paulo",
        politica: Unidade.PoliticaDeCancelamento = .padrao
    ) -> Unidade.Command {
        .cadastrar(id: id, nome: nome, endereco: endereco ?? self.endereco, fusoHorario: fuso, politica: politica, em: t0)
    }

    func endereco(uf: String = "SP", cidade: String = "São Paulo", numero: String = "1000") -> Unidade.Endereco {
        Unidade.Endereco(logradouro: "Av. Paulista", numero: numero, cidade: cidade, uf: uf, cep: "01310-100")
    }

    @Test func registering_a_unit_records_its_trimmed_values_and_a_second_time_is_refused() {
        let sujo = Unidade.Endereco(
            logradouro: " Av. Paulista ", numero: "1000", complemento: "10º andar", bairro: "Bela Vista",
            cidade: "São Paulo ", uf: "sp", cep: "01310-100")
        #expect(scenario.given().when(cadastrar(nome: "  Paulista ", endereco: sujo)).outcome == .events([cadastrada]))
        #expect(scenario.given(cadastrada).when(cadastrar()).outcome == .failure(.jaCadastrada))
    }

    @Test func blank_optional_address_fields_are_recorded_as_absent() {
        let semBairro = Unidade.Endereco(
            logradouro: "Rua A", numero: "1", complemento: "  ", bairro: "", cidade: "Recife", uf: "PE", cep: "50000-000")
        guard case .events(let events) = scenario.given().when(cadastrar(endereco: semBairro)).outcome,
            case .cadastrada(let payload) = events.first
        else {
            Issue.record("expected UnidadeCadastrada")
            return
        }
        #expect(payload.endereco.complemento == nil)
        #expect(payload.endereco.bairro == nil)
    }

    @Test func a_name_must_be_present_and_at_most_120_characters() {
        #expect(scenario.given().when(cadastrar(nome: "   ")).outcome == .failure(.nomeInvalido))
        #expect(scenario.given().when(cadastrar(nome: String(repeating: "a", count: 121))).outcome == .failure(.nomeInvalido))
        #expect(scenario.given().when(cadastrar(nome: String(repeating: "a", count: 120))).outcome != .failure(.nomeInvalido))
    }

    @Test func an_unknown_time_zone_is_refused() {
        #expect(scenario.given().when(cadastrar(fuso: "Mars/Olympus")).outcome == .failure(.fusoInvalido("Mars/Olympus")))
        #expect(scenario.given().when(cadastrar(fuso: "")).outcome == .failure(.fusoInvalido("")))
        // Foundation takes "GMT-3" (three hours behind); IANA's Etc/GMT-3 is three ahead. Only names.
        #expect(scenario.given().when(cadastrar(fuso: "GMT-3")).outcome == .failure(.fusoInvalido("GMT-3")))
        #expect(scenario.given().when(cadastrar(fuso: "UTC")).outcome != .failure(.fusoInvalido("UTC")))
        // IANA's Etc/ zones are names too, though Foundation does not list them.
        #expect(scenario.given().when(cadastrar(fuso: "Etc/GMT+3")).outcome != .failure(.fusoInvalido("Etc/GMT+3")))
        #expect(scenario.given().when(cadastrar(fuso: "Etc/GMT+99")).outcome == .failure(.fusoInvalido("Etc/GMT+99")))
    }

    @Test func a_policy_needs_non_negative_hours_and_a_fee_and_a_no_show_share_within_0_to_10000_basis_points() {
        for politica in [
            Unidade.PoliticaDeCancelamento(horasSemMulta: 0, multaBP: 0, devolucaoNoShowBP: -1),
            Unidade.PoliticaDeCancelamento(horasSemMulta: 0, multaBP: 0, devolucaoNoShowBP: 10_001),
            Unidade.PoliticaDeCancelamento(horasSemMulta: -1, multaBP: 0),
            Unidade.PoliticaDeCancelamento(horasSemMulta: 0, multaBP: -1),
            Unidade.PoliticaDeCancelamento(horasSemMulta: 0, multaBP: 10_001),
            Unidade.PoliticaDeCancelamento(horasSemMulta: 366 * 24 + 1, multaBP: 0),
            Unidade.PoliticaDeCancelamento(horasSemMulta: Int.max, multaBP: 0),
        ] {
            #expect(scenario.given().when(cadastrar(politica: politica)).outcome == .failure(.politicaInvalida))
        }
        let livre = Unidade.PoliticaDeCancelamento(horasSemMulta: 0, multaBP: 10_000, devolucaoNoShowBP: 10_000)
        #expect(scenario.given().when(cadastrar(politica: livre)).outcome != .failure(.politicaInvalida))
        #expect(Unidade.PoliticaDeCancelamento.padrao.devolucaoNoShow == 0, "by default a no-show keeps nothing")
    }

    @Test func an_address_names_its_first_wrong_field() {
        #expect(scenario.given().when(cadastrar(endereco: endereco(cidade: " "))).outcome == .failure(.enderecoInvalido(campo: "cidade")))
        #expect(scenario.given().when(cadastrar(endereco: endereco(numero: ""))).outcome == .failure(.enderecoInvalido(campo: "numero")))
        #expect(scenario.given().when(cadastrar(endereco: endereco(uf: "S"))).outcome == .failure(.enderecoInvalido(campo: "uf")))
        #expect(scenario.given().when(cadastrar(endereco: endereco(uf: "S1"))).outcome == .failure(.enderecoInvalido(campo: "uf")))
        #expect(scenario.given().when(cadastrar(endereco: endereco(uf: "SPX"))).outcome == .failure(.enderecoInvalido(campo: "uf")))
        #expect(scenario.given().when(cadastrar(endereco: endereco(uf: "ZZ"))).outcome == .failure(.enderecoInvalido(campo: "uf")))
    }

    @Test func an_update_records_every_value_after_it() {
        let politica = Unidade.PoliticaDeCancelamento(horasSemMulta: 48, multaBP: 10_000)
        let outcome = scenario.given(cadastrada)
            .when(.atualizar(nome: nil, endereco: nil, fusoHorario: " America/Sao_Paulo ", politica: politica, em: t0)).outcome
        #expect(
            outcome
                == .events([
                    .atualizada(
                        Unidade.Atualizada(
                            unidadeId: id, nome: "Paulista", endereco: endereco, fusoHorario: "America/Sao_Paulo", politica: politica,
                            operacao: .padrao, em: t0))
                ]))
        guard case .events(let events) = outcome, case .existente(let dados) = Unidade.decider.fold([cadastrada] + events)
        else {
            Issue.record("expected a unit")
            return
        }
        #expect(dados.fuso.identifier == "America/Sao_Paulo")
        #expect(dados.politica == politica)
    }

    @Test func a_unit_keeps_its_time_zone() {
        #expect(
            scenario.given(cadastrada).when(.atualizar(nome: nil, endereco: nil, fusoHorario: "Europe/Lisbon", politica: nil, em: t0)).outcome
                == .failure(.fusoImutavel(atual: "America/Sao_Paulo")))
        #expect(
            scenario.given(cadastrada).when(.atualizar(nome: nil, endereco: nil, fusoHorario: "Nowhere/City", politica: nil, em: t0)).outcome
                == .failure(.fusoInvalido("Nowhere/City")))
        // A unit registered before zones had to be IANA names may send its own zone back.
        let antiga = Unidade.Event.cadastrada(
            Unidade.Cadastrada(
                unidadeId: id, nome: "Paulista", endereco: endereco, fusoHorario: "GMT-0300", politica: .padrao, operacao: .padrao, em: t0))
        #expect(
            scenario.given(antiga).when(.atualizar(nome: "Nova", endereco: nil, fusoHorario: "GMT-0300", politica: nil, em: t0)).outcome
                != .failure(.fusoInvalido("GMT-0300")))
    }

    @Test func the_iss_rate_and_check_in_window_are_checked_and_default_for_old_units() {
        let operacao = Unidade.Operacao(aliquotaISSBP: 200, janelaDeCheckin: .init(antesMinutos: 30, depoisMinutos: 10))
        let outcome = scenario.given(cadastrada)
            .when(.atualizar(nome: nil, endereco: nil, fusoHorario: nil, politica: nil, operacao: operacao, em: t0)).outcome
        guard case .events(let events) = outcome, case .existente(let dados) = Unidade.decider.fold([cadastrada] + events)
        else {
            Issue.record("expected a unit")
            return
        }
        #expect(dados.aliquotaISSBP == 200 && dados.janelaDeCheckin.antesMinutos == 30)
        let invalida = Unidade.Operacao(aliquotaISSBP: 10_001, janelaDeCheckin: .padrao)
        #expect(
            scenario.given(cadastrada).when(.atualizar(nome: nil, endereco: nil, fusoHorario: nil, politica: nil, operacao: invalida, em: t0))
                .outcome == .failure(.operacaoInvalida))
        // A unit recorded before units had it reads as the defaults.
        let antiga = Unidade.Event.cadastrada(
            Unidade.Cadastrada(
                unidadeId: id, nome: "Paulista", endereco: endereco, fusoHorario: "America/Sao_Paulo", politica: .padrao, em: t0))
        guard case .existente(let velha) = Unidade.decider.fold([antiga]) else {
            Issue.record("expected a unit")
            return
        }
        #expect(velha.operacao == .padrao)
    }

    @Test func an_update_that_changes_nothing_records_nothing() {
        #expect(scenario.given(cadastrada).when(.atualizar(nome: nil, endereco: nil, fusoHorario: nil, politica: nil, em: t0)).outcome == .events([]))
        #expect(
            scenario.given(cadastrada).when(.atualizar(nome: "Paulista ", endereco: nil, fusoHorario: nil, politica: .padrao, em: t0)).outcome
                == .events([]))
    }

    @Test func an_update_validates_what_it_changes_and_needs_the_unit() {
        #expect(
            scenario.given(cadastrada).when(.atualizar(nome: "", endereco: nil, fusoHorario: nil, politica: nil, em: t0)).outcome
                == .failure(.nomeInvalido))
        #expect(
            scenario.given(cadastrada).when(.atualizar(nome: nil, endereco: nil, fusoHorario: "X/Y", politica: nil, em: t0)).outcome
                == .failure(.fusoInvalido("X/Y")))
        #expect(
            scenario.given(cadastrada).when(.atualizar(nome: nil, endereco: endereco(uf: "São"), fusoHorario: nil, politica: nil, em: t0)).outcome
                == .failure(.enderecoInvalido(campo: "uf")))
        #expect(
            scenario.given(cadastrada).when(
                .atualizar(nome: nil, endereco: nil, fusoHorario: nil, politica: .init(horasSemMulta: -5, multaBP: 0), em: t0)
            ).outcome
                == .failure(.politicaInvalida))
        #expect(
            scenario.given().when(.atualizar(nome: "x", endereco: nil, fusoHorario: nil, politica: nil, em: t0)).outcome == .failure(.naoEncontrada))
    }

    @Test func the_unit_state_carries_its_time_zone() {
        guard case .existente(let dados) = Unidade.decider.fold([cadastrada]) else {
            Issue.record("expected a unit")
            return
        }
        #expect(dados.fuso == TimeZone(identifier: "America/Sao_Paulo"))
        #expect(dados.nome == "Paulista")
    }

    @Test func events_round_trip_through_their_stored_form() throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let atualizada = Unidade.Event.atualizada(
            Unidade.Atualizada(
                unidadeId: id, nome: "N", endereco: endereco(), fusoHorario: "Europe/Lisbon",
                politica: .init(horasSemMulta: 2, multaBP: 1), em: t0))
        for event in [cadastrada, atualizada] {
            let data = try encoder.encode(event)
            #expect(try Unidade.Event.decode(type: event.eventType, data: data, using: decoder) == event)
        }
        #expect(cadastrada.eventType == "UnidadeCadastrada")
        #expect(atualizada.eventType == "UnidadeAtualizada")
        #expect(try Unidade.Event.decode(type: "Outro", data: Data("{}".utf8), using: decoder) == nil)
    }
}

@Suite("Política de cancelamento")
struct PoliticaDeCancelamentoTests {
    let inicio = Date(timeIntervalSince1970: 1_800_000_000)
    let total = Money.reais(100)

    func cancelada(horasAntes: Double) -> Date { inicio.addingTimeInterval(-horasAntes * 3_600) }

    @Test func cancelling_before_the_free_window_ends_refunds_everything() {
        let politica = Unidade.PoliticaDeCancelamento.padrao
        let resultado = politica.reembolso(total: total, inicio: inicio, canceladaEm: cancelada(horasAntes: 25))
        #expect(resultado.multa == .zero)
        #expect(resultado.reembolso == total)
    }

    @Test func cancelling_exactly_at_the_boundary_is_still_free() {
        let resultado = Unidade.PoliticaDeCancelamento.padrao.reembolso(total: total, inicio: inicio, canceladaEm: cancelada(horasAntes: 24))
        #expect(resultado.multa == .zero)
        #expect(resultado.reembolso == total)
    }

    @Test func cancelling_one_second_late_pays_the_fee() {
        let resultado = Unidade.PoliticaDeCancelamento.padrao.reembolso(
            total: total, inicio: inicio, canceladaEm: cancelada(horasAntes: 24).addingTimeInterval(1))
        #expect(resultado.multa == .reais(50))
        #expect(resultado.reembolso == .reais(50))
    }

    @Test func cancelling_after_the_start_pays_the_fee() {
        let politica = Unidade.PoliticaDeCancelamento(horasSemMulta: 0, multaBP: 10_000)
        let noInicio = politica.reembolso(total: total, inicio: inicio, canceladaEm: inicio)
        #expect(noInicio.multa == .zero)
        let depois = politica.reembolso(total: total, inicio: inicio, canceladaEm: inicio.addingTimeInterval(60))
        #expect(depois.multa == total)
        #expect(depois.reembolso == .zero)
    }

    @Test func fee_and_refund_add_up_to_the_total_and_are_never_negative() {
        let politica = Unidade.PoliticaDeCancelamento(horasSemMulta: 24, multaBP: 3_333)
        let resultado = politica.reembolso(total: Money(centavos: 1_001), inicio: inicio, canceladaEm: inicio)
        #expect(resultado.multa == Money(centavos: 334))
        #expect(resultado.multa + resultado.reembolso == Money(centavos: 1_001))
        let negativo = politica.reembolso(total: Money(centavos: -500), inicio: inicio, canceladaEm: inicio)
        #expect(negativo.multa == .zero)
        #expect(negativo.reembolso == .zero)
    }
}
