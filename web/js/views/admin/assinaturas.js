// Subscriptions, for operators: one row per member (50 a page) with the plan, where it stands
// (and a change scheduled for the cycle's end), the next charge (date and amount), the dunning
// (attempts since when, the next one) and whether the current cycle is paid; filtered by status.
// A member's name opens their subscription (views/admin/assinatura.js).

import { api, allPages } from '../../lib/api.js';
import { h, link, replace, append } from '../../lib/dom.js';
import { money, dateShort } from '../../lib/format.js';
import { nomesDePessoas, nomeOuConta, empresaDoTitular } from '../../lib/pessoas.js';
import { pageHeader, loadInto, field, table, pager, badge } from '../../lib/ui.js';
import {
  STATUS_DA_ASSINATURA, STATUS_DA_ASSINATURA_KIND, proximaCobranca, inadimplenciaEmPalavras, periodo,
} from '../../lib/assinaturas.js';
import { abasDosPlanos } from '../../lib/planos.js';

const AGENDADO = { cancelamento: 'Cancelamento em', pausa: 'Pausa em', troca: 'Troca em' };

export function render({ container, query, setQuery, signal }) {
  let pagina = Math.max(1, Number(query.get('pagina')) || 1);
  let status = STATUS_DA_ASSINATURA[query.get('status')] ? query.get('status') : '';
  const nomes = nomesDePessoas(signal);
  let planos = null;

  const filtro = h('form', { class: 'filters', role: 'search', 'aria-label': 'Filtrar assinaturas' },
    field({
      label: 'Situação', name: 'status', type: 'select', value: status,
      options: [['', 'Todas'], ...Object.entries(STATUS_DA_ASSINATURA)],
    }),
    h('div', { class: 'filters__actions' }, h('button', { type: 'submit', class: 'button' }, 'Filtrar')));
  filtro.addEventListener('submit', (event) => {
    event.preventDefault();
    status = filtro.elements.status.value;
    pagina = 1;
    carregar();
  });
  const lista = h('div', { 'aria-live': 'polite' });
  replace(container,
    pageHeader('Assinaturas', 'Quem assina qual plano, a próxima cobrança e os pagamentos em atraso.'),
    abasDosPlanos('assinaturas'),
    filtro,
    lista);

  function carregar() {
    setQuery({ status, pagina: pagina > 1 ? pagina : '' });
    loadInto(lista, async () => {
      planos ??= allPages('/api/admin/planos', { signal }).catch(() => []);
      const page = await api('/api/admin/assinaturas', { query: { pagina, status }, signal });
      const [porId, todos] = await Promise.all([nomes.todos(page.itens.map((a) => a.titular)), planos]);
      return { page, porId, todos };
    }, ({ page, porId, todos }) => {
      append(lista,
        table({
          caption: status ? `Assinaturas: ${STATUS_DA_ASSINATURA[status].toLowerCase()}` : 'Todas as assinaturas',
          className: 'table--palavras table--assinaturas',
          empty: status ? `Nenhuma assinatura ${STATUS_DA_ASSINATURA[status].toLowerCase()}.` : 'Nenhuma assinatura ainda.',
          rows: page.itens,
          rowAttrs: (a) => ({ dataset: { titular: a.titular, status: a.status } }),
          columns: [
            {
              label: 'Membro',
              cell: (a) => link(
                empresaDoTitular(a.titular) ? `/admin/empresas/${encodeURIComponent(empresaDoTitular(a.titular))}` : `/admin/assinaturas/${encodeURIComponent(a.titular)}`,
                nomeOuConta(porId.get(String(a.titular).toLowerCase()), a.titular), { class: 'conta-link' }),
            },
            { label: 'Plano', cell: (a) => a.plano?.nome ?? '—' },
            {
              label: 'Situação',
              cell: (a) => [badge(STATUS_DA_ASSINATURA[a.status] ?? a.status, STATUS_DA_ASSINATURA_KIND[a.status] ?? 'neutro'),
                a.agendamento && a.status !== 'encerrada'
                  ? h('span', { class: 'small block' }, `${AGENDADO[a.agendamento.tipo] ?? 'Alteração em'} ${dateShort(a.agendamento.efeitoEm)}${a.agendamento.tipo === 'troca' && a.agendamento.plano ? ` → ${a.agendamento.plano.nome}` : ''}`)
                  : null,
                a.status === 'encerrada' && a.motivoDoEncerramento === 'inadimplencia' ? h('span', { class: 'small block' }, 'por falta de pagamento') : null],
            },
            {
              label: 'Próxima cobrança',
              cell: (a) => {
                const p = proximaCobranca(a, todos);
                if (!p) return h('span', { class: 'small' }, 'Nenhuma');
                return [h('span', { class: 'block' }, dateShort(p.data)), p.valor !== null ? h('span', { class: 'small block' }, money(p.valor)) : null];
              },
            },
            {
              label: 'Ciclo atual',
              cell: (a) => (a.cicloAtual && a.status !== 'encerrada'
                ? [h('span', { class: 'block subscription__period' }, periodo(a.cicloAtual)),
                  h('span', { class: 'small block' }, `${money(a.cicloAtual.valorCentavos)} · ${a.cicloAtual.pago ? 'pago' : 'aguardando pagamento'}`)]
                : h('span', { class: 'small' }, '—')),
            },
            {
              label: 'Atraso',
              cell: (a) => (a.inadimplencia && a.status !== 'encerrada'
                ? h('span', { class: 'subscription__dunning-cell' }, inadimplenciaEmPalavras(a))
                : h('span', { class: 'small' }, 'Em dia')),
            },
          ],
        }),
        page.total ? pager({
          pagina: page.pagina, total: page.total, noun: ['assinatura', 'assinaturas'], label: 'Páginas das assinaturas',
          onPage: (n) => { pagina = n; carregar(); },
        }) : null);
    }, { signal, text: 'Carregando as assinaturas…' });
  }
  carregar();
}
