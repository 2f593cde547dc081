import Foundation

extension Fatura {
    /// The ISS of an invoice: `valor × aliquotaISSBP / 10,000`, rounded half up.
    public static func iss(de valor: Money, aliquotaISSBP: Int64) -> Money {
        valor.applying(basisPoints: aliquotaISSBP)
    }

    /// The ISS a refund of `reembolso` reverts on `fatura`: the invoice's ISS in proportion to
    /// all that is refunded after it (rounded half up), minus what earlier notes reverted.
    ///
    /// Computed on the running total, so rounding never drifts: the ISS reverted never exceeds
    /// the ISS charged, a full refund reverts exactly all of it, and a note never reverts more
    /// ISS than its own amount (its `reembolsos` line is never negative).
    public static func issDevolvido(_ fatura: Resumo, reembolso: Money) -> Money {
        proporcional(fatura.iss, fatura.reembolsado + reembolso, de: fatura.valor) - fatura.issDevolvido
    }

    /// `valor × parte / total` rounded half up, for `0 ≤ parte ≤ total`, `total > 0`, `valor ≥ 0`;
    /// the product is taken in 128 bits, so large amounts cannot overflow.
    static func proporcional(_ valor: Money, _ parte: Money, de total: Money) -> Money {
        guard total > .zero, parte > .zero, valor > .zero else { return .zero }
        let produto = valor.centavos.multipliedFullWidth(by: parte.centavos)
        let (quociente, resto) = total.centavos.dividingFullWidth(produto)
        return Money(centavos: quociente + (resto >= total.centavos - resto ? 1 : 0))
    }

