// Members' names for operator screens: the API answers bookings and the audit trail with an
// account's id only, so a screen asks GET /api/admin/usuarios/{id} once per account it shows.

import { api } from './api.js';

/**
 * A per-screen cache of account names. `nome(id)` resolves with the name, `false` for an erased
 * account (the API answers 404) or `null` when it could not be asked (the caller shows the id).
 */
export function nomesDePessoas(signal) {
  const pessoas = new Map();
  return {
    nome(id) {
      const key = String(id ?? '').toLowerCase();
      if (!pessoas.has(key)) {
        // A company's subscription and pool are held by `empresa-<id>`: its name, not an account's.
        const empresa = empresaDoTitular(key);
        const pedido = empresa
          ? api(`/api/empresas/${encodeURIComponent(empresa)}`, { signal }).then((e) => `Empresa ${e.nome}`)
          : api(`/api/admin/usuarios/${encodeURIComponent(id)}`, { signal }).then((p) => p.nome);
        pessoas.set(key, pedido
          .catch((error) => {
            if (error?.status === 404) return false;
            pessoas.delete(key); // a failure now (the network) is asked again next time
            return null;
          }));
      }
      return pessoas.get(key);
    },
    /** Every name of `ids` at once: Map(id lower-case → name | false | null). */
    async todos(ids) {
      const unique = [...new Set(ids.map((id) => String(id ?? '').toLowerCase()).filter(Boolean))];
      const names = await Promise.all(unique.map((id) => this.nome(id)));
      return new Map(unique.map((id, i) => [id, names[i]]));
    },
  };
}

/** A name from nomesDePessoas() in words: "Conta apagada" for an erased account, else the id's start. */
export function nomeOuConta(nome, id) {
  if (nome === false) return 'Conta apagada';
  return nome ?? `Conta ${String(id ?? '—').slice(0, 8)}`;
}

/** The company id of a holder `empresa-<id>`, or null for a member's id. */
export function empresaDoTitular(titular) {
  const texto = String(titular ?? '');
  return texto.startsWith('empresa-') ? texto.slice('empresa-'.length) : null;
}
