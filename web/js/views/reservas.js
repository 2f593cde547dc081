// My bookings, upcoming first (soonest first) and, under their own heading, the past ones (the
// newest first, 50 a page; cancelled and expired ones too), each with what it allows
// (reserva-acoes.js: pay, check in or out, see the payment, cancel). Cancelling shows the refund
// and the penalty the unit's policy gave; a hold released because its payment was declined or its
// time ran out says so instead. A booking that spent credits says how much, and once it ended
// what came back to the balance and what the cancellation policy kept (from the statement). An
// occurrence of a series says which, and cancels itself and the ones after it at once.
// A confirmed booking moves to another time of the same length ("Mudar horário": a panel under
// its row, lib/remarcacao.js) while cancelling it would still be free; a moved one says so.
// Above them, the way to the member's mail, help-desk requests and the community's events (which
// the menu has no room for).

import { api, allPages, Action, PAGE_SIZE } from '../lib/api.js';
import { espaco as loadEspaco, nomeDoEspaco } from '../lib/catalog.js';
import { h, link, replace, append } from '../lib/dom.js';
import { situacaoDaReserva, recusaDoPagamento } from '../lib/labels.js';
import { money, interval, time, deadline } from '../lib/format.js';
import {
  pageHeader, loadInto, pager, table, badge, confirmDialog, flash, errorBox, busy, announce,
} from '../lib/ui.js';
import { ACOES_DA_RESERVA } from './reserva-acoes.js';
import { creditosUsados, usouCreditos, devolucoesPorReserva, quantidade } from '../lib/creditos.js';
import { politica } from './espaco.js';
import { abrirSobALinha } from '../lib/remarcacao.js';
import { previaDoCancelamento, termosDeCancelamento, porBP } from '../lib/cancelamento.js';

/** Whether a booking is still ahead (or under way): not over, and neither cancelled nor expired. */
export function proxima(r, now = Date.now()) {
  return ['solicitada', 'confirmada'].includes(r.status) && Date.parse(r.fim) > now;
}

