// A member's subscription in words, for the member ("Meu plano") and for operators alike: where
// it stands, its plan, the next charge (date and amount), the current cycle (its period, what it
// costs — prorated when it began mid-month —, the credits it granted, paid or not), a change
// scheduled for the cycle's end with a button that undoes it, what can be done now (change plan,
// pause, cancel, resume, change the means of payment — after a declined charge, a new card charges
// the cycle again at once), the cycles one by one; and the form that subscribes to a plan.
// `base` is the subscription's API path: '/api/assinatura' (the member's own) or
// '/api/admin/usuarios/{id}/assinatura' (an operator acting for a member).

import { api, Action } from './api.js';
import { h, link, replace, uid } from './dom.js';
import { money, duration, dateShort, dateTime, todayIn, addDays, isDate, percentFromBP, DEFAULT_TZ } from './format.js';
import {
  badge, facts, table, field, radios, onSubmit, fieldError, val, confirmDialog, busy, errorBox, announce, poll,
} from './ui.js';
import { qrSvg } from './qr.js';
import { linhaDigitavel, copiar, campoDoCartao, tokenDoCartao } from './cobrancas.js';
import { preco, termosEmPares, versaoEm } from './planos.js';

export const STATUS_DA_ASSINATURA = {
  agendada: 'Agendada', ativa: 'Ativa', pausada: 'Pausada', suspensa: 'Suspensa', encerrada: 'Encerrada',
};
export const STATUS_DA_ASSINATURA_KIND = { agendada: 'info', ativa: 'sucesso', pausada: 'neutro', suspensa: 'erro', encerrada: 'neutro' };

export const METODOS_DE_ASSINATURA = { cartao: 'Cartão de crédito', pix_automatico: 'PIX Automático', boleto: 'Boleto' };

const AGENDAMENTOS = {
  cancelamento: { titulo: 'Cancelamento agendado', desfazer: 'Desfazer cancelamento', acao: 'desfazer-cancelamento' },
  pausa: { titulo: 'Pausa agendada', desfazer: 'Desfazer pausa', acao: 'retomar' },
  troca: { titulo: 'Troca de plano agendada', desfazer: 'Desfazer troca', acao: 'desfazer-troca' },
};

/** A message after an action: a string (good news) or {texto, tipo: 'erro'|'info'}; its words. */
export function textoDe(mensagem) {
  return typeof mensagem === 'string' ? mensagem : (mensagem?.texto ?? '');
}

/** "25/11/2026 a 30/11/2026". */
export function periodo(ciclo) {
  return `${dateShort(ciclo.inicio)} a ${dateShort(ciclo.ate)}`;
}

/** What a cycle granted: "2 h e R$ 4,00"; "Nenhum crédito". */
export function creditosDoCiclo(ciclo) {
  const partes = [];
  if (ciclo.minutos > 0) partes.push(duration(ciclo.minutos));
  if (ciclo.centavos > 0) partes.push(money(ciclo.centavos));
  return partes.length ? partes.join(' e ') : 'Nenhum crédito';
}

/** Whether the cycle is a share of a whole one (began mid-month, or after a pause). */
function proporcional(ciclo) {
  return ciclo.proporcaoBP > 0 && ciclo.proporcaoBP < 10000;
}

/** "R$ 59,80 do plano (20 % do mês) + R$ 50,00 de adesão"; null for a whole cycle without setup fee. */
export function composicaoDoCiclo(ciclo, periodicidade = 'mensal') {
  const adesao = ciclo.adesaoCentavos ?? 0;
  const trocas = ciclo.trocasCentavos ?? 0;
  const doPlano = ciclo.valorCentavos - adesao - trocas;
  const parte = proporcional(ciclo) ? ` (${percentFromBP(ciclo.proporcaoBP)} ${periodicidade === 'anual' ? 'do ano' : 'do mês'})` : '';
  if (!adesao && !trocas && !parte) return null;
  return `${money(doPlano)} do plano${parte}`
    + `${adesao ? ` + ${money(adesao)} de adesão` : ''}`
    + `${trocas ? ` + ${money(trocas)} da troca de plano no ciclo anterior` : ''}`;
}

/** The first cycle in one sentence, as said when someone subscribes. */
export function primeiroCicloEmPalavras(a) {
  const c = a.cicloAtual ?? a.ciclos?.[a.ciclos.length - 1];
  if (!c) return `A assinatura começa em ${dateShort(a.inicio)}; o primeiro ciclo é cobrado nesse dia, proporcional aos dias até o fim do mês.`;
  const tipo = proporcional(c)
    ? `é proporcional (${percentFromBP(c.proporcaoBP)} ${a.termos?.periodicidade === 'anual' ? 'do ano' : 'do mês'})`
    : 'é um ciclo inteiro';
  const adesao = c.adesaoCentavos ? `, com ${money(c.adesaoCentavos)} de adesão` : '';
  return `O primeiro ciclo vai de ${periodo(c)} e ${tipo}: ${money(c.valorCentavos)}${adesao}.`
    + `${c.minutos > 0 || c.centavos > 0 ? ` Créditos concedidos: ${creditosDoCiclo(c)}.` : ''}`;
}

/** The status in a sentence. */
function situacaoEmPalavras(a) {
  switch (a.status) {
    case 'agendada': return `Começa em ${dateShort(a.inicio)}.`;
    case 'ativa': return `Ativa desde ${dateShort(a.inicio)}.`;
    case 'pausada': return 'Pausada: nada é cobrado e nenhum crédito novo é concedido até retomar.';
    case 'suspensa': return 'Suspensa: o pagamento de um ciclo não foi recebido.';
    case 'encerrada':
      return a.motivoDoEncerramento === 'inadimplencia' ? 'Encerrada por falta de pagamento.' : 'Encerrada: a assinatura foi cancelada.';
    default: return STATUS_DA_ASSINATURA[a.status] ?? a.status;
  }
}

/**
 * The next charge: {data, valor?}. The amount is a whole cycle of the plan in force then (the
 * plan a scheduled change goes to, in its version on that day), unknown before the start (the
 * first cycle is prorated). Null when nothing more is charged.
 */
