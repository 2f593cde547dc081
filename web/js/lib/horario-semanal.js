// A weekly-hours editor (a space's opening hours, a unit's tour hours): for each weekday, zero or
// more ranges in the unit's local time ("Abre"/"Fecha"; minutes after midnight in the API, a
// closed day has no key). "Fecha" at 23:59 means until the end of the day (1440).

import { h, uid } from './dom.js';
import { DIAS } from './labels.js';
import { minutesFromClock, clockFromMinutes } from './format.js';

function rangeRow(dia, faixa) {
  const abreId = uid(`${dia}-abre`);
  const fechaId = uid(`${dia}-fecha`);
  const row = h('div', { class: 'range', dataset: { range: dia } },
    h('div', { class: 'field field--inline' }, h('label', { for: abreId }, 'Abre'),
      h('input', { type: 'time', id: abreId, name: `${dia}-abre`, value: clockFromMinutes(faixa.abre), step: '900', required: true })),
    h('div', { class: 'field field--inline' }, h('label', { for: fechaId }, 'Fecha'),
      h('input', { type: 'time', id: fechaId, name: `${dia}-fecha`, value: faixa.fecha >= 1440 ? '23:59' : clockFromMinutes(faixa.fecha), step: '900', required: true })));
  const remove = h('button', { type: 'button', class: 'button button--secondary button--small' }, 'Remover faixa');
  remove.addEventListener('click', () => {
    const day = row.closest('fieldset');
    row.remove();
    refreshClosed(day);
    day.querySelector('button.add-range')?.focus();
  });
  row.append(remove);
  return row;
}

function refreshClosed(fieldset) {
  const closed = !fieldset.querySelector('.range');
  fieldset.querySelector('.closed-note').hidden = !closed;
}

/**
 * One fieldset per weekday (Monday first, `data-dia` the API's key) with its ranges of `horario`,
 * "Remover faixa" on each and "Adicionar faixa" (a new range opens `nova`, 08:00–18:00 by default).
 */
export function diasDoHorario(horario = {}, { nova = { abre: 480, fecha: 1080 } } = {}) {
  return DIAS.map(([key, label]) => {
    const ranges = h('div', { class: 'ranges' }, (horario?.[key] ?? []).map((f) => rangeRow(key, f)));
    const add = h('button', { type: 'button', class: 'button button--secondary button--small add-range' }, 'Adicionar faixa',
      h('span', { class: 'visually-hidden' }, ` em ${label}`));
    const fieldset = h('fieldset', { class: 'fieldset day-hours', dataset: { dia: key } },
      h('legend', {}, label),
      h('p', { class: 'closed-note small', hidden: Boolean(horario?.[key]?.length) }, 'Fechado'),
      ranges, add);
    add.addEventListener('click', () => {
      const row = rangeRow(key, nova);
      ranges.append(row);
      refreshClosed(fieldset);
      row.querySelector('input').focus();
    });
    return fieldset;
  });
}

/**
 * The weekly hours the fieldsets under `root` hold, each day's ranges in order: `{horario}`, or
 * `{erro: {input, mensagem}}` for the first range that closes before it opens (the caller says it
 * and focuses the input).
 */
export function lerHorario(root) {
  const horario = {};
  for (const fieldset of root.querySelectorAll('fieldset[data-dia]')) {
    const faixas = [];
    for (const row of fieldset.querySelectorAll('.range')) {
      const [abreInput, fechaInput] = row.querySelectorAll('input');
      const abre = minutesFromClock(abreInput.value);
      let fecha = minutesFromClock(fechaInput.value);
      if (fecha === 1439) fecha = 1440;
      if (abre === null || fecha === null || fecha <= abre) {
        return { erro: { input: fechaInput, mensagem: `em ${fieldset.querySelector('legend').textContent}, o fechamento deve ser depois da abertura` } };
      }
      faixas.push({ abre, fecha });
    }
    if (faixas.length) horario[fieldset.dataset.dia] = faixas.sort((a, b) => a.abre - b.abre);
  }
  return { horario };
}
