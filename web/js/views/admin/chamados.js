// The front desk's help desk, a section of "Reservas do dia" for the chosen unit (not for a day):
// the problems members reported there and that are still open, the oldest first, each with the
// member's name, what it is about, its subject, how long ago it was opened and whose turn it is.
// Its subject opens the conversation, with "Responder" (the member is told) and "Resolver" (after
// a confirmation). The section loads on its own: a failure here leaves the rest of the page; the
// page's 15 s refresh renews it in place, so the focus and what is typed in a reply box stay (a
// request resolved meanwhile while a reply is being written stays on screen, saying so).

import { Action, api } from '../../lib/api.js';
import { h, replace, uid } from '../../lib/dom.js';
import { CHAMADO_CATEGORIAS, vezDoChamado } from '../../lib/labels.js';
import { dateTime, deadline, haQuantoTempo, time } from '../../lib/format.js';
import { showLoading, doneLoading, errorBox, badge, field, onSubmit, val, flash } from '../../lib/ui.js';
import { botaoQueConfirma } from './comum.js';
import { conversa } from '../chamados.js';

const chave = (id) => String(id ?? '').toLowerCase();

/**
 * chamados({signal, nomes}) → {node, mostrar(unidade)}
 *
 * `nomes` is the page's nomesDePessoas() (the team's names in the conversations). `mostrar` shows
 * the unit's ({id, nome, fusoHorario}) open requests: with a loading state for a new unit (or
 * after a failure), else in place, each request's card kept with its reply box.
 */