export function proximaCobranca(a, planos = []) {
  if (!a.proximaCobranca) return null;
  if (a.status === 'agendada') return { data: a.proximaCobranca, valor: null };
  const planoId = a.agendamento?.tipo === 'troca' ? a.agendamento.plano?.planoId : a.plano?.planoId;
  const plano = planos.find((p) => p.planoId === planoId);
  const termos = plano ? versaoEm(plano, a.proximaCobranca)?.termos : (a.agendamento?.tipo === 'troca' ? null : a.termos);
  return { data: a.proximaCobranca, valor: termos ? termos.valorCentavos : null };
}

/** Whether the plan changed during the current cycle (an upgrade: its difference comes with the next charge). */
function trocouNoCiclo(a) {
  return Boolean(a.cicloAtual && a.plano && a.cicloAtual.plano?.planoId !== a.plano.planoId);
}

/** "01/12/2026 · R$ 299,00"; what happens instead when nothing more is charged. */
function proximaCobrancaEmPalavras(a, planos) {
  const p = proximaCobranca(a, planos);
  if (p) {
    const valor = p.valor !== null ? ` · ${money(p.valor)}` : ' · o primeiro ciclo, proporcional';
    return `${dateShort(p.data)}${valor}${p.valor !== null && trocouNoCiclo(a) ? ', mais a diferença da troca de plano deste ciclo' : ''}`;
  }
  if (a.agendamento?.tipo === 'cancelamento') return `Nenhuma: a assinatura termina em ${dateShort(a.agendamento.efeitoEm)}`;
  if (a.agendamento?.tipo === 'pausa') return `Nenhuma: a pausa começa em ${dateShort(a.agendamento.efeitoEm)}`;
  return 'Nenhuma';
}

/** Dunning in words: "2 tentativas desde 01/12/2026, 08:00; próxima em 03/12/2026, 08:00". */
export function inadimplenciaEmPalavras(a) {
  const i = a.inadimplencia;
  if (!i) return null;
  const tz = a.fusoHorario ?? DEFAULT_TZ;
  return `Ciclo ${i.ciclo}: ${i.tentativas} ${i.tentativas === 1 ? 'tentativa' : 'tentativas'} desde ${dateTime(i.primeiraFalha, tz)}`
    + (i.proximaTentativa ? `; próxima em ${dateTime(i.proximaTentativa, tz)}` : '');
}

/**
 * The subscription's screen part: the panel (status, plan, next charge, scheduled change, dunning,
 * actions, change of plan, change of the means of payment — "Atualizar cartão" in the dunning
 * notice), the current cycle, what the plan includes and the cycles.
 * `planos`: the plans on sale (for a change of plan and the next charge's amount);
 * `onChange(assinatura, mensagem)`: after an action, with the new subscription and what to say;
 * `mensagem`: said at the top of the panel (after an action; see textoDe); `operador`: an operator's view
 * (the plan's version, manual payment of a cycle).
 */
