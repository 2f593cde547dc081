// Moving a booking to another time of the same space, with the same length ("Mudar horário"):
// the panel that "Minhas reservas" (the member) and "Reservas do dia" (the front desk) open under
// the booking's row. A day is chosen (the booking's own by default) and the panel lists the
// starts on which the booking fits that day (the space's availability with the booking's own
// time counted as free for itself, GET /api/reservas/{id}/remarcacao/horarios: 10:00–11:00 may
// move to 10:30–11:30), start–end in the unit's
// zone. The price and the check-in code stay. A member moves a confirmed booking while
// cancelling it would still be free under its own terms, to a time that costs no more on the
// table (the chosen time's table price is compared with the booking's as it is picked; the
// server says so too, in errors.js's words); the desk moves any confirmed booking until it starts.
// An occurrence of a series may take the ones after it along ("Mudar também as próximas"): all
// of them to the new clock time, as many days on, or none (the server names the one that cannot).

import { api, Action, pausa } from './api.js';
import { h, replace, uid } from './dom.js';
import {
  interval, time, todayIn, addDays, isDate, dateLong, localDate, zonedToMs, duration, zoneLabel, dateTime, isoWithOffset, money,
} from './format.js';
import { iniciosQueCabem } from './slots.js';
import {
  field, showLoading, doneLoading, errorBox, clearErrors, fieldError, busy, cargaNova,
} from './ui.js';

const HORA = 3_600_000;
/** A 503 (the day's agendas contended at that instant): tried again this many times, after its Retry-After. */
const TENTATIVAS_SE_OCUPADO = 3;

/**
 * Until when (ms) the member may move a booking: while cancelling it would still be free under
 * its own terms (`politicaDeCancelamento`): `horasSemMulta` before the start when there is a fee,
 * until the start when there is none (or the booking carries no terms).
 */
export function prazoDoMembro(r) {
  const inicio = Date.parse(r.inicio);
  const p = r.politicaDeCancelamento;
  if (!p || !p.multaBP) return inicio;
  return inicio - p.horasSemMulta * HORA;
}

/**
 * Whether a booking can move at all: confirmed (paid), not started, nobody checked in.
 * `checkin`: its GET /api/reservas/{id}/checkin when the screen read it, else null.
 */
export function podeMudar(r, now = Date.now(), checkin = null) {
  return r.status === 'confirmada' && Date.parse(r.inicio) > now && !r.checkinEm
    && (!checkin || (checkin.status === 'aguardando' && !checkin.checkinEm));
}

/** Whether the member may move it now (the desk is not bound by the window). */
export function membroPodeMudar(r, now = Date.now(), checkin = null) {
  return podeMudar(r, now, checkin) && now < prazoDoMembro(r);
}

/** The button that opens (and closes) the panel of booking `r`; `abrir(r, button)` is the screen's. */
export function botaoMudarHorario(r, abrir, oculto = ' desta reserva') {
  const button = h('button', {
    type: 'button', class: 'button button--secondary button--small', dataset: { acao: 'mudar-horario' }, 'aria-expanded': 'false',
  }, 'Mudar horário', h('span', { class: 'visually-hidden' }, oculto));
  button.addEventListener('click', () => abrir(r, button));
  return button;
}

/**
 * Opens the panel of booking `r` in a row of its own under the booking's row (the row of
 * `button`), closing another one open in the same table; a second click on the button closes it.
 * Focus goes to the panel's heading, and back to the button when it closes. `onFeito(movida,
 * texto)` follows a move (the panel is closed by then, the focus on the button).
 * Options as painelDeRemarcacao's. Returns the close function (or null when it closed instead).
 */
export function abrirSobALinha(r, button, opcoes) {
  const row = button.closest('tr');
  const table = row?.closest('table');
  if (!row || !table) return null;
  const aberta = row.nextElementSibling?.classList.contains('remarcacao-linha') ? row.nextElementSibling : null;
  table.querySelectorAll('tr.remarcacao-linha').forEach((linha) => linha.fechar?.({ focar: false }));
  if (aberta) {
    button.focus();
    return null;
  }
  let linha = null;
  const fechar = ({ focar = true } = {}) => {
    if (!linha) return;
    linha.remove();
    linha = null;
    button.setAttribute('aria-expanded', 'false');
    if (focar && button.isConnected) button.focus();
  };
  const painel = painelDeRemarcacao({
    ...opcoes,
    reserva: r,
    onFechar: () => fechar(),
    onFeito: (movida, texto) => {
      fechar();
      opcoes.onFeito?.(movida, texto);
    },
  });
  linha = h('tr', { class: 'remarcacao-linha' }, h('td', { colspan: String(row.children.length), class: 'remarcacao-celula' }, painel.node));
  linha.fechar = fechar;
  row.after(linha);
  button.setAttribute('aria-expanded', 'true');
  button.setAttribute('aria-controls', painel.node.id);
  painel.focar();
  return fechar;
}

