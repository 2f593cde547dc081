// Bookings of one unit on one local day, with cancellation, and the reception's check-in by the
// member's code (or the content of the QR code). Bookings are confirmed by their payment.

import { api, Action } from '../../lib/api.js';
import { nomeDoEspaco, espaco as loadEspaco } from '../../lib/catalog.js';
import { h, replace, uid } from '../../lib/dom.js';
import { situacaoDaReserva, recusaDoPagamento } from '../../lib/labels.js';
import { money, todayIn, addDays, isDate, dateLong, time, deadline, zoneLabel, interval } from '../../lib/format.js';
import {
  pageHeader, loadInto, pager, table, badge, confirmDialog, flash, errorBox, busy, announce, field, onSubmit, val, fieldError,
} from '../../lib/ui.js';
import { unidadeSelect, usuariosPorId, pessoa } from './comum.js';

/** The reception's check-in: the member says the code (or the QR code is read into the field). */
function recepcao(reload) {
  const form = h('form', { class: 'form panel reception', novalidate: true, 'aria-labelledby': 'recepcao' },
    h('h2', { id: 'recepcao' }, 'Check-in na recepção'),
    h('div', { class: 'form__row' },
      field({
        label: 'Código de check-in', name: 'codigo', required: true,
        hint: 'Os 6 caracteres que o membro mostra no app, ou o conteúdo do QR code lido por um leitor.',
        attrs: { autocomplete: 'off', spellcheck: 'false', autocapitalize: 'characters', maxlength: '200' },
      })),
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'button' }, 'Registrar check-in')));
  const action = new Action();
  onSubmit(form, async () => {
    const codigo = val(form, 'codigo');
    if (!codigo) return fieldError(form, 'codigo', 'Informe o código de check-in.');
    const c = await action.run('/api/checkin', { body: { codigo: codigo.startsWith('coworkflow:') ? codigo : codigo.toUpperCase() } });
    const item = await loadEspaco(c.espacoId).catch(() => null);
    const tz = item?.unidade?.fusoHorario;
    form.reset();
    flash(`Check-in registrado: ${nomeDoEspaco(item, c.espacoId)}, ${c.inicio ? interval(c.inicio, c.fim, tz) : ''}.`, 'sucesso');
    reload();
  }, { busyText: 'Registrando…' });
  return form;
}