export function painelDaAssinatura(a, { base, planos = [], onChange, mensagem, operador = false, signal } = {}) {
  const tituloId = uid('assinatura-titulo');
  const erroBox = h('div', { class: 'subscription__error' });
  const noPlano = Boolean(a.plano);
  const tz = a.fusoHorario ?? DEFAULT_TZ;

  const executar = async (botao, acao, { body, mensagemDeSucesso, busyText }) => {
    replace(erroBox);
    const restore = busy(botao, busyText);
    try {
      const nova = await new Action().run(`${base}/${acao}`, { body, signal });
      onChange?.(nova, mensagemDeSucesso(nova));
    } catch (error) {
      if (error?.name === 'AbortError') return;
      if (botao.isConnected) restore();
      const box = errorBox(error);
      box.setAttribute('tabindex', '-1');
      replace(erroBox, box);
      box.focus();
    }
  };

  const aviso = mensagem
    ? h('p', { class: `alert alert--${mensagem.tipo ?? 'sucesso'} subscription__message`, tabindex: '-1' }, textoDe(mensagem)) : null;

  // the change scheduled for the cycle's end, and the button that undoes it
  let agendamento = null;
  if (a.agendamento && a.status !== 'encerrada') {
    const ag = AGENDAMENTOS[a.agendamento.tipo] ?? { titulo: 'Alteração agendada', desfazer: 'Desfazer', acao: null };
    const quando = dateShort(a.agendamento.efeitoEm);
    const texto = {
      cancelamento: `A assinatura termina em ${quando}, no fim do ciclo atual. Até lá, tudo continua valendo.`,
      pausa: `A assinatura fica pausada a partir de ${quando}, no fim do ciclo atual: nada é cobrado até retomar.`,
      troca: `O plano ${a.agendamento.plano?.nome ?? ''} começa em ${quando}, no próximo ciclo.`,
    }[a.agendamento.tipo] ?? `Em ${quando}.`;
    const desfazer = ag.acao ? h('button', { type: 'button', class: 'button button--secondary' }, ag.desfazer) : null;
    desfazer?.addEventListener('click', () => executar(desfazer, ag.acao, {
      busyText: 'Desfazendo…',
      mensagemDeSucesso: () => ({
        cancelamento: 'Cancelamento desfeito: a assinatura continua.',
        pausa: 'Pausa desfeita: a assinatura continua.',
        troca: 'Troca desfeita: o plano continua o mesmo.',
      }[a.agendamento.tipo] ?? 'Desfeito.'),
    }));
    agendamento = h('div', { class: 'alert alert--info subscription__scheduled', dataset: { agendamento: a.agendamento.tipo } },
      h('p', {}, h('strong', {}, `${ag.titulo}. `), texto),
      desfazer);
  }

  // the means of payment: another card (or method) for the cycles to come and, when the current
  // cycle's charge was declined, for that cycle at once
  const situacao = situacaoDoCiclo(a);
  const emCobranca = situacao === 'recusada' ? a.cicloAtual.numero : null;
  const tentando = situacao === 'tentando';
  const formaBox = h('div', { class: 'subscription__change subscription__billing', id: uid('forma') });
  formaBox.hidden = true;
  let mudarForma = null;
  if (a.status !== 'encerrada' && !tentando) {
    const recusado = emCobranca !== null;
    mudarForma = h('button', {
      type: 'button', class: recusado ? 'button' : 'button button--secondary', 'aria-expanded': 'false', 'aria-controls': formaBox.id,
    }, recusado && a.metodo === 'cartao' ? 'Atualizar cartão' : 'Trocar forma de pagamento');
    mudarForma.addEventListener('click', () => {
      const abrir = formaBox.hidden;
      formaBox.hidden = !abrir;
      mudarForma.setAttribute('aria-expanded', String(abrir));
      if (abrir) {
        const form = formularioDeForma();
        replace(formaBox, form);
        (form.elements.metodo.value === 'cartao' ? form.elements.cartaoToken : form.querySelector('input[name="metodo"]:checked'))?.focus();
      }
    });
  }

  let inadimplencia = null;
  if (a.inadimplencia && a.status !== 'encerrada') {
    const acao = a.metodo === 'cartao' ? 'atualize o cartão' : 'troque a forma de pagamento';
    let texto;
    if (tentando) texto = 'Uma nova tentativa de cobrança está em andamento: a resposta chega em instantes.';
    else if (situacao === 'aberta') {
      const nova = (a.cobrancas ?? []).find((x) => x.ciclo === a.cicloAtual.numero);
      texto = `Uma nova cobrança do ciclo ${nova.ciclo}, por ${METODO_NA_FRASE[nova.metodo] ?? nova.metodo}, aguarda o pagamento: veja abaixo como pagar.`;
    } else if (emCobranca !== null && operador) texto = `Com outro cartão ou outra forma de pagamento, o ciclo ${emCobranca} é cobrado de novo na hora.`;
    else if (emCobranca !== null && a.inadimplencia.proximaTentativa) {
      texto = `Uma nova tentativa é feita automaticamente. Para não esperar, ${acao}: o ciclo ${emCobranca} é cobrado de novo na hora.`;
    } else if (emCobranca !== null) {
      texto = `Para voltar a usar a assinatura, ${acao}: o ciclo ${emCobranca} é cobrado de novo na hora e, pago, a assinatura volta a ficar ativa.`;
    } else if (!operador) {
      texto = a.inadimplencia.proximaTentativa
        ? 'Uma nova tentativa é feita automaticamente. Se o problema continuar, fale com a recepção da sua unidade.'
        : 'Fale com a recepção da sua unidade.';
    }
    inadimplencia = h('div', { class: 'alert alert--erro subscription__dunning' },
      h('p', {}, h('strong', {}, 'Pagamento não recebido. '), `${inadimplenciaEmPalavras(a)}.`),
      texto ? h('p', {}, texto) : null,
      emCobranca !== null && mudarForma ? h('div', { class: 'actions' }, mudarForma) : null);
  }

  // what can be done now
  const botoes = [];
  const trocaBox = h('div', { class: 'subscription__change', id: uid('troca') });
  trocaBox.hidden = true;
  const outrosPlanos = planos.filter((p) => !p.arquivado && p.planoId !== a.plano?.planoId);
  const podeTrocar = a.status === 'ativa' && (!a.agendamento || a.agendamento.tipo === 'troca') && outrosPlanos.length > 0;
  let trocar = null;
  if (podeTrocar) {
    trocar = h('button', { type: 'button', class: 'button', 'aria-expanded': 'false', 'aria-controls': trocaBox.id }, 'Trocar de plano');
    trocar.addEventListener('click', () => {
      const abrir = trocaBox.hidden;
      trocaBox.hidden = !abrir;
      trocar.setAttribute('aria-expanded', String(abrir));
      if (abrir) {
        replace(trocaBox, formularioDeTroca());
        trocaBox.querySelector('input')?.focus();
      }
    });
    botoes.push(trocar);
  }
  if (a.status === 'ativa' && !a.agendamento) {
    const pausar = h('button', { type: 'button', class: 'button button--secondary' }, 'Pausar');
    pausar.addEventListener('click', async () => {
      const fim = a.cicloAtual ? dateShort(addDays(a.cicloAtual.ate, 1)) : 'o fim do ciclo';
      const ok = await confirmDialog({
        title: 'Pausar a assinatura?',
        body: [`A pausa começa em ${fim}, no fim do ciclo atual. Enquanto estiver pausada, nada é cobrado e nenhum crédito novo é concedido.`,
          'Você pode retomar quando quiser: um novo ciclo, proporcional, começa no dia em que retomar.'],
        confirmText: 'Pausar no fim do ciclo',
      });
      if (!ok) return;
      executar(pausar, 'pausar', { busyText: 'Pausando…', mensagemDeSucesso: (n) => `Pausa agendada para ${dateShort(n.agendamento?.efeitoEm ?? a.cicloAtual?.ate)}.` });
    });
    botoes.push(pausar);
  }
  if (a.status === 'pausada') {
    const retomar = h('button', { type: 'button', class: 'button' }, 'Retomar assinatura');
    retomar.addEventListener('click', () => executar(retomar, 'retomar', {
      busyText: 'Retomando…',
      mensagemDeSucesso: (n) => `Assinatura retomada. ${n.cicloAtual ? `Novo ciclo: ${periodo(n.cicloAtual)}, ${money(n.cicloAtual.valorCentavos)}.` : ''}`.trim(),
    }));
    botoes.push(retomar);
  }
  // in dunning, the notice has it
  if (mudarForma && emCobranca === null) botoes.push(mudarForma);
  if (['agendada', 'ativa', 'pausada', 'suspensa'].includes(a.status) && a.agendamento?.tipo !== 'cancelamento') {
    const cancelar = h('button', { type: 'button', class: 'button button--danger' }, 'Cancelar assinatura');
    cancelar.addEventListener('click', async () => {
      const antesDoInicio = a.status === 'agendada';
      const fim = a.cicloAtual ? dateShort(addDays(a.cicloAtual.ate, 1)) : null;
      const ok = await confirmDialog({
        title: 'Cancelar a assinatura?',
        body: antesDoInicio
          ? ['A assinatura ainda não começou: o cancelamento vale já e nada é cobrado.']
          : [`A assinatura termina ${fim ? `em ${fim}, ` : ''}no fim do ciclo atual; até lá, tudo continua valendo e nada mais é cobrado depois.`,
            'Você pode desfazer o cancelamento até essa data.',
            // the API replaces a scheduled change of plan with the cancellation
            a.agendamento?.tipo === 'troca' ? `A troca agendada para o plano ${a.agendamento.plano?.nome ?? ''} deixa de valer.` : null].filter(Boolean),
        confirmText: 'Cancelar assinatura',
        cancelText: 'Manter assinatura',
        danger: true,
      });
      if (!ok) return;
      executar(cancelar, 'cancelar', {
        busyText: 'Cancelando…',
        mensagemDeSucesso: (n) => (n.status === 'encerrada'
          ? 'Assinatura cancelada.'
          : `Cancelamento agendado: a assinatura termina em ${dateShort(n.agendamento?.efeitoEm ?? addDays(a.cicloAtual?.ate ?? a.inicio, 1))}.`),
      });
    });
    botoes.push(cancelar);
  }

  function formularioDeTroca() {
    const periodicidade = a.termos?.periodicidade;
    const opcoes = outrosPlanos.map((p) => {
      const t = versaoEm(p, todayIn(tz))?.termos;
      return [p.planoId, t ? `${p.nome} — ${preco(t)}` : p.nome];
    });
    const escolha = radios({ legend: 'Novo plano', name: 'planoId', options: opcoes, checked: a.agendamento?.plano?.planoId });
    const form = h('form', { class: 'form subscription__change-form', novalidate: true },
      escolha,
      h('p', { class: 'small' },
        `Um plano mais caro e ${periodicidade === 'anual' ? 'anual' : 'mensal'} como o atual vale já: as horas e os créditos a mais entram no saldo, `,
        'e a diferença proporcional ao resto deste ciclo vem com a próxima cobrança. Os outros começam no próximo ciclo.'),
      h('div', { class: 'actions' },
        h('button', { type: 'submit', class: 'button' }, 'Confirmar troca'),
        h('button', {
          type: 'button', class: 'button button--secondary',
          onclick: () => {
            trocaBox.hidden = true;
            trocar?.setAttribute('aria-expanded', 'false');
            trocar?.focus();
          },
        }, 'Voltar')));
    const action = new Action();
    onSubmit(form, async () => {
      const planoId = form.elements.planoId?.value;
      if (!planoId) return fieldError(form, 'planoId', 'Escolha o novo plano.');
      const nova = await action.run(`${base}/troca`, { body: { planoId }, signal });
      const escolhido = outrosPlanos.find((p) => p.planoId === planoId);
      const m = nova.agendamento?.tipo === 'troca'
        ? `Troca agendada: o plano ${nova.agendamento.plano?.nome ?? escolhido?.nome} começa em ${dateShort(nova.agendamento.efeitoEm)}.`
        : `Pronto: o plano agora é ${nova.plano?.nome}. As horas e os créditos a mais já estão no saldo; a diferença proporcional ao resto deste ciclo vem com a próxima cobrança.`;
      onChange?.(nova, m);
    }, { busyText: 'Trocando…' });
    return form;
  }

  /** The new means of payment: the method and, for a card, the new card; what it changes, said before. */
  function formularioDeForma() {
    const tituloForma = uid('forma-titulo');
    const { metodo, cartao } = camposDeCobranca({
      legend: 'Nova forma de pagamento',
      checked: a.metodo,
      cartao: {
        label: 'Token do novo cartão (sandbox: tok_visa)',
        hint: 'O código que o provedor de pagamento dá ao cartão. No ambiente de testes, tok_visa é aprovado; tok_sandbox_recusado e tok_sandbox_sem_saldo são recusados.',
      },
    });
    const efeito = emCobranca !== null
      ? `O ciclo ${emCobranca}, que ficou sem pagamento, é cobrado de novo na hora com a nova forma: no cartão, a resposta vem em instantes; no PIX ou no boleto, a nova cobrança aparece nesta página para pagar.`
      : `A nova forma vale para as próximas cobranças${a.proximaCobranca ? `, a partir de ${dateShort(a.proximaCobranca)}` : ''}.`;
    const voltar = h('button', { type: 'button', class: 'button button--secondary' }, 'Voltar');
    voltar.addEventListener('click', () => {
      formaBox.hidden = true;
      mudarForma?.setAttribute('aria-expanded', 'false');
      mudarForma?.focus();
    });
    const form = h('form', { class: 'form subscription__billing-form', novalidate: true, 'aria-labelledby': tituloForma },
      h('h3', { id: tituloForma }, 'Forma de pagamento'),
      h('p', {}, 'Hoje: ', h('strong', {}, METODOS_DE_ASSINATURA[a.metodo] ?? a.metodo), '.'),
      metodo, cartao,
      h('p', { class: 'small' }, efeito),
      h('div', { class: 'actions' },
        h('button', { type: 'submit', class: 'button' }, emCobranca !== null ? 'Salvar e cobrar de novo' : 'Salvar forma de pagamento'),
        voltar));
    const action = new Action();
    onSubmit(form, async () => {
      const body = cobrancaDoFormulario(form, 'Informe o token do novo cartão (no ambiente de testes: tok_visa).');
      if (!body) return;
      let nova;
      try {
        nova = await action.run(`${base}/cobranca`, { method: 'PUT', body, signal });
      } catch (error) {
        if (error?.code === 'dados_invalidos' && ERROS_DA_FORMA[error.campo]) error.message = ERROS_DA_FORMA[error.campo];
        throw error;
      }
      onChange?.(nova, depoisDaNovaForma(a, nova, body.metodo));
    }, { busyText: 'Salvando…' });
    return form;
  }

  const proxima = proximaCobrancaEmPalavras(a, planos);
  const painel = h('section', { class: 'panel subscription', 'aria-labelledby': tituloId, dataset: { status: a.status } },
    h('h2', { id: tituloId, tabindex: '-1' }, operador ? 'Assinatura' : 'Sua assinatura'),
    aviso,
    h('p', { class: 'subscription__plan' },
      h('span', { class: 'subscription__name' }, noPlano ? a.plano.nome : 'Plano'), ' ',
      badge(STATUS_DA_ASSINATURA[a.status] ?? a.status, STATUS_DA_ASSINATURA_KIND[a.status] ?? 'neutro')),
    h('p', { class: 'subscription__status' }, situacaoEmPalavras(a)),
    facts([
      ['Plano', `${a.plano?.nome ?? '—'}${a.termos ? ` · ${preco(a.termos)}` : ''}${operador ? ` (versão ${a.plano?.versao})` : ''}`],
      ['Forma de pagamento', METODOS_DE_ASSINATURA[a.metodo] ?? a.metodo],
      ['Início', dateShort(a.inicio)],
      a.status !== 'encerrada' ? ['Próxima cobrança', proxima] : null,
    ]),
    agendamento,
    inadimplencia,
    emCobranca !== null ? formaBox : null,
    botoes.length ? h('div', { class: 'actions subscription__actions' }, botoes) : null,
    trocaBox,
    emCobranca !== null ? null : formaBox,
    erroBox);

  const emAberto = a.status === 'encerrada' ? [] : (a.ciclos ?? []).filter((c) => !c.pago)
    .map((c) => ({ ciclo: c, cobranca: (a.cobrancas ?? []).find((x) => x.ciclo === c.numero) }))
    .filter((x) => x.cobranca);
  return [
    painel,
    emAberto.map(({ ciclo, cobranca }) => painelDeCobranca(a, ciclo, cobranca, { operador, base, onChange, signal })),
    a.cicloAtual && a.status !== 'encerrada' ? cicloAtual(a, { operador, base, onChange, signal }) : null,
    a.termos ? h('section', { class: 'panel subscription__terms', 'aria-labelledby': `${tituloId}-termos` },
      h('h2', { id: `${tituloId}-termos` }, 'O que o plano inclui'),
      facts(termosEmPares(a.termos))) : null,
    h('section', { 'aria-labelledby': `${tituloId}-ciclos` },
      h('h2', { id: `${tituloId}-ciclos` }, 'Ciclos'),
      tabelaDeCiclos(a, { operador, base, onChange, signal })),
  ];
}

