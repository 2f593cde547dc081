// Charts as SVG, drawn from data the screen already has (no library, nothing from another
// origin). Each chart is an <svg role="img"> with a <title> and a <desc> that say what it shows
// and its main numbers; the screens also give the same data as a table (dataTable below), so
// nothing depends on seeing the chart. Scales fit the container's width through the viewBox.

import { h, svg, uid } from './dom.js';

const INK = '#1b1f24';
const MUTED = '#4a5260';
const GRID = '#d5dae2';
const BAR = '#0b5cad';

function frame({ title, desc, width, height, className }, ...children) {
  const titleId = uid('grafico-titulo');
  const descId = uid('grafico-desc');
  return svg('svg', {
    class: `chart ${className ?? ''}`, viewBox: `0 0 ${width} ${height}`, role: 'img',
    'aria-labelledby': `${titleId} ${descId}`, preserveAspectRatio: 'xMidYMid meet',
  },
  svg('title', { id: titleId }, title),
  svg('desc', { id: descId }, desc),
  ...children);
}

/**
 * Whether the screen is a phone's: the charts then draw on a narrower canvas (and fewer labels),
 * so that their text, scaled down with the canvas to the screen's width, stays readable.
 */
function naTelaEstreita() {
  return typeof window !== 'undefined' && Boolean(window.matchMedia?.('(max-width: 40rem)').matches);
}

/** `texto` cut to `max` characters, with an ellipsis. */
function cortado(texto, max) {
  const t = String(texto ?? '');
  return t.length > max ? `${t.slice(0, Math.max(1, max - 1))}…` : t;
}

/** A round step for an axis from 0 to `max` in about `ticks` steps (1, 2, 2.5, 5 × 10^n). */
function niceStep(max, ticks = 4) {
  if (max <= 0) return 1;
  const raw = max / ticks;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw);
  return step;
}

/**
 * Vertical bars, one per item: [{label, value, title}] (value ≥ 0; `title` is the tooltip of the
 * bar). `tick(value)` formats the axis; `labelEvery` thins the x labels (auto when omitted).
 */
export function barChart({ title, desc, items, tick = String, labelEvery, className = 'chart--bars' }) {
  const estreita = naTelaEstreita();
  const width = estreita ? 360 : 720;
  const height = estreita ? 240 : 280;
  const left = estreita ? 64 : 84;
  const right = estreita ? 8 : 12;
  const top = 16;
  const bottom = 44;
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const max = Math.max(0, ...items.map((i) => i.value));
  const step = niceStep(max);
  const top_ = Math.max(step, Math.ceil(max / step) * step);
  const y = (v) => top + plotH - (v / top_) * plotH;
  const slot = plotW / Math.max(1, items.length);
  const barW = Math.max(2, Math.min(48, slot * 0.7));
  // About 8 labels across (4 on a phone), never more than asked for.
  const every = Math.max(labelEvery ?? 1, Math.ceil(items.length / (estreita ? 4 : 8)));

  const grid = [];
  for (let v = 0; v <= top_ + step / 2; v += step) {
    grid.push(svg('line', { x1: left, x2: width - right, y1: y(v), y2: y(v), stroke: GRID, 'stroke-width': 1 }));
    grid.push(svg('text', { x: left - 8, y: y(v) + 4, 'text-anchor': 'end', 'font-size': 12, fill: MUTED }, tick(v)));
  }
  const bars = items.map((item, i) => {
    const x = left + slot * i + (slot - barW) / 2;
    const barH = Math.max(item.value > 0 ? 1 : 0, top + plotH - y(item.value));
    return svg('g', { class: 'chart__bar', 'data-valor': String(item.value) },
      svg('title', {}, item.title ?? `${item.label}: ${tick(item.value)}`),
      svg('rect', { x, y: top + plotH - barH, width: barW, height: barH, fill: BAR }));
  });
  const labels = items.map((item, i) => (i % every === 0
    ? svg('text', { x: left + slot * i + slot / 2, y: height - bottom + 18, 'text-anchor': 'middle', 'font-size': 12, fill: INK }, item.label)
    : null));
  const axis = svg('line', { x1: left, x2: width - right, y1: top + plotH, y2: top + plotH, stroke: INK, 'stroke-width': 1 });
  return frame({ title, desc, width, height, className }, ...grid, ...bars, axis, ...labels.filter(Boolean));
}

