// The member's own invoices (one per paid booking, subscription cycle or bundle of credits),
// newest first, 50 a page, each with its credit notes (one per refund) and a link to its
// printable receipt.

import { api } from '../lib/api.js';
import { h, replace } from '../lib/dom.js';
import { plural } from '../lib/format.js';
import { colunasDeFatura } from '../lib/faturas.js';
import { pageHeader, loadInto, pager, table, announce } from '../lib/ui.js';

export function render({ container, query, setQuery, signal }) {
  let pagina = Math.max(1, Number(query.get('pagina')) || 1);
  const list = h('section', { 'aria-label': 'Faturas' });
  replace(container,
    pageHeader('Minhas faturas', 'Uma fatura por reserva paga, por mês pago do seu plano e por pacote de créditos comprado, com o ISS da unidade e as notas de crédito dos reembolsos.'),
    list);

  function load() {
    setQuery({ pagina: pagina > 1 ? pagina : '' });
    loadInto(list, () => api('/api/faturas', { query: { pagina }, signal }), (page) => {
      announce(plural(page.total, 'fatura', 'faturas'));
      list.append(
        table({
          caption: 'As mais recentes primeiro',
          empty: 'Nenhuma fatura ainda: ela é emitida quando o pagamento de uma reserva, do seu plano ou de um pacote é confirmado.',
          rows: page.itens,
          className: 'table--faturas',
          columns: colunasDeFatura(),
        }),
        pager({ pagina: page.pagina, total: page.total, noun: ['fatura', 'faturas'], onPage: (n) => { pagina = n; load(); } }));
    }, { signal, text: 'Carregando suas faturas…' });
  }
  load();
}
