// A member's credits: a wallet of lots in hours (the API counts minutes) or in money (centavos)
// that bookings spend before money. "Meus créditos" and the operator's view of one member show
// them alike: the balance, the lots with something left, the statement line by line.

import { api, allPages } from './api.js';
import { espaco as loadEspaco, nomeDoEspaco } from './catalog.js';
import { h, link } from './dom.js';
import { TIPOS, MOVIMENTOS_DE_CREDITO, ORIGENS_DE_CREDITO, SERVICOS } from './labels.js';
import { money, duration, dateShort, dateTime, localDate, interval, DEFAULT_TZ } from './format.js';
import { table } from './ui.js';

const MENOS = '\u2212';

/** An amount of credits in words, without sign: 210 minutos → "3 h 30 min"; 5000 centavos → "R$ 50,00". */
export function quantidade(medida, valor) {
  const abs = Math.abs(Number(valor) || 0);
  if (medida === 'centavos') return money(abs);
  return abs === 0 ? '0 h' : duration(abs);
}

/** With its sign: "+1 h", "−2 h", "−R$ 20,00". */
export function comSinal(medida, valor) {
  const n = Number(valor) || 0;
  return `${n < 0 ? MENOS : n > 0 ? '+' : ''}${quantidade(medida, n)}`;
}

/** What the credits of a quote or a booking (`{minutos, centavos}`) pay, in words: "2 h e R$ 50,00". */
export function creditosUsados(creditos) {
  if (!creditos) return '';
  const partes = [];
  if (creditos.minutos > 0) partes.push(quantidade('minutos', creditos.minutos));
  if (creditos.centavos > 0) partes.push(quantidade('centavos', creditos.centavos));
  return partes.join(' e ');
}

/**
 * The credits of a quote or a booking with whose they are (the member's own are spent first,
 * then the company's pool, `daEmpresa`): "2 h do seu saldo", "2 h da sua empresa", or
 * "2 h (1 h do seu saldo, 1 h da sua empresa)".
 */
export function creditosComOrigem(creditos) {
  const total = creditosUsados(creditos);
  const empresa = creditos?.daEmpresa;
  if (!empresa || (empresa.minutos <= 0 && empresa.centavos <= 0)) return `${total} do seu saldo`;
  const proprio = { minutos: creditos.minutos - empresa.minutos, centavos: creditos.centavos - empresa.centavos };
  if (proprio.minutos <= 0 && proprio.centavos <= 0) return `${total} da sua empresa`;
  return `${total} (${creditosUsados(proprio)} do seu saldo, ${creditosUsados(empresa)} da sua empresa)`;
}

/** Whether credits of the member's company paid some of a quote or a booking. */
export function daEmpresa(creditos) {
  return Boolean(creditos?.daEmpresa && (creditos.daEmpresa.minutos > 0 || creditos.daEmpresa.centavos > 0));
}

/** Whether a quote or booking spent any credits. */
export function usouCreditos(x) {
  return Boolean(x?.creditos && (x.creditos.minutos > 0 || x.creditos.centavos > 0));
}

/** The price lines that credits paid (`creditos:horas`, `creditos:valor`). */
export function ehLinhaDeCredito(linha) {
  return String(linha?.codigo ?? '').startsWith('creditos:');
}

/** The space types a lot is good for, in words ("Sala de reunião"); none listed: any. */
function tiposEmPalavras(tipos) {
  if (!tipos?.length) return 'Qualquer espaço';
  return tipos.map((t) => TIPOS[t] ?? t).join(', ');
}

/** A lot that can still be spent: something left, and not past its validity. */
export function loteUtilizavel(lote, now = Date.now()) {
  return lote.restante > 0 && !(lote.validoAte && Date.parse(lote.validoAte) <= now);
}

/** The balance: hours and money, each in a box. */
export function saldo(carteira) {
  const item = (rotulo, medida, valor, vazio) => h('li', { class: `kpi credit-balance__item${valor > 0 ? '' : ' credit-balance__item--vazio'}`, dataset: { medida } },
    h('span', { class: 'kpi__label' }, rotulo),
    h('strong', { class: 'kpi__value' }, quantidade(medida, valor)),
    valor > 0 ? null : h('span', { class: 'small' }, vazio));
  return h('ul', { class: 'kpis credit-balance', 'aria-label': 'Saldo de créditos' },
    item('Horas', 'minutos', carteira.minutos ?? 0, 'Nenhuma hora no saldo'),
    item('Valor', 'centavos', carteira.centavos ?? 0, 'Nenhum valor no saldo'));
}

