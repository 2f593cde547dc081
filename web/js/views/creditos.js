// My credits: the balance in hours and in money that my bookings spend before anything is
// charged (with a link to buy more in bundles), the lots it is made of (what is left of how
// much, the space types and the unit they are good for, until when), and the statement line by
// line, newest first, 50 a page (granted, used in a booking — linked to it —, given back, kept
// by the cancellation policy, expired, adjusted by the operation with its reason).

import { api } from '../lib/api.js';
import { todasAsUnidades } from '../lib/catalog.js';
import { h, link, replace, append } from '../lib/dom.js';
import { pageHeader, loadInto, pager, announce } from '../lib/ui.js';
import { saldo, lotes, extrato, reservasDoExtrato, quantidade, loteUtilizavel } from '../lib/creditos.js';

export function render({ container, query, setQuery, signal }) {
  let pagina = Math.max(1, Number(query.get('pagina')) || 1);
  const carteiraBox = h('div');
  const extratoBox = h('div');
  replace(container,
    pageHeader('Meus créditos', 'Horas e valores que suas reservas usam antes de cobrar qualquer coisa.'),
    carteiraBox,
    h('section', { class: 'credit-statement', 'aria-labelledby': 'extrato-titulo' },
      h('h2', { id: 'extrato-titulo' }, 'Extrato'),
      extratoBox));

  loadInto(carteiraBox, () => Promise.all([
    api('/api/creditos', { signal }),
    todasAsUnidades().catch(() => []),
  ]), ([carteira, unidades]) => {
    const algum = (carteira.lotes ?? []).some((l) => loteUtilizavel(l));
    announce(`Saldo: ${quantidade('minutos', carteira.minutos)} e ${quantidade('centavos', carteira.centavos)}`);
    append(carteiraBox,
      h('section', { 'aria-labelledby': 'saldo-titulo' },
        h('h2', { id: 'saldo-titulo' }, 'Saldo'),
        saldo(carteira),
        h('p', { class: 'credit-buy' }, link('/pacotes', 'Comprar créditos avulsos'), ' — pacotes de horas e passes diários, sem plano.'),
        algum ? h('p', { class: 'small' },
          'Ao reservar, as horas pagam o tempo dos espaços em que valem e o valor paga o que faltar; só o resto é cobrado. ',
          'Cancelamentos devolvem os créditos conforme a política da unidade.') : null),
      h('section', { 'aria-labelledby': 'lotes-titulo' },
        h('h2', { id: 'lotes-titulo' }, 'Seus créditos'),
        lotes(carteira, { unidades, vazio: vazio((carteira.lotes ?? []).length > 0) })));
  }, { signal, text: 'Carregando seus créditos…' });

  function loadExtrato() {
    setQuery({ pagina: pagina > 1 ? pagina : '' });
    loadInto(extratoBox, async () => {
      const page = await api('/api/creditos/extrato', { query: { pagina }, signal });
      return { page, reservas: await reservasDoExtrato(page.itens, { fonte: 'membro', signal }) };
    }, ({ page, reservas }) => {
      append(extratoBox,
        extrato(page.itens, { reservas, caption: 'Os movimentos mais recentes primeiro', vazio: 'Nenhum movimento ainda: quando você receber ou usar créditos, eles aparecem aqui.' }),
        page.total ? pager({
          pagina: page.pagina, total: page.total, noun: ['movimento', 'movimentos'], label: 'Páginas do extrato',
          onPage: (n) => { pagina = n; loadExtrato(); },
        }) : null);
    }, { signal, text: 'Carregando o extrato…' });
  }
  loadExtrato();
}

/** No lot to spend: never had one, or all were used or expired (`teve`). */
function vazio(teve) {
  return h('div', { class: 'alert alert--info credit-empty' },
    h('p', {}, h('strong', {}, teve ? 'Seus créditos acabaram: não há saldo para usar agora.' : 'Você ainda não tem créditos para usar.')),
    h('p', {}, 'Créditos vêm de um plano, de um ', link('/pacotes', 'pacote de horas'), ' ou de um ajuste feito pela equipe. Quando houver saldo, ',
      'suas reservas usam primeiro as horas e os valores daqui, e só o que faltar é cobrado.'),
    h('p', {}, link('/espacos', 'Encontre um espaço'), ' ou fale com a recepção da sua unidade para saber dos planos.'));
}
