// My help-desk requests ("chamados"): the member reports a problem at a unit (the unit, what it
// is about, a subject and what happened), and follows each request: the open ones (the oldest
// first) and the resolved ones (the latest first), each with where it stands ("Aguardando a
// equipe", "Respondido pela equipe", "Resolvido") and, opened, its conversation: the description,
// then each message ("Você" or "Equipe") with its time, a reply box and "Marcar como resolvido".
// A reply to a resolved request reopens it. The front desk answers in "Reservas do dia"
// (admin/chamados.js); each answer reaches the member's inbox, which links here.

import { api, Action } from '../lib/api.js';
import { unidadesPorNome } from '../lib/catalog.js';
import { h, replace } from '../lib/dom.js';
import { CHAMADO_CATEGORIAS, situacaoDoChamado } from '../lib/labels.js';
import { DEFAULT_TZ, dateTime, haQuantoTempo } from '../lib/format.js';
import {
  pageHeader, loadInto, badge, field, onSubmit, val, fieldError, confirmDialog, busy, flash, errorBox, announce,
} from '../lib/ui.js';

const chave = (id) => String(id ?? '').toLowerCase();

/**
 * A request's conversation: the description (its author's first words, when it was opened), then
 * each message with who wrote it and when. `autor` names the member ("Você", or their name at
 * the desk); `equipe(m)` names a message of the team. Texts of an erased account read "—".
 */
export function conversa(c, { tz, autor, equipe = () => 'Equipe' }) {
  const mensagem = (classe, quem, acao, em, texto) => h('li', { class: `thread__msg thread__msg--${classe}` },
    h('p', { class: 'thread__who' },
      h('strong', {}, quem), acao ? ` ${acao}` : '', ' · ', h('time', { datetime: em }, dateTime(em, tz))),
    h('p', { class: 'thread__text' }, texto ?? '—'));
  return h('ol', { class: 'thread' },
    mensagem('membro', autor, 'abriu o chamado', c.abertoEm, c.descricao),
    (c.mensagens ?? []).map((m) => (m.daEquipe
      ? mensagem('equipe', equipe(m), '', m.em, m.texto)
      : mensagem('membro', autor, '', m.em, m.texto))));
}

