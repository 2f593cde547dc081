// Shared pieces of every screen: status messages, loading states, form fields with their
// errors, paging, tables that become cards on a phone, and a confirmation dialog.

import { h, replace, uid } from './dom.js';
import { describeError, retryHelps } from './errors.js';
import { PAGE_SIZE } from './api.js';

// ---- status messages -------------------------------------------------------------------------

let pendingFlash = null;

/**
 * A visible status message at the top of the page, read by screen readers (role=status).
 * With `{next: true}` it waits for the next screen (e.g. "Conta criada" shown on the login page).
 */
export function flash(message, kind = 'sucesso', { next = false } = {}) {
  if (next) {
    pendingFlash = { message, kind };
    return;
  }
  const box = document.getElementById('flash');
  if (!box) return;
  replace(box, message ? h('p', { class: `flash__msg flash__msg--${kind}` }, message) : null);
}

/** Called by the router on each new screen: shows a pending message, else clears the old one. */
export function flushFlash() {
  const next = pendingFlash;
  pendingFlash = null;
  flash(next?.message ?? '', next?.kind ?? 'sucesso');
}

/** Says something to screen-reader users without showing it. */
export function announce(text) {
  const region = document.getElementById('anuncio');
  if (!region) return;
  region.textContent = '';
  // A new text node in a later frame makes screen readers read it even when it repeats.
  requestAnimationFrame(() => { region.textContent = text; });
}

/** An error (ApiError or other) as an alert box; `retry` is offered only where retrying can help (retryHelps). */
export function errorBox(error, { retry } = {}) {
  return h('div', { class: 'alert alert--erro', role: 'alert' },
    h('p', {}, describeError(error)),
    retry && retryHelps(error) ? h('button', { type: 'button', class: 'button button--secondary', onclick: retry }, 'Tentar de novo') : null);
}

/** A loading placeholder; the container is marked aria-busy until replaced. */
export function showLoading(container, text = 'Carregando…') {
  container.setAttribute('aria-busy', 'true');
  replace(container, h('p', { class: 'loading' }, text));
}

export function doneLoading(container) {
  container.removeAttribute('aria-busy');
}

/** Runs `load()` showing a loading state in `container`, then `render(result)`; errors are shown, with a retry when it can help. */
/**
 * The controller of one load in a list that can be reloaded: aborted with the page's `signal` or
 * by the next load (`anterior` is aborted here), so a late answer is never drawn over a newer one.
 */
export function cargaNova(anterior, signal) {
  anterior?.abort();
  const carga = new AbortController();
  if (signal.aborted) carga.abort();
  else signal.addEventListener('abort', () => carga.abort(), { once: true });
  return carga;
}

export async function loadInto(container, load, render, { signal, text } = {}) {
  showLoading(container, text);
  try {
    const result = await load();
    if (signal?.aborted) return;
    doneLoading(container);
    replace(container);
    render(result);
  } catch (error) {
    if (error?.name === 'AbortError' || signal?.aborted) return;
    doneLoading(container);
    replace(container, errorBox(error, { retry: () => loadInto(container, load, render, { signal, text }) }));
  }
}

/**
 * Calls `tick()` now and then again after `interval` ms (growing by half each time, up to `max`)
 * until it resolves true or `signal` aborts. For states another system moves on (a charge being
 * paid, a webhook arriving). Returns a function that stops it.
 */
export function poll(tick, { signal, interval = 1000, max = 5000 } = {}) {
  let timer = null;
  let stopped = false;
  let wait = interval;
  const stop = () => { stopped = true; clearTimeout(timer); };
  signal?.addEventListener('abort', stop);
  const run = async () => {
    if (stopped || signal?.aborted) return;
    let done = false;
    try {
      done = await tick();
    } catch (error) {
      if (error?.name === 'AbortError') return;
      throw error;
    }
    if (done || stopped || signal?.aborted) return;
    timer = setTimeout(run, wait);
    wait = Math.min(max, Math.round(wait * 1.5));
  };
  run();
  return stop;
}

// ---- forms ---------------------------------------------------------------------------------------

/**
 * A labelled field. `type`: any input type, 'select' (with `options` [[value, label]]),
 * 'textarea'. `hint` is tied to the control with aria-describedby, and so is its error slot.
 */
export function field({ label, name, type = 'text', value, required, hint, options = [], attrs = {}, optional }) {
  const id = uid(`campo-${String(name).replace(/[^a-z0-9]/gi, '-')}`);
  const hintId = hint ? `${id}-dica` : null;
  const errorId = `${id}-erro`;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ');
  let control;
  if (type === 'select') {
    control = h('select', { id, name, required, 'aria-describedby': describedBy, ...attrs },
      options.map(([v, text]) => h('option', { value: v, selected: String(v) === String(value ?? '') }, text)));
  } else if (type === 'textarea') {
    control = h('textarea', { id, name, required, 'aria-describedby': describedBy, rows: 3, ...attrs }, value ?? '');
  } else {
    control = h('input', { id, name, type, required, 'aria-describedby': describedBy, value: value ?? null, ...attrs });
  }
  return h('div', { class: 'field', dataset: { field: name } },
    h('label', { for: id }, label, optional ? h('span', { class: 'field__optional' }, ' (opcional)') : null),
    hint ? h('p', { class: 'field__hint', id: hintId }, hint) : null,
    control,
    h('p', { class: 'field__error', id: errorId }));
}

