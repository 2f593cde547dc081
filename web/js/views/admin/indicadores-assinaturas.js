// The memberships part of "Indicadores": the monthly recurring revenue (MRR) and the active,
// suspended and paused subscriptions now, the MRR of each plan (a bar chart with its table), and
// the last 12 months (MRR at the end of each as a bar chart; started, ended, churn, MRR, revenue
// and use of the credits granted as a table, the current month first). The figures come from a
// read model that may lag a moment behind what just happened, so the section says so.

import { api } from '../../lib/api.js';
import { h, link, replace } from '../../lib/dom.js';
import { money, moneyCompact, percent, plural, duration } from '../../lib/format.js';
import { loadInto, table } from '../../lib/ui.js';
import { barChart, hbarChart, chartWithTable } from '../../lib/charts.js';

const MESES = 12;

const monthShort = new Intl.DateTimeFormat('pt-BR', { timeZone: 'UTC', month: 'short' });

/** "2026-11" → "nov." */
export function mesAbreviado(mes) {
  const [y, m] = String(mes).split('-').map(Number);
  return monthShort.format(new Date(Date.UTC(y, m - 1, 1)));
}

/** "2026-11" → "nov. 2026". */
export function mesEmPalavras(mes) {
  return `${mesAbreviado(mes)} ${String(mes).slice(0, 4)}`;
}

const count = (n) => Number(n ?? 0).toLocaleString('pt-BR');

/**
 * A plan's name short enough for the chart's label column (the table and the desc say it whole);
 * shorter on a phone, where the chart's type is drawn larger (app.css).
 */
const rotulo = (nome, max = 24) => (nome.length > max ? `${nome.slice(0, max - 1).trimEnd()}…` : nome);

/** Nothing to show: no subscription now and none in any of the months. */
function semAssinaturas(a) {
  const agora = (a.ativas ?? 0) + (a.suspensas ?? 0) + (a.pausadas ?? 0) + (a.agendadas ?? 0);
  return agora === 0 && !a.porPlano?.length
    && (a.meses ?? []).every((m) => !m.ativasNoInicio && !m.ativasNoFim && !m.novas && !m.encerradas && !m.receita);
}

/** Fills `section` (a <section> of the screen) with the memberships' figures. */
export function assinaturas(section, { signal }) {
  replace(section, h('h2', { id: 'assinaturas-titulo' }, 'Assinaturas'),
    h('p', { class: 'small' },
      'Agora e mês a mês. MRR é a receita recorrente mensal das assinaturas ativas (uma anuidade conta um doze avos por mês). '
      + 'Uma assinatura ou um pagamento recentes podem levar alguns segundos para aparecer aqui.'));
  const body = h('div');
  section.append(body);
  loadInto(body, () => api('/api/analytics/assinaturas', { query: { meses: MESES }, signal }), (a) => {
    if (semAssinaturas(a)) {
      body.append(h('p', { class: 'empty' }, 'Nenhuma assinatura ainda: quando um membro assinar um plano, a receita recorrente, os planos e os meses aparecem aqui.'),
        h('p', {}, link('/admin/planos', 'Ver os planos')));
      return;
    }
    body.append(kpis(a), porPlano(a), meses(a.meses ?? []));
  }, { signal, text: 'Calculando as assinaturas…' });
}

function kpis(a) {
  const card = (label, value, detail, lista) => h('li', { class: 'kpi' },
    h('span', { class: 'kpi__label' }, label),
    h('strong', { class: 'kpi__value' }, value),
    detail ? h('span', { class: 'kpi__detail small' }, detail) : null,
    lista ? h('span', { class: 'kpi__detail small' }, lista) : null);
  const verNaLista = (n, status, texto) => (n > 0 ? link(`/admin/assinaturas?status=${status}`, texto) : null);
  const planos = a.porPlano?.length ?? 0;
  return h('ul', { class: 'kpis kpis--assinaturas', 'aria-label': 'Assinaturas agora' },
    card('Receita recorrente mensal (MRR)', money(a.mrr),
      a.ativas ? `de ${plural(a.ativas, 'assinatura ativa', 'assinaturas ativas')} em ${plural(planos, 'plano', 'planos')}` : 'nenhuma assinatura ativa agora'),
    card('Ativas', count(a.ativas),
      a.agendadas ? `e ${plural(a.agendadas, 'agendada', 'agendadas')} para começar numa data futura` : 'nenhuma agendada para começar numa data futura',
      verNaLista(a.ativas, 'ativa', 'Ver as ativas')),
    card('Suspensas', count(a.suspensas), 'um ciclo não foi pago depois de todas as tentativas: sem benefícios até pagar',
      verNaLista(a.suspensas, 'suspensa', 'Ver as suspensas')),
    card('Pausadas', count(a.pausadas), 'sem ciclos, cobranças nem benefícios até retomar',
      verNaLista(a.pausadas, 'pausada', 'Ver as pausadas')));
}

