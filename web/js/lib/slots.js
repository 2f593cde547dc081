// A day of one space as bookable slots: the API gives the open intervals (`aberto`) and the free
// ones with their places (`livres`) as instants; this cuts them in steps and tells which are
// free, how many places they have, and where a booking that starts at a slot may end.

export const STEP_MINUTES = 30;
const MINUTE = 60_000;

/**
 * slots(disponibilidade, {now, antecedenciaMinimaMinutos, abertura, bloqueios}) →
 *   [{inicio: ms, fim: ms, estado: 'livre'|'ocupado'|'bloqueado'|'passado', vagas, bloqueio?}]
 * The API leaves a blackout out of the open intervals: `abertura` (the weekly hours of the day,
 * agenda.faixasDoDia) and `bloqueios` (agenda.bloqueiosDoDia) put its time back as blocked
 * slots, on the grid of the opening, carrying the blackout (its reason) in `bloqueio`.
 */
export function slots(disponibilidade, {
  now = Date.now(), antecedenciaMinimaMinutos = 0, step = STEP_MINUTES, abertura = [], bloqueios = [],
} = {}) {
  const livres = (disponibilidade.livres ?? [])
    .map((l) => ({ inicio: Date.parse(l.inicio), fim: Date.parse(l.fim), vagas: l.vagas ?? 1 }))
    .sort((a, b) => a.inicio - b.inicio);
  const earliest = now + antecedenciaMinimaMinutos * MINUTE;
  const blackout = (slot) => bloqueios.find((b) => b.inicio < slot.fim && b.fim > slot.inicio) ?? null;
  const result = [];
  for (const a of disponibilidade.aberto ?? []) {
    const start = Date.parse(a.inicio);
    const end = Date.parse(a.fim);
    for (let t = start; t + step * MINUTE <= end; t += step * MINUTE) {
      const slot = { inicio: t, fim: t + step * MINUTE };
      const vagas = placesIn(livres, slot);
      const bloqueio = vagas > 0 ? null : blackout(slot);
      slot.vagas = vagas;
      slot.estado = t < earliest ? 'passado' : (vagas > 0 ? 'livre' : (bloqueio ? 'bloqueado' : 'ocupado'));
      if (bloqueio) slot.bloqueio = bloqueio;
      result.push(slot);
    }
  }
  const covered = (slot) => result.some((s) => s.inicio < slot.fim && s.fim > slot.inicio);
  for (const f of abertura) {
    for (let t = f.inicio; t + step * MINUTE <= f.fim; t += step * MINUTE) {
      const slot = { inicio: t, fim: t + step * MINUTE, vagas: 0 };
      const bloqueio = blackout(slot);
      if (!bloqueio || covered(slot)) continue;
      slot.estado = t < earliest ? 'passado' : 'bloqueado';
      slot.bloqueio = bloqueio;
      result.push(slot);
    }
  }
  return result.sort((a, b) => a.inicio - b.inicio);
}

/** The fewest places over [inicio, fim) if free intervals cover all of it, else 0. */
function placesIn(livres, { inicio, fim }) {
  let cursor = inicio;
  let vagas = Infinity;
  for (const l of livres) {
    if (l.fim <= cursor) continue;
    if (l.inicio > cursor) break;
    vagas = Math.min(vagas, l.vagas);
    cursor = l.fim;
    if (cursor >= fim) return vagas;
  }
  return 0;
}

/**
 * Where a booking starting at slot index `i` may end: every end of a run of contiguous free
 * slots from `i`, between the minimum and maximum durations (minutes).
 */
export function endsFrom(list, i, { minimo = STEP_MINUTES, maximo = Infinity } = {}) {
  const first = list[i];
  if (!first || first.estado !== 'livre') return [];
  const ends = [];
  let previous = null;
  for (let j = i; j < list.length; j += 1) {
    const s = list[j];
    if (s.estado !== 'livre' || (previous && s.inicio !== previous.fim)) break;
    const minutes = (s.fim - first.inicio) / MINUTE;
    if (minutes > maximo) break;
    if (minutes >= minimo) ends.push(s.fim);
    previous = s;
  }
  return ends;
}

/**
 * What a click on the free slot `i` does to the selection `{inicio, fim}` (ms; nulls when none).
 * A click never moves the start silently; `como` says what happened, for the page to put in words:
 *   'inicio'    nothing chosen yet: starts here and ends at the minimum
 *   'fim'       at or after the start: the booking ends with this slot
 *   'minimo'    the same, inside the minimum: the booking ends with the minimum
 *   'maximo'    the same, beyond the maximum: the end brought back to the maximum
 *   'antes'     before the start: a new selection that starts here
 *   'bloqueado' the range up to this slot would cross `barreira` ({tipo: 'ocupado'|'bloqueado'|'fechado', em}):
 *               a new selection that starts here
 *   'nao_cabe'  no booking of the minimum fits from here: the selection stays as it was
 * → {inicio, fim, como, barreira?}
 */
