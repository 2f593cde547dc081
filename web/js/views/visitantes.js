// My visitors: the member registers who is coming to see them (the unit, the day and time in the
// unit's zone, the visitor's name and, optionally, an e-mail that gets the invitation with the
// unit's address), and sees the upcoming ones (earliest first, each cancellable until the
// arrival) and the earlier ones (latest first) with where each stands. The front desk records
// arrivals and departures ("Reservas do dia"); the member is notified of the arrival.
// Cancelling tells the visitor (when there is an e-mail) and erases their name and e-mail an hour
// later; an erased visit reads "Dados apagados". A visitor who came unannounced, registered by the
// front desk, reads "Registrado pela recepção".

import { api, Action } from '../lib/api.js';
import { unidadesPorNome } from '../lib/catalog.js';
import { h, replace, uid } from '../lib/dom.js';
import { VISITA_SITUACAO, VISITA_KIND, visitaSemAviso } from '../lib/labels.js';
import {
  DEFAULT_TZ, wallClock, todayIn, addDays, isDate, minutesFromClock, clockFromMinutes, zonedToMs, isoWithOffset,
  dateShort, dateTime, time, zoneLabel,
} from '../lib/format.js';
import {
  pageHeader, loadInto, table, badge, field, onSubmit, val, fieldError, clearErrors, confirmDialog, busy, flash,
  errorBox, announce,
} from '../lib/ui.js';

/** How far ahead a visit may be registered (the server's rule: 180 days). */
const DIAS_A_FRENTE = 180;

/** The next whole hour from now in `tz`, as {data, hora} (tomorrow's when it is past 23:00). */
function proximaHora(tz) {
  const now = Date.now();
  const w = wallClock(now, tz);
  const next = now + ((60 - w.minute) * 60 - w.second) * 1000;
  const n = wallClock(next, tz);
  return { data: todayIn(tz, next), hora: clockFromMinutes(n.hour * 60) };
}