const METODOS_DA_COBRANCA = { pix: 'PIX', cartao: 'Cartão de crédito', boleto: 'Boleto' };
/** A method (of a subscription or of a charge) in the middle of a sentence: "por boleto". */
const METODO_NA_FRASE = { cartao: 'cartão', pix_automatico: 'PIX Automático', pix: 'PIX', boleto: 'boleto' };

/**
 * A cycle's charge still to be paid, as the member pays it: the boleto's digitable line and due
 * date, the PIX code (QR and copia e cola), or the card being charged; in the sandbox, the test
 * bank's buttons (the member's screen only), after which the subscription is followed until the
 * cycle is paid or the charge declined.
 */
function painelDeCobranca(a, ciclo, cobranca, { operador, base, onChange, signal }) {
  const tz = a.fusoHorario ?? DEFAULT_TZ;
  const titulo = uid('cobranca-titulo');
  const status = h('div', { class: 'small subscription__copy', 'aria-live': 'polite' });
  const recusada = a.inadimplencia?.ciclo === ciclo.numero && cobranca.tentativa <= a.inadimplencia.tentativas;
  // a new means of payment was just given: this charge is being replaced by a new attempt
  const pedida = tentativaPedida(a);
  const substituida = pedida?.ciclo === ciclo.numero && cobranca.tentativa < pedida.tentativa;
  const partes = [
    h('h2', { id: titulo }, `Pagamento do ciclo ${ciclo.numero}`),
    facts([
      ['Período', periodo(ciclo)],
      ['Valor', money(cobranca.valorCentavos)],
      ['Forma', METODOS_DA_COBRANCA[cobranca.metodo] ?? cobranca.metodo],
      cobranca.tentativa > 1 ? ['Tentativa', String(cobranca.tentativa)] : null,
    ]),
  ];
  if (substituida) {
    partes.push(h('p', {}, pedida.metodo === 'cartao'
      ? 'Cobrando de novo, agora no novo cartão: aguardando a resposta do emissor…'
      : `Uma nova cobrança, por ${METODO_NA_FRASE[pedida.metodo] ?? pedida.metodo}, está sendo emitida…`));
  } else if (cobranca.boleto) {
    const linha = h('p', { class: 'mono linha-digitavel' }, linhaDigitavel(cobranca.boleto.linhaDigitavel));
    const copy = h('button', { type: 'button', class: 'button button--secondary' }, 'Copiar linha digitável');
    copy.addEventListener('click', () => copiar(cobranca.boleto.linhaDigitavel, linha, status, 'Linha digitável copiada. Cole no app do seu banco, em "pagar boleto".'));
    partes.push(
      h('p', {}, 'No app ou no site do banco, escolha pagar boleto e digite ou cole a linha abaixo.'),
      facts([['Linha digitável', linha], ['Vencimento', dateTime(cobranca.boleto.vencimento, tz)]]),
      h('div', { class: 'actions' }, copy));
  } else if (cobranca.pix) {
    const id = uid('pix');
    const area = h('textarea', { id, readonly: true, rows: 4, class: 'mono', spellcheck: 'false' }, cobranca.pix.copiaECola);
    const copy = h('button', { type: 'button', class: 'button button--secondary' }, 'Copiar código PIX');
    copy.addEventListener('click', () => copiar(cobranca.pix.copiaECola, area, status, 'Código PIX copiado. Cole no app do seu banco, em "PIX copia e cola".'));
    partes.push(
      h('p', {}, 'No app do banco, leia o QR code ou use "PIX copia e cola" com o código abaixo.'),
      h('figure', { class: 'qr-figure' },
        qrSvg(cobranca.pix.copiaECola, { title: `QR code do PIX de ${money(cobranca.valorCentavos)}` }),
        h('figcaption', { class: 'small' }, `PIX de ${money(cobranca.valorCentavos)} para CoworkFlow`)),
      h('div', { class: 'field' }, h('label', { for: id }, 'PIX copia e cola'), area),
      h('div', { class: 'actions' }, copy));
  } else if (cobranca.metodo === 'cartao') {
    partes.push(h('p', {}, recusada
      ? `O cartão recusou a cobrança.${a.inadimplencia.proximaTentativa ? ' Uma nova tentativa é feita automaticamente.' : ''}`
      : 'Cobrado no cartão: aguardando a confirmação do emissor.'));
  }
  partes.push(status);
  if (!operador && !substituida && cobranca.metodo !== 'cartao' && cobranca.cobrancaId) partes.push(sandbox());
  return h('section', { class: 'panel subscription__charge', 'aria-labelledby': titulo, dataset: { ciclo: String(ciclo.numero) } }, partes);

  function sandbox() {
    const resultado = h('div', { 'aria-live': 'polite' });
    const pagar = h('button', { type: 'button', class: 'button' }, 'Pagar no sandbox');
    const recusar = h('button', { type: 'button', class: 'button button--secondary' }, 'Recusar');
    const tituloSandbox = uid('sandbox-titulo');
    const agir = async (botao, caminho, body, feito) => {
      const restore = busy(botao, 'Enviando ao banco de testes…');
      replace(resultado);
      try {
        await new Action().run(`/api/sandbox/cobrancas/${encodeURIComponent(cobranca.cobrancaId)}/${caminho}`, { body, signal });
        replace(resultado, h('p', { class: 'small' }, feito));
        announce(feito);
        acompanhar();
      } catch (error) {
        if (error?.name === 'AbortError') return;
        restore();
        replace(resultado, errorBox(error));
      }
    };
    pagar.addEventListener('click', () => agir(pagar, 'pagamento', undefined, 'O banco de testes pagou a cobrança; aguardando a confirmação…'));
    recusar.addEventListener('click', () => agir(recusar, 'recusa', { motivo: 'recusado no banco de testes' }, 'O banco de testes recusou a cobrança; aguardando o aviso…'));
    return h('section', { class: 'panel panel--sandbox', 'aria-labelledby': tituloSandbox },
      h('h3', { id: tituloSandbox }, 'Banco de testes (sandbox)'),
      h('p', {}, 'Ambiente de testes: nenhum dinheiro é movimentado. Estes botões fazem o papel do banco, que avisa a CoworkFlow do pagamento.'),
      h('div', { class: 'actions' }, pagar, recusar),
      resultado);
  }

  /** Follows the subscription until the bank's notice arrives: the cycle paid, or another failure counted. */
  function acompanhar() {
    const antes = a.inadimplencia?.ciclo === ciclo.numero ? a.inadimplencia.tentativas : 0;
    poll(async () => {
      let nova;
      try {
        nova = await api(base, { signal });
      } catch (error) {
        if (error?.name === 'AbortError') return true;
        replace(status, errorBox(error));
        return true;
      }
      const c = (nova.ciclos ?? []).find((x) => x.numero === ciclo.numero);
      if (c?.pago) {
        onChange?.(nova, `Pagamento do ciclo ${ciclo.numero} confirmado.`);
        return true;
      }
      if (nova.inadimplencia?.ciclo === ciclo.numero && nova.inadimplencia.tentativas > antes) {
        onChange?.(nova, { texto: `O pagamento do ciclo ${ciclo.numero} foi recusado.`, tipo: 'erro' });
        return true;
      }
      return false;
    }, { signal, interval: 500, max: 3000 });
  }
}

