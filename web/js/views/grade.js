// Pieces the space's week and the unit's grid share: a day of a space cut by the hour
// (agenda.porHora) and one hour as a table cell — free time a link to book it (the space's day
// with that start picked), the rest in words — inside a box that scrolls sideways on its own.

import { api } from '../lib/api.js';
import { h, link } from '../lib/dom.js';
import { slots as cutSlots } from '../lib/slots.js';
import { faixasDoDia, bloqueiosDoDia, motivoDoBloqueio, porHora } from '../lib/agenda.js';
import { time } from '../lib/format.js';

/** A space's local day by the hour: Map(minutes of the hour → agenda.porHora's entry). */
export async function diaPorHora(espaco, data, tz, { signal } = {}) {
  const disp = await api(`/api/espacos/${espaco.id}/disponibilidade`, { query: { data }, signal });
  const list = cutSlots(disp, {
    antecedenciaMinimaMinutos: espaco.regras?.antecedenciaMinimaMinutos ?? 0,
    abertura: faixasDoDia(espaco, data, tz),
    bloqueios: bloqueiosDoDia(espaco, data, tz),
  });
  return porHora(list, tz);
}

/** Every hour (minutes after midnight) any of `dias` (porHora maps) has, in order. */
export function horasDe(dias) {
  return [...new Set(dias.flatMap((d) => [...d.keys()]))].sort((a, b) => a - b);
}

const PALAVRAS = { livre: 'Livre', ocupado: 'Ocupado', bloqueado: 'Bloqueado', passado: 'Encerrado', fechado: 'Fechado' };

/**
 * One hour of one space on one day as a <td>: `hora` an agenda.porHora entry (undefined: closed).
 * Free time links to the space's day with its first free start picked; `quando` says, for a
 * screen reader, which day and space the cell is ("Sala Ipê, quinta-feira, 26 de novembro"), and
 * `relogio` its hour ("14:00").
 */
export function celula({ espacoId, data, hora, tz, quando, relogio }) {
  const estado = hora?.estado ?? 'fechado';
  const attrs = { class: `grade__cell grade__cell--${estado}`, dataset: { estado, data } };
  if (estado === 'livre') {
    const inicio = time(hora.livre, tz);
    let texto = 'Livre';
    if (!hora.inteira) texto = inicio === hora.hora ? 'Livre em parte' : `Livre às ${inicio}`;
    return h('td', attrs, link(`/espacos/${espacoId}?data=${data}&de=${inicio}`, [
      texto,
      h('span', { class: 'visually-hidden' }, `: reservar ${quando}, a partir das ${inicio}`),
    ], { class: 'grade__free', dataset: { inicio } }));
  }
  const motivo = estado === 'bloqueado' && hora.bloqueio ? motivoDoBloqueio(hora.bloqueio) : '';
  return h('td', { ...attrs, title: motivo ? `Bloqueado: ${motivo}` : null },
    h('span', { class: 'grade__state' }, PALAVRAS[estado]),
    motivo ? h('span', { class: 'grade__reason' }, motivo) : null,
    h('span', { class: 'visually-hidden' }, `, ${quando}, ${relogio}`));
}

/** What each cell's look means. */
export function legenda() {
  return h('ul', { class: 'legend grade__legend' },
    ['livre', 'ocupado', 'bloqueado', 'passado', 'fechado'].map((estado) => h('li', {},
      h('span', { class: `grade__swatch grade__cell--${estado}`, 'aria-hidden': 'true' }), PALAVRAS[estado])));
}

/** The table in its own sideways-scrolling box (the page never scrolls sideways). */
export function caixa(label, table) {
  return h('div', { class: 'grade-scroll', tabindex: '0', role: 'region', 'aria-label': label }, table);
}
