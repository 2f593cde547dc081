// Accounts, 50 a page, filtered by part of the e-mail; promote to admin, deactivate.

import { api, Action } from '../../lib/api.js';
import { session } from '../../lib/session.js';
import { h, replace } from '../../lib/dom.js';
import { PAPEIS } from '../../lib/labels.js';
import { dateTime } from '../../lib/format.js';
import {
  pageHeader, loadInto, pager, table, field, val, badge, confirmDialog, flash, busy, errorBox, announce,
} from '../../lib/ui.js';

export function render({ container, query, setQuery, signal }) {
  let email = query.get('email') ?? '';
  let pagina = Math.max(1, Number(query.get('pagina')) || 1);
  const form = h('form', { class: 'filters', role: 'search', 'aria-label': 'Filtrar usuários' },
    field({ label: 'E-mail contém', name: 'email', type: 'search', value: email, attrs: { autocomplete: 'off' } }),
    h('div', { class: 'filters__actions' }, h('button', { type: 'submit', class: 'button' }, 'Filtrar')));
  const list = h('section', { 'aria-label': 'Lista de usuários' });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    email = val(form, 'email');
    pagina = 1;
    load();
  });
  replace(container, pageHeader('Usuários', 'Contas de membros e da equipe.'), form, list);

  function load() {
    setQuery({ email, pagina: pagina > 1 ? pagina : '' });
    loadInto(list, () => api('/api/admin/usuarios', { query: { email, pagina }, signal }), (page) => {
      announce(`${page.total} ${page.total === 1 ? 'conta encontrada' : 'contas encontradas'}`);
      list.append(
        table({
          caption: 'Contas',
          empty: 'Nenhuma conta com esse e-mail.',
          rows: page.itens,
          rowAttrs: (u) => ({ dataset: { usuario: u.id } }),
          columns: [
            { label: 'Nome', cell: (u) => u.nome },
            { label: 'E-mail', cell: (u) => u.email },
            { label: 'Perfil', cell: (u) => PAPEIS[u.papel] ?? u.papel },
            { label: 'Situação', cell: (u) => (u.ativo ? badge('Ativa', 'sucesso') : badge('Desativada', 'neutro')) },
            { label: 'Desde', cell: (u) => dateTime(u.registradoEm) },
            { label: 'Ações', cell: actions },
          ],
        }),
        pager({ pagina: page.pagina, total: page.total, noun: ['conta', 'contas'], onPage: (n) => { pagina = n; load(); } }));
    }, { signal, text: 'Carregando contas…' });
  }

  function actions(u) {
    if (u.id === session.usuario?.id) return h('span', { class: 'small' }, 'Você');
    const buttons = [];
    if (u.ativo && u.papel !== 'admin') {
      buttons.push(actionButton(u, 'Promover a admin', {
        title: `Promover ${u.nome} a administrador(a)?`,
        body: ['A pessoa passa a ver e mudar unidades, espaços, preços, reservas de todos e usuários.'],
        path: `/api/admin/usuarios/${u.id}/promocao`,
        done: `${u.nome} agora é administrador(a).`,
      }));
    }
    if (u.ativo) {
      buttons.push(actionButton(u, 'Desativar', {
        title: `Desativar a conta de ${u.nome}?`,
        body: ['A pessoa não consegue mais entrar. Os dados e as reservas continuam.'],
        path: `/api/admin/usuarios/${u.id}/desativacao`,
        done: `A conta de ${u.nome} foi desativada.`,
        danger: true,
      }));
    }
    return buttons.length ? h('div', { class: 'row-actions' }, buttons) : '—';
  }

  function actionButton(u, text, { title, body, path, done, danger = false }) {
    const button = h('button', { type: 'button', class: `button button--small ${danger ? 'button--danger' : 'button--secondary'}` }, text,
      h('span', { class: 'visually-hidden' }, ` — ${u.email}`));
    button.addEventListener('click', async () => {
      const ok = await confirmDialog({ title, body, confirmText: text, danger });
      if (!ok) return;
      const restore = busy(button, 'Aguarde…');
      try {
        await new Action().run(path, {});
        flash(done, 'sucesso');
        load();
      } catch (error) {
        restore();
        button.after(errorBox(error));
      }
    });
    return button;
  }

  load();
}
