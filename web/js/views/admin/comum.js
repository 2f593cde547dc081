// Pieces shared by the operator screens.

import { allPages } from '../../lib/api.js';
import { todasAsUnidades, espaco as loadEspaco } from '../../lib/catalog.js';
import { h, link } from '../../lib/dom.js';
import { field, confirmDialog, busy, errorBox } from '../../lib/ui.js';

/** A unit <select> filled from the API; resolves with {field, select, unidades}. */
export async function unidadeSelect({ label = 'Unidade', name = 'unidade', value = '', includeEmpty = null, signal } = {}) {
  const unidades = await todasAsUnidades();
  if (signal?.aborted) throw new DOMException('aborted', 'AbortError');
  const options = unidades.map((u) => [u.id, u.nome]);
  if (includeEmpty) options.unshift(['', includeEmpty]);
  const selected = value && unidades.some((u) => u.id === value) ? value : (includeEmpty ? '' : unidades[0]?.id ?? '');
  const el = field({ label, name, type: 'select', options, value: selected });
  return { field: el, select: el.querySelector('select'), unidades };
}

/** The tabs of one space's admin pages; `current` is the tab's key. */
export function espacoTabs(id, current) {
  const tabs = [
    ['dados', `/admin/espacos/${id}`, 'Dados'],
    ['horario', `/admin/espacos/${id}/horario`, 'Horário'],
    ['bloqueios', `/admin/espacos/${id}/bloqueios`, 'Bloqueios'],
    ['locacao', `/admin/espacos/${id}/locacao`, 'Locação'],
    ['precos', `/admin/espacos/${id}/precos`, 'Preços'],
  ];
  return h('nav', { class: 'tabs', 'aria-label': 'Seções do espaço' },
    h('ul', {}, tabs.map(([key, href, text]) => h('li', {},
      link(href, text, key === current ? { 'aria-current': 'page', class: 'tabs__current' } : {})))));
}

/**
 * A small button that asks first (a modal confirmation, `dialogo`: confirmDialog's options), then
 * runs `acao` (its request) and `depois`; on failure the error shows under the button. `oculto`
 * completes its name for screen readers ("Remover" → "Remover a regra Horário de pico").
 * `principal` makes it the row's main action (a filled button); `attrs` go on the button.
 */
export function botaoQueConfirma({ texto, oculto, dialogo, ocupado, acao, depois, principal = false, attrs = {} }) {
  const button = h('button', { type: 'button', class: `button ${principal ? '' : 'button--secondary '}button--small`, ...attrs }, texto,
    h('span', { class: 'visually-hidden' }, ` ${oculto}`));
  button.addEventListener('click', async () => {
    if (!await confirmDialog({ danger: true, ...dialogo })) return;
    const restore = busy(button, ocupado);
    try {
      await acao();
      depois();
    } catch (error) {
      restore();
      button.after(errorBox(error));
    }
  });
  return button;
}

/** The space (fresh from the API) with its unit, for the admin pages. */
export function espacoAdmin(id) {
  return loadEspaco(id, { fresh: true });
}

/** Back link to the list of spaces of the space's unit. */
export function voltarParaEspacos(unidadeId) {
  return h('p', { class: 'back' }, link(`/admin/espacos${unidadeId ? `?unidade=${unidadeId}` : ''}`, '← Todos os espaços'));
}

/**
 * Deactivated spaces of a unit. The catalog lists active spaces only, so these are found in the
 * audit trail (EspacoDesativado events, stream "espaco-<id>") and checked one by one.
 * TODO(API): replace with a catalog filter for admins (e.g. GET /api/espacos?inativos=true).
 */
export async function espacosInativos(unidadeId, { signal } = {}) {
  const eventos = await allPages('/api/admin/auditoria', { query: { tipo: 'EspacoDesativado' }, signal, maxPages: 5 });
  const ids = [...new Set(eventos.map((e) => e.stream.replace(/^espaco-/, '')))];
  const items = await Promise.all(ids.map((id) => loadEspaco(id, { fresh: true }).catch(() => null)));
  return items.filter((item) => item && !item.espaco.ativo && item.espaco.unidadeId === unidadeId);
}

/**
 * Accounts by id (lower-case), from the first pages of the user list, cached for a minute: the
 * API answers bookings, invoices and rankings with the member's id only.
 * TODO(API): GET /api/admin/usuarios/{id} (or names in those answers).
 */
let usuariosCache = null;
let usuariosAt = 0;
export function usuariosPorId(signal) {
  if (!usuariosCache || Date.now() - usuariosAt > 60_000) {
    usuariosAt = Date.now();
    usuariosCache = allPages('/api/admin/usuarios', { signal, maxPages: 4 })
      .then((list) => new Map(list.map((u) => [u.id.toLowerCase(), u])))
      .catch(() => { usuariosCache = null; return new Map(); });
  }
  return usuariosCache;
}

/** A member's name and e-mail from usuariosPorId(), else the start of the id. */
export function pessoa(usuarios, id) {
  const p = usuarios.get(String(id ?? '').toLowerCase());
  if (!p) return h('span', { class: 'mono' }, String(id ?? '—').slice(0, 8));
  return [p.nome, h('span', { class: 'small block' }, p.email)];
}

/** The tabs of the finance pages. */
export function financeiroTabs(current) {
  const tabs = [
    ['resumo', '/admin/financeiro', 'Receita e razão'],
    ['faturas', '/admin/financeiro/faturas', 'Faturas'],
  ];
  return h('nav', { class: 'tabs', 'aria-label': 'Seções do financeiro' },
    h('ul', {}, tabs.map(([key, href, text]) => h('li', {},
      link(href, text, key === current ? { 'aria-current': 'page', class: 'tabs__current' } : {})))));
}

/** The finance tabs take the unit chosen on one page to the other (all units: none). */
export function financeiroTabsDaUnidade(tabs, unidade) {
  for (const a of tabs.querySelectorAll('a')) {
    const url = new URL(a.getAttribute('href'), location.origin);
    if (unidade) url.searchParams.set('unidade', unidade);
    else url.searchParams.delete('unidade');
    a.setAttribute('href', `${url.pathname}${url.search}`);
  }
}
