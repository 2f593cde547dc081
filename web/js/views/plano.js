// My plan: without a subscription, the plans on sale as cards (the fee per month or year, the
// setup fee, the hours and the money granted each cycle, what rolls over, the discount and where
// and when it applies, a version to come) and the form that subscribes; with one, where it
// stands, the next charge, the current cycle (prorated when it began mid-month), a scheduled
// change with its undo, what can be done now — a new card after a declined charge, which charges
// the cycle again at once, included — and the cycles (lib/assinaturas.js).

import { api, allPages } from '../lib/api.js';
import { todasAsUnidades } from '../lib/catalog.js';
import { h, link, replace, append } from '../lib/dom.js';
import { money, todayIn, dateShort, DEFAULT_TZ } from '../lib/format.js';
import { diasDoPeriodo } from '../lib/agenda.js';
import { TIPOS } from '../lib/labels.js';
import { pageHeader, loadInto, facts, announce } from '../lib/ui.js';
import { termosEmPares, versaoEm, avisosDeVersoes, porPeriodo } from '../lib/planos.js';
import {
  painelDaAssinatura, formularioDeAssinatura, primeiroCicloEmPalavras, acompanharCobranca, textoDe, STATUS_DA_ASSINATURA,
} from '../lib/assinaturas.js';

const BASE = '/api/assinatura';

/** The member's subscription, or null when there was never one (the API answers 204). */
function minhaAssinatura(signal) {
  return api(BASE, { signal });
}

export function render({ container, signal }) {
  const body = h('div');
  const locacoes = h('div');
  replace(container,
    pageHeader('Meu plano', 'Uma mensalidade com horas e créditos para reservar, e desconto nas reservas.'),
    locacoes,
    body);
  // The desks and offices let to the member or their company: shown only when there are some.
  api('/api/locacoes', { signal }).then(({ locacoes: lista }) => {
    if (lista.length) replace(locacoes, secaoDeLocacoes(lista));
  }).catch(() => {});

  loadInto(body, () => Promise.all([
    minhaAssinatura(signal),
    allPages('/api/planos', { signal }),
    todasAsUnidades().catch(() => []),
  ]), ([assinatura, planos, unidades]) => mostrar(assinatura, planos, unidades), { signal, text: 'Carregando seu plano…' });

  let parar = () => {};

  /** `mensagem`: what just happened, said at the top of the panel and focused unless `focar` is false. */
  function mostrar(assinatura, planos, unidades, mensagem, { focar = true } = {}) {
    parar();
    replace(body);
    if (assinatura && assinatura.status !== 'encerrada') {
      append(body, painelDaAssinatura(assinatura, {
        base: BASE, planos, signal, mensagem,
        onChange: (nova, texto) => { mostrar(nova, planos, unidades, texto); },
      }));
      // the first charge is emitted in the background, and a card's answer follows it
      parar = acompanharCobranca(assinatura, {
        base: BASE, signal,
        onChange: (nova, texto) => mostrar(nova, planos, unidades, texto ?? mensagem, { focar: Boolean(texto) }),
      });
    } else {
      append(body,
        assinatura ? h('div', { class: 'alert alert--info' },
          h('p', {}, `Sua assinatura do plano ${assinatura.plano?.nome ?? ''} está ${STATUS_DA_ASSINATURA.encerrada.toLowerCase()}`,
            assinatura.motivoDoEncerramento === 'inadimplencia' ? ' por falta de pagamento.' : '.',
            ' Escolha um plano abaixo para assinar de novo.')) : null,
        vitrine(planos, unidades));
    }
    if (mensagem && focar) {
      announce(textoDe(mensagem));
      body.querySelector('.subscription__message')?.focus();
    }
  }

  function vitrine(planos, unidades) {
    const hoje = todayIn(DEFAULT_TZ);
    if (!planos.length) {
      return h('div', { class: 'alert alert--info' },
        h('p', {}, 'Nenhum plano à venda no momento.'),
        h('p', {}, 'Enquanto isso, você pode reservar pagando por reserva: ', link('/espacos', 'encontre um espaço'), '.'));
    }
    const nomes = new Map(unidades.map((u) => [String(u.id).toLowerCase(), u.nome]));
    const assinar = formularioDeAssinatura({
      planos, base: BASE, signal,
      onDone: (assinatura) => {
        const texto = `Assinatura feita! ${primeiroCicloEmPalavras(assinatura)}`;
        mostrar(assinatura, planos, unidades, texto);
      },
    });
    const cards = planos.map((p) => {
      const versao = versaoEm(p, hoje);
      const t = versao?.termos;
      const tituloId = `plano-${p.planoId}`;
      return h('li', { class: 'card plan', dataset: { plano: p.planoId } },
        h('h3', { class: 'card__title', id: tituloId }, p.nome),
        p.descricao ? h('p', { class: 'card__meta' }, p.descricao) : null,
        t ? h('p', { class: 'plan__price' }, h('strong', {}, money(t.valorCentavos)), ` ${porPeriodo(t.periodicidade)}`) : null,
        t ? facts([
          ...termosEmPares(t).filter(([termo]) => termo !== 'Preço'),
          ['Unidade', p.unidadeId ? (nomes.get(String(p.unidadeId).toLowerCase()) ?? 'Uma unidade só') : 'Toda a rede'],
        ]) : null,
        avisosDeVersoes(p, hoje),
        h('button', {
          type: 'button', class: 'button', 'aria-describedby': tituloId,
          onclick: () => assinar.escolher(p.planoId),
        }, 'Escolher este plano'));
    });
    return [
      h('section', { 'aria-labelledby': 'planos-titulo' },
        h('h2', { id: 'planos-titulo' }, 'Planos à venda'),
        h('ul', { class: 'cards plans' }, cards)),
      assinar.form,
    ];
  }
}

/** "Suas locações": each desk or office let to the member (or their company), its unit and days. */
function secaoDeLocacoes(lista) {
  return h('section', { class: 'panel', 'aria-labelledby': 'suas-locacoes' },
    h('h2', { id: 'suas-locacoes' }, lista.length === 1 ? 'Sua locação' : 'Suas locações'),
    h('ul', { class: 'plain-list' }, lista.map((l) => {
      const tz = l.fusoHorario ?? DEFAULT_TZ;
      const { primeiro, ultimo } = diasDoPeriodo(l.intervalo, tz);
      const comeca = primeiro > todayIn(tz) ? `de ${dateShort(primeiro)} ` : '';
      return h('li', {},
        h('strong', {}, link(`/espacos/${l.espacoId}`, l.espacoNome)),
        ` — ${(TIPOS[l.tipo] ?? l.tipo).toLowerCase()}${l.unidadeNome ? `, ${l.unidadeNome}` : ''}`,
        h('br'),
        `${l.empresaId ? 'Locada para a sua empresa' : 'Locada para você'}, ${comeca}até ${dateShort(ultimo)} (último dia).`,
        l.descricao ? ` ${l.descricao}.` : '');
    })));
}
