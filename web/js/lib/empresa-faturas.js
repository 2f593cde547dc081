// A company's invoices, for its managers on "Minha empresa" and for operators on the company's
// page: one per paid cycle of the company's plan, newest first, 50 a page, each with its credit
// notes and a link to its printable receipt (which names the company and its CNPJ and lists each
// person's use of the pooled credits) or, for an operator, to the invoice's page in Financeiro.

import { api } from './api.js';
import { h, replace } from './dom.js';
import { colunasDeFatura } from './faturas.js';
import { caminhoDaEmpresa } from './empresas.js';
import { loadInto, pager, table } from './ui.js';

/**
 * The section, loading its first page; `el` to place in the page. `operador`: on the operator's
 * page of the company, each number opens the invoice's page in Financeiro.
 */
export function faturasDaEmpresa(empresa, { signal, operador = false }) {
  const list = h('div');
  const el = h('section', { class: 'company__invoices', 'aria-labelledby': 'empresa-faturas' },
    h('h2', { id: 'empresa-faturas' }, 'Faturas da empresa'),
    h('p', { class: 'small' }, operador
      ? 'Uma por ciclo pago do plano da empresa; o número abre a fatura no Financeiro.'
      : 'Uma por ciclo pago do plano da empresa, com o recibo para a contabilidade: ele traz a razão social, o CNPJ e o uso dos créditos por pessoa.'),
    list);
  let pagina = 1;

  function load() {
    replace(list);
    loadInto(list, () => api(`${caminhoDaEmpresa(empresa.empresaId)}/faturas`, { query: { pagina }, signal }), (page) => {
      list.append(
        table({
          caption: 'As mais recentes primeiro',
          empty: 'Nenhuma fatura ainda: ela é emitida quando o pagamento de um ciclo do plano da empresa é confirmado.',
          rows: page.itens,
          className: 'table--faturas',
          columns: colunasDeFatura(operador ? { detalhe: true } : { base: '/empresa/faturas' }),
        }),
        pager({ pagina: page.pagina, total: page.total, noun: ['fatura', 'faturas'], onPage: (n) => { pagina = n; load(); } }));
    }, { signal, text: 'Carregando as faturas da empresa…' });
  }
  load();
  return { el };
}
