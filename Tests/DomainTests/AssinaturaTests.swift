import Domain
import Foundation
import Testing

/// Plans and subscriptions: versions, proration, cycles and roll-over, scheduled changes,
/// upgrades, dunning. The stories fold commands through the deciders as the services do.
@Suite("Plano and Assinatura deciders: versions, proration, cycles, roll-over, changes, dunning")
struct AssinaturaTests {
    let fuso = "America/Sao_Paulo"
    var tz: TimeZone { TimeZone(identifier: fuso)! }
    let titular = "membro-1"
    let assinaturaId = UUID()
    let planoId = UUID()

    func dia(_ texto: String) -> DataLocal { DataLocal(texto)! }
    func meiaNoite(_ texto: String) -> Date { dia(texto).instante(minutos: 0, em: tz) }

    func termos(
        valor: Int64 = 30_000, adesao: Int64 = 0, horas: Int64 = 600, credito: Int64 = 0, rollover: Int64 = 0,
        periodicidade: Plano.Periodicidade = .mensal, desconto: Int64 = 0
    ) -> Plano.Termos {
        Plano.Termos(
            periodicidade: periodicidade, valorCentavos: valor, adesaoCentavos: adesao, horasMinutos: horas, tiposDasHoras: [.salaReuniao],
            creditoCentavos: credito, rolloverBP: rollover, descontoBP: desconto)
    }

    /// A plan's state after its creation (and revisions), as the service loads it.
    func plano(_ termos: Plano.Termos, desde: String = "2026-01-01", revisoes: [(String, Plano.Termos)] = [], id: UUID? = nil) -> Plano.Dados {
        var state = Plano.State.inexistente
        let criar = Plano.Command.criar(
            id: id ?? planoId, nome: "Flex", descricao: nil, unidadeId: nil, termos: termos, vigenteDesde: dia(desde), por: "admin",
            em: meiaNoite(desde))
        state = try! Plano.decider.decide(criar, state).reduce(state, Plano.decider.evolve)
        for (data, novos) in revisoes {
            let revisar = Plano.Command.revisar(termos: novos, vigenteDesde: dia(data), hoje: dia(desde), por: "admin", em: meiaNoite(desde))
            state = try! Plano.decider.decide(revisar, state).reduce(state, Plano.decider.evolve)
        }
        guard case .existente(let dados) = state else { fatalError() }
        return dados
    }

    /// Decides and folds, returning the events.
    @discardableResult
    func run(_ state: inout Assinatura.State, _ command: Assinatura.Command) throws -> [Assinatura.Event] {
        let events = try Assinatura.decider.decide(command, state)
        state = events.reduce(state, Assinatura.decider.evolve)
        return events
    }

    func assinar(_ plano: Plano.Dados, em texto: String, cobranca: Assinatura.Cobranca = .init(metodo: .boleto)) -> Assinatura.Command {
        .assinar(
            assinaturaId: assinaturaId, titular: titular, plano: plano, inicio: dia(texto), hoje: dia(texto), cobranca: cobranca, fusoHorario: fuso,
            por: titular, em: meiaNoite(texto).addingTimeInterval(10 * 3_600))
    }

    func ciclos(_ events: [Assinatura.Event]) -> [Assinatura.Ciclo] {
        events.compactMap { if case .cicloIniciado(let e) = $0 { e.ciclo } else { nil } }
    }

