// Invoices (and their credit notes) by unit and period, 50 a page, by number; each opens its
// detail.

import { api } from '../../lib/api.js';
import { h, link, replace } from '../../lib/dom.js';
import { TIPOS_DE_RECEITA, METODOS, FATURA_STATUS } from '../../lib/labels.js';
import { money, isDate, dateShort } from '../../lib/format.js';
import {
  pageHeader, loadInto, pager, table, badge, field, val, fieldError, clearErrors, errorBox, announce,
} from '../../lib/ui.js';
import { FATURA_KIND } from '../../lib/faturas.js';
import { unidadeSelect, financeiroTabs, financeiroTabsDaUnidade } from './comum.js';

export async function render({ container, query, setQuery, signal }) {
  const tabs = financeiroTabs('faturas');
  replace(container, pageHeader('Financeiro', 'Receita, faturas e razão contábil, por unidade e período.'), tabs);
  const filters = h('form', { class: 'filters', role: 'search', 'aria-label': 'Filtrar faturas', novalidate: true });
  const list = h('section', { 'aria-label': 'Faturas' });
  container.append(filters, list);

  let unidadeField;
  let select;
  let unidades;
  try {
    ({ field: unidadeField, select, unidades } = await unidadeSelect({ value: query.get('unidade') ?? '', includeEmpty: 'Todas as unidades', signal }));
  } catch (error) {
    if (error?.name !== 'AbortError') replace(filters, errorBox(error));
    return;
  }
  const state = {
    unidade: select.value,
    de: isDate(query.get('de')) ? query.get('de') : '',
    ate: isDate(query.get('ate')) ? query.get('ate') : '',
    pagina: Math.max(1, Number(query.get('pagina')) || 1),
  };
  replace(filters,
    unidadeField,
    field({ label: 'De', name: 'de', type: 'date', value: state.de, optional: true }),
    field({ label: 'Até (inclusive)', name: 'ate', type: 'date', value: state.ate, optional: true }),
    h('div', { class: 'filters__actions' }, h('button', { type: 'submit', class: 'button' }, 'Filtrar')));
  filters.addEventListener('submit', (event) => {
    event.preventDefault();
    clearErrors(filters);
    const de = val(filters, 'de');
    const ate = val(filters, 'ate');
    if (de && ate && ate < de) return fieldError(filters, 'ate', 'A data final deve ser igual ou depois da inicial.');
    Object.assign(state, { unidade: select.value, de, ate, pagina: 1 });
    load();
  });
  select.addEventListener('change', () => { Object.assign(state, { unidade: select.value, pagina: 1 }); load(); });
  const nomeDaUnidade = (id) => unidades.find((u) => u.id.toLowerCase() === String(id).toLowerCase())?.nome ?? '—';

  function load() {
    setQuery({ ...state, pagina: state.pagina > 1 ? state.pagina : '' });
    financeiroTabsDaUnidade(tabs, state.unidade);
    loadInto(list, () => api('/api/admin/financeiro/faturas', { query: state, signal }), (page) => {
      announce(`${page.total} ${page.total === 1 ? 'fatura' : 'faturas'}`);
      list.append(
        table({
          caption: 'Faturas (por número)',
          empty: 'Nenhuma fatura com esses filtros.',
          rows: page.itens,
          rowAttrs: (f) => ({ dataset: { fatura: f.id } }),
          columns: [
            { label: 'Fatura', cell: (f) => link(`/admin/financeiro/faturas/${f.id}`, f.codigo ?? `Nº ${f.numero}`) },
            { label: 'Data', cell: (f) => (f.data ? dateShort(f.data) : '—') },
            state.unidade ? null : { label: 'Unidade', cell: (f) => nomeDaUnidade(f.unidadeId) },
            { label: 'Tipo', cell: (f) => TIPOS_DE_RECEITA[f.tipoDeEspaco] ?? f.tipoDeEspaco ?? '—' },
            { label: 'Forma', cell: (f) => METODOS[f.metodo] ?? f.metodo ?? '—' },
            { label: 'Valor', cell: (f) => money(f.valor), class: 'num' },
            { label: 'ISS', cell: (f) => money(f.iss), class: 'num' },
            { label: 'Reembolsado', cell: (f) => [money(f.reembolsado ?? 0), f.notasDeCredito?.length ? h('span', { class: 'small block' }, `${f.notasDeCredito.length} ${f.notasDeCredito.length === 1 ? 'nota de crédito' : 'notas de crédito'}`) : null], class: 'num' },
            { label: 'Situação', cell: (f) => badge(FATURA_STATUS[f.status] ?? f.status, FATURA_KIND[f.status]) },
          ].filter(Boolean),
        }),
        pager({ pagina: page.pagina, total: page.total, noun: ['fatura', 'faturas'], onPage: (n) => { state.pagina = n; load(); } }));
    }, { signal, text: 'Carregando faturas…' });
  }
  load();
}