    /// The decider of one unit's book; `unidade` names the stream it runs on.
    public static func decider(unidade: Unidade.ID) -> Decider<Command, State, Event, Failure> {
        Decider(
            initialState: State(),
            decide: { command, state throws(Failure) in
                switch command {
                case .emitir(let pagamento, let faturaId, let lancamentoId, let aliquota, let fuso, let em):
                    guard pagamento.unidadeId == unidade else { throw .outraUnidade(pagamento.unidadeId) }
                    if state.porPagamento[pagamento.pagamentoId] != nil { return [] }
                    guard pagamento.valor > .zero else { throw .valorInvalido(pagamento.valor) }
                    guard (0...10_000).contains(aliquota) else { throw .aliquotaInvalida(aliquota) }
                    let instante = max(em, state.ultimoEm ?? em)
                    let emitida = Emitida(
                        faturaId: faturaId, unidadeId: unidade, numero: state.ultimaFatura + 1, reservaId: pagamento.reservaId,
                        pagamentoId: pagamento.pagamentoId, usuarioId: pagamento.usuarioId, espacoId: pagamento.espacoId,
                        tipoDeEspaco: pagamento.tipoDeEspaco, metodo: pagamento.metodo, valor: pagamento.valor,
                        aliquotaISSBP: aliquota, iss: iss(de: pagamento.valor, aliquotaISSBP: aliquota),
                        data: DataLocal(instante, em: fuso), em: instante)
                    let lancamento: Razao.Lancamento
                    do throws(Razao.Falha) {
                        lancamento = try Razao.lancamento(de: emitida, id: lancamentoId, sequencia: state.ultimoLancamento + 1)
                    } catch {
                        throw .lancamentoInvalido(error)
                    }
                    return [.emitida(emitida), .paga(Paga(emitida, pagoEm: pagamento.pagoEm)), .contabilizado(lancamento)]

                case .emitirNotaDeCredito(let reembolso, let notaId, let lancamentoId, let fuso, let em):
                    guard reembolso.unidadeId == unidade else { throw .outraUnidade(reembolso.unidadeId) }
                    if state.reembolsos.contains(reembolso.reembolsoId) { return [] }
                    guard reembolso.valor > .zero else { throw .valorInvalido(reembolso.valor) }
                    guard let fatura = state.porPagamento[reembolso.pagamentoId] else {
                        throw .faturaNaoEncontrada(pagamentoId: reembolso.pagamentoId)
                    }
                    guard reembolso.valor <= fatura.disponivel else { throw .reembolsoExcedeFatura(disponivel: fatura.disponivel) }
                    let instante = max(em, state.ultimoEm ?? em)
                    let nota = NotaDeCreditoEmitida(
                        notaId: notaId, unidadeId: unidade, numero: state.ultimaNota + 1, faturaId: fatura.faturaId,
                        numeroDaFatura: fatura.numero, reembolsoId: reembolso.reembolsoId, reservaId: fatura.reservaId,
                        pagamentoId: reembolso.pagamentoId, usuarioId: fatura.usuarioId, espacoId: fatura.espacoId, compraId: fatura.compraId,
                        pacoteId: fatura.pacoteId,
                        tipoDeEspaco: fatura.tipoDeEspaco, valor: reembolso.valor, aliquotaISSBP: fatura.aliquotaISSBP,
                        iss: issDevolvido(fatura, reembolso: reembolso.valor), saldoDaFatura: fatura.disponivel - reembolso.valor,
                        data: DataLocal(instante, em: fuso), em: instante)
                    let lancamento: Razao.Lancamento
                    do throws(Razao.Falha) {
                        lancamento = try Razao.lancamento(de: nota, id: lancamentoId, sequencia: state.ultimoLancamento + 1)
                    } catch {
                        throw .lancamentoInvalido(error)
                    }
                    return [.notaDeCreditoEmitida(nota), .contabilizado(lancamento)]

                case .faturarCiclo(let ciclo, let faturaId, let lancamentoId, let aliquota, let fuso, let em):
                    guard ciclo.unidadeId == unidade else { throw .outraUnidade(ciclo.unidadeId) }
                    if state.ciclos.contains(ciclo.chave) { return [] }
                    guard ciclo.valor > .zero, ciclo.itens.isEmpty || ciclo.itens.reduce(Money.zero, { $0 + $1.valor }) == ciclo.valor else {
                        throw .valorInvalido(ciclo.valor)
                    }
                    guard (0...10_000).contains(aliquota) else { throw .aliquotaInvalida(aliquota) }
                    let instante = max(em, state.ultimoEm ?? em)
                    let fatura = AssinaturaFaturada(
                        faturaId: faturaId, unidadeId: unidade, numero: state.ultimaFatura + 1, assinaturaId: ciclo.assinaturaId,
                        usuarioId: ciclo.titular, ciclo: ciclo.ciclo, plano: ciclo.plano, inicio: ciclo.inicio, fim: ciclo.fim,
                        metodo: ciclo.metodo, itens: ciclo.itens, valor: ciclo.valor, aliquotaISSBP: aliquota,
                        iss: iss(de: ciclo.valor, aliquotaISSBP: aliquota),
                        pagoEm: ciclo.pagoEm, data: DataLocal(instante, em: fuso), em: instante)
                    let lancamento: Razao.Lancamento
                    do throws(Razao.Falha) {
                        lancamento = try Razao.lancamento(de: fatura, id: lancamentoId, sequencia: state.ultimoLancamento + 1)
                    } catch {
                        throw .lancamentoInvalido(error)
                    }
                    return [.assinaturaFaturada(fatura), .contabilizado(lancamento)]

                case .faturarPacote(let pago, let faturaId, let lancamentoId, let aliquota, let fuso, let em):
                    guard pago.unidadeId == unidade else { throw .outraUnidade(pago.unidadeId) }
                    if state.compras.contains(pago.compraId) { return [] }
                    guard pago.valor > .zero else { throw .valorInvalido(pago.valor) }
                    guard (0...10_000).contains(aliquota) else { throw .aliquotaInvalida(aliquota) }
                    let instante = max(em, state.ultimoEm ?? em)
                    let fatura = PacoteFaturado(
                        faturaId: faturaId, unidadeId: unidade, numero: state.ultimaFatura + 1, compraId: pago.compraId, usuarioId: pago.titular,
                        pacoteId: pago.pacoteId, pacote: pago.pacote, metodo: pago.metodo, valor: pago.valor, aliquotaISSBP: aliquota,
                        iss: iss(de: pago.valor, aliquotaISSBP: aliquota), pagoEm: pago.pagoEm, data: DataLocal(instante, em: fuso), em: instante)
                    let lancamento: Razao.Lancamento
                    do throws(Razao.Falha) {
                        lancamento = try Razao.lancamento(de: fatura, id: lancamentoId, sequencia: state.ultimoLancamento + 1)
                    } catch {
                        throw .lancamentoInvalido(error)
                    }
                    return [.pacoteFaturado(fatura), .contabilizado(lancamento)]
                }
            },
            evolve: { state, event in
                var next = state
                switch event {
                case .emitida(let e):
                    next.ultimaFatura = max(next.ultimaFatura, e.numero)
                    next.ultimoEm = max(e.em, next.ultimoEm ?? e.em)
                    next.porPagamento[e.pagamentoId] = Resumo(
                        faturaId: e.faturaId, numero: e.numero, reservaId: e.reservaId, usuarioId: e.usuarioId, espacoId: e.espacoId,
                        tipoDeEspaco: e.tipoDeEspaco, valor: e.valor, aliquotaISSBP: e.aliquotaISSBP, iss: e.iss, paga: false,
                        reembolsado: .zero, issDevolvido: .zero)
                case .assinaturaFaturada(let e):
                    next.ultimaFatura = max(next.ultimaFatura, e.numero)
                    next.ultimoEm = max(e.em, next.ultimoEm ?? e.em)
                    next.ciclos.insert(chave(assinatura: e.assinaturaId, ciclo: e.ciclo))
                case .pacoteFaturado(let e):
                    next.ultimaFatura = max(next.ultimaFatura, e.numero)
                    next.ultimoEm = max(e.em, next.ultimoEm ?? e.em)
                    next.compras.insert(e.compraId)
                    next.porPagamento[e.compraId] = Resumo(
                        faturaId: e.faturaId, numero: e.numero, reservaId: nil, usuarioId: e.usuarioId, espacoId: nil, compraId: e.compraId,
                        pacoteId: e.pacoteId, tipoDeEspaco: Fatura.tipoDoPacote, valor: e.valor, aliquotaISSBP: e.aliquotaISSBP, iss: e.iss,
                        paga: true, reembolsado: .zero, issDevolvido: .zero)
                case .paga(let e):
                    next.porPagamento[e.pagamentoId]?.paga = true
                case .notaDeCreditoEmitida(let e):
                    next.ultimaNota = max(next.ultimaNota, e.numero)
                    next.ultimoEm = max(e.em, next.ultimoEm ?? e.em)
                    next.reembolsos.insert(e.reembolsoId)
                    if var fatura = next.porPagamento[e.pagamentoId] {
                        fatura.reembolsado = fatura.reembolsado + e.valor
                        fatura.issDevolvido = fatura.issDevolvido + e.iss
                        next.porPagamento[e.pagamentoId] = fatura
                    }
                case .contabilizado(let e):
                    next.ultimoLancamento = max(next.ultimoLancamento, e.sequencia)
                }
                return next
            })
    }
}