export async function render({ container, query, signal }) {
  replace(container, pageHeader('Meus chamados',
    'Algo não está funcionando na unidade (internet, limpeza, ar-condicionado, impressora)? Abra um chamado: a equipe responde aqui, e avisamos você de cada resposta.'));
  const formBox = h('div');
  const lists = h('div', { class: 'tickets-page' });
  container.append(formBox, lists);

  let unidades;
  try {
    unidades = await unidadesPorNome();
  } catch (error) {
    if (error?.name !== 'AbortError' && !signal.aborted) replace(formBox, errorBox(error));
    return;
  }
  if (signal.aborted) return;
  const porId = new Map(unidades.map((u) => [chave(u.id), u]));
  const unidadeDe = (c) => porId.get(chave(c.unidadeId));
  const nomeDaUnidade = (c) => unidadeDe(c)?.nome ?? `Unidade ${String(c.unidadeId).slice(0, 8)}`;
  const tzDe = (c) => unidadeDe(c)?.fusoHorario ?? DEFAULT_TZ;

  let estado = null; // {abertos, resolvidos}, as shown
  let primeira = true;
  const expandidos = new Set(); // the requests whose conversation is open
  const rascunhos = new Map(); // what is typed in a reply box, kept when the lists are drawn again
  // One Action per request and act: a reply sent again after a lost answer is the same request.
  const pedidos = new Map();
  const acaoDe = (id, ato) => {
    const k = `${chave(id)}|${ato}`;
    if (!pedidos.has(k)) pedidos.set(k, new Action());
    return pedidos.get(k);
  };

  if (unidades.length) formBox.append(formulario());
  else formBox.append(h('p', { class: 'empty' }, 'Nenhuma unidade cadastrada ainda.'));
  carregar();

  // ---- opening a request ---------------------------------------------------------------------------

  function formulario() {
    // One unit is chosen for the member; among several, they say which (or the address does).
    const sugerida = unidades.find((u) => chave(u.id) === chave(query.get('unidade')))?.id
      ?? (unidades.length === 1 ? unidades[0].id : '');
    const opcoesDeUnidade = unidades.map((u) => [u.id, u.nome]);
    if (unidades.length > 1) opcoesDeUnidade.unshift(['', 'Escolha a unidade']);
    const form = h('form', { class: 'form panel help-form', novalidate: true, 'aria-labelledby': 'novo-chamado' },
      h('h2', { id: 'novo-chamado' }, 'Abrir um chamado'),
      h('div', { class: 'form__row' },
        field({ label: 'Unidade', name: 'unidadeId', type: 'select', value: sugerida, options: opcoesDeUnidade }),
        field({
          label: 'Categoria', name: 'categoria', type: 'select', value: '',
          options: [['', 'Escolha a categoria'], ...Object.entries(CHAMADO_CATEGORIAS)],
        })),
      field({
        label: 'Assunto', name: 'assunto', required: true, hint: 'Em poucas palavras, por exemplo “A internet caiu na sala 3”.',
        attrs: { autocomplete: 'off', maxlength: '120' },
      }),
      field({
        label: 'Descrição', name: 'descricao', type: 'textarea', required: true,
        hint: 'O que aconteceu, onde (a sala, o andar) e desde quando.', attrs: { maxlength: '2000', rows: '4' },
      }),
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'button' }, 'Abrir chamado')));

    // The same request sent again (a double click, a retry after a lost answer) opens one request.
    const action = new Action();
    onSubmit(form, async () => {
      const unidadeId = val(form, 'unidadeId');
      const categoria = val(form, 'categoria');
      if (!unidadeId) return fieldError(form, 'unidadeId', 'Escolha a unidade onde está o problema.');
      if (!categoria) return fieldError(form, 'categoria', 'Escolha a categoria do problema.');
      const body = { unidadeId, categoria, assunto: val(form, 'assunto'), descricao: val(form, 'descricao') };
      const chamado = await action.run('/api/chamados', { body });
      for (const nome of ['categoria', 'assunto', 'descricao']) form.elements.namedItem(nome).value = '';
      flash(`Chamado aberto: “${chamado.assunto ?? body.assunto}”. A equipe de ${nomeDaUnidade(chamado)} responde aqui, e avisamos você de cada resposta.`, 'sucesso');
      aplicar(chamado, { foco: 'titulo' });
      return undefined;
    }, { busyText: 'Abrindo…' });
    return form;
  }

  // ---- the lists -------------------------------------------------------------------------------------

  function carregar(foco = null) {
    loadInto(lists, () => api('/api/chamados', { signal }), (resposta) => {
      estado = { abertos: [...(resposta?.abertos ?? [])], resolvidos: [...(resposta?.resolvidos ?? [])] };
      // The team's answers are what the member came for: those conversations start open.
      if (primeira) estado.abertos.filter((c) => c.aguardando === 'membro').forEach((c) => expandidos.add(chave(c.id)));
      primeira = false;
      desenhar(foco);
      const n = estado.abertos.length;
      const respondidos = estado.abertos.filter((c) => c.aguardando === 'membro').length;
      announce(`${n} ${n === 1 ? 'chamado aberto' : 'chamados abertos'}${respondidos ? `, ${respondidos} ${respondidos === 1 ? 'respondido' : 'respondidos'} pela equipe` : ''}`);
    }, { signal, text: 'Carregando seus chamados…' });
  }

  /** A request the API answered (opened, replied to, resolved) takes its place in the lists. */
  function aplicar(c, { foco } = {}) {
    if (!estado) { carregar({ id: c.id, alvo: foco }); return; }
    const outro = (x) => chave(x.id) !== chave(c.id);
    estado.abertos = estado.abertos.filter(outro);
    estado.resolvidos = estado.resolvidos.filter(outro);
    (c.situacao === 'resolvido' ? estado.resolvidos : estado.abertos).push(c);
    expandidos.add(chave(c.id));
    desenhar({ id: c.id, alvo: foco });
  }

  function desenhar(foco = null) {
    lists.querySelectorAll('[data-chamado] textarea[name=texto]').forEach((el) => {
      const id = el.closest('[data-chamado]').dataset.chamado;
      if (el.value) rascunhos.set(chave(id), el.value);
      else rascunhos.delete(chave(id));
    });
    const abertos = [...estado.abertos].sort((a, b) => Date.parse(a.abertoEm) - Date.parse(b.abertoEm));
    const quando = (c) => Date.parse(c.resolvidoEm ?? c.atualizadoEm ?? c.abertoEm);
    const resolvidos = [...estado.resolvidos].sort((a, b) => quando(b) - quando(a));
    replace(lists,
      h('section', { class: 'tickets__section', 'aria-labelledby': 'chamados-abertos' },
        h('h2', { id: 'chamados-abertos' }, 'Abertos'),
        abertos.length
          ? h('ol', { class: 'tickets', 'aria-label': 'Chamados abertos, do mais antigo para o mais recente' }, abertos.map(cartao))
          : h('p', { class: 'empty' }, 'Nenhum chamado aberto. Se algo não estiver funcionando na unidade, abra um chamado acima.')),
      h('section', { class: 'tickets__section', 'aria-labelledby': 'chamados-resolvidos' },
        h('h2', { id: 'chamados-resolvidos' }, 'Resolvidos'),
        resolvidos.length
          ? h('ol', { class: 'tickets', 'aria-label': 'Chamados resolvidos, do mais recente para o mais antigo' }, resolvidos.map(cartao))
          : h('p', { class: 'empty' }, 'Nenhum chamado resolvido ainda.')));
    if (foco) focar(foco);
  }

  function focar({ id, alvo }) {
    const li = lists.querySelector(`[data-chamado="${CSS.escape(id)}"]`);
    if (!li) return;
    let el = li.querySelector('.ticket__toggle');
    if (alvo === 'ultima') {
      el = [...li.querySelectorAll('.thread__msg')].pop() ?? el;
      el.setAttribute('tabindex', '-1');
    }
    el.focus();
  }

  /** A request: its subject (which opens its conversation), where it stands, what, where and when. */
  function cartao(c) {
    const id = chave(c.id);
    const tz = tzDe(c);
    const aberto = expandidos.has(id);
    const conversaId = `chamado-${id}-conversa`;
    const [situacao, kind] = situacaoDoChamado(c);
    const toggle = h('button', {
      type: 'button', class: 'ticket__toggle', 'aria-expanded': String(aberto), 'aria-controls': conversaId,
    }, c.assunto ?? '—');
    const fio = h('div', { class: 'ticket__thread', id: conversaId, hidden: !aberto },
      conversa(c, { tz, autor: 'Você' }),
      c.situacao === 'resolvido' && c.resolvidoEm
        ? h('p', { class: 'ticket__resolved small' },
          `Resolvido ${chave(c.resolvidoPor) === chave(c.usuarioId) ? 'por você' : 'pela equipe'} em ${dateTime(c.resolvidoEm, tz)}.`)
        : null,
      resposta(c));
    toggle.addEventListener('click', () => {
      const abrir = toggle.getAttribute('aria-expanded') !== 'true';
      toggle.setAttribute('aria-expanded', String(abrir));
      fio.hidden = !abrir;
      if (abrir) expandidos.add(id);
      else expandidos.delete(id);
    });
    return h('li', { class: `ticket ticket--${c.situacao === 'resolvido' ? 'resolvido' : c.aguardando ?? 'equipe'}`, dataset: { chamado: c.id, situacao: c.situacao } },
      h('h3', { class: 'ticket__title' }, toggle),
      h('p', { class: 'ticket__meta small' },
        badge(situacao, kind),
        h('span', {}, CHAMADO_CATEGORIAS[c.categoria] ?? c.categoria),
        h('span', {}, nomeDaUnidade(c)),
        h('span', {}, `Aberto em ${dateTime(c.abertoEm, tz)} (${haQuantoTempo(c.abertoEm)})`)),
      fio);
  }

  /** The reply box (a reply to a resolved request reopens it) and, while open, "Marcar como resolvido". */
  function resposta(c) {
    const resolvido = c.situacao === 'resolvido';
    const form = h('form', { class: 'form ticket__reply', novalidate: true },
      field({
        label: 'Sua resposta', name: 'texto', type: 'textarea', value: rascunhos.get(chave(c.id)) ?? '',
        hint: resolvido ? 'O problema voltou? Responder reabre o chamado, que volta para a equipe.' : null,
        attrs: { maxlength: '2000', rows: '3' },
      }),
      h('div', { class: 'actions' },
        h('button', { type: 'submit', class: 'button' }, resolvido ? 'Responder e reabrir' : 'Enviar resposta',
          h('span', { class: 'visually-hidden' }, ` no chamado “${c.assunto ?? ''}”`)),
        resolvido ? null : resolver(c)));
    onSubmit(form, async () => {
      const texto = val(form, 'texto');
      const atualizado = await acaoDe(c.id, 'mensagem').run(`/api/chamados/${encodeURIComponent(c.id)}/mensagens`, { body: { texto } });
      form.elements.namedItem('texto').value = '';
      rascunhos.delete(chave(c.id));
      flash(resolvido && atualizado.situacao !== 'resolvido'
        ? 'Resposta enviada: o chamado foi reaberto e voltou para a equipe.'
        : 'Resposta enviada à equipe.', 'sucesso');
      aplicar(atualizado, { foco: 'ultima' });
    }, { busyText: 'Enviando…' });
    return form;
  }

  function resolver(c) {
    const button = h('button', { type: 'button', class: 'button button--secondary' }, 'Marcar como resolvido',
      h('span', { class: 'visually-hidden' }, ` o chamado “${c.assunto ?? ''}”`));
    button.addEventListener('click', async () => {
      button.parentElement.querySelector('.alert')?.remove();
      const ok = await confirmDialog({
        title: 'Marcar como resolvido?',
        body: [`“${c.assunto ?? '—'}” (${CHAMADO_CATEGORIAS[c.categoria] ?? c.categoria}, ${nomeDaUnidade(c)}).`,
          'O chamado sai dos abertos. Se o problema voltar, responda nele: ele é reaberto.'],
        confirmText: 'Marcar como resolvido',
        cancelText: 'Voltar',
      });
      if (!ok) return;
      const restore = busy(button, 'Registrando…');
      try {
        const atualizado = await acaoDe(c.id, 'resolucao').run(`/api/chamados/${encodeURIComponent(c.id)}/resolucao`);
        flash('Chamado marcado como resolvido.', 'sucesso');
        aplicar(atualizado, { foco: 'titulo' });
      } catch (error) {
        if (error?.name === 'AbortError') return;
        restore();
        button.parentElement.append(errorBox(error));
      }
    });
    return button;
  }
}
