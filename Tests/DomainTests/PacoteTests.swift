import Domain
import Foundation
import Testing

private func instant(_ text: String) -> Date { try! Date(text, strategy: .iso8601) }
private func uuid(_ n: Int) -> UUID { UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", n))! }

@Suite("Bundles and their purchases (Pacote, CompraDePacote deciders)")
struct PacoteTests {
    let now = instant("2026-11-26T09:00:00-03:00")
    let oferta = Pacote.Oferta(nome: "10 horas", medida: .minutos, quantidade: 600, tipos: [.salaReuniao], validadeDias: 30, precoCentavos: 25_000)
    typealias PacoteScenario = Scenario<Pacote.Command, Pacote.State, Pacote.Event, Pacote.Failure>
    typealias CompraScenario = Scenario<CompraDePacote.Command, CompraDePacote.State, CompraDePacote.Event, CompraDePacote.Failure>

    func oferta(
        quantidade: Int64 = 600, medida: Carteira.Medida = .minutos, validadeDias: Int = 30, preco: Int64 = 25_000, nome: String = "10 horas"
    )
        -> Pacote.Oferta
    {
        Pacote.Oferta(nome: nome, medida: medida, quantidade: quantidade, validadeDias: validadeDias, precoCentavos: preco)
    }

    @Test func a_bundle_is_created_with_its_name_trimmed_and_its_terms_in_bounds_and_archived_once() throws {
        let criar = Pacote.Command.criar(id: uuid(1), oferta: oferta(nome: "  10 horas "), descricao: " ", por: "admin", em: now)
        let events = try Pacote.decider.run(given: [], criar)
        guard case .criado(let criado)? = events.first else {
            Issue.record("no PacoteCriado")
            return
        }
        #expect(criado.oferta.nome == "10 horas" && criado.descricao == nil)
        #expect(PacoteScenario(Pacote.decider).given(events[0]).when(criar).outcome == .failure(.jaExiste))
        let invalidos: [(Pacote.Oferta, String)] = [
            (oferta(quantidade: 0), "quantidade"), (oferta(quantidade: 600_001), "quantidade"),
            (oferta(quantidade: 100_000_000, medida: .centavos), "ok"), (oferta(quantidade: 100_000_001, medida: .centavos), "quantidade"),
            (oferta(validadeDias: 0), "validadeDias"), (oferta(validadeDias: 731), "validadeDias"), (oferta(preco: 0), "precoCentavos"),
            (oferta(preco: 100_000_001), "precoCentavos"),
        ]
        for (oferta, campo) in invalidos {
            let outcome = PacoteScenario(Pacote.decider).when(.criar(id: uuid(2), oferta: oferta, descricao: nil, por: "admin", em: now)).outcome
            if campo == "ok" {
                #expect(outcome != .failure(.termoInvalido(campo: "quantidade")))
            } else {
                #expect(outcome == .failure(.termoInvalido(campo: campo)), "\(oferta)")
            }
        }
        #expect(
            PacoteScenario(Pacote.decider).when(.criar(id: uuid(2), oferta: oferta(nome: " "), descricao: nil, por: "a", em: now)).outcome
                == .failure(.nomeInvalido))
        let arquivar = Pacote.Command.arquivar(por: "admin", em: now)
        let arquivado = try Pacote.decider.run(given: events, arquivar)
        #expect(arquivado.count == 1)
        #expect(PacoteScenario(Pacote.decider).given(events[0], arquivado[0]).when(arquivar).outcome == .events([]))
        #expect(PacoteScenario(Pacote.decider).when(arquivar).outcome == .failure(.naoEncontrado))
    }

    func solicitar(_ metodo: MetodoDePagamento = .pix, token: String? = nil, titular: String = "u1") -> CompraDePacote.Command {
        .solicitar(compraId: uuid(10), titular: titular, pacoteId: uuid(1), oferta: oferta, metodo: metodo, cartaoToken: token, em: now)
    }

    func emissao(_ cobranca: String = "cob_1") -> CompraDePacote.Command {
        .registrarEmissao(
            CompraDePacote.Emissao(
                referencia: CompraDePacote.referencia(uuid(10)), cobranca: Pagamento.Cobranca(cobrancaId: cobranca, metodo: .pix),
                expiraEm: now.addingTimeInterval(86_400)), em: now)
    }

    @Test func a_purchase_is_asked_once_charged_once_and_paid_once_granting_a_lot_valid_from_the_payment() throws {
        let decider = CompraDePacote.decider
        var history = try decider.run(given: [], solicitar())
        // The same purchase again (a retried request): nothing; another under its id: refused.
        #expect(CompraScenario(decider).given(history[0]).when(solicitar()).outcome == .events([]))
        #expect(CompraScenario(decider).given(history[0]).when(solicitar(titular: "u2")).outcome == .failure(.jaExiste))
        #expect(CompraScenario(decider).given(history[0]).when(solicitar(.boleto)).outcome == .failure(.jaExiste))
        // A notice before the charge is recorded, or about another charge: unknown.
        let pagoEm = now.addingTimeInterval(3_600)
        #expect(
            CompraScenario(decider).given(history[0]).when(.registrarPagamento(cobrancaId: "cob_1", em: pagoEm)).outcome
                == .failure(.cobrancaDesconhecida))
        history += try decider.run(given: history, emissao())
        #expect(try decider.run(given: history, emissao("cob_2")).isEmpty)
        #expect(
            CompraScenario(decider).when(.registrarPagamento(cobrancaId: "cob_1", em: pagoEm)).outcome == .failure(.naoEncontrada))
        let paga = try decider.run(given: history, .registrarPagamento(cobrancaId: "cob_1", em: pagoEm))
        guard case .paga(let evento)? = paga.first else {
            Issue.record("not paid: \(paga)")
            return
        }
        #expect(evento.lote.loteId == uuid(10) && evento.lote.origem == .pacote && evento.lote.quantidade == 600)
        #expect(evento.lote.tipos == [.salaReuniao] && evento.lote.validoAte == pagoEm.addingTimeInterval(30 * 86_400))
        history += paga
        // Paid again (a redelivered notice), or declined after it was paid: nothing.
        #expect(try decider.run(given: history, .registrarPagamento(cobrancaId: "cob_1", em: pagoEm)).isEmpty)
        #expect(try decider.run(given: history, .registrarRecusa(cobrancaId: "cob_1", motivo: "x", em: pagoEm)).isEmpty)
    }

    @Test func a_card_needs_its_token_and_a_declined_purchase_can_still_be_paid() throws {
        let decider = CompraDePacote.decider
        #expect(CompraScenario(decider).when(solicitar(.cartao)).outcome == .failure(.cartaoObrigatorio))
        #expect(CompraScenario(decider).when(solicitar(.cartao, token: "")).outcome == .failure(.cartaoObrigatorio))
        // A token sent with PIX is not kept.
        guard case .solicitada(let pix)? = try decider.run(given: [], solicitar(.pix, token: "tok_visa")).first else { return }
        #expect(pix.cartaoToken == nil)
        var history = try decider.run(given: [], solicitar(.cartao, token: "tok_visa"))
        history += try decider.run(given: history, emissao())
        let recusada = try decider.run(given: history, .registrarRecusa(cobrancaId: "cob_1", motivo: "sem saldo", em: now))
        #expect(recusada.count == 1)
        history += recusada
        #expect(try decider.run(given: history, .registrarRecusa(cobrancaId: "cob_1", motivo: "sem saldo", em: now)).isEmpty)
        #expect(try decider.run(given: history, .registrarPagamento(cobrancaId: "cob_1", em: now)).count == 1)
    }

    @Test func an_unpaid_purchase_expires_at_its_charges_expiry_once_and_a_late_payment_is_still_honoured() throws {
        let decider = CompraDePacote.decider
        let expira = now.addingTimeInterval(86_400)
        var history = try decider.run(given: [], solicitar())
        // Not charged yet, or before the charge runs out: nothing.
        #expect(try decider.run(given: history, .expirar(em: expira)).isEmpty)
        history += try decider.run(given: history, emissao())
        #expect(try decider.run(given: history, .expirar(em: expira.addingTimeInterval(-1))).isEmpty)
        let expirada = try decider.run(given: history, .expirar(em: expira))
        guard case .expirada(let evento)? = expirada.first, expirada.count == 1 else {
            Issue.record("not expired: \(expirada)")
            return
        }
        #expect(evento.compraId == uuid(10) && evento.cobrancaId == "cob_1" && evento.titular == "u1")
        history += expirada
        #expect(try decider.run(given: history, .expirar(em: expira.addingTimeInterval(60))).isEmpty)
        // The money arrived after all: the credits are granted.
        #expect(try decider.run(given: history, .registrarPagamento(cobrancaId: "cob_1", em: expira.addingTimeInterval(60))).count == 1)
        // A paid one never expires.
        var paga = try decider.run(given: [], solicitar())
        paga += try decider.run(given: paga, emissao())
        paga += try decider.run(given: paga, .registrarPagamento(cobrancaId: "cob_1", em: now))
        #expect(try decider.run(given: paga, .expirar(em: expira)).isEmpty)
    }

    @Test func a_reference_names_its_purchase() {
        #expect(CompraDePacote.compra(daReferencia: CompraDePacote.referencia(uuid(10))) == uuid(10))
        #expect(CompraDePacote.compra(daReferencia: "assinatura:u1:1:1") == nil)
        #expect(CompraDePacote.compra(daReferencia: "pacote:nao-e-uuid") == nil)
    }
}
