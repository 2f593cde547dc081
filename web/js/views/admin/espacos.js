// The spaces of a unit (active from the catalog, 50 a page; deactivated ones found through the
// audit trail), with links to each space's pages.

import { api } from '../../lib/api.js';
import { h, link, replace } from '../../lib/dom.js';
import { TIPOS } from '../../lib/labels.js';
import { money } from '../../lib/format.js';
import { pageHeader, loadInto, pager, table, errorBox, badge } from '../../lib/ui.js';
import { unidadeSelect, espacosInativos } from './comum.js';

export async function render({ container, query, setQuery, signal }) {
  replace(container, pageHeader('Espaços', 'Salas, estações e auditórios de cada unidade: dados, horário, bloqueios e preços.'));
  const controls = h('div', { class: 'filters' });
  const novo = h('p');
  const list = h('section', { 'aria-label': 'Espaços ativos' });
  const inativos = h('section', { class: 'panel', 'aria-labelledby': 'inativos' });
  container.append(controls, novo, list, inativos);

  let select;
  let unidadeField;
  let unidades;
  try {
    ({ field: unidadeField, select, unidades } = await unidadeSelect({ value: query.get('unidade') ?? '', signal }));
  } catch (error) {
    if (error?.name !== 'AbortError') replace(controls, errorBox(error));
    return;
  }
  if (!unidades.length) {
    replace(controls, h('p', { class: 'empty' }, 'Cadastre uma unidade antes dos espaços. ', link('/admin/unidades/nova', 'Nova unidade')));
    return;
  }
  controls.append(unidadeField);
  let pagina = Math.max(1, Number(query.get('pagina')) || 1);
  select.addEventListener('change', () => { pagina = 1; load(); });

  function load() {
    const unidade = select.value;
    setQuery({ unidade, pagina: pagina > 1 ? pagina : '' });
    replace(novo, link(`/admin/espacos/novo?unidade=${unidade}`, 'Novo espaço', { class: 'button' }));
    loadInto(list, () => api('/api/espacos', { query: { unidade, pagina }, signal }), (page) => {
      list.append(
        table({
          caption: 'Espaços ativos',
          empty: 'Nenhum espaço ativo nesta unidade.',
          rows: page.itens,
          columns: [
            { label: 'Nome', cell: (i) => link(`/admin/espacos/${i.espaco.id}`, i.espaco.nome) },
            { label: 'Tipo', cell: (i) => TIPOS[i.espaco.tipo] ?? i.espaco.tipo },
            { label: 'Capacidade', cell: (i) => String(i.espaco.capacidade), class: 'num' },
            { label: 'Por hora', cell: (i) => (i.precos ? money(i.precos.porHora) : badge('Sem preço', 'aviso')), class: 'num' },
            {
              label: 'Gerenciar',
              cell: (i) => h('div', { class: 'row-actions' },
                link(`/admin/espacos/${i.espaco.id}/horario`, 'Horário', { 'aria-label': `Horário de ${i.espaco.nome}` }),
                link(`/admin/espacos/${i.espaco.id}/bloqueios`, 'Bloqueios', { 'aria-label': `Bloqueios de ${i.espaco.nome}` }),
                link(`/admin/espacos/${i.espaco.id}/precos`, 'Preços', { 'aria-label': `Preços de ${i.espaco.nome}` })),
            },
          ],
        }),
        pager({ pagina: page.pagina, total: page.total, noun: ['espaço', 'espaços'], onPage: (n) => { pagina = n; load(); } }));
    }, { signal });

    replace(inativos, h('h2', { id: 'inativos' }, 'Espaços desativados'));
    const body = h('div');
    inativos.append(body);
    loadInto(body, () => espacosInativos(unidade, { signal }), (items) => {
      body.append(items.length
        ? h('ul', { class: 'plain-list' }, items.map((i) => h('li', {}, link(`/admin/espacos/${i.espaco.id}`, i.espaco.nome), ' — ', TIPOS[i.espaco.tipo] ?? i.espaco.tipo)))
        : h('p', { class: 'empty' }, 'Nenhum espaço desativado nesta unidade.'));
    }, { signal, text: 'Procurando espaços desativados…' });
  }
  load();
}
