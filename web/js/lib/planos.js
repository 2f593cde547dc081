// Membership plans in words: a plan's terms (the fee per month or year, the setup fee, the hours
// and the money granted each cycle, what rolls over, the discount on bookings and where and when
// it applies), the version in force on a day and the ones to come, and the amounts an operator
// types (R$, hours, %) turned into what the API counts (centavos, minutes, basis points).

import { h, link } from './dom.js';
import { TIPOS, DIAS } from './labels.js';
import { money, duration, percentFromBP, dateShort, parseMoney, bpFromPercent } from './format.js';

export const PERIODICIDADES = { mensal: 'Mensal', anual: 'Anual' };

/** "por mês" / "por ano". */
export function porPeriodo(periodicidade) {
  return periodicidade === 'anual' ? 'por ano' : 'por mês';
}

/** The day words inside a sentence, Monday first: "segunda", "terça"… */
const DIA_EM_FRASE = {
  segunda: 'segunda', terca: 'terça', quarta: 'quarta', quinta: 'quinta', sexta: 'sexta', sabado: 'sábado', domingo: 'domingo',
};

/** ["a", "b", "c"] → "a, b e c". */
export function lista(itens) {
  const xs = itens.filter(Boolean);
  if (xs.length <= 1) return xs.join('');
  return `${xs.slice(0, -1).join(', ')} e ${xs[xs.length - 1]}`;
}

/** The space types in words ("Sala de reunião e Auditório"); none listed: `todos`. */
export function tiposEmPalavras(tipos, todos = 'qualquer espaço') {
  if (!tipos?.length || tipos.length === Object.keys(TIPOS).length) return todos;
  return lista(tipos.map((t) => TIPOS[t] ?? t));
}

/** The week days in words, Monday first ("segunda e terça"); none or all: `todos`. */
export function diasEmPalavras(dias, todos = 'todos os dias') {
  if (!dias?.length || dias.length === 7) return todos;
  const ordem = DIAS.map(([d]) => d);
  return lista([...dias].sort((a, b) => ordem.indexOf(a) - ordem.indexOf(b)).map((d) => DIA_EM_FRASE[d] ?? d));
}

/** The days a discount applies, as said in a sentence: "às segundas e terças", "às sextas e aos sábados". */
export function nosDias(dias) {
  const ordem = DIAS.map(([d]) => d);
  const indices = [...new Set(dias)].map((d) => ordem.indexOf(d)).filter((i) => i >= 0).sort((a, b) => a - b);
  // three days or more in a row: "de segunda a sexta"
  if (indices.length >= 3 && indices[indices.length - 1] - indices[0] === indices.length - 1) {
    return `de ${DIA_EM_FRASE[ordem[indices[0]]]} a ${DIA_EM_FRASE[ordem[indices[indices.length - 1]]]}`;
  }
  const plurais = { segunda: 'segundas', terca: 'terças', quarta: 'quartas', quinta: 'quintas', sexta: 'sextas', sabado: 'sábados', domingo: 'domingos' };
  const grupos = [];
  for (const d of [...dias].sort((a, b) => ordem.indexOf(a) - ordem.indexOf(b))) {
    const artigo = d === 'sabado' || d === 'domingo' ? 'aos' : 'às';
    const ultimo = grupos[grupos.length - 1];
    if (ultimo?.artigo === artigo) ultimo.dias.push(plurais[d] ?? d);
    else grupos.push({ artigo, dias: [plurais[d] ?? d] });
  }
  return lista(grupos.map((g) => `${g.artigo} ${lista(g.dias)}`));
}

/** "R$ 299,00 por mês". */
export function preco(termos) {
  return `${money(termos.valorCentavos)} ${porPeriodo(termos.periodicidade)}`;
}

/** "10 h em Sala de reunião"; "Nenhuma". */
export function horasDoCiclo(termos) {
  if (!termos.horasMinutos) return 'Nenhuma';
  return `${duration(termos.horasMinutos)} ${termos.tiposDasHoras?.length ? `em ${tiposEmPalavras(termos.tiposDasHoras)}` : 'em qualquer espaço'}`;
}

/** What is left at a cycle's end: rolls over (a share of it) or expires. Null when nothing is granted. */
export function rolloverEmPalavras(termos) {
  if (!termos.horasMinutos && !termos.creditoCentavos) return null;
  if (!termos.rolloverBP) return 'Não acumula: o que sobrar vence no fim do ciclo';
  if (termos.rolloverBP >= 10000) return 'Tudo o que não usar passa para o ciclo seguinte';
  return `Até ${percentFromBP(termos.rolloverBP)} do que não usar passa para o ciclo seguinte`;
}

/** "10 % nas reservas de Estação compartilhada, às segundas e terças"; "Nenhum". */
export function descontoEmPalavras(termos) {
  if (!termos.descontoBP) return 'Nenhum';
  const acesso = termos.acesso ?? { tipos: [], dias: [] };
  const onde = acesso.tipos?.length ? `de ${tiposEmPalavras(acesso.tipos)}` : 'de qualquer espaço';
  const quando = acesso.dias?.length && acesso.dias.length < 7 ? `, ${nosDias(acesso.dias)}` : ', todos os dias';
  return `${percentFromBP(termos.descontoBP)} nas reservas ${onde}${quando}`;
}