/**
 * Whether the current cycle's charge is still on its way: not emitted yet (the payments service
 * emits it in the background) or charged to a card whose issuer has not answered.
 */
export function aguardaCobranca(a) {
  const c = a?.cicloAtual;
  if (!c || c.pago || !['ativa', 'suspensa'].includes(a.status)) return false;
  const cobranca = (a.cobrancas ?? []).find((x) => x.ciclo === c.numero);
  // a new attempt asked for with a new means of payment, not emitted yet
  const pedida = tentativaPedida(a);
  if (pedida && (!cobranca || cobranca.tentativa < pedida.tentativa)) return true;
  // a card's attempt is answered when paid or when its decline is counted
  return !cobranca || (cobranca.metodo === 'cartao' && cobranca.tentativa > recusasDoCiclo(a, c.numero));
}

/** How many of cycle `numero`'s charges were declined (the dunning's attempts). */
function recusasDoCiclo(a, numero) {
  return a?.inadimplencia?.ciclo === numero ? a.inadimplencia.tentativas : 0;
}

/**
 * Where the current cycle's declined charge stands (active in dunning, or suspended): 'recusada'
 * when no attempt is out — a new means of payment charges it again at once (the API's rule) —,
 * 'tentando' while an attempt is on its way (a card's answer, a new charge being emitted),
 * 'aberta' when a new PIX or boleto charge awaits payment; null when the cycle is not in dunning.
 */
