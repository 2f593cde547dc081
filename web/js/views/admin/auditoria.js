// The audit trail: the event log filtered by who acted, event type and time, 50 a page, newest
// first. Who acted may be given by e-mail (looked up in the accounts) or by id. People, spaces
// and units are shown by name (each looked up once per screen), event types in words.

import { api } from '../../lib/api.js';
import { espaco as loadEspaco, todasAsUnidades } from '../../lib/catalog.js';
import { nomesDePessoas } from '../../lib/pessoas.js';
import { h, replace } from '../../lib/dom.js';
import { REGISTROS, SERVICOS } from '../../lib/labels.js';
import { dateTime, zonedToMs, minutesFromClock, wallClock } from '../../lib/format.js';
import {
  pageHeader, loadInto, pager, table, field, val, fieldError, clearErrors, announce,
} from '../../lib/ui.js';

const browserTz = Intl.DateTimeFormat().resolvedOptions().timeZone || 'America/Sao_Paulo';

/** "2026-11-24T10:00" (datetime-local, the browser's zone) → ISO instant; null when empty. */
function instantFrom(local) {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(local);
  if (!match) return null;
  return new Date(zonedToMs(match[1], minutesFromClock(match[2]), browserTz)).toISOString();
}

/** ISO instant → "2026-11-24T10:00" in the browser's zone (for the inputs). */
function localFrom(iso) {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return '';
  const w = wallClock(ms, browserTz);
  const p = (n) => String(n).padStart(2, '0');
  return `${w.year}-${p(w.month)}-${p(w.day)}T${p(w.hour)}:${p(w.minute)}`;
}

const SYSTEM = /^system:(.+)$/;
const shortId = (id) => String(id).slice(0, 8);

/** Names of the accounts, spaces and units the page mentions, each asked for once per screen. */
function nomes(signal) {
  const pessoas = nomesDePessoas(signal);
  const espacos = new Map();
  let unidades = null;
  return {
    pessoa: (id) => pessoas.nome(id),
    espaco(id) {
      const key = String(id).toLowerCase();
      if (!espacos.has(key)) espacos.set(key, loadEspaco(id).then((i) => i.espaco.nome).catch(() => null));
      return espacos.get(key);
    },
    unidade(id) {
      unidades ??= todasAsUnidades().catch(() => []);
      return unidades.then((lista) => lista.find((u) => u.id.toLowerCase() === String(id).toLowerCase())?.nome ?? null);
    },
  };
}

/** "Sistema (pagamentos)" for a system actor, else the account's name (its short id until known). */
async function quem(ator, cache) {
  if (!ator) return '—';
  const system = SYSTEM.exec(ator);
  if (system) return `Sistema (${SERVICOS[system[1]] ?? system[1]})`;
  if (ator === 'sistema') return 'Sistema';
  const nome = /^[0-9a-f-]{36}$/i.test(ator) ? await cache.pessoa(ator) : null;
  if (nome === false) return h('span', { title: ator }, 'Conta apagada');
  return nome ?? h('span', { class: 'small', title: ator }, `Conta ${shortId(ator)}`);
}

/** What the stream holds: "Conta de Ana Souza", "Espaço Sala Ipê", "Reserva 1a2b3c4d". */
async function registro(stream, cache) {
  const match = /^([a-z]+)-(.+)$/.exec(stream ?? '');
  if (!match) return stream ?? '—';
  const [, categoria, id] = match;
  const palavra = REGISTROS[categoria] ?? categoria;
  const uuid = /^[0-9a-f]{8}-[0-9a-f-]{27}$/i.test(id);
  let nome = null;
  if (uuid && categoria === 'usuario') nome = await cache.pessoa(id).then((n) => (n === false ? 'Conta apagada' : n && `Conta de ${n}`));
  else if (uuid && ['espaco', 'tabela', 'agenda'].includes(categoria)) nome = await cache.espaco(id).then((n) => n && `${palavra} — ${n}`);
  else if (uuid && categoria === 'unidade') nome = await cache.unidade(id).then((n) => n && `Unidade ${n}`);
  return nome ?? h('span', { title: stream }, `${palavra} `, h('span', { class: 'mono' }, shortId(id)));
}

/** A cell filled when `value` (a promise) resolves. */
function later(value) {
  const cell = h('span', {}, '…');
  Promise.resolve(value).then((v) => replace(cell, v)).catch(() => replace(cell, '—'));
  return cell;
}

