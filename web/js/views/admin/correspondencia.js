// The front desk's mail, a section of "Reservas do dia" for the chosen unit (not for a day): a
// letter or parcel that arrived for a member is registered (the member, found by e-mail, is told
// in the app and by e-mail), and what waits at the unit is listed, the oldest first, with
// "Entregar" (the member picked it up) and "Cancelar" (registered by mistake), each after a
// confirmation. The section loads on its own: a failure here leaves the bookings on screen, and
// the page's 15 s refresh renews the list without moving the focus or touching what is typed.

import { api, Action } from '../../lib/api.js';
import { h, replace, uid } from '../../lib/dom.js';
import { ENCOMENDA_TIPOS } from '../../lib/labels.js';
import { deadline, haQuantoTempo, time } from '../../lib/format.js';
import {
  showLoading, doneLoading, errorBox, table, field, onSubmit, val, flash,
} from '../../lib/ui.js';
import { nomeOuConta } from '../../lib/pessoas.js';
import { buscaDeMembro } from '../../lib/busca-de-membro.js';
import { botaoQueConfirma } from './comum.js';

/** "pacote de Amazon", "carta": what the desk holds, in a sentence. */
function oQue(e) {
  const tipo = (ENCOMENDA_TIPOS[e.tipo] ?? e.tipo).toLowerCase();
  return e.remetente ? `${tipo} de ${e.remetente}` : tipo;
}

const comMaiuscula = (texto) => texto.charAt(0).toLocaleUpperCase('pt-BR') + texto.slice(1);

/**
 * correspondencia({signal, nomes}) → {node, mostrar(unidade, {quiet})}
 *
 * `nomes` is the page's nomesDePessoas(). `mostrar` shows the unit's ({id, nome, fusoHorario})
 * waiting mail: with a loading state for a new unit (or after a failure), else quietly, keeping
 * the list until the new one arrives and the focus on the same button.
 */
