import Domain
import Foundation
import Testing

@Suite("TabelaDePreco decider")
struct PrecosTabelaTests {
    typealias Regra = TabelaDePreco.Regra
    let espaco = UUID()
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    let valores = TabelaDePreco.Valores(porHora: .reais(25), meioPeriodo: .reais(80), diaria: .reais(150), duracaoMinimaMinutos: 60)
    let pico = Regra(
        id: UUID(), tipo: .horarioDePico(dias: [.segunda, .sexta], inicioMinutos: 18 * 60, fimMinutos: 22 * 60, multiplicadorBP: 15_000))
    var scenario: Scenario<TabelaDePreco.Command, TabelaDePreco.State, TabelaDePreco.Event, TabelaDePreco.Failure> {
        Scenario(TabelaDePreco.decider)
    }

    var definida: TabelaDePreco.Event { .definida(TabelaDePreco.Definida(espacoId: espaco, valores: valores, em: t0)) }

    func adicionada(_ regra: Regra) -> TabelaDePreco.Event {
        .regraAdicionada(TabelaDePreco.RegraAdicionada(espacoId: espaco, regra: regra, em: t0))
    }

    @Test func defining_a_new_table_records_its_values() {
        #expect(scenario.given().when(.definir(espacoId: espaco, valores: valores, em: t0)).outcome == .events([definida]))
    }

