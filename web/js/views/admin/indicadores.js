// Analytics for the operation: the headline rates (no-show, cancellation, how far ahead people
// book), the memberships (MRR, by plan, month by month: indicadores-assinaturas.js), occupancy by
// hour of the week as a heatmap, occupancy of each space and revenue by space type in a period,
// and the members who book the most.

import { api } from '../../lib/api.js';
import { h, replace, uid } from '../../lib/dom.js';
import { TIPOS, DIAS } from '../../lib/labels.js';
import { money, percent, plural, todayIn, addDays, isDate, dateShort } from '../../lib/format.js';
import {
  pageHeader, loadInto, table, facts, field, val, fieldError, clearErrors, announce,
} from '../../lib/ui.js';
import { hbarChart, heatmap, heatLegend, chartWithTable } from '../../lib/charts.js';
import { usuariosPorId, pessoa } from './comum.js';
import { assinaturas } from './indicadores-assinaturas.js';

const number = (n, digits = 1) => Number(n ?? 0).toLocaleString('pt-BR', { maximumFractionDigits: digits });

/** 30.5 hours → "1 dia e 6,5 h"; 5 → "5 h". */
export function hoursText(hours) {
  if (hours === null || hours === undefined) return '—';
  if (hours < 24) return `${number(hours)} h`;
  const days = Math.floor(hours / 24);
  const rest = hours - days * 24;
  return `${days} ${days === 1 ? 'dia' : 'dias'}${rest >= 0.05 ? ` e ${number(rest)} h` : ''}`;
}