/** A plan's terms as [term, value] pairs (ui.facts). */
export function termosEmPares(termos) {
  const acesso = termos.acesso ?? { tipos: [], dias: [] };
  return [
    ['Preço', preco(termos)],
    ['Adesão', termos.adesaoCentavos ? `${money(termos.adesaoCentavos)}, uma vez, com o primeiro ciclo` : 'Sem adesão'],
    ['Horas por ciclo', horasDoCiclo(termos)],
    ['Créditos em R$ por ciclo', termos.creditoCentavos ? money(termos.creditoCentavos) : 'Nenhum'],
    rolloverEmPalavras(termos) ? ['O que sobrar', rolloverEmPalavras(termos)] : null,
    ['Desconto nas reservas', descontoEmPalavras(termos)],
    // An access list without a discount still says where and when the plan gives access.
    !termos.descontoBP && (acesso.tipos?.length || acesso.dias?.length)
      ? ['Acesso', `${tiposEmPalavras(acesso.tipos, 'Qualquer espaço')}, ${diasEmPalavras(acesso.dias)}`] : null,
  ].filter(Boolean);
}

/** One line for a version to come: "R$ 329,00 por mês · adesão R$ 50,00 · 10 h · R$ 20,00 em créditos · 10 % de desconto". */
export function resumoDosTermos(termos) {
  return [
    preco(termos),
    termos.adesaoCentavos ? `adesão ${money(termos.adesaoCentavos)}` : null,
    termos.horasMinutos ? `${duration(termos.horasMinutos)} por ciclo` : null,
    termos.creditoCentavos ? `${money(termos.creditoCentavos)} em créditos` : null,
    termos.rolloverBP ? `acumula ${percentFromBP(termos.rolloverBP)}` : null,
    termos.descontoBP ? `${percentFromBP(termos.descontoBP)} de desconto` : null,
  ].filter(Boolean).join(' · ');
}

/** The versions, oldest first. */
function versoesEmOrdem(plano) {
  return [...(plano.versoes ?? [])].sort((a, b) => (a.vigenteDesde < b.vigenteDesde ? -1 : a.vigenteDesde > b.vigenteDesde ? 1 : a.numero - b.numero));
}

/** The version in force on `dia` ("AAAA-MM-DD"): the last one from that day or before (else the first). */
export function versaoEm(plano, dia) {
  const versoes = versoesEmOrdem(plano);
  return versoes.filter((v) => v.vigenteDesde <= dia).pop() ?? versoes[0] ?? null;
}

/** The versions that start after `dia`, soonest first. */
export function versoesFuturas(plano, dia) {
  return versoesEmOrdem(plano).filter((v) => v.vigenteDesde > dia);
}

/** "A partir de 01/01/2027: R$ 329,00 por mês · …", one paragraph per version to come. */
export function avisosDeVersoes(plano, dia) {
  return versoesFuturas(plano, dia).map((v) => h('p', { class: 'plan__next small' },
    h('strong', {}, `A partir de ${dateShort(v.vigenteDesde)}: `), resumoDosTermos(v.termos)));
}

// ---- what an operator types ----------------------------------------------------------------------

export { minutosDeHoras } from './format.js';

/** "R$" text → centavos (empty: `vazio`); {erro} when it is not an amount from 0 to R$ 1.000.000,00. */
export function centavosDe(texto, vazio = 0) {
  if (String(texto ?? '').trim() === '') return { valor: vazio };
  const valor = parseMoney(texto);
  if (valor === null) return { erro: 'Não entendi o valor: use 299 ou 299,90.' };
  if (valor < 0) return { erro: 'O valor não pode ser negativo.' };
  if (valor > 100_000_000) return { erro: 'O máximo é R$ 1.000.000,00.' };
  return { valor };
}

/** "%" text → basis points (empty: 0); {erro} outside 0–100. */
export function bpDe(texto) {
  if (String(texto ?? '').trim() === '') return { valor: 0 };
  const valor = bpFromPercent(String(texto).replace('%', ''));
  if (valor === null) return { erro: 'Use um número de 0 a 100, como 50 ou 12,5.' };
  if (valor < 0 || valor > 10000) return { erro: 'Use uma porcentagem de 0 a 100.' };
  return { valor };
}

/**
 * The tabs of the operator's plan pages: "Planos", "Pacotes" (bundles of credits sold without a
 * plan), "Assinaturas" and "Empresas" (company accounts); `current` is the tab's key.
 */
export function abasDosPlanos(current) {
  const abas = [
    ['planos', '/admin/planos', 'Planos'], ['pacotes', '/admin/pacotes', 'Pacotes'],
    ['assinaturas', '/admin/assinaturas', 'Assinaturas'], ['empresas', '/admin/empresas', 'Empresas'],
  ];
  return h('nav', { class: 'tabs', 'aria-label': 'Planos, pacotes, assinaturas e empresas' },
    h('ul', {}, abas.map(([key, href, text]) => h('li', {},
      link(href, text, key === current ? { 'aria-current': 'page', class: 'tabs__current' } : {})))));
}