export function render({ container, query, setQuery, signal }) {
  let pagina = Math.max(1, Number(query.get('pagina')) || 1);
  let devolucoes = new Map();
  // After a move, the booking's "Mudar horário" (or its row) gets the focus back once the list is drawn again.
  let focarDepois = null;
  const list = h('div');
  const correio = h('div');
  // The help desk, which the menu has no room for: a discreet line, or the team's answers waiting.
  const ajuda = h('div', {}, h('p', { class: 'small help-link' },
    'Algo não está funcionando na unidade? ', link('/chamados', 'Abrir um chamado'), '.'));
  // The community's events, which the menu has no room for either: a line, saying where the
  // member stands in the coming ones when they signed up to any.
  const eventos = h('div', {}, h('p', { class: 'small help-link' },
    'Palestras, oficinas e encontros nas unidades: ', link('/eventos', 'Ver os eventos'), '.'));
  replace(container,
    pageHeader('Minhas reservas', 'Acompanhe, pague e cancele suas reservas.'),
    correio,
    ajuda,
    eventos,
    list);

  // Mail waiting at a front desk: a line that leads to it (nothing when none, or unreadable).
  api('/api/encomendas', { signal }).then((mail) => {
    const n = mail?.aguardando?.length ?? 0;
    if (!n) return;
    replace(correio, h('p', { class: 'alert alert--info' },
      n === 1 ? 'Há 1 correspondência esperando por você na recepção. ' : `Há ${n} correspondências esperando por você na recepção. `,
      link('/correspondencia', 'Ver correspondência'), '.'));
  }).catch(() => {});

  api('/api/chamados', { signal }).then((chamados) => {
    const n = (chamados?.abertos ?? []).filter((c) => c.aguardando === 'membro').length;
    if (!n) return;
    replace(ajuda, h('p', { class: 'alert alert--info' },
      n === 1 ? 'A equipe respondeu a um chamado seu. ' : `A equipe respondeu a ${n} chamados seus. `,
      link('/chamados', n === 1 ? 'Ver a resposta' : 'Ver as respostas'), '.'));
  }).catch(() => {});

  allPages('/api/encontros', { signal, maxPages: 4 }).then((encontros) => {
    const vivos = (encontros ?? []).filter((e) => !e.cancelado);
    const comVaga = vivos.filter((e) => e.minhaInscricao === 'confirmada').length;
    const naEspera = vivos.filter((e) => e.minhaInscricao === 'espera').length;
    if (!comVaga && !naEspera) return;
    const partes = [
      comVaga ? `Você tem vaga em ${comVaga === 1 ? '1 evento' : `${comVaga} eventos`}` : null,
      naEspera ? `${comVaga ? 'está' : 'Você está'} na lista de espera de ${naEspera === 1 ? '1 evento' : `${naEspera} eventos`}` : null,
    ].filter(Boolean);
    replace(eventos, h('p', { class: 'small help-link' }, `${partes.join(' e ')}. `, link('/eventos', 'Ver os eventos'), '.'));
  }).catch(() => {});

  /** The upcoming bookings the list shows (what "Cancelar esta e as próximas" would cancel). */
  let vistas = [];

  function load() {
    loadInto(list, async () => {
      const todas = await allPages('/api/reservas', { signal, maxPages: 40 });
      const now = Date.now();
      const proximas = todas.filter((r) => proxima(r, now))
        .sort((a, b) => Date.parse(a.inicio) - Date.parse(b.inicio));
      const anteriores = todas.filter((r) => !proxima(r, now))
        .sort((a, b) => Date.parse(b.inicio) - Date.parse(a.inicio));
      // Names and time zones of the spaces shown (cached per space).
      const ids = [...new Set(todas.map((r) => r.espacoId))];
      // The check-in of each booking still to be used (the list does not carry it): what the
      // member may still do with it depends on it. Unknown (null) if it cannot be read.
      const abertas = proximas.filter((r) => r.status === 'confirmada');
      const [items, lidos] = await Promise.all([
        Promise.all(ids.map((id) => loadEspaco(id).catch(() => null))),
        Promise.all(abertas.map((r) => api(`/api/reservas/${r.id}/checkin`, { signal }).catch(() => null))),
      ]);
      const espacos = new Map(ids.map((id, i) => [id, items[i]]));
      const checkins = new Map(abertas.map((r, i) => [r.id, lidos[i]]));
      // What ended bookings gave back in credits, when one spent any (the statement says).
      devolucoes = anteriores.some((r) => usouCreditos(r) && ['cancelada', 'expirada'].includes(r.status))
        ? devolucoesPorReserva(await allPages('/api/creditos/extrato', { signal, maxPages: 4 }).catch(() => []))
        : new Map();
      return { proximas, anteriores, espacos, checkins };
    }, ({ proximas, anteriores, espacos, checkins }) => {
      vistas = proximas;
      if (!proximas.length && !anteriores.length) {
        list.append(h('p', { class: 'empty' }, 'Você ainda não tem reservas. ', link('/espacos', 'Encontre um espaço'), '.'));
        return;
      }
      const paginas = Math.max(1, Math.ceil(anteriores.length / PAGE_SIZE));
      pagina = Math.min(pagina, paginas);
      setQuery({ pagina: pagina > 1 ? pagina : '' });
      const tabela = (caption, rows) => table({
        caption,
        rows,
        rowAttrs: (r) => ({ dataset: { reserva: r.id } }),
        columns: [
          { label: 'Espaço', cell: (r) => nomeDoEspaco(espacos.get(r.espacoId), r.espacoId) },
          { label: 'Quando', cell: (r) => interval(r.inicio, r.fim, tz(espacos, r)) },
          { label: 'Situação', cell: (r) => statusCell(r, espacos, checkins.get(r.id)) },
          { label: 'Total', cell: (r) => money(r.total), class: 'num' },
          { label: 'Ações', cell: (r) => actions(r, espacos, checkins.get(r.id)) },
        ],
      });
      // append() of dom.js: the native one would write a missing section as the text "null".
      append(list,
        h('section', { class: 'reservas reservas--proximas', 'aria-labelledby': 'proximas' },
          h('h2', { id: 'proximas' }, 'Próximas reservas'),
          proximas.length
            ? tabela('Das mais próximas para as mais distantes', proximas)
            : h('p', { class: 'empty' }, 'Nenhuma reserva pela frente. ', link('/espacos', 'Encontre um espaço'), '.')),
        anteriores.length ? h('section', { class: 'reservas reservas--anteriores', 'aria-labelledby': 'anteriores' },
          h('h2', { id: 'anteriores' }, 'Reservas anteriores'),
          tabela('Já terminadas, canceladas ou expiradas, das mais recentes para as mais antigas',
            anteriores.slice((pagina - 1) * PAGE_SIZE, pagina * PAGE_SIZE)),
          pager({
            pagina, total: anteriores.length, noun: ['reserva anterior', 'reservas anteriores'], label: 'Páginas das reservas anteriores',
            onPage: (n) => { pagina = n; load(); },
          })) : null);
      if (focarDepois) {
        const row = list.querySelector(`tr[data-reserva="${CSS.escape(focarDepois)}"]`);
        const alvo = row?.querySelector('[data-acao="mudar-horario"]') ?? row?.querySelector('a, button');
        focarDepois = null;
        if (alvo) {
          alvo.focus();
          return;
        }
      }
      announce(`${proximas.length} ${proximas.length === 1 ? 'reserva próxima' : 'reservas próximas'}, ${anteriores.length} ${anteriores.length === 1 ? 'anterior' : 'anteriores'}`);
    }, { signal, text: 'Carregando suas reservas…' });
  }

  function tz(espacos, r) {
    return espacos.get(r.espacoId)?.unidade?.fusoHorario ?? 'America/Sao_Paulo';
  }

  function statusCell(r, espacos, checkin) {
    const line = (text) => h('span', { class: 'small block' }, text);
    const parts = [badge(...situacaoDaReserva(r))];
    if (r.serie) parts.push(line(`Série: ${r.serie.numero}ª reserva`));
    if (r.remarcacoes) parts.push(line(r.remarcacoes === 1 ? 'Remarcada' : `Remarcada ${r.remarcacoes} vezes`));
    if (r.status === 'solicitada' && r.expiraEm) {
      parts.push(line(`Horário guardado até ${deadline(r.expiraEm, tz(espacos, r))}`));
    }
    if (checkin?.checkinEm) {
      parts.push(line(`Check-in às ${time(checkin.checkinEm, tz(espacos, r))}${checkin.checkoutEm ? ` · checkout às ${time(checkin.checkoutEm, tz(espacos, r))}` : ''}`));
    }
    if (r.naoCompareceuEm) {
      parts.push(line(`Você não compareceu; o horário foi liberado às ${time(r.naoCompareceuEm, tz(espacos, r))}`));
    }
    // What was given back, once pagamentos did: more than the cancellation's when the payment
    // landed after the booking ended (then it all goes back).
    const devolvido = Math.max(r.reembolsoSolicitado ?? 0, r.cancelamento?.reembolso ?? 0);
    const recusa = recusaDoPagamento(r);
    if (recusa !== null || r.status === 'expirada') {
      // Nothing was cancelled by anyone: the hold ended, and nothing was charged (a payment
      // that landed afterwards is given back whole).
      parts.push(line(recusa !== null ? `Pagamento recusado: ${recusa}.` : 'O prazo para pagar acabou.'));
      parts.push(line(devolvido > 0
        ? `O horário foi liberado. Pagamento recebido depois; reembolso: ${money(devolvido)}`
        : 'O horário foi liberado e nada foi cobrado.'));
    } else if (r.cancelamento && (r.total > 0 || !usouCreditos(r))) {
      parts.push(h('span', { class: 'small block' },
        `Reembolso: ${money(devolvido)} · Multa: ${money(r.cancelamento.multa)}`));
    } else if (devolvido > 0) {
      parts.push(h('span', { class: 'small block' }, `Pagamento recebido depois do prazo; reembolso: ${money(devolvido)}`));
    }
    if (!usouCreditos(r)) return parts;
    const terminou = ['cancelada', 'expirada'].includes(r.status);
    const volta = terminou ? devolucoes.get(r.id.toLowerCase()) : null;
    const devolvidos = volta ? creditosUsados(volta.devolvidos) : '';
    const retidos = volta ? creditosUsados(volta.retidos) : '';
    parts.push(line([
      `${terminou ? 'Créditos usados' : 'Pago com créditos'}: ${creditosUsados(r.creditos)}`,
      volta ? (devolvidos ? `devolvidos: ${devolvidos}` : 'nenhum devolvido') : null,
      retidos ? `retidos pela política: ${retidos}` : null,
    ].filter(Boolean).join(' · ')));
    return parts;
  }

  function actions(r, espacos, checkin) {
    const now = Date.now();
    const handlers = {
      cancel: (res, button) => cancel(res, button, espacos),
      cancelSeries: (res, button) => cancelSeries(res, button, espacos),
      move: (res, button) => move(res, button, espacos),
    };
    // A booking made before bookings carried their terms is bound by its unit's (as on the server).
    const termos = r.politicaDeCancelamento ? r : { ...r, politicaDeCancelamento: espacos.get(r.espacoId)?.unidade?.politicaDeCancelamento };
    const buttons = ACOES_DA_RESERVA.filter((a) => a.applies(termos, now, checkin ?? null)).map((a) => a.button(termos, handlers));
    return buttons.length ? h('div', { class: 'row-actions' }, buttons) : '—';
  }

  /** "Mudar horário": the panel under the booking's row; after the move, the message and the list again. */
  function move(r, button, espacos) {
    abrirSobALinha(r, button, {
      espaco: espacos.get(r.espacoId)?.espaco,
      tz: tz(espacos, r),
      signal,
      onFeito: (movida, texto) => {
        flash(texto, 'sucesso');
        announce(texto);
        focarDepois = movida.id ?? r.id;
        load();
      },
    });
  }

  async function cancel(r, button, espacos) {
    const item = espacos.get(r.espacoId);
    const p = item?.unidade?.politicaDeCancelamento;
    const estimate = estimatePenalty(r, p);
    await confirmAndCancel(button, {
      title: 'Cancelar esta reserva?',
      body: [
        `${nomeDoEspaco(item, r.espacoId)} — ${interval(r.inicio, r.fim, tz(espacos, r))}, total ${money(r.total)}.`,
        p ? `Política da unidade: ${politica(p)}` : null,
        estimate,
      ].filter(Boolean),
      confirmText: 'Cancelar reserva',
      cancelText: 'Manter reserva',
      danger: true,
    }, async () => {
      const cancelada = await new Action().run(`/api/reservas/${r.id}/cancelamento`, { body: { motivo: 'cancelada pelo membro' } });
      const c = cancelada.cancelamento ?? { reembolso: 0, multa: 0 };
      const dinheiro = cancelada.total > 0 || !usouCreditos(cancelada)
        ? ` Reembolso: ${money(c.reembolso)}. Multa: ${money(c.multa)}.${c.reembolso > 0 ? ' O valor volta pela mesma forma de pagamento; acompanhe em "Pagamento".' : ''}`
        : '';
      const creditos = usouCreditos(cancelada) ? ' Os créditos voltam ao seu saldo conforme a política de cancelamento; veja em "Meus créditos".' : '';
      return `Reserva cancelada.${dinheiro}${creditos}`;
    });
  }

  /**
   * Asks `dialog`; once confirmed, runs `cancel` (which answers the message to show) with the
   * button busy, then says so and reloads the list; an error stays next to the button.
   */
  async function confirmAndCancel(button, dialog, cancel) {
    if (!(await confirmDialog(dialog))) return;
    const restore = busy(button, 'Cancelando…');
    try {
      const message = await cancel();
      flash(message, 'sucesso');
      announce(message);
      load();
    } catch (error) {
      restore();
      button.closest('td')?.append(errorBox(error));
    }
  }

  /** Cancels this occurrence of a series and the ones after it (each under the unit's policy). */
  async function cancelSeries(r, button, espacos) {
    const item = espacos.get(r.espacoId);
    const p = item?.unidade?.politicaDeCancelamento;
    // What the server will cancel: this occurrence and the later ones still held or confirmed
    // and not started (a preview from the list; the server decides).
    const now = Date.now();
    const alvo = vistas.filter((o) => o.serie?.serieId === r.serie.serieId && o.serie.numero >= r.serie.numero
      && ['solicitada', 'confirmada'].includes(o.status) && Date.parse(o.inicio) > now)
      .sort((a, b) => a.serie.numero - b.serie.numero);
    const ultima = alvo.at(-1);
    const reembolso = alvo.reduce((soma, o) => soma + previaDoCancelamento(o, p, { now }).reembolso, 0);
    await confirmAndCancel(button, {
      title: 'Cancelar esta e as próximas reservas da série?',
      body: [
        `${nomeDoEspaco(item, r.espacoId)} — a partir de ${interval(r.inicio, r.fim, tz(espacos, r))}.`,
        alvo.length > 1 && ultima
          ? `Serão canceladas ${alvo.length} reservas, até ${interval(ultima.inicio, ultima.fim, tz(espacos, ultima))}.`
          : null,
        'As reservas anteriores da série ficam como estão. Cada reserva cancelada segue a política da unidade.',
        p ? `Política da unidade: ${politica(p)}` : null,
        reembolso > 0 ? `Reembolso estimado: ${money(reembolso)} no total.` : null,
        'Você recebe um e-mail com o resumo.',
      ].filter(Boolean),
      confirmText: 'Cancelar as reservas',
      cancelText: 'Manter a série',
      danger: true,
    }, async () => {
      const serie = await new Action().run(`/api/reservas/series/${r.serie.serieId}/cancelamento`, {
        body: { aPartirDe: r.serie.numero, motivo: 'série cancelada pelo membro' },
      });
      const canceladas = serie.ultimoCancelamento?.reservas.length ?? 1;
      return `${canceladas > 1 ? `${canceladas} reservas da série canceladas` : 'Reserva da série cancelada'}. Reembolsos e créditos seguem a política da unidade; o resumo vai por e-mail.`;
    });
  }

  load();
}

