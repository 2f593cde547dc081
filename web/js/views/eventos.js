// Community events ("Eventos"; "encontro" in the API): the talks, workshops and happy hours the
// team publishes at the units. The member sees the coming ones (the soonest first; of one unit,
// when there are several) or the past ones (the latest first), each with when (in its unit's
// zone), where, what, how many places are taken and where the member stands, and signs up ("Quero
// ir": a place while there is one, else "Entrar na lista de espera"), gives up their place or
// leaves the waiting list (after a confirmation: a place given up goes to the first who waits).
// A cancelled event says so, with the team's reason, and offers nothing. The team publishes and
// follows them on its own page (admin/eventos.js); a place, a place freed from the waiting list
// and a cancellation reach the member's inbox, which links here.

import { api, allPages, Action } from '../lib/api.js';
import { unidadesPorNome } from '../lib/catalog.js';
import { h, replace, uid } from '../lib/dom.js';
import { session } from '../lib/session.js';
import { situacaoDoEncontro, vagasDoEncontro, encontroIniciado, encontroLotado } from '../lib/labels.js';
import { DEFAULT_TZ, dateLong, dateTime, localDate, time, zoneLabel } from '../lib/format.js';
import { pageHeader, loadInto, cargaNova, badge, field, confirmDialog, busy, flash, errorBox, announce } from '../lib/ui.js';

const chave = (id) => String(id ?? '').toLowerCase();

/** People a full event's waiting list holds (the server's `Encontro.esperaMaxima`). */
const ESPERA_MAXIMA = 50;

/**
 * When an event happens in its unit's zone: "terça-feira, 8 de dezembro de 2026, das 18:00 às
 * 20:00"; across midnight, both dates ("08/12/2026, 22:00 até 09/12/2026, 02:00").
 */
export function quandoDoEncontro(e, tz = DEFAULT_TZ) {
  const inicio = Date.parse(e.inicio);
  const fim = Date.parse(e.fim);
  if (localDate(inicio, tz) === localDate(fim - 1, tz)) {
    return `${dateLong(localDate(inicio, tz))}, das ${time(e.inicio, tz)} às ${time(e.fim, tz)}`;
  }
  return `${dateTime(e.inicio, tz)} até ${dateTime(e.fim, tz)}`;
}

/** "Auditório, 2º andar — CoworkFlow Paulista", or the unit alone when no place was given. */
export function ondeEncontro(e, nomeDaUnidade) {
  return e.local ? `${e.local} — ${nomeDaUnidade}` : nomeDaUnidade;
}

/**
 * Where the event stands and how many places are taken: a full event still open says both in one
 * badge ("Lotado — 2 na lista de espera"); a cancelled one, only that (its people were let go).
 */
export function selosDoEncontro(e, situacao, kind) {
  if (e.cancelado) return badge(situacao, kind);
  if (encontroLotado(e) && !encontroIniciado(e)) return badge(vagasDoEncontro(e), 'aviso');
  return [badge(situacao, kind), h('span', { class: 'event__places' }, vagasDoEncontro(e))];
}

/** The member's own sign-up: the API's, or (for someone of the team, who reads the names) theirs among them. */
function minha(e) {
  if (e.minhaInscricao || !e.inscritos) return { situacao: e.minhaInscricao ?? null, posicao: e.posicaoNaEspera ?? null };
  const eu = chave(session.usuario?.id);
  if (e.inscritos.some((p) => chave(p.usuarioId) === eu)) return { situacao: 'confirmada', posicao: null };
  const i = (e.espera ?? []).findIndex((p) => chave(p.usuarioId) === eu);
  return i >= 0 ? { situacao: 'espera', posicao: i + 1 } : { situacao: null, posicao: null };
}