/**
 * The lots with something left (those that expire first first), each a card: what it is, what
 * is left of how much, where it is good, until when. The spent or expired ones follow, greyed,
 * under a disclosure. `unidades`: the units, to name a lot's.
 */
export function lotes(carteira, { unidades = [], vazio } = {}) {
  const now = Date.now();
  const porValidade = (a, b) => (a.validoAte ? Date.parse(a.validoAte) : Infinity) - (b.validoAte ? Date.parse(b.validoAte) : Infinity);
  const ativos = (carteira.lotes ?? []).filter((l) => loteUtilizavel(l, now)).sort(porValidade);
  const usados = (carteira.lotes ?? []).filter((l) => !loteUtilizavel(l, now))
    .sort((a, b) => Date.parse(b.concedidoEm) - Date.parse(a.concedidoEm));
  const nomeDaUnidade = new Map(unidades.map((u) => [String(u.id).toLowerCase(), u]));
  const card = (l, ativo) => {
    const unidade = l.unidadeId ? nomeDaUnidade.get(String(l.unidadeId).toLowerCase()) : null;
    const tz = unidade?.fusoHorario ?? DEFAULT_TZ;
    // A lot is spendable before `validoAte`, and a plan's lot ends at the midnight after its
    // cycle's last day: both phrases name the last day it could be spent (as a boleto's
    // "vencimento" does), the day of the instant before.
    const fim = l.validoAte ? Date.parse(l.validoAte) : null;
    const validade = fim !== null
      ? `${fim <= now ? 'Venceu em' : 'Válido até'} ${dateShort(localDate(fim - 1000, tz))}`
      : 'Sem validade';
    return h('li', { class: `card credit-lot${ativo ? '' : ' credit-lot--usado'}`, dataset: { lote: l.loteId, medida: l.medida } },
      h('h3', { class: 'card__title credit-lot__title' }, l.descricao || (l.medida === 'minutos' ? 'Horas de reserva' : 'Créditos em reais')),
      h('p', { class: 'credit-lot__left' },
        ativo
          ? [h('strong', {}, `Restam ${quantidade(l.medida, l.restante)}`), ` de ${quantidade(l.medida, l.quantidade)}`]
          : `${l.restante > 0 ? `Sobraram ${quantidade(l.medida, l.restante)}` : 'Tudo usado'} de ${quantidade(l.medida, l.quantidade)}`),
      h('dl', { class: 'facts credit-lot__facts' },
        h('dt', {}, 'Vale para'), h('dd', {}, tiposEmPalavras(l.tipos)),
        h('dt', {}, 'Unidade'), h('dd', {}, l.unidadeId ? (unidade?.nome ?? 'Uma unidade só') : 'Todas'),
        h('dt', {}, 'Validade'), h('dd', {}, validade),
        h('dt', {}, 'Origem'), h('dd', {}, `${ORIGENS_DE_CREDITO[l.origem] ?? l.origem}, em ${dateShort(localDate(Date.parse(l.concedidoEm), tz))}`)));
  };
  return [
    ativos.length ? h('ul', { class: 'cards credit-lots' }, ativos.map((l) => card(l, true))) : (vazio ?? null),
    usados.length ? h('details', { class: 'credit-lots__usados' },
      h('summary', {}, `Créditos já usados ou vencidos (${usados.length})`),
      h('ul', { class: 'cards credit-lots' }, usados.map((l) => card(l, false)))) : null,
  ];
}

/**
 * The bookings a page of the statement names, as {texto, href}: "Sala Ipê, 26/11/2026,
 * 10:00–12:00". `fonte`: 'membro' reads the member's own bookings, 'admin' each one by id (an
 * operator may read any). A booking that cannot be read is left out (the line says "Reserva").
 */
export async function reservasDoExtrato(itens, { fonte = 'membro', signal } = {}) {
  const ids = [...new Set(itens.map((m) => m.reservaId).filter(Boolean).map((id) => id.toLowerCase()))];
  if (!ids.length) return new Map();
  let reservas;
  if (fonte === 'membro') {
    const todas = await allPages('/api/reservas', { signal, maxPages: 10 }).catch(() => []);
    reservas = todas.filter((r) => ids.includes(r.id.toLowerCase()));
  } else {
    reservas = (await Promise.all(ids.map((id) => api(`/api/reservas/${id}`, { signal }).catch(() => null)))).filter(Boolean);
  }
  const itensDoCatalogo = await Promise.all(reservas.map((r) => loadEspaco(r.espacoId).catch(() => null)));
  return new Map(reservas.map((r, i) => {
    const item = itensDoCatalogo[i];
    const tz = item?.unidade?.fusoHorario ?? DEFAULT_TZ;
    const href = fonte === 'membro'
      ? `/reservas/${r.id}/pagamento`
      : `/admin/reservas?unidade=${encodeURIComponent(r.unidadeId ?? '')}&data=${localDate(Date.parse(r.inicio), tz)}`;
    return [r.id.toLowerCase(), { texto: `${nomeDoEspaco(item, r.espacoId)}, ${interval(r.inicio, r.fim, tz)}`, href }];
  }));
}

