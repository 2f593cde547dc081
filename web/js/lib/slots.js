// A day of one space as bookable slots: the API gives the open intervals (`aberto`) and the free
// ones with their places (`livres`) as instants; this cuts them in steps and tells which are
// free, how many places they have, and where a booking that starts at a slot may end.

export const STEP_MINUTES = 30;
const MINUTE = 60_000;

/**
 * slots(disponibilidade, {now, antecedenciaMinimaMinutos}) →
 *   [{inicio: ms, fim: ms, estado: 'livre'|'ocupado'|'passado', vagas}]
 */
export function slots(disponibilidade, { now = Date.now(), antecedenciaMinimaMinutos = 0, step = STEP_MINUTES } = {}) {
  const livres = (disponibilidade.livres ?? [])
    .map((l) => ({ inicio: Date.parse(l.inicio), fim: Date.parse(l.fim), vagas: l.vagas ?? 1 }))
    .sort((a, b) => a.inicio - b.inicio);
  const earliest = now + antecedenciaMinimaMinutos * MINUTE;
  const result = [];
  for (const a of disponibilidade.aberto ?? []) {
    const start = Date.parse(a.inicio);
    const end = Date.parse(a.fim);
    for (let t = start; t + step * MINUTE <= end; t += step * MINUTE) {
      const slot = { inicio: t, fim: t + step * MINUTE };
      const vagas = placesIn(livres, slot);
      slot.vagas = vagas;
      slot.estado = vagas > 0 ? (t < earliest ? 'passado' : 'livre') : (t < earliest ? 'passado' : 'ocupado');
      result.push(slot);
    }
  }
  return result;
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
