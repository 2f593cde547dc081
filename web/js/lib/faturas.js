// What an invoice bills, in words: a booking, a subscription's cycle, or a bundle of credits; and
// the columns of a list of invoices (the member's own, a company's).

import { h } from './dom.js';
import { money, dateShort } from './format.js';
import { FATURA_STATUS, TIPOS_DE_RECEITA } from './labels.js';
import { badge } from './ui.js';

export const FATURA_KIND = { emitida: 'aviso', paga: 'sucesso', parcialmente_reembolsada: 'info', reembolsada: 'neutro' };

/**
 * The columns of an invoice list: number, date, what it bills, value, ISS, status, credit notes,
 * and the receipt's link under `base` (the member's `/faturas`, a company's `/empresa/faturas`).
 * `detalhe`: instead of the receipt, the number links to the operator's page of the invoice.
 */
export function colunasDeFatura({ base = '/faturas', detalhe = false } = {}) {
  const codigo = (f) => f.codigo ?? `Nº ${f.numero}`;
  return [
    {
      label: 'Fatura',
      cell: (f) => (detalhe ? h('a', { href: `/admin/financeiro/faturas/${encodeURIComponent(f.id)}`, 'data-link': true }, codigo(f)) : codigo(f)),
    },
    { label: 'Data', cell: (f) => (f.data ? dateShort(f.data) : '—') },
    { label: 'Referente a', cell: (f) => referente(f) },
    { label: 'Valor', cell: (f) => money(f.valor), class: 'num' },
    { label: 'ISS', cell: (f) => money(f.iss), class: 'num' },
    { label: 'Situação', cell: (f) => badge(FATURA_STATUS[f.status] ?? f.status, FATURA_KIND[f.status]) },
    { label: 'Notas de crédito', cell: (f) => notas(f.notasDeCredito ?? []) },
    detalhe ? null : {
      label: 'Recibo',
      cell: (f) => h('a', { href: `${base}/${encodeURIComponent(f.id)}/recibo`, 'data-link': true },
        'Recibo', h('span', { class: 'visually-hidden' }, ` da fatura ${codigo(f)}`)),
    },
  ].filter(Boolean);
}

function notas(list) {
  if (!list.length) return '—';
  return h('ul', { class: 'plain-list' }, list.map((n) => h('li', {}, `${n.codigo ?? `Nº ${n.numero}`}: −${money(n.valor)}`)));
}

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
