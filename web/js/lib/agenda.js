// A space's calendar as a member reads it, in its unit's time zone: the weekly hours and the
// blackouts of one local day as instants, the first day that can still be booked, and a day's
// slots (slots.js) summed up by the hour for the week view and the unit's grid.

import { zonedToMs, todayIn, addDays, wallClock, clockFromMinutes, dateShort, localDate } from './format.js';
import { MOTIVOS_BLOQUEIO, DIA_CURTO } from './labels.js';
import { STEP_MINUTES } from './slots.js';

const DIA_DA_SEMANA = ['domingo', 'segunda', 'terca', 'quarta', 'quinta', 'sexta', 'sabado'];
const MINUTE = 60_000;

/** The API's weekday key of a local date "AAAA-MM-DD" ('segunda', …). */
export function diaDaSemana(data) {
  const [y, m, d] = data.split('-').map(Number);
  return DIA_DA_SEMANA[new Date(Date.UTC(y, m - 1, d)).getUTCDay()];
}

/** A local date as a column's heading: "qui 26/11". */
export function diaCurto(data) {
  return `${DIA_CURTO[diaDaSemana(data)]} ${dateShort(data).slice(0, 5)}`;
}

/** The space's opening ranges on local `data` (its weekly hours), as [{inicio, fim}] in ms, by start. */
export function faixasDoDia(espaco, data, tz) {
  return [...(espaco.horario?.[diaDaSemana(data)] ?? [])]
    .sort((a, b) => a.abre - b.abre)
    .map((f) => ({ inicio: zonedToMs(data, f.abre, tz), fim: zonedToMs(data, f.fecha, tz) }))
    .filter((f) => f.fim > f.inicio);
}

/**
 * The space's blackouts that touch local `data`, cut to the day:
 * [{inicio, fim, motivo, descricao}] (ms), by start.
 */
export function bloqueiosDoDia(espaco, data, tz) {
  const de = zonedToMs(data, 0, tz);
  const ate = zonedToMs(addDays(data, 1), 0, tz);
  return (espaco.bloqueios ?? [])
    .map((b) => ({
      inicio: Math.max(de, Date.parse(b.intervalo?.inicio)),
      fim: Math.min(ate, Date.parse(b.intervalo?.fim)),
      motivo: b.motivo,
      descricao: b.descricao ?? '',
    }))
    .filter((b) => b.fim > b.inicio)
    .sort((a, b) => a.inicio - b.inicio);
}

/** The shortest booking of a catalog item, in minutes: the space's rule or its price table's, whichever is longer. */
export function duracaoMinima({ espaco, precos }) {
  return Math.max(espaco.regras?.duracaoMinimaMinutos ?? STEP_MINUTES, precos?.duracaoMinimaMinutos ?? 0);
}

/** A blackout's reason in words: "Manutenção: Pintura", "Feriado". */
export function motivoDoBloqueio(b) {
  const motivo = MOTIVOS_BLOQUEIO[b.motivo] ?? b.motivo ?? '';
  return b.descricao ? `${motivo}: ${b.descricao}` : motivo;
}

/** `faixas` less the `bloqueios`: what is left of each range, as [{inicio, fim}]. */
function semBloqueios(faixas, bloqueios) {
  let pedacos = faixas;
  for (const b of bloqueios) {
    pedacos = pedacos.flatMap((p) => [
      { inicio: p.inicio, fim: Math.min(p.fim, b.inicio) },
      { inicio: Math.max(p.inicio, b.fim), fim: p.fim },
    ]).filter((p) => p.fim > p.inicio);
  }
  return pedacos;
}

/**
 * The first local day, from today in `tz`, on which a booking of `minimo` minutes can still
 * start at least `antecedenciaMinimaMinutos` from `now` inside the space's weekly hours and out
 * of its blackouts (bookings are not known here: a day full of them still counts). Looks
 * `dias` days ahead; today when none is found (the day view then says it is closed).
 */
export function proximoDiaReservavel(espaco, tz, { now = Date.now(), minimo = 30, antecedenciaMinimaMinutos = 0, dias = 60 } = {}) {
  const hoje = todayIn(tz, now);
  const cedo = now + antecedenciaMinimaMinutos * MINUTE;
  for (let i = 0; i < dias; i += 1) {
    const data = addDays(hoje, i);
    const livres = semBloqueios(faixasDoDia(espaco, data, tz), bloqueiosDoDia(espaco, data, tz));
    if (livres.some((p) => p.fim - Math.max(p.inicio, cedo) >= minimo * MINUTE)) return data;
  }
  return hoje;
}

/** Which state of a slot an hour shows when its slots differ: free time first, then the rest. */
const PRIORIDADE = ['livre', 'bloqueado', 'ocupado', 'passado'];

/**
 * A day's slots (slots.js) by the local hour they start in:
 * Map(minutes after midnight of the hour → {hora: "14:00", estado, inteira, livre, bloqueio}),
 * `estado` the first of PRIORIDADE any slot of the hour has, `inteira` whether every slot of
 * the hour has it, `livre` the first free slot's start (ms), `bloqueio` the first blackout.
 */
export function porHora(list, tz) {
  const horas = new Map();
  for (const slot of list) {
    const w = wallClock(slot.inicio, tz);
    const chave = w.hour * 60;
    if (!horas.has(chave)) horas.set(chave, { hora: clockFromMinutes(chave), estados: [], livre: null, bloqueio: null });
    const hora = horas.get(chave);
    hora.estados.push(slot.estado);
    if (slot.estado === 'livre' && hora.livre === null) hora.livre = slot.inicio;
    if (slot.bloqueio && !hora.bloqueio) hora.bloqueio = slot.bloqueio;
  }
  for (const hora of horas.values()) {
    hora.estado = PRIORIDADE.find((e) => hora.estados.includes(e)) ?? 'ocupado';
    hora.inteira = hora.estados.every((e) => e === hora.estado);
    delete hora.estados;
  }
  return horas;
}

/** A period's first and last local days: it ends at the midnight after its last day. */
export function diasDoPeriodo(intervalo, tz) {
  return { primeiro: localDate(Date.parse(intervalo.inicio), tz), ultimo: localDate(Date.parse(intervalo.fim) - 1, tz) };
}

/**
 * The space's lease that is not over at `agora` (the first, when there are several, with the
 * leases that follow it without a gap: a renewal from its end): its first and last local days
 * and whether it runs already; null when there is none.
 */
export function locacaoVigente(espaco, tz, agora = Date.now()) {
  const [primeira, ...seguintes] = (espaco.bloqueios ?? [])
    .filter((x) => x.motivo === 'locacao' && Date.parse(x.intervalo.fim) > agora)
    .sort((x, y) => Date.parse(x.intervalo.inicio) - Date.parse(y.intervalo.inicio));
  if (!primeira) return null;
  let fim = Date.parse(primeira.intervalo.fim);
  for (const b of seguintes) {
    if (Date.parse(b.intervalo.inicio) > fim) break;
    fim = Math.max(fim, Date.parse(b.intervalo.fim));
  }
  return {
    ...diasDoPeriodo({ inicio: primeira.intervalo.inicio, fim: new Date(fim).toISOString() }, tz),
    jaComecou: Date.parse(primeira.intervalo.inicio) <= agora,
  };
}