export function situacaoDoCiclo(a) {
  const c = a?.cicloAtual;
  if (!c || c.pago || !['ativa', 'suspensa'].includes(a.status) || a.inadimplencia?.ciclo !== c.numero) return null;
  if (aguardaCobranca(a)) return 'tentando';
  const cobranca = (a.cobrancas ?? []).find((x) => x.ciclo === c.numero);
  return cobranca && cobranca.tentativa > recusasDoCiclo(a, c.numero) ? 'aberta' : 'recusada';
}

/** The current cycle when situacaoDoCiclo says 'recusada', else null. */
function cicloEmCobranca(a) {
  return situacaoDoCiclo(a) === 'recusada' ? a.cicloAtual.numero : null;
}

/**
 * The attempts asked for with a new means of payment, by subscription: {ciclo, tentativa, metodo},
 * until answered — the view cannot tell that one was asked for before the provider charges it.
 */
const tentativasPedidas = new Map();

/** The attempt asked for on `a`'s current cycle and not answered yet, or null. */
function tentativaPedida(a) {
  const p = tentativasPedidas.get(a?.assinaturaId);
  const c = a?.cicloAtual;
  if (!p) return null;
  if (!c || c.numero !== p.ciclo || c.pago || recusasDoCiclo(a, p.ciclo) >= p.tentativa) {
    tentativasPedidas.delete(a.assinaturaId);
    return null;
  }
  return p;
}

const ERROS_DA_FORMA = {
  metodo: 'Escolha cartão de crédito, PIX Automático ou boleto.',
  cartaoToken: 'Confira o token do cartão: até 200 caracteres (no ambiente de testes: tok_visa).',
};

/**
 * What to say after the means of payment changed (`antes` → `nova`): the declined cycle being
 * charged again (and that attempt followed: acompanharCobranca), or the cycles to come.
 */
