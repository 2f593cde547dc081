// Accounts, 50 a page, filtered by part of the e-mail; promote to admin, deactivate, put a
// member on a plan (whose price rules then apply to their quotes and bookings). A name opens
// the account (usuario.js: its credits and their adjustments).

import { api, Action, allPages } from '../../lib/api.js';
import { session } from '../../lib/session.js';
import { h, link, replace } from '../../lib/dom.js';
import { PAPEIS } from '../../lib/labels.js';
import { dateTime } from '../../lib/format.js';
import {
  pageHeader, loadInto, pager, table, field, val, badge, confirmDialog, flash, busy, errorBox, announce,
} from '../../lib/ui.js';

/** The longest plan name the API takes. */
const PLANO_MAXIMO = 100;

/**
 * The plans the price rules name (rules of type "plano" in every space's table), sorted; read
 * once per screen, when a plan is first changed.
 */
async function planosDasRegras(signal) {
  const itens = await allPages('/api/espacos', { signal });
  const tabelas = await Promise.all(itens.filter((i) => i.precos)
    .map((i) => api(`/api/espacos/${i.espaco.id}/precos`, { signal }).catch(() => null)));
  const nomes = new Set(tabelas.flatMap((t) => (t?.regras ?? []).filter((r) => r.tipo === 'plano').map((r) => r.plano)));
  return [...nomes].sort((a, b) => a.localeCompare(b, 'pt-BR'));
}

export function render({ container, query, setQuery, signal }) {
  let email = query.get('email') ?? '';
  let pagina = Math.max(1, Number(query.get('pagina')) || 1);
  const form = h('form', { class: 'filters', role: 'search', 'aria-label': 'Filtrar usuários' },
    field({ label: 'E-mail contém', name: 'email', type: 'search', value: email, attrs: { autocomplete: 'off' } }),
    h('div', { class: 'filters__actions' }, h('button', { type: 'submit', class: 'button' }, 'Filtrar')));
  const list = h('section', { 'aria-label': 'Lista de usuários' });
  let planos = null;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    email = val(form, 'email');
    pagina = 1;
    load();
  });
  replace(container, pageHeader('Usuários', 'Contas de membros e da equipe. Abra uma conta pelo nome para ver e ajustar seus créditos.'), form, list);

  function load() {
    setQuery({ email, pagina: pagina > 1 ? pagina : '' });
    loadInto(list, () => api('/api/admin/usuarios', { query: { email, pagina }, signal }), (page) => {
      announce(`${page.total} ${page.total === 1 ? 'conta encontrada' : 'contas encontradas'}`);
      list.append(
        table({
          caption: 'Contas',
          className: 'table--palavras',
          empty: 'Nenhuma conta com esse e-mail.',
          rows: page.itens,
          rowAttrs: (u) => ({ dataset: { usuario: u.id } }),
          columns: [
            { label: 'Nome', cell: (u) => link(`/admin/usuarios/${u.id}`, u.nome, { class: 'conta-link' }) },
            { label: 'E-mail', cell: (u) => u.email },
            { label: 'Perfil', cell: (u) => PAPEIS[u.papel] ?? u.papel },
            { label: 'Situação', cell: (u) => (u.ativo ? badge('Ativa', 'sucesso') : badge('Desativada', 'neutro')) },
            { label: 'Plano', cell: planoCell },
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

  function planoCell(u) {
    const atual = u.plano ? h('span', {}, u.plano) : h('span', { class: 'small' }, 'Nenhum');
    if (!u.ativo) return atual;
    const button = h('button', { type: 'button', class: 'button button--small button--secondary' }, 'Alterar plano',
      h('span', { class: 'visually-hidden' }, ` — ${u.email}`));
    button.addEventListener('click', () => changePlan(u, button));
    return h('div', { class: 'row-actions' }, atual, button);
  }

  /** A dialog to choose a plan the price rules name, type another, or take the member off any. */
  async function changePlan(u, button) {
    button.parentElement.querySelector('.alert')?.remove();
    const restoreLoading = busy(button, 'Carregando planos…');
    try {
      planos ??= await planosDasRegras(signal);
    } catch (error) {
      if (error?.name === 'AbortError') return;
      planos = [];
    } finally {
      restoreLoading();
    }
    const OUTRO = '\u0000outro';
    const NENHUM = '';
    const opcoes = [...new Set([...planos, ...(u.plano ? [u.plano] : [])])].sort((a, b) => a.localeCompare(b, 'pt-BR'));
    const escolha = field({
      label: 'Plano', name: 'plano', type: 'select', value: u.plano ?? NENHUM,
      hint: opcoes.length ? 'Os planos que as regras de preço dos espaços citam.' : 'Nenhuma regra de preço cita um plano ainda.',
      options: [[NENHUM, 'Nenhum (sem plano)'], ...opcoes.map((p) => [p, p]), [OUTRO, 'Outro plano…']],
    });
    const outro = field({ label: 'Nome do plano', name: 'outroPlano', hint: `Até ${PLANO_MAXIMO} caracteres.`, attrs: { maxlength: String(PLANO_MAXIMO), autocomplete: 'off' } });
    const select = escolha.querySelector('select');
    const sync = () => { outro.hidden = select.value !== OUTRO; };
    select.addEventListener('change', sync);
    sync();
    const ok = await confirmDialog({
      title: `Plano de ${u.nome}`,
      body: ['As regras de preço do plano passam a valer nas cotações e reservas novas desta pessoa; as já feitas não mudam.'],
      extra: h('div', {}, escolha, outro),
      confirmText: 'Salvar plano',
    });
    if (!ok) return;
    const plano = select.value === OUTRO ? outro.querySelector('input').value.trim() : (select.value || null);
    if (select.value === OUTRO && !plano) {
      button.after(h('div', { class: 'alert alert--erro', role: 'alert' }, h('p', {}, 'Informe o nome do plano, ou escolha "Nenhum (sem plano)".')));
      return;
    }
    if ((plano ?? null) === (u.plano ?? null)) return;
    const restore = busy(button, 'Salvando…');
    try {
      const perfil = await new Action().run(`/api/admin/usuarios/${u.id}/plano`, { method: 'PUT', body: { plano } });
      flash(perfil.plano ? `${u.nome} agora está no plano "${perfil.plano}".` : `${u.nome} não está mais em nenhum plano.`, 'sucesso');
      load();
    } catch (error) {
      if (error?.name === 'AbortError') return;
      restore();
      button.after(errorBox(error));
    }
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