function porPlano(a) {
  const planos = a.porPlano ?? [];
  const section = h('section', { 'aria-labelledby': 'mrr-plano-titulo' }, h('h3', { id: 'mrr-plano-titulo' }, 'MRR por plano'));
  if (!planos.length) {
    section.append(h('p', { class: 'empty' }, 'Nenhuma assinatura ativa agora.'));
    return section;
  }
  const narrow = matchMedia('(max-width: 40rem)').matches;
  section.append(chartWithTable(
    hbarChart({
      title: 'Receita recorrente mensal (MRR) por plano, assinaturas ativas agora',
      desc: `${planos.map((p) => `${p.nome}: ${money(p.mrr)} (${plural(p.ativas, 'ativa', 'ativas')})`).join('; ')}. Total: ${money(a.mrr)}.`,
      items: planos.map((p) => ({ label: rotulo(p.nome, narrow ? 15 : 24), value: p.mrr, text: money(p.mrr) })),
      className: 'chart--hbars chart--mrr-plano',
    }),
    table({
      caption: `MRR total: ${money(a.mrr)}`,
      className: 'table--mrr-plano',
      rows: planos,
      rowAttrs: (p) => ({ dataset: { plano: p.planoId } }),
      columns: [
        { label: 'Plano', cell: (p) => p.nome },
        { label: 'Ativas', cell: (p) => count(p.ativas), class: 'num' },
        { label: 'MRR', cell: (p) => money(p.mrr), class: 'num' },
        { label: 'Parte do MRR', cell: (p) => (a.mrr ? percent(p.mrr / a.mrr) : '—'), class: 'num' },
      ],
    })));
  return section;
}

function meses(lista) {
  const section = h('section', { 'aria-labelledby': 'assinaturas-meses-titulo' });
  if (!lista.length) return section;
  const primeiro = lista[0];
  const atual = lista[lista.length - 1];
  const faixa = `${mesEmPalavras(primeiro.mes)} a ${mesEmPalavras(atual.mes)}`;
  const maior = lista.reduce((best, m) => (m.mrrNoFim > best.mrrNoFim ? m : best), primeiro);
  const nome = (m) => (m === atual ? `${mesEmPalavras(m.mes)} (até agora)` : mesEmPalavras(m.mes));
  section.append(
    h('h3', { id: 'assinaturas-meses-titulo' }, `Mês a mês, ${faixa}`),
    h('figure', { class: 'chart-figure' },
      barChart({
        title: `MRR no fim de cada mês, ${faixa}`,
        desc: `${nome(primeiro)}: ${money(primeiro.mrrNoFim)}; ${nome(atual)}: ${money(atual.mrrNoFim)}; `
          + `o maior foi ${money(maior.mrrNoFim)}, em ${mesEmPalavras(maior.mes)}. A tabela abaixo traz os números de cada mês.`,
        items: lista.map((m) => ({ label: mesAbreviado(m.mes), value: m.mrrNoFim, title: `${nome(m)}: ${money(m.mrrNoFim)}` })),
        tick: moneyCompact,
        labelEvery: 1,
        className: 'chart--bars chart--mrr-mes',
      })),
    table({
      caption: 'Assinaturas por mês, o mês atual primeiro',
      className: 'table--assinaturas-meses',
      rows: [...lista].reverse(),
      rowAttrs: (m) => ({ dataset: { mes: m.mes } }),
      columns: [
        {
          label: 'Mês',
          cell: (m) => (m === atual ? [mesEmPalavras(m.mes), h('span', { class: 'small' }, ' (até agora)')] : mesEmPalavras(m.mes)),
        },
        { label: 'Novas', cell: (m) => count(m.novas), class: 'num' },
        { label: 'Encerradas', cell: (m) => count(m.encerradas), class: 'num' },
        { label: 'Churn', cell: (m) => percent(m.churn), class: 'num' },
        { label: 'MRR no fim', cell: (m) => money(m.mrrNoFim), class: 'num' },
        { label: 'Receita', cell: receita, class: 'num' },
        { label: 'Uso de créditos', cell: usoDeCreditos, class: 'num' },
      ],
    }),
    h('p', { class: 'small' },
      'Churn: assinaturas encerradas no mês ÷ ativas no início dele. Receita: ciclos de assinatura e pacotes de créditos pagos no mês. '
      + 'Uso de créditos: horas usadas ÷ horas concedidas pelos planos e pacotes no mês. “—”: nada para dividir.'));
  return section;
}

/** The month's revenue and, under it, the bundles' share of it. */
function receita(m) {
  if (!(m.receitaDePacotes > 0)) return money(m.receita);
  return [money(m.receita), h('span', { class: 'receita__pacotes small' }, `${money(m.receitaDePacotes)} em pacotes`)];
}

function usoDeCreditos(m) {
  if (!m.minutosConcedidos) return percent(m.utilizacaoDeCreditos);
  const usados = Math.max(0, m.minutosConsumidos ?? 0);
  return [percent(m.utilizacaoDeCreditos),
    h('span', { class: 'uso-creditos__horas small' }, `${usados > 0 ? duration(usados) : '0 h'} de ${duration(m.minutosConcedidos)}`)];
}
