// A unit's day: every active space of the unit as a row and the day's hours across, in the
// unit's time zone; free time links to that space's day with that start picked, the rest says
// occupied, blocked (with its reason), over or closed.

import { allPages } from '../lib/api.js';
import { todasAsUnidades } from '../lib/catalog.js';
import { h, link, replace, uid } from '../lib/dom.js';
import { TIPOS } from '../lib/labels.js';
import { todayIn, addDays, isDate, dateLong, zoneLabel, clockFromMinutes, DEFAULT_TZ } from '../lib/format.js';
import { proximoDiaReservavel, duracaoMinima } from '../lib/agenda.js';
import { pageHeader, loadInto, announce } from '../lib/ui.js';
import { diaPorHora, horasDe, celula, legenda, caixa } from './grade.js';

export function render({ container, params, query, setQuery, signal }) {
  replace(container, pageHeader('Espaços da unidade no dia'));
  const body = h('div');
  container.append(body);
  loadInto(body, async () => {
    const [unidades, espacos] = await Promise.all([
      todasAsUnidades(),
      allPages('/api/espacos', { query: { unidade: params.id }, signal, maxPages: 5 }),
    ]);
    const unidade = unidades.find((u) => u.id.toLowerCase() === params.id.toLowerCase());
    return { unidade, espacos: espacos.sort((a, b) => a.espaco.nome.localeCompare(b.espaco.nome, 'pt-BR')) };
  }, ({ unidade, espacos }) => {
    if (!unidade) {
      replace(body, h('p', { class: 'empty' }, 'Esta unidade não existe mais. ', link('/espacos', 'Ver os espaços'), '.'));
      return;
    }
    screen(container, body, unidade, espacos, { query, setQuery, signal });
  }, { signal });
}

function screen(container, body, unidade, espacos, { query, setQuery, signal }) {
  const tz = unidade.fusoHorario ?? DEFAULT_TZ;
  container.querySelector('h1').textContent = unidade.nome;
  document.title = `${unidade.nome}: espaços no dia · CoworkFlow`;
  container.querySelector('.page-header').append(h('p', { class: 'lead' },
    `Todos os espaços da unidade num dia, no ${zoneLabel(tz)}. Escolha um horário livre para reservar.`));
  if (!espacos.length) {
    replace(body, h('p', { class: 'empty' }, 'Esta unidade ainda não tem espaços para reservar.'));
    return;
  }

  const hoje = todayIn(tz);
  const primeiro = () => espacos
    .map((item) => proximoDiaReservavel(item.espaco, tz, { minimo: duracaoMinima(item), antecedenciaMinimaMinutos: item.espaco.regras?.antecedenciaMinimaMinutos ?? 0 }))
    .sort()[0];
  let data = isDate(query.get('data')) && query.get('data') >= hoje ? query.get('data') : primeiro();

  const dateId = uid('data');
  const dateInput = h('input', { type: 'date', id: dateId, name: 'data', value: data, min: hoje });
  const prev = h('button', { type: 'button', class: 'button button--secondary', onclick: () => go(addDays(data, -1)) }, '← Dia anterior');
  const next = h('button', { type: 'button', class: 'button button--secondary', onclick: () => go(addDays(data, 1)) }, 'Próximo dia →');
  dateInput.addEventListener('change', () => { if (isDate(dateInput.value)) go(dateInput.value); });
  const title = h('h2', { class: 'week__title', 'aria-live': 'polite' });
  const grid = h('div');
  replace(body,
    h('p', { class: 'back' }, link(`/espacos?unidade=${unidade.id}`, `← Espaços de ${unidade.nome}`)),
    h('div', { class: 'day-nav' }, prev, h('div', { class: 'field field--inline' }, h('label', { for: dateId }, 'Data'), dateInput), next),
    title, legenda(), grid);

  function go(newDate) {
    data = newDate < hoje ? hoje : newDate;
    dateInput.value = data;
    load();
  }

  function load() {
    setQuery({ data });
    prev.disabled = data <= hoje;
    title.textContent = dateLong(data);
    loadInto(grid, () => Promise.all(espacos.map((item) => diaPorHora(item.espaco, data, tz, { signal }))), (porEspaco) => {
      const horas = horasDe(porEspaco);
      const abertos = porEspaco.filter((d) => [...d.values()].some((x) => x.estado === 'livre')).length;
      announce(`${dateLong(data)}: ${abertos} ${abertos === 1 ? 'espaço' : 'espaços'} com horário livre`);
      if (!horas.length) {
        replace(grid, h('p', { class: 'empty' }, 'A unidade está fechada neste dia. Escolha outra data.'));
        return;
      }
      replace(grid, caixa(`Espaços de ${unidade.nome} em ${dateLong(data)}: role para os lados para ver todas as horas`,
        h('table', { class: 'grade grade--unidade' },
          h('caption', { class: 'visually-hidden' }, `Espaços de ${unidade.nome} em ${dateLong(data)}, por hora`),
          h('thead', {}, h('tr', {},
            h('th', { scope: 'col', class: 'grade__corner' }, 'Espaço'),
            horas.map((minutos) => h('th', { scope: 'col' }, clockFromMinutes(minutos))))),
          h('tbody', {}, espacos.map(({ espaco }, i) => h('tr', { dataset: { espaco: espaco.id } },
            h('th', { scope: 'row', class: 'grade__label' },
              link(`/espacos/${espaco.id}?data=${data}`, espaco.nome),
              h('span', { class: 'small block' }, `${TIPOS[espaco.tipo] ?? espaco.tipo} · até ${espaco.capacidade}`)),
            horas.map((minutos) => celula({
              espacoId: espaco.id, data, hora: porEspaco[i].get(minutos), tz, quando: `${espaco.nome}, ${dateLong(data)}`, relogio: clockFromMinutes(minutos),
            }))))))));
    }, { signal, text: 'Carregando os espaços…' });
  }

  load();
}
