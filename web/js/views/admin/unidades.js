// Units by name, 50 a page, found by part of the name or address ("Buscar"), with links to
// edit each and to its spaces.

import { api } from '../../lib/api.js';
import { h, link, replace } from '../../lib/dom.js';
import { percentFromBP } from '../../lib/format.js';
import { pageHeader, loadInto, pager, table, field, val, announce } from '../../lib/ui.js';

/** The longest search the API takes. */
const BUSCA_MAXIMA = 100;

export function render({ container, query, setQuery, signal }) {
  let busca = (query.get('busca') ?? '').trim();
  // Said once the list of a search (or of all, once it is cleared) arrives; a page turned says its own.
  let anunciar = false;
  let pagina = Math.max(1, Number(query.get('pagina')) || 1);
  const form = h('form', { class: 'filters', role: 'search', 'aria-label': 'Buscar unidades' },
    field({
      label: 'Nome ou endereço contém', name: 'busca', type: 'search', value: busca,
      attrs: { autocomplete: 'off', maxlength: BUSCA_MAXIMA },
    }),
    h('div', { class: 'filters__actions' }, h('button', { type: 'submit', class: 'button' }, 'Buscar')));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    busca = val(form, 'busca').trim();
    pagina = 1;
    anunciar = true;
    load();
  });
  const list = h('section', { 'aria-label': 'Lista de unidades' });
  replace(container,
    pageHeader('Unidades', 'Os endereços da operação, cada um com seu fuso horário e sua política de cancelamento.'),
    h('p', {}, link('/admin/unidades/nova', 'Nova unidade', { class: 'button' })),
    form,
    list);

  function load() {
    setQuery({ busca, pagina: pagina > 1 ? pagina : '' });
    loadInto(list, () => api('/api/unidades', { query: { busca, pagina }, signal }), (page) => {
      if (anunciar) {
        anunciar = false;
        announce(busca
          ? `${page.total} ${page.total === 1 ? 'unidade encontrada' : 'unidades encontradas'}`
          : `${page.total} ${page.total === 1 ? 'unidade cadastrada' : 'unidades cadastradas'}`);
      }
      list.append(
        table({
          caption: busca ? `Unidades com “${busca}” no nome ou no endereço` : 'Unidades cadastradas',
          empty: busca ? 'Nenhuma unidade com esse nome ou endereço.' : 'Nenhuma unidade cadastrada ainda.',
          rows: page.itens,
          columns: [
            { label: 'Nome', cell: (u) => link(`/admin/unidades/${u.id}`, u.nome) },
            { label: 'Endereço', cell: (u) => `${u.endereco.logradouro}, ${u.endereco.numero} — ${u.endereco.cidade}/${u.endereco.uf}` },
            { label: 'Fuso horário', cell: (u) => u.fusoHorario },
            { label: 'Cancelamento', cell: (u) => `Grátis até ${u.politicaDeCancelamento.horasSemMulta} h antes; multa ${percentFromBP(u.politicaDeCancelamento.multaBP)}` },
            { label: 'Espaços', cell: (u) => link(`/admin/espacos?unidade=${u.id}`, 'Ver espaços', { 'aria-label': `Ver espaços de ${u.nome}` }) },
          ],
        }),
        pager({ pagina: page.pagina, total: page.total, noun: ['unidade', 'unidades'], onPage: (n) => { pagina = n; load(); } }));
    }, { signal });
  }
  load();
}
