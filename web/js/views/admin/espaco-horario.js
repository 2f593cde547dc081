// The weekly opening hours of a space: for each weekday, zero or more ranges in the unit's local
// time (minutes after midnight in the API). A day without ranges is closed. The editor itself is
// lib/horario-semanal.js (the unit's tour hours use it too).

import { Action } from '../../lib/api.js';
import { forget } from '../../lib/catalog.js';
import { h, replace } from '../../lib/dom.js';
import { zoneLabel } from '../../lib/format.js';
import { diasDoHorario, lerHorario } from '../../lib/horario-semanal.js';
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

function editor(espaco, unidade, { navigate }) {
  const days = diasDoHorario(espaco.horario ?? {});
  const form = h('form', { class: 'form', novalidate: true, dataset: { field: 'horario' } },
    h('p', {}, `Horários no ${zoneLabel(unidade?.fusoHorario ?? 'America/Sao_Paulo')}. "Fecha" às 23:59 significa até o fim do dia.`),
    days,
    h('p', { class: 'field__error' }),
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'button' }, 'Salvar horário')));

  const action = new Action();
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors(form);
    const { horario: body, erro } = lerHorario(form);
    if (erro) {
      showFormError(form, { code: 'dados_invalidos', message: erro.mensagem });
      erro.input.setAttribute('aria-invalid', 'true');
      erro.input.focus();
      return;
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