export function render({ container, query, setQuery, signal }) {
  const hoje = todayIn();
  const state = {
    de: isDate(query.get('de')) ? query.get('de') : addDays(hoje, -29),
    ate: isDate(query.get('ate')) ? query.get('ate') : hoje,
  };
  const kpis = h('section', { 'aria-labelledby': 'kpis-titulo' });
  const assinaturasSecao = h('section', { 'aria-labelledby': 'assinaturas-titulo' });
  const semana = h('section', { class: 'panel', 'aria-labelledby': 'semana-titulo' });
  const filters = h('form', { class: 'filters', role: 'search', 'aria-label': 'Período', novalidate: true },
    field({ label: 'De', name: 'de', type: 'date', value: state.de }),
    field({ label: 'Até (inclusive)', name: 'ate', type: 'date', value: state.ate }),
    h('div', { class: 'filters__actions' }, h('button', { type: 'submit', class: 'button' }, 'Atualizar')));
  const ocupacao = h('section', { 'aria-labelledby': 'ocupacao-titulo' });
  const receita = h('section', { 'aria-labelledby': 'receita-tipo-titulo' });
  const membros = h('section', { 'aria-labelledby': 'membros-titulo' });
  replace(container,
    pageHeader('Indicadores', 'Como os espaços são usados: ausências, cancelamentos, assinaturas, ocupação, receita e membros.'),
    kpis, assinaturasSecao, semana,
    h('h2', {}, 'No período'),
    filters, ocupacao, receita, membros);

  filters.addEventListener('submit', (event) => {
    event.preventDefault();
    clearErrors(filters);
    const de = val(filters, 'de');
    const ate = val(filters, 'ate');
    if (!isDate(de)) return fieldError(filters, 'de', 'Informe a data inicial.');
    if (!isDate(ate)) return fieldError(filters, 'ate', 'Informe a data final.');
    if (ate < de) return fieldError(filters, 'ate', 'A data final deve ser igual ou depois da inicial.');
    if (Date.parse(ate) - Date.parse(de) > 365 * 86_400_000) return fieldError(filters, 'ate', 'Escolha um período de até um ano.');
    Object.assign(state, { de, ate });
    loadPeriod();
  });

  // ---- headline numbers (all time) --------------------------------------------------------------
  replace(kpis, h('h2', { id: 'kpis-titulo' }, 'Desde o início'));
  const kpiBody = h('div');
  kpis.append(kpiBody);
  loadInto(kpiBody, () => api('/api/analytics/indicadores', { signal }), (i) => {
    const card = (label, value, detail) => h('li', { class: 'kpi' },
      h('span', { class: 'kpi__label' }, label),
      h('strong', { class: 'kpi__value' }, value),
      detail ? h('span', { class: 'kpi__detail small' }, detail) : null);
    kpiBody.append(h('ul', { class: 'kpis' },
      card('Taxa de ausência (no-show)', percent(i.taxaDeNoShow), `${plural(i.noShows, 'ausência', 'ausências')} em ${plural((i.noShows ?? 0) + (i.checkins ?? 0), 'reserva', 'reservas')} com check-in esperado`),
      card('Taxa de cancelamento', percent(i.taxaDeCancelamento), `${i.reservasCanceladas ?? 0} de ${plural(i.reservasSolicitadas, 'reserva solicitada', 'reservas solicitadas')}`),
      card('Antecedência média', hoursText(i.antecedenciaMediaHoras), 'entre o pedido e o início das reservas confirmadas'),
      card('Receita', money(i.receita), `${money(i.pagamentos)} em ${plural(i.quantidadePagamentos, 'pagamento', 'pagamentos')}, − ${money(i.reembolsos)} em ${plural(i.quantidadeReembolsos, 'reembolso', 'reembolsos')}`)),
    facts([
      ['Reservas', `${plural(i.reservasSolicitadas, 'solicitada', 'solicitadas')} · ${plural(i.reservasConfirmadas, 'confirmada', 'confirmadas')} · ${plural(i.reservasCanceladas, 'cancelada', 'canceladas')} (${i.canceladasAposConfirmacao ?? 0} depois de pagas) · ${plural(i.reservasExpiradas, 'expirada', 'expiradas')} sem pagamento · ${plural(i.reservasRecusadas ?? 0, 'liberada', 'liberadas')} por pagamento recusado`],
      ['Check-ins', `${plural(i.checkins, 'feito', 'feitos')} · ${plural(i.noShows, 'ausência', 'ausências')}`],
    ]));
  }, { signal, text: 'Calculando os indicadores…' });

  // ---- memberships: MRR, by plan, month by month (now, not the period) --------------------------
  assinaturas(assinaturasSecao, { signal });

  // ---- occupancy by hour of the week ------------------------------------------------------------
  replace(semana, h('h2', { id: 'semana-titulo' }, 'Ocupação por hora da semana'),
    h('p', { class: 'small' }, 'Horas reservadas (e, nas mesas fixas e salas privativas, locadas) sobre horas abertas, em cada hora da semana (horário local de cada espaço), somando todas as semanas desde o cadastro até a última reserva ou locação.'));
  const semanaBody = h('div');
  semana.append(semanaBody);
  loadInto(semanaBody, () => api('/api/analytics/ocupacao/semana', { signal }), (s) => {
    const selectId = uid('espaco');
    const select = h('select', { id: selectId, name: 'espaco' },
      h('option', { value: '' }, 'Todos os espaços'),
      s.espacos.map((e) => h('option', { value: e.espacoId }, `${e.nome} (${TIPOS[e.tipo] ?? e.tipo})`)));
    const chart = h('div');
    // On a phone the week stands up: days across, hours down, each cell big enough to read.
    const narrow = matchMedia('(max-width: 40rem)');
    const draw = () => {
      const espaco = s.espacos.find((e) => e.espacoId === select.value);
      replace(chart, weekHeatmap(espaco ? espaco.horas : s.total, espaco ? espaco.nome : 'todos os espaços', narrow.matches));
    };
    select.addEventListener('change', draw);
    narrow.addEventListener('change', draw);
    signal.addEventListener('abort', () => narrow.removeEventListener('change', draw));
    semanaBody.append(h('div', { class: 'field field--inline' }, h('label', { for: selectId }, 'Espaço'), select), chart);
    draw();
  }, { signal, text: 'Carregando a ocupação por hora…' });

  // ---- the period ---------------------------------------------------------------------------------
  function loadPeriod() {
    setQuery(state);
    const periodo = `${dateShort(state.de)} a ${dateShort(state.ate)}`;

    replace(ocupacao, h('h3', { id: 'ocupacao-titulo' }, `Ocupação por espaço, ${periodo}`));
    const ocupacaoBody = h('div');
    ocupacao.append(ocupacaoBody);
    loadInto(ocupacaoBody, () => api('/api/analytics/ocupacao', { query: state, signal }), (o) => {
      const rows = [...o.espacos].sort((a, b) => (b.ocupacao ?? -1) - (a.ocupacao ?? -1));
      // A let desk or office is occupied for its lease's open hours (a column only when any is let).
      const locados = rows.some((e) => e.horasLocadas > 0);
      ocupacaoBody.append(table({
        caption: locados
          ? 'Horas reservadas e locadas sobre horas abertas (mais ocupados primeiro)'
          : 'Horas reservadas sobre horas abertas (mais ocupados primeiro)',
        empty: 'Nenhum espaço cadastrado.',
        rows,
        columns: [
          { label: 'Espaço', cell: (e) => e.nome },
          { label: 'Tipo', cell: (e) => TIPOS[e.tipo] ?? e.tipo },
          { label: 'Reservadas', cell: (e) => `${number(e.horasReservadas)} h`, class: 'num' },
          ...(locados ? [{ label: 'Locadas', cell: (e) => `${number(e.horasLocadas)} h`, class: 'num' }] : []),
          { label: 'Abertas', cell: (e) => `${number(e.horasAbertas)} h`, class: 'num' },
          { label: 'Ocupação', cell: (e) => meter(e.ocupacao), class: 'num' },
        ],
      }));
    }, { signal, text: 'Calculando a ocupação…' });

    replace(receita, h('h3', { id: 'receita-tipo-titulo' }, `Receita por tipo de espaço, ${periodo}`));
    const receitaBody = h('div');
    receita.append(receitaBody);
    loadInto(receitaBody, () => api('/api/analytics/receita', { query: state, signal }), (r) => {
      announce(`Receita do período: ${money(r.total.receita)}`);
      if (!r.tipos.length) {
        receitaBody.append(h('p', { class: 'empty' }, 'Nenhum pagamento no período.'));
        return;
      }
      receitaBody.append(chartWithTable(
        hbarChart({
          title: `Receita (pagamentos − reembolsos) por tipo de espaço, ${periodo}`,
          desc: `${r.tipos.map((t) => `${TIPOS[t.tipo] ?? t.tipo}: ${money(t.receita)}`).join('; ')}. Total: ${money(r.total.receita)}.`,
          items: r.tipos.map((t) => ({ label: TIPOS[t.tipo] ?? t.tipo, value: t.receita, text: money(t.receita) })),
          className: 'chart--hbars chart--receita-tipo',
        }),
        table({
          caption: `Total: ${money(r.total.receita)}`,
          rows: r.tipos,
          columns: [
            { label: 'Tipo', cell: (t) => TIPOS[t.tipo] ?? t.tipo },
            { label: 'Pagamentos', cell: (t) => `${money(t.pagamentos)} (${t.quantidadePagamentos})`, class: 'num' },
            { label: 'Reembolsos', cell: (t) => `${money(t.reembolsos)} (${t.quantidadeReembolsos})`, class: 'num' },
            { label: 'Receita', cell: (t) => money(t.receita), class: 'num' },
          ],
        })));
    }, { signal, text: 'Calculando a receita…' });
  }

  // ---- top members (all time) ----------------------------------------------------------------------
  replace(membros, h('h2', { id: 'membros-titulo' }, 'Membros que mais reservam'),
    h('p', { class: 'small' }, 'Desde o início; reservas confirmadas e não canceladas.'));
  const membrosBody = h('div', { class: 'two-columns' });
  membros.append(membrosBody);
  loadInto(membrosBody, async () => {
    const [top, usuarios] = await Promise.all([api('/api/analytics/membros', { query: { limite: 10 }, signal }), usuariosPorId(signal)]);
    return { top, usuarios };
  }, ({ top, usuarios }) => {
    const ranking = (caption, rows) => table({
      caption,
      empty: 'Nenhuma reserva confirmada ainda.',
      rows: rows.map((m, i) => ({ ...m, posicao: i + 1 })),
      columns: [
        { label: '#', cell: (m) => String(m.posicao), class: 'num' },
        { label: 'Membro', cell: (m) => pessoa(usuarios, m.usuarioId) },
        { label: 'Horas', cell: (m) => `${number(m.horasConfirmadas)} h`, class: 'num' },
        { label: 'Reservas', cell: (m) => String(m.reservasConfirmadas), class: 'num' },
        { label: 'Receita', cell: (m) => money(m.receita), class: 'num' },
      ],
    });
    membrosBody.append(ranking('Por horas reservadas', top.porHoras), ranking('Por receita', top.porReceita));
  }, { signal, text: 'Carregando o ranking…' });

  loadPeriod();
}

