import Domain
import Foundation
import Testing

@Suite("Cupom decider")
struct CupomTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    var validoDe: Date { t0 }
    var validoAte: Date { t0.addingTimeInterval(30 * 86_400) }
    var dentro: Date { t0.addingTimeInterval(3_600) }
    let reservaA = UUID()
    let reservaB = UUID()
    let reservaC = UUID()
    var scenario: Scenario<Cupom.Command, Cupom.State, Cupom.Event, Cupom.Failure> { Scenario(Cupom.decider) }

    func criado(maxUsos: Int = 2, desconto: Cupom.Desconto = .percentual(bp: 1_000)) -> Cupom.Event {
        .criado(Cupom.Criado(codigo: "BEMVINDO", desconto: desconto, validoDe: validoDe, validoAte: validoAte, maxUsos: maxUsos, em: t0))
    }

    func usado(_ reserva: UUID) -> Cupom.Event { .usado(Cupom.Usado(codigo: "BEMVINDO", reservaId: reserva, em: dentro)) }
    func devolvido(_ reserva: UUID) -> Cupom.Event { .devolvido(Cupom.Devolvido(codigo: "BEMVINDO", reservaId: reserva, em: dentro)) }
    var desativado: Cupom.Event { .desativado(Cupom.Desativado(codigo: "BEMVINDO", em: dentro)) }

    func criar(
        codigo: String = "BEMVINDO", desconto: Cupom.Desconto = .percentual(bp: 1_000), de: Date? = nil, ate: Date? = nil, maxUsos: Int = 2
    ) -> Cupom.Command {
        .criar(codigo: codigo, desconto: desconto, validoDe: de ?? validoDe, validoAte: ate ?? validoAte, maxUsos: maxUsos, em: t0)
    }

    @Test func codes_are_normalised_or_refused() {
        #expect(Cupom.normalizarCodigo("  bem-vindo_26 ") == "BEM-VINDO_26")
        #expect(Cupom.normalizarCodigo("abc") == "ABC")
        #expect(Cupom.normalizarCodigo(String(repeating: "x", count: 32)) == String(repeating: "X", count: 32))
        #expect(Cupom.normalizarCodigo("ab") == nil)
        #expect(Cupom.normalizarCodigo(String(repeating: "x", count: 33)) == nil)
        #expect(Cupom.normalizarCodigo("bem vindo") == nil)
        #expect(Cupom.normalizarCodigo("promoção") == nil)
        #expect(Cupom.normalizarCodigo("straße") == nil)
        #expect(Cupom.normalizarCodigo("") == nil)
    }

    @Test func a_coupon_is_created_under_its_normalised_code() {
        #expect(scenario.given().when(criar(codigo: " bemvindo ")).outcome == .events([criado()]))
        #expect(
            Cupom.decider.fold([criado()])
                == .existente(
                    Cupom.Dados(
                        codigo: "BEMVINDO", desconto: .percentual(bp: 1_000), validoDe: validoDe, validoAte: validoAte, maxUsos: 2, usos: [],
                        ativo: true)))
    }

    @Test func creating_an_existing_code_is_refused() {
        #expect(scenario.given(criado()).when(criar()).outcome == .failure(.jaExiste))
    }

    @Test func invalid_coupons_are_refused() {
        let invalidos: [Cupom.Command] = [
            criar(codigo: "x!"),
            criar(ate: validoDe),
            criar(de: validoAte, ate: validoDe),
            criar(maxUsos: 0),
            criar(desconto: .percentual(bp: 0)),
            criar(desconto: .percentual(bp: 10_001)),
            criar(desconto: .fixo(.zero)),
            // Above the highest price a table may hold.
            criar(desconto: .fixo(Money(centavos: 100_000_001))),
            // Over before it is created: it could never be used.
            criar(de: t0.addingTimeInterval(-7 * 86_400), ate: t0.addingTimeInterval(-86_400)),
        ]
        for command in invalidos {
            guard case .failure(.invalido) = scenario.given().when(command).outcome else {
                Issue.record("\(command) was not refused as invalid")
                continue
            }
        }
        #expect(
            scenario.given().when(criar(desconto: .percentual(bp: 10_000), maxUsos: 1)).outcome
                == .events([criado(maxUsos: 1, desconto: .percentual(bp: 10_000))]))
    }

    @Test func a_valid_coupon_is_used_by_a_booking() {
        #expect(scenario.given(criado()).when(.usar(reserva: reservaA, em: dentro)).outcome == .events([usado(reservaA)]))
        guard case .existente(let dados) = Cupom.decider.fold([criado(), usado(reservaA)]) else {
            Issue.record("no coupon")
            return
        }
        #expect(dados.usos == [reservaA])
    }

    @Test func a_missing_coupon_is_not_found() {
        #expect(scenario.given().when(.usar(reserva: reservaA, em: dentro)).outcome == .failure(.naoEncontrado))
        #expect(scenario.given().when(.devolver(reserva: reservaA, em: dentro)).outcome == .failure(.naoEncontrado))
        #expect(scenario.given().when(.desativar(em: dentro)).outcome == .failure(.naoEncontrado))
    }

    @Test func the_validity_window_includes_its_start_and_excludes_its_end() {
        let dado = scenario.given(criado())
        #expect(
            dado.when(.usar(reserva: reservaA, em: validoDe)).outcome
                == .events([.usado(Cupom.Usado(codigo: "BEMVINDO", reservaId: reservaA, em: validoDe))]))
        #expect(dado.when(.usar(reserva: reservaA, em: validoDe.addingTimeInterval(-1))).outcome == .failure(.foraDaValidade))
        let ultimo = validoAte.addingTimeInterval(-1)
        #expect(
            dado.when(.usar(reserva: reservaA, em: ultimo)).outcome
                == .events([.usado(Cupom.Usado(codigo: "BEMVINDO", reservaId: reservaA, em: ultimo))]))
        #expect(dado.when(.usar(reserva: reservaA, em: validoAte)).outcome == .failure(.foraDaValidade))
    }

    @Test func a_coupon_with_every_use_held_is_exhausted() {
        #expect(
            scenario.given(criado(), usado(reservaA), usado(reservaB)).when(.usar(reserva: reservaC, em: dentro)).outcome
                == .failure(.esgotado))
    }

    @Test func using_it_again_for_the_same_booking_changes_nothing() {
        #expect(scenario.given(criado(), usado(reservaA)).when(.usar(reserva: reservaA, em: dentro)).outcome == .events([]))
        // Even once exhausted, deactivated or expired: the use was granted when it was taken.
        #expect(
            scenario.given(criado(maxUsos: 1), usado(reservaA), desativado).when(.usar(reserva: reservaA, em: validoAte)).outcome
                == .events([]))
    }

    @Test func a_returned_use_frees_room_for_another_booking() {
        #expect(
            scenario.given(criado(), usado(reservaA), usado(reservaB)).when(.devolver(reserva: reservaA, em: dentro)).outcome
                == .events([devolvido(reservaA)]))
        #expect(
            scenario.given(criado(), usado(reservaA), usado(reservaB), devolvido(reservaA)).when(.usar(reserva: reservaC, em: dentro)).outcome
                == .events([usado(reservaC)]))
    }

    @Test func returning_a_use_the_booking_does_not_hold_changes_nothing() {
        #expect(scenario.given(criado(), usado(reservaA)).when(.devolver(reserva: reservaB, em: dentro)).outcome == .events([]))
        #expect(
            scenario.given(criado(), usado(reservaA), devolvido(reservaA)).when(.devolver(reserva: reservaA, em: dentro)).outcome
                == .events([]))
    }

    @Test func a_deactivated_coupon_is_refused_but_still_takes_returns() {
        #expect(scenario.given(criado()).when(.desativar(em: dentro)).outcome == .events([desativado]))
        #expect(scenario.given(criado(), desativado).when(.usar(reserva: reservaA, em: dentro)).outcome == .failure(.desativado))
        #expect(
            scenario.given(criado(), usado(reservaA), desativado).when(.devolver(reserva: reservaA, em: dentro)).outcome
                == .events([devolvido(reservaA)]))
        #expect(scenario.given(criado(), desativado).when(.desativar(em: dentro)).outcome == .events([]))
    }

    @Test func a_deactivated_coupon_can_be_reactivated_and_then_used() {
        let reativado = Cupom.Event.reativado(Cupom.Reativado(codigo: "BEMVINDO", em: dentro))
        #expect(scenario.given(criado(), desativado).when(.reativar(em: dentro)).outcome == .events([reativado]))
        #expect(scenario.given(criado(), desativado, reativado).when(.usar(reserva: reservaA, em: dentro)).outcome == .events([usado(reservaA)]))
        #expect(scenario.given(criado()).when(.reativar(em: dentro)).outcome == .events([]))
        #expect(scenario.given().when(.reativar(em: dentro)).outcome == .failure(.naoEncontrado))
    }

    @Test func validating_checks_like_using_without_recording() throws {
        var dados = Cupom.Dados(codigo: "BEMVINDO", desconto: .fixo(.reais(10)), validoDe: validoDe, validoAte: validoAte, maxUsos: 1)
        try dados.validar(em: dentro)
        #expect(throws: Cupom.Failure.foraDaValidade) { try dados.validar(em: validoAte) }
        dados.usos = [reservaA]
        #expect(throws: Cupom.Failure.esgotado) { try dados.validar(em: dentro) }
        try dados.validar(em: dentro, reserva: reservaA)
        dados.ativo = false
        #expect(throws: Cupom.Failure.desativado) { try dados.validar(em: dentro) }
    }

    @Test func events_round_trip_through_their_stored_form() throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let events = [criado(), criado(desconto: .fixo(Money(centavos: 5_050))), usado(reservaA), devolvido(reservaA), desativado]
        for event in events {
            let data = try encoder.encode(event)
            #expect(try Cupom.Event.decode(type: event.eventType, data: data, using: decoder) == event)
        }
        #expect(Set(events.map(\.eventType)) == ["CupomCriado", "CupomUsado", "CupomDevolvido", "CupomDesativado"])
        #expect(try Cupom.Event.decode(type: "Outro", data: Data("{}".utf8), using: decoder) == nil)
        let fixo = String(decoding: try JSONEncoder().encode(Cupom.Desconto.fixo(Money(centavos: 5_050))), as: UTF8.self)
        #expect(fixo.contains(#""tipo":"fixo""#) && fixo.contains(#""valor":5050"#))
    }
}
