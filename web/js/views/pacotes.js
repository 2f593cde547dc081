// Bundles of credits sold without a plan: the bundles on sale as cards (what each gives, for
// which space types, where, for how long, the price), "Comprar" with the method (PIX, boleto or a
// card's token), then the purchase followed until it is paid — the PIX code or the boleto's line
// while it waits (the sandbox's test bank beside them), the credits it added and until when — or
// declined (the provider's reason, and a way to try again). Below, "Minhas compras", newest first.

import { api, allPages, Action } from '../lib/api.js';
import { todasAsUnidades } from '../lib/catalog.js';
import { h, link, replace, append, uid } from '../lib/dom.js';
import { money, dateTime, DEFAULT_TZ } from '../lib/format.js';
import {
  pageHeader, loadInto, facts, field, radios, onSubmit, fieldError, val, pager, table, announce, poll, errorBox,
} from '../lib/ui.js';
import { blocoDoPix, blocoDoBoleto, bancoDeTestes } from '../lib/cobrancas.js';
import {
  oQueDa, termosDoPacote, validade, ondeNaFrase, situacao, badgeDaCompra, expirou, creditosAdicionados, reembolsoDaCompra, colunasDaCompra, METODOS_DE_COMPRA,
} from '../lib/pacotes.js';
import { COMPRA_STATUS } from '../lib/labels.js';

const TZ = DEFAULT_TZ;

