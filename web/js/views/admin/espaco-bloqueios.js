// Blackouts of a space (maintenance, holidays, events): list, schedule, remove. Times are entered
// in the unit's local time and sent as instants with that zone's offset.

import { Action } from '../../lib/api.js';
import { forget } from '../../lib/catalog.js';
import { h, link, replace } from '../../lib/dom.js';
import { MOTIVOS_BLOQUEIO } from '../../lib/labels.js';
import {
  zonedToMs, isoWithOffset, minutesFromClock, todayIn, addDays, isDate, interval, zoneLabel,
} from '../../lib/format.js';
import { pageHeader, loadInto, table, field, onSubmit, val, flash, fieldError } from '../../lib/ui.js';
import { espacoTabs, espacoAdmin, voltarParaEspacos, botaoQueConfirma } from './comum.js';

export function render({ container, params, signal, navigate }) {
  replace(container, pageHeader('Bloqueios'));
  const body = h('div');
  container.append(body);
  loadInto(body, () => espacoAdmin(params.id), ({ espaco, unidade }) => {
    const tz = unidade?.fusoHorario ?? 'America/Sao_Paulo';
    container.querySelector('h1').textContent = `Bloqueios — ${espaco.nome}`;
    container.prepend(voltarParaEspacos(espaco.unidadeId));
    const again = () => navigate(`/admin/espacos/${espaco.id}/bloqueios`, { replace: true });
    const bloqueios = [...(espaco.bloqueios ?? [])].sort((a, b) => Date.parse(a.intervalo.inicio) - Date.parse(b.intervalo.inicio));
    body.append(
      espacoTabs(espaco.id, 'bloqueios'),
      h('section', { 'aria-labelledby': 'agendados' },
        h('h2', { id: 'agendados' }, 'Bloqueios agendados'),
        table({
          caption: `Bloqueios (${zoneLabel(tz)})`,
          empty: 'Nenhum bloqueio agendado.',
          rows: bloqueios,
          columns: [
            { label: 'Quando', cell: (b) => interval(b.intervalo.inicio, b.intervalo.fim, tz) },
            { label: 'Motivo', cell: (b) => MOTIVOS_BLOQUEIO[b.motivo] ?? b.motivo },
            { label: 'Descrição', cell: (b) => b.descricao || '—' },
            {
              label: 'Ações',
              cell: (b) => (b.motivo === 'locacao' ? link(`/admin/espacos/${espaco.id}/locacao`, 'Ver locação') : removeButton(espaco, b, tz, again)),
            },
          ],
        })),
      newForm(espaco, tz, again));
  }, { signal });
}

function removeButton(espaco, b, tz, again) {
  return botaoQueConfirma({
    texto: 'Remover',
    oculto: `o bloqueio de ${interval(b.intervalo.inicio, b.intervalo.fim, tz)}`,
    dialogo: {
      title: 'Remover este bloqueio?',
      body: [`${interval(b.intervalo.inicio, b.intervalo.fim, tz)} — ${MOTIVOS_BLOQUEIO[b.motivo] ?? b.motivo}. O horário volta a aceitar reservas.`],
      confirmText: 'Remover bloqueio',
    },
    ocupado: 'Removendo…',
    acao: () => new Action().run(`/api/admin/espacos/${espaco.id}/bloqueios/${b.id}`, { method: 'DELETE' }),
    depois: () => {
      forget({ espacoId: espaco.id });
      flash('Bloqueio removido.', 'sucesso', { next: true });
      again();
    },
  });
}

function newForm(espaco, tz, again) {
  const amanha = addDays(todayIn(tz), 1);
  const form = h('form', { class: 'form panel', novalidate: true, 'aria-labelledby': 'novo-bloqueio' },
    h('h2', { id: 'novo-bloqueio' }, 'Agendar bloqueio'),
    h('p', { class: 'small' }, `Datas e horas no ${zoneLabel(tz)}.`),
    h('div', { class: 'form__row' },
      field({ label: 'Data de início', name: 'dataInicio', type: 'date', required: true, value: amanha }),
      field({ label: 'Hora de início', name: 'horaInicio', type: 'time', required: true, value: '08:00', attrs: { step: '900' } })),
    h('div', { class: 'form__row' },
      field({ label: 'Data de fim', name: 'dataFim', type: 'date', required: true, value: amanha }),
      field({ label: 'Hora de fim', name: 'horaFim', type: 'time', required: true, value: '12:00', attrs: { step: '900' } })),
    // Leases (a holder and whole days) are made on the Locação tab.
    field({
      label: 'Motivo', name: 'motivo', type: 'select', required: true,
      options: Object.entries(MOTIVOS_BLOQUEIO).filter(([motivo]) => motivo !== 'locacao'), value: 'manutencao',
    }),
    field({ label: 'Descrição', name: 'descricao', optional: true, attrs: { maxlength: '200' } }),
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'button' }, 'Agendar bloqueio')));

  const action = new Action();
  onSubmit(form, async () => {
    const dataInicio = val(form, 'dataInicio');
    const dataFim = val(form, 'dataFim');
    const horaInicio = minutesFromClock(val(form, 'horaInicio'));
    const horaFim = minutesFromClock(val(form, 'horaFim'));
    if (!isDate(dataInicio)) return fieldError(form, 'dataInicio', 'Informe a data de início.');
    if (horaInicio === null) return fieldError(form, 'horaInicio', 'Informe a hora de início.');
    if (!isDate(dataFim)) return fieldError(form, 'dataFim', 'Informe a data de fim.');
    if (horaFim === null) return fieldError(form, 'horaFim', 'Informe a hora de fim.');
    const inicio = zonedToMs(dataInicio, horaInicio, tz);
    const fim = zonedToMs(dataFim, horaFim, tz);
    if (fim <= inicio) return fieldError(form, 'horaFim', 'O fim deve ser depois do início.');
    const body = { inicio: isoWithOffset(inicio, tz), fim: isoWithOffset(fim, tz), motivo: val(form, 'motivo') };
    if (val(form, 'descricao')) body.descricao = val(form, 'descricao');
    await action.run(`/api/admin/espacos/${espaco.id}/bloqueios`, { body });
    forget({ espacoId: espaco.id });
    flash('Bloqueio agendado.', 'sucesso', { next: true });
    again();
  }, { busyText: 'Agendando…' });
  return form;
}