function depoisDaNovaForma(antes, nova, metodo) {
  const nome = METODOS_DE_ASSINATURA[metodo] ?? metodo;
  const n = cicloEmCobranca(antes);
  if (n !== null && nova.ciclos?.find((c) => c.numero === n)?.pago) {
    return `Forma de pagamento atualizada e pagamento do ciclo ${n} confirmado.`;
  }
  if (n !== null && recusasDoCiclo(nova, n) > recusasDoCiclo(antes, n)) {
    return { texto: `Forma de pagamento atualizada, mas a nova cobrança do ciclo ${n} foi recusada. Tente outro cartão ou outra forma de pagamento.`, tipo: 'erro' };
  }
  if (n !== null && nova.inadimplencia?.ciclo === n) {
    tentativasPedidas.set(nova.assinaturaId, { ciclo: n, tentativa: recusasDoCiclo(antes, n) + 1, metodo });
    return {
      tipo: 'info',
      texto: metodo === 'cartao'
        ? `Cartão atualizado. O ciclo ${n} está sendo cobrado de novo, agora no novo cartão: aguarde a resposta do emissor…`
        : `Forma de pagamento atualizada para ${METODO_NA_FRASE[metodo] ?? nome}. Uma nova cobrança do ciclo ${n} está sendo emitida e aparece nesta página em instantes.`,
    };
  }
  return `Forma de pagamento atualizada: ${nome}.${nova.proximaCobranca ? ` Vale a partir da próxima cobrança, em ${dateShort(nova.proximaCobranca)}.` : ''}`;
}

/**
 * While aguardaCobranca(a), reads the subscription again now and then (for half a minute at
 * most) and calls `onChange(nova, mensagem)` when the charge appears or the card's answer
 * arrives. Returns a function that stops it.
 */
export function acompanharCobranca(a, { base, signal, onChange }) {
  if (!aguardaCobranca(a)) return () => {};
  const chave = (x) => JSON.stringify([x.cicloAtual?.pago, x.cobrancas ?? [], x.inadimplencia ?? null, x.status]);
  const antes = chave(a);
  const numero = a.cicloAtual.numero;
  let vezes = 0;
  return poll(async () => {
    vezes += 1;
    let nova;
    try {
      nova = await api(base, { signal });
    } catch (error) {
      if (error?.name === 'AbortError') return true;
      return vezes >= 12;
    }
    if (chave(nova) === antes) return vezes >= 12;
    const ciclo = (nova.ciclos ?? []).find((x) => x.numero === numero);
    const pedida = tentativasPedidas.get(a.assinaturaId);
    const daNovaForma = pedida?.ciclo === numero;
    const cartaoNovo = daNovaForma && pedida.metodo === 'cartao';
    const cobranca = (nova.cobrancas ?? []).find((x) => x.ciclo === numero);
    let mensagem = null;
    if (ciclo?.pago) {
      mensagem = daNovaForma
        ? `Pagamento do ciclo ${numero} confirmado${cartaoNovo ? ' no novo cartão' : ''}. A assinatura está ${a.status === 'suspensa' ? 'ativa de novo' : 'em dia'}.`
        : `Pagamento do ciclo ${numero} confirmado.`;
    } else if (recusasDoCiclo(nova, numero) > recusasDoCiclo(a, numero)) {
      mensagem = cartaoNovo
        ? { texto: `O novo cartão também foi recusado: o ciclo ${numero} continua sem pagamento. Tente outro cartão ou outra forma de pagamento.`, tipo: 'erro' }
        : { texto: `A cobrança do ciclo ${numero} foi recusada.`, tipo: 'erro' };
    } else if (daNovaForma && !cartaoNovo && cobranca && cobranca.tentativa >= pedida.tentativa) {
      mensagem = `Nova cobrança do ciclo ${numero} emitida: pague ${cobranca.boleto ? 'com o boleto' : 'com o PIX'} abaixo.`;
    }
    if (mensagem && daNovaForma) tentativasPedidas.delete(a.assinaturaId);
    onChange?.(nova, mensagem);
    return true;
  }, { signal, interval: 800, max: 4000 });
}

/** The operator's "Registrar pagamento" of a cycle paid outside the app. */
function botaoDePagamento(a, ciclo, { base, onChange, signal }) {
  const botao = h('button', { type: 'button', class: 'button button--small button--secondary' }, 'Registrar pagamento',
    h('span', { class: 'visually-hidden' }, ` do ciclo ${ciclo.numero}`));
  const erro = h('div');
  botao.addEventListener('click', async () => {
    const ok = await confirmDialog({
      title: `Registrar o pagamento do ciclo ${ciclo.numero}?`,
      body: [`${periodo(ciclo)}: ${money(ciclo.valorCentavos)}.`, 'Use quando o membro pagou por fora (na recepção, por transferência). Fica na trilha de auditoria.'],
      confirmText: 'Registrar pagamento',
    });
    if (!ok) return;
    const restore = busy(botao, 'Registrando…');
    try {
      const nova = await new Action().run(`${base}/ciclos/${ciclo.numero}/pagamento`, { signal });
      onChange?.(nova, `Pagamento do ciclo ${ciclo.numero} registrado.`);
    } catch (error) {
      if (error?.name === 'AbortError') return;
      if (botao.isConnected) restore();
      replace(erro, errorBox(error));
    }
  });
  return [botao, erro];
}

function pagamento(ciclo, tz) {
  return [
    ciclo.pago ? badge('Pago', 'sucesso') : badge('Aguardando pagamento', 'aviso'),
    (ciclo.devolucoes ?? []).map((d) => h('span', { class: 'small block subscription__refund' },
      `Pago também no provedor: ${money(d.valorCentavos)} devolvidos em ${dateTime(d.pedidaEm, tz)}.`
        + (d.concluidaEm ? ` O provedor pagou a devolução em ${dateTime(d.concluidaEm, tz)}.` : ' A devolução está em processamento no provedor.'))),
  ];
}

/** The cycle in force: period, value (and how it is made), credits granted, paid or not. */
function cicloAtual(a, { operador, base, onChange, signal }) {
  const c = a.cicloAtual;
  const titulo = uid('ciclo-titulo');
  const composicao = composicaoDoCiclo(c, a.termos?.periodicidade);
  return h('section', { class: 'panel subscription__cycle', 'aria-labelledby': titulo },
    h('h2', { id: titulo }, 'Ciclo atual'),
    facts([
      ['Período', `${periodo(c)} (ciclo ${c.numero}${proporcional(c) ? ', proporcional' : ''})`],
      ['Valor', composicao ? [money(c.valorCentavos), h('span', { class: 'small block' }, composicao)] : money(c.valorCentavos)],
      ['Créditos concedidos', [creditosDoCiclo(c),
        !operador && (c.minutos > 0 || c.centavos > 0) ? h('span', { class: 'block' }, link('/creditos', 'Ver em Meus créditos')) : null]],
      ['Pagamento', [pagamento(c, a.fusoHorario ?? DEFAULT_TZ), operador && !c.pago ? h('span', { class: 'block subscription__pay' }, botaoDePagamento(a, c, { base, onChange, signal })) : null]],
    ]));
}