export function render({ container, query, setQuery, signal }) {
  let pagina = Math.max(1, Number(query.get('pagina')) || 1);
  const vitrine = h('div');
  const compraBox = h('div', { class: 'bundle-purchase' });
  const comprasBox = h('div');
  replace(container,
    pageHeader('Pacotes de créditos', 'Horas ou um valor para reservar, sem assinar um plano: você paga uma vez e os créditos entram em Meus créditos assim que o pagamento é confirmado.'),
    h('section', { 'aria-labelledby': 'pacotes-titulo' },
      h('h2', { id: 'pacotes-titulo' }, 'À venda'),
      vitrine),
    compraBox,
    h('section', { class: 'bundle-history', 'aria-labelledby': 'compras-titulo' },
      h('h2', { id: 'compras-titulo' }, 'Minhas compras'),
      comprasBox));

  let pacotes = [];
  let unidades = [];
  let parar = () => {};

  function carregarVitrine() {
    loadInto(vitrine, () => Promise.all([
      allPages('/api/pacotes', { signal }),
      todasAsUnidades().catch(() => []),
    ]), ([ps, us]) => {
      pacotes = ps;
      unidades = us;
      append(vitrine, cartoes());
    }, { signal, text: 'Carregando os pacotes…' });
  }
  carregarVitrine();

  function cartoes() {
    if (!pacotes.length) {
      return h('div', { class: 'alert alert--info' },
        h('p', {}, 'Nenhum pacote à venda no momento.'),
        h('p', {}, 'Você pode reservar pagando por reserva (', link('/espacos', 'encontre um espaço'), ') ou assinar um ', link('/plano', 'plano'), '.'));
    }
    return h('ul', { class: 'cards plans bundles' }, pacotes.map((p) => {
      const tituloId = `pacote-${p.pacoteId}`;
      const comprar = h('button', { type: 'button', class: 'button', 'aria-describedby': tituloId }, 'Comprar');
      comprar.addEventListener('click', () => escolher(p, comprar));
      return h('li', { class: 'card plan bundle', dataset: { pacote: p.pacoteId } },
        h('h3', { class: 'card__title', id: tituloId }, p.nome),
        h('p', { class: 'bundle__gives' }, oQueDa(p)),
        p.descricao ? h('p', { class: 'card__meta' }, p.descricao) : null,
        h('p', { class: 'plan__price' }, h('strong', {}, money(p.precoCentavos)), ' pagamento único'),
        facts(termosDoPacote(p, unidades).filter(([termo]) => termo !== 'Créditos')),
        comprar);
    }));
  }

  /** Opens the purchase form of `p` below the cards; `origem` gets the focus back on "Voltar". */
  function escolher(p, origem) {
    parar();
    const tituloId = uid('comprar-titulo');
    const metodo = radios({ legend: 'Forma de pagamento', name: 'metodo', checked: 'pix', options: Object.entries(METODOS_DE_COMPRA) });
    const cartao = field({
      label: 'Token do cartão (sandbox: tok_visa)', name: 'cartaoToken',
      hint: 'O código que o provedor de pagamento dá ao cartão. No ambiente de testes, use tok_visa.',
      attrs: { autocomplete: 'off', maxlength: '200', spellcheck: 'false' },
    });
    const voltar = h('button', { type: 'button', class: 'button button--secondary' }, 'Voltar');
    const form = h('form', { class: 'form', novalidate: true, 'aria-labelledby': tituloId },
      metodo, cartao,
      h('p', { class: 'small' }, 'Com PIX ou boleto, os créditos entram quando o banco confirmar o pagamento; no cartão, em instantes.'),
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'button' }, `Comprar por ${money(p.precoCentavos)}`), voltar));
    const sync = () => { cartao.hidden = form.elements.metodo.value !== 'cartao'; };
    form.addEventListener('change', sync);
    sync();
    voltar.addEventListener('click', () => {
      replace(compraBox);
      (origem?.isConnected ? origem : vitrine.querySelector(`[data-pacote="${CSS.escape(p.pacoteId)}"] button`))?.focus();
    });

    const action = new Action();
    onSubmit(form, async () => {
      const body = { metodo: form.elements.metodo.value };
      if (body.metodo === 'cartao') {
        const token = val(form, 'cartaoToken');
        if (!token) return fieldError(form, 'cartaoToken', 'Informe o token do cartão (no ambiente de testes: tok_visa).');
        body.cartaoToken = token;
      }
      let compra;
      try {
        compra = await action.run(`/api/pacotes/${encodeURIComponent(p.pacoteId)}/compras`, { body, signal });
      } catch (error) {
        if (error?.code === 'pacote_arquivado') carregarVitrine();
        throw error;
      }
      announce('Compra feita.');
      mostrarCompra(compra, { foco: true });
      carregarCompras();
      return undefined;
    }, { busyText: 'Comprando…' });

    replace(compraBox, h('section', { class: 'panel bundle-buy', 'aria-labelledby': tituloId, dataset: { pacote: p.pacoteId } },
      h('h2', { id: tituloId, tabindex: '-1' }, `Comprar: ${p.nome}`),
      h('p', {}, `Você paga ${money(p.precoCentavos)} uma vez e recebe ${oQueDa(p)}, ${ondeNaFrase(p, unidades)}. ${validade(p)}.`),
      form));
    compraBox.scrollIntoView({ block: 'start' });
    compraBox.querySelector('h2').focus({ preventScroll: true });
  }

  /**
   * The purchase in its panel, read again now and then until it settles: the charge to pay
   * (PIX, boleto) while pending, the credits once paid, the reason once declined.
   */
  function mostrarCompra(inicial, { foco = false } = {}) {
    parar();
    const tituloId = uid('compra-titulo');
    const status = h('div', { class: 'payment-status', role: 'status', 'aria-live': 'polite' });
    const detalhes = h('div');
    const resumo = h('div');
    let atual = inicial;
    let mostrado = null;

    replace(compraBox, h('section', { class: 'panel bundle-buy', 'aria-labelledby': tituloId, dataset: { compra: inicial.compraId } },
      h('h2', { id: tituloId, tabindex: '-1' }, `Sua compra: ${inicial.pacote.nome}`),
      resumo, status, detalhes));
    if (foco) {
      compraBox.scrollIntoView({ block: 'start' });
      compraBox.querySelector('h2').focus({ preventScroll: true });
    }

    /** Re-renders what changed; true when nothing more changes by itself. */
    function exibir(c) {
      const s = situacao(c);
      const chave = `${s}|${c.cobranca?.cobrancaId ?? ''}|${c.cobranca?.pix ? 'pix' : ''}${c.cobranca?.boleto ? 'boleto' : ''}`;
      if (chave !== mostrado) {
        const antes = mostrado;
        mostrado = chave;
        replace(resumo, facts([
          ['Créditos', oQueDa(c.pacote)],
          ['Valor', money(c.valorCentavos)],
          ['Forma de pagamento', METODOS_DE_COMPRA[c.metodo] ?? c.metodo],
          ['Situação', badgeDaCompra(c)],
        ]));
        replace(status, mensagem(c, s));
        replace(detalhes, comoPagar(c, s));
        if (antes !== null) {
          // the charge arrived, or the purchase settled: the list below follows
          if (s !== 'pendente') announce(textoDaSituacao(c, s));
          carregarCompras();
        }
      }
      return s !== 'pendente';
    }

    function mensagem(c, s) {
      const alerta = (tipo, ...texto) => h('div', { class: `alert alert--${tipo}` }, ...texto);
      switch (s) {
        case 'paga':
          return alerta('sucesso',
            h('p', {}, h('strong', {}, 'Pagamento confirmado! '), creditosAdicionados(c, TZ)),
            h('p', {}, link('/creditos', 'Ver em Meus créditos')));
        case 'recusada':
          return alerta('erro',
            h('p', {}, h('strong', {}, 'Pagamento recusado. '),
              c.motivo ? `Motivo informado pelo banco: ${c.motivo}. ` : '', 'Nada foi cobrado.'),
            denovo(c, 'Tentar de novo'));
        case 'reembolsada':
          return alerta('info', h('p', {}, h('strong', {}, 'Compra reembolsada. '), reembolsoDaCompra(c, TZ)));
        case 'expirada':
          return alerta('info',
            h('p', {}, h('strong', {}, 'Prazo encerrado. '),
              `${c.metodo === 'boleto' ? 'O boleto venceu' : 'O código PIX expirou'} em ${dateTime(c.expiraEm, TZ)} sem pagamento; nada foi cobrado.`),
            denovo(c, 'Comprar de novo'));
        default:
          if (!c.cobranca && c.metodo !== 'cartao') return h('p', { class: 'loading' }, 'Gerando a cobrança com o banco…');
          if (c.metodo === 'cartao') return h('p', { class: 'loading' }, 'Processando o pagamento no cartão…');
          return [
            c.expiraEm ? h('p', { class: 'hold' }, `Pague até ${dateTime(c.expiraEm, TZ)}; depois disso ${c.metodo === 'boleto' ? 'o boleto vence' : 'o código expira'} e nada é cobrado.`) : null,
            h('p', { class: 'small' }, 'Esta página se atualiza sozinha quando o banco confirmar o pagamento.'),
          ];
      }
    }

    /** "Tentar de novo": the same bundle's form, when it is still on sale. */
    function denovo(c, texto) {
      const p = pacotes.find((x) => x.pacoteId === c.pacoteId);
      if (!p) return h('p', {}, 'Este pacote não está mais à venda. Escolha outro acima.');
      const b = h('button', { type: 'button', class: 'button' }, texto);
      b.addEventListener('click', () => escolher(p, null));
      return b;
    }

    function comoPagar(c, s) {
      if (s !== 'pendente' || !c.cobranca) return null;
      if (c.cobranca.pix) {
        return [blocoDoPix(c.cobranca.pix, c.valorCentavos), sandbox(c)];
      }
      if (c.cobranca.boleto) return [blocoDoBoleto(c.cobranca.boleto, c.valorCentavos, TZ), sandbox(c)];
      return null;
    }

    function sandbox(c) {
      return bancoDeTestes(c.cobranca.cobrancaId, { signal, onDone: () => acompanhar(400) });
    }

    async function tick() {
      try {
        atual = await api(`/api/pacotes/compras/${encodeURIComponent(atual.compraId)}`, { signal });
      } catch (error) {
        if (error?.name === 'AbortError') return true;
        replace(status, errorBox(error, { retry: () => acompanhar(0) }));
        return true;
      }
      return exibir(atual);
    }

    function acompanhar(intervalo) {
      parar();
      parar = poll(tick, { signal, interval: Math.max(intervalo, 300), max: 5000 });
    }

    if (!exibir(atual)) acompanhar(400);
  }

  function textoDaSituacao(c, s) {
    if (s === 'paga') return `Pagamento confirmado. ${creditosAdicionados(c, TZ)}`;
    if (s === 'recusada') return `Pagamento recusado${c.motivo ? `: ${c.motivo}` : ''}.`;
    if (s === 'expirada') return 'O prazo para pagar terminou.';
    if (s === 'reembolsada') return `Compra reembolsada. ${reembolsoDaCompra(c, TZ)}`;
    return COMPRA_STATUS[s] ?? s;
  }

  let leituras = 0;
  function carregarCompras() {
    setQuery({ pagina: pagina > 1 ? pagina : '' });
    const esta = ++leituras;
    loadInto(comprasBox, async () => {
      const page = await api('/api/pacotes/compras', { query: { pagina }, signal });
      // a later reading was asked for meanwhile (the purchase moved on): that one shows
      if (esta !== leituras) throw new DOMException('superseded', 'AbortError');
      return page;
    }, (page) => {
      append(comprasBox,
        table({
          caption: 'As mais recentes primeiro',
          className: 'table--palavras table--compras',
          empty: 'Nenhuma compra ainda: quando você comprar um pacote, ela aparece aqui.',
          rows: page.itens,
          rowAttrs: (c) => ({ dataset: { compra: c.compraId, situacao: situacao(c) } }),
          columns: [
            ...colunasDaCompra(TZ),
            { label: 'Situação', cell: (c) => situacaoNaTabela(c) },
            { label: 'Válido até', cell: (c) => (c.status === 'paga' && c.validoAte ? dateTime(c.validoAte, TZ) : '—') },
          ],
        }),
        page.total ? pager({
          pagina: page.pagina, total: page.total, noun: ['compra', 'compras'], label: 'Páginas das compras',
          onPage: (n) => { pagina = n; carregarCompras(); },
        }) : null);
    }, { signal, text: 'Carregando suas compras…' });
  }

  /** The status badge and, under it, what to do or what happened. */
  function situacaoNaTabela(c) {
    const linha = (...texto) => h('span', { class: 'small block' }, ...texto);
    const partes = [badgeDaCompra(c)];
    if (expirou(c)) {
      partes.push(linha(`Prazo para pagar encerrado em ${dateTime(c.expiraEm, TZ)}`));
    } else if (c.status === 'pendente') {
      if (c.expiraEm) partes.push(linha(`Pague até ${dateTime(c.expiraEm, TZ)}`));
      if (c.cobranca?.pix || c.cobranca?.boleto) {
        const ver = h('button', { type: 'button', class: 'button button--small button--secondary' },
          'Ver como pagar', h('span', { class: 'visually-hidden' }, ` ${c.pacote.nome}`));
        ver.addEventListener('click', () => mostrarCompra(c, { foco: true }));
        partes.push(h('span', { class: 'block bundle-history__pay' }, ver));
      }
    } else if (c.status === 'recusada' && c.motivo) {
      partes.push(linha(`Motivo: ${c.motivo}`));
    } else if (c.status === 'paga' && c.pagaEm) {
      partes.push(linha(`Paga em ${dateTime(c.pagaEm, TZ)}`));
    } else if (c.status === 'reembolsada' && c.reembolso) {
      partes.push(linha(reembolsoDaCompra(c, TZ)));
    }
    return partes;
  }

  carregarCompras();
  return () => parar();
}
