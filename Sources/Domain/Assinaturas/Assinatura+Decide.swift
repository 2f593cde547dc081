import Foundation

extension Assinatura {
    /// Cycle `numero` from `inicio` under `plano`'s version in force that day: its fee and
    /// credits in proportion to its days, the setup fee on the first, and the roll-over of the
    /// cycle before (`anterior`). No credits for a cycle already over at `em` (a timer that
    /// ran very late).
    static func abrirCiclo(
        _ numero: Int, inicio: DataLocal,
        assinatura: (id: UUID, titular: String, inicio: DataLocal, unidadeId: UUID?, fuso: TimeZone, assentos: Int),
        plano: Plano.Dados, anterior: Ciclo?, trocas: Int64 = 0, em: Date
    ) -> CicloIniciado {
        let versao = plano.versao(em: inicio)
        let termos = versao.termos.porAssentos(assinatura.assentos)
        let referencia = plano.referencia(versao)
        let (fim, total) = periodo(comecandoEm: inicio, ancora: assinatura.inicio, termos.periodicidade)
        let dias = inicio.dias(ate: fim)
        let validoAte = fim.instante(minutos: 0, em: assinatura.fuso)
        let descricao = "Plano \(referencia.nome) · ciclo de \(inicio.brasileira) a \(fim.adding(dias: -1).brasileira)"
        var lotes: [Carteira.Lote] = []
        var transportes: [Transporte] = []
        if validoAte > em {
            let ids = (
                loteId(assinatura.id, ciclo: numero, etiqueta: Etiqueta.horas), loteId(assinatura.id, ciclo: numero, etiqueta: Etiqueta.valor)
            )
            lotes = Self.lotes(
                termos, plano: referencia, unidadeId: assinatura.unidadeId, ids: ids, dias: dias, de: total, validoAte: validoAte,
                descricao: descricao)
            if let anterior, anterior.termos.rolloverBP > 0 {
                let regra = anterior.termos
                let sobras: [(Carteira.Medida, Int64, UInt8, UInt8, [Espaco.Tipo])] = [
                    (.minutos, regra.horasMinutos, Etiqueta.horas, Etiqueta.transporteDeHoras, regra.tiposDasHoras),
                    (.centavos, regra.creditoCentavos, Etiqueta.valor, Etiqueta.transporteDeValor, []),
                ]
                for (medida, concedido, de, para, tipos) in sobras {
                    let maximo = concedido * regra.rolloverBP / 10_000
                    guard maximo > 0 else { continue }
                    let lote = Carteira.Lote(
                        loteId: loteId(assinatura.id, ciclo: numero, etiqueta: para), medida: medida, quantidade: maximo, tipos: tipos,
                        unidadeId: assinatura.unidadeId, validoAte: validoAte, origem: .plano,
                        descricao: "Plano \(anterior.plano.nome) · não usado no ciclo anterior")
                    transportes.append(Transporte(de: loteId(assinatura.id, ciclo: anterior.numero, etiqueta: de), maximo: maximo, lote: lote))
                }
            }
        }
        let adesao = numero == 1 ? termos.adesaoCentavos : 0
        let ciclo = Ciclo(
            numero: numero, inicio: inicio, fim: fim, plano: referencia, termos: termos,
            proporcaoBP: proporcional(10_000, dias: dias, de: total),
            valorCentavos: proporcional(termos.valorCentavos, dias: dias, de: total) + adesao + trocas, adesaoCentavos: adesao,
            trocasCentavos: trocas, lotes: lotes, transportes: transportes)
        return CicloIniciado(assinaturaId: assinatura.id, titular: assinatura.titular, ciclo: ciclo, em: em)
    }

    static func chave(_ dados: Dados) -> (id: UUID, titular: String, inicio: DataLocal, unidadeId: UUID?, fuso: TimeZone, assentos: Int) {
        (dados.assinaturaId, dados.titular, dados.inicio, dados.unidadeId, dados.fuso, dados.assentos)
    }

    static func existente(_ state: State) throws(Failure) -> Dados {
        guard case .existente(let dados) = state else { throw .naoEncontrada }
        return dados
    }

