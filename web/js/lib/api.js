// The one way the app talks to the API: same origin, relative URLs, JSON in and out, the
// bearer token from the session, an Idempotency-Key on every user action that changes state.

import { session } from './session.js';

export class ApiError extends Error {
  constructor(status, body = {}, retryAfter = null) {
    super(body.mensagem || `HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.code = body.erro || (status === 0 ? 'rede' : 'erro_interno');
    this.detalhes = body.detalhes || {};
    this.campo = this.detalhes.campo || null;
    this.requestId = body.requestId || null;
    this.retryAfter = retryAfter;
  }
}

/** A random id; crypto.randomUUID needs a secure context, getRandomValues does not. */
export function newKey() {
  if (globalThis.crypto?.randomUUID) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

// Read-your-writes across gateway replicas (ADR 0005): a member's write answers with the
// positions its events took (Coworkflow-Consistencia); the next reads send them back, so that
// whichever replica answers waits, if its read models are behind, until they show the write.
const CONSISTENCY = 'Coworkflow-Consistencia';
let written = new Map(); // stored event type → [transaction, sequence]

function remember(value) {
  if (!value) return;
  for (const entry of value.split(',')) {
    const [type, position] = entry.split('=');
    const [transaction, sequence] = (position || '').split('/').map(Number);
    if (!type || !Number.isSafeInteger(transaction) || !Number.isSafeInteger(sequence)) continue;
    const known = written.get(type);
    if (!known || transaction > known[0] || (transaction === known[0] && sequence > known[1])) {
      written.set(type, [transaction, sequence]);
    }
  }
}

function pendingToken() {
  if (written.size === 0) return null;
  const sent = new Map(written);
  const value = Array.from(sent, ([type, [t, s]]) => `${type}=${t}/${s}`).join(',');
  return { value, sent };
}

/** Once a read answered after the writes it named: they need not be named again. */
function settled(sent) {
  for (const [type, position] of sent) {
    if (written.get(type) === position) written.delete(type);
  }
}

// A new session (or none) forgets the last one's writes: another member may sign in next.
session.onChange(() => { written = new Map(); });

let onUnauthorized = () => {};
/** Called when a signed-in request gets 401 (expired or revoked token). */
export function setUnauthorizedHandler(fn) { onUnauthorized = fn; }

function buildUrl(path, query) {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value));
  }
  // URLSearchParams writes a space as '+', which a URL's query does not mean (RFC 3986): send %20.
  const text = params.toString().replace(/\+/g, '%20');
  return text ? `${path}?${text}` : path;
}

/**
 * api('/api/reservas', {method: 'POST', body: {...}, key, signal, query})
 * `idempotent: false` sends no Idempotency-Key (a POST that changes nothing, like a quote).
 * Resolves with the parsed JSON (null for 204); rejects with ApiError. An aborted request
 * rejects with the DOMException 'AbortError' (callers ignore it: the view went away).
 */
export async function api(path, { method = 'GET', body, query, key, signal, idempotent = true } = {}) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const token = session.token;
  if (token) headers.Authorization = `Bearer ${token}`;
  if (method !== 'GET' && method !== 'HEAD' && idempotent) headers['Idempotency-Key'] = key || newKey();
  const reads = method === 'GET' || method === 'HEAD' || !idempotent;
  const pending = reads ? pendingToken() : null;
  if (pending) headers[CONSISTENCY] = pending.value;

  let response;
  try {
    response = await fetch(buildUrl(path, query), {
      method, headers, signal, credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    if (error?.name === 'AbortError') throw error;
    throw new ApiError(0, {});
  }

  if (response.ok) {
    remember(response.headers.get(CONSISTENCY));
    if (pending) settled(pending.sent);
  }
  if (response.status === 204) return null;
  const text = await response.text();
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch { data = null; }
  }
  if (response.ok) return data;

  const retryAfter = Number(response.headers.get('Retry-After')) || null;
  const error = new ApiError(response.status, data && typeof data === 'object' ? data : {}, retryAfter);
  if (response.status === 401 && token && path !== '/api/auth/login') onUnauthorized(error);
  throw error;
}

/**
 * A file the API answers (CSV exports): fetched with the bearer token, so it cannot be a plain
 * link. Resolves with {blob, filename} (the name from Content-Disposition, else `fallback`);
 * rejects with ApiError like api().
 */
export async function apiFile(path, { query, signal, fallback = 'arquivo' } = {}) {
  const headers = {};
  const token = session.token;
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(buildUrl(path, query), { headers, signal, credentials: 'same-origin' });
  } catch (error) {
    if (error?.name === 'AbortError') throw error;
    throw new ApiError(0, {});
  }
  if (!response.ok) {
    let data = {};
    try { data = await response.json(); } catch { data = {}; }
    const error = new ApiError(response.status, data && typeof data === 'object' ? data : {}, Number(response.headers.get('Retry-After')) || null);
    if (response.status === 401 && token) onUnauthorized(error);
    throw error;
  }
  const disposition = response.headers.get('Content-Disposition') ?? '';
  const match = /filename="?([^";]+)"?/i.exec(disposition);
  return { blob: await response.blob(), filename: match ? match[1] : fallback };
}

/**
 * One user action that changes state (a booking, a cancellation): the same request sent again
 * (a double click, a retry after a network error) carries the same Idempotency-Key, so the
 * server answers it once; a different request gets a new key.
 */
export class Action {
  #key = null;
  #fingerprint = null;
  #pending = null;

  run(path, options = {}) {
    const fingerprint = JSON.stringify([options.method || 'POST', path, options.body ?? null]);
    if (this.#pending && fingerprint === this.#fingerprint) return this.#pending;
    if (fingerprint !== this.#fingerprint) {
      this.#key = newKey();
      this.#fingerprint = fingerprint;
    }
    this.#pending = api(path, { method: 'POST', ...options, key: this.#key })
      .then((result) => {
        // Done: the next action, even an identical one, is a new one.
        this.#fingerprint = null;
        return result;
      })
      .finally(() => { this.#pending = null; });
    return this.#pending;
  }
}

/** Every page of a list endpoint ({itens, total, pagina}, 50 a page), up to `maxPages`. */
export async function allPages(path, { query = {}, signal, maxPages = 20 } = {}) {
  const items = [];
  for (let pagina = 1; pagina <= maxPages; pagina += 1) {
    const page = await api(path, { query: { ...query, pagina }, signal });
    items.push(...page.itens);
    if (items.length >= page.total || page.itens.length === 0) break;
  }
  return items;
}

export const PAGE_SIZE = 50;

/** Waits `ms` (between a request's attempts), or until `signal` aborts (then rejects with AbortError). */
export function pausa(ms, signal) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new DOMException('aborted', 'AbortError'));
    }, { once: true });
  });
}
