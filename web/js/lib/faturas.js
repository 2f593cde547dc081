// What an invoice bills, in words: a booking, a subscription's cycle, or a bundle of credits.

import { dateShort } from './format.js';
import { TIPOS_DE_RECEITA } from './labels.js';

/** `Plano Flex, 01/12 a 31/12/2026` for a cycle; `Pacote Passe diário` for a bundle; the space type for a booking. */
export function referente(fatura) {
  const ciclo = fatura.assinatura;
  if (ciclo) return `Plano ${ciclo.plano?.nome ?? ''}, ${periodo(ciclo)}`;
  if (fatura.pacote) return `Pacote ${fatura.pacote.nome}`;
  return `Reserva${fatura.tipoDeEspaco ? ` · ${TIPOS_DE_RECEITA[fatura.tipoDeEspaco] ?? fatura.tipoDeEspaco}` : ''}`;
}

/** A cycle's days: from its first to the day before `fim`. */
export function periodo(ciclo) {
  const [ano, mes, dia] = ciclo.fim.split('-').map(Number);
  const ultimo = new Date(Date.UTC(ano, mes - 1, dia - 1)).toISOString().slice(0, 10);
  return `${dateShort(ciclo.inicio)} a ${dateShort(ultimo)}`;
}
