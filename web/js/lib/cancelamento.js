/**
 * A preview of what cancelling a booking gives back, computed as the server does
 * (`Reserva.reembolso`): the booking's own cancellation terms (else the unit's policy), applied
 * to what its payment still holds. Only a preview for the member or the desk: the server decides.
 */

/** What the booking's payment still holds, in centavos: its total less what was given back already; nothing before it is paid. */
export function valorRetido(r) {
  return r.status === 'confirmada' ? Math.max(0, (r.total ?? 0) - (r.reembolsoSolicitado ?? 0)) : 0;
}

/** The cancellation terms `r` follows: its own when it carries them, else the unit's (may be null). */
export function termosDeCancelamento(r, politicaDaUnidade) {
  return r.politicaDeCancelamento ?? politicaDaUnidade ?? null;
}

/** Whether cancelling `r` at `now` (ms) pays the fee of policy `p`: less notice than it asks, and a fee to pay. */
export function comMulta(r, p, now = Date.now()) {
  return Boolean(p?.multaBP > 0) && (Date.parse(r.inicio) - now) / 3_600_000 < p.horasSemMulta;
}

/** `valor` × `bp` basis points, rounded half away from zero (as `Money.applying(basisPoints:)`). */
export function porBP(valor, bp) {
  return Math.round((valor * bp) / 10000);
}

/**
 * The fee and the refund (centavos) of cancelling `r` at `now` under its terms or
 * `politicaDaUnidade`. `dentro`: the fee applies (with notice shorter than the policy asks).
 */
export function previaDoCancelamento(r, politicaDaUnidade, { now = Date.now() } = {}) {
  const pago = valorRetido(r);
  const p = termosDeCancelamento(r, politicaDaUnidade);
  const dentro = comMulta(r, p, now);
  const multa = dentro && pago > 0 ? Math.min(pago, porBP(pago, p.multaBP)) : 0;
  return { pago, multa, reembolso: pago - multa, dentro };
}