/**
 * The panel: {node, focar()}.
 *   reserva   the booking (GET /api/reservas/{id}'s shape)
 *   espaco    its space (the catalog's `espaco`: name, rules), tz its unit's zone
 *   equipe    the front desk (no window, no price rule); `quem` the member's name, for its words
 *   signal    the page's; onFeito(movida, texto) after a move; onFechar() on "Fechar" or Esc
 */
export function painelDeRemarcacao({ reserva: r, espaco = {}, tz = 'America/Sao_Paulo', equipe = false, quem = null, signal, onFeito, onFechar }) {
  const regras = espaco?.regras ?? {};
  const proprio = { inicio: Date.parse(r.inicio), fim: Date.parse(r.fim) };
  const minutos = Math.round((proprio.fim - proprio.inicio) / 60_000);
  const hoje = todayIn(tz);
  const panelId = uid('remarcacao');
  const tituloId = `${panelId}-titulo`;
  const titulo = h('h3', { id: tituloId, tabindex: '-1', class: 'remarcacao__titulo' },
    equipe && quem ? `Mudar o horário da reserva de ${quem}` : 'Mudar o horário');

  const dataField = field({
    label: 'Nova data', name: 'data', type: 'date', value: localDate(proprio.inicio, tz),
    attrs: { min: hoje, max: regras.antecedenciaMaximaDias ? addDays(hoje, regras.antecedenciaMaximaDias) : null },
  });
  const dataInput = dataField.querySelector('input');
  const opcoes = h('div', { class: 'remarcacao__opcoes' });
  const contagem = h('p', { class: 'small remarcacao__contagem', role: 'status', 'aria-live': 'polite' });
  // Its error ("Escolha um dos horários livres.") describes the group: read as the focus enters it.
  const erroDoHorario = `${panelId}-erro-inicio`;
  const horarios = h('fieldset', { class: 'field remarcacao__horarios', dataset: { field: 'inicio' }, 'aria-describedby': erroDoHorario },
    h('legend', {}, `Novo horário (${zoneLabel(tz)})`),
    contagem,
    opcoes,
    h('p', { class: 'field__error', id: erroDoHorario }));
  // The member's chosen time priced on the table against the booking's (the rule: not dearer).
  const preco = h('p', { class: 'small remarcacao__preco', role: 'status', 'aria-live': 'polite' });
  // An answer of the server, in words, just above the buttons (one place: the times may scroll).
  const erro = h('div', { class: 'remarcacao__erro' });
  const confirmar = h('button', { type: 'submit', class: 'button' }, 'Confirmar novo horário');
  const fecharButton = h('button', { type: 'button', class: 'button button--secondary', onclick: () => onFechar?.() }, 'Fechar');
  // An occurrence of a series: this one and the ones after it may move together (all or none,
  // POST /api/reservas/series/{id}/remarcacao), each to the new clock time, as many days on.
  const serieId = `${panelId}-serie`;
  const daSerie = r.serie
    ? h('div', { class: 'remarcacao__serie' },
      h('div', { class: 'checkbox' },
        h('input', { type: 'checkbox', id: serieId, name: 'serie', 'aria-describedby': `${serieId}-nota` }),
        h('label', { for: serieId }, 'Mudar também as próximas reservas da série')),
      h('p', { class: 'small remarcacao__serie-nota', id: `${serieId}-nota` },
        'Cada uma vai para o mesmo horário e o mesmo dia da semana. Se alguma não puder mudar, nenhuma muda.'))
    : null;
  const form = h('form', { class: 'form remarcacao__form', novalidate: true, 'aria-labelledby': tituloId },
    dataField, horarios, daSerie, equipe ? null : preco, erro, h('div', { class: 'actions' }, confirmar, fecharButton));

  const prazo = prazoDoMembro(r);
  const regra = equipe
    ? 'O valor e o código de check-in continuam os mesmos, mesmo que o novo horário custe mais pela tabela de preços.'
    : `O valor e o código de check-in continuam os mesmos. Você pode mudar até ${prazo === proprio.inicio ? 'o início da reserva' : `${dateTime(new Date(prazo).toISOString(), tz)} (enquanto o cancelamento é sem multa)`}, para um horário que não custe mais.`;
  const node = h('section', { class: 'remarcacao', id: panelId, 'aria-labelledby': tituloId },
    titulo,
    h('p', { class: 'remarcacao__atual' },
      `Agora: ${espaco?.nome ? `${espaco.nome}, ` : ''}${interval(r.inicio, r.fim, tz)} (${duration(minutos)}). O novo horário tem a mesma duração, no mesmo espaço.`),
    h('p', { class: 'small remarcacao__regra' }, regra),
    form);
  node.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && !confirmar.disabled) {
      event.preventDefault();
      onFechar?.();
    }
  });

  // ---- the starts that fit on the chosen day ------------------------------------------------------
  let carga = null;
  async function carregar() {
    const data = dataInput.value;
    carga = cargaNova(carga, signal);
    if (!isDate(data)) {
      contagem.textContent = '';
      replace(opcoes, h('p', { class: 'empty' }, 'Escolha uma data.'));
      return;
    }
    const { signal: s } = carga;
    showLoading(opcoes, 'Carregando horários…');
    contagem.textContent = '';
    try {
      // The space's free time with this booking's own counted as free (for itself: 10:00–11:00
      // may move to 10:30–11:30 even when 11:00–11:30 alone is too short to book).
      const disponibilidade = (dia) => api(`/api/reservas/${encodeURIComponent(r.id)}/remarcacao/horarios`, { query: { data: dia }, signal: s });
      const disp = await disponibilidade(data);
      // Open up to midnight: a booking may run into the next day, whose free time the API gives apart.
      const meiaNoite = zonedToMs(addDays(data, 1), 0, tz);
      const seguinte = minutos > 0 && (disp.aberto ?? []).some((a) => Date.parse(a.fim) >= meiaNoite)
        ? await disponibilidade(addDays(data, 1))
        : null;
      if (s.aborted) return;
      const inicios = iniciosQueCabem(disp, minutos, {
        antecedenciaMinimaMinutos: regras.antecedenciaMinimaMinutos ?? 0, antecedenciaMaximaDias: regras.antecedenciaMaximaDias ?? 0, seguinte,
      }).filter((slot) => slot.inicio !== proprio.inicio);
      doneLoading(opcoes);
      desenhar(inicios, data);
      mostrarPerto();
    } catch (error) {
      if (error?.name === 'AbortError' || s.aborted) return;
      doneLoading(opcoes);
      replace(opcoes, errorBox(error, { retry: carregar }));
    }
  }

  function desenhar(inicios, data) {
    const quando = dateLong(data);
    mostrarPreco(null);
    if (!inicios.length) {
      contagem.textContent = `Nenhum horário livre de ${duration(minutos)} em ${quando}.`;
      replace(opcoes, h('p', { class: 'empty' }, 'Escolha outra data.'));
      return;
    }
    contagem.textContent = `${inicios.length} ${inicios.length === 1 ? 'horário livre' : 'horários livres'} de ${duration(minutos)} em ${quando}.`;
    replace(opcoes, inicios.map((slot) => {
      const id = uid('remarcacao-inicio');
      const outroDia = localDate(slot.fim - 1, tz) !== data;
      return h('div', { class: 'remarcacao__opcao' },
        h('input', { type: 'radio', id, name: 'inicio', value: String(slot.inicio) }),
        h('label', { for: id }, `${time(slot.inicio, tz)}–${time(slot.fim, tz)}`,
          outroDia ? h('span', { class: 'remarcacao__seguinte' }, ' (termina no dia seguinte)') : null));
    }));
  }

  /**
   * A long day scrolls in its box: the times from an hour before the booking's (its clock time,
   * on any day) are in sight first.
   */
  function mostrarPerto() {
    const relogio = (ms) => { const t = time(ms, tz); return Number(t.slice(0, 2)) * 60 + Number(t.slice(3)); };
    const alvo = relogio(proprio.inicio) - 60;
    const primeira = [...opcoes.querySelectorAll('input[name="inicio"]')].find((input) => relogio(Number(input.value)) >= alvo);
    const opcao = primeira?.closest('.remarcacao__opcao');
    if (!opcao || opcoes.scrollHeight <= opcoes.clientHeight) return;
    opcoes.scrollTop += opcao.getBoundingClientRect().top - opcoes.getBoundingClientRect().top - 4;
  }

  // ---- the chosen time's price (the member's rule: not to a dearer time) --------------------------
  // Both times quoted on the space's table now (POST /api/precos/cotacao), before discounts: the
  // subtotals the server compares. The booking's own is quoted once; a failed quote says nothing.
  let subtotalAtual = null;
  let vez = 0;
  const subtotal = (inicio) => api('/api/precos/cotacao', {
    method: 'POST', idempotent: false, signal,
    body: { espacoId: r.espacoId, inicio: isoWithOffset(inicio, tz), fim: isoWithOffset(inicio + minutos * 60_000, tz) },
  }).then((cotacao) => cotacao.subtotal);
  async function mostrarPreco(inicio) {
    const esta = ++vez;
    preco.classList.remove('remarcacao__preco--caro');
    preco.textContent = '';
    if (equipe || inicio === null) return;
    try {
      subtotalAtual ??= subtotal(proprio.inicio);
      const [atual, novo] = await Promise.all([subtotalAtual, subtotal(inicio)]);
      if (esta !== vez) return;
      preco.classList.toggle('remarcacao__preco--caro', novo > atual);
      preco.textContent = novo > atual
        ? `Este horário custa mais pela tabela (${money(novo)} contra ${money(atual)}): escolha um de mesmo preço, ou cancele a reserva e reserve o novo horário.`
        : novo < atual
          ? `Pela tabela este horário custa menos (${money(novo)} contra ${money(atual)}); o valor da reserva continua o mesmo, sem reembolso da diferença.`
          : `Mesmo preço pela tabela (${money(novo)}).`;
    } catch (error) {
      subtotalAtual = null;  // asked again on the next choice
    }
  }
  opcoes.addEventListener('change', (event) => {
    if (event.target?.name === 'inicio') mostrarPreco(Number(event.target.value));
  });

  dataInput.addEventListener('change', () => {
    clearErrors(form);
    replace(erro);
    carregar();
  });

  // ---- the move ------------------------------------------------------------------------------------
  const action = new Action();
  async function enviar(body, serie) {
    const url = serie
      ? `/api/reservas/series/${encodeURIComponent(r.serie.serieId)}/remarcacao`
      : `/api/reservas/${encodeURIComponent(r.id)}/remarcacao`;
    for (let tentativa = 0; ; tentativa += 1) {
      try {
        return await action.run(url, { body: serie ? { ...body, aPartirDe: r.serie.numero } : body, signal });
      } catch (error) {
        // The check-in code of a booking confirmed a moment ago is being issued: in a moment.
        if (error?.status !== 503 || !error.retryAfter || tentativa >= TENTATIVAS_SE_OCUPADO) throw error;
        await pausa(Math.min(5, error.retryAfter) * 1000, signal);
      }
    }
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (confirmar.disabled) return;
    clearErrors(form);
    replace(erro);
    const escolhido = form.querySelector('input[name="inicio"]:checked');
    if (!escolhido) {
      fieldError(form, 'inicio', 'Escolha um dos horários livres.');
      if (!form.querySelector('input[name="inicio"]')) dataInput.focus();
      return;
    }
    const inicio = Number(escolhido.value);
    const body = { inicio: isoWithOffset(inicio, tz), fim: isoWithOffset(inicio + minutos * 60_000, tz) };
    const restore = busy(confirmar, 'Mudando…');
    const serie = Boolean(form.querySelector('input[name="serie"]')?.checked);
    try {
      const movida = await enviar(body, serie);
      if (serie) {
        // The bookings this move moved (the series' last move).
        const movidas = movida.ultimaRemarcacao?.reservas?.length ?? 1;
        const quantas = movidas === 1 ? '1 reserva' : `${movidas} reservas`;
        const texto = `${equipe && quem ? `Série de ${quem} remarcada` : 'Série remarcada'}: ${quantas} a partir de ${interval(body.inicio, body.fim, tz)}, cada uma às ${time(inicio, tz)}. O valor e o código de check-in de cada uma continuam os mesmos.`;
        onFeito?.({ id: r.id }, texto);
        return;
      }
      const texto = `${equipe && quem ? `Reserva de ${quem} remarcada` : 'Reserva remarcada'} para ${interval(movida.inicio, movida.fim, tz)}. O valor e o código de check-in continuam os mesmos.`;
      onFeito?.(movida, texto);
    } catch (error) {
      if (error?.name === 'AbortError') return;
      restore();
      const box = errorBox(error);
      box.setAttribute('tabindex', '-1');
      replace(erro, box);
      box.focus();
      // Someone took it meanwhile: the day as it is now (the message stays).
      if (error.code === 'horario_indisponivel') carregar();
    }
  });

  carregar();
  return {
    node,
    focar: () => titulo.focus(),
  };
}
