// Small read caches for the catalog, so lists of bookings can show a space's name and its
// unit's time zone without asking for the same space twice. Admin edits call `forget()`.

import { api, allPages } from './api.js';

const espacos = new Map(); // id → Promise<ItemDoCatalogo>
let unidades = null; // Promise<Unidade[]>
let unidadesAt = 0;
const TTL = 60_000;

/** GET /api/espacos/{id}: {espaco, unidade, precos?}. */
export function espaco(id, { fresh = false } = {}) {
  const key = String(id).toLowerCase();
  if (fresh || !espacos.has(key)) {
    const promise = api(`/api/espacos/${encodeURIComponent(id)}`);
    espacos.set(key, promise);
    promise.catch(() => espacos.delete(key));
  }
  return espacos.get(key);
}

/** Every unit (all pages), cached for a minute. */
export function todasAsUnidades({ fresh = false } = {}) {
  if (fresh || !unidades || Date.now() - unidadesAt > TTL) {
    unidades = allPages('/api/unidades');
    unidadesAt = Date.now();
    unidades.catch(() => { unidades = null; });
  }
  return unidades;
}

/** Drops cached entries (after an admin change). */
export function forget({ espacoId, todasUnidades } = {}) {
  if (espacoId) espacos.delete(String(espacoId).toLowerCase());
  if (todasUnidades) unidades = null;
}

/** "Sala Ipê" or a short id while the name is unknown. */
export function nomeDoEspaco(item, id) {
  return item?.espaco?.nome ?? `Espaço ${String(id).slice(0, 8)}`;
}
