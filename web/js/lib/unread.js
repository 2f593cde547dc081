// The count of unread notifications beside "Notificações" in the menu: the inbox's first page
// answers `naoLidas` (100 means 100 or more). Read again at most every 30 s as the member moves
// around; the inbox screen sets it when it loads and clears it once it marks them read.

import { api } from './api.js';
import { session } from './session.js';

let count = 0;
let readAt = 0;
let pending = null;
const listeners = new Set();

export function unreadCount() { return count; }

export function onUnreadChange(fn) { listeners.add(fn); }

export function setUnread(n) {
  const next = Math.max(0, Number(n) || 0);
  readAt = Date.now();
  if (next === count) return;
  count = next;
  listeners.forEach((fn) => fn(count));
}

/** "3", "99+" (from 100), '' for none. */
export function unreadText(n = count) {
  if (!n) return '';
  return n >= 100 ? '99+' : String(n);
}

/** Asks the server again unless it was asked less than 30 s ago (or `force`). */
export function refreshUnread({ force = false } = {}) {
  if (!session.signedIn) { count = 0; return; }
  if (pending || (!force && Date.now() - readAt < 30000)) return;
  readAt = Date.now();
  pending = api('/api/notificacoes', { query: { pagina: 1 } })
    .then((page) => { if (session.signedIn) setUnread(page.naoLidas ?? 0); })
    .catch(() => {})
    .finally(() => { pending = null; });
}
