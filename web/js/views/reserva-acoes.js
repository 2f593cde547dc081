// What a member can do with one booking, shown on "Minhas reservas". Each entry decides from
// the booking whether it applies. Issue 6 adds here: "Pagar" (status solicitada → the payment
// screen) and "Check-in" (confirmada, on the day → code and QR).

import { h } from '../lib/dom.js';

/**
 * [{id, applies(reserva, now) → boolean, button(reserva, handlers) → Node}]
 * handlers: {cancel(reserva, button)} — provided by the list.
 */
export const ACOES_DA_RESERVA = [
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
