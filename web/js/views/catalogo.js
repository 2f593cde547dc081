// Find a space: filters by unit, type, capacity and amenity; 50 a page. The filters live in the
// query string, so the back button and a shared link show the same list. The amenities are a
// choice of those the catalog's spaces have, compared without accents or case. With a unit
// chosen, a link leads to the grid of all its spaces in a day. Someone signed out is offered a
// guided visit (/tour).

import { api, allPages, PAGE_SIZE } from '../lib/api.js';
import { session } from '../lib/session.js';
import { todasAsUnidades, todasAsComodidades, chaveDaComodidade } from '../lib/catalog.js';
import { h, link, append, replace } from '../lib/dom.js';
import { TIPOS } from '../lib/labels.js';
import { money, dateShort, DEFAULT_TZ } from '../lib/format.js';
import { locacaoVigente } from '../lib/agenda.js';
import { field, pageHeader, pager, loadInto, val, announce } from '../lib/ui.js';

const capitalised = (text) => text.charAt(0).toLocaleUpperCase('pt-BR') + text.slice(1);

function card(item) {
  const { espaco, unidade, precos } = item;
  const headingId = `espaco-${espaco.id}`;
  const vigente = locacaoVigente(espaco, unidade?.fusoHorario ?? DEFAULT_TZ);
  const locado = vigente
    ? `Locado ${vigente.jaComecou ? '' : `de ${dateShort(vigente.primeiro)} `}até ${dateShort(vigente.ultimo)}`
    : null;
  return h('li', { class: 'card', 'aria-labelledby': headingId },
    h('h2', { class: 'card__title', id: headingId }, espaco.nome),
    h('p', { class: 'card__meta' },
      `${TIPOS[espaco.tipo] ?? espaco.tipo} · até ${espaco.capacidade} ${espaco.capacidade === 1 ? 'pessoa' : 'pessoas'}`),
    locado ? h('p', { class: 'card__meta' }, h('strong', {}, locado)) : null,
    unidade ? h('p', { class: 'card__meta' }, `${unidade.nome} — ${unidade.endereco?.bairro ? `${unidade.endereco.bairro}, ` : ''}${unidade.endereco?.cidade ?? ''}`) : null,
    espaco.comodidades?.length
      ? h('ul', { class: 'tags', 'aria-label': 'Comodidades' }, espaco.comodidades.map((c) => h('li', { class: 'tag' }, c)))
      : null,
    h('p', { class: 'card__price' }, precos ? [h('strong', {}, money(precos.porHora)), ' por hora'] : 'Preço a definir'),
    link(`/espacos/${espaco.id}`, 'Ver disponibilidade', { class: 'button button--secondary', 'aria-describedby': headingId }));
}

/** "Todos os espaços de <unidade> num dia": the unit's grid, named once the units arrive. */
function gradeDaUnidade(id) {
  const a = link(`/unidades/${id}/dia`, 'Ver todos os espaços desta unidade num dia', { class: 'button button--secondary button--small' });
  todasAsUnidades().then((lista) => {
    const unidade = lista.find((u) => u.id === id);
    if (unidade) a.textContent = `Ver todos os espaços de ${unidade.nome} num dia`;
  }).catch(() => { /* the generic words stay */ });
  return h('p', { class: 'results__unit' }, a);
}

