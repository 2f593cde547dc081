// A space's week: seven local days from the chosen one (by default the next day it can be
// booked), a column per day and a row per hour in the unit's time zone, each hour free (a link
// to that day with that start picked), occupied, blocked (with its reason), over or closed.

import { espaco as loadEspaco } from '../lib/catalog.js';
import { h, link, replace, uid } from '../lib/dom.js';
import { todayIn, addDays, isDate, dateLong, dateShort, zoneLabel, clockFromMinutes, DEFAULT_TZ } from '../lib/format.js';
import { diaCurto, proximoDiaReservavel, duracaoMinima } from '../lib/agenda.js';
import { pageHeader, loadInto, announce } from '../lib/ui.js';
import { diaPorHora, horasDe, celula, legenda, caixa } from './grade.js';

const DIAS = 7;

export function render({ container, params, query, setQuery, signal }) {
  replace(container, pageHeader('Semana do espaço'));
  const body = h('div');
  container.append(body);
  loadInto(body, () => loadEspaco(params.id), (item) => screen(container, body, item, { query, setQuery, signal }), { signal });
}

function screen(container, body, item, { query, setQuery, signal }) {
  const { espaco, unidade } = item;
  const tz = unidade?.fusoHorario ?? DEFAULT_TZ;
  container.querySelector('h1').textContent = `Semana — ${espaco.nome}`;
  document.title = `Semana — ${espaco.nome} · CoworkFlow`;
  container.querySelector('.page-header').append(h('p', { class: 'lead' },
    `${unidade ? `${unidade.nome} · ` : ''}horários no ${zoneLabel(tz)}. Escolha um horário livre para reservar.`));

  const hoje = todayIn(tz);
  let data = isDate(query.get('data')) && query.get('data') >= hoje
    ? query.get('data')
    : proximoDiaReservavel(espaco, tz, { minimo: duracaoMinima(item), antecedenciaMinimaMinutos: espaco.regras?.antecedenciaMinimaMinutos ?? 0 });

  const dateId = uid('data');
  const dateInput = h('input', { type: 'date', id: dateId, name: 'data', value: data, min: hoje });
  const prev = h('button', { type: 'button', class: 'button button--secondary', onclick: () => go(addDays(data, -DIAS)) }, '← Semana anterior');
  const next = h('button', { type: 'button', class: 'button button--secondary', onclick: () => go(addDays(data, DIAS)) }, 'Próxima semana →');
  dateInput.addEventListener('change', () => { if (isDate(dateInput.value)) go(dateInput.value); });
  const dayLink = link('', 'Ver o dia', { class: 'button button--secondary button--small' });
  const gridLink = unidade ? link('', `Todos os espaços de ${unidade.nome}`, { class: 'button button--secondary button--small' }) : null;
  const title = h('h2', { class: 'week__title', 'aria-live': 'polite' });
  const week = h('div');
  replace(body,
    h('p', { class: 'back' }, link(`/espacos/${espaco.id}`, `← ${espaco.nome}`)),
    h('div', { class: 'day-nav' }, prev, h('div', { class: 'field field--inline' }, h('label', { for: dateId }, 'A partir de'), dateInput), next),
    h('p', { class: 'actions' }, dayLink, gridLink),
    title, legenda(), week);

  function go(newDate) {
    data = newDate < hoje ? hoje : newDate;
    dateInput.value = data;
    load();
  }

  function load() {
    setQuery({ data });
    prev.disabled = data <= hoje;
    const dias = Array.from({ length: DIAS }, (_, i) => addDays(data, i));
    title.textContent = `De ${dateShort(dias[0])} a ${dateShort(dias[DIAS - 1])}`;
    dayLink.href = `/espacos/${espaco.id}?data=${data}`;
    if (gridLink) gridLink.href = `/unidades/${unidade.id}/dia?data=${data}`;
    loadInto(week, () => Promise.all(dias.map((d) => diaPorHora(espaco, d, tz, { signal }))), (porDia) => {
      const horas = horasDe(porDia);
      const livres = porDia.reduce((n, d) => n + [...d.values()].filter((x) => x.estado === 'livre').length, 0);
      announce(`Semana de ${dateShort(dias[0])} a ${dateShort(dias[DIAS - 1])}: ${livres ? `${livres} horas com horário livre` : 'nenhum horário livre'}`);
      if (!horas.length) {
        replace(week, h('p', { class: 'empty' }, 'Fechado nestes sete dias. Escolha outra semana.'));
        return;
      }
      replace(week, caixa(`Semana de ${espaco.nome}: role para os lados para ver todos os dias`,
        h('table', { class: 'grade grade--semana' },
          h('caption', { class: 'visually-hidden' }, `${espaco.nome}, de ${dateLong(dias[0])} a ${dateLong(dias[DIAS - 1])}, por hora`),
          h('thead', {}, h('tr', {},
            h('th', { scope: 'col', class: 'grade__corner' }, 'Hora'),
            dias.map((d) => h('th', { scope: 'col', dataset: { data: d } },
              link(`/espacos/${espaco.id}?data=${d}`, [diaCurto(d), h('span', { class: 'visually-hidden' }, `: ${dateLong(d)}`)]))))),
          h('tbody', {}, horas.map((minutos) => h('tr', {},
            h('th', { scope: 'row', class: 'grade__label' }, clockFromMinutes(minutos)),
            dias.map((d, i) => celula({
              espacoId: espaco.id, data: d, hora: porDia[i].get(minutos), tz, quando: `${espaco.nome}, ${dateLong(d)}`, relogio: clockFromMinutes(minutos),
            }))))))));
    }, { signal, text: 'Carregando a semana…' });
  }

  load();
}
