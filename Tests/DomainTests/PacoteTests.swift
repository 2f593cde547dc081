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

    @Test func a_paid_purchase_is_refunded_once_by_default_the_prices_share_of_what_is_left_rounded_down() throws {
        let decider = CompraDePacote.decider
        func reembolsar(_ valor: Int64? = nil, restante: Int64 = 540, motivo: String = "mudou de cidade") -> CompraDePacote.Command {
            .reembolsar(reembolsoId: uuid(20), valor: valor.map { Money(centavos: $0) }, restante: restante, motivo: motivo, por: "admin", em: now)
        }
        var history = try decider.run(given: [], solicitar())
        history += try decider.run(given: history, emissao())
        // Not paid yet: refused, naming its status.
        #expect(CompraScenario(decider).given(history[0], history[1]).when(reembolsar()).outcome == .failure(.naoPaga(status: .pendente)))
        #expect(CompraScenario(decider).when(reembolsar()).outcome == .failure(.naoEncontrada))
        history += try decider.run(given: history, .registrarPagamento(cobrancaId: "cob_1", em: now))
        let pago = CompraScenario(decider).given(history[0], history[1], history[2])
        // 9 h of 10 left of R$ 250,00: R$ 225,00; 1 minute left: 41 centavos (41.66, down).
        guard case .reembolsada(let evento)? = try decider.run(given: history, reembolsar()).first else {
            Issue.record("not refunded")
            return
        }
        #expect(evento.valor == Money(centavos: 22_500) && evento.retirado == 540 && evento.loteId == uuid(10) && evento.medida == .minutos)
        #expect(evento.cobrancaId == "cob_1" && evento.reembolsoId == uuid(20) && evento.nome == "10 horas" && evento.motivo == "mudou de cidade")
        guard case .reembolsada(let umMinuto)? = try decider.run(given: history, reembolsar(restante: 1)).first else { return }
        #expect(umMinuto.valor == Money(centavos: 41))
        // Said outright: 0 up to what was paid; a wallet that says more than the lot held counts the lot.
        guard case .reembolsada(let tudo)? = try decider.run(given: history, reembolsar(25_000, restante: 9_999)).first else { return }
        #expect(tudo.valor == Money(centavos: 25_000) && tudo.retirado == 600)
        #expect(pago.when(reembolsar(25_001)).outcome == .failure(.valorDoReembolsoInvalido(maximo: Money(centavos: 25_000))))
        #expect(pago.when(reembolsar(-1)).outcome == .failure(.valorDoReembolsoInvalido(maximo: Money(centavos: 25_000))))
        #expect(pago.when(reembolsar(motivo: "  ")).outcome == .failure(.motivoObrigatorio))
        // Nothing left and nothing asked: nothing to refund; credits alone may be taken back.
        #expect(pago.when(reembolsar(restante: 0)).outcome == .failure(.nadaAReembolsar))
        #expect(try decider.run(given: history, reembolsar(0, restante: 60)).count == 1)
        // Once: again is nothing, whatever it asks.
        history += try decider.run(given: history, reembolsar())
        #expect(try decider.run(given: history, reembolsar(100)).isEmpty)
        guard case .existente(let dados) = history.reduce(decider.initialState, decider.evolve) else { return }
        #expect(dados.status == .reembolsada && dados.reembolso?.valor == Money(centavos: 22_500))
    }

    @Test func a_refunds_payout_is_recorded_once_and_only_for_the_purchases_own_refund_of_money() throws {
        let decider = CompraDePacote.decider
        let depois = now.addingTimeInterval(1)
        func concluir(_ reembolso: UUID = uuid(20)) -> CompraDePacote.Command { .concluirReembolso(reembolsoId: reembolso, em: depois) }
        var history = try decider.run(given: [], solicitar())
        history += try decider.run(given: history, emissao())
        history += try decider.run(given: history, .registrarPagamento(cobrancaId: "cob_1", em: now))
        // No refund asked yet: a notice about one is unknown.
        #expect(CompraScenario(decider).given(history[0], history[1], history[2]).when(concluir()).outcome == .failure(.reembolsoDesconhecido))
        #expect(CompraScenario(decider).when(concluir()).outcome == .failure(.naoEncontrada))
        // A refund of credits alone asked nothing of the provider: no payout to record.
        let semDinheiro =
            history
            + (try decider.run(given: history, .reembolsar(reembolsoId: uuid(20), valor: .zero, restante: 60, motivo: "x", por: "admin", em: now)))
        #expect(throws: CompraDePacote.Failure.reembolsoDesconhecido) { try decider.run(given: semDinheiro, concluir()) }
        history += try decider.run(given: history, .reembolsar(reembolsoId: uuid(20), valor: nil, restante: 540, motivo: "x", por: "admin", em: now))
        #expect(throws: CompraDePacote.Failure.reembolsoDesconhecido) { try decider.run(given: history, concluir(uuid(21))) }
        let concluido = try decider.run(given: history, concluir())
        #expect(
            concluido == [
                .reembolsoConcluido(
                    CompraDePacote.ReembolsoConcluido(
                        compraId: uuid(10), titular: "u1", reembolsoId: uuid(20), valor: Money(centavos: 22_500), em: depois))
            ])
        history += concluido
        // Its notice after the reconciliation (or the other way round): nothing more.
        #expect(try decider.run(given: history, concluir()).isEmpty)
        guard case .existente(let dados) = history.reduce(decider.initialState, decider.evolve) else { return }
        #expect(dados.status == .reembolsada && dados.reembolsoConcluidoEm == depois)
    }

    @Test func a_closed_lot_loses_what_is_left_at_once_and_what_bookings_give_back_later() throws {
        let decider = Carteira.decider
        let lote = Carteira.Lote(loteId: uuid(10), medida: .minutos, quantidade: 600, origem: .pacote, descricao: "Pacote 10 horas")
        var history = try decider.run(given: [], .conceder(titular: "u1", lote: lote, por: "system", em: now))
        history += try decider.run(
            given: history, .consumir(titular: "u1", reserva: uuid(30), minutos: 60, centavos: 0, tipo: .salaReuniao, unidade: uuid(2), em: now))
        let encerrar = Carteira.Command.encerrar(titular: "u1", lote: uuid(10), motivo: "Reembolso", por: "admin", em: now)
        let encerrado = try decider.run(given: history, encerrar)
        guard case .ajustados(let ajuste)? = encerrado.first, encerrado.count == 1 else {
            Issue.record("not closed: \(encerrado)")
            return
        }
        #expect(ajuste.encerrado == uuid(10) && ajuste.partes == [Carteira.Parte(loteId: uuid(10), medida: .minutos, quantidade: 540)])
        history += encerrado
        #expect(try decider.run(given: history, encerrar).isEmpty)
        // The booking ends: its hour comes back to the closed lot and is lost in the same decision.
        let restituidos = try decider.run(given: history, .restituir(titular: "u1", reserva: uuid(30), devolverBP: 10_000, em: now))
        #expect(restituidos.count == 2)
        guard case .expirados(let perdidos)? = restituidos.last else { return }
        #expect(perdidos.partes == [Carteira.Parte(loteId: uuid(10), medida: .minutos, quantidade: 60)])
        history += restituidos
        #expect(history.reduce(decider.initialState, decider.evolve).saldo(.minutos, em: now) == 0)
        // An unknown lot: nothing.
        #expect(try decider.run(given: history, .encerrar(titular: "u1", lote: uuid(99), motivo: "x", por: "admin", em: now)).isEmpty)
        // A lot whose time is up is closed with nothing taken: its expiry takes what is left.
        let vencido = Carteira.Lote(
            loteId: uuid(11), medida: .minutos, quantidade: 60, validoAte: now.addingTimeInterval(60), origem: .pacote, descricao: "Passe")
        let outra = try decider.run(given: [], .conceder(titular: "u1", lote: vencido, por: "system", em: now))
        let depois = now.addingTimeInterval(120)
        guard
            case .ajustados(let fechado)? = try decider.run(
                given: outra, .encerrar(titular: "u1", lote: uuid(11), motivo: "x", por: "admin", em: depois)
            ).first
        else { return }
        #expect(fechado.partes.isEmpty && fechado.encerrado == uuid(11))
    }

    @Test func a_reference_names_its_purchase() {
        #expect(CompraDePacote.compra(daReferencia: CompraDePacote.referencia(uuid(10))) == uuid(10))
        #expect(CompraDePacote.compra(daReferencia: "assinatura:u1:1:1") == nil)
        #expect(CompraDePacote.compra(daReferencia: "pacote:nao-e-uuid") == nil)
    }
}