export function render({ container, query, setQuery, signal }) {
  const state = {
    unidade: query.get('unidade') ?? '',
    tipo: query.get('tipo') ?? '',
    capacidade: query.get('capacidade') ?? '',
    comodidade: query.get('comodidade') ?? '',
    pagina: Math.max(1, Number(query.get('pagina')) || 1),
  };

  const comodidadeField = field({ label: 'Comodidade', name: 'comodidade', type: 'select', options: [['', 'Todas as comodidades']], value: state.comodidade });
  const unidadeField = field({ label: 'Unidade', name: 'unidade', type: 'select', options: [['', 'Todas as unidades']], value: state.unidade });
  const form = h('form', { class: 'filters', role: 'search', 'aria-label': 'Filtrar espaços' },
    unidadeField,
    field({ label: 'Tipo', name: 'tipo', type: 'select', value: state.tipo, options: [['', 'Todos os tipos'], ...Object.entries(TIPOS)] }),
    field({ label: 'Pessoas (mínimo)', name: 'capacidade', type: 'number', value: state.capacidade, attrs: { min: '1', max: '1000', inputmode: 'numeric' } }),
    comodidadeField,
    h('div', { class: 'filters__actions' },
      h('button', { type: 'submit', class: 'button' }, 'Buscar'),
      h('button', { type: 'reset', class: 'button button--secondary' }, 'Limpar')));
  const results = h('section', { class: 'results', 'aria-label': 'Resultados' });

  // The units fill the first filter once they arrive.
  todasAsUnidades().then((lista) => {
    if (signal.aborted) return;
    const select = unidadeField.querySelector('select');
    lista.forEach((u) => select.append(h('option', { value: u.id, selected: u.id === state.unidade }, u.nome)));
  }).catch(() => { /* the list still works without the unit filter */ });
  // The amenities too; one given in the address in another spelling picks its group.
  todasAsComodidades().then((grupos) => {
    if (signal.aborted) return;
    const select = comodidadeField.querySelector('select');
    const atual = chaveDaComodidade(state.comodidade);
    const opcoes = [...grupos].sort((a, b) => a[1].nome.localeCompare(b[1].nome, 'pt-BR'));
    if (atual && !grupos.has(atual)) opcoes.push([atual, { nome: state.comodidade }]);
    opcoes.forEach(([chave, { nome }]) => select.append(h('option', { value: nome, selected: chave === atual }, capitalised(nome))));
  }).catch(() => { /* without the list, "Todas as comodidades" still searches */ });

  /**
   * A page of spaces. An amenity spelt in several ways by the spaces ("café", "cafe") is asked
   * once per spelling (the API compares case but not accents) and the pages joined here.
   */
  async function search() {
    const grupo = state.comodidade
      ? (await todasAsComodidades().catch(() => new Map())).get(chaveDaComodidade(state.comodidade))
      : null;
    const grafias = grupo?.grafias ?? [state.comodidade];
    if (grafias.length <= 1) return api('/api/espacos', { query: { ...state, comodidade: grafias[0] }, signal });
    const listas = await Promise.all(grafias.map((comodidade) => allPages('/api/espacos', { query: { ...state, comodidade }, signal })));
    const porId = new Map(listas.flat().map((item) => [item.espaco.id, item]));
    const itens = [...porId.values()].sort((a, b) => a.espaco.nome.localeCompare(b.espaco.nome, 'pt-BR'));
    return { itens: itens.slice((state.pagina - 1) * PAGE_SIZE, state.pagina * PAGE_SIZE), total: itens.length, pagina: state.pagina };
  }

  function load() {
    setQuery({ ...state, pagina: state.pagina > 1 ? state.pagina : '' });
    loadInto(results,
      search,
      (page) => {
        announce(`${page.total} ${page.total === 1 ? 'espaço encontrado' : 'espaços encontrados'}`);
        append(results,
          state.unidade ? gradeDaUnidade(state.unidade) : null,
          page.itens.length
            ? h('ul', { class: 'cards' }, page.itens.map(card))
            : h('p', { class: 'empty' }, 'Nenhum espaço com esses filtros. Tente tirar algum filtro.'),
          pager({ pagina: page.pagina, total: page.total, noun: ['espaço', 'espaços'], onPage: (n) => { state.pagina = n; load(); results.scrollIntoView(); } }));
      },
      { signal, text: 'Buscando espaços…' });
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    Object.assign(state, {
      unidade: val(form, 'unidade'), tipo: val(form, 'tipo'), capacidade: val(form, 'capacidade'), comodidade: val(form, 'comodidade'), pagina: 1,
    });
    load();
  });
  form.addEventListener('reset', () => {
    setTimeout(() => {
      [...form.elements].forEach((el) => { if (el.name) el.value = ''; });
      Object.assign(state, { unidade: '', tipo: '', capacidade: '', comodidade: '', pagina: 1 });
      load();
    });
  });

  replace(container,
    pageHeader('Encontre um espaço', 'Salas, estações e auditórios para o seu dia de trabalho.'),
    // Someone not signed in may not be a member yet: a guided visit first.
    session.signedIn ? null : h('p', { class: 'small tour-link' }, 'Ainda não é membro? ', link('/tour', 'Agende um tour'), ' e conheça o espaço antes de decidir.'),
    form,
    results);
  load();
}
