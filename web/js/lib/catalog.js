// Small read caches for the catalog, so lists of bookings can show a space's name and its
// unit's time zone without asking for the same space twice. Admin edits call `forget()`.

import { api, allPages } from './api.js';

const espacos = new Map(); // id → Promise<ItemDoCatalogo>
let unidades = null; // Promise<Unidade[]>
let unidadesAt = 0;
let comodidades = null; // Promise<Map<chave, {nome, grafias}>>
let comodidadesAt = 0;
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

/** Every unit, by name as Portuguese sorts it (a new array: the cached one keeps its order). */
export async function unidadesPorNome() {
  return [...await todasAsUnidades()].sort((a, b) => a.nome.localeCompare(b.nome, 'pt-BR'));
}

/**
 * An amenity as the catalog filter compares it: no accents, lower case, one space between words
 * ("Videoconferência" and "videoconferencia" are one amenity).
 */
export function chaveDaComodidade(text) {
  return String(text ?? '').normalize('NFD').replace(/\p{M}/gu, '').replace(/\+/g, ' ')
    .split(/\s+/).filter(Boolean).join(' ').toLocaleLowerCase('pt-BR');
}

/**
 * The amenities the catalog's spaces have, cached for a minute: key (chaveDaComodidade) →
 * {nome: the most used spelling, grafias: every spelling the spaces use}.
 */
export function todasAsComodidades({ fresh = false } = {}) {
  if (fresh || !comodidades || Date.now() - comodidadesAt > TTL) {
    comodidadesAt = Date.now();
    comodidades = allPages('/api/espacos').then((itens) => {
      const grupos = new Map();
      for (const { espaco } of itens) {
        for (const nome of espaco.comodidades ?? []) {
          const chave = chaveDaComodidade(nome);
          if (!chave) continue;
          if (!grupos.has(chave)) grupos.set(chave, { contagem: new Map() });
          const contagem = grupos.get(chave).contagem;
          contagem.set(nome, (contagem.get(nome) ?? 0) + 1);
        }
      }
      return new Map([...grupos].map(([chave, { contagem }]) => {
        const grafias = [...contagem.keys()];
        const nome = [...contagem].sort((a, b) => b[1] - a[1])[0][0];
        return [chave, { nome, grafias }];
      }));
    });
    comodidades.catch(() => { comodidades = null; });
  }
  return comodidades;
}

/** Drops cached entries (after an admin change). */
export function forget({ espacoId, todasUnidades } = {}) {
  if (espacoId) espacos.delete(String(espacoId).toLowerCase());
  if (todasUnidades) unidades = null;
  if (espacoId) comodidades = null;
}

/** "Sala Ipê" or a short id while the name is unknown. */
export function nomeDoEspaco(item, id) {
  return item?.espaco?.nome ?? `Espaço ${String(id).slice(0, 8)}`;
}
