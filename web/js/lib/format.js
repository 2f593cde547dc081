// Money (integer centavos → R$ with pt-BR conventions) and time (instants from the API shown in
// the unit's IANA time zone; local dates and clock times turned back into instants with the
// zone's offset on that day, daylight saving included).

const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });

/** 16000 → "R$ 160,00" (pt-BR: comma decimals, dot thousands). */
export function money(centavos) {
  if (centavos === null || centavos === undefined || Number.isNaN(Number(centavos))) return '—';
  return brl.format(Number(centavos) / 100);
}

const brlCompact = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL', notation: 'compact', minimumFractionDigits: 0, maximumFractionDigits: 1 });

/** 1234500 → "R$ 12,3 mil" (chart axes). */
export function moneyCompact(centavos) {
  return brlCompact.format(Number(centavos) / 100);
}

/** plural(1, 'pagamento', 'pagamentos') → "1 pagamento"; plural(3, …) → "3 pagamentos". */
export function plural(n, one, many) {
  const count = Number(n ?? 0);
  return `${count.toLocaleString('pt-BR')} ${count === 1 ? one : many}`;
}

/** 0.4167 → "41,7 %"; null → "—" (a rate with nothing to divide by). */
export function percent(fraction, digits = 1) {
  if (fraction === null || fraction === undefined || Number.isNaN(Number(fraction))) return '—';
  return `${(Number(fraction) * 100).toLocaleString('pt-BR', { maximumFractionDigits: digits })} %`;
}

/**
 * "1.234,56", "R$ 80", "80,5" → centavos (integer), without floating point; null when the text
 * is not an amount. A negative sign is kept (the caller decides whether it is allowed).
 */
export function parseMoney(text) {
  const t = String(text ?? '').replace(/R\$|\s|\u00a0/g, '');
  const match = /^(-?)(\d{1,3}(?:\.\d{3})+|\d+)(?:,(\d{1,2}))?$/.exec(t);
  if (!match) return null;
  const reais = Number(match[2].replace(/\./g, ''));
  const cents = Number((match[3] ?? '0').padEnd(2, '0'));
  const value = reais * 100 + cents;
  return match[1] ? -value : value;
}

/** centavos → "80,00" (for an input field). */
export function moneyInput(centavos) {
  if (centavos === null || centavos === undefined) return '';
  const negative = centavos < 0;
  const abs = Math.abs(centavos);
  const reais = Math.floor(abs / 100).toLocaleString('pt-BR');
  return `${negative ? '-' : ''}${reais},${String(abs % 100).padStart(2, '0')}`;
}

/** Basis points → "50 %" (10000 = 100 %). */
export function percentFromBP(bp) {
  const value = Number(bp) / 100;
  return `${value.toLocaleString('pt-BR', { maximumFractionDigits: 2 })} %`;
}

/** "12,5" → 1250 basis points; null when not a number. */
export function bpFromPercent(text) {
  const t = String(text ?? '').trim().replace(',', '.');
  if (t === '' || Number.isNaN(Number(t))) return null;
  return Math.round(Number(t) * 100);
}

export const DEFAULT_TZ = 'America/Sao_Paulo';

const partsCache = new Map();
function partsFormatter(tz) {
  if (!partsCache.has(tz)) {
    partsCache.set(tz, new Intl.DateTimeFormat('en-US', {
      timeZone: tz, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit',
      hour: '2-digit', minute: '2-digit', second: '2-digit', weekday: 'short',
    }));
  }
  return partsCache.get(tz);
}

/** The wall clock of `ms` in `tz`: {year, month, day, hour, minute, second, weekday 0=Sunday}. */
export function wallClock(ms, tz = DEFAULT_TZ) {
  const parts = {};
  for (const p of partsFormatter(tz).formatToParts(new Date(ms))) parts[p.type] = p.value;
  const weekdays = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };
  return {
    year: Number(parts.year), month: Number(parts.month), day: Number(parts.day),
    hour: Number(parts.hour) % 24, minute: Number(parts.minute), second: Number(parts.second),
    weekday: weekdays[parts.weekday],
  };
}

/** Offset of `tz` at the instant `ms`, in minutes east of UTC (São Paulo: -180). */
export function offsetMinutes(ms, tz = DEFAULT_TZ) {
  const w = wallClock(ms, tz);
  const asUTC = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return Math.round((asUTC - Math.floor(ms / 1000) * 1000) / 60000);
}

const pad = (n, size = 2) => String(n).padStart(size, '0');

/** The instant `ms` as ISO 8601 with the zone's offset: "2026-11-24T10:00:00-03:00". */
export function isoWithOffset(ms, tz = DEFAULT_TZ) {
  const w = wallClock(ms, tz);
  const off = offsetMinutes(ms, tz);
  const sign = off < 0 ? '-' : '+';
  const abs = Math.abs(off);
  return `${w.year}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** The instant of local date "AAAA-MM-DD" at `minutes` after local midnight in `tz`. */
export function zonedToMs(date, minutes, tz = DEFAULT_TZ) {
  const [y, m, d] = date.split('-').map(Number);
  const guess = Date.UTC(y, m - 1, d, 0, minutes);
  const first = guess - offsetMinutes(guess, tz) * 60000;
  const second = guess - offsetMinutes(first, tz) * 60000;
  return second;
}

/** "14:30" → 870. */
export function minutesFromClock(text) {
  const match = /^(\d{1,2}):(\d{2})$/.exec(String(text ?? '').trim());
  if (!match) return null;
  return Number(match[1]) * 60 + Number(match[2]);
}

/** 870 → "14:30"; 1440 → "24:00". */
export function clockFromMinutes(minutes) {
  return `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

/** Today's local date in `tz`, "AAAA-MM-DD". */
export function todayIn(tz = DEFAULT_TZ, now = Date.now()) {
  const w = wallClock(now, tz);
  return `${w.year}-${pad(w.month)}-${pad(w.day)}`;
}

/** The local date of instant `ms` in `tz`. */
export function localDate(ms, tz = DEFAULT_TZ) {
  return todayIn(tz, ms);
}

/** "2026-11-24" + 1 → "2026-11-25" (calendar arithmetic, no zone involved). */
export function addDays(date, days) {
  const [y, m, d] = date.split('-').map(Number);
  const t = new Date(Date.UTC(y, m - 1, d + days));
  return `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
}

export function isDate(text) {
  return /^\d{4}-\d{2}-\d{2}$/.test(String(text ?? '')) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`));
}

