// Units, 50 a page, with links to edit each and to its spaces.

import { api } from '../../lib/api.js';
import { h, link, replace } from '../../lib/dom.js';
import { percentFromBP } from '../../lib/format.js';
import { pageHeader, loadInto, pager, table } from '../../lib/ui.js';

export function render({ container, query, setQuery, signal }) {
  let pagina = Math.max(1, Number(query.get('pagina')) || 1);
  const list = h('section', { 'aria-label': 'Lista de unidades' });
  replace(container,
    pageHeader('Unidades', 'Os endereços da operação, cada um com seu fuso horário e sua política de cancelamento.'),
    h('p', {}, link('/admin/unidades/nova', 'Nova unidade', { class: 'button' })),
    list);

  function load() {
    setQuery({ pagina: pagina > 1 ? pagina : '' });
    loadInto(list, () => api('/api/unidades', { query: { pagina }, signal }), (page) => {
      list.append(
        table({
          caption: 'Unidades cadastradas',
          empty: 'Nenhuma unidade cadastrada ainda.',
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
