// Start-up: the menu for who is signed in, the access rules of each screen, and the router.

import { ROUTES } from './routes.js';
import { startRouter, navigate } from './lib/router.js';
import { session } from './lib/session.js';
import { setUnauthorizedHandler } from './lib/api.js';
import { h, link, replace } from './lib/dom.js';
import { flash, pageHeader } from './lib/ui.js';
import { describeError } from './lib/errors.js';
import { unreadCount, unreadText, refreshUnread, onUnreadChange } from './lib/unread.js';

function menuLink(route) {
  const current = location.pathname === route.path || (route.path !== '/' && location.pathname.startsWith(`${route.path}/`));
  const attrs = current ? { 'aria-current': 'page' } : {};
  if (route.unread) attrs['aria-describedby'] = 'menu-nao-lidas';
  return h('li', {}, link(route.path, route.label, attrs), route.unread ? unreadBadge() : null);
}

// "Notificações 3" (beside the link, so the link keeps its name; read out as "3 não lidas");
// hidden when everything was read, "99+" from 100.
function unreadBadge() {
  const n = unreadCount();
  const text = unreadText(n);
  return h('span', { class: 'nav-badge', id: 'menu-nao-lidas', hidden: !text, dataset: { naoLidas: String(n) } },
    text, h('span', { class: 'visually-hidden' }, n === 1 ? ' não lida' : ' não lidas'));
}

function updateUnreadBadge() {
  document.getElementById('menu-nao-lidas')?.replaceWith(unreadBadge());
}

function renderNav() {
  const nav = document.getElementById('menu');
  const byGroup = (group) => ROUTES.filter((r) => r.nav === group && !(r.semAdmin && session.isAdmin));
  const groups = [];
  groups.push(h('ul', { class: 'site-nav__group' }, byGroup('membro').map(menuLink)));
  if (session.isAdmin) {
    groups.push(h('div', { class: 'site-nav__section' },
      h('p', { class: 'site-nav__title', id: 'menu-operacao' }, 'Operação'),
      h('ul', { class: 'site-nav__group', 'aria-labelledby': 'menu-operacao' }, byGroup('admin').map(menuLink))));
  }
  if (session.signedIn) {
    const nome = session.usuario?.nome ?? '';
    groups.push(h('ul', { class: 'site-nav__group site-nav__group--conta' },
      byGroup('conta').map(menuLink),
      h('li', {}, h('button', { type: 'button', class: 'link-button', onclick: signOut },
        'Sair', h('span', { class: 'visually-hidden' }, ` (${nome})`)))));
    groups.push(h('p', { class: 'site-nav__user' }, `Olá, ${nome.split(' ')[0] || 'membro'}`));
  } else {
    groups.push(h('ul', { class: 'site-nav__group site-nav__group--conta' }, byGroup('visitante').map(menuLink)));
  }
  replace(nav, groups);
  if (session.signedIn) refreshUnread();
  document.querySelector('.site-header')?.classList.toggle('site-header--admin', session.isAdmin);
}

function signOut() {
  session.clear();
  flash('Você saiu da sua conta.', 'info', { next: true });
  navigate('/');
}

function setUpMenuToggle() {
  const toggle = document.getElementById('menu-toggle');
  const menu = document.getElementById('menu');
  const close = () => {
    toggle.setAttribute('aria-expanded', 'false');
    menu.classList.remove('site-nav--open');
  };
  toggle.addEventListener('click', () => {
    const open = toggle.getAttribute('aria-expanded') !== 'true';
    toggle.setAttribute('aria-expanded', String(open));
    menu.classList.toggle('site-nav--open', open);
  });
  menu.addEventListener('click', (event) => {
    if (event.target.closest('a, button')) close();
  });
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && toggle.getAttribute('aria-expanded') === 'true') {
      close();
      toggle.focus();
    }
  });
}

function forbidden() {
  return ({ container }) => {
    replace(container,
      pageHeader('Área da equipe', 'Esta página é só para administradores da operação.'),
      h('p', {}, 'Se você trabalha na operação, peça a um administrador para promover sua conta.'),
      h('p', {}, link('/espacos', 'Voltar para os espaços')));
  };
}

function guard(route, loc) {
  const back = encodeURIComponent(loc.pathname + loc.search);
  switch (route.access) {
    case 'membro':
      return session.signedIn ? null : `/entrar?volta=${back}`;
    case 'admin':
      if (!session.signedIn) return `/entrar?volta=${back}`;
      return session.isAdmin ? null : forbidden();
    case 'visitante':
      return session.signedIn ? (session.isAdmin ? '/admin/reservas' : '/espacos') : null;
    default:
      return null;
  }
}

function notFoundView({ container }) {
  replace(container,
    pageHeader('Página não encontrada', 'O endereço pode ter mudado ou não existir mais.'),
    h('p', {}, link('/espacos', 'Ir para os espaços')));
}

setUnauthorizedHandler((error) => {
  session.clear();
  flash(describeError(error), 'erro', { next: true });
  navigate(`/entrar?volta=${encodeURIComponent(location.pathname + location.search)}`, { replace: true });
});

// The skip link moves focus to the content itself (the router keeps #fragments out of history).
document.querySelector('.skip-link')?.addEventListener('click', (event) => {
  event.preventDefault();
  document.getElementById('conteudo').focus();
});

session.onChange(() => { refreshUnread({ force: true }); renderNav(); });
onUnreadChange(updateUnreadBadge);
setUpMenuToggle();
startRouter({ table: ROUTES, guardFn: guard, notFoundView, onRender: renderNav });
// A token that expires while the page is open is handled on the next request (401 → login).
