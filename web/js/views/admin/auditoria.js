// The audit trail: the event log filtered by who acted, event type and time, 50 a page, newest
// first. Who acted may be given by e-mail (looked up in the accounts) or by id.

import { api } from '../../lib/api.js';
import { h, replace } from '../../lib/dom.js';
import { TIPOS_DE_EVENTO } from '../../lib/labels.js';
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

export function render({ container, query, setQuery, signal }) {
  const state = {
    usuario: query.get('usuario') ?? '',
    tipo: query.get('tipo') ?? '',
    desde: query.get('desde') ?? '',
    ate: query.get('ate') ?? '',
    pagina: Math.max(1, Number(query.get('pagina')) || 1),
  };
  const datalistId = 'tipos-de-evento';
  const form = h('form', { class: 'filters', role: 'search', 'aria-label': 'Filtrar a trilha de auditoria', novalidate: true },
    field({ label: 'Quem agiu', name: 'usuario', value: state.usuario, hint: 'E-mail ou id da conta', attrs: { autocomplete: 'off' } }),
    field({ label: 'Tipo de evento', name: 'tipo', value: state.tipo, hint: 'Ex.: ReservaConfirmada', attrs: { list: datalistId, autocomplete: 'off' } }),
    h('datalist', { id: datalistId }, TIPOS_DE_EVENTO.map((t) => h('option', { value: t }))),
    field({ label: 'Desde', name: 'desde', type: 'datetime-local', hint: 'No seu fuso horário', value: localFrom(state.desde) }),
    field({ label: 'Até', name: 'ate', type: 'datetime-local', hint: 'Exclusivo', value: localFrom(state.ate) }),
    h('div', { class: 'filters__actions' },
      h('button', { type: 'submit', class: 'button' }, 'Filtrar'),
      h('button', { type: 'reset', class: 'button button--secondary' }, 'Limpar')));
  const list = h('section', { 'aria-label': 'Eventos' });

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
          columns: [
            { label: 'Quando', cell: (e) => dateTime(e.em, browserTz) },
            { label: 'Evento', cell: (e) => h('code', {}, e.tipo) },
            { label: 'Quem', cell: (e) => h('span', { class: 'mono' }, e.ator ?? '—') },
            { label: 'Serviço', cell: (e) => e.servico ?? '—' },
            { label: 'Registro', cell: (e) => h('span', { class: 'mono small' }, e.stream) },
            { label: 'Pedido', cell: (e) => h('span', { class: 'mono small' }, e.requestId ?? '—') },
          ],
        }),
        pager({ pagina: page.pagina, total: page.total, noun: ['evento', 'eventos'], onPage: (n) => { state.pagina = n; load(); } }));
    }, { signal, text: 'Carregando eventos…' });
  }
  load();
}
