// One booking as the payment and check-in screens show it: loaded with its space (name, unit,
// time zone) and summed up in a few facts whose status follows the booking; the credits it
// spent are said beside what was left to pay.

import { api } from '../lib/api.js';
import { espaco as loadEspaco, nomeDoEspaco } from '../lib/catalog.js';
import { h, link } from '../lib/dom.js';
import { situacaoDaReserva } from '../lib/labels.js';
import { money, interval, DEFAULT_TZ } from '../lib/format.js';
import { facts, badge } from '../lib/ui.js';
import { creditosComOrigem, usouCreditos } from '../lib/creditos.js';

/** {reserva, item, tz}: GET /api/reservas/{id} and its space (cached). */
export async function carregarReserva(id, { signal } = {}) {
  const reserva = await api(`/api/reservas/${encodeURIComponent(id)}`, { signal });
  const item = await loadEspaco(reserva.espacoId).catch(() => null);
  return { reserva, item, tz: item?.unidade?.fusoHorario ?? DEFAULT_TZ };
}

/** The booking's facts; `update(reserva)` refreshes its status. */
export function resumoDaReserva({ reserva, item, tz }) {
  const status = h('span');
  const setStatus = (r) => status.replaceChildren(badge(...situacaoDaReserva(r)));
  setStatus(reserva);
  const node = h('section', { class: 'panel', 'aria-labelledby': 'resumo-reserva' },
    h('h2', { id: 'resumo-reserva' }, 'Sua reserva'),
    facts([
      ['Espaço', item ? link(`/espacos/${reserva.espacoId}`, nomeDoEspaco(item, reserva.espacoId)) : nomeDoEspaco(item, reserva.espacoId)],
      item?.unidade ? ['Unidade', item.unidade.nome] : null,
      ['Quando', interval(reserva.inicio, reserva.fim, tz)],
      usouCreditos(reserva) ? ['Pago com créditos', creditosComOrigem(reserva.creditos)] : null,
      totalDaReserva(reserva),
      ['Situação', status],
    ]));
  return { node, update: setStatus };
}

/** The total; beside credits, what was left to pay ("A pagar"), or that nothing was. */
function totalDaReserva(reserva) {
  if (!usouCreditos(reserva)) return ['Total', money(reserva.total)];
  return reserva.total === 0 ? ['Total', `${money(0)} — nada a pagar`] : ['A pagar', money(reserva.total)];
}

/** "← Minhas reservas". */
export function voltarParaReservas() {
  return h('p', { class: 'back' }, link('/reservas', '← Minhas reservas'));
}
