// What a member can do with one booking, shown on "Minhas reservas". Each entry decides from
// the booking (and its check-in, when the list could read it) whether it applies: pay it (while
// it waits for payment), check in (once confirmed, until the member has checked in or the window
// has closed), check out (after check-in), see the payment and its refunds, cancel it (before
// it starts and before any check-in: the server refuses it after one), and for an occurrence of
// a series, cancel it and the ones after it. One paid at the reception is cancelled there.
// A confirmed booking moves to another time ("Mudar horário", lib/remarcacao.js) while cancelling
// it would still be free; after that, the member is told the reception can do it.

import { h } from '../lib/dom.js';
import { botaoMudarHorario, membroPodeMudar, podeMudar } from '../lib/remarcacao.js';

function actionLink(href, text, hidden, { primary = false } = {}) {
  return h('a', { href, 'data-link': true, class: `button button--small${primary ? '' : ' button--secondary'}` },
    text, h('span', { class: 'visually-hidden' }, hidden));
}

/** Paid at the reception (an operator took the money there): cancelled there too, where it is handed back. */
const pagaNaRecepcao = (r) => r.metodo === 'manual' && r.total > 0 && r.status === 'confirmada';

/** Nothing has happened at the door yet (or the list could not tell). */
function awaited(checkin, now) {
  if (!checkin) return true;
  return checkin.status === 'aguardando' && !(checkin.janela && Date.parse(checkin.janela.fechaEm) <= now);
}

/**
 * [{id, applies(reserva, now, checkin) → boolean, button(reserva, handlers) → Node}]
 * checkin: the booking's GET /api/reservas/{id}/checkin, or null when it was not read.
 * handlers: {cancel(reserva, button), cancelSeries(reserva, button), move(reserva, button)} — provided by the list.
 */
export const ACOES_DA_RESERVA = [
  {
    id: 'pagar',
    applies: (r, now) => r.status === 'solicitada' && (!r.expiraEm || Date.parse(r.expiraEm) > now),
    button: (r) => actionLink(`/reservas/${r.id}/pagamento`, 'Pagar', ' esta reserva', { primary: true }),
  },
  {
    id: 'checkin',
    applies: (r, now, checkin) => r.status === 'confirmada' && Date.parse(r.fim) > now && awaited(checkin, now),
    button: (r) => actionLink(`/reservas/${r.id}/checkin`, 'Check-in', ' desta reserva', { primary: true }),
  },
  {
    id: 'checkout',
    applies: (r, now, checkin) => r.status === 'confirmada' && checkin?.status === 'presente',
    button: (r) => actionLink(`/reservas/${r.id}/checkin`, 'Checkout', ' desta reserva', { primary: true }),
  },
  {
    id: 'pagamento',
    applies: (r) => Boolean(r.pagamentoId) && r.status !== 'solicitada',
    button: (r) => actionLink(`/reservas/${r.id}/pagamento`, 'Pagamento', ' desta reserva'),
  },
  {
    // Another time of the same space, of the same length: the list opens its panel under the row.
    id: 'mudar-horario',
    applies: (r, now, checkin) => membroPodeMudar(r, now, checkin),
    button: (r, { move }) => botaoMudarHorario(r, move),
  },
  {
    id: 'cancelar',
    applies: (r, now, checkin) => ['solicitada', 'confirmada'].includes(r.status) && Date.parse(r.inicio) > now
      && (!checkin || checkin.status === 'aguardando') && !pagaNaRecepcao(r),
    button: (r, { cancel }) => {
      const button = h('button', { type: 'button', class: 'button button--secondary button--small' }, 'Cancelar',
        h('span', { class: 'visually-hidden' }, ' esta reserva'));
      button.addEventListener('click', () => cancel(r, button));
      return button;
    },
  },
  {
    // An occurrence of a series: this one and the ones after it, at once.
    id: 'cancelar-serie',
    applies: (r, now, checkin) => Boolean(r.serie) && ['solicitada', 'confirmada'].includes(r.status) && Date.parse(r.inicio) > now
      && (!checkin || checkin.status === 'aguardando') && !pagaNaRecepcao(r),
    button: (r, { cancelSeries }) => {
      const button = h('button', { type: 'button', class: 'button button--secondary button--small' }, 'Cancelar esta e as próximas',
        h('span', { class: 'visually-hidden' }, ' da série'));
      button.addEventListener('click', () => cancelSeries(r, button));
      return button;
    },
  },
  {
    // Paid at the desk: the member is told where it is cancelled (the server refuses it here).
    id: 'cancelar-na-recepcao',
    applies: (r, now, checkin) => pagaNaRecepcao(r) && Date.parse(r.inicio) > now && (!checkin || checkin.status === 'aguardando'),
    button: () => h('span', { class: 'small acao-nota' }, 'Paga na recepção: para cancelar, fale com a recepção.'),
  },
  {
    // The free window to move it has closed (the desk is not bound by it): a line, not a button.
    id: 'mudar-na-recepcao',
    applies: (r, now, checkin) => podeMudar(r, now, checkin) && !membroPodeMudar(r, now, checkin) && !pagaNaRecepcao(r),
    button: () => h('span', { class: 'small acao-nota' }, 'Para mudar o horário, fale com a recepção.'),
  },
];