export async function render({ container, query, setQuery, signal }) {
  replace(container, pageHeader('Reservas do dia', 'As reservas de uma unidade num dia, no horário local da unidade.'));
  const controls = h('div', { class: 'filters' });
  const list = h('section', { 'aria-label': 'Reservas' });
  container.append(recepcao(() => { if (select) load(); }), controls, list);

  let unidades;
  let select;
  let unidadeField;
  try {
    ({ field: unidadeField, select, unidades } = await unidadeSelect({ value: query.get('unidade') ?? '', signal }));
  } catch (error) {
    if (error?.name !== 'AbortError') replace(controls, errorBox(error));
    return;
  }
  if (!unidades.length) {
    replace(controls, h('p', { class: 'empty' }, 'Nenhuma unidade cadastrada ainda.'));
    return;
  }
  const tzOf = () => unidades.find((u) => u.id === select.value)?.fusoHorario ?? 'America/Sao_Paulo';
  let data = isDate(query.get('data')) ? query.get('data') : todayIn(tzOf());
  let pagina = 1;

  const dateId = uid('data');
  const dateInput = h('input', { type: 'date', id: dateId, name: 'data', value: data });
  const dayTitle = h('h2', { 'aria-live': 'polite' });
  controls.append(unidadeField,
    h('div', { class: 'day-nav' },
      h('button', { type: 'button', class: 'button button--secondary', onclick: () => go(addDays(data, -1)) }, '← Dia anterior'),
      h('div', { class: 'field field--inline' }, h('label', { for: dateId }, 'Data'), dateInput),
      h('button', { type: 'button', class: 'button button--secondary', onclick: () => go(addDays(data, 1)) }, 'Próximo dia →'),
      h('button', { type: 'button', class: 'button button--secondary', onclick: () => go(todayIn(tzOf())) }, 'Hoje')));
  list.before(dayTitle);

  select.addEventListener('change', () => { pagina = 1; load(); });
  dateInput.addEventListener('change', () => { if (isDate(dateInput.value)) go(dateInput.value); });

  function go(newDate) {
    data = newDate;
    dateInput.value = data;
    pagina = 1;
    load();
  }

  function load() {
    const unidade = select.value;
    const tz = tzOf();
    setQuery({ unidade, data });
    dayTitle.textContent = `${dateLong(data)} (${zoneLabel(tz)})`;
    loadInto(list, async () => {
      const page = await api('/api/admin/reservas', { query: { unidade, data, pagina }, signal });
      const ids = [...new Set(page.itens.map((r) => r.espacoId))];
      const [items, pessoas] = await Promise.all([
        Promise.all(ids.map((id) => loadEspaco(id).catch(() => null))),
        page.itens.length ? usuariosPorId(signal) : new Map(),
      ]);
      return { page, espacos: new Map(ids.map((id, i) => [id, items[i]])), pessoas };
    }, ({ page, espacos, pessoas }) => {
      announce(`${page.total} ${page.total === 1 ? 'reserva' : 'reservas'} em ${dateLong(data)}`);
      list.append(
        table({
          caption: `Reservas de ${dateLong(data)}`,
          empty: 'Nenhuma reserva neste dia.',
          rows: page.itens,
          rowAttrs: (r) => ({ dataset: { reserva: r.id } }),
          columns: [
            { label: 'Horário', cell: (r) => (r.dias?.length > 1 ? interval(r.inicio, r.fim, tz) : `${time(r.inicio, tz)}–${time(r.fim, tz)}`) },
            { label: 'Espaço', cell: (r) => nomeDoEspaco(espacos.get(r.espacoId), r.espacoId) },
            { label: 'Membro', cell: (r) => pessoa(pessoas, r.usuarioId) },
            { label: 'Situação', cell: (r) => statusCell(r, tz) },
            { label: 'Total', cell: (r) => money(r.total), class: 'num' },
            { label: 'Ações', cell: (r) => actions(r, espacos, pessoas) },
          ],
        }),
        pager({ pagina: page.pagina, total: page.total, noun: ['reserva', 'reservas'], onPage: (n) => { pagina = n; load(); } }));
    }, { signal, text: 'Carregando reservas…' });
  }


  function statusCell(r, tz) {
    const parts = [badge(...situacaoDaReserva(r))];
    if (r.status === 'solicitada' && r.expiraEm) parts.push(h('span', { class: 'small block' }, `Horário guardado até ${deadline(r.expiraEm, tz)}`));
    if (r.naoCompareceuEm) parts.push(h('span', { class: 'small block' }, `Não compareceu; horário liberado às ${time(r.naoCompareceuEm, tz)}`));
    const devolvido = Math.max(r.reembolsoSolicitado ?? 0, r.cancelamento?.reembolso ?? 0);
    const recusa = recusaDoPagamento(r);
    if (recusa !== null) parts.push(h('span', { class: 'small block' }, `Pagamento recusado: ${recusa}${devolvido > 0 ? `; pago depois, reembolso ${money(devolvido)}` : ''}`));
    else if (r.cancelamento) parts.push(h('span', { class: 'small block' }, `Reembolso ${money(devolvido)} · multa ${money(r.cancelamento.multa)}`));
    else if (devolvido > 0) parts.push(h('span', { class: 'small block' }, `Pago depois do prazo; reembolso ${money(devolvido)}`));
    return parts;
  }

  function actions(r, espacos, pessoas) {
    const buttons = [];
    const quem = pessoas.get(String(r.usuarioId ?? '').toLowerCase())?.nome ?? 'o membro';
    const nome = nomeDoEspaco(espacos.get(r.espacoId), r.espacoId);
    if (['solicitada', 'confirmada'].includes(r.status) && Date.parse(r.inicio) > Date.now()) {
      const cancel = h('button', { type: 'button', class: 'button button--secondary button--small' }, 'Cancelar',
        h('span', { class: 'visually-hidden' }, ` a reserva de ${nome}`));
      cancel.addEventListener('click', async () => {
        const motivoField = field({ label: 'Motivo', name: 'motivo', optional: true, attrs: { maxlength: '200' } });
        const ok = await confirmDialog({
          title: 'Cancelar esta reserva?',
          body: [`${nome}, ${time(r.inicio, tzOf())}–${time(r.fim, tzOf())} — ${quem}. A política da unidade define multa e reembolso.`],
          extra: motivoField,
          confirmText: 'Cancelar reserva',
          cancelText: 'Manter',
          danger: true,
        });
        if (!ok) return;
        const motivo = motivoField.querySelector('input').value.trim();
        const restore = busy(cancel, 'Cancelando…');
        try {
          const res = await new Action().run(`/api/reservas/${r.id}/cancelamento`, { body: motivo ? { motivo } : {} });
          const c = res.cancelamento ?? { reembolso: 0, multa: 0 };
          flash(`Reserva cancelada. Reembolso: ${money(c.reembolso)}. Multa: ${money(c.multa)}.`, 'sucesso');
          load();
        } catch (error) {
          restore();
          cancel.closest('td')?.append(errorBox(error));
        }
      });
      buttons.push(cancel);
    }
    return buttons.length ? h('div', { class: 'row-actions' }, buttons) : '—';
  }

  load();
}