/**
 * What the policy will likely charge and keep of the credits (the server decides; this is only a
 * preview). The booking's own terms when it carries them, else the unit's.
 */
function estimatePenalty(r, unitPolicy) {
  const p = termosDeCancelamento(r, unitPolicy);
  if (!p) return null;
  const usados = usouCreditos(r) ? creditosUsados(r.creditos) : null;
  if (r.status === 'solicitada') {
    return `Como a reserva ainda não foi paga, nada será cobrado${usados ? ` e os créditos usados (${usados}) voltam ao seu saldo` : ''}.`;
  }
  // On what the payment still holds (a move to a cheaper time gave part back already).
  const { multa, reembolso, dentro } = previaDoCancelamento(r, unitPolicy);
  const partes = [];
  if (r.total > 0 || !usados) {
    partes.push(dentro
      ? `Pela política, cancelar agora tem multa estimada de ${money(multa)}; reembolso estimado de ${money(reembolso)}.`
      : `Pela política, o cancelamento agora é sem multa: reembolso estimado de ${money(reembolso)}.`);
  }
  if (usados) {
    if (!dentro) {
      partes.push(`Os créditos usados (${usados}) voltam ao seu saldo.`);
    } else {
      const retido = (n) => porBP(n, p.multaBP);
      const retidos = creditosUsados({ minutos: retido(r.creditos.minutos ?? 0), centavos: retido(r.creditos.centavos ?? 0) });
      const voltam = creditosUsados({
        minutos: (r.creditos.minutos ?? 0) - retido(r.creditos.minutos ?? 0),
        centavos: (r.creditos.centavos ?? 0) - retido(r.creditos.centavos ?? 0),
      });
      partes.push(`Dos créditos usados (${usados}), a política retém cerca de ${retidos || quantidade('minutos', 0)}; ${voltam ? `${voltam} voltam ao seu saldo` : 'nada volta ao saldo'}.`);
    }
  }
  return partes.join(' ');
}
