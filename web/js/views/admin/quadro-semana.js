// The reception's week: a unit's spaces as rows and seven local days across, each cell that day's
// bookings of the space counted by where they stand (PRESENCA), its blackouts and whether it is
// closed; a day's heading, or any of its cells, opens that day's board.

import { h, uid } from '../../lib/dom.js';
import { presenca, MOTIVOS_BLOQUEIO } from '../../lib/labels.js';
import { dateLong, time, todayIn } from '../../lib/format.js';
import { diaDaSemana, diaCurto, bloqueiosDoDia } from '../../lib/agenda.js';

/** PRESENCA's keys in the order a cell lists them, with their words for one and for many. */
const CONTAGEM = [
  ['presente', 'presente', 'presentes'],
  ['aguardando', 'aguardando', 'aguardando'],
  ['pendente', 'aguardando pagamento', 'aguardando pagamento'],
  ['saiu', 'saiu', 'saíram'],
  ['ausente', 'ausente', 'ausentes'],
  ['concluida', 'concluída', 'concluídas'],
  ['cancelada', 'cancelada', 'canceladas'],
  ['recusada', 'recusada', 'recusadas'],
  ['expirada', 'expirada', 'expiradas'],
];
const FORA = new Set(['cancelada', 'recusada', 'expirada']);

/** One space on one day: how many bookings stand, how each stands, blackouts, closed. */
function resumo(item, data, tz, reservas) {
  const porEstado = new Map();
  for (const r of reservas) porEstado.set(presenca(r), (porEstado.get(presenca(r)) ?? 0) + 1);
  const ativas = reservas.filter((r) => !FORA.has(presenca(r))).length;
  const linhas = CONTAGEM.filter(([k]) => porEstado.has(k)).map(([k, um, muitos]) => {
    const n = porEstado.get(k);
    return { chave: k, texto: `${n} ${n === 1 ? um : muitos}` };
  });
  const bloqueios = bloqueiosDoDia(item.espaco, data, tz).map((b) => `Bloqueado ${time(b.inicio, tz)}–${time(b.fim, tz)} (${MOTIVOS_BLOQUEIO[b.motivo] ?? b.motivo})`);
  const fechado = !(item.espaco.horario?.[diaDaSemana(data)] ?? []).length;
  return { ativas, linhas, bloqueios, fechado };
}

/**
 * quadroDaSemana({dias, tz, espacos: [{espaco}], porDia: [reservas of each day], onDia(data)})
 * → the week's section. A booking over several days counts on each of them.
 */
export function quadroDaSemana({ dias, tz, espacos, porDia, onDia, now = Date.now() }) {
  const hoje = todayIn(tz, now);
  const tituloId = uid('semana');
  const abrir = (data) => () => onDia(data);
  const rows = espacos.map((item) => h('tr', { dataset: { espaco: item.espaco.id } },
    h('th', { scope: 'row', class: 'grade__label' }, item.espaco.nome),
    dias.map((data, i) => {
      const { ativas, linhas, bloqueios, fechado } = resumo(item, data, tz, porDia[i].filter((r) => r.espacoId === item.espaco.id));
      const total = ativas ? `${ativas} ${ativas === 1 ? 'reserva' : 'reservas'}` : (fechado ? 'Fechado' : 'Sem reservas');
      return h('td', { class: `week-board__cell${data === hoje ? ' week-board__cell--hoje' : ''}`, dataset: { data, reservas: String(ativas) } },
        h('button', { type: 'button', class: `week-board__day${ativas ? '' : ' week-board__day--vazio'}`, onclick: abrir(data) },
          h('span', { class: 'week-board__total' }, total),
          linhas.map((l) => h('span', { class: `week-board__line week-board__line--${l.chave}` }, l.texto)),
          bloqueios.map((b) => h('span', { class: 'week-board__line week-board__line--bloqueado' }, b)),
          h('span', { class: 'visually-hidden' }, `: ${item.espaco.nome}, ${dateLong(data)}. Abrir o dia`)));
    })));
  return h('section', { class: 'board-section', 'aria-labelledby': tituloId },
    h('h2', { id: tituloId }, 'Quadro da semana'),
    h('p', { class: 'small' }, 'Reservas de cada espaço por dia, pela situação de cada uma. Escolha um dia para abrir o quadro dele.'),
    espacos.length
      ? h('div', { class: 'grade-scroll', tabindex: '0', role: 'region', 'aria-label': 'Quadro da semana: role para os lados para ver todos os dias' },
        h('table', { class: 'grade week-board' },
          h('caption', { class: 'visually-hidden' }, `Reservas de ${dateLong(dias[0])} a ${dateLong(dias[dias.length - 1])}, por espaço`),
          h('thead', {}, h('tr', {},
            h('th', { scope: 'col', class: 'grade__corner' }, 'Espaço'),
            dias.map((data) => h('th', { scope: 'col', dataset: { data }, class: data === hoje ? 'week-board__cell--hoje' : null },
              h('button', { type: 'button', class: 'link-button week-board__head', onclick: abrir(data) },
                diaCurto(data), data === hoje ? ' (hoje)' : '', h('span', { class: 'visually-hidden' }, `: abrir ${dateLong(data)}`)))))),
          h('tbody', {}, rows)))
      : h('p', { class: 'empty' }, 'Esta unidade ainda não tem espaços ativos.'));
}
