// The member's inbox: every notice the platform sent (welcome, payment received, booking
// confirmed, reminders, cancellations, refunds, a hold whose time to pay ran out, a visitor's
// arrival, mail waiting at the front desk, the team's reply to a help-desk request, a place at a
// community event, one freed from its waiting list, its cancellation), 50 a page, each with its
// booking (or the member's visitors, mail, requests or events) when it has one, and its
// time in the zone of that booking's unit, as the bookings show it (a notice names no unit: its
// booking, among the member's, does).
// The same notices go by e-mail; the inbox keeps them even when the e-mail failed.

import { api, allPages } from '../lib/api.js';
import { todasAsUnidades } from '../lib/catalog.js';
import { h, link, replace } from '../lib/dom.js';
import { NOTIFICACAO_TIPOS } from '../lib/labels.js';
import { dateTime, zoneLabel, DEFAULT_TZ } from '../lib/format.js';
import { pageHeader, loadInto, pager, badge, announce } from '../lib/ui.js';
import { setUnread } from '../lib/unread.js';

const KIND = {
  boas_vindas: 'info', reserva_confirmada: 'sucesso', pagamento_recebido: 'sucesso', lembrete: 'aviso', remarcacao: 'info',
  cancelamento: 'neutro', reembolso: 'info', no_show: 'neutro', expiracao: 'aviso', visita: 'info', correspondencia: 'info',
  chamado: 'info', encontro: 'info',
};

/**
 * The zone of each notice (Map id → IANA zone): its booking's unit's; a notice without a
 * booking (a welcome) or whose booking is not among the member's takes the zone most of the
 * others have, else the platform's (São Paulo).
 */
async function fusosDasNotificacoes(itens, signal) {
  const comReserva = itens.some((n) => n.reservaId);
  const [reservas, unidades] = comReserva
    ? await Promise.all([allPages('/api/reservas', { signal, maxPages: 10 }), todasAsUnidades()])
    : [[], []];
  const fusoDaUnidade = new Map(unidades.map((u) => [u.id.toLowerCase(), u.fusoHorario]));
  const fusoDaReserva = new Map(reservas.map((r) => [r.id.toLowerCase(), fusoDaUnidade.get(String(r.unidadeId).toLowerCase())]));
  const conhecidos = new Map(itens.map((n) => [n.id, n.reservaId ? fusoDaReserva.get(n.reservaId.toLowerCase()) : undefined]));
  const contagem = new Map();
  for (const fuso of conhecidos.values()) if (fuso) contagem.set(fuso, (contagem.get(fuso) ?? 0) + 1);
  const maisComum = [...contagem].sort((a, b) => b[1] - a[1])[0]?.[0] ?? DEFAULT_TZ;
  return new Map([...conhecidos].map(([id, fuso]) => [id, fuso ?? maisComum]));
}

