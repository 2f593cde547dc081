// The reception's day board: one row per space of a unit, the hours of the day across, each
// booking a block with its member and where it stands (PRESENCA), blackouts as blocked time and
// the hours the space is closed shaded. A picture of the day; the list under it has the actions.

import { h, uid } from '../../lib/dom.js';
import { PRESENCA, MOTIVOS_BLOQUEIO, presenca } from '../../lib/labels.js';
import { time, wallClock, localDate, zonedToMs, addDays, todayIn, clockFromMinutes } from '../../lib/format.js';
import { nomeOuConta } from '../../lib/pessoas.js';
import { diaDaSemana } from '../../lib/agenda.js';

/** Minutes after the local midnight of `data` at instant `ms`, clamped to the day (0…1440). */
function minutoDoDia(ms, data, tz) {
  const dia = localDate(ms, tz);
  if (dia < data) return 0;
  if (dia > data) return 1440;
  const w = wallClock(ms, tz);
  return w.hour * 60 + w.minute;
}

/**
 * The hours the board shows, whole hours: from the earliest opening to the latest closing of the
 * unit's spaces that day, and every block in it. A unit open around the clock shows its working
 * day (08–20), widened to its blocks and to the present hour.
 */
function horas(espacos, blocos, data, agora) {
  const dia = diaDaSemana(data);
  let inicios = [];
  let fins = [];
  for (const item of espacos) {
    for (const faixa of item.espaco.horario?.[dia] ?? []) { inicios.push(faixa.abre); fins.push(faixa.fecha); }
  }
  if (!inicios.length || Math.max(...fins) - Math.min(...inicios) >= 20 * 60) {
    inicios = [8 * 60];
    fins = [20 * 60];
    if (agora !== null) { inicios.push(agora - 60); fins.push(agora + 60); }
  }
  for (const b of blocos) { inicios.push(b.de); fins.push(b.ate); }
  return {
    de: Math.max(0, Math.floor(Math.min(...inicios) / 60) * 60),
    ate: Math.min(1440, Math.ceil(Math.max(...fins) / 60) * 60),
  };
}

/** Lanes for overlapping blocks (a shared desk area holds many bookings at once): greedy, by start. */
function emFaixas(blocos) {
  const fins = [];
  for (const b of [...blocos].sort((x, y) => x.de - y.de || y.ate - x.ate)) {
    let faixa = fins.findIndex((fim) => fim <= b.de);
    if (faixa < 0) { faixa = fins.length; fins.push(0); }
    fins[faixa] = b.ate;
    b.faixa = faixa;
  }
  return Math.max(1, fins.length);
}

/**
 * quadro({data, tz, espacos: [{espaco}], reservas, nomes: Map(id → nome|false|null), now})
 * → the board's section. `espacos` are the unit's spaces, already in the order to show them.
 */
