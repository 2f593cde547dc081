// The reception's day: for a unit and a local day, the board of its spaces (quadro.js), the
// list of bookings with what can be done now (register the member's arrival and departure,
// cancel) and the visitors members expect (register their arrival, which tells the host, and
// their departure), kept current every 15 s while the page is in sight; on today's page, a
// visitor who came unannounced is registered for the member they came to see and their arrival
// recorded at once; and the check-in by the member's code (or the content of the QR code). Bookings are confirmed by their payment.
// Below the day, the unit's mail held at the desk (correspondencia.js) and the problems members
// reported there that are still open (chamados.js): per unit, not per day.
// Beside the day's controls, the way to the unit's community events (eventos.js) and to its tours
// of the day (tours.js: prospects' guided visits, and the unit's tour hours).
// A toggle turns the day into its week (quadro-semana.js: per space and day, how many bookings
// and how they stand); a day of the week opens that day.
// A confirmed booking not yet begun moves to another time of the same length ("Mudar horário",
// under its time: a panel under its row, lib/remarcacao.js; the desk is bound by no window nor
// price); the refresh waits while a panel is open.

import { api, allPages, Action } from '../../lib/api.js';
import { nomeDoEspaco, espaco as loadEspaco } from '../../lib/catalog.js';
import { h, link, replace, uid } from '../../lib/dom.js';
import {
  situacaoDaReserva, recusaDoPagamento, PRESENCA, PRESENCA_KIND, presenca, VISITA_SITUACAO, VISITA_KIND, visitaSemAviso,
} from '../../lib/labels.js';
import {
  money, todayIn, addDays, isDate, dateLong, dateShort, time, deadline, zoneLabel, interval, isoWithOffset,
} from '../../lib/format.js';
import {
  pageHeader, loadInto, table, badge, confirmDialog, flash, errorBox, announce, field, onSubmit, val, fieldError, busy, clearErrors,
  showFormError,
} from '../../lib/ui.js';
import { describeError } from '../../lib/errors.js';
import { nomesDePessoas, nomeOuConta } from '../../lib/pessoas.js';
import { unidadeSelect } from './comum.js';
import { quadro } from './quadro.js';
import { quadroDaSemana } from './quadro-semana.js';
import { buscaDeMembro } from '../../lib/busca-de-membro.js';
import { correspondencia } from './correspondencia.js';
import { chamados } from './chamados.js';
import { abrirSobALinha, botaoMudarHorario, podeMudar } from '../../lib/remarcacao.js';
import { previaDoCancelamento, termosDeCancelamento } from '../../lib/cancelamento.js';

const ATUALIZA_A_CADA = 15_000;
const DIAS_DA_SEMANA = 7;
const JANELA_PADRAO = { antesMinutos: 15, depoisMinutos: 30 };
/** How long before the expected time the desk may record a visitor's arrival (the server's rule). */
const CHEGADA_ANTECIPADA = 12 * 60 * 60_000;
/** How long a failed walk-in registration keeps its time, so that sending it again is the same request. */
const TENTATIVA_VALE = 10 * 60_000;

/** The reception's check-in: the member says the code (or the QR code is read into the field). */
function recepcao(reload) {
  const form = h('form', { class: 'form panel reception', novalidate: true, 'aria-labelledby': 'recepcao' },
    h('h2', { id: 'recepcao' }, 'Check-in na recepção'),
    h('div', { class: 'reception__line' },
      field({
        label: 'Código de check-in', name: 'codigo', required: true,
        hint: 'Os 6 caracteres que o membro mostra no app, ou o conteúdo do QR code lido por um leitor.',
        attrs: { autocomplete: 'off', spellcheck: 'false', autocapitalize: 'characters', maxlength: '200' },
      }),
      h('button', { type: 'submit', class: 'button' }, 'Registrar check-in')));
  const action = new Action();
  onSubmit(form, async () => {
    const codigo = val(form, 'codigo');
    if (!codigo) return fieldError(form, 'codigo', 'Informe o código de check-in.');
    const c = await action.run('/api/checkin', { body: { codigo: codigo.startsWith('coworkflow:') ? codigo : codigo.toUpperCase() } });
    const item = await loadEspaco(c.espacoId).catch(() => null);
    const tz = item?.unidade?.fusoHorario;
    form.reset();
    flash(`Check-in registrado: ${nomeDoEspaco(item, c.espacoId)}, ${c.inicio ? interval(c.inicio, c.fim, tz) : ''}.`, 'sucesso');
    reload();
  }, { busyText: 'Registrando…' });
  return form;
}