    @Test func redefining_replaces_the_values_and_keeps_the_rules() {
        let novos = TabelaDePreco.Valores(porHora: .reais(30), meioPeriodo: .reais(90), diaria: .reais(160), duracaoMinimaMinutos: 30)
        let t1 = t0.addingTimeInterval(60)
        let redefinida = TabelaDePreco.Event.definida(TabelaDePreco.Definida(espacoId: espaco, valores: novos, em: t1))
        #expect(
            scenario.given(definida, adicionada(pico)).when(.definir(espacoId: espaco, valores: novos, em: t1)).outcome
                == .events([redefinida]))
        #expect(
            TabelaDePreco.decider.fold([definida, adicionada(pico), redefinida])
                == .definida(TabelaDePreco.Tabela(espacoId: espaco, valores: novos, regras: [pico])))
    }

    @Test func defining_the_values_already_in_force_changes_nothing() {
        #expect(scenario.given(definida).when(.definir(espacoId: espaco, valores: valores, em: t0)).outcome == .events([]))
    }

    @Test func a_table_belongs_to_one_space() {
        #expect(
            scenario.given(definida).when(.definir(espacoId: UUID(), valores: valores, em: t0)).outcome
                == .failure(.valoresInvalidos("a tabela pertence a outro espaço")))
    }

    @Test(arguments: [
        TabelaDePreco.Valores(porHora: .zero, meioPeriodo: .reais(80), diaria: .reais(150), duracaoMinimaMinutos: 60),
        TabelaDePreco.Valores(porHora: .reais(25), meioPeriodo: Money(centavos: -1), diaria: .reais(150), duracaoMinimaMinutos: 60),
        TabelaDePreco.Valores(porHora: .reais(25), meioPeriodo: .reais(80), diaria: .zero, duracaoMinimaMinutos: 60),
        TabelaDePreco.Valores(porHora: .reais(25), meioPeriodo: .reais(80), diaria: .reais(150), duracaoMinimaMinutos: 0),
        TabelaDePreco.Valores(porHora: .reais(25), meioPeriodo: .reais(80), diaria: .reais(150), duracaoMinimaMinutos: 1441),
        TabelaDePreco.Valores(porHora: Money(centavos: 100_000_001), meioPeriodo: .reais(80), diaria: .reais(150), duracaoMinimaMinutos: 60),
        TabelaDePreco.Valores(porHora: .reais(25), meioPeriodo: .reais(80), diaria: Money(centavos: .max), duracaoMinimaMinutos: 60),
    ])
    func invalid_values_are_refused(_ invalidos: TabelaDePreco.Valores) throws {
        let problema = try #require(invalidos.problema)
        #expect(scenario.given().when(.definir(espacoId: espaco, valores: invalidos, em: t0)).outcome == .failure(.valoresInvalidos(problema)))
    }

    @Test func a_longer_block_never_costs_less_than_a_shorter_one() {
        let meioBarato = TabelaDePreco.Valores(porHora: .reais(100), meioPeriodo: .reais(40), diaria: .reais(150), duracaoMinimaMinutos: 60)
        #expect(meioBarato.problema == "o meio período (4 h) não pode custar menos que uma hora")
        let diariaBarata = TabelaDePreco.Valores(porHora: .reais(25), meioPeriodo: .reais(80), diaria: Money(centavos: 1), duracaoMinimaMinutos: 60)
        #expect(diariaBarata.problema == "a diária não pode custar menos que um meio período")
        #expect(
            scenario.given().when(.definir(espacoId: espaco, valores: diariaBarata, em: t0)).outcome
                == .failure(.valoresInvalidos("a diária não pode custar menos que um meio período")))
        let iguais = TabelaDePreco.Valores(porHora: .reais(50), meioPeriodo: .reais(50), diaria: .reais(50), duracaoMinimaMinutos: 60)
        #expect(iguais.problema == nil)
    }

    @Test func the_most_a_price_may_be_is_valid() {
        let limite = TabelaDePreco.Valores(
            porHora: .reais(1_000_000), meioPeriodo: .reais(1_000_000), diaria: .reais(1_000_000), duracaoMinimaMinutos: 60)
        #expect(limite.problema == nil)
    }

    @Test func the_edges_of_the_minimum_duration_are_valid() {
        for minimo in [1, 1440] {
            let limite = TabelaDePreco.Valores(porHora: .reais(25), meioPeriodo: .reais(80), diaria: .reais(150), duracaoMinimaMinutos: minimo)
            #expect(limite.problema == nil)
        }
    }

    @Test func a_rule_is_added_to_a_defined_table() {
        #expect(scenario.given(definida).when(.adicionarRegra(pico, em: t0)).outcome == .events([adicionada(pico)]))
        #expect(
            TabelaDePreco.decider.fold([definida, adicionada(pico)])
                == .definida(TabelaDePreco.Tabela(espacoId: espaco, valores: valores, regras: [pico])))
    }

    @Test func rules_need_a_defined_table() {
        #expect(scenario.given().when(.adicionarRegra(pico, em: t0)).outcome == .failure(.tabelaInexistente))
        #expect(scenario.given().when(.removerRegra(id: pico.id, em: t0)).outcome == .failure(.tabelaInexistente))
    }

    @Test func a_rule_id_is_used_once() {
        let mesmoId = Regra(id: pico.id, tipo: .fimDeSemana(multiplicadorBP: 12_000))
        #expect(scenario.given(definida, adicionada(pico)).when(.adicionarRegra(mesmoId, em: t0)).outcome == .failure(.regraDuplicada))
    }

    @Test(arguments: [
        Regra.Tipo.horarioDePico(dias: [], inicioMinutos: 0, fimMinutos: 60, multiplicadorBP: 15_000),
        .horarioDePico(dias: [.segunda], inicioMinutos: -1, fimMinutos: 60, multiplicadorBP: 15_000),
        .horarioDePico(dias: [.segunda], inicioMinutos: 600, fimMinutos: 600, multiplicadorBP: 15_000),
        .horarioDePico(dias: [.segunda], inicioMinutos: 600, fimMinutos: 1441, multiplicadorBP: 15_000),
        .horarioDePico(dias: [.segunda], inicioMinutos: 0, fimMinutos: 1440, multiplicadorBP: 50_001),
        .fimDeSemana(multiplicadorBP: 0),
        .longaDuracao(aPartirDeMinutos: 0, descontoBP: 1_000),
        .longaDuracao(aPartirDeMinutos: 480, descontoBP: 10_001),
        .plano(plano: "  ", descontoBP: 1_000),
        .plano(plano: "Mensal", descontoBP: 0),
    ])
    func invalid_rules_are_refused(_ tipo: Regra.Tipo) throws {
        let regra = Regra(id: UUID(), tipo: tipo)
        let problema = try #require(regra.problema)
        #expect(scenario.given(definida).when(.adicionarRegra(regra, em: t0)).outcome == .failure(.regraInvalida(problema)))
    }

    @Test func the_edges_of_rule_ranges_are_valid() {
        let tipos: [Regra.Tipo] = [
            .horarioDePico(dias: [.domingo], inicioMinutos: 0, fimMinutos: 1440, multiplicadorBP: 1),
            .fimDeSemana(multiplicadorBP: 50_000),
            .longaDuracao(aPartirDeMinutos: 1, descontoBP: 10_000),
            .plano(plano: "P", descontoBP: 1),
        ]
        for tipo in tipos { #expect(Regra(id: UUID(), tipo: tipo).problema == nil) }
    }

    @Test func plan_names_are_stored_trimmed() {
        let regra = Regra(id: UUID(), tipo: .plano(plano: "  Mensal ", descontoBP: 1_000))
        let armazenada = Regra(id: regra.id, tipo: .plano(plano: "Mensal", descontoBP: 1_000))
        #expect(scenario.given(definida).when(.adicionarRegra(regra, em: t0)).outcome == .events([adicionada(armazenada)]))
    }

    @Test func a_rule_is_removed_and_an_unknown_one_is_not_found() {
        let removida = TabelaDePreco.Event.regraRemovida(TabelaDePreco.RegraRemovida(espacoId: espaco, regraId: pico.id, em: t0))
        #expect(scenario.given(definida, adicionada(pico)).when(.removerRegra(id: pico.id, em: t0)).outcome == .events([removida]))
        #expect(
            TabelaDePreco.decider.fold([definida, adicionada(pico), removida])
                == .definida(TabelaDePreco.Tabela(espacoId: espaco, valores: valores, regras: [])))
        #expect(
            scenario.given(definida, adicionada(pico), removida).when(.removerRegra(id: pico.id, em: t0)).outcome
                == .failure(.regraNaoEncontrada))
    }

    @Test func a_removed_rule_id_can_be_added_again() {
        let removida = TabelaDePreco.Event.regraRemovida(TabelaDePreco.RegraRemovida(espacoId: espaco, regraId: pico.id, em: t0))
        #expect(scenario.given(definida, adicionada(pico), removida).when(.adicionarRegra(pico, em: t0)).outcome == .events([adicionada(pico)]))
    }

    @Test func rules_are_stored_flat_with_their_kind() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let id = try #require(UUID(uuidString: "00000000-0000-0000-0000-000000000001"))
        let regra = Regra(id: id, tipo: .horarioDePico(dias: [.sexta, .segunda], inicioMinutos: 1080, fimMinutos: 1320, multiplicadorBP: 15_000))
        let json = String(decoding: try encoder.encode(regra), as: UTF8.self)
        #expect(
            json
                == #"{"dias":["segunda","sexta"],"fimMinutos":1320,"id":"00000000-0000-0000-0000-000000000001","inicioMinutos":1080,"multiplicadorBP":15000,"tipo":"horario_de_pico"}"#
        )
        let plano = String(decoding: try encoder.encode(Regra(id: id, tipo: .plano(plano: "Mensal", descontoBP: 2_000))), as: UTF8.self)
        #expect(plano == #"{"descontoBP":2000,"id":"00000000-0000-0000-0000-000000000001","plano":"Mensal","tipo":"plano"}"#)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Regra.self, from: Data(#"{"id":"00000000-0000-0000-0000-000000000001","tipo":"happy_hour"}"#.utf8))
        }
    }

    @Test func events_round_trip_through_their_stored_form() throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let regras = [
            pico,
            Regra(id: UUID(), tipo: .fimDeSemana(multiplicadorBP: 12_000)),
            Regra(id: UUID(), tipo: .longaDuracao(aPartirDeMinutos: 480, descontoBP: 1_000)),
            Regra(id: UUID(), tipo: .plano(plano: "Mensal", descontoBP: 2_000)),
        ]
        let events = [definida, .regraRemovida(TabelaDePreco.RegraRemovida(espacoId: espaco, regraId: pico.id, em: t0))] + regras.map(adicionada)
        for event in events {
            let data = try encoder.encode(event)
            #expect(try TabelaDePreco.Event.decode(type: event.eventType, data: data, using: decoder) == event)
        }
        #expect(events.map(\.eventType).prefix(3) == ["TabelaDePrecoDefinida", "RegraDePrecoRemovida", "RegraDePrecoAdicionada"])
        #expect(try TabelaDePreco.Event.decode(type: "Outro", data: Data("{}".utf8), using: decoder) == nil)
    }
}