export function render({ container, query, setQuery, signal }) {
  let pagina = Math.max(1, Number(query.get('pagina')) || 1);
  const list = h('section', { 'aria-label': 'Notificações' });
  replace(container,
    pageHeader('Notificações', 'Avisos sobre sua conta, pagamentos e reservas. Eles também chegam por e-mail.'),
    list);

  function load() {
    setQuery({ pagina: pagina > 1 ? pagina : '' });
    loadInto(list, async () => {
      const page = await api('/api/notificacoes', { query: { pagina }, signal });
      // Newest first within the page. TODO(API): the inbox is documented newest first but
      // answers oldest first, so beyond one page (50) the pages themselves are in the wrong order.
      page.itens.sort((a, b) => Date.parse(b.em) - Date.parse(a.em));
      return { page, fusos: await fusosDasNotificacoes(page.itens, signal) };
    }, ({ page, fusos }) => {
      const naoLidas = page.naoLidas ?? 0;
      announce(`${page.total} ${page.total === 1 ? 'notificação' : 'notificações'}${naoLidas ? `, ${naoLidas >= 100 ? 'mais de 99' : naoLidas} ${naoLidas === 1 ? 'não lida' : 'não lidas'}` : ''}`);
      setUnread(naoLidas);
      // Opening the inbox reads everything in it so far: the unread marks stay on this visit,
      // the menu's count goes away.
      if (naoLidas) {
        api('/api/notificacoes/leitura', { method: 'POST', signal })
          .then(() => setUnread(0))
          .catch(() => {});
      }
      // One zone on the page is said once; several, beside each time.
      const zonas = new Set(fusos.values());
      list.append(
        zonas.size === 1 ? h('p', { class: 'small inbox__zone' }, `Horários no ${zoneLabel([...zonas][0])}.`) : null,
        page.itens.length
          ? h('ol', { class: 'inbox' }, page.itens.map((n) => h('li', { class: `inbox__item${n.lida === false ? ' inbox__item--nova' : ''}`, dataset: { tipo: n.tipo, lida: String(n.lida !== false) } },
            h('article', { 'aria-labelledby': `notificacao-${n.id}` },
              h('h2', { class: 'inbox__title', id: `notificacao-${n.id}` },
                n.lida === false ? h('span', { class: 'inbox__nova' }, 'Nova', h('span', { class: 'visually-hidden' }, ': ')) : null, n.titulo),
              h('p', { class: 'inbox__meta small' },
                // A series' notice (no booking of its own) is not one booking's confirmation.
                !n.reservaId && n.tipo === 'reserva_confirmada'
                  ? badge('Série de reservas', 'info')
                  : badge(NOTIFICACAO_TIPOS[n.tipo] ?? n.tipo, KIND[n.tipo]), ' ',
                h('time', { datetime: n.em }, dateTime(n.em, fusos.get(n.id))),
                zonas.size > 1 ? ` (${zoneLabel(fusos.get(n.id))})` : '',
                n.status === 'falhou' ? ' · o e-mail não pôde ser entregue' : ''),
              h('p', { class: 'inbox__texto' }, n.texto),
              n.reservaId ? h('p', {}, reservaLink(n)) : null,
              // A series' notice (booked, or the rest of it cancelled) names several bookings:
              // they are all in the member's list.
              !n.reservaId && ['reserva_confirmada', 'cancelamento'].includes(n.tipo)
                ? h('p', {}, link('/reservas', ['Minhas reservas', h('span', { class: 'visually-hidden' }, ` (${n.titulo})`)])) : null,
              n.tipo === 'visita' ? h('p', {}, link('/visitantes', ['Meus visitantes', h('span', { class: 'visually-hidden' }, ` (${n.titulo})`)])) : null,
              n.tipo === 'correspondencia'
                ? h('p', {}, link('/correspondencia', ['Minha correspondência', h('span', { class: 'visually-hidden' }, ` (${n.titulo})`)])) : null,
              n.tipo === 'chamado'
                ? h('p', {}, link('/chamados', ['Meus chamados', h('span', { class: 'visually-hidden' }, ` (${n.titulo})`)])) : null,
              n.tipo === 'encontro'
                ? h('p', {}, link('/eventos', ['Eventos', h('span', { class: 'visually-hidden' }, ` (${n.titulo})`)])) : null))))
          : h('p', { class: 'empty' }, 'Nenhuma notificação por enquanto.'),
        pager({ pagina: page.pagina, total: page.total, noun: ['notificação', 'notificações'], onPage: (n) => { pagina = n; load(); } }));
    }, { signal, text: 'Carregando notificações…' });
  }
  load();
}

function reservaLink(n) {
  const hidden = h('span', { class: 'visually-hidden' }, ` (${n.titulo})`);
  if (n.tipo === 'reserva_confirmada' || n.tipo === 'lembrete' || n.tipo === 'remarcacao') {
    return h('a', { href: `/reservas/${n.reservaId}/checkin`, 'data-link': true }, 'Ver código de check-in', hidden);
  }
  if (n.tipo === 'pagamento_recebido' || n.tipo === 'reembolso') {
    return h('a', { href: `/reservas/${n.reservaId}/pagamento`, 'data-link': true }, 'Ver pagamento', hidden);
  }
  return link('/reservas', 'Minhas reservas');
}