export function render({ container, query, setQuery, signal }) {
  const cache = nomes(signal);
  const state = {
    usuario: query.get('usuario') ?? '',
    tipo: query.get('tipo') ?? '',
    desde: query.get('desde') ?? '',
    ate: query.get('ate') ?? '',
    pagina: Math.max(1, Number(query.get('pagina')) || 1),
  };
  const form = h('form', { class: 'filters', role: 'search', 'aria-label': 'Filtrar a trilha de auditoria', novalidate: true },
    field({ label: 'Quem agiu', name: 'usuario', value: state.usuario, hint: 'E-mail ou id da conta', attrs: { autocomplete: 'off' } }),
    field({
      label: 'Tipo de evento', name: 'tipo', type: 'select', value: state.tipo,
      // The types and their names come from the server's event catalogs (/api/admin/eventos).
      options: [['', 'Todos os eventos'], ...(state.tipo ? [[state.tipo, state.tipo]] : [])],
    }),
    field({ label: 'Desde', name: 'desde', type: 'datetime-local', hint: 'No seu fuso horário', value: localFrom(state.desde) }),
    field({ label: 'Até', name: 'ate', type: 'datetime-local', hint: 'Exclusivo', value: localFrom(state.ate) }),
    h('div', { class: 'filters__actions' },
      h('button', { type: 'submit', class: 'button' }, 'Filtrar'),
      h('button', { type: 'reset', class: 'button button--secondary' }, 'Limpar')));
  const list = h('section', { 'aria-label': 'Eventos' });
  api('/api/admin/eventos', { signal }).then((tipos) => {
    const select = form.elements.tipo;
    const chosen = select.value;
    const known = new Set(tipos.map((t) => t.tipo));
    select.replaceChildren(
      h('option', { value: '' }, 'Todos os eventos'),
      ...tipos.map((t) => h('option', { value: t.tipo }, t.rotulo)),
      ...(chosen && !known.has(chosen) ? [h('option', { value: chosen }, chosen)] : []));
    select.value = chosen;
  }).catch(() => {});

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors(form);
    let usuario = val(form, 'usuario');
    if (usuario.includes('@')) {
      try {
        const page = await api('/api/admin/usuarios', { query: { email: usuario }, signal });
        const exact = page.itens.find((u) => u.email.toLowerCase() === usuario.toLowerCase()) ?? (page.itens.length === 1 ? page.itens[0] : null);
        if (!exact) return fieldError(form, 'usuario', `Nenhuma conta com o e-mail ${usuario}.`);
        usuario = exact.id;
      } catch (error) {
        if (error?.name === 'AbortError') return;
        return fieldError(form, 'usuario', 'Não foi possível procurar a conta agora.');
      }
    }
    const desde = val(form, 'desde') ? instantFrom(val(form, 'desde')) : '';
    const ate = val(form, 'ate') ? instantFrom(val(form, 'ate')) : '';
    if (desde && ate && ate <= desde) return fieldError(form, 'ate', '"Até" deve ser depois de "Desde".');
    Object.assign(state, { usuario, tipo: val(form, 'tipo'), desde, ate, pagina: 1 });
    load();
  });
  form.addEventListener('reset', () => setTimeout(() => {
    [...form.elements].forEach((el) => { if (el.name) el.value = ''; });
    Object.assign(state, { usuario: '', tipo: '', desde: '', ate: '', pagina: 1 });
    load();
  }));

  replace(container, pageHeader('Trilha de auditoria', 'Cada mudança registrada, com quem fez, quando e em qual pedido.'), form, list);

  function load() {
    setQuery({ ...state, pagina: state.pagina > 1 ? state.pagina : '' });
    loadInto(list, () => api('/api/admin/auditoria', { query: state, signal }), (page) => {
      announce(`${page.total} ${page.total === 1 ? 'evento' : 'eventos'}`);
      list.append(
        table({
          caption: 'Eventos (mais recentes primeiro)',
          empty: 'Nenhum evento com esses filtros.',
          rows: page.itens,
          className: 'table--palavras table--auditoria',
          rowAttrs: (e) => ({ dataset: { tipo: e.tipo } }),
          columns: [
            { label: 'Quando', cell: (e) => dateTime(e.em, browserTz) },
            { label: 'Evento', cell: (e) => e.rotulo ?? e.tipo },
            { label: 'Quem', cell: (e) => later(quem(e.ator, cache)) },
            { label: 'Serviço', cell: (e) => SERVICOS[e.servico] ?? e.servico ?? '—' },
            { label: 'Registro', cell: (e) => later(registro(e.stream, cache)) },
            { label: 'Pedido', cell: (e) => (e.requestId ? h('span', { class: 'mono small' }, e.requestId) : '—') },
          ],
        }),
        pager({ pagina: page.pagina, total: page.total, noun: ['evento', 'eventos'], onPage: (n) => { state.pagina = n; load(); } }));
    }, { signal, text: 'Carregando eventos…' });
  }
  load();
}