export function chamados({ signal, nomes }) {
  let unidade = null;
  let mostrada = null; // the unit whose list is on screen
  let pedido = null; // the latest request: an older answer is dropped
  let acting = 0;
  let acoesFeitas = 0; // a refresh asked before an action ended would draw the request as it was
  const cartoes = new Map(); // request id → its card, kept across refreshes
  // One Action per request and act, kept across the refreshes: a reply sent again after a lost
  // answer is the same request (its key), not a second message.
  const pedidosPorItem = new Map();
  const acaoDe = (id, ato) => {
    const k = `${chave(id)}|${ato}`;
    if (!pedidosPorItem.has(k)) pedidosPorItem.set(k, new Action());
    return pedidosPorItem.get(k);
  };

  const tituloId = uid('chamados');
  const listaId = uid('chamados-lista');
  const lead = h('p', { class: 'small help-desk__lead' });
  const status = h('p', { class: 'small help-desk__status', 'aria-live': 'polite' });
  const listaTitulo = h('h3', { id: listaId, tabindex: '-1' }, 'Abertos');
  const lista = h('div', { class: 'help-desk__list' });
  const node = h('section', { class: 'help-desk', 'aria-labelledby': tituloId },
    h('h2', { id: tituloId }, 'Chamados'),
    lead,
    h('div', { class: 'help-desk__head' }, listaTitulo, status),
    lista);

  async function buscar(u) {
    const resposta = await api('/api/admin/chamados', { query: { unidade: u.id, situacao: 'abertos' }, signal });
    const itens = resposta?.itens ?? [];
    const daEquipe = itens.flatMap((c) => (c.mensagens ?? []).filter((m) => m.daEquipe).map((m) => m.por));
    return { unidade: u, itens, equipe: await nomes.todos(daEquipe) };
  }

  /**
   * Shows the unit's open requests. A new unit (or a list that failed to load) gets a loading
   * state; the same unit (another day of the page, the refresh) is renewed in place, unless an
   * action of the section is under way.
   */
  function mostrar(u) {
    unidade = u;
    lead.textContent = `Problemas que os membros relataram em ${u.nome} e que seguem abertos, do mais antigo para o mais recente. O membro é avisado de cada resposta.`;
    if (mostrada?.id !== u.id) {
      carregar(u);
      return;
    }
    if (acting > 0) return;
    const feitas = acoesFeitas;
    const request = pedido = buscar(u);
    request.then((dados) => {
      if (pedido !== request || signal.aborted || acting > 0 || feitas !== acoesFeitas) return;
      desenhar(dados);
      replace(status);
    }).catch((error) => {
      if (error?.name === 'AbortError' || signal.aborted || pedido !== request) return;
      status.textContent = `Não foi possível atualizar os chamados agora (${time(new Date().toISOString(), u.fusoHorario)}); tentaremos de novo.`;
    });
  }

  /** The list with its loading state, or the error with "Tentar de novo"; an older answer is dropped. */
  function carregar(u) {
    mostrada = null;
    cartoes.clear();
    replace(status);
    const request = pedido = buscar(u);
    showLoading(lista, 'Carregando os chamados…');
    request.then((dados) => {
      if (pedido !== request || signal.aborted) return;
      doneLoading(lista);
      replace(lista);
      mostrada = u;
      desenhar(dados);
    }, (error) => {
      if (error?.name === 'AbortError' || signal.aborted || pedido !== request) return;
      doneLoading(lista);
      replace(lista, errorBox(error, { retry: () => carregar(u) }));
    });
  }

  /**
   * The cards in the list's order, each renewed in place (moved only when the order changed): the
   * focus and the caret come back if a move took them. A request no longer open goes, unless a
   * reply is being written in it.
   */
  function desenhar({ unidade: u, itens, equipe }) {
    const foco = guardarFoco();
    const abertos = new Set(itens.map((c) => chave(c.id)));
    for (const [id, cartao] of cartoes) {
      if (abertos.has(id)) continue;
      if (cartao.rascunho()) cartao.saiu();
      else {
        cartao.li.remove();
        cartoes.delete(id);
      }
    }
    const ordem = itens.map((c) => {
      const id = chave(c.id);
      if (!cartoes.has(id)) cartoes.set(id, novoCartao(c.id));
      const cartao = cartoes.get(id);
      cartao.atualizar(c, u.fusoHorario, equipe);
      return cartao.li;
    });
    for (const [id, cartao] of cartoes) if (!abertos.has(id)) ordem.push(cartao.li);
    node.dataset.atualizadoEm = String(Date.now());
    if (!ordem.length) {
      if (!lista.querySelector(':scope > .empty')) replace(lista, h('p', { class: 'empty' }, 'Nenhum chamado aberto nesta unidade.'));
      devolverFoco(foco);
      return;
    }
    let ol = lista.querySelector(':scope > ol.tickets');
    if (!ol) {
      ol = h('ol', { class: 'tickets', 'aria-labelledby': listaId });
      replace(lista, ol);
    }
    ordem.forEach((li, i) => {
      if (ol.children[i] !== li) ol.insertBefore(li, ol.children[i] ?? null);
    });
    while (ol.children.length > ordem.length) ol.lastElementChild.remove();
    devolverFoco(foco);
  }

  function guardarFoco() {
    const el = document.activeElement;
    if (!el || !lista.contains(el)) return null;
    let caret = null;
    try {
      caret = [el.selectionStart ?? null, el.selectionEnd ?? null];
    } catch { /* not a text control */ }
    const li = el.closest('[data-chamado]');
    const indice = li ? [...lista.querySelectorAll('[data-chamado]')].indexOf(li) : 0;
    return { el, caret, indice };
  }

  /** The same control, the caret where it was; its card gone, the next card's subject (else the list's title). */
  function devolverFoco(foco) {
    if (!foco || document.activeElement === foco.el) return;
    if (foco.el.isConnected) {
      foco.el.focus({ preventScroll: true });
      try {
        if (foco.caret?.[0] !== null && foco.caret?.[0] !== undefined) foco.el.setSelectionRange(...foco.caret);
      } catch { /* nothing to set */ }
      return;
    }
    const li = [...lista.querySelectorAll('[data-chamado]')];
    const alvo = li[Math.min(foco.indice, li.length - 1)]?.querySelector('.ticket__toggle') ?? listaTitulo;
    alvo.focus({ preventScroll: true });
  }

  /** Runs an action's request with the section's refresh held. */
  async function agindo(run) {
    acting += 1;
    try {
      return await run();
    } finally {
      acting -= 1;
      acoesFeitas += 1;
    }
  }

  // ---- a request's card ------------------------------------------------------------------------------

  /**
   * A card built once per request and renewed by `atualizar(c, tz, equipe)`: its subject (the
   * button that opens the conversation), whose turn it is, the member, the category, since when;
   * the conversation, the reply box ("Responder") and "Resolver".
   */
  function novoCartao(id) {
    let c = null;
    let fuso;
    const conversaId = uid('chamado-conversa');
    const toggle = h('button', { type: 'button', class: 'ticket__toggle', 'aria-expanded': 'false', 'aria-controls': conversaId });
    const meta = h('p', { class: 'ticket__meta small' });
    const mensagens = h('div');
    const fora = h('p', { class: 'alert alert--info ticket__gone', hidden: true },
      'Este chamado não está mais entre os abertos: foi resolvido. A resposta que você escrevia não foi enviada; ela fica aqui até você apagá-la.');
    const texto = field({ label: 'Resposta ao membro', name: 'texto', type: 'textarea', attrs: { maxlength: '2000', rows: '3' } });
    const caixa = texto.querySelector('textarea');
    const oculto = h('span', { class: 'visually-hidden' });
    const responder = h('button', { type: 'submit', class: 'button button--small', dataset: { acao: 'responder' } }, 'Responder', oculto);
    const acoes = h('div', { class: 'actions' }, responder);
    const form = h('form', { class: 'form ticket__reply', novalidate: true }, texto, acoes);
    const fio = h('div', { class: 'ticket__thread', id: conversaId, hidden: true }, mensagens, fora, form);
    const li = h('li', { class: 'ticket', dataset: { chamado: id } }, h('h4', { class: 'ticket__title' }, toggle), meta, fio);
    let resolver = null;

    toggle.addEventListener('click', () => {
      const abrir = toggle.getAttribute('aria-expanded') !== 'true';
      toggle.setAttribute('aria-expanded', String(abrir));
      fio.hidden = !abrir;
    });

    onSubmit(form, async () => {
      const atual = c;
      const enviado = await agindo(() => acaoDe(atual.id, 'mensagem')
        .run(`/api/chamados/${encodeURIComponent(atual.id)}/mensagens`, { body: { texto: val(form, 'texto') } }));
      caixa.value = '';
      flash(`Resposta enviada a ${autorDe(atual)}; o membro foi avisado.`, 'sucesso');
      // The answer is the request as it now stands: drawn at once, the team's names asked as needed.
      const equipe = await nomes.todos((enviado.mensagens ?? []).filter((m) => m.daEquipe).map((m) => m.por)).catch(() => new Map());
      atualizar(enviado, unidade?.fusoHorario, equipe);
    }, { busyText: 'Enviando…' });

    function autorDe(x) {
      return x?.autor ?? 'o membro';
    }

    function atualizar(novo, tz, equipe) {
      const primeira = c === null;
      c = novo;
      fuso = tz;
      const autor = c.autor ?? '—';
      toggle.textContent = c.assunto ?? '—';
      const [vez, kind] = vezDoChamado(c);
      li.dataset.aguardando = c.aguardando ?? '';
      li.className = `ticket ticket--${c.aguardando ?? 'equipe'}`;
      replace(meta,
        badge(vez, kind),
        h('span', { class: 'ticket__who' }, autor),
        h('span', {}, CHAMADO_CATEGORIAS[c.categoria] ?? c.categoria),
        h('span', {}, `Aberto ${haQuantoTempo(c.abertoEm)} (${deadline(c.abertoEm, tz)})`),
        c.mensagens?.length ? h('span', {}, c.mensagens.length === 1 ? '1 mensagem' : `${c.mensagens.length} mensagens`) : null);
      const nomeDaEquipe = (m) => {
        const nome = equipe?.get(chave(m.por));
        return nome ? `Equipe (${nome})` : 'Equipe';
      };
      replace(mensagens, conversa(c, { tz, autor: c.autor ?? 'Membro', equipe: nomeDaEquipe }));
      oculto.textContent = ` a ${autor}: ${c.assunto ?? ''}`;
      fora.hidden = true;
      responder.disabled = false;
      if (primeira) {
        resolver = botaoDeResolver();
        acoes.append(resolver);
      }
      resolver.hidden = false;
    }

    function botaoDeResolver() {
      return botaoQueConfirma({
        texto: 'Resolver',
        oculto: `o chamado “${c.assunto ?? ''}” de ${c.autor ?? 'um membro'}`,
        attrs: { dataset: { acao: 'resolver' } },
        dialogo: {
          title: 'Marcar o chamado como resolvido?',
          body: [`“${c.assunto ?? '—'}” — ${c.autor ?? 'membro'}, ${CHAMADO_CATEGORIAS[c.categoria] ?? c.categoria}, aberto em ${dateTime(c.abertoEm, fuso)}.`,
            'Ele sai da lista de abertos e o membro é avisado. Se o membro responder, o chamado é reaberto.'],
          confirmText: 'Resolver',
          cancelText: 'Voltar',
          danger: false,
        },
        ocupado: 'Resolvendo…',
        acao: () => agindo(() => acaoDe(c.id, 'resolucao').run(`/api/chamados/${encodeURIComponent(c.id)}/resolucao`)),
        depois: () => {
          flash(`Chamado resolvido: “${c.assunto ?? '—'}”. O membro foi avisado.`, 'sucesso');
          depoisDeResolver(c.id);
        },
      });
    }

    return {
      li,
      atualizar,
      /** Whether a reply is being written in it. */
      rascunho: () => caixa.value.trim() !== '',
      /** No longer open (resolved elsewhere) while a reply was being written: said, and nothing to send. */
      saiu() {
        meta.querySelector('.badge')?.replaceWith(badge('Resolvido', 'sucesso'));
        li.className = 'ticket ticket--resolvido';
        fora.hidden = false;
        responder.disabled = true;
        if (resolver) resolver.hidden = true;
      },
    };
  }

  /** A resolved request leaves the list: the focus moves to the next one's subject (else the list's title). */
  function depoisDeResolver(id) {
    const cartao = cartoes.get(chave(id));
    const todos = [...lista.querySelectorAll('[data-chamado]')];
    const indice = Math.max(0, todos.indexOf(cartao?.li));
    cartao?.li.remove();
    cartoes.delete(chave(id));
    const resto = [...lista.querySelectorAll('[data-chamado]')];
    if (!resto.length) replace(lista, h('p', { class: 'empty' }, 'Nenhum chamado aberto nesta unidade.'));
    const alvo = resto[Math.min(indice, resto.length - 1)]?.querySelector('.ticket__toggle') ?? listaTitulo;
    alvo.focus({ preventScroll: true });
    if (unidade) mostrar(unidade);
  }

  return { node, mostrar };
}