/** A group of checkboxes in a fieldset. */
export function checkboxes({ legend, name, options, checked = [] }) {
  return h('fieldset', { class: 'field checkbox-group', dataset: { field: name } },
    h('legend', {}, legend),
    h('div', { class: 'checkbox-group__items' },
      options.map(([value, text]) => {
        const id = uid(`cb-${name}`);
        return h('div', { class: 'checkbox' },
          h('input', { type: 'checkbox', id, name, value, checked: checked.includes(value) }),
          h('label', { for: id }, text));
      })),
    h('p', { class: 'field__error' }));
}

/** A group of radio buttons in a fieldset; `options` [[value, label, hint?]]. */
export function radios({ legend, name, options, checked }) {
  return h('fieldset', { class: 'field checkbox-group', dataset: { field: name } },
    h('legend', {}, legend),
    h('div', { class: 'checkbox-group__items' },
      options.map(([value, text]) => {
        const id = uid(`rb-${name}`);
        return h('div', { class: 'checkbox' },
          h('input', { type: 'radio', id, name, value, checked: value === checked }),
          h('label', { for: id }, text));
      })),
    h('p', { class: 'field__error' }));
}

/** Clears the errors a form shows. */
export function clearErrors(form) {
  form.querySelectorAll('[aria-invalid]').forEach((el) => el.removeAttribute('aria-invalid'));
  form.querySelectorAll('.field__error').forEach((el) => { el.textContent = ''; });
  form.querySelectorAll('.form-errors').forEach((el) => el.remove());
}

/**
 * Shows an API error on a form: next to the field it names (`detalhes.campo`, also matched by
 * its last part or first part: "endereco.cep", "valores") and in a summary at the top, which
 * gets focus so keyboard and screen-reader users hear it.
 */
export function showFormError(form, error) {
  clearErrors(form);
  const message = describeError(error);
  const campo = error?.campo;
  let fieldEl = null;
  if (campo) {
    const candidates = [campo, campo.split('.').pop(), campo.split('.')[0]];
    for (const name of candidates) {
      fieldEl = form.querySelector(`[data-field="${CSS.escape(name)}"]`);
      if (fieldEl) break;
    }
  }
  if (fieldEl) {
    const control = fieldEl.querySelector('input, select, textarea');
    control?.setAttribute('aria-invalid', 'true');
    const slot = fieldEl.querySelector('.field__error');
    if (slot) slot.textContent = message;
  }
  const summary = h('div', { class: 'form-errors alert alert--erro', role: 'alert', tabindex: '-1' }, h('p', {}, message));
  form.prepend(summary);
  summary.focus();
}

/** Marks one field invalid with a message (client-side checks), focusing it. */
export function fieldError(form, name, message) {
  clearErrors(form);
  const fieldEl = form.querySelector(`[data-field="${CSS.escape(name)}"]`);
  const control = fieldEl?.querySelector('input, select, textarea');
  control?.setAttribute('aria-invalid', 'true');
  const slot = fieldEl?.querySelector('.field__error');
  if (slot) slot.textContent = message;
  control?.focus();
}

/** Disables a submit button while its request runs; returns the function that restores it. */
export function busy(button, text) {
  // Its nodes, not its text: a visually hidden part of the label stays hidden once restored.
  const original = [...button.childNodes];
  button.disabled = true;
  button.setAttribute('aria-disabled', 'true');
  if (text) button.textContent = text;
  return () => {
    button.disabled = false;
    button.removeAttribute('aria-disabled');
    if (text) button.replaceChildren(...original);
  };
}

/**
 * Wires a form: on submit, clears errors, disables the submit button, awaits `handler(values,
 * form)`, shows an API error on the form. Returns the form.
 */
export function onSubmit(form, handler, { busyText = 'Enviando…' } = {}) {
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const button = form.querySelector('button[type=submit]');
    if (button?.disabled) return;
    clearErrors(form);
    const restore = button ? busy(button, busyText) : () => {};
    try {
      await handler(form, event);
    } catch (error) {
      if (error?.name === 'AbortError') return;
      showFormError(form, error);
    } finally {
      if (form.isConnected) restore();
    }
  });
  return form;
}

/** The value of the control named `name` in `form`, trimmed. */
export function val(form, name) {
  const el = form.elements.namedItem(name);
  return el ? String(el.value ?? '').trim() : '';
}

// ---- lists -------------------------------------------------------------------------------------

