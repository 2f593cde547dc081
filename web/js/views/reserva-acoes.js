// What a member can do with one booking, shown on "Minhas reservas". Each entry decides from
// the booking whether it applies: pay it (while it waits for payment), see its check-in code
// (once confirmed, until it ends), see the payment and its refunds, cancel it.

import { h } from '../lib/dom.js';

function actionLink(href, text, hidden, { primary = false } = {}) {
  return h('a', { href, 'data-link': true, class: `button button--small${primary ? '' : ' button--secondary'}` },
    text, h('span', { class: 'visually-hidden' }, hidden));
}

/**
 * [{id, applies(reserva, now) → boolean, button(reserva, handlers) → Node}]
 * handlers: {cancel(reserva, button)} — provided by the list.
 */
export const ACOES_DA_RESERVA = [
  {
    id: 'pagar',
    applies: (r, now) => r.status === 'solicitada' && (!r.expiraEm || Date.parse(r.expiraEm) > now),
    button: (r) => actionLink(`/reservas/${r.id}/pagamento`, 'Pagar', ' esta reserva', { primary: true }),
  },
  {
    id: 'checkin',
    applies: (r, now) => r.status === 'confirmada' && Date.parse(r.fim) > now,
    button: (r) => actionLink(`/reservas/${r.id}/checkin`, 'Check-in', ' desta reserva', { primary: true }),
  },
  {
    id: 'pagamento',
    applies: (r) => Boolean(r.pagamentoId) && r.status !== 'solicitada',
    button: (r) => actionLink(`/reservas/${r.id}/pagamento`, 'Pagamento', ' desta reserva'),
  },
  {
    id: 'cancelar',
    applies: (r, now) => ['solicitada', 'confirmada'].includes(r.status) && Date.parse(r.inicio) > now,
    button: (r, { cancel }) => {
      const button = h('button', { type: 'button', class: 'button button--secondary button--small' }, 'Cancelar',
        h('span', { class: 'visually-hidden' }, ' esta reserva'));
      button.addEventListener('click', () => cancel(r, button));
      return button;
    },
  },
];