export function correspondencia({ signal, nomes }) {
  let unidade = null;
  let mostrada = null; // the unit whose list is on screen
  let pedido = null; // the latest request: an older answer is dropped
  let acting = 0;
  // One Action per item and act, kept across the refreshes that redraw the rows: a click sent
  // again after a lost answer is the same request (its key), not a second hand-over.
  const pedidosPorItem = new Map();
  const acaoDe = (id, ato) => {
    const chave = `${id}|${ato}`;
    if (!pedidosPorItem.has(chave)) pedidosPorItem.set(chave, new Action());
    return pedidosPorItem.get(chave);
  };

  const tituloId = uid('correspondencia');
  const listaId = uid('correspondencia-lista');
  const lead = h('p', { class: 'small mail-desk__lead' });
  const status = h('p', { class: 'small mail-desk__status', 'aria-live': 'polite' });
  const listaTitulo = h('h3', { id: listaId, tabindex: '-1' }, 'Aguardando retirada');
  const lista = h('div', { class: 'mail-desk__list' });
  const form = formulario();
  const node = h('section', { class: 'mail-desk', 'aria-labelledby': tituloId },
    h('h2', { id: tituloId }, 'Correspondência'),
    form,
    h('div', { class: 'mail-desk__head' }, listaTitulo, status),
    lista);

  // ---- registering what arrived ------------------------------------------------------------------

  function formulario() {
    const formId = uid('registrar-correspondencia');
    const el = h('form', { class: 'form panel mail-desk__form', novalidate: true, 'aria-labelledby': formId });
    const destinatario = buscaDeMembro({
      form: el, signal, quem: 'o destinatário',
      busca: { name: 'destinatario', label: 'E-mail do destinatário', oque: 'destinatário', verbo: 'registre' },
      escolha: { name: 'usuarioId', label: 'Destinatário' },
    });
    el.append(
      h('h3', { id: formId }, 'Registrar correspondência'),
      lead,
      h('div', { class: 'mail-desk__fields' },
        destinatario.node,
        field({ label: 'Tipo', name: 'tipo', type: 'select', value: 'carta', options: Object.entries(ENCOMENDA_TIPOS) }),
        field({ label: 'Remetente', name: 'remetente', optional: true, attrs: { autocomplete: 'off', maxlength: '120' } }),
        field({
          label: 'Observação', name: 'observacao', optional: true, hint: 'Onde está guardada, por exemplo “armário\u00a03”.',
          attrs: { autocomplete: 'off', maxlength: '500' },
        })),
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'button' }, 'Registrar correspondência')));

    // The same registration sent again (a retry after a lost answer) is the same request.
    const action = new Action();
    onSubmit(el, async () => {
      const membro = await destinatario.escolhido();
      if (!membro || !unidade) return;
      const body = { unidadeId: unidade.id, usuarioId: membro.id, tipo: val(el, 'tipo') };
      const remetente = val(el, 'remetente');
      const observacao = val(el, 'observacao');
      if (remetente) body.remetente = remetente;
      if (observacao) body.observacao = observacao;
      await action.run('/api/admin/encomendas', { body });
      el.reset();
      destinatario.esquecer();
      flash(`Correspondência registrada para ${membro.nome}; o membro foi avisado.`, 'sucesso');
      // Ready for the next one: parcels tend to arrive together.
      el.elements.namedItem('destinatario')?.focus();
      mostrar(unidade, { quiet: true });
    }, { busyText: 'Registrando…' });
    return el;
  }

  // ---- the list ------------------------------------------------------------------------------------

  async function buscar(u) {
    const resposta = await api('/api/admin/encomendas', { query: { unidade: u.id, situacao: 'aguardando' }, signal });
    const itens = resposta?.itens ?? [];
    return { unidade: u, itens, pessoas: await nomes.todos(itens.map((e) => e.usuarioId)) };
  }

  /**
   * Shows the unit's waiting mail. A new unit (or a list that failed to load) gets a loading
   * state; the same unit is renewed quietly, unless an action of the section is under way.
   */
  function mostrar(u, { quiet = false } = {}) {
    unidade = u;
    lead.textContent = `Chegou carta ou pacote para um membro em ${u.nome}? Registre aqui: ele é avisado no app e por e-mail.`;
    if (!quiet || mostrada?.id !== u.id) {
      carregar(u);
      return;
    }
    if (acting > 0) return;
    const request = pedido = buscar(u);
    request.then((dia) => {
      if (pedido !== request || signal.aborted || acting > 0) return;
      const foco = chaveDoFoco();
      desenhar(dia);
      replace(status);
      devolverFoco(foco);
    }).catch((error) => {
      if (error?.name === 'AbortError' || signal.aborted || pedido !== request) return;
      status.textContent = `Não foi possível atualizar a correspondência agora (${time(new Date().toISOString(), u.fusoHorario)}); tentaremos de novo.`;
    });
  }

  /** The list with its loading state, or the error with "Tentar de novo"; an older answer is dropped. */
  function carregar(u) {
    mostrada = null;
    replace(status);
    const request = pedido = buscar(u);
    showLoading(lista, 'Carregando a correspondência…');
    request.then((dia) => {
      if (pedido !== request || signal.aborted) return;
      doneLoading(lista);
      mostrada = u;
      desenhar(dia);
    }, (error) => {
      if (error?.name === 'AbortError' || signal.aborted || pedido !== request) return;
      doneLoading(lista);
      replace(lista, errorBox(error, { retry: () => carregar(u) }));
    });
  }

  function desenhar({ unidade: u, itens, pessoas }) {
    const tz = u.fusoHorario;
    const quem = (e) => nomeOuConta(pessoas.get(String(e.usuarioId).toLowerCase()), e.usuarioId);
    replace(lista, table({
      caption: 'Da que chegou primeiro para a mais recente',
      empty: 'Nada aguardando retirada nesta unidade.',
      rows: itens,
      className: 'table--palavras table--encomendas',
      rowAttrs: (e) => ({ dataset: { encomenda: e.id, situacao: e.situacao } }),
      columns: [
        { label: 'Chegou', cell: (e) => [comMaiuscula(haQuantoTempo(e.registradaEm)), h('span', { class: 'small block' }, deadline(e.registradaEm, tz))] },
        { label: 'Destinatário', cell: (e) => quem(e) },
        { label: 'Tipo', cell: (e) => ENCOMENDA_TIPOS[e.tipo] ?? e.tipo },
        { label: 'Remetente', cell: (e) => e.remetente ?? '—' },
        { label: 'Observação', cell: (e) => e.observacao ?? '—' },
        { label: 'Ações', cell: (e) => acoes(e, quem(e)) },
      ],
    }));
  }

  function acoes(e, quem) {
    const coisa = oQue(e);
    const quando = `chegou ${haQuantoTempo(e.registradaEm)}`;
    const nota = e.observacao ? ` Observação: ${e.observacao}.` : '';
    const entregar = botaoQueConfirma({
      texto: 'Entregar',
      oculto: `${coisa} a ${quem}`,
      principal: true,
      attrs: { dataset: { acao: 'entregar' } },
      dialogo: {
        title: 'Entregar ao membro?',
        body: [`${comMaiuscula(coisa)} para ${quem}, ${quando}.${nota}`, 'Confirme quando o membro (ou quem ele autorizou) estiver retirando.'],
        confirmText: 'Entregar',
        cancelText: 'Voltar',
        danger: false,
      },
      ocupado: 'Registrando…',
      acao: () => agindo(() => acaoDe(e.id, 'retirada').run(`/api/admin/encomendas/${encodeURIComponent(e.id)}/retirada`)),
      depois: () => {
        flash(`Entregue a ${quem}: ${coisa}.`, 'sucesso');
        depoisDe(e, 'entregar');
      },
    });
    const cancelar = botaoQueConfirma({
      texto: 'Cancelar',
      oculto: `o registro: ${coisa} para ${quem}`,
      attrs: { dataset: { acao: 'cancelar' } },
      dialogo: {
        title: 'Cancelar este registro?',
        body: [`${comMaiuscula(coisa)} para ${quem}, ${quando}.${nota}`,
          'Só para um registro feito por engano: sai da lista da recepção, e o membro o vê como cancelado.'],
        confirmText: 'Cancelar registro',
        cancelText: 'Manter',
      },
      ocupado: 'Cancelando…',
      acao: () => agindo(() => acaoDe(e.id, 'cancelamento').run(`/api/admin/encomendas/${encodeURIComponent(e.id)}/cancelamento`)),
      depois: () => {
        flash('Registro cancelado.', 'sucesso');
        depoisDe(e, 'cancelar');
      },
    });
    return h('div', { class: 'row-actions' }, entregar, cancelar);
  }

  /** Runs an action's request with the section's refresh held. */
  async function agindo(run) {
    acting += 1;
    try {
      return await run();
    } finally {
      acting -= 1;
    }
  }

  /** After a hand-over or a cancellation the row goes: the focus moves to the same action of the next one. */
  function depoisDe(e, acao) {
    const linhas = [...lista.querySelectorAll('tr[data-encomenda]')];
    const indice = linhas.findIndex((tr) => tr.dataset.encomenda === e.id);
    const request = pedido = buscar(unidade);
    acting += 1;
    request.then((dia) => {
      if (pedido !== request || signal.aborted) return;
      desenhar(dia);
      replace(status);
      devolverFoco({ encomenda: null, acao, indice: Math.max(0, indice) });
    }).catch((error) => {
      if (error?.name === 'AbortError' || signal.aborted || pedido !== request) return;
      lista.querySelector(`tr[data-encomenda="${CSS.escape(e.id)}"]`)?.remove();
      status.textContent = 'Não foi possível atualizar a lista agora; tentaremos de novo.';
    }).finally(() => { acting -= 1; });
  }

  /** The focused button of the list, to find again once the list is drawn anew. */
  function chaveDoFoco() {
    const el = document.activeElement;
    if (!el || !lista.contains(el)) return null;
    const tr = el.closest('tr[data-encomenda]');
    const linhas = [...lista.querySelectorAll('tr[data-encomenda]')];
    return { encomenda: tr?.dataset.encomenda ?? null, acao: el.dataset?.acao ?? null, indice: tr ? linhas.indexOf(tr) : 0 };
  }

  function devolverFoco(chave) {
    if (!chave) return;
    const linhas = [...lista.querySelectorAll('tr[data-encomenda]')];
    const tr = (chave.encomenda && lista.querySelector(`tr[data-encomenda="${CSS.escape(chave.encomenda)}"]`))
      || linhas[Math.min(chave.indice, linhas.length - 1)] || null;
    const alvo = (chave.acao && tr?.querySelector(`[data-acao="${CSS.escape(chave.acao)}"]`)) || tr?.querySelector('button') || listaTitulo;
    alvo.focus({ preventScroll: true });
  }

  return { node, mostrar };
}