/** "Página 2 de 5 · 230 itens" with Anterior/Próxima; `onPage(n)` is called with the new page. */
export function pager({ pagina, total, onPage, label = 'Paginação', noun = ['item', 'itens'] }) {
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  if (total <= PAGE_SIZE && pagina <= 1) {
    return h('p', { class: 'pager__count' }, `${total} ${total === 1 ? noun[0] : noun[1]}`);
  }
  return h('nav', { class: 'pager', 'aria-label': label },
    h('button', { type: 'button', class: 'button button--secondary', disabled: pagina <= 1, onclick: () => onPage(pagina - 1) }, '← Anterior'),
    h('p', { class: 'pager__count', 'aria-live': 'polite' }, `Página ${pagina} de ${pages} · ${total} ${total === 1 ? noun[0] : noun[1]}`),
    h('button', { type: 'button', class: 'button button--secondary', disabled: pagina >= pages, onclick: () => onPage(pagina + 1) }, 'Próxima →'));
}

/**
 * A table whose rows become labelled cards on a phone (CSS reads data-label).
 * columns: [{label, cell: (row) => node|string, class?}]
 */
export function table({ caption, columns, rows, empty = 'Nada por aqui.', rowAttrs = () => ({}), className = '' }) {
  if (!rows.length) return empty instanceof Node ? empty : h('p', { class: 'empty' }, empty);
  return h('div', { class: 'table-wrap' },
    h('table', { class: `table ${className}`.trim() },
      caption ? h('caption', {}, caption) : null,
      h('thead', {}, h('tr', {}, columns.map((c) => h('th', { scope: 'col' }, c.label)))),
      h('tbody', {}, rows.map((row) => h('tr', rowAttrs(row),
        columns.map((c) => h('td', { 'data-label': c.label, class: c.class }, h('div', { class: 'cell' }, c.cell(row)))))))));
}

/** A definition list from [[term, value], ...]. */
export function facts(pairs) {
  return h('dl', { class: 'facts' }, pairs.filter(Boolean).map(([term, value]) => [h('dt', {}, term), h('dd', {}, value)]));
}

export function badge(text, kind = 'neutro') {
  return h('span', { class: `badge badge--${kind}` }, text);
}

// ---- dialogs -------------------------------------------------------------------------------------

/**
 * A modal confirmation (native <dialog>: focus stays inside, Esc cancels, focus returns to the
 * button that opened it). `requireText`: the person must type it to enable the confirm button.
 * Resolves true when confirmed.
 */
export function confirmDialog({ title, body = [], confirmText = 'Confirmar', cancelText = 'Voltar', danger = false, requireText, extra }) {
  return new Promise((resolve) => {
    const opener = document.activeElement;
    const titleId = uid('dialogo-titulo');
    const confirm = h('button', { type: 'submit', class: `button ${danger ? 'button--danger' : ''}`, value: 'sim' }, confirmText);
    let typed = null;
    if (requireText) {
      confirm.disabled = true;
      typed = field({ label: `Digite ${requireText} para confirmar`, name: 'confirmacao', attrs: { autocomplete: 'off' } });
      typed.querySelector('input').addEventListener('input', (event) => {
        confirm.disabled = event.target.value.trim() !== requireText;
      });
    }
    const cancel = h('button', { type: 'submit', class: 'button button--secondary', value: 'nao', formnovalidate: true }, cancelText);
    const form = h('form', { method: 'dialog', class: 'dialog__form' },
      h('h2', { id: titleId }, title),
      [body].flat().map((p) => (p instanceof Node ? p : h('p', {}, p))),
      extra ?? null,
      typed,
      h('div', { class: 'actions' }, cancel, confirm));
    const dialog = h('dialog', { class: 'dialog', 'aria-labelledby': titleId }, form);
    document.body.append(dialog);
    dialog.addEventListener('close', () => {
      const ok = dialog.returnValue === 'sim';
      dialog.remove();
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
      resolve(ok);
    });
    dialog.showModal();
    // Focus starts on the first field, else on the safe choice when the action is destructive.
    (extra?.querySelector?.('input, select, textarea') ?? typed?.querySelector('input') ?? (danger ? cancel : confirm)).focus();
  });
}

/** Saves `data` as a JSON file the browser downloads. */
export function downloadJSON(filename, data) {
  downloadBlob(filename, new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
}

/** Saves a Blob (a CSV the API answered, a JSON) as a file the browser downloads. */
export function downloadBlob(filename, blob) {
  const url = URL.createObjectURL(blob);
  const a = h('a', { href: url, download: filename, class: 'visually-hidden' }, filename);
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

/** Page header: the h1 the router focuses, with an optional lead paragraph. */
export function pageHeader(title, lead) {
  return h('header', { class: 'page-header' },
    h('h1', { tabindex: '-1' }, title),
    lead ? h('p', { class: 'lead' }, lead) : null);
}