export async function render({ container, query, setQuery, signal }) {
  replace(container, pageHeader('Reservas do dia', 'O quadro de uma unidade num dia, no horário local da unidade: quem chegou, quem saiu e quem falta.'));
  const controls = h('div', { class: 'day-board__controls' });
  const dayTitle = h('h2', { class: 'day-board__title' });
  const status = h('p', { class: 'small day-board__status' });
  const content = h('div', { class: 'day-board' });
  container.append(recepcao(() => { if (select) load({ quiet: true }); }), controls, content);

  let unidades;
  let select;
  let unidadeField;
  try {
    ({ field: unidadeField, select, unidades } = await unidadeSelect({ value: query.get('unidade') ?? '', signal }));
  } catch (error) {
    if (error?.name !== 'AbortError') replace(controls, errorBox(error));
    return undefined;
  }
  if (!unidades.length) {
    replace(controls, h('p', { class: 'empty' }, 'Nenhuma unidade cadastrada ainda.'));
    return undefined;
  }
  const unidadeAtual = () => unidades.find((u) => u.id === select.value);
  const tzOf = () => unidadeAtual()?.fusoHorario ?? 'America/Sao_Paulo';
  let data = isDate(query.get('data')) ? query.get('data') : todayIn(tzOf());
  let vista = query.get('vista') === 'semana' ? 'semana' : 'dia';
  const passo = () => (vista === 'semana' ? DIAS_DA_SEMANA : 1);
  const nomes = nomesDePessoas(signal);
  let acting = 0; // actions under way: the refresh waits for them
  const semAviso = chegadaSemAviso();
  // The unit's mail: loaded on its own, so that a failure there leaves the day on screen.
  const correio = correspondencia({ signal, nomes });
  content.after(correio.node);
  // The unit's open help-desk requests, below the mail: on their own too.
  const atendimento = chamados({ signal, nomes });
  correio.node.after(atendimento.node);

  const dateId = uid('data');
  const dateInput = h('input', { type: 'date', id: dateId, name: 'data', value: data });
  const prev = h('button', { type: 'button', class: 'button button--secondary', onclick: () => go(addDays(data, -passo())) });
  const next = h('button', { type: 'button', class: 'button button--secondary', onclick: () => go(addDays(data, passo())) });
  const dateLabel = h('label', { for: dateId });
  // Day or week: two pressed-or-not buttons, as a segmented control.
  const toggle = (valor, texto) => h('button', {
    type: 'button', class: 'button button--secondary view-toggle__option', dataset: { vista: valor }, onclick: () => switchTo(valor),
  }, texto);
  const toggles = [toggle('dia', 'Dia'), toggle('semana', 'Semana')];
  const novaReserva = link('', 'Reservar para um membro', { class: 'button button--secondary day-board__new' });
  // The unit's community events (their page: the operator's menu has no room for one more link).
  const eventos = link('', 'Eventos da unidade', { class: 'button button--secondary day-board__new' });
  // The unit's tours of the day (prospects' guided visits) and its tour hours: their page too.
  const tours = link('', 'Tours da unidade', { class: 'button button--secondary day-board__new' });
  // How many tours the day holds, beside the way to them: the desk sees who else is coming.
  const toursDoDia = h('span', { class: 'small day-board__tours', 'aria-live': 'polite' });
  let contagemDeTours = null; // the latest count asked: an older answer is dropped
  function contarTours(unidade, dia, semana) {
    const pedido = contagemDeTours = semana ? null : api('/api/admin/tours', { query: { unidade, data: dia }, signal });
    if (!pedido) { toursDoDia.textContent = ''; return; }
    pedido.then((resposta) => {
      if (contagemDeTours !== pedido || signal.aborted) return;
      const n = (resposta?.itens ?? []).filter((t) => t.situacao === 'agendado').length;
      toursDoDia.textContent = n === 0 ? '' : `${n} ${n === 1 ? 'tour agendado' : 'tours agendados'} neste dia`;
    }).catch(() => {
      if (contagemDeTours === pedido) toursDoDia.textContent = '';
    });
  }
  controls.append(unidadeField,
    h('div', { class: 'view-toggle', role: 'group', 'aria-label': 'Ver por' }, toggles),
    h('div', { class: 'day-nav' },
      prev,
      h('div', { class: 'field field--inline' }, dateLabel, dateInput),
      next,
      h('button', { type: 'button', class: 'button button--secondary', onclick: () => go(todayIn(tzOf())) }, 'Hoje')),
    // A booking for a member: the unit's spaces on the chosen day, a free hour picked there opens
    // the space's page, where the reception names the member.
    novaReserva,
    eventos,
    tours,
    toursDoDia);
  content.before(h('div', { class: 'day-board__head' }, dayTitle, status));
  dayTitle.setAttribute('tabindex', '-1');

  select.addEventListener('change', () => load());
  dateInput.addEventListener('change', () => { if (isDate(dateInput.value)) go(dateInput.value); });

  function go(newDate) {
    data = newDate;
    dateInput.value = data;
    load();
  }

  /** Turns the board into the day or the week (from `newDate`, the chosen day by default). */
  function switchTo(newVista, newDate = data) {
    vista = newVista;
    go(newDate);
    dayTitle.focus({ preventScroll: true });
  }

  function showVista() {
    const semana = vista === 'semana';
    toggles.forEach((b) => b.setAttribute('aria-pressed', String(b.dataset.vista === vista)));
    prev.textContent = semana ? '← Semana anterior' : '← Dia anterior';
    next.textContent = semana ? 'Próxima semana →' : 'Próximo dia →';
    dateLabel.textContent = semana ? 'A partir de' : 'Data';
  }

  /** The unit's spaces by name, plus any a booking names that the catalog no longer lists (deactivated). */
  async function espacosDe(unidade, reservas) {
    const espacos = await allPages('/api/espacos', { query: { unidade }, signal, maxPages: 5 });
    const known = new Set(espacos.map((i) => i.espaco.id));
    const missing = [...new Set(reservas.map((r) => r.espacoId).filter((id) => !known.has(id)))];
    const extra = (await Promise.all(missing.map((id) => loadEspaco(id).catch(() => null)))).filter(Boolean);
    return [...espacos, ...extra].sort((a, b) => a.espaco.nome.localeCompare(b.espaco.nome, 'pt-BR'));
  }

  async function fetchWeek(unidade) {
    const dias = Array.from({ length: DIAS_DA_SEMANA }, (_, i) => addDays(data, i));
    const porDia = await Promise.all(dias.map((dia) => allPages('/api/admin/reservas', { query: { unidade, data: dia }, signal, maxPages: 10 })));
    return { semana: true, dias, porDia, espacos: await espacosDe(unidade, porDia.flat()) };
  }

  async function fetchDay(unidade) {
    const [reservas, visitas] = await Promise.all([
      allPages('/api/admin/reservas', { query: { unidade, data }, signal, maxPages: 10 }),
      // The visitors' list failing leaves the bookings on screen: the section says why.
      api('/api/admin/visitas', { query: { unidade, data }, signal }).then((dia) => ({ itens: dia.itens ?? [] }), (erro) => {
        if (erro?.name === 'AbortError') throw erro;
        return { itens: [], erro };
      }),
    ]);
    // A booking of a space the catalog no longer lists (deactivated) still gets its row.
    const todos = await espacosDe(unidade, reservas);
    const pessoas = await nomes.todos([...reservas.map((r) => r.usuarioId), ...visitas.itens.map((v) => v.usuarioId)]);
    reservas.sort((a, b) => Date.parse(a.inicio) - Date.parse(b.inicio) || Date.parse(a.fim) - Date.parse(b.fim));
    return { reservas, espacos: todos, pessoas, visitas };
  }

  let loading = null;
  /** Loads the day; `quiet` (the refresh, after an action) keeps what is shown until the new day arrives. */
  function load({ quiet = false } = {}) {
    const unidade = select.value;
    const tz = tzOf();
    const semana = vista === 'semana';
    setQuery({ unidade, data, vista: semana ? 'semana' : '' });
    correio.mostrar(unidadeAtual(), { quiet });
    atendimento.mostrar(unidadeAtual());
    novaReserva.href = `/unidades/${encodeURIComponent(unidade)}/dia?data=${data < todayIn(tz) ? todayIn(tz) : data}`;
    eventos.href = `/admin/eventos?unidade=${encodeURIComponent(unidade)}`;
    tours.href = `/admin/tours?unidade=${encodeURIComponent(unidade)}&data=${data}`;
    contarTours(unidade, data, semana);
    showVista();
    dayTitle.textContent = semana
      ? `Semana de ${dateShort(data)} a ${dateShort(addDays(data, DIAS_DA_SEMANA - 1))} (${zoneLabel(tz)})`
      : `${dateLong(data)} (${zoneLabel(tz)})`;
    const showWeek = (week) => {
      const scroll = content.querySelector('.grade-scroll')?.scrollLeft;
      replace(content, quadroDaSemana({ dias: week.dias, tz, espacos: week.espacos, porDia: week.porDia, onDia: (dia) => switchTo('dia', dia) }));
      if (scroll !== undefined) content.querySelector('.grade-scroll').scrollLeft = scroll;
      status.textContent = `Atualizado às ${time(new Date().toISOString(), tz)}; atualiza sozinho a cada 15 segundos.`;
    };
    const show = (day) => {
      if (day.semana) { showWeek(day); return; }
      const focus = focusKey();
      const scroll = content.querySelector('.board-scroll')?.scrollLeft;
      replace(content, quadro({ data, tz, espacos: day.espacos, reservas: day.reservas, nomes: day.pessoas }), lista(day, tz), visitantes(day, tz));
      const scroller = content.querySelector('.board-scroll');
      const now = content.querySelector('.board__now');
      // Where the board was, else (today, on a narrow screen) the present hour in sight.
      if (scroller && scroll !== undefined) scroller.scrollLeft = scroll;
      else if (scroller && now) {
        const nome = scroller.querySelector('.board__space')?.offsetWidth ?? 0;
        const x = now.getBoundingClientRect().left - scroller.getBoundingClientRect().left + scroller.scrollLeft;
        scroller.scrollLeft = Math.max(0, x - nome - (scroller.clientWidth - nome) / 4);
      }
      restoreFocus(focus);
      status.textContent = `Atualizado às ${time(new Date().toISOString(), tz)}; atualiza sozinho a cada 15 segundos.`;
    };
    const buscar = semana ? fetchWeek : fetchDay;
    if (!quiet) {
      const request = loading = buscar(unidade);
      loadInto(content, () => request, (day) => {
        if (loading !== request) return;
        show(day);
        if (semana) announce(`Semana de ${dateLong(data)} a ${dateLong(addDays(data, DIAS_DA_SEMANA - 1))}`);
        else {
          const n = day.visitas.itens.length;
          announce(`${day.reservas.length} ${day.reservas.length === 1 ? 'reserva' : 'reservas'} e ${n} ${n === 1 ? 'visitante' : 'visitantes'} em ${dateLong(data)}`);
        }
      }, { signal, text: semana ? 'Carregando a semana…' : 'Carregando o dia…' });
      return;
    }
    const request = loading = buscar(unidade);
    request.then((day) => {
      if (loading === request && !signal.aborted && select.value === unidade) show(day);
    }).catch((error) => {
      if (error?.name === 'AbortError' || signal.aborted) return;
      status.textContent = `Não foi possível atualizar agora (${time(new Date().toISOString(), tz)}); tentaremos de novo.`;
    });
  }

  // ---- the list, with the actions ------------------------------------------------------------------

  function lista(day, tz) {
    const espacos = new Map(day.espacos.map((i) => [i.espaco.id, i]));
    const quem = (r) => nomeOuConta(day.pessoas.get(String(r.usuarioId).toLowerCase()), r.usuarioId);
    const tituloId = uid('lista');
    return h('section', { 'aria-labelledby': tituloId },
      h('h2', { id: tituloId }, 'Reservas'),
      table({
        caption: `Reservas de ${dateLong(data)}`,
        empty: 'Nenhuma reserva neste dia.',
        rows: day.reservas,
        className: 'table--palavras table--dia',
        rowAttrs: (r) => ({ dataset: { reserva: r.id, estado: presenca(r) } }),
        columns: [
          { label: 'Horário', cell: (r) => horario(r, tz, espacos, quem(r)) },
          { label: 'Espaço', cell: (r) => nomeDoEspaco(espacos.get(r.espacoId), r.espacoId) },
          { label: 'Membro', cell: (r) => quem(r) },
          { label: 'Presença', cell: (r) => presencaCell(r, tz) },
          { label: 'Reserva', cell: (r) => statusCell(r, tz) },
          { label: 'Total', cell: (r) => money(r.total), class: 'num' },
          { label: 'Ações', cell: (r) => actions(r, tz, nomeDoEspaco(espacos.get(r.espacoId), r.espacoId), quem(r)) },
        ],
      }));
  }

  /** The booking's time and, while it can move, "Mudar horário" (beside what it changes). */
  function horario(r, tz, espacos, quem) {
    const quando = r.dias?.length > 1 ? interval(r.inicio, r.fim, tz) : `${time(r.inicio, tz)}–${time(r.fim, tz)}`;
    if (!podeMudar(r)) return quando;
    return [h('span', { class: 'block' }, quando), h('span', { class: 'block remarcacao__abrir' }, botaoMudarHorario(r, (res, button) => {
      abrirSobALinha(res, button, {
        espaco: espacos.get(res.espacoId)?.espaco,
        tz,
        equipe: true,
        quem,
        signal,
        onFeito: (movida, texto) => {
          flash(texto, 'sucesso');
          announce(texto);
          load({ quiet: true });
        },
      });
    }, ` da reserva de ${quem}`))];
  }

  function presencaCell(r, tz) {
    const estado = presenca(r);
    if (!['aguardando', 'presente', 'saiu', 'ausente'].includes(estado)) return '—';
    const parts = [badge(PRESENCA[estado], PRESENCA_KIND[estado])];
    if (r.checkinEm) parts.push(h('span', { class: 'small block' }, `Entrada às ${time(r.checkinEm, tz)}`));
    if (r.checkoutEm) parts.push(h('span', { class: 'small block' }, `Saída às ${time(r.checkoutEm, tz)}`));
    if (r.naoCompareceuEm) parts.push(h('span', { class: 'small block' }, `Não compareceu; horário liberado às ${time(r.naoCompareceuEm, tz)}`));
    return parts;
  }

  function statusCell(r, tz) {
    const parts = [badge(...situacaoDaReserva(r))];
    if (r.status === 'solicitada' && r.expiraEm) parts.push(h('span', { class: 'small block' }, `Horário guardado até ${deadline(r.expiraEm, tz)}`));
    if (r.serie) parts.push(h('span', { class: 'small block' }, `Série: ${r.serie.numero}ª reserva`));
    if (r.remarcacoes) parts.push(h('span', { class: 'small block' }, r.remarcacoes === 1 ? 'Remarcada' : `Remarcada ${r.remarcacoes} vezes`));
    const devolvido = Math.max(r.reembolsoSolicitado ?? 0, r.cancelamento?.reembolso ?? 0);
    const recusa = recusaDoPagamento(r);
    if (recusa !== null) parts.push(h('span', { class: 'small block' }, `Pagamento recusado: ${recusa}${devolvido > 0 ? `; pago depois, reembolso ${money(devolvido)}` : ''}`));
    else if (r.cancelamento) parts.push(h('span', { class: 'small block' }, `Reembolso ${money(devolvido)} · multa ${money(r.cancelamento.multa)}`));
    else if (devolvido > 0) parts.push(h('span', { class: 'small block' }, `Pago depois do prazo; reembolso ${money(devolvido)}`));
    return parts;
  }

  /** The check-in window the unit gives a booking (the server decides; this only says when to offer it). */
  function janela(r) {
    const j = unidadeAtual()?.operacao?.janelaDeCheckin ?? JANELA_PADRAO;
    const inicio = Date.parse(r.inicio);
    return { abre: inicio - j.antesMinutos * 60_000, fecha: inicio + j.depoisMinutos * 60_000 };
  }

  function actions(r, tz, nome, quem) {
    const items = [];
    const now = Date.now();
    const estado = presenca(r);
    const suffix = (text) => h('span', { class: 'visually-hidden' }, ` ${text}`);
    if (estado === 'aguardando' && now < Date.parse(r.fim)) {
      const { abre, fecha } = janela(r);
      if (now < abre) items.push(h('span', { class: 'small' }, `Entrada a partir das ${time(new Date(abre).toISOString(), tz)}`));
      else if (now <= fecha) {
        items.push(actionButton(r, 'entrada', ['Registrar entrada', suffix(`de ${quem}`)], entrada(r, nome, quem, tz)));
      } else items.push(h('span', { class: 'small' }, `Prazo de entrada encerrado às ${time(new Date(fecha).toISOString(), tz)}`));
    }
    if (estado === 'presente') {
      items.push(actionButton(r, 'saida', ['Registrar saída', suffix(`de ${quem}`)], saida(r, nome, quem, tz)));
    }
    if (['solicitada', 'confirmada'].includes(r.status) && !r.checkinEm && Date.parse(r.inicio) > now) {
      items.push(actionButton(r, 'cancelar', ['Cancelar', suffix(`a reserva de ${quem}`)], cancelamento(r, nome, quem, tz), 'button--secondary'));
      // An occurrence of a series (a member's weekly room, often paid at the desk): the rest at once.
      if (r.serie) {
        items.push(actionButton(r, 'cancelar-serie', ['Cancelar esta e as próximas', suffix(`da série de ${quem}`)],
          cancelamentoDaSerie(r, nome, quem, tz), 'button--secondary'));
      }
    }
    return items.length ? h('div', { class: 'row-actions' }, items) : '—';
  }

  /** A row's action: `ask()` (a confirmation; false keeps everything as it was), then `run()`, then a refresh. */
  function actionButton(r, acao, label, { ask = async () => true, run }, kind = '') {
    const button = h('button', { type: 'button', class: `button button--small ${kind}`.trim(), dataset: { acao } }, label);
    button.addEventListener('click', async () => {
      const cell = button.closest('td');
      cell?.querySelector('.alert')?.remove();
      acting += 1;
      try {
        const answer = await ask();
        if (!answer) return;
        const original = [...button.childNodes];
        button.disabled = true;
        button.textContent = 'Registrando…';
        try {
          await run(answer);
          load({ quiet: true });
        } catch (error) {
          if (error?.name === 'AbortError') return;
          button.disabled = false;
          button.replaceChildren(...original);
          cell?.append(errorBox(error));
        }
      } finally {
        acting -= 1;
      }
    });
    return button;
  }

  function entrada(r, nome, quem, tz) {
    return {
      async run() {
        // The code is the member's; at the desk the operator reads it for them.
        const c = await api(`/api/reservas/${r.id}/checkin`, { signal });
        const feito = await new Action().run('/api/checkin', { body: { codigo: c.codigo, reservaId: r.id } });
        flash(`Entrada registrada: ${quem}, ${nome}, às ${time(feito.checkinEm ?? new Date().toISOString(), tz)}.`, 'sucesso');
      },
    };
  }

  function saida(r, nome, quem, tz) {
    return {
      ask: () => confirmDialog({
        title: 'Registrar a saída?',
        body: [`${quem} — ${nome}, ${time(r.inicio, tz)}–${time(r.fim, tz)}. Depois da saída a reserva não aceita nova entrada.`],
        confirmText: 'Registrar saída',
        cancelText: 'Voltar',
      }),
      async run() {
        const feito = await new Action().run(`/api/reservas/${r.id}/checkout`);
        flash(`Saída registrada: ${quem}, ${nome}, às ${time(feito.checkoutEm ?? new Date().toISOString(), tz)}.`, 'sucesso');
      },
    };
  }

  /**
   * The desk cancels a member's booking: refunded whole and its credits given back (the server
   * exempts an operator's cancellation), unless the operator applies the unit's policy, as if the
   * member had cancelled (`aplicarMulta`).
   */
  function cancelamento(r, nome, quem, tz) {
    const motivoField = field({ label: 'Motivo', name: 'motivo', optional: true, attrs: { maxlength: '200' } });
    // What the payment still holds (less what was given back already) comes back whole; with
    // the policy applied, less the fee it would charge now (a preview: the server decides).
    const { pago, multa: taxa, reembolso, dentro } = previaDoCancelamento(r, unidadeAtual()?.politicaDeCancelamento);
    const isento = pago > 0
      ? `Cancelada pela equipe, a reserva é reembolsada por inteiro (${money(pago)}), sem multa; créditos usados voltam ao saldo.`
      : 'Cancelada pela equipe, não há multa; créditos usados voltam ao saldo.';
    const comPolitica = dentro && pago > 0
      ? `Pela política da unidade: multa estimada de ${money(taxa)}, reembolso estimado de ${money(reembolso)}; dos créditos usados, se houver, parte fica retida.`
      : 'Pela política da unidade, cancelar agora não tem multa.';
    const { efeito, multa, opcao } = opcaoDaPolitica(isento, comPolitica);
    return {
      ask: async () => (await confirmDialog({
        title: 'Cancelar esta reserva?',
        body: [`${nome}, ${time(r.inicio, tz)}–${time(r.fim, tz)} — ${quem}.`, efeito],
        extra: h('div', {}, motivoField, opcao),
        confirmText: 'Cancelar reserva',
        cancelText: 'Manter',
        danger: true,
      })) && { motivo: motivoField.querySelector('input').value.trim(), aplicarMulta: multa.checked },
      async run({ motivo, aplicarMulta }) {
        const body = { ...(motivo ? { motivo } : {}), ...(aplicarMulta ? { aplicarMulta: true } : {}) };
        const res = await new Action().run(`/api/reservas/${r.id}/cancelamento`, { body });
        const c = res.cancelamento ?? { reembolso: 0, multa: 0 };
        flash(`Reserva cancelada. Reembolso: ${money(c.reembolso)}. Multa: ${money(c.multa)}.`, 'sucesso');
      },
    };
  }

  /**
   * The "apply the unit's policy" choice of the desk's cancellations: the checkbox, and the
   * paragraph that says what the cancellation does, `isento` or `comPolitica` as it is ticked.
   */
  function opcaoDaPolitica(isento, comPolitica) {
    const id = uid('aplicar-multa');
    const multa = h('input', { type: 'checkbox', id, name: 'aplicarMulta' });
    const efeito = h('p', { dataset: { efeito: '' } }, isento);
    multa.addEventListener('change', () => { efeito.textContent = multa.checked ? comPolitica : isento; });
    const opcao = h('div', { class: 'field' }, h('div', { class: 'checkbox' }, multa,
      h('label', { for: id }, 'Aplicar a política da unidade (multa e créditos retidos, como se o membro cancelasse)')));
    return { efeito, multa, opcao };
  }

  /**
   * The desk cancels this occurrence of a member's series and the later ones still held or
   * confirmed and not started, each refunded whole (an operator's cancellation) unless the
   * operator applies the unit's policy to each (`aplicarMulta`); the member gets one e-mail for
   * all of them. Only this occurrence is on the board: the later ones' fee is told as the rule.
   */
  function cancelamentoDaSerie(r, nome, quem, tz) {
    const motivoField = field({ label: 'Motivo', name: 'motivo', optional: true, attrs: { maxlength: '200' } });
    const politica = unidadeAtual()?.politicaDeCancelamento;
    const p = termosDeCancelamento(r, politica);
    const { pago, multa: taxa, reembolso, dentro } = previaDoCancelamento(r, politica);
    const esta = dentro && pago > 0
      ? `esta tem multa estimada de ${money(taxa)} (reembolso estimado de ${money(reembolso)})`
      : 'esta sai sem multa';
    const seguintes = p?.multaBP > 0
      ? `as seguintes, sem multa quando faltam ${p.horasSemMulta} h ou mais para o início`
      : 'as seguintes também';
    const { efeito, multa, opcao } = opcaoDaPolitica(
      'Cancelada pela equipe, cada reserva é reembolsada por inteiro, sem multa; créditos usados voltam ao saldo. As anteriores ficam como estão.',
      `Pela política da unidade, cada reserva como se o membro cancelasse: ${esta}; ${seguintes}. As anteriores ficam como estão.`);
    return {
      ask: async () => (await confirmDialog({
        title: 'Cancelar esta e as próximas reservas da série?',
        body: [
          `${nome}, ${time(r.inicio, tz)}–${time(r.fim, tz)} — ${quem}: a ${r.serie.numero}ª reserva da série e as seguintes que ainda não começaram.`,
          efeito,
          `${quem} recebe um e-mail com o resumo.`,
        ],
        extra: h('div', {}, motivoField, opcao),
        confirmText: 'Cancelar as reservas',
        cancelText: 'Manter a série',
        danger: true,
      })) && { motivo: motivoField.querySelector('input').value.trim(), aplicarMulta: multa.checked },
      async run({ motivo, aplicarMulta }) {
        const serie = await new Action().run(`/api/reservas/series/${r.serie.serieId}/cancelamento`, {
          body: { aPartirDe: r.serie.numero, ...(motivo ? { motivo } : {}), ...(aplicarMulta ? { aplicarMulta: true } : {}) },
        });
        const n = serie.ultimoCancelamento?.reservas.length ?? 1;
        const como = aplicarMulta ? 'pela política da unidade' : n > 1 ? 'reembolsadas por inteiro' : 'reembolsada por inteiro';
        flash(`${n > 1 ? `${n} reservas da série de ${quem} canceladas` : `Reserva da série de ${quem} cancelada`}, ${como}.`, 'sucesso');
      },
    };
  }

  /** The focused action button survives a refresh: the same action of the same booking (or visitor) gets focus back. */
  function focusKey() {
    const el = document.activeElement;
    if (!el || !content.contains(el)) return null;
    // In the walk-in form (moved, not rebuilt, by the refresh): the same control, the caret where it was.
    if (semAviso.form.contains(el)) return { semAviso: el, caret: [el.selectionStart ?? null, el.selectionEnd ?? null] };
    const row = el.closest('[data-reserva], [data-visita]');
    return {
      reserva: row?.dataset.reserva, visita: row?.dataset.visita, acao: el.dataset?.acao, board: el.classList.contains('board-scroll'),
    };
  }

  function restoreFocus(key) {
    if (!key) return;
    if (key.semAviso) {
      if (!key.semAviso.isConnected) return;
      key.semAviso.focus({ preventScroll: true });
      try {
        if (key.caret[0] !== null) key.semAviso.setSelectionRange(...key.caret);
      } catch { /* e-mail fields have no caret to set */ }
      return;
    }
    const scroller = content.querySelector('.board-scroll');
    if (key.board && scroller) { scroller.focus({ preventScroll: true }); return; }
    const row = (key.reserva && content.querySelector(`tr[data-reserva="${CSS.escape(key.reserva)}"]`))
      || (key.visita && content.querySelector(`tr[data-visita="${CSS.escape(key.visita)}"]`)) || null;
    const target = (key.acao && row?.querySelector(`[data-acao="${CSS.escape(key.acao)}"]`)) ?? row?.querySelector('button') ?? content.querySelector('h2');
    if (target) {
      if (!target.matches('button') && !target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
      target.focus({ preventScroll: true });
    }
  }

  // ---- the visitors of the day ---------------------------------------------------------------------

  function visitantes(day, tz) {
    const quem = (v) => nomeOuConta(day.pessoas.get(String(v.usuarioId).toLowerCase()), v.usuarioId);
    const tituloId = uid('visitantes');
    return h('section', { class: 'visitors-day', 'aria-labelledby': tituloId },
      h('h2', { id: tituloId }, 'Visitantes do dia'),
      // A walk-in arrives now: only today's page (in the unit's zone) takes one.
      data === todayIn(tz) ? semAviso.form : null,
      day.visitas.erro ? errorBox(day.visitas.erro) : table({
        caption: `Visitantes esperados em ${dateLong(data)}`,
        empty: 'Nenhum visitante esperado neste dia.',
        rows: day.visitas.itens,
        className: 'table--palavras table--visitas-dia',
        rowAttrs: (v) => ({ dataset: { visita: v.id, estado: v.situacao } }),
        columns: [
          { label: 'Horário', cell: (v) => time(v.chegadaPrevista, tz) },
          { label: 'Visitante', cell: (v) => visitante(v) },
          { label: 'Anfitrião', cell: (v) => quem(v) },
          { label: 'Situação', cell: (v) => visitaSituacao(v, tz) },
          { label: 'Ações', cell: (v) => visitaAcoes(v, tz, quem(v)) },
        ],
      }));
  }

  function visitante(v) {
    return [
      v.nome ?? h('span', { class: 'visits__erased' }, 'Dados apagados'),
      // Registered by the desk, not by the host: a visitor who came unannounced.
      visitaSemAviso(v) ? h('span', { class: 'small block visitors-day__note' }, 'Sem aviso: registrado pela recepção') : null,
    ];
  }

  function visitaSituacao(v, tz) {
    const parts = [badge(VISITA_SITUACAO[v.situacao] ?? v.situacao, VISITA_KIND[v.situacao])];
    if (v.chegouEm) parts.push(h('span', { class: 'small block' }, `Chegada às ${time(v.chegouEm, tz)}`));
    if (v.saiuEm) parts.push(h('span', { class: 'small block' }, `Saída às ${time(v.saiuEm, tz)}`));
    if (v.situacao === 'cancelada') parts.push(h('span', { class: 'small block' }, 'Cancelado pelo anfitrião'));
    return parts;
  }

  function visitaAcoes(v, tz, anfitriao) {
    const nome = v.nome ?? 'visitante';
    const suffix = (text) => h('span', { class: 'visually-hidden' }, ` ${text}`);
    // At the visitor's request (LGPD), their name and e-mail go now; the visit stays.
    const apagar = v.nome
      ? actionButton(v, 'apagar', ['Apagar dados', suffix(`de ${nome}`)], apagarVisitante(v, nome), 'button--secondary')
      : null;
    // The pass to print (cracha.js), while the visit is to come or under way and has a name.
    const cracha = v.nome
      ? link(`/admin/visitas/${encodeURIComponent(v.id)}/cracha?${new URLSearchParams({ unidade: v.unidadeId, data: v.dia })}`,
        ['Crachá', suffix(`de ${nome}`)], { class: 'button button--secondary' })
      : null;
    if (v.situacao === 'esperada') {
      const abre = Date.parse(v.chegadaPrevista) - CHEGADA_ANTECIPADA;
      const chegada = Date.now() < abre
        ? h('span', { class: 'small' }, `Chegada a partir de ${deadline(new Date(abre).toISOString(), tz)}`)
        : actionButton(v, 'chegada', ['Registrar chegada', suffix(`de ${nome}`)], chegadaDoVisitante(v, nome, anfitriao, tz));
      return h('div', { class: 'row-actions' }, chegada, cracha, apagar);
    }
    if (v.situacao === 'presente') {
      return h('div', { class: 'row-actions' },
        actionButton(v, 'saida', ['Registrar saída', suffix(`de ${nome}`)], saidaDoVisitante(v, nome, anfitriao, tz)), cracha, apagar);
    }
    return apagar ? h('div', { class: 'row-actions' }, apagar) : h('span', { class: 'visitors-day__none' }, '—');
  }

  function apagarVisitante(v, nome) {
    return {
      ask: () => confirmDialog({
        title: 'Apagar os dados deste visitante?',
        body: [`O nome e o e-mail de ${nome} são apagados agora, a pedido dele (LGPD); a visita continua na lista, sem eles. Não há como desfazer.`],
        confirmText: 'Apagar dados',
        cancelText: 'Voltar',
        danger: true,
      }),
      async run() {
        await new Action().run(`/api/admin/visitas/${encodeURIComponent(v.id)}/dados`, { method: 'DELETE' });
        flash('Dados do visitante apagados.', 'sucesso');
      },
    };
  }

  function chegadaDoVisitante(v, nome, anfitriao, tz) {
    return {
      async run() {
        const feito = await new Action().run(`/api/admin/visitas/${encodeURIComponent(v.id)}/chegada`);
        flash(`Chegada registrada: ${nome}, às ${time(feito.chegouEm ?? new Date().toISOString(), tz)}. Avisamos ${anfitriao}.`, 'sucesso');
      },
    };
  }

  function saidaDoVisitante(v, nome, anfitriao, tz) {
    return {
      ask: () => confirmDialog({
        title: 'Registrar a saída do visitante?',
        body: [`${nome}, esperado às ${time(v.chegadaPrevista, tz)} — anfitrião: ${anfitriao}. Depois da saída, esta visita não aceita nova chegada.`],
        confirmText: 'Registrar saída',
        cancelText: 'Voltar',
      }),
      async run() {
        const feito = await new Action().run(`/api/admin/visitas/${encodeURIComponent(v.id)}/saida`);
        flash(`Saída registrada: ${nome}, às ${time(feito.saiuEm ?? new Date().toISOString(), tz)}.`, 'sucesso');
      },
    };
  }

  // ---- a visitor who came unannounced ----------------------------------------------------------------

  /**
   * "Chegou alguém sem aviso?": the member they came to see, found by part of the e-mail
   * ("Buscar", then chosen in a list; an e-mail typed in full that only one account has needs no
   * list), the visitor's name and, optionally, e-mail. "Registrar chegada" registers the visit
   * for that member, expected now, and records the arrival at once: two calls. Built once per
   * page: each refresh moves it, with what was typed, into the day's new section.
   */
  function chegadaSemAviso() {
    // A failed registration's time: sent again unchanged, it is the same request (the same
    // Idempotency-Key), so a retry after a lost answer does not register the visitor twice.
    let tentativa = null;
    const tituloId = uid('sem-aviso');
    const resultado = h('div', { class: 'walk-in__result' });
    const form = h('form', { class: 'form panel walk-in', novalidate: true, 'aria-labelledby': tituloId });
    const anfitriao = buscaDeMembro({
      form, signal, quem: 'o membro que o visitante veio ver',
      busca: { name: 'anfitriao', label: 'E-mail do anfitrião', oque: 'anfitrião', verbo: 'registre' },
      escolha: { name: 'paraUsuarioId', label: 'Anfitrião' },
    });
    form.append(
      h('h3', { id: tituloId }, 'Chegou alguém sem aviso?'),
      h('p', { class: 'small walk-in__lead' },
        'Busque pelo e-mail (ou parte dele) o membro que o visitante veio ver: a visita fica em nome dele, que é avisado da chegada.'),
      h('div', { class: 'walk-in__fields' },
        anfitriao.node,
        field({ label: 'Nome do visitante', name: 'nome', required: true, attrs: { autocomplete: 'off', maxlength: '120' } }),
        field({ label: 'E-mail do visitante', name: 'email', type: 'email', optional: true, attrs: { autocomplete: 'off', spellcheck: 'false' } })),
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'button' }, 'Registrar chegada')),
      resultado);

    // As onSubmit() does, except that the button comes back even when the form is out of the page
    // (another day shown meanwhile): the form is kept, and shown again on today's page.
    const action = new Action();
    const enviar = form.querySelector('button[type=submit]');
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      if (enviar.disabled) return;
      clearErrors(form);
      replace(resultado);
      const restore = busy(enviar, 'Registrando…');
      acting += 1;
      try {
        await registrar();
      } catch (error) {
        if (error?.name !== 'AbortError') showFormError(form, error);
      } finally {
        acting -= 1;
        restore();
      }
    });

    async function registrar() {
      const host = await anfitriao.escolhido();
      if (!host) return;
      const unidadeId = select.value;
      const tz = tzOf();
      const nome = val(form, 'nome');
      const email = val(form, 'email');
      const chave = JSON.stringify([unidadeId, host.id, nome, email]);
      if (tentativa?.chave !== chave || Date.now() - tentativa.em > TENTATIVA_VALE) {
        tentativa = { chave, em: Date.now(), chegadaPrevista: isoWithOffset(Date.now(), tz) };
      }
      const body = { unidadeId, paraUsuarioId: host.id, chegadaPrevista: tentativa.chegadaPrevista, nome };
      if (email) body.email = email;
      const visita = await action.run('/api/visitas', { body });
      tentativa = null;
      const quem = visita.nome ?? nome;
      form.reset();
      anfitriao.esquecer();
      try {
        const feito = await new Action().run(`/api/admin/visitas/${encodeURIComponent(visita.id)}/chegada`);
        flash(`Chegada registrada: ${quem} (visita de ${host.nome}), às ${time(feito.chegouEm ?? new Date().toISOString(), tz)}. Avisamos ${host.nome}.`, 'sucesso');
      } catch (error) {
        if (error?.name === 'AbortError') return;
        replace(resultado, h('div', { class: 'alert alert--erro', role: 'alert' },
          h('p', {}, `${quem} ficou registrado como visita de ${host.nome}, mas a chegada não: ${describeError(error)} Use “Registrar chegada” na lista abaixo.`)));
      }
      // Past midnight the visit is on the new day: show that one.
      const hoje = todayIn(tz);
      if (hoje !== data) go(hoje);
      else load({ quiet: true });
    }

    /** Something typed in it, with the focus there: the refresh waits rather than move it under the typing. */
    const emUso = () => form.contains(document.activeElement)
      && ['anfitriao', 'nome', 'email'].some((n) => val(form, n) !== '');
    return { form, emUso };
  }

  // ---- live: a quiet refresh every 15 s while the page is in sight ----------------------------------
  const refresh = () => {
    if (document.visibilityState !== 'visible' || acting > 0 || document.querySelector('dialog[open]') || semAviso.emUso()
      || content.querySelector('.remarcacao')) return;
    load({ quiet: true });
  };
  const timer = setInterval(refresh, ATUALIZA_A_CADA);
  const onVisible = () => { if (document.visibilityState === 'visible') refresh(); };
  document.addEventListener('visibilitychange', onVisible);
  const stop = () => { clearInterval(timer); document.removeEventListener('visibilitychange', onVisible); };
  signal.addEventListener('abort', stop);

  load();
  return stop;
}