    @Test func a_monthly_plan_started_mid_month_charges_and_grants_the_rest_of_the_month_in_proportion_then_whole_months() throws {
        let flex = plano(termos(valor: 30_000, adesao: 10_000, horas: 600, credito: 5_000))
        var state = Assinatura.State.nenhuma
        let inicio = try run(&state, assinar(flex, em: "2026-11-10"))
        let primeiro = try #require(ciclos(inicio).first)
        // 21 of November's 30 days: 210.00 of the fee, 420 of 600 minutes, 35.00 of 50.00; the setup fee once.
        #expect(primeiro.inicio == dia("2026-11-10") && primeiro.fim == dia("2026-12-01"))
        #expect(primeiro.valorCentavos == 21_000 + 10_000 && primeiro.adesaoCentavos == 10_000)
        #expect(primeiro.lotes.map(\.quantidade) == [420, 3_500])
        #expect(primeiro.lotes.allSatisfy { $0.validoAte == meiaNoite("2026-12-01") && $0.origem == .plano })
        #expect(primeiro.proporcaoBP == 7_000)
        #expect(state.dados?.proximoPrazo == meiaNoite("2026-12-01"))
        // Before the cycle ends the timer has nothing to do; at its end a whole December.
        #expect(try run(&state, .renovar(plano: flex, em: meiaNoite("2026-11-30"))).isEmpty)
        let dezembro = try #require(ciclos(try run(&state, .renovar(plano: flex, em: meiaNoite("2026-12-01")))).first)
        #expect(dezembro.numero == 2 && dezembro.fim == dia("2027-01-01") && dezembro.valorCentavos == 30_000 && dezembro.adesaoCentavos == 0)
        #expect(dezembro.lotes.map(\.quantidade) == [600, 5_000])
        // The same renewal again (a timer on two replicas) changes nothing.
        #expect(try run(&state, .renovar(plano: flex, em: meiaNoite("2026-12-01").addingTimeInterval(5))).isEmpty)
    }