/** Every cycle, newest first. */
function tabelaDeCiclos(a, { operador, base, onChange, signal }) {
  return table({
    caption: 'Os ciclos mais recentes primeiro',
    className: 'table--palavras table--ciclos',
    empty: a.status === 'agendada' ? `O primeiro ciclo começa em ${dateShort(a.inicio)}.` : 'Nenhum ciclo ainda.',
    rows: a.ciclos ?? [],
    rowAttrs: (c) => ({ dataset: { ciclo: String(c.numero) } }),
    columns: [
      { label: 'Ciclo', cell: (c) => String(c.numero) },
      { label: 'Período', cell: (c) => periodo(c) },
      { label: 'Plano', cell: (c) => c.plano?.nome ?? '—' },
      {
        label: 'Valor',
        cell: (c) => {
          const composicao = composicaoDoCiclo(c, a.termos?.periodicidade);
          return [h('span', { class: 'block' }, money(c.valorCentavos)), composicao ? h('span', { class: 'small block' }, composicao) : null];
        },
      },
      { label: 'Créditos', cell: (c) => creditosDoCiclo(c) },
      {
        label: 'Pagamento',
        cell: (c) => [pagamento(c, a.fusoHorario ?? DEFAULT_TZ), operador && !c.pago && c.numero !== a.cicloAtual?.numero
          ? h('span', { class: 'block subscription__pay' }, botaoDePagamento(a, c, { base, onChange, signal })) : null],
      },
    ],
  });
}

// ---- subscribing ---------------------------------------------------------------------------------


/**
 * A subscription's means of payment in a form: the method (radios named metodo) and the card's
 * field (cobrancas.js), shown only while the method is a card. `cartao`: the card field's label
 * and hint. Read back with cobrancaDoFormulario.
 */
export function camposDeCobranca({ legend = 'Forma de cobrança', checked = 'boleto', cartao: textos = {} } = {}) {
  const metodo = radios({ legend, name: 'metodo', checked, options: Object.entries(METODOS_DE_ASSINATURA) });
  const cartao = campoDoCartao(textos);
  const sincronizar = () => { cartao.hidden = metodo.querySelector('input[name="metodo"]:checked')?.value !== 'cartao'; };
  metodo.addEventListener('change', sincronizar);
  sincronizar();
  return { metodo, cartao };
}

/**
 * The method and card token of camposDeCobranca as the API takes them ({metodo, cartaoToken?}),
 * or false after marking the field that is wrong (a card needs its token).
 */
export function cobrancaDoFormulario(form, semCartao) {
  const metodo = form.elements.metodo?.value;
  if (!metodo) {
    fieldError(form, 'metodo', 'Escolha a forma de pagamento.');
    return false;
  }
  const body = { metodo };
  if (metodo === 'cartao') {
    const token = tokenDoCartao(form, semCartao);
    if (!token) return false;
    body.cartaoToken = token;
  }
  return body;
}

/**
 * A subscription form's method, card token and start, or false after marking the field that is
 * wrong (the API's rules: a card needs its token; a start from today up to 90 days ahead).
 */
export function cobrancaEInicio(form, hoje) {
  const body = cobrancaDoFormulario(form);
  if (!body) return false;
  const dia = val(form, 'inicio');
  if (dia) {
    if (!isDate(dia)) {
      fieldError(form, 'inicio', 'Escolha uma data válida.');
      return false;
    }
    if (dia < hoje || dia > addDays(hoje, 90)) {
      fieldError(form, 'inicio', `Escolha uma data de ${dateShort(hoje)} a ${dateShort(addDays(hoje, 90))}.`);
      return false;
    }
    body.inicio = dia;
  }
  return body;
}

/**
 * The form that subscribes to a plan: the plan (radios), the billing method, the card token (only
 * for a card), the start (today when empty, up to 90 days ahead). `onDone(assinatura)` after a
 * 201. The server's error shows next to the field it names.
 */
export function formularioDeAssinatura({ planos, base, onDone, signal, escolhido, tz = DEFAULT_TZ, titulo = 'Assinar um plano' }) {
  const tituloId = uid('assinar-titulo');
  const hoje = todayIn(tz);
  const plano = radios({
    legend: 'Plano',
    name: 'planoId',
    checked: escolhido ?? (planos.length === 1 ? planos[0].planoId : undefined),
    options: planos.map((p) => {
      const t = versaoEm(p, hoje)?.termos;
      return [p.planoId, t ? `${p.nome} — ${preco(t)}` : p.nome];
    }),
  });
  const { metodo, cartao } = camposDeCobranca();
  const inicio = field({
    label: 'Início', name: 'inicio', type: 'date', optional: true,
    hint: 'Em branco: hoje. Pode ser até 90 dias adiante.', attrs: { min: hoje, max: addDays(hoje, 90) },
  });
  const form = h('form', { class: 'form panel subscribe', novalidate: true, 'aria-labelledby': tituloId },
    h('h2', { id: tituloId }, titulo),
    plano, metodo, cartao, inicio,
    h('p', { class: 'small' },
      'Nos planos mensais, o primeiro ciclo vai do início até o fim do mês e é cobrado proporcionalmente aos dias, com a adesão; ',
      'depois, a cobrança é no dia 1º de cada mês. Nos anuais, cada ciclo conta um ano a partir do início. ',
      'As horas e os créditos de cada ciclo entram em Meus créditos.'),
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'button' }, 'Assinar')));

  const action = new Action();
  onSubmit(form, async () => {
    const planoId = form.elements.planoId?.value;
    if (!planoId) return fieldError(form, 'planoId', 'Escolha um plano.');
    const cobranca = cobrancaEInicio(form, hoje);
    if (!cobranca) return;
    const body = { planoId, ...cobranca };
    const assinatura = await action.run(base, { body, signal });
    announce('Assinatura feita.');
    onDone?.(assinatura);
  }, { busyText: 'Assinando…' });

  return {
    form,
    /** Picks a plan and brings the form into view, its method next. */
    escolher(planoId) {
      const radio = [...form.querySelectorAll('input[name="planoId"]')].find((el) => el.value === planoId);
      if (radio) radio.checked = true;
      form.scrollIntoView({ block: 'start' });
      radio?.focus();
    },
  };
}
