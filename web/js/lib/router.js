// History-API routing: the gateway answers every path without a file extension with
// index.html, so /espacos/123 works on reload. Each route loads its view module on demand
// (ES modules, no bundler) and the view renders into #view.

import { replace } from './dom.js';
import { flushFlash, announce, errorBox } from './ui.js';

let routes = [];
let guard = () => null;
let currentAbort = null;
let currentCleanup = null;
let notFound = null;
let afterRender = () => {};

function compile(path) {
  const names = [];
  const pattern = path.replace(/:([a-zA-Z]+)/g, (_, name) => {
    names.push(name);
    return '([^/]+)';
  });
  return { regex: new RegExp(`^${pattern}/?$`), names };
}

/**
 * routes: [{path: '/espacos/:id', view: () => import('...'), title, access: 'publico'|'membro'|'admin'}]
 * guardFn(route, location) → null to render, or a path to redirect to, or a render function.
 */
export function startRouter({ table, guardFn, notFoundView, onRender }) {
  routes = table.map((r) => ({ ...r, ...compile(r.path) }));
  guard = guardFn;
  notFound = notFoundView;
  afterRender = onRender ?? afterRender;

  document.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const a = event.target.closest('a[data-link]');
    if (!a || a.target === '_blank' || a.hasAttribute('download')) return;
    const url = new URL(a.href, location.href);
    if (url.origin !== location.origin) return;
    event.preventDefault();
    navigate(url.pathname + url.search + url.hash);
  });
  // Back/forward re-renders; a change of the #fragment alone (the skip link) does not.
  window.addEventListener('popstate', () => {
    if (location.pathname + location.search !== rendered) render({ focus: true });
  });
  render({ focus: false });
}

/** Goes to `path` (pushes history unless `replace`). */
export function navigate(path, { replace: replaceState = false } = {}) {
  const target = new URL(path, location.href);
  if (target.pathname + target.search === location.pathname + location.search && !replaceState) {
    render({ focus: true });
    return;
  }
  if (replaceState) history.replaceState(null, '', target.pathname + target.search + target.hash);
  else history.pushState(null, '', target.pathname + target.search + target.hash);
  render({ focus: true });
}

/** Changes the query string of the current screen without re-rendering it (filters, page, date). */
export function setQuery(params) {
  const url = new URL(location.href);
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') url.searchParams.delete(key);
    else url.searchParams.set(key, String(value));
  }
  history.replaceState(null, '', url.pathname + url.search);
  rendered = url.pathname + url.search;
}

function match(pathname) {
  for (const route of routes) {
    const m = route.regex.exec(pathname);
    if (m) {
      const params = {};
      route.names.forEach((name, i) => { params[name] = decodeURIComponent(m[i + 1]); });
      return { route, params };
    }
  }
  return null;
}

let rendered = null;

async function render({ focus }) {
  rendered = location.pathname + location.search;
  currentAbort?.abort();
  if (typeof currentCleanup === 'function') currentCleanup();
  currentCleanup = null;
  const abort = new AbortController();
  currentAbort = abort;

  const container = document.getElementById('view');
  const found = match(location.pathname);
  const query = new URLSearchParams(location.search);
  flushFlash();

  let view;
  let title;
  let params = {};
  if (!found) {
    view = notFound;
    title = 'Página não encontrada';
  } else {
    params = found.params;
    title = found.route.title;
    const decision = guard(found.route, location);
    if (typeof decision === 'string') {
      navigate(decision, { replace: true });
      return;
    }
    if (typeof decision === 'function') {
      view = decision;
    } else {
      try {
        const module = await found.route.view();
        view = module.render;
      } catch (error) {
        if (abort.signal.aborted) return;
        replace(container, errorBox(error));
        return;
      }
    }
  }
  if (abort.signal.aborted) return;

  container.setAttribute('aria-busy', 'true');
  replace(container);
  document.title = `${title} · CoworkFlow`;
  const ctx = { params, query, container, signal: abort.signal, route: found?.route, navigate, setQuery };
  try {
    currentCleanup = await view(ctx);
  } catch (error) {
    if (error?.name !== 'AbortError' && !abort.signal.aborted) replace(container, errorBox(error));
  }
  if (abort.signal.aborted) return;
  container.removeAttribute('aria-busy');
  afterRender(found?.route ?? null);
  if (focus) {
    const heading = container.querySelector('h1');
    if (heading) {
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.focus({ preventScroll: false });
    }
    window.scrollTo(0, 0);
    announce(title);
  }
}

/** Re-renders the current screen (after the session changes). */
export function refresh() {
  render({ focus: false });
}