/** Horizontal bars with their values written at the end: [{label, value, text}]. */
export function hbarChart({ title, desc, items, className = 'chart--hbars' }) {
  const estreita = naTelaEstreita();
  const rowH = 34;
  const width = estreita ? 360 : 720;
  const left = estreita ? 112 : 210;
  const right = estreita ? 96 : 150;
  const fonte = estreita ? 13 : 14;
  // What fits left of the bars (a character is about 0.56 of the font's size).
  const caracteres = Math.floor((left - 12) / (fonte * 0.56));
  const height = Math.max(1, items.length) * rowH + 8;
  const max = Math.max(1, ...items.map((i) => i.value));
  const rows = items.map((item, i) => {
    const y0 = 4 + i * rowH;
    const w = Math.max(item.value > 0 ? 2 : 0, ((width - left - right) * Math.max(0, item.value)) / max);
    return svg('g', { class: 'chart__bar', 'data-valor': String(item.value) },
      svg('text', { x: left - 10, y: y0 + rowH / 2 + 4, 'text-anchor': 'end', 'font-size': fonte, fill: INK }, cortado(item.label, caracteres)),
      svg('rect', { x: left, y: y0 + 6, width: w, height: rowH - 12, fill: BAR }),
      svg('text', { x: left + w + 8, y: y0 + rowH / 2 + 4, 'font-size': fonte, fill: INK }, item.text));
  });
  return frame({ title, desc, width, height, className }, ...rows);
}

/** Five steps from light to dark blue; contrast of the text on each is chosen below. */
const HEAT = ['#eef4fb', '#c6dbf1', '#8fb8e3', '#3f7fc2', '#0b4f96'];

/** The colour of a share 0…1 (null: closed). */
export function heatColour(value) {
  if (value === null || value === undefined) return null;
  const index = Math.min(HEAT.length - 1, Math.floor(Math.max(0, value) * HEAT.length));
  return HEAT[index];
}

/**
 * A grid of cells: rows [{label, cells: [{value: 0…1 | null, title}]}], columns: labels of the
 * columns (the first row's length), `every`: write one column label in so many. `transpose`
 * draws the rows as columns (a week of 24 hours fits a phone as 7 columns of 24 rows).
 */
export function heatmap({ title, desc, rows, columns, every = 3, className = 'chart--heatmap', transpose = false }) {
  // Across: the labels on top; down: the labels on the left; cell(i, j) is rows[i].cells[j].
  const across = transpose ? rows.map((r) => r.label) : columns;
  const down = transpose ? columns : rows.map((r) => r.label);
  const cellAt = (a, d) => (transpose ? rows[a].cells[d] : rows[d].cells[a]);
  const cw = transpose ? 40 : 26;
  const ch = transpose ? 20 : 26;
  const left = 48;
  const top = 22;
  const width = left + across.length * cw + 4;
  const height = top + down.length * ch + 4;
  const header = across.map((c, j) => (transpose || j % every === 0
    ? svg('text', { x: left + j * cw + cw / 2, y: 15, 'text-anchor': 'middle', 'font-size': transpose ? 12 : 11, fill: transpose ? INK : MUTED }, c)
    : null)).filter(Boolean);
  const body = down.map((label, d) => svg('g', {},
    svg('text', { x: left - 6, y: top + d * ch + ch / 2 + 4, 'text-anchor': 'end', 'font-size': transpose ? 11 : 12, fill: transpose ? MUTED : INK }, label),
    across.map((_, a) => {
      const c = cellAt(a, d);
      const fill = heatColour(c.value);
      return svg('rect', {
        class: 'chart__cell', x: left + a * cw + 1, y: top + d * ch + 1, width: cw - 2, height: ch - 2, rx: 3,
        fill: fill ?? '#ffffff', stroke: fill ? 'none' : GRID, 'stroke-dasharray': fill ? null : '3 2',
        'data-valor': c.value === null || c.value === undefined ? '' : String(c.value),
      }, svg('title', {}, c.title));
    })));
  return frame({ title, desc, width, height, className: transpose ? `${className} chart--transposto` : className }, ...header, ...body);
}

/** The legend of heatmap(): the five steps and "fechado". */
export function heatLegend(format = (from, to) => `${Math.round(from * 100)}–${Math.round(to * 100)} %`) {
  return h('ul', { class: 'legend', 'aria-label': 'Legenda' },
    HEAT.map((colour, i) => h('li', {},
      svg('svg', { viewBox: '0 0 14 14', width: 14, height: 14, 'aria-hidden': 'true' }, svg('rect', { width: 14, height: 14, rx: 3, fill: colour })),
      ` ${format(i / HEAT.length, (i + 1) / HEAT.length)}`)),
    h('li', {},
      svg('svg', { viewBox: '0 0 14 14', width: 14, height: 14, 'aria-hidden': 'true' },
        svg('rect', { x: 0.5, y: 0.5, width: 13, height: 13, rx: 3, fill: '#ffffff', stroke: GRID, 'stroke-dasharray': '3 2' })),
      ' fechado'));
}

/** A chart and its data as a table the person can open ("Ver os números"). */
export function chartWithTable(chart, tableNode, { summary = 'Ver os números em tabela' } = {}) {
  return h('figure', { class: 'chart-figure' },
    chart,
    h('details', { class: 'chart-table' }, h('summary', {}, summary), tableNode));
}