    public static let decider = Decider<Command, State, Event, Failure>(
        initialState: .nenhuma,
        decide: { command, state throws(Failure) in
            switch command {
            case .assinar(let id, let titular, let plano, let inicio, let hoje, let cobranca, let fusoHorario, let por, let em, let assentos):
                if let dados = state.dados, dados.status != .encerrada { throw .jaAssinante }
                guard !plano.arquivado else { throw .planoArquivado }
                guard (1...assentosMaximos).contains(assentos), plano.versoes.allSatisfy({ $0.termos.porAssentos(assentos).campoInvalido == nil })
                else { throw .assentosInvalidos }
                guard inicio >= hoje, hoje.dias(ate: inicio) <= antecedenciaMaximaEmDias else { throw .inicioInvalido }
                if cobranca.metodo == .cartao, (cobranca.cartaoToken ?? "").isEmpty { throw .cartaoObrigatorio }
                let versao = plano.versao(em: inicio)
                let iniciada = Iniciada(
                    assinaturaId: id, titular: titular, plano: plano.referencia(versao), termos: versao.termos.porAssentos(assentos),
                    unidadeId: plano.unidadeId, cobranca: cobranca, fusoHorario: fusoHorario, inicio: inicio, assentos: assentos, por: por, em: em)
                guard inicio == hoje else { return [.iniciada(iniciada)] }
                let fuso = Unidade.fuso(fusoHorario)
                let ciclo = abrirCiclo(
                    1, inicio: inicio, assinatura: (id, titular, inicio, plano.unidadeId, fuso, assentos), plano: plano, anterior: nil, em: em)
                return [.iniciada(iniciada), .cicloIniciado(ciclo)]

            case .renovar(let plano, let em):
                let dados = try existente(state)
                switch dados.status {
                case .encerrada, .pausada:
                    return []
                case .agendada:
                    guard em >= dados.inicio.instante(minutos: 0, em: dados.fuso) else { return [] }
                    return [.cicloIniciado(abrirCiclo(1, inicio: dados.inicio, assinatura: chave(dados), plano: plano, anterior: nil, em: em))]
                case .ativa, .suspensa:
                    guard let ciclo = dados.ciclo, em >= ciclo.fim.instante(minutos: 0, em: dados.fuso) else { return [] }
                    if dados.status == .suspensa {
                        return [.encerrada(Encerrada(assinaturaId: dados.assinaturaId, titular: dados.titular, motivo: .inadimplencia, em: em))]
                    }
                    switch dados.agendamento?.tipo {
                    case .cancelamento?:
                        return [.encerrada(Encerrada(assinaturaId: dados.assinaturaId, titular: dados.titular, motivo: .cancelamento, em: em))]
                    case .pausa?:
                        return [.pausada(Pausada(assinaturaId: dados.assinaturaId, titular: dados.titular, em: em))]
                    case .troca?, nil:
                        return [
                            .cicloIniciado(
                                abrirCiclo(
                                    ciclo.numero + 1, inicio: ciclo.fim, assinatura: chave(dados), plano: plano, anterior: ciclo,
                                    trocas: dados.trocasPendentesCentavos, em: em))
                        ]
                    }
                }

            case .cancelar(let por, let em):
                let dados = try existente(state)
                switch dados.status {
                case .encerrada:
                    throw .encerrada
                case .agendada, .pausada:
                    return [.encerrada(Encerrada(assinaturaId: dados.assinaturaId, titular: dados.titular, motivo: .cancelamento, em: em))]
                case .ativa, .suspensa:
                    if dados.agendamento?.tipo == .cancelamento { return [] }
                    guard let ciclo = dados.ciclo else { throw .statusInvalido(dados.status) }
                    let agendamento = Agendamento(tipo: .cancelamento, plano: nil, efeitoEm: ciclo.fim)
                    return [
                        .alteracaoAgendada(
                            AlteracaoAgendada(assinaturaId: dados.assinaturaId, titular: dados.titular, agendamento: agendamento, por: por, em: em))
                    ]
                }

            case .pausar(let por, let em):
                let dados = try existente(state)
                guard dados.status == .ativa, let ciclo = dados.ciclo else {
                    throw dados.status == .encerrada ? .encerrada : .statusInvalido(dados.status)
                }
                if let agendado = dados.agendamento {
                    if agendado.tipo == .pausa { return [] }
                    throw .jaAgendado(agendado.tipo)
                }
                let agendamento = Agendamento(tipo: .pausa, plano: nil, efeitoEm: ciclo.fim)
                return [
                    .alteracaoAgendada(
                        AlteracaoAgendada(assinaturaId: dados.assinaturaId, titular: dados.titular, agendamento: agendamento, por: por, em: em))
                ]

            case .desfazer(let tipo, let por, let em):
                let dados = try existente(state)
                guard dados.status != .encerrada else { throw .encerrada }
                guard dados.agendamento?.tipo == tipo else { throw .nadaAgendado(tipo) }
                return [.alteracaoDesfeita(AlteracaoDesfeita(assinaturaId: dados.assinaturaId, titular: dados.titular, tipo: tipo, por: por, em: em))]

            case .retomar(let plano, let hoje, let por, let em):
                let dados = try existente(state)
                if dados.status == .ativa, dados.agendamento?.tipo == .pausa {
                    return [
                        .alteracaoDesfeita(
                            AlteracaoDesfeita(assinaturaId: dados.assinaturaId, titular: dados.titular, tipo: .pausa, por: por, em: em))
                    ]
                }
                guard dados.status == .pausada else { throw dados.status == .encerrada ? .encerrada : .statusInvalido(dados.status) }
                guard !plano.arquivado else { throw .planoArquivado }
                let numero = (dados.ciclo?.numero ?? 0) + 1
                return [
                    .retomada(Retomada(assinaturaId: dados.assinaturaId, titular: dados.titular, por: por, em: em)),
                    .cicloIniciado(
                        abrirCiclo(
                            numero, inicio: hoje, assinatura: chave(dados), plano: plano, anterior: nil, trocas: dados.trocasPendentesCentavos, em: em
                        )),
                ]

            case .trocar(let plano, let hoje, let por, let em):
                let dados = try existente(state)
                guard dados.status == .ativa, let ciclo = dados.ciclo else {
                    throw dados.status == .encerrada ? .encerrada : .statusInvalido(dados.status)
                }
                if plano.planoId == dados.plano.planoId {
                    guard dados.agendamento?.tipo == .troca else { throw .mesmoPlano }
                    return [
                        .alteracaoDesfeita(
                            AlteracaoDesfeita(assinaturaId: dados.assinaturaId, titular: dados.titular, tipo: .troca, por: por, em: em))
                    ]
                }
                guard !plano.arquivado else { throw .planoArquivado }
                if let agendado = dados.agendamento, agendado.tipo != .troca { throw .jaAgendado(agendado.tipo) }
                let versao = plano.versao(em: hoje)
                guard plano.versoes.allSatisfy({ $0.termos.porAssentos(dados.assentos).campoInvalido == nil }) else { throw .assentosInvalidos }
                let novo = versao.termos.porAssentos(dados.assentos)
                let atual = dados.termos
                if novo.periodicidade == atual.periodicidade, novo.valorCentavos > atual.valorCentavos, hoje < ciclo.fim {
                    let restante = max(hoje, ciclo.inicio).dias(ate: ciclo.fim)
                    let total = periodo(comecandoEm: ciclo.inicio, ancora: dados.inicio, atual.periodicidade).diasDoPeriodo
                    let extra = Plano.Termos(
                        periodicidade: novo.periodicidade, valorCentavos: 0, horasMinutos: max(0, novo.horasMinutos - atual.horasMinutos),
                        tiposDasHoras: novo.tiposDasHoras, creditoCentavos: max(0, novo.creditoCentavos - atual.creditoCentavos))
                    let referencia = plano.referencia(versao)
                    let ids = (
                        loteId(dados.assinaturaId, ciclo: ciclo.numero, etiqueta: Etiqueta.troca(dados.trocasNoCiclo, .minutos)),
                        loteId(dados.assinaturaId, ciclo: ciclo.numero, etiqueta: Etiqueta.troca(dados.trocasNoCiclo, .centavos))
                    )
                    let lotes = Self.lotes(
                        extra, plano: referencia, unidadeId: dados.unidadeId, ids: ids, dias: restante, de: total,
                        validoAte: ciclo.fim.instante(minutos: 0, em: dados.fuso),
                        descricao: "Plano \(referencia.nome) · troca de plano em \(hoje.brasileira)")
                    return [
                        .planoTrocado(
                            PlanoTrocado(
                                assinaturaId: dados.assinaturaId, titular: dados.titular, ciclo: ciclo.numero, de: dados.plano, para: referencia,
                                termos: novo, proporcaoBP: proporcional(10_000, dias: restante, de: total),
                                cobrancaCentavos: proporcional(novo.valorCentavos - atual.valorCentavos, dias: restante, de: total), lotes: lotes,
                                por: por, em: em))
                    ]
                }
                let agendamento = Agendamento(tipo: .troca, plano: plano.referencia(plano.versao(em: ciclo.fim)), efeitoEm: ciclo.fim)
                if dados.agendamento == agendamento { return [] }
                return [
                    .alteracaoAgendada(
                        AlteracaoAgendada(assinaturaId: dados.assinaturaId, titular: dados.titular, agendamento: agendamento, por: por, em: em))
                ]

            case .registrarPagamento(let numero, let cobrancaId, let em):
                let dados = try existente(state)
                guard (1...(dados.ciclo?.numero ?? 0)).contains(numero) else { throw .cicloDesconhecido(numero) }
                if let cobrancaId, !(dados.emissoes[numero] ?? []).contains(where: { $0.cobranca.cobrancaId == cobrancaId }) {
                    throw .cobrancaDesconhecida
                }
                if dados.pagos.contains(numero) { return [] }
                var events: [Event] = [
                    .cobrancaConfirmada(
                        CobrancaConfirmada(
                            assinaturaId: dados.assinaturaId, titular: dados.titular, ciclo: numero, cobrancaId: cobrancaId, em: em))
                ]
                if dados.status == .suspensa, dados.inadimplencia?.ciclo == numero {
                    events.append(.reativada(Reativada(assinaturaId: dados.assinaturaId, titular: dados.titular, em: em)))
                }
                return events

            case .registrarRecusa(let numero, let cobrancaId, let motivo, let em):
                let dados = try existente(state)
                guard (1...(dados.ciclo?.numero ?? 0)).contains(numero) else { throw .cicloDesconhecido(numero) }
                if dados.pagos.contains(numero) || dados.status == .encerrada { return [] }
                let anterior = dados.inadimplencia.flatMap { $0.ciclo == numero ? $0 : nil }
                let tentativa: Int
                if let cobrancaId {
                    // The provider's notice: the attempt it answers, once; an older attempt's is stale.
                    let emissoes = dados.emissoes[numero] ?? []
                    guard let emissao = emissoes.first(where: { $0.cobranca.cobrancaId == cobrancaId }) else { throw .cobrancaDesconhecida }
                    guard emissao.tentativa == emissoes.map(\.tentativa).max(), emissao.tentativa > anterior?.tentativas ?? 0 else { return [] }
                    tentativa = emissao.tentativa
                } else {
                    tentativa = (anterior?.tentativas ?? 0) + 1
                }
                // Retries over (already suspended): only an attempt the holder asked for since
                // (a new card) is recorded; it suspends nothing more.
                if cobrancaId == nil, let anterior, anterior.tentativas > retentativasEmDias.count { return [] }
                let primeira = anterior?.primeiraFalha ?? em
                let proxima: Date? =
                    tentativa <= retentativasEmDias.count
                    ? primeira.addingTimeInterval(TimeInterval(retentativasEmDias[tentativa - 1]) * 86_400) : nil
                var events: [Event] = [
                    .cobrancaRecusada(
                        CobrancaRecusada(
                            assinaturaId: dados.assinaturaId, titular: dados.titular, ciclo: numero, tentativa: tentativa,
                            motivo: String(motivo.prefix(200)), proximaTentativa: proxima, em: em))
                ]
                if proxima == nil, dados.status != .suspensa {
                    events.append(.suspensa(Suspensa(assinaturaId: dados.assinaturaId, titular: dados.titular, ciclo: numero, em: em)))
                }
                return events

            case .registrarEmissao(let emissao, let em):
                let dados = try existente(state)
                guard (1...(dados.ciclo?.numero ?? 0)).contains(emissao.ciclo) else { throw .cicloDesconhecido(emissao.ciclo) }
                if (dados.emissoes[emissao.ciclo] ?? []).contains(where: { $0.tentativa >= emissao.tentativa }) { return [] }
                return [.cobrancaEmitida(CobrancaEmitida(assinaturaId: dados.assinaturaId, titular: dados.titular, emissao: emissao, em: em))]

            case .alterarCobranca(let cobranca, let por, let em):
                let dados = try existente(state)
                guard dados.status != .encerrada else { throw .encerrada }
                if cobranca.metodo == .cartao, (cobranca.cartaoToken ?? "").isEmpty { throw .cartaoObrigatorio }
                var events: [Event] = []
                if cobranca != dados.cobranca {
                    events.append(
                        .cobrancaAlterada(
                            CobrancaAlterada(assinaturaId: dados.assinaturaId, titular: dados.titular, cobranca: cobranca, por: por, em: em)))
                }
                if let ciclo = dados.cicloEmCobranca {
                    let tentativa = (dados.inadimplencia?.tentativas ?? 0) + 1
                    events.append(
                        .cobrancaReapresentada(
                            CobrancaReapresentada(
                                assinaturaId: dados.assinaturaId, titular: dados.titular, ciclo: ciclo, tentativa: tentativa, em: em)
                        ))
                }
                return events

            case .reapresentar(let em):
                let dados = try existente(state)
                guard dados.retentativaPendente, let inadimplencia = dados.inadimplencia, let proxima = inadimplencia.proximaTentativa, proxima <= em
                else { return [] }
                return [
                    .cobrancaReapresentada(
                        CobrancaReapresentada(
                            assinaturaId: dados.assinaturaId, titular: dados.titular, ciclo: inadimplencia.ciclo,
                            tentativa: inadimplencia.tentativas + 1,
                            em: em))
                ]

            case .concluirDevolucao(let reembolsoId, let em):
                let dados = try existente(state)
                guard let devolucao = dados.devolucoes[reembolsoId] else { throw .devolucaoDesconhecida }
                guard devolucao.concluidaEm == nil else { return [] }
                let pedida = devolucao.pedida
                return [
                    .devolucaoConcluida(
                        DevolucaoConcluida(
                            assinaturaId: pedida.assinaturaId, titular: dados.titular, ciclo: pedida.ciclo, cobrancaId: pedida.cobrancaId,
                            reembolsoId: reembolsoId, valorCentavos: pedida.valorCentavos, em: em))
                ]
            }
        },
        evolve: { state, event in
            if case .iniciada(let e) = event {
                return .existente(
                    Dados(
                        assinaturaId: e.assinaturaId, titular: e.titular, plano: e.plano, termos: e.termos, unidadeId: e.unidadeId,
                        cobranca: e.cobranca, assentos: e.assentos,
                        fusoHorario: e.fusoHorario, inicio: e.inicio, ciclo: nil, status: .agendada, agendamento: nil, inadimplencia: nil, pagos: [],
                        trocasNoCiclo: 0, trocasPendentesCentavos: 0, emissoes: [:], tentativasPedidas: [:],
                        // A new subscription after the last ended: a return of the last one
                        // may still be paid out (its notice, the reconciliation).
                        devolucoes: state.dados?.devolucoes ?? [:]))
            }
            guard case .existente(var dados) = state else { return state }
            switch event {
            case .iniciada:
                break
            case .cicloIniciado(let e):
                dados.ciclo = e.ciclo
                dados.plano = e.ciclo.plano
                dados.termos = e.ciclo.termos
                dados.status = .ativa
                dados.agendamento = nil
                dados.trocasNoCiclo = 0
                dados.trocasPendentesCentavos = 0
                if e.ciclo.valorCentavos == 0 { dados.pagos.insert(e.ciclo.numero) } else { dados.tentativasPedidas[e.ciclo.numero] = 1 }
            case .alteracaoAgendada(let e):
                dados.agendamento = e.agendamento
            case .alteracaoDesfeita:
                dados.agendamento = nil
            case .planoTrocado(let e):
                dados.plano = e.para
                dados.termos = e.termos
                dados.agendamento = nil
                dados.trocasNoCiclo += 1
                dados.trocasPendentesCentavos += e.cobrancaCentavos
            case .pausada:
                dados.status = .pausada
                dados.agendamento = nil
            case .retomada:
                dados.status = .ativa
            case .encerrada:
                dados.status = .encerrada
                dados.agendamento = nil
            case .cobrancaConfirmada(let e):
                dados.pagos.insert(e.ciclo)
                if dados.inadimplencia?.ciclo == e.ciclo { dados.inadimplencia = nil }
            case .cobrancaRecusada(let e):
                dados.inadimplencia = Inadimplencia(
                    ciclo: e.ciclo, primeiraFalha: dados.inadimplencia.flatMap { $0.ciclo == e.ciclo ? $0.primeiraFalha : nil } ?? e.em,
                    tentativas: e.tentativa, proximaTentativa: e.proximaTentativa)
            case .suspensa:
                dados.status = .suspensa
            case .reativada:
                dados.status = .ativa
            case .cobrancaEmitida(let e):
                dados.emissoes[e.emissao.ciclo, default: []].append(e.emissao)
            case .cobrancaReapresentada(let e):
                dados.tentativasPedidas[e.ciclo] = e.tentativa
            case .cobrancaAlterada(let e):
                dados.cobranca = e.cobranca
            case .duplicadoDevolvido(let e):
                dados.devolucoes[e.reembolsoId] = Devolucao(pedida: e, concluidaEm: nil)
            case .devolucaoConcluida(let e):
                dados.devolucoes[e.reembolsoId]?.concluidaEm = e.em
            }
            return .existente(dados)
        })
}