/** Whether a statement line's description is the server's own note about a booking ("Reserva <id>…"). */
function descricaoDaReserva(m) {
  return m.reservaId && /^Reserva [0-9a-f-]{36}/i.test(m.descricao ?? '');
}

/** Who made an adjustment, for operators: "system:seed-demo" → "carga de demonstração". */
function quem(por, nomes) {
  if (!por) return null;
  const sistema = /^system:(.+)$/.exec(por);
  if (sistema) return SERVICOS[sistema[1]] ?? sistema[1];
  return nomes?.get(String(por).toLowerCase()) || `Conta ${String(por).slice(0, 8)}`;
}

/**
 * The statement (newest first) as a table: when, what (in words, with its booking or its
 * reason), how much (signed). `reservas`: reservasDoExtrato(); `nomes`: Map id → name of who
 * adjusted (operators see it).
 */
export function extrato(itens, { reservas = new Map(), nomes = null, tz = DEFAULT_TZ, caption, vazio } = {}) {
  return table({
    caption,
    className: 'table--palavras table--extrato',
    empty: vazio ?? 'Nenhum movimento ainda.',
    rows: itens,
    rowAttrs: (m) => ({ dataset: { tipo: m.tipo, medida: m.medida } }),
    columns: [
      { label: 'Quando', cell: (m) => h('time', { datetime: m.em }, dateTime(m.em, tz)) },
      { label: 'Movimento', cell: (m) => movimento(m, reservas, nomes) },
      { label: 'Quantidade', cell: (m) => quanto(m), class: 'num' },
    ],
  });
}

function movimento(m, reservas, nomes) {
  const linha = (...conteudo) => h('span', { class: 'small block' }, ...conteudo);
  const rotulo = MOVIMENTOS_DE_CREDITO[m.tipo] ?? m.tipo;
  const partes = [h('strong', { class: 'block' }, rotulo)];
  if (m.reservaId) {
    const r = reservas.get(m.reservaId.toLowerCase());
    partes.push(h('span', { class: 'block' }, r ? link(r.href, r.texto) : `Reserva ${m.reservaId.slice(0, 8)}`));
  }
  // The server's own words, unless they only repeat the line's ("Ajuste da operação").
  if (m.descricao && !descricaoDaReserva(m) && m.descricao.toLocaleLowerCase('pt-BR') !== rotulo.toLocaleLowerCase('pt-BR')) partes.push(linha(m.descricao));
  if (m.motivo) partes.push(linha(`Motivo: ${m.motivo}`));
  if (nomes && m.por) partes.push(linha(`Por: ${quem(m.por, nomes)}`));
  return partes;
}

function quanto(m) {
  if (m.tipo === 'retidos') {
    return [h('span', { class: 'credit-amount credit-amount--retido' }, quantidade(m.medida, m.retido ?? 0)),
      h('span', { class: 'small block' }, 'não voltam ao saldo')];
  }
  const n = Number(m.quantidade) || 0;
  return h('span', { class: `credit-amount credit-amount--${n < 0 ? 'saida' : 'entrada'}` },
    h('span', { class: 'visually-hidden' }, n < 0 ? 'saíram ' : 'entraram '), comSinal(m.medida, n));
}


/**
 * What the statement says each ended booking got back and what its cancellation kept:
 * Map reservaId (lower-case) → {devolvidos: {minutos, centavos}, retidos: {minutos, centavos}}.
 */
export function devolucoesPorReserva(itens) {
  const porReserva = new Map();
  for (const m of itens) {
    if (!m.reservaId || !['restituidos', 'retidos'].includes(m.tipo)) continue;
    const key = m.reservaId.toLowerCase();
    if (!porReserva.has(key)) porReserva.set(key, { devolvidos: { minutos: 0, centavos: 0 }, retidos: { minutos: 0, centavos: 0 } });
    const r = porReserva.get(key);
    if (m.tipo === 'restituidos') r.devolvidos[m.medida] += Math.abs(Number(m.quantidade) || 0);
    else r.retidos[m.medida] += Math.abs(Number(m.retido) || 0);
  }
  return porReserva;
}