export async function render({ container, query, setQuery, signal }) {
  replace(container, pageHeader('Eventos',
    'Palestras, oficinas e encontros da comunidade nas unidades. Inscreva-se: quando as vagas acabam, você entra na lista de espera e avisamos se abrir uma vaga.'));
  const controls = h('div', { class: 'events__controls' });
  const lista = h('section', { class: 'events-page', 'aria-labelledby': 'eventos-lista' });
  container.append(controls, lista);

  let unidades;
  try {
    unidades = await unidadesPorNome();
  } catch (error) {
    if (error?.name !== 'AbortError' && !signal.aborted) replace(controls, errorBox(error));
    return;
  }
  if (signal.aborted) return;
  const porId = new Map(unidades.map((u) => [chave(u.id), u]));
  const unidadeDe = (e) => porId.get(chave(e.unidadeId));
  const nomeDaUnidade = (e) => unidadeDe(e)?.nome ?? `Unidade ${String(e.unidadeId).slice(0, 8)}`;
  const tzDe = (e) => unidadeDe(e)?.fusoHorario ?? DEFAULT_TZ;

  let unidade = porId.has(chave(query.get('unidade'))) ? porId.get(chave(query.get('unidade'))).id : '';
  let periodo = query.get('periodo') === 'passados' ? 'passados' : 'proximos';
  let itens = [];
  let carga = null; // the list's load in flight (the next one aborts it)
  let zonaUnica = null; // the one zone of every event shown (said once), else each card says its own
  // One Action per event and act: a sign-up sent again after a lost answer is the same request.
  const pedidos = new Map();
  const acaoDe = (id, ato) => {
    const k = `${chave(id)}|${ato}`;
    if (!pedidos.has(k)) pedidos.set(k, new Action());
    return pedidos.get(k);
  };

  // ---- the unit and the period -----------------------------------------------------------------------

  if (unidades.length > 1) {
    const unidadeField = field({
      label: 'Unidade', name: 'unidade', type: 'select', value: unidade,
      options: [['', 'Todas as unidades'], ...unidades.map((u) => [u.id, u.nome])],
    });
    unidadeField.querySelector('select').addEventListener('change', (event) => {
      unidade = event.target.value;
      carregar();
    });
    controls.append(unidadeField);
  }
  const opcao = (valor, texto) => h('button', {
    type: 'button', class: 'button button--secondary view-toggle__option', dataset: { periodo: valor },
    onclick: () => { if (periodo !== valor) { periodo = valor; carregar(); } },
  }, texto);
  const opcoes = [opcao('proximos', 'Próximos'), opcao('passados', 'Passados')];
  controls.append(h('div', { class: 'view-toggle', role: 'group', 'aria-label': 'Eventos a mostrar' }, opcoes));

  carregar();

  function carregar() {
    setQuery({ unidade, periodo: periodo === 'passados' ? 'passados' : '' });
    opcoes.forEach((b) => b.setAttribute('aria-pressed', String(b.dataset.periodo === periodo)));
    // A quick switch of unit or period: only the last answer is drawn.
    carga = cargaNova(carga, signal);
    const sinal = carga.signal;
    // 50 a page: the coming events of a unit rarely fill more than one; four pages at most.
    loadInto(lista, () => allPages('/api/encontros', { query: { unidade, periodo }, signal: sinal, maxPages: 4 }), (todos) => {
      itens = todos ?? [];
      desenhar();
      const n = itens.length;
      announce(periodo === 'passados'
        ? `${n} ${n === 1 ? 'evento passado' : 'eventos passados'}`
        : `${n} ${n === 1 ? 'próximo evento' : 'próximos eventos'}`);
    }, { signal: sinal, text: 'Carregando os eventos…' });
  }

  function desenhar() {
    const onde = unidade ? ` em ${porId.get(chave(unidade))?.nome ?? 'esta unidade'}` : '';
    const zonas = new Set(itens.map(tzDe));
    zonaUnica = zonas.size === 1 ? [...zonas][0] : null;
    replace(lista,
      h('h2', { id: 'eventos-lista' }, periodo === 'passados' ? `Eventos passados${onde}` : `Próximos eventos${onde}`),
      itens.length && zonaUnica ? h('p', { class: 'small events__zone' }, `Horários no ${zoneLabel(zonaUnica)}.`) : null,
      itens.length
        ? h('ol', { class: 'events', 'aria-labelledby': 'eventos-lista' }, itens.map(cartao))
        : h('p', { class: 'empty' }, periodo === 'passados'
          ? `Nenhum evento passado${onde}.`
          : `Nenhum evento programado${onde} por enquanto. Quando a equipe publicar um, ele aparece aqui.`));
  }

  /** An event the API answered (signed up, given up, read again) takes its card's place. */
  function aplicar(e, { foco = true } = {}) {
    const i = itens.findIndex((x) => chave(x.id) === chave(e.id));
    if (i < 0) return null;
    itens[i] = e;
    const antigo = lista.querySelector(`[data-encontro="${CSS.escape(chave(e.id))}"]`);
    const novo = cartao(e);
    antigo?.replaceWith(novo);
    if (foco) (novo.querySelector('.event__actions .button') ?? novo.querySelector('.event__title')).focus();
    return novo;
  }

  // ---- an event's card ---------------------------------------------------------------------------------

  function cartao(e) {
    const tz = tzDe(e);
    const tituloId = uid('evento');
    const { situacao: inscricao, posicao } = minha(e);
    const [situacao, kind] = situacaoDoEncontro(e);
    const encerrado = Date.parse(e.fim) <= Date.now();
    const classe = e.cancelado ? 'cancelado' : encerrado ? 'encerrado' : inscricao ?? 'aberto';
    const mensagem = h('div', { class: 'event__msg' });
    return h('li', { class: `event event--${classe}`, dataset: { encontro: chave(e.id), situacao: classe } },
      h('article', { 'aria-labelledby': tituloId },
        h('h3', { class: 'event__title', id: tituloId, tabindex: '-1' }, e.titulo ?? '—'),
        h('p', { class: 'event__when' },
          h('time', { datetime: e.inicio }, quandoDoEncontro(e, tz)),
          zonaUnica ? '' : ` (${zoneLabel(tz)})`),
        h('p', { class: 'event__where' }, ondeEncontro(e, nomeDaUnidade(e))),
        h('p', { class: 'event__meta' }, selosDoEncontro(e, situacao, kind)),
        e.descricao ? h('p', { class: 'event__desc' }, e.descricao) : null,
        e.cancelado
          ? h('p', { class: 'event__cancel' }, 'A equipe cancelou este evento.',
            e.motivoDoCancelamento ? [' ', h('strong', {}, 'Motivo:'), ` ${e.motivoDoCancelamento}`] : null)
          : null,
        e.cancelado ? null : minhaSituacao(e, inscricao, posicao, encerrado),
        e.cancelado || encerrado ? null : acoes(e, inscricao, posicao, mensagem),
        mensagem));
  }

  /** Where the member stands, in words (nothing when not signed up). */
  function minhaSituacao(e, inscricao, posicao, encerrado) {
    if (inscricao === 'confirmada') {
      return h('p', { class: 'event__mine event__mine--confirmada' }, encerrado ? 'Você estava inscrito(a).' : 'Você está inscrito(a).');
    }
    if (inscricao === 'espera' && !encerrado) {
      return [
        h('p', { class: 'event__mine event__mine--espera' }, `Você está na lista de espera (posição ${posicao ?? '—'}).`),
        h('p', { class: 'small event__hint' }, 'Quando alguém desiste, a vaga vai para quem está primeiro na lista, e avisamos você por e-mail.'),
      ];
    }
    return null;
  }

  /** The one thing the member can do now: sign up, join the waiting list, give up or leave it. */
  function acoes(e, inscricao, posicao, mensagem) {
    if (encontroIniciado(e)) {
      return h('p', { class: 'small event__closed' }, 'O evento já começou: as inscrições se encerraram.');
    }
    const oculto = h('span', { class: 'visually-hidden' }, ` — ${e.titulo ?? ''}`);
    let button;
    if (inscricao === 'confirmada') {
      button = h('button', { type: 'button', class: 'button button--secondary', dataset: { acao: 'desistir' } }, 'Cancelar inscrição', oculto);
      button.addEventListener('click', () => desistir(e, button, mensagem, (atual) => ({
        title: 'Cancelar sua inscrição?',
        body: [`“${e.titulo ?? '—'}” — ${quandoDoEncontro(e, tzDe(e))}, ${nomeDaUnidade(e)}.`,
          (atual.naEspera ?? 0) > 0 ? 'Sua vaga vai para a primeira pessoa da lista de espera.' : 'Sua vaga fica livre para outra pessoa.'],
        confirmText: 'Cancelar inscrição',
      }), 'Cancelando…', `Inscrição cancelada: “${e.titulo ?? '—'}”.`));
    } else if (inscricao === 'espera') {
      button = h('button', { type: 'button', class: 'button button--secondary', dataset: { acao: 'desistir' } }, 'Sair da lista de espera', oculto);
      button.addEventListener('click', () => desistir(e, button, mensagem, (atual) => ({
        title: 'Sair da lista de espera?',
        body: [`“${e.titulo ?? '—'}” — ${quandoDoEncontro(e, tzDe(e))}, ${nomeDaUnidade(e)}.`,
          `Você deixa a posição ${minha(atual).posicao ?? posicao ?? '—'} da lista; se voltar depois, entra no fim dela.`],
        confirmText: 'Sair da lista de espera',
      }), 'Saindo…', `Você saiu da lista de espera de “${e.titulo ?? '—'}”.`));
    } else {
      const cheio = encontroLotado(e);
      if (cheio && (e.naEspera ?? 0) >= ESPERA_MAXIMA) {
        return h('p', { class: 'small event__closed' }, 'Lotado, e a lista de espera também: não há como se inscrever agora.');
      }
      button = h('button', { type: 'button', class: 'button', dataset: { acao: 'inscrever' } },
        cheio ? 'Entrar na lista de espera' : 'Quero ir', oculto);
      button.addEventListener('click', () => inscrever(e, button, mensagem));
    }
    return h('div', { class: 'actions event__actions' }, button);
  }

  async function inscrever(e, button, mensagem) {
    replace(mensagem);
    flash('');
    const restore = busy(button, 'Enviando…');
    try {
      const atualizado = await acaoDe(e.id, 'inscricao').run(`/api/encontros/${encodeURIComponent(e.id)}/inscricao`);
      const { situacao, posicao } = minha(atualizado);
      flash(situacao === 'espera'
        ? `Você entrou na lista de espera de “${atualizado.titulo}” (posição ${posicao ?? '—'}). Se abrir uma vaga para você, avisamos por e-mail.`
        : `Inscrição confirmada: “${atualizado.titulo}”. Enviamos a confirmação por e-mail, com o convite para a sua agenda.`, 'sucesso');
      aplicar(atualizado);
    } catch (error) {
      if (error?.name === 'AbortError') return;
      restore();
      await recusado(e, error, mensagem);
    }
  }

  /**
   * Gives up a place or leaves the waiting list, once confirmed: the dialog (`dialogo(atual)`) says
   * what follows from the event as it stands now (someone may have joined the list since the page
   * was drawn), read again first.
   */
  async function desistir(e, button, mensagem, dialogo, ocupado, sucesso) {
    replace(mensagem);
    flash('');
    // Busy while the event is read again: a second press opens no second dialog.
    const lendo = busy(button, 'Verificando…');
    const atual = await api(`/api/encontros/${encodeURIComponent(e.id)}`, { signal }).catch(() => e);
    if (signal.aborted) return;
    lendo();
    // Where the member stands may have changed since the card was drawn (a place came to them
    // from the waiting list, the team cancelled the event, it began): the card is drawn again as
    // it stands, and nothing is given up that the member did not see.
    if (atual !== e && (minha(atual).situacao !== minha(e).situacao || atual.cancelado || encontroIniciado(atual))) {
      const novo = aplicar(atual, { foco: false });
      const alvo = novo?.querySelector('.event__msg') ?? mensagem;
      replace(alvo, h('p', { class: 'alert alert--info', role: 'status', tabindex: '-1' },
        'Sua situação neste evento mudou desde que a página foi aberta: veja acima como ela está agora.'));
      alvo.querySelector('.alert')?.focus();
      return;
    }
    if (!await confirmDialog({ cancelText: 'Voltar', danger: true, ...dialogo(atual) })) return;
    const restore = busy(button, ocupado);
    try {
      const atualizado = await acaoDe(e.id, 'desistencia')
        .run(`/api/encontros/${encodeURIComponent(e.id)}/inscricao`, { method: 'DELETE' });
      flash(sucesso, 'sucesso');
      aplicar(atualizado);
    } catch (error) {
      if (error?.name === 'AbortError') return;
      restore();
      await recusado(e, error, mensagem);
    }
  }

  /**
   * A refusal is said in the card, under its button; a 409 (cancelled, started, full meanwhile)
   * redraws the card as the event now stands first, so what it offers matches what it says.
   */
  async function recusado(e, error, mensagem) {
    let alvo = mensagem;
    if (error?.status === 409) {
      const atual = await api(`/api/encontros/${encodeURIComponent(e.id)}`, { signal }).catch(() => null);
      const novo = atual ? aplicar(atual, { foco: false }) : null;
      if (novo) alvo = novo.querySelector('.event__msg');
    }
    replace(alvo, errorBox(error));
    alvo.querySelector('.alert')?.setAttribute('tabindex', '-1');
    alvo.querySelector('.alert')?.focus();
  }
}
