// A visitor's pass, printed at the front desk (ADR 0013): "VISITANTE", the visitor's name, whom
// they came to see, the unit and the day it is good for. Opened from a visitor's row on
// "Reservas do dia" (?unidade=&data= say which day's list holds it); "Imprimir crachá" opens the
// browser's print dialog, and the print style leaves the pass alone on the page.

import { api } from '../../lib/api.js';
import { h, link, replace } from '../../lib/dom.js';
import { dateLong, time, DEFAULT_TZ } from '../../lib/format.js';
import { pageHeader, loadInto } from '../../lib/ui.js';
import { todasAsUnidades } from '../../lib/catalog.js';
import { nomesDePessoas, nomeOuConta } from '../../lib/pessoas.js';

const DIA = /^\d{4}-\d{2}-\d{2}$/;

/** An answer of "not found" in the API's words (errors.js shows its message). */
function naoEncontrado(message) {
  return Object.assign(new Error(message), { code: 'nao_encontrado', status: 404 });
}

export function render({ container, params, query, signal }) {
  const unidade = query.get('unidade') ?? '';
  const data = query.get('data') ?? '';
  const voltar = link(`/admin/reservas?${new URLSearchParams({ unidade, data })}`, '← Reservas do dia');
  const cabecalho = pageHeader('Crachá de visitante');
  cabecalho.classList.add('no-print');
  replace(container, h('p', { class: 'back no-print' }, voltar), cabecalho);
  const body = h('div');
  container.append(body);
  loadInto(body, async () => {
    if (!unidade || !DIA.test(data)) throw naoEncontrado('Abra o crachá pela lista de visitantes de "Reservas do dia".');
    const [dia, unidades] = await Promise.all([
      api('/api/admin/visitas', { query: { unidade, data }, signal }),
      todasAsUnidades().catch(() => []),
    ]);
    const visita = (dia.itens ?? []).find((v) => v.id === params.id);
    if (!visita) throw naoEncontrado('Este visitante não está na lista desse dia.');
    const anfitriao = nomeOuConta(await nomesDePessoas(signal).nome(visita.usuarioId), visita.usuarioId);
    return { visita, anfitriao, unidade: unidades.find((u) => u.id === unidade) };
  }, ({ visita, anfitriao, unidade: u }) => {
    const tz = u?.fusoHorario ?? DEFAULT_TZ;
    if (!visita.nome || visita.situacao === 'cancelada' || visita.situacao === 'saiu') {
      // Nothing to print: a pass names the visitor, and is for a visit still to come or under way.
      body.append(h('p', { class: 'notice' }, !visita.nome
        ? 'Os dados deste visitante foram apagados: não há nome para o crachá.'
        : visita.situacao === 'cancelada' ? 'Esta visita foi cancelada pelo anfitrião.' : 'Este visitante já saiu.'));
      return;
    }
    document.title = `Crachá: ${visita.nome} · CoworkFlow`;
    const imprimir = h('button', { type: 'button', class: 'button' }, 'Imprimir crachá');
    imprimir.addEventListener('click', () => window.print());
    body.append(
      h('article', { class: 'pass', 'aria-label': `Crachá de ${visita.nome}` },
        h('p', { class: 'pass__band' }, 'Visitante'),
        h('p', { class: 'pass__name' }, visita.nome),
        h('dl', { class: 'pass__facts' },
          h('dt', {}, 'Visita a'), h('dd', {}, anfitriao),
          h('dt', {}, 'Unidade'), h('dd', {}, u?.nome ?? '—'),
          h('dt', {}, 'Válido em'), h('dd', {}, dateLong(visita.dia)),
          h('dt', {}, visita.chegouEm ? 'Chegada' : 'Chegada prevista'), h('dd', {}, time(visita.chegouEm ?? visita.chegadaPrevista, tz))),
        h('p', { class: 'pass__note' }, 'Use o crachá à vista e devolva-o na recepção ao sair.')),
      h('p', { class: 'actions no-print' }, imprimir));
  }, { signal, text: 'Carregando o crachá…' });
}
