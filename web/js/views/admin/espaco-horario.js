// The weekly opening hours of a space: for each weekday, zero or more ranges in the unit's local
// time (minutes after midnight in the API). A day without ranges is closed.

import { Action } from '../../lib/api.js';
import { forget } from '../../lib/catalog.js';
import { h, replace, uid } from '../../lib/dom.js';
import { DIAS } from '../../lib/labels.js';
import { minutesFromClock, clockFromMinutes, zoneLabel } from '../../lib/format.js';
import { pageHeader, loadInto, flash, showFormError, clearErrors, busy } from '../../lib/ui.js';
import { espacoTabs, espacoAdmin, voltarParaEspacos } from './comum.js';

export function render({ container, params, signal, navigate }) {
  replace(container, pageHeader('Horário de funcionamento'));
  const body = h('div');
  container.append(body);
  loadInto(body, () => espacoAdmin(params.id), ({ espaco, unidade }) => {
    container.querySelector('h1').textContent = `Horário — ${espaco.nome}`;
    container.prepend(voltarParaEspacos(espaco.unidadeId));
    body.append(espacoTabs(espaco.id, 'horario'), editor(espaco, unidade, { navigate }));
  }, { signal });
}

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

function editor(espaco, unidade, { navigate }) {
  const horario = espaco.horario ?? {};
  const days = DIAS.map(([key, label]) => {
    const ranges = h('div', { class: 'ranges' }, (horario[key] ?? []).map((f) => rangeRow(key, f)));
    const add = h('button', { type: 'button', class: 'button button--secondary button--small add-range' }, `Adicionar faixa`,
      h('span', { class: 'visually-hidden' }, ` em ${label}`));
    const fieldset = h('fieldset', { class: 'fieldset day-hours', dataset: { dia: key } },
      h('legend', {}, label),
      h('p', { class: 'closed-note small', hidden: Boolean(horario[key]?.length) }, 'Fechado'),
      ranges, add);
    add.addEventListener('click', () => {
      const row = rangeRow(key, { abre: 480, fecha: 1080 });
      ranges.append(row);
      refreshClosed(fieldset);
      row.querySelector('input').focus();
    });
    return fieldset;
  });
  const form = h('form', { class: 'form', novalidate: true, dataset: { field: 'horario' } },
    h('p', {}, `Horários no ${zoneLabel(unidade?.fusoHorario ?? 'America/Sao_Paulo')}. "Fecha" às 23:59 significa até o fim do dia.`),
    days,
    h('p', { class: 'field__error' }),
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'button' }, 'Salvar horário')));

  const action = new Action();
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors(form);
    const body = {};
    for (const fieldset of form.querySelectorAll('fieldset[data-dia]')) {
      const faixas = [];
      for (const row of fieldset.querySelectorAll('.range')) {
        const [abreInput, fechaInput] = row.querySelectorAll('input');
        const abre = minutesFromClock(abreInput.value);
        let fecha = minutesFromClock(fechaInput.value);
        if (fecha === 1439) fecha = 1440;
        if (abre === null || fecha === null || fecha <= abre) {
          fechaInput.setAttribute('aria-invalid', 'true');
          showFormError(form, { code: 'dados_invalidos', message: `em ${fieldset.querySelector('legend').textContent}, o fechamento deve ser depois da abertura` });
          fechaInput.focus();
          return;
        }
        faixas.push({ abre, fecha });
      }
      if (faixas.length) body[fieldset.dataset.dia] = faixas.sort((a, b) => a.abre - b.abre);
    }
    const button = form.querySelector('button[type=submit]');
    const restore = busy(button, 'Salvando…');
    try {
      await action.run(`/api/admin/espacos/${espaco.id}/horario`, { method: 'PUT', body });
      forget({ espacoId: espaco.id });
      flash('Horário salvo.', 'sucesso', { next: true });
      navigate(`/admin/espacos/${espaco.id}/horario`, { replace: true });
    } catch (error) {
      restore();
      showFormError(form, error);
    }
  });
  return form;
}