export function clique(list, selecao, i, { minimo = STEP_MINUTES, maximo = Infinity } = {}) {
  const slot = list[i];
  const start = selecao.inicio === null ? -1 : list.findIndex((s) => s.inicio === selecao.inicio);
  let como = 'inicio';
  let barreira = null;
  if (start >= 0 && slot.inicio < selecao.inicio) {
    como = 'antes';
  } else if (start >= 0) {
    barreira = barrier(list, start, i);
    const ends = barreira ? [] : endsFrom(list, start, { minimo, maximo });
    if (ends.length) {
      const [first, last] = [ends[0], ends[ends.length - 1]];
      // Inside the minimum (ending where it ends, too, when the minimum is more than one slot).
      const inside = slot.fim < first || (slot.fim === first && first - selecao.inicio > slot.fim - slot.inicio);
      if (inside) return { inicio: selecao.inicio, fim: first, como: 'minimo' };
      if (slot.fim > last) return { inicio: selecao.inicio, fim: last, como: 'maximo' };
      return { inicio: selecao.inicio, fim: slot.fim, como: 'fim' };
    }
    if (barreira) como = 'bloqueado';
  }
  const ends = endsFrom(list, i, { minimo, maximo });
  if (!ends.length) return { inicio: selecao.inicio, fim: selecao.fim, como: 'nao_cabe' };
  return { inicio: slot.inicio, fim: ends[0], como, barreira };
}

/** The first thing from slot `from` to slot `to` that a booking cannot run through. */
function barrier(list, from, to) {
  for (let j = from; j <= to; j += 1) {
    if (j > from && list[j].inicio !== list[j - 1].fim) return { tipo: 'fechado', em: list[j - 1].fim };
    if (list[j].estado !== 'livre') return { tipo: list[j].estado === 'bloqueado' ? 'bloqueado' : 'ocupado', em: list[j].inicio };
  }
  return null;
}

/**
 * Where a booking of `minutos` may start on a day, for moving it there: the starts on the grid
 * of the day's opening (`step` from each open interval's start), not before `now` plus the
 * minimum notice nor after `now` plus the maximum lead (`antecedenciaMaximaDias`, 0: none),
 * whose whole interval is open and free. The availability is the booking's own
 * (GET /api/reservas/{id}/remarcacao/horarios: its own time counts as free); `seguinte` the next
 * day's, for a booking that runs past midnight (the API cuts each day at its midnight).
 * → [{inicio, fim}] in ms, by start.
 */
export function iniciosQueCabem(disponibilidade, minutos, {
  now = Date.now(), antecedenciaMinimaMinutos = 0, antecedenciaMaximaDias = 0, step = STEP_MINUTES, seguinte = null,
} = {}) {
  const span = (l) => ({ inicio: Date.parse(l.inicio), fim: Date.parse(l.fim), vagas: l.vagas ?? 1 });
  const aberto = (disponibilidade.aberto ?? []).map(span).sort((a, b) => a.inicio - b.inicio);
  const abertos = [...aberto, ...(seguinte?.aberto ?? []).map(span)].sort((a, b) => a.inicio - b.inicio);
  const livres = [...(disponibilidade.livres ?? []), ...(seguinte?.livres ?? [])].map(span).sort((a, b) => a.inicio - b.inicio);
  const earliest = now + antecedenciaMinimaMinutos * MINUTE;
  const latest = antecedenciaMaximaDias > 0 ? now + antecedenciaMaximaDias * 1440 * MINUTE : Infinity;
  const length = minutos * MINUTE;
  const result = [];
  for (const a of aberto) {
    for (let t = a.inicio; t < a.fim; t += step * MINUTE) {
      if (t < earliest || t > latest) continue;
      const slot = { inicio: t, fim: t + length };
      if (covered(abertos, slot) && placesIn(livres, slot) > 0) result.push(slot);
    }
  }
  return result;
}

/** Whether contiguous intervals of `list` (by start) cover all of [inicio, fim). */
function covered(list, { inicio, fim }) {
  let cursor = inicio;
  for (const l of list) {
    if (l.fim <= cursor) continue;
    if (l.inicio > cursor) return false;
    cursor = l.fim;
    if (cursor >= fim) return true;
  }
  return false;
}