    @Test func a_revision_applies_to_cycles_that_start_on_or_after_its_date_and_never_overlaps_an_earlier_one() throws {
        let flex = plano(termos(valor: 30_000), revisoes: [("2026-03-01", termos(valor: 36_000, horas: 900))])
        #expect(flex.versoes.map(\.numero) == [1, 2])
        var state = Assinatura.State.nenhuma
        try run(&state, assinar(flex, em: "2026-01-01"))
        let fevereiro = ciclos(try run(&state, .renovar(plano: flex, em: meiaNoite("2026-02-01"))))
        let marco = ciclos(try run(&state, .renovar(plano: flex, em: meiaNoite("2026-03-01"))))
        #expect(fevereiro.map(\.valorCentavos) == [30_000] && fevereiro.map(\.plano.versao) == [1])
        #expect(marco.map(\.valorCentavos) == [36_000] && marco.map(\.plano.versao) == [2] && marco.first?.lotes.first?.quantidade == 900)
        // A version on or before the last one's date, or in the past, is refused.
        let existente = Plano.State.existente(flex)
        for data in ["2026-03-01", "2026-02-15"] {
            #expect(throws: Plano.Failure.versaoSobreposta(ultima: dia("2026-03-01"))) {
                try Plano.decider.decide(
                    .revisar(termos: termos(), vigenteDesde: dia(data), hoje: dia("2026-01-10"), por: "admin", em: meiaNoite("2026-01-10")), existente
                )
            }
        }
        #expect(throws: Plano.Failure.termoInvalido(campo: "rolloverBP")) {
            try Plano.decider.decide(
                .revisar(
                    termos: termos(rollover: 10_001), vigenteDesde: dia("2026-04-01"), hoje: dia("2026-01-10"), por: "a", em: meiaNoite("2026-01-10")),
                existente)
        }
    }

    @Test func a_year_of_monthly_cycles_grants_rolls_over_and_expires_credits_as_the_plan_says() throws {
        // 10 h a month, half of the allowance may roll over. The member uses 4 h in odd months.
        let flex = plano(termos(valor: 30_000, adesao: 5_000, horas: 600, rollover: 5_000))
        var assinatura = Assinatura.State.nenhuma
        var carteira = Carteira.State()
        func creditar(_ events: [Assinatura.Event], em: Date) throws {
            for ciclo in ciclos(events) {
                var comandos: [Carteira.Command] = ciclo.transportes.map {
                    .transportar(titular: titular, de: $0.de, lote: $0.lote, por: "system:ciclos", em: em)
                }
                comandos += ciclo.lotes.map { .conceder(titular: titular, lote: $0, por: "system:ciclos", em: em) }
                for comando in comandos {
                    carteira = try Carteira.decider.decide(comando, carteira).reduce(carteira, Carteira.decider.evolve)
                }
            }
        }
        var todos: [Assinatura.Ciclo] = []
        let primeiro = try run(&assinatura, assinar(flex, em: "2026-01-01"))
        try creditar(primeiro, em: meiaNoite("2026-01-01"))
        todos += ciclos(primeiro)
        for mes in 1...12 {
            let agora = meiaNoite("2026-01-01").addingTimeInterval(TimeInterval(mes - 1) * 31 * 86_400 + 86_400)
            if mes % 2 == 1 {
                let reserva = UUID()
                let consumo = Carteira.Command.consumir(
                    titular: titular, reserva: reserva, minutos: 240, centavos: 0, tipo: .salaReuniao, unidade: UUID(), em: agora)
                carteira = try Carteira.decider.decide(consumo, carteira).reduce(carteira, Carteira.decider.evolve)
            }
            guard mes < 12 else { break }
            let fim = try #require(assinatura.dados?.ciclo?.fim)
            let events = try run(&assinatura, .renovar(plano: flex, em: fim.instante(minutos: 0, em: tz)))
            try creditar(events, em: fim.instante(minutos: 0, em: tz))
            todos += ciclos(events)
        }
        #expect(todos.count == 12 && todos.map(\.numero) == Array(1...12))
        #expect(todos.reduce(0) { $0 + $1.valorCentavos } == 12 * 30_000 + 5_000)
        // Cycles are contiguous calendar months.
        for (a, b) in zip(todos, todos.dropFirst()) { #expect(a.fim == b.inicio) }
        #expect(todos.last?.fim == dia("2027-01-01"))
        // Every month from the second takes up to 300 min of what the last one left: 360 left after
        // a month with 4 h used (→ 300), 600 + rolled after an idle one (→ 300).
        let transportados = carteira.saldos.filter { $0.lote.descricao.contains("não usado") }.map(\.lote.quantidade)
        #expect(transportados == Array(repeating: 300, count: 11))
        // Nothing negative; usable in December (an even, idle month): its 600 + 300 rolled from November.
        #expect(carteira.saldos.allSatisfy { $0.restante >= 0 })
        #expect(carteira.saldo(.minutos, em: meiaNoite("2026-12-15")) == 900)
    }

    @Test func cancelling_or_pausing_takes_effect_when_the_cycle_ends_and_can_be_undone_before() throws {
        let flex = plano(termos())
        var state = Assinatura.State.nenhuma
        try run(&state, assinar(flex, em: "2026-05-01"))
        try run(&state, .cancelar(por: titular, em: meiaNoite("2026-05-10")))
        #expect(state.dados?.agendamento?.tipo == .cancelamento && state.dados?.agendamento?.efeitoEm == dia("2026-06-01"))
        #expect(throws: Assinatura.Failure.jaAgendado(.cancelamento)) {
            try Assinatura.decider.decide(.pausar(por: titular, em: meiaNoite("2026-05-11")), state)
        }
        var desfeito = state
        try run(&desfeito, .desfazer(.cancelamento, por: titular, em: meiaNoite("2026-05-12")))
        #expect(ciclos(try run(&desfeito, .renovar(plano: flex, em: meiaNoite("2026-06-01")))).count == 1)
        let fim = try run(&state, .renovar(plano: flex, em: meiaNoite("2026-06-01")))
        guard case .encerrada(let encerrada)? = fim.first, fim.count == 1 else {
            Issue.record("not ended: \(fim)")
            return
        }
        #expect(encerrada.motivo == .cancelamento && encerrada.em == meiaNoite("2026-06-01"))
        #expect(state.dados?.status == .encerrada && state.dados?.proximoPrazo == nil)
        // Ended: a new subscription may start in the same stream.
        #expect(ciclos(try run(&state, assinar(flex, em: "2026-07-01"))).count == 1)

        var pausa = Assinatura.State.nenhuma
        try run(&pausa, assinar(flex, em: "2026-05-01"))
        try run(&pausa, .pausar(por: titular, em: meiaNoite("2026-05-20")))
        #expect(try run(&pausa, .renovar(plano: flex, em: meiaNoite("2026-06-01"))).map(\.kind) == [Assinatura.Catalogo.pausada])
        #expect(try run(&pausa, .renovar(plano: flex, em: meiaNoite("2026-07-01"))).isEmpty)
        // Resumed on 16 June: the rest of June (15 of 30 days) in proportion, as cycle 2.
        let retomada = try run(&pausa, .retomar(plano: flex, hoje: dia("2026-06-16"), por: titular, em: meiaNoite("2026-06-16")))
        let ciclo = try #require(ciclos(retomada).first)
        #expect(ciclo.numero == 2 && ciclo.valorCentavos == 15_000 && ciclo.lotes.first?.quantidade == 300 && ciclo.fim == dia("2026-07-01"))
    }

    @Test func an_upgrade_takes_effect_now_charging_the_difference_for_the_rest_of_the_cycle_and_a_downgrade_waits_for_its_end() throws {
        let basico = plano(termos(valor: 20_000, horas: 300))
        let pro = plano(termos(valor: 50_000, horas: 1_200, credito: 3_000), id: UUID())
        var state = Assinatura.State.nenhuma
        try run(&state, assinar(basico, em: "2026-04-01"))
        // On 21 April, 10 of April's 30 days remain: (500 − 200) × 10/30 = 100.00; 300 extra minutes, 10.00 of money.
        let troca = try run(&state, .trocar(plano: pro, hoje: dia("2026-04-21"), por: titular, em: meiaNoite("2026-04-21")))
        guard case .planoTrocado(let e)? = troca.first else {
            Issue.record("no upgrade: \(troca)")
            return
        }
        #expect(e.cobrancaCentavos == 10_000 && e.lotes.map(\.quantidade) == [300, 1_000] && e.para.planoId == pro.planoId)
        #expect(state.dados?.plano.planoId == pro.planoId)
        // A second upgrade in the same cycle grants lots of their own ids.
        let maisPro = plano(termos(valor: 80_000, horas: 1_500), id: UUID())
        let outra = try run(&state, .trocar(plano: maisPro, hoje: dia("2026-04-26"), por: titular, em: meiaNoite("2026-04-26")))
        guard case .planoTrocado(let f)? = outra.first else {
            Issue.record("no second upgrade")
            return
        }
        #expect(Set(f.lotes.map(\.loteId)).isDisjoint(with: e.lotes.map(\.loteId)))
        // Back down to the basic plan: scheduled for 1 May; that cycle is the basic plan's.
        let descida = try run(&state, .trocar(plano: basico, hoje: dia("2026-04-27"), por: titular, em: meiaNoite("2026-04-27")))
        #expect(descida.map(\.kind) == [Assinatura.Catalogo.alteracaoAgendada] && state.dados?.proximoPlano == basico.planoId)
        let maio = try #require(ciclos(try run(&state, .renovar(plano: basico, em: meiaNoite("2026-05-01")))).first)
        // The upgrades' differences (100.00, then (800 − 500) × 5/30 = 50.00) are charged with May's fee.
        #expect(maio.plano.planoId == basico.planoId && maio.trocasCentavos == 15_000 && maio.valorCentavos == 20_000 + 15_000)
        #expect(state.dados?.agendamento == nil && state.dados?.trocasPendentesCentavos == 0)
        #expect(throws: Assinatura.Failure.mesmoPlano) {
            try Assinatura.decider.decide(.trocar(plano: basico, hoje: dia("2026-05-02"), por: titular, em: meiaNoite("2026-05-02")), state)
        }
    }

    @Test func a_failed_charge_is_retried_on_days_1_3_and_7_then_suspends_a_payment_reactivates_and_a_suspension_at_cycle_end_ends_it()
        throws
    {
        let flex = plano(termos())
        var state = Assinatura.State.nenhuma
        try run(&state, assinar(flex, em: "2026-08-01", cobranca: .init(metodo: .cartao, cartaoToken: "tok_visa")))
        let t = meiaNoite("2026-08-01")
        var proximas: [Date?] = []
        for tentativa in 0..<4 {
            let recusa = try run(
                &state,
                .registrarRecusa(ciclo: 1, cobrancaId: nil, motivo: "cartão recusado", em: t.addingTimeInterval(TimeInterval(tentativa) * 3_600)))
            if case .cobrancaRecusada(let e)? = recusa.first { proximas.append(e.proximaTentativa) }
            #expect(state.dados?.status == (tentativa < 3 ? .ativa : .suspensa))
        }
        #expect(proximas == [t.addingTimeInterval(86_400), t.addingTimeInterval(3 * 86_400), t.addingTimeInterval(7 * 86_400), nil])
        #expect(state.dados?.beneficiosAtivos == false)
        // Paid late: active again; the same payment again changes nothing.
        var pago = state
        #expect(
            try run(&pago, .registrarPagamento(ciclo: 1, cobrancaId: nil, em: t.addingTimeInterval(9 * 86_400))).map(\.kind) == [
                Assinatura.Catalogo.cobrancaConfirmada, Assinatura.Catalogo.reativada,
            ])
        #expect(pago.dados?.status == .ativa && pago.dados?.inadimplencia == nil)
        #expect(try run(&pago, .registrarPagamento(ciclo: 1, cobrancaId: nil, em: t.addingTimeInterval(10 * 86_400))).isEmpty)
        // Still suspended when the cycle ends: it ends for non-payment.
        let fim = try run(&state, .renovar(plano: flex, em: meiaNoite("2026-09-01")))
        guard case .encerrada(let encerrada)? = fim.first, fim.count == 1 else {
            Issue.record("not ended: \(fim)")
            return
        }
        #expect(encerrada.motivo == .inadimplencia)
        #expect(throws: Assinatura.Failure.cicloDesconhecido(7)) {
            try Assinatura.decider.decide(.registrarPagamento(ciclo: 7, cobrancaId: nil, em: t), pago)
        }
    }

    @Test func a_duplicate_payments_refund_is_recorded_paid_out_once_and_only_for_a_refund_the_subscription_gave_back() throws {
        let flex = plano(termos())
        var state = Assinatura.State.nenhuma
        try run(&state, assinar(flex, em: "2026-08-01"))
        let t = meiaNoite("2026-08-01")
        let reembolsoId = UUID()
        let concluir = Assinatura.Command.concluirDevolucao(reembolsoId: reembolsoId, em: t.addingTimeInterval(60))
        // Nothing given back yet: a notice about a refund is unknown.
        #expect(throws: Assinatura.Failure.devolucaoDesconhecida) { try Assinatura.decider.decide(concluir, state) }
        #expect(throws: Assinatura.Failure.naoEncontrada) { try Assinatura.decider.decide(concluir, .nenhuma) }
        // The cycle recorded as paid by an operator, and its charge paid at the provider too: given back.
        try run(&state, .registrarPagamento(ciclo: 1, cobrancaId: nil, em: t))
        let devolvido = Assinatura.PagamentoDuplicadoDevolvido(
            assinaturaId: assinaturaId, titular: titular, ciclo: 1, cobrancaId: "cob_1", reembolsoId: reembolsoId, valorCentavos: 30_000, em: t)
        state = Assinatura.decider.evolve(state, .duplicadoDevolvido(devolvido))
        #expect(throws: Assinatura.Failure.devolucaoDesconhecida) {
            try Assinatura.decider.decide(.concluirDevolucao(reembolsoId: UUID(), em: t), state)
        }
        // Ended and subscribed again before the provider paid it out: the return is still the holder's to conclude.
        var outra = state
        try run(&outra, .cancelar(por: titular, em: t))
        try run(&outra, .renovar(plano: flex, em: meiaNoite("2026-09-01")))
        #expect(outra.dados?.status == .encerrada)
        let novaId = UUID()
        try run(
            &outra,
            .assinar(
                assinaturaId: novaId, titular: titular, plano: flex, inicio: dia("2026-09-02"), hoje: dia("2026-09-02"),
                cobranca: .init(metodo: .boleto), fusoHorario: fuso, por: titular, em: meiaNoite("2026-09-02")))
        #expect(outra.dados?.assinaturaId == novaId)
        guard case .devolucaoConcluida(let antiga)? = try run(&outra, concluir).first else {
            Issue.record("the earlier subscription's return was not concluded")
            return
        }
        #expect(antiga.assinaturaId == assinaturaId && antiga.ciclo == 1)
        #expect(
            try run(&state, concluir) == [
                .devolucaoConcluida(
                    Assinatura.DevolucaoConcluida(
                        assinaturaId: assinaturaId, titular: titular, ciclo: 1, cobrancaId: "cob_1", reembolsoId: reembolsoId, valorCentavos: 30_000,
                        em: t.addingTimeInterval(60)))
            ])
        #expect(state.dados?.devolucoes[reembolsoId]?.concluidaEm == t.addingTimeInterval(60))
        // Its notice after the reconciliation (or the other way round): nothing more.
        #expect(try run(&state, concluir).isEmpty)
        #expect(state.dados?.pagos == [1] && state.dados?.status == .ativa)
    }

    @Test func a_new_means_of_payment_tries_the_failed_cycle_again_at_once_one_attempt_at_a_time_also_when_suspended() throws {
        let flex = plano(termos())
        var state = Assinatura.State.nenhuma
        try run(&state, assinar(flex, em: "2026-08-01", cobranca: .init(metodo: .cartao, cartaoToken: "tok_recusado")))
        let t = meiaNoite("2026-08-01")
        let visa = Assinatura.Cobranca(metodo: .cartao, cartaoToken: "tok_visa")
        // Nothing failed: only the means change; the same means again is nothing.
        var semFalha = state
        #expect(
            try run(&semFalha, .alterarCobranca(.init(metodo: .boleto), por: titular, em: t)).map(\.kind) == [Assinatura.Catalogo.cobrancaAlterada])
        #expect(semFalha.dados?.cobranca.metodo == .boleto)
        #expect(try run(&semFalha, .alterarCobranca(.init(metodo: .boleto), por: titular, em: t)).isEmpty)
        #expect(throws: Assinatura.Failure.cartaoObrigatorio) {
            try Assinatura.decider.decide(.alterarCobranca(.init(metodo: .cartao, cartaoToken: ""), por: titular, em: t), state)
        }
        // Declined once: a new card is tried at once, as the next attempt.
        try run(&state, .registrarRecusa(ciclo: 1, cobrancaId: nil, motivo: "cartão recusado", em: t))
        let trocada = try run(&state, .alterarCobranca(visa, por: titular, em: t.addingTimeInterval(3_600)))
        #expect(trocada.map(\.kind) == [Assinatura.Catalogo.cobrancaAlterada, Assinatura.Catalogo.cobrancaReapresentada])
        if case .cobrancaReapresentada(let e)? = trocada.last { #expect(e.ciclo == 1 && e.tentativa == 2) }
        #expect(state.dados?.cobranca == visa)
        // While that attempt is out, neither the same card again nor the day-1 retry asks for another.
        #expect(try run(&state, .alterarCobranca(visa, por: titular, em: t.addingTimeInterval(7_200))).isEmpty)
        #expect(try run(&state, .reapresentar(em: t.addingTimeInterval(2 * 86_400))).isEmpty)

        // Suspended (every retry declined): a new card is tried at once too; paid, active again.
        var suspensa = Assinatura.State.nenhuma
        try run(&suspensa, assinar(flex, em: "2026-08-01", cobranca: .init(metodo: .cartao, cartaoToken: "tok_recusado")))
        for tentativa in 0..<4 {
            try run(
                &suspensa,
                .registrarRecusa(ciclo: 1, cobrancaId: nil, motivo: "recusado", em: t.addingTimeInterval(TimeInterval(tentativa) * 3_600)))
        }
        #expect(suspensa.dados?.status == .suspensa)
        let nova = try run(&suspensa, .alterarCobranca(visa, por: titular, em: t.addingTimeInterval(9 * 86_400)))
        guard case .cobrancaReapresentada(let reapresentada)? = nova.last else {
            Issue.record("not tried again: \(nova)")
            return
        }
        #expect(reapresentada.tentativa == 5)
        #expect(
            try run(&suspensa, .registrarPagamento(ciclo: 1, cobrancaId: nil, em: t.addingTimeInterval(9 * 86_400 + 60))).map(\.kind) == [
                Assinatura.Catalogo.cobrancaConfirmada, Assinatura.Catalogo.reativada,
            ])
        // Paid: a change of card asks for nothing; ended, it is refused.
        #expect(try run(&suspensa, .alterarCobranca(.init(metodo: .boleto), por: titular, em: t.addingTimeInterval(10 * 86_400))).count == 1)
        try run(&suspensa, .cancelar(por: titular, em: t.addingTimeInterval(10 * 86_400)))
        try run(&suspensa, .renovar(plano: flex, em: meiaNoite("2026-09-01")))
        #expect(suspensa.dados?.status == .encerrada)
        #expect(throws: Assinatura.Failure.encerrada) {
            try Assinatura.decider.decide(.alterarCobranca(visa, por: titular, em: meiaNoite("2026-09-02")), suspensa)
        }
    }

    @Test func a_yearly_plan_runs_a_year_from_its_start_and_a_29_february_start_renews_on_28_february() throws {
        let anual = plano(termos(valor: 300_000, horas: 6_000, periodicidade: .anual), desde: "2028-01-01")
        var state = Assinatura.State.nenhuma
        let primeiro = try #require(ciclos(try run(&state, assinar(anual, em: "2028-02-29"))).first)
        #expect(primeiro.fim == dia("2029-02-28") && primeiro.valorCentavos == 300_000 && primeiro.proporcaoBP == 10_000)
        let segundo = try #require(ciclos(try run(&state, .renovar(plano: anual, em: meiaNoite("2029-02-28")))).first)
        #expect(segundo.fim == dia("2030-02-28") && segundo.valorCentavos == 300_000)
    }

    @Test func what_cannot_be_subscribed_is_refused() throws {
        let flex = plano(termos())
        var state = Assinatura.State.nenhuma
        try run(&state, assinar(flex, em: "2026-05-01"))
        #expect(throws: Assinatura.Failure.jaAssinante) { try Assinatura.decider.decide(assinar(flex, em: "2026-05-02"), state) }
        var arquivado = flex
        arquivado.arquivado = true
        #expect(throws: Assinatura.Failure.planoArquivado) { try Assinatura.decider.decide(assinar(arquivado, em: "2026-05-02"), .nenhuma) }
        #expect(throws: Assinatura.Failure.cartaoObrigatorio) {
            try Assinatura.decider.decide(assinar(flex, em: "2026-05-02", cobranca: .init(metodo: .cartao)), .nenhuma)
        }
        let passado = Assinatura.Command.assinar(
            assinaturaId: assinaturaId, titular: titular, plano: flex, inicio: dia("2026-04-30"), hoje: dia("2026-05-01"),
            cobranca: .init(metodo: .boleto),
            fusoHorario: fuso, por: titular, em: meiaNoite("2026-05-01"))
        #expect(throws: Assinatura.Failure.inicioInvalido) { try Assinatura.decider.decide(passado, .nenhuma) }
        // A start ahead: no cycle until its day comes.
        let adiante = Assinatura.Command.assinar(
            assinaturaId: assinaturaId, titular: titular, plano: flex, inicio: dia("2026-05-15"), hoje: dia("2026-05-01"),
            cobranca: .init(metodo: .boleto),
            fusoHorario: fuso, por: titular, em: meiaNoite("2026-05-01"))
        var agendada = Assinatura.State.nenhuma
        #expect(ciclos(try run(&agendada, adiante)).isEmpty && agendada.dados?.status == .agendada)
        #expect(try run(&agendada, .renovar(plano: flex, em: meiaNoite("2026-05-14"))).isEmpty)
        let primeiro = try #require(ciclos(try run(&agendada, .renovar(plano: flex, em: meiaNoite("2026-05-15")))).first)
        #expect(primeiro.inicio == dia("2026-05-15") && primeiro.valorCentavos == 16_452)  // 17 of 31 days of 300.00
    }

    @Test func a_roll_over_takes_what_the_lot_had_left_even_after_it_expired_and_only_once() throws {
        let antigo = Carteira.Lote(
            loteId: UUID(), medida: .minutos, quantidade: 600, validoAte: meiaNoite("2026-02-01"), origem: .plano, descricao: "Plano Flex")
        var carteira = Carteira.State()
        let t = meiaNoite("2026-01-05")
        for comando: Carteira.Command in [
            .conceder(titular: titular, lote: antigo, por: "s", em: t),
            .consumir(titular: titular, reserva: UUID(), minutos: 500, centavos: 0, tipo: .salaReuniao, unidade: UUID(), em: t),
            .expirar(titular: titular, em: meiaNoite("2026-02-01")),
        ] {
            carteira = try Carteira.decider.decide(comando, carteira).reduce(carteira, Carteira.decider.evolve)
        }
        let novo = Carteira.Lote(
            loteId: UUID(), medida: .minutos, quantidade: 300, validoAte: meiaNoite("2026-03-01"), origem: .plano, descricao: "transportado")
        let transporte = Carteira.Command.transportar(titular: titular, de: antigo.loteId, lote: novo, por: "s", em: meiaNoite("2026-02-01"))
        let events = try Carteira.decider.decide(transporte, carteira)
        guard case .concedidos(let e)? = events.last else {
            Issue.record("nothing rolled over: \(events)")
            return
        }
        #expect(e.lote.quantidade == 100 && events.count == 1)  // 100 left, already expired: nothing more to expire
        carteira = events.reduce(carteira, Carteira.decider.evolve)
        #expect(try Carteira.decider.decide(transporte, carteira).isEmpty)
    }
}
