// A printable receipt of one of the member's invoices — or of their company's, for its managers
// (/empresa/faturas/…: the company and its CNPJ, and each person's use of the pooled credits in
// the cycle) — the unit (name and address), the member,
// the space and its time (a plan's cycle and its period; a bundle and the credits it gave), the
// price lines, the ISS included in the price, the total and the credit notes of any refund.
// "Imprimir" opens the browser's print dialog; the print style leaves out the menu, the links
// back and the buttons.

import { api } from '../lib/api.js';
import { h, link, replace } from '../lib/dom.js';
import { FATURA_STATUS } from '../lib/labels.js';
import { money, dateShort, dateTime, percentFromBP, DEFAULT_TZ, duration } from '../lib/format.js';
import { pageHeader, loadInto, badge } from '../lib/ui.js';
import { FATURA_KIND } from '../lib/faturas.js';
import { empresaDoTitular } from '../lib/pessoas.js';

export function render({ container, params, signal }) {
  // Back where it was opened from: a company's invoice on "Minha empresa" (/empresa/faturas/…),
  // the operator's page of the invoice (/admin/financeiro/faturas/…), else the member's list.
  const voltar = location.pathname.startsWith('/empresa/')
    ? link('/empresa', '← Minha empresa')
    : location.pathname.startsWith('/admin/')
      ? link(`/admin/financeiro/faturas/${encodeURIComponent(params.id)}`, '← Fatura')
      : link('/faturas', '← Minhas faturas');
  replace(container,
    h('p', { class: 'back no-print' }, voltar),
    pageHeader('Recibo'));
  const body = h('div');
  container.append(body);
  loadInto(body, () => api(`/api/faturas/${encodeURIComponent(params.id)}/recibo`, { signal }), (recibo) => {
    const f = recibo.fatura;
    const unidade = recibo.unidade;
    const tz = unidade?.fusoHorario ?? DEFAULT_TZ;
    const titulo = `Recibo da fatura ${f.codigo ?? f.numero}`;
    container.querySelector('h1').textContent = titulo;
    document.title = `${titulo} · CoworkFlow`;
    const notas = f.notasDeCredito ?? [];
    const reembolsado = notas.reduce((sum, n) => sum + (Number(n.valor) || 0), 0);
    body.append(
      h('article', { class: 'receipt', 'aria-label': titulo },
        h('header', { class: 'receipt__head' },
          h('div', {},
            h('p', { class: 'receipt__unit' }, unidade?.nome ?? 'CoworkFlow'),
            unidade ? h('address', { class: 'receipt__address' }, enderecoLinhas(unidade.endereco).map((l) => h('span', {}, l))) : null),
          h('dl', { class: 'facts receipt__meta' },
            h('dt', {}, 'Fatura'), h('dd', {}, f.codigo ?? `Nº ${f.numero}`),
            h('dt', {}, 'Data'), h('dd', {}, f.data ? dateShort(f.data) : '—'),
            f.emitidaEm ? [h('dt', {}, 'Emitida em'), h('dd', {}, dateTime(f.emitidaEm, tz))] : null,
            h('dt', {}, 'Situação'), h('dd', {}, badge(FATURA_STATUS[f.status] ?? f.status, FATURA_KIND[f.status])))),
        h('dl', { class: 'facts receipt__who' },
          h('dt', {}, empresaDoTitular(f.usuarioId) ? 'Empresa' : 'Membro'), h('dd', {}, recibo.membro),
          h('dt', {}, f.assinatura || f.pacote ? 'Referente a' : 'Espaço'), h('dd', {}, recibo.espaco),
          h('dt', {}, f.assinatura ? 'Período' : f.pacote ? 'Créditos' : 'Quando'), h('dd', {}, recibo.quando ?? '—')),
        h('table', { class: 'receipt__lines' },
          h('caption', { class: 'visually-hidden' }, 'Itens cobrados'),
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Descrição'), h('th', { scope: 'col', class: 'num' }, 'Valor'))),
          h('tbody', {}, (recibo.itens ?? []).map((item) => h('tr', { dataset: { codigo: item.codigo } },
            h('td', {}, item.descricao), h('td', { class: 'num' }, money(item.valor))))),
          h('tfoot', {},
            h('tr', { class: 'receipt__iss' },
              h('th', { scope: 'row' }, `ISS incluso${f.aliquotaISSBP !== undefined ? ` (${percentFromBP(f.aliquotaISSBP)})` : ''}`),
              h('td', { class: 'num' }, money(f.iss))),
            h('tr', { class: 'receipt__total' },
              h('th', { scope: 'row' }, 'Total'),
              h('td', { class: 'num' }, money(f.valor))),
            reembolsado ? h('tr', {},
              h('th', { scope: 'row' }, 'Reembolsado'),
              h('td', { class: 'num' }, `−${money(reembolsado)}`)) : null)),
        notas.length ? h('section', { class: 'receipt__notes', 'aria-labelledby': 'recibo-notas' },
          h('h2', { id: 'recibo-notas' }, 'Notas de crédito'),
          h('ul', { class: 'plain-list' }, notas.map((n) => h('li', {},
            `${n.codigo ?? `Nº ${n.numero}`}${n.data ? `, ${dateShort(n.data)}` : ''}: ${money(n.valor)}`,
            n.iss ? ` (ISS devolvido ${money(n.iss)})` : ''))))
          : null,
        recibo.uso ? h('section', { class: 'receipt__notes', 'aria-labelledby': 'recibo-uso' },
          h('h2', { id: 'recibo-uso' }, 'Uso dos créditos da empresa no ciclo'),
          recibo.uso.length
            ? h('ul', { class: 'plain-list' }, recibo.uso.map((u) => h('li', {},
              `${u.nome ?? 'Pessoa sem dados'}: ${[u.minutos ? duration(u.minutos) : null, u.centavos ? money(u.centavos) : null].filter(Boolean).join(' e ')}`)))
            : h('p', {}, 'Ninguém usou os créditos da empresa neste ciclo até agora.'))
          : null),
      h('p', { class: 'actions no-print' },
        h('button', { type: 'button', class: 'button', onclick: () => window.print() }, 'Imprimir')));
  }, { signal, text: 'Carregando o recibo…' });
}

/** ["Rua Augusta, 500 – sala 2", "Consolação", "São Paulo – SP", "CEP 01304-000"] */
function enderecoLinhas(e) {
  if (!e) return [];
  return [
    `${e.logradouro}, ${e.numero}${e.complemento ? ` – ${e.complemento}` : ''}`,
    e.bairro || null,
    `${e.cidade} – ${e.uf}`,
    e.cep ? `CEP ${e.cep}` : null,
  ].filter(Boolean);
}
