// Finance: revenue of a period (by day as a bar chart, by space type), the exports of the
// invoices and of the ledger for that period — plain CSV (RFC 4180) for other systems and the
// Excel dialect (Excel in Portuguese opens it as it is) — and the ledger's balances. One unit or
// all of them.

import { api, apiFile } from '../../lib/api.js';
import { h, replace } from '../../lib/dom.js';
import { TIPOS_DE_RECEITA, CONTAS } from '../../lib/labels.js';
import { money, moneyCompact, todayIn, addDays, isDate, dateShort } from '../../lib/format.js';
import {
  pageHeader, loadInto, table, facts, badge, field, val, fieldError, clearErrors, busy, errorBox, downloadBlob, announce,
} from '../../lib/ui.js';
import { barChart, hbarChart, chartWithTable } from '../../lib/charts.js';
import { unidadeSelect, financeiroTabs, financeiroTabsDaUnidade } from './comum.js';

export async function render({ container, query, setQuery, signal }) {
  const tabs = financeiroTabs('resumo');
  replace(container, pageHeader('Financeiro', 'Receita, faturas e razão contábil, por unidade e período.'), tabs);
  const filters = h('form', { class: 'filters', role: 'search', 'aria-label': 'Unidade e período', novalidate: true });
  const receita = h('section', { 'aria-labelledby': 'receita-titulo' });
  const exportar = h('section', { class: 'panel', 'aria-labelledby': 'exportar-titulo' });
  const razao = h('section', { 'aria-labelledby': 'razao-titulo' });
  container.append(filters, receita, exportar, razao);

  let unidadeField;
  let select;
  let unidades;
  try {
    ({ field: unidadeField, select, unidades } = await unidadeSelect({ value: query.get('unidade') ?? '', includeEmpty: 'Todas as unidades', signal }));
  } catch (error) {
    if (error?.name !== 'AbortError') replace(filters, errorBox(error));
    return;
  }
  const hoje = todayIn();
  const state = {
    unidade: select.value,
    de: isDate(query.get('de')) ? query.get('de') : addDays(hoje, -29),
    ate: isDate(query.get('ate')) ? query.get('ate') : hoje,
  };
  replace(filters,
    unidadeField,
    field({ label: 'De', name: 'de', type: 'date', value: state.de }),
    field({ label: 'Até (inclusive)', name: 'ate', type: 'date', value: state.ate }),
    h('div', { class: 'filters__actions' }, h('button', { type: 'submit', class: 'button' }, 'Atualizar')));
  filters.addEventListener('submit', (event) => {
    event.preventDefault();
    clearErrors(filters);
    const de = val(filters, 'de');
    const ate = val(filters, 'ate');
    if (!isDate(de)) return fieldError(filters, 'de', 'Informe a data inicial.');
    if (!isDate(ate)) return fieldError(filters, 'ate', 'Informe a data final.');
    if (ate < de) return fieldError(filters, 'ate', 'A data final deve ser igual ou depois da inicial.');
    if (Date.parse(ate) - Date.parse(de) > 366 * 86_400_000) return fieldError(filters, 'ate', 'Escolha um período de até um ano.');
    Object.assign(state, { unidade: select.value, de, ate });
    load();
  });
  select.addEventListener('change', () => { state.unidade = select.value; load(); });

  const nomeDaUnidade = () => unidades.find((u) => u.id === state.unidade)?.nome ?? 'todas as unidades';

  function load() {
    setQuery(state);
    financeiroTabsDaUnidade(tabs, state.unidade);
    loadReceita();
    drawExports();
    loadRazao();
  }

  function loadReceita() {
    replace(receita, h('h2', { id: 'receita-titulo' }, 'Receita do período'));
    const body = h('div');
    receita.append(body);
    loadInto(body, () => api('/api/financeiro/relatorios/receita', { query: state, signal }), (r) => {
      const t = r.totais;
      announce(`Receita líquida de ${money(t.liquido)} no período`);
      const periodo = `${dateShort(r.de)} a ${dateShort(r.ate)}`;
      const melhor = r.porDia.reduce((best, d) => (d.liquido > (best?.liquido ?? -Infinity) ? d : best), null);
      body.append(
        facts([
          ['Faturado (bruto)', money(t.bruto)],
          ['Reembolsos', t.reembolsos ? `− ${money(t.reembolsos)}` : money(0)],
          ['Receita líquida', h('strong', { class: 'total' }, money(t.liquido))],
          ['ISS', `${money(t.iss)} (faturado ${money(t.issFaturado ?? t.iss)}, devolvido ${money(t.issDevolvido ?? 0)})`],
          ['Documentos', `${t.faturas ?? 0} ${t.faturas === 1 ? 'fatura' : 'faturas'}, ${t.notasDeCredito ?? 0} ${t.notasDeCredito === 1 ? 'nota de crédito' : 'notas de crédito'}`],
        ]),
        h('h3', {}, 'Receita líquida por dia'),
        chartWithTable(
          barChart({
            title: `Receita líquida por dia, ${nomeDaUnidade()}, ${periodo}`,
            desc: t.liquido
              ? `Total de ${money(t.liquido)} em ${r.porDia.length} dias; o maior dia foi ${dateShort(melhor.data)}, com ${money(melhor.liquido)}.`
              : `Nenhuma receita em ${r.porDia.length} dias.`,
            items: r.porDia.map((d) => ({ label: dateShort(d.data).slice(0, 5), value: d.liquido, title: `${dateShort(d.data)}: ${money(d.liquido)}` })),
            tick: moneyCompact,
            className: 'chart--bars chart--receita',
          }),
          table({
            caption: `Receita por dia, ${periodo}`,
            rows: r.porDia,
            columns: [
              { label: 'Dia', cell: (d) => dateShort(d.data) },
              { label: 'Faturas', cell: (d) => String(d.faturas ?? 0), class: 'num' },
              { label: 'Bruto', cell: (d) => money(d.bruto), class: 'num' },
              { label: 'Reembolsos', cell: (d) => money(d.reembolsos), class: 'num' },
              { label: 'Líquido', cell: (d) => money(d.liquido), class: 'num' },
              { label: 'ISS', cell: (d) => money(d.iss), class: 'num' },
            ],
          })),
        h('h3', {}, 'Por tipo de espaço'),
        r.porTipoDeEspaco.length
          ? chartWithTable(
            hbarChart({
              title: `Receita líquida por tipo de espaço, ${periodo}`,
              desc: r.porTipoDeEspaco.map((l) => `${TIPOS_DE_RECEITA[l.tipoDeEspaco] ?? l.tipoDeEspaco}: ${money(l.liquido)}`).join('; '),
              items: r.porTipoDeEspaco.map((l) => ({ label: TIPOS_DE_RECEITA[l.tipoDeEspaco] ?? l.tipoDeEspaco, value: l.liquido, text: money(l.liquido) })),
            }),
            tipoTable(r.porTipoDeEspaco))
          : h('p', { class: 'empty' }, 'Nenhuma fatura no período.'));
    }, { signal, text: 'Calculando a receita…' });
  }

  function drawExports() {
    const status = h('div', { 'aria-live': 'polite' });
    /** A download button; `dialeto` 'excel' asks for the Excel dialect, named "-excel" too. */
    const button = (text, path, fallback, dialeto) => {
      const b = h('button', { type: 'button', class: 'button button--secondary' }, text);
      b.addEventListener('click', async () => {
        const restore = busy(b, 'Gerando…');
        replace(status);
        try {
          const query = dialeto ? { ...state, dialeto } : state;
          const { blob, filename } = await apiFile(path, { query, signal, fallback });
          const name = filename.replace(/\.csv$/, `${dialeto ? `-${dialeto}` : ''}-${state.de}-a-${state.ate}.csv`);
          downloadBlob(name, blob);
          replace(status, h('p', { class: 'alert alert--sucesso' }, `Arquivo ${name} gerado. Confira a pasta de downloads.`));
        } catch (error) {
          if (error?.name !== 'AbortError') replace(status, errorBox(error));
        } finally {
          restore();
        }
      });
      return b;
    };
    replace(exportar,
      h('h2', { id: 'exportar-titulo' }, 'Exportar para a contabilidade'),
      h('p', {}, `Do período de ${dateShort(state.de)} a ${dateShort(state.ate)}, ${nomeDaUnidade()}.`),
      h('ul', { class: 'small' },
        h('li', {}, 'CSV: separado por vírgula, ponto decimal, horários em UTC e identificadores, para importar em outros sistemas.'),
        h('li', {}, 'Excel: separado por ponto e vírgula, vírgula decimal, horário local e nomes, para abrir direto no Excel em português.')),
      h('div', { class: 'actions' },
        button('Baixar faturas (CSV)', '/api/admin/financeiro/faturas.csv', 'faturas.csv'),
        button('Baixar lançamentos do razão (CSV)', '/api/admin/financeiro/razao.csv', 'razao.csv')),
      h('div', { class: 'actions' },
        button('Baixar faturas (Excel)', '/api/admin/financeiro/faturas.csv', 'faturas.csv', 'excel'),
        button('Baixar lançamentos do razão (Excel)', '/api/admin/financeiro/razao.csv', 'razao.csv', 'excel')),
      status);
  }

  function loadRazao() {
    replace(razao,
      h('h2', { id: 'razao-titulo' }, 'Razão'),
      h('p', { class: 'small' }, `Saldos acumulados de todas as datas, ${nomeDaUnidade()}.`));
    const body = h('div');
    razao.append(body);
    loadInto(body, () => api('/api/admin/financeiro/razao', { query: { unidade: state.unidade }, signal }), (r) => {
      body.append(
        table({
          caption: 'Saldos por conta',
          rows: r.contas,
          columns: [
            { label: 'Conta', cell: (c) => c.nome ?? CONTAS[c.conta] ?? c.conta },
            { label: 'Natureza', cell: (c) => (c.natureza === 'credora' ? 'Credora' : 'Devedora') },
            { label: 'Débitos', cell: (c) => money(c.debitos), class: 'num' },
            { label: 'Créditos', cell: (c) => money(c.creditos), class: 'num' },
            { label: 'Saldo', cell: (c) => money(c.saldo), class: 'num' },
          ],
        }),
        facts([
          ['Total de débitos', money(r.totalDebitos)],
          ['Total de créditos', money(r.totalCreditos)],
          ['Lançamentos', String(r.lancamentos ?? 0)],
          ['Conferência', r.equilibrado ? badge('Equilibrado: débitos = créditos', 'sucesso') : badge('Desequilibrado: avise a equipe técnica', 'aviso')],
        ]));
    }, { signal, text: 'Carregando o razão…' });
  }

  load();
}

function tipoTable(linhas) {
  return table({
    caption: 'Receita por tipo de espaço',
    rows: linhas,
    columns: [
      { label: 'Tipo', cell: (l) => TIPOS_DE_RECEITA[l.tipoDeEspaco] ?? l.tipoDeEspaco },
      { label: 'Faturas', cell: (l) => String(l.faturas ?? 0), class: 'num' },
      { label: 'Bruto', cell: (l) => money(l.bruto), class: 'num' },
      { label: 'Reembolsos', cell: (l) => money(l.reembolsos), class: 'num' },
      { label: 'Líquido', cell: (l) => money(l.liquido), class: 'num' },
      { label: 'ISS', cell: (l) => money(l.iss), class: 'num' },
    ],
  });
}