/** "3 h reservadas" or, with a lease in that hour, "1 h reservada + 2 h locadas". */
function ocupadas(c) {
  const horas = (n, um, varios) => `${number(n)} h ${n === 1 ? um : varios}`;
  const reservadas = horas(c.horasReservadas, 'reservada', 'reservadas');
  return c.horasLocadas > 0 ? `${reservadas} + ${horas(c.horasLocadas, 'locada', 'locadas')}` : reservadas;
}

function meter(fraction) {
  if (fraction === null || fraction === undefined) return h('span', { class: 'small' }, 'fechado');
  return h('span', { class: 'meter-cell' },
    h('meter', { min: '0', max: '1', value: String(fraction), 'aria-hidden': 'true' }),
    ` ${percent(fraction)}`);
}

/**
 * 168 hours (0 = domingo 00h) as rows Monday…Sunday × 24 columns (`transpose`: 24 rows × 7
 * columns, for a phone), with a table of the same.
 */
function weekHeatmap(horas, nome, transpose = false) {
  const byDay = new Map();
  for (const hora of horas) {
    if (!byDay.has(hora.diaDaSemana)) byDay.set(hora.diaDaSemana, []);
    byDay.get(hora.diaDaSemana)[hora.horaDoDia] = hora;
  }
  const hh = (n) => `${String(n).padStart(2, '0')}h`;
  const rows = DIAS.map(([key, label]) => ({
    key,
    label: label.slice(0, 3),
    full: label,
    cells: Array.from({ length: 24 }, (_, i) => {
      const c = byDay.get(key)?.[i];
      const value = c && c.horasAbertas > 0 ? (c.ocupacao ?? 0) : null;
      return {
        value,
        hora: c,
        title: value === null ? `${label}, ${hh(i)}: fechado` : `${label}, ${hh(i)}: ${percent(value)} (${ocupadas(c)} de ${number(c.horasAbertas)} h)`,
      };
    }),
  }));
  const open = horas.filter((c) => c.horasAbertas > 0);
  const busiest = [...open].sort((a, b) => (b.ocupacao ?? 0) - (a.ocupacao ?? 0)).filter((c) => (c.ocupacao ?? 0) > 0).slice(0, 3);
  const dayName = (key) => DIAS.find(([k]) => k === key)?.[1] ?? key;
  const desc = !open.length
    ? 'Ainda não há horas abertas com reservas ou locações para medir.'
    : busiest.length
      ? `Horários mais ocupados: ${busiest.map((c) => `${dayName(c.diaDaSemana)} às ${hh(c.horaDoDia)}, ${percent(c.ocupacao)}`).join('; ')}.`
      : 'Nenhuma hora reservada ou locada ainda.';
  const chart = heatmap({
    title: `Ocupação por hora da semana, ${nome}`,
    desc,
    rows,
    columns: Array.from({ length: 24 }, (_, i) => hh(i)),
    transpose,
  });
  const tableNode = table({
    caption: `Ocupação por hora, ${nome} (vazio: fechado)`,
    rows: Array.from({ length: 24 }, (_, i) => i),
    columns: [
      { label: 'Hora', cell: (i) => hh(i) },
      ...rows.map((r) => ({ label: r.full, cell: (i) => (r.cells[i].value === null ? '' : percent(r.cells[i].value)), class: 'num' })),
    ],
  });
  return [
    h('p', { class: 'chart-summary' }, desc),
    h('div', { class: 'chart-scroll' }, chartWithTable(chart, tableNode)),
    heatLegend(),
  ];
}
