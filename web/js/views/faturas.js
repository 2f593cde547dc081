// The member's own invoices (one per paid booking, subscription cycle or bundle of credits),
// newest first, 50 a page, each with its credit notes (one per refund) and a link to its
// printable receipt.

import { api } from '../lib/api.js';
import { h, replace } from '../lib/dom.js';
import { FATURA_STATUS } from '../lib/labels.js';
import { money, dateShort, plural } from '../lib/format.js';
import { referente } from '../lib/faturas.js';
import { pageHeader, loadInto, pager, table, badge, announce } from '../lib/ui.js';

export const FATURA_KIND = { emitida: 'aviso', paga: 'sucesso', parcialmente_reembolsada: 'info', reembolsada: 'neutro' };

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
          columns: [
            { label: 'Fatura', cell: (f) => f.codigo ?? `Nº ${f.numero}` },
            { label: 'Data', cell: (f) => (f.data ? dateShort(f.data) : '—') },
            { label: 'Referente a', cell: (f) => referente(f) },
            { label: 'Valor', cell: (f) => money(f.valor), class: 'num' },
            { label: 'ISS', cell: (f) => money(f.iss), class: 'num' },
            { label: 'Situação', cell: (f) => badge(FATURA_STATUS[f.status] ?? f.status, FATURA_KIND[f.status]) },
            { label: 'Notas de crédito', cell: (f) => notas(f.notasDeCredito ?? []) },
            {
              label: 'Recibo',
              cell: (f) => h('a', { href: `/faturas/${encodeURIComponent(f.id)}/recibo`, 'data-link': true },
                'Recibo', h('span', { class: 'visually-hidden' }, ` da fatura ${f.codigo ?? f.numero}`)),
            },
          ],
        }),
        pager({ pagina: page.pagina, total: page.total, noun: ['fatura', 'faturas'], onPage: (n) => { pagina = n; load(); } }));
    }, { signal, text: 'Carregando suas faturas…' });
  }
  load();
}

function notas(list) {
  if (!list.length) return '—';
  return h('ul', { class: 'plain-list' }, list.map((n) => h('li', {}, `${n.codigo ?? `Nº ${n.numero}`}: −${money(n.valor)}`)));
}