export async function render({ container, query, setQuery, signal }) {
  replace(container, pageHeader('Meus visitantes',
    'Registre quem vem visitar você numa unidade: a recepção recebe o visitante pelo nome e avisa você quando ele chegar.'));
  const formBox = h('div');
  const lists = h('div', { class: 'visits' });
  container.append(formBox, lists);

  let unidades;
  try {
    unidades = await unidadesPorNome();
  } catch (error) {
    if (error?.name !== 'AbortError' && !signal.aborted) replace(formBox, errorBox(error));
    return;
  }
  if (signal.aborted) return;
  const porId = new Map(unidades.map((u) => [u.id.toLowerCase(), u]));
  const unidadeDe = (v) => porId.get(String(v.unidadeId).toLowerCase());
  const nomeDaUnidade = (v) => unidadeDe(v)?.nome ?? `Unidade ${String(v.unidadeId).slice(0, 8)}`;
  const tzDe = (v) => unidadeDe(v)?.fusoHorario ?? DEFAULT_TZ;
  const quando = (v) => `${dateShort(v.dia)} às ${time(v.chegadaPrevista, tzDe(v))}`;

  if (unidades.length) formBox.append(formulario());
  else formBox.append(h('p', { class: 'empty' }, 'Nenhuma unidade recebe visitantes ainda.'));
  load();

  // ---- the form ------------------------------------------------------------------------------------

  function formulario() {
    const escolhida = unidades.find((u) => u.id === query.get('unidade')) ?? unidades[0];
    const tzDaUnidade = (id) => unidades.find((u) => u.id === id)?.fusoHorario ?? DEFAULT_TZ;
    const inicial = proximaHora(escolhida.fusoHorario ?? DEFAULT_TZ);
    const unidadeField = field({
      label: 'Unidade', name: 'unidadeId', type: 'select', value: escolhida.id,
      options: unidades.map((u) => [u.id, u.nome]),
    });
    const select = unidadeField.querySelector('select');

    // Day and time together are the expected arrival: one group, one error slot (the API names
    // `chegadaPrevista`).
    const zoneId = uid('chegada-fuso');
    const errorId = uid('chegada-erro');
    const dataId = uid('chegada-data');
    const horaId = uid('chegada-hora');
    const zone = h('p', { class: 'field__hint', id: zoneId });
    const dataInput = h('input', {
      type: 'date', id: dataId, name: 'data', required: true, value: inicial.data, 'aria-describedby': `${zoneId} ${errorId}`,
    });
    const horaInput = h('input', {
      type: 'time', id: horaId, name: 'hora', required: true, value: inicial.hora, 'aria-describedby': `${zoneId} ${errorId}`,
    });
    const chegada = h('fieldset', { class: 'field visit-form__when', dataset: { field: 'chegadaPrevista' } },
      h('legend', {}, 'Chegada prevista'),
      zone,
      h('div', { class: 'form__row' },
        h('div', { class: 'field' }, h('label', { for: dataId }, 'Data'), dataInput),
        h('div', { class: 'field' }, h('label', { for: horaId }, 'Hora'), horaInput)),
      h('p', { class: 'field__error', id: errorId }));

    const result = h('div', { class: 'visit-form__result' });
    const form = h('form', { class: 'form panel visit-form', novalidate: true, 'aria-labelledby': 'novo-visitante' },
      h('h2', { id: 'novo-visitante' }, 'Registrar visitante'),
      unidadeField,
      chegada,
      field({ label: 'Nome do visitante', name: 'nome', required: true, attrs: { autocomplete: 'off', maxlength: '120' } }),
      field({
        label: 'E-mail do visitante', name: 'email', type: 'email', optional: true,
        hint: 'Se você informar, o visitante recebe por e-mail o convite com o endereço da unidade.',
        attrs: { autocomplete: 'off', spellcheck: 'false' },
      }),
      h('p', { class: 'small' }, 'O nome e o e-mail do visitante ficam guardados por 30 dias depois da visita; se você cancelar, são apagados uma hora depois.'),
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'button' }, 'Registrar visitante')),
      result);

    /** The zone of the chosen unit, and the days it can take (today to 180 days ahead, there). */
    const showZone = () => {
      const tz = tzDaUnidade(select.value);
      zone.textContent = `No ${zoneLabel(tz)}, o da unidade.`;
      dataInput.min = todayIn(tz);
      dataInput.max = addDays(todayIn(tz), DIAS_A_FRENTE);
    };
    select.addEventListener('change', () => { showZone(); setQuery({ unidade: select.value }); });
    showZone();

    const action = new Action();
    onSubmit(form, async () => {
      replace(result);
      const unidadeId = select.value;
      const tz = tzDaUnidade(unidadeId);
      const data = val(form, 'data');
      const minutos = minutesFromClock(val(form, 'hora'));
      if (!unidadeId) return fieldError(form, 'unidadeId', 'Escolha a unidade onde o visitante é esperado.');
      if (!isDate(data)) return fieldError(form, 'chegadaPrevista', 'Informe o dia da chegada.');
      if (minutos === null) {
        fieldError(form, 'chegadaPrevista', 'Informe a hora da chegada.');
        dataInput.removeAttribute('aria-invalid');
        horaInput.setAttribute('aria-invalid', 'true');
        horaInput.focus();
        return undefined;
      }
      const body = { unidadeId, chegadaPrevista: isoWithOffset(zonedToMs(data, minutos, tz), tz), nome: val(form, 'nome') };
      const email = val(form, 'email');
      if (email) body.email = email;
      const visita = await action.run('/api/visitas', { body });
      clearErrors(form);
      form.elements.namedItem('nome').value = '';
      form.elements.namedItem('email').value = '';
      const texto = `Visitante registrado: ${visita.nome ?? body.nome}, ${quando(visita)} (${nomeDaUnidade(visita)}).`;
      const convite = email
        ? `Enviamos o convite com o endereço da unidade para ${visita.email ?? email}.`
        : 'Sem e-mail, o visitante não recebe convite: passe a ele o endereço da unidade.';
      replace(result, h('div', { class: 'alert alert--sucesso', role: 'status' }, h('p', {}, texto, ' ', convite)));
      load();
    }, { busyText: 'Registrando…' });
    return form;
  }

  // ---- the lists -----------------------------------------------------------------------------------

  function load() {
    loadInto(lists, () => api('/api/visitas', { signal }), ({ proximas = [], anteriores = [] }) => {
      const tabela = (caption, rows, comAcoes) => table({
        caption,
        rows,
        className: 'table--palavras table--visitas',
        rowAttrs: (v) => ({ dataset: { visita: v.id, situacao: v.situacao } }),
        columns: [
          { label: 'Visitante', cell: (v) => visitante(v) },
          { label: 'Unidade', cell: (v) => nomeDaUnidade(v) },
          { label: 'Chegada prevista', cell: (v) => quando(v) },
          { label: 'Situação', cell: (v) => situacao(v, !comAcoes) },
          comAcoes ? { label: 'Ações', cell: (v) => acoes(v) } : null,
        ].filter(Boolean),
      });
      lists.append(
        h('section', { class: 'visits__section', 'aria-labelledby': 'visitantes-proximos' },
          h('h2', { id: 'visitantes-proximos' }, 'Próximos'),
          proximas.length
            ? tabela('Dos mais próximos para os mais distantes', proximas, true)
            : h('p', { class: 'empty' }, 'Nenhum visitante esperado. Registre acima quem vem visitar você.')),
        h('section', { class: 'visits__section', 'aria-labelledby': 'visitantes-anteriores' },
          h('h2', { id: 'visitantes-anteriores' }, 'Anteriores'),
          anteriores.length
            ? tabela('Os que já vieram, os cancelados e os que não vieram, dos mais recentes para os mais antigos', anteriores, false)
            : h('p', { class: 'empty' }, 'Nenhum visitante anterior.')));
      announce(`${proximas.length} ${proximas.length === 1 ? 'visitante esperado' : 'visitantes esperados'}, ${anteriores.length} ${anteriores.length === 1 ? 'anterior' : 'anteriores'}`);
    }, { signal, text: 'Carregando seus visitantes…' });
  }

  function visitante(v) {
    const recepcao = visitaSemAviso(v) ? h('span', { class: 'small block' }, 'Chegou sem aviso: registrado pela recepção') : null;
    if (!v.nome) return [h('span', { class: 'visits__erased' }, 'Dados apagados'), recepcao];
    return [v.nome, v.email ? h('span', { class: 'small block' }, v.email) : null, recepcao];
  }

  /** `anterior`: in "Anteriores" a visit still expected is one whose visitor never came. */
  function situacao(v, anterior) {
    const tz = tzDe(v);
    const line = (text) => h('span', { class: 'small block' }, text);
    const parts = [anterior && v.situacao === 'esperada'
      ? badge('Não compareceu', 'neutro')
      : badge(VISITA_SITUACAO[v.situacao] ?? v.situacao, VISITA_KIND[v.situacao])];
    if (v.chegouEm) parts.push(line(`Chegou às ${time(v.chegouEm, tz)}${v.saiuEm ? ` · saiu às ${time(v.saiuEm, tz)}` : ''}`));
    if (v.situacao === 'cancelada' && v.canceladaEm) parts.push(line(`Cancelado em ${dateTime(v.canceladaEm, tz)}`));
    return parts;
  }

  function acoes(v) {
    if (v.situacao !== 'esperada') return '—';
    const quem = v.nome ?? 'visitante';
    const button = h('button', { type: 'button', class: 'button button--secondary button--small' },
      'Cancelar', h('span', { class: 'visually-hidden' }, ` a visita de ${quem}`));
    button.addEventListener('click', () => cancelar(v, button));
    return h('div', { class: 'row-actions' }, button);
  }

  async function cancelar(v, button) {
    const ok = await confirmDialog({
      title: 'Cancelar esta visita?',
      body: [
        `${v.nome ?? 'Visitante'} — ${nomeDaUnidade(v)}, ${quando(v)}.`,
        `A recepção deixa de esperar o visitante${v.email ? ', que recebe o aviso do cancelamento por e-mail' : ''}. O nome e o e-mail dele são apagados uma hora depois.`,
      ],
      confirmText: 'Cancelar visita',
      cancelText: 'Manter visita',
      danger: true,
    });
    if (!ok) return;
    const cell = button.closest('td');
    cell?.querySelector('.alert')?.remove();
    const restore = busy(button, 'Cancelando…');
    try {
      await new Action().run(`/api/visitas/${encodeURIComponent(v.id)}/cancelamento`);
      const message = v.email ? 'Visita cancelada. Avisamos o visitante por e-mail.' : 'Visita cancelada.';
      flash(message, 'sucesso');
      announce(message);
      load();
    } catch (error) {
      if (error?.name === 'AbortError') return;
      restore();
      cell?.append(errorBox(error));
    }
  }
}
