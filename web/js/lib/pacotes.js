// Bundles of credits sold without a plan ("pacotes"), in words, for the member's page and the
// operator's: what one gives ("10 h de sala de reunião", "R$ 50,00 em créditos"), where
// ("em qualquer unidade"), for how long ("válido por 60 dias após o pagamento"), and where a
// purchase stands (a pending PIX past its time reads "expirada"; a refunded one, what went back).

import { TIPOS, COMPRA_STATUS, COMPRA_STATUS_KIND } from './labels.js';
import { money, duration, dateTime, DEFAULT_TZ } from './format.js';
import { lista } from './planos.js';
import { badge } from './ui.js';
import { h } from './dom.js';

export const MEDIDAS = { minutos: 'Horas', centavos: 'Valor (R$)' };

export const METODOS_DE_COMPRA = { pix: 'PIX', boleto: 'Boleto', cartao: 'Cartão de crédito' };

/** The space types in a sentence, lower case ("sala de reunião e auditório"); null for any. */
function tiposNaFrase(tipos) {
  if (!tipos?.length || tipos.length === Object.keys(TIPOS).length) return null;
  return lista(tipos.map((t) => (TIPOS[t] ?? t).toLocaleLowerCase('pt-BR')));
}

/** The amount alone: "10 h", "R$ 50,00". */
export function quanto(p) {
  return p.medida === 'centavos' ? money(p.quantidade) : duration(Number(p.quantidade));
}

/** What one purchase gives: "10 h de sala de reunião", "12 h em qualquer espaço", "R$ 50,00 em créditos". */
export function oQueDa(p) {
  const tipos = tiposNaFrase(p.tipos);
  if (p.medida === 'centavos') return `${money(p.quantidade)} em créditos${tipos ? ` para ${tipos}` : ''}`;
  return `${duration(Number(p.quantidade))} ${tipos ? `de ${tipos}` : 'em qualquer espaço'}`;
}

/** The space types the credits pay for: "Sala de reunião"; "Qualquer espaço". */
export function valeEm(p) {
  if (!p.tipos?.length || p.tipos.length === Object.keys(TIPOS).length) return 'Qualquer espaço';
  return lista(p.tipos.map((t) => TIPOS[t] ?? t));
}

/** Where, inside a sentence: "em qualquer unidade", or "só na unidade Paulista". `unidades`: [{id, nome}]. */
export function ondeNaFrase(p, unidades = []) {
  if (!p.unidadeId) return 'em qualquer unidade';
  const u = unidades.find((x) => String(x.id).toLowerCase() === String(p.unidadeId).toLowerCase());
  return u ? `só na unidade ${u.nome}` : 'só em uma unidade';
}

/** Where: "Em qualquer unidade", or "Só na unidade Paulista". */
export function ondeVale(p, unidades = []) {
  const frase = ondeNaFrase(p, unidades);
  return frase.charAt(0).toLocaleUpperCase('pt-BR') + frase.slice(1);
}

/** "Válido por 60 dias após o pagamento"; a day pass: "Válido por 1 dia (24 horas) após o pagamento". */
export function validade(p) {
  return p.validadeDias === 1
    ? 'Válido por 1 dia (24 horas) após o pagamento'
    : `Válido por ${p.validadeDias} dias após o pagamento`;
}

/** A bundle's terms as [term, value] pairs (ui.facts). */
export function termosDoPacote(p, unidades = []) {
  return [
    ['Créditos', oQueDa(p)],
    ['Vale para', valeEm(p)],
    ['Onde', ondeVale(p, unidades)],
    ['Validade', validade(p)],
  ];
}

/** Whether a purchase can no longer be paid: expired (the API says so once its timer ran; before
 * that, a pending one whose `expiraEm` is past). */
export function expirou(compra, now = Date.now()) {
  if (compra.status === 'expirada') return true;
  return compra.status === 'pendente' && Boolean(compra.expiraEm) && Date.parse(compra.expiraEm) <= now;
}

/** A purchase's COMPRA_STATUS key: its status, or `expirada`. */
export function situacao(compra, now = Date.now()) {
  return expirou(compra, now) ? 'expirada' : compra.status;
}

/** The purchase's status as a badge. */
export function badgeDaCompra(compra, now = Date.now()) {
  const s = situacao(compra, now);
  return badge(COMPRA_STATUS[s] ?? s, COMPRA_STATUS_KIND[s] ?? 'neutro');
}

/** "Créditos adicionados: 10 h de sala de reunião, válidos até 25/01/2027, 21:43." */
export function creditosAdicionados(compra, tz = DEFAULT_TZ) {
  const ate = compra.validoAte ? `, válidos até ${dateTime(compra.validoAte, tz)}` : '';
  return `Créditos adicionados: ${oQueDa(compra.pacote)}${ate}.`;
}

/** "R$ 225,00 devolvidos e 9 h de créditos retirados da carteira em 26/11/2026, 10:00." */
export function reembolsoDaCompra(compra, tz = DEFAULT_TZ) {
  const r = compra.reembolso;
  if (!r) return '';
  const dinheiro = r.valorCentavos > 0 ? `${money(r.valorCentavos)} devolvidos pelo mesmo meio de pagamento` : 'Nenhum valor devolvido';
  const creditos = r.retirado > 0
    ? ` e ${r.medida === 'centavos' ? money(r.retirado) : duration(r.retirado)} de créditos retirados da carteira`
    : '';
  const pago = r.valorCentavos > 0
    ? (r.concluidoEm ? ` O provedor pagou a devolução em ${dateTime(r.concluidoEm, tz)}.` : ' A devolução está em processamento no provedor.')
    : '';
  return `${dinheiro}${creditos} em ${dateTime(r.em, tz)}.${pago}`;
}

/** The columns every list of purchases starts with: when, which bundle, how much, how paid. */
export function colunasDaCompra(tz = DEFAULT_TZ) {
  return [
    { label: 'Data', cell: (c) => h('time', { datetime: c.solicitadaEm }, dateTime(c.solicitadaEm, tz)) },
    { label: 'Pacote', cell: (c) => [h('span', { class: 'block' }, c.pacote.nome), h('span', { class: 'small block' }, oQueDa(c.pacote))] },
    { label: 'Valor', cell: (c) => money(c.valorCentavos), class: 'num' },
    { label: 'Forma', cell: (c) => METODOS_DE_COMPRA[c.metodo] ?? c.metodo },
  ];
}