export function quadro({ data, tz, espacos, reservas, nomes, now = Date.now() }) {
  const inicioDoDia = zonedToMs(data, 0, tz);
  const fimDoDia = zonedToMs(addDays(data, 1), 0, tz);
  const linhas = espacos.map((item) => {
    const blocos = [];
    for (const r of reservas.filter((x) => x.espacoId === item.espaco.id)) {
      const a = Date.parse(r.inicio);
      const b = Date.parse(r.fim);
      const estado = presenca(r);
      const nome = nomeOuConta(nomes.get(String(r.usuarioId).toLowerCase()), r.usuarioId);
      blocos.push({
        tipo: 'reserva', estado, de: minutoDoDia(a, data, tz), ate: minutoDoDia(b, data, tz),
        titulo: nome, quando: `${time(r.inicio, tz)}–${time(r.fim, tz)}`, reserva: r.id,
      });
    }
    for (const bl of item.espaco.bloqueios ?? []) {
      const a = Date.parse(bl.intervalo?.inicio);
      const b = Date.parse(bl.intervalo?.fim);
      if (!(a < fimDoDia && b > inicioDoDia)) continue;
      const motivo = MOTIVOS_BLOQUEIO[bl.motivo] ?? bl.motivo;
      blocos.push({
        tipo: 'bloqueio', estado: 'bloqueado', de: minutoDoDia(a, data, tz), ate: minutoDoDia(b, data, tz),
        titulo: `Bloqueado: ${motivo}`, quando: `${clockFromMinutes(minutoDoDia(a, data, tz))}–${clockFromMinutes(minutoDoDia(b, data, tz))}`,
        descricao: bl.descricao,
      });
    }
    return { item, blocos: blocos.filter((b) => b.ate > b.de) };
  });
  const agora = todayIn(tz, now) === data ? minutoDoDia(now, data, tz) : null;
  const { de, ate } = horas(espacos, linhas.flatMap((l) => l.blocos), data, agora);
  const span = Math.max(60, ate - de);
  const pct = (min) => `${((Math.min(Math.max(min, de), ate) - de) / span) * 100}%`;
  const largura = (a, b) => `${((Math.min(b, ate) - Math.max(a, de)) / span) * 100}%`;
  const dia = diaDaSemana(data);

  const marcas = [];
  for (let m = de; m <= ate; m += 60) {
    marcas.push(h('span', { class: 'board__hour', style: { left: pct(m) } }, clockFromMinutes(m % 1440 === 0 && m > 0 ? 1440 : m)));
  }

  const linhaDoAgora = () => (agora !== null && agora >= de && agora <= ate
    ? h('span', { class: 'board__now', style: { left: pct(agora) }, 'aria-hidden': 'true' })
    : null);

  const rows = linhas.map(({ item, blocos }) => {
    const faixas = emFaixas(blocos);
    const nomeId = uid('quadro-espaco');
    // The hours outside the space's opening, shaded (before the first range, between, after the last).
    const abertas = [...(item.espaco.horario?.[dia] ?? [])].sort((a, b) => a.abre - b.abre);
    const fechadas = [];
    let cursor = de;
    for (const f of abertas) {
      if (f.abre > cursor) fechadas.push([cursor, f.abre]);
      cursor = Math.max(cursor, f.fecha);
    }
    if (cursor < ate) fechadas.push([cursor, ate]);
    return h('div', { class: 'board__row', dataset: { espaco: item.espaco.id }, style: { '--faixas': String(faixas) } },
      h('div', { class: 'board__space', id: nomeId }, item.espaco.nome,
        abertas.length ? null : h('span', { class: 'small block' }, 'Fechado neste dia')),
      h('div', { class: 'board__track' },
        fechadas.map(([a, b]) => h('span', { class: 'board__closed', style: { left: pct(a), width: largura(a, b) }, 'aria-hidden': 'true' })),
        linhaDoAgora(),
        h('ul', { class: 'board__blocks', 'aria-labelledby': nomeId },
          blocos.length ? null : h('li', { class: 'visually-hidden' }, 'Nenhuma reserva'),
          blocos.sort((a, b) => a.de - b.de).map((b) => h('li', {
            class: `board__block board__block--${b.estado}`,
            dataset: { estado: b.estado, ...(b.reserva ? { reserva: b.reserva } : {}) },
            style: { left: pct(b.de), width: largura(b.de, b.ate), top: `calc(${b.faixa} * var(--faixa))` },
            title: [b.titulo, b.tipo === 'reserva' ? PRESENCA[b.estado] : b.descricao, b.quando].filter(Boolean).join(' · '),
          },
          h('span', { class: 'board__who' }, b.titulo),
          b.tipo === 'reserva' ? h('span', { class: 'board__state' }, PRESENCA[b.estado]) : null,
          h('span', { class: 'board__when' }, b.quando))))));
  });

  const tituloId = uid('quadro');
  return h('section', { class: 'board-section', 'aria-labelledby': tituloId },
    h('h2', { id: tituloId }, 'Quadro do dia'),
    h('ul', { class: 'legend board__legend' },
      ['aguardando', 'presente', 'saiu', 'ausente', 'pendente', 'cancelada'].map((k) => h('li', {},
        h('span', { class: `board__swatch board__block--${k}`, 'aria-hidden': 'true' }), k === 'cancelada' ? 'Cancelada ou expirada' : PRESENCA[k])),
      h('li', {}, h('span', { class: 'board__swatch board__block--bloqueado', 'aria-hidden': 'true' }), 'Bloqueado'),
      h('li', {}, h('span', { class: 'board__swatch board__closed-swatch', 'aria-hidden': 'true' }), 'Fechado')),
    espacos.length
      ? h('div', { class: 'board-scroll', tabindex: '0', role: 'region', 'aria-label': 'Quadro do dia: role para os lados para ver todas as horas' },
        h('div', { class: 'board', style: { '--horas': String(span / 60) } },
          h('div', { class: 'board__row board__row--hours', 'aria-hidden': 'true' },
            h('div', { class: 'board__space' }, 'Espaço'),
            h('div', { class: 'board__track board__track--hours' }, marcas)),
          rows))
      : h('p', { class: 'empty' }, 'Esta unidade ainda não tem espaços ativos.'));
}