const longDate = new Intl.DateTimeFormat('pt-BR', { timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
const shortDate = new Intl.DateTimeFormat('pt-BR', { timeZone: 'UTC', day: '2-digit', month: '2-digit', year: 'numeric' });

/** "2026-11-24" → "terça-feira, 24 de novembro de 2026". */
export function dateLong(date) {
  const [y, m, d] = date.split('-').map(Number);
  return longDate.format(new Date(Date.UTC(y, m - 1, d)));
}

/** "2026-11-24" → "24/11/2026". */
export function dateShort(date) {
  const [y, m, d] = date.split('-').map(Number);
  return shortDate.format(new Date(Date.UTC(y, m - 1, d)));
}

const timeCache = new Map();
/** Instant → "10:00" in `tz`. */
export function time(iso, tz = DEFAULT_TZ) {
  if (!timeCache.has(tz)) {
    timeCache.set(tz, new Intl.DateTimeFormat('pt-BR', { timeZone: tz, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }));
  }
  return timeCache.get(tz).format(new Date(iso));
}

const dateTimeCache = new Map();
/** Instant → "24/11/2026, 10:00" in `tz`. */
export function dateTime(iso, tz = DEFAULT_TZ) {
  if (!iso) return '—';
  if (!dateTimeCache.has(tz)) {
    dateTimeCache.set(tz, new Intl.DateTimeFormat('pt-BR', {
      timeZone: tz, day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
    }));
  }
  return dateTimeCache.get(tz).format(new Date(iso));
}

/** A deadline in `tz`: "10:15" today, "26/11/2026, 08:00" on another day (a boleto's hold lasts days). */
export function deadline(iso, tz = DEFAULT_TZ, now = Date.now()) {
  return localDate(Date.parse(iso), tz) === localDate(now, tz) ? time(iso, tz) : dateTime(iso, tz);
}

/** A booking's interval in its unit's zone: "24/11/2026, 10:00–12:00" (dates repeated across days). */
export function interval(inicio, fim, tz = DEFAULT_TZ) {
  const a = Date.parse(inicio);
  const b = Date.parse(fim);
  if (localDate(a, tz) === localDate(b - 1, tz)) return `${dateShort(localDate(a, tz))}, ${time(inicio, tz)}–${time(fim, tz)}`;
  return `${dateTime(inicio, tz)} – ${dateTime(fim, tz)}`;
}

/** Minutes → "2 h", "1 h 30 min", "45 min". */
export function duration(minutes) {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours && rest) return `${hours} h ${rest} min`;
  if (hours) return `${hours} h`;
  return `${rest} min`;
}

/** Short name of a time zone for labels: "America/Sao_Paulo" → "horário de São Paulo". */
export function zoneLabel(tz) {
  const city = String(tz).split('/').pop().replace(/_/g, ' ');
  const fixes = { 'Sao Paulo': 'São Paulo', Belem: 'Belém', Maceio: 'Maceió', Cuiaba: 'Cuiabá', Araguaina: 'Araguaína' };
  return `horário de ${fixes[city] ?? city}`;
}

/**
 * Hours as an operator types them → minutes: "10", "1,5", "1.5", "1:30", "1 h 30", "1h30min",
 * "45 min". Null when it is not an amount of time.
 */
export function minutosDeHoras(texto) {
  const t = String(texto ?? '').trim().toLowerCase().replace(/\s+/g, ' ');
  let m = /^(\d+)(?:[.,](\d+))?(?: ?h| ?horas?)?$/.exec(t);
  if (m) return Math.round(Number(`${m[1]}.${m[2] ?? '0'}`) * 60);
  m = /^(\d+)(?::| ?h ?)(\d{1,2})(?: ?min)?$/.exec(t);
  if (m && Number(m[2]) < 60) return Number(m[1]) * 60 + Number(m[2]);
  m = /^(\d+) ?min(?:utos?)?$/.exec(t);
  if (m) return Number(m[1]);
  return null;
}

/**
 * How long ago an instant was, in words: "há menos de 1 minuto", "há 5 minutos", "há 2 horas",
 * "há 3 dias" (whole units, rounded down; a future instant reads as now).
 */
export function haQuantoTempo(iso, now = Date.now()) {
  const minutos = Math.max(0, Math.floor((now - Date.parse(iso)) / 60_000));
  if (minutos < 1) return 'há menos de 1 minuto';
  if (minutos < 60) return `há ${plural(minutos, 'minuto', 'minutos')}`;
  const horas = Math.floor(minutos / 60);
  if (horas < 24) return `há ${plural(horas, 'hora', 'horas')}`;
  return `há ${plural(Math.floor(horas / 24), 'dia', 'dias')}`;
}
