// One space: its details and prices, a day view of its availability in the unit's time zone
// (opening on the next day it can be booked; blackouts shown as blocked time, with their reason),
// a quote line by line, and the booking (which holds the slot until `expiraEm`). Links lead to
// the space's week and to the unit's grid of the day; a link back from them picks a start (?de=).
// A signed-in member's quote spends their credits first (lines `creditos:*`): what they pay is
// said apart from the discounts, and a booking they pay in full needs no payment — it is
// confirmed at once, which the result waits for and says.

import { api, Action } from '../lib/api.js';
import { espaco as loadEspaco } from '../lib/catalog.js';
import { session } from '../lib/session.js';
import { h, link, replace, uid } from '../lib/dom.js';
import {
  TIPOS, METODOS, METODOS_DE_RESERVA, METODOS_DA_RECEPCAO, MOTIVOS_BLOQUEIO, FREQUENCIAS, MAXIMO_DE_OCORRENCIAS, frequenciaEmPalavras,
} from '../lib/labels.js';
import {
  money, todayIn, addDays, isDate, dateLong, dateShort, time, deadline, isoWithOffset, duration, zoneLabel, interval, localDate,
} from '../lib/format.js';
import { slots as cutSlots, endsFrom, clique, STEP_MINUTES } from '../lib/slots.js';
import {
  faixasDoDia, bloqueiosDoDia, motivoDoBloqueio, proximoDiaReservavel, duracaoMinima, locacaoVigente,
} from '../lib/agenda.js';
import {
  pageHeader, loadInto, facts, errorBox, showLoading, doneLoading, busy, field, announce, showFormError, clearErrors, val, table,
  radios, fieldError, poll,
} from '../lib/ui.js';
import { creditosUsados, creditosComOrigem, daEmpresa, usouCreditos, ehLinhaDeCredito } from '../lib/creditos.js';
import { buscaDeMembro } from '../lib/busca-de-membro.js';

export function render({ container, params, query, setQuery, signal }) {
  replace(container, pageHeader('Disponibilidade e reserva'));
  const body = h('div');
  container.append(body);
  loadInto(body, () => loadEspaco(params.id), (item) => screen(container, body, item, { query, setQuery, signal }), { signal });
}

function screen(container, body, item, { query, setQuery, signal }) {
  const { espaco, unidade, precos } = item;
  const tz = unidade?.fusoHorario ?? 'America/Sao_Paulo';
  const regras = espaco.regras ?? {};
  const minimo = duracaoMinima(item);
  const maximo = regras.duracaoMaximaMinutos ?? Infinity;
  const bookAction = new Action();

  container.querySelector('h1').textContent = espaco.nome;
  document.title = `${espaco.nome} · CoworkFlow`;
  container.querySelector('.page-header').append(h('p', { class: 'lead' },
    `${TIPOS[espaco.tipo] ?? espaco.tipo} · até ${espaco.capacidade} ${espaco.capacidade === 1 ? 'pessoa' : 'pessoas'}${unidade ? ` · ${unidade.nome}` : ''}`));

  // ---- details -----------------------------------------------------------------------------------
  const endereco = unidade?.endereco;
  // A desk or office let to someone now (or from a coming day) is theirs alone until its last day.
  const vigente = locacaoVigente(espaco, tz);
  const locacao = vigente
    ? `Locado a um cliente${vigente.jaComecou ? '' : ` a partir de ${dateShort(vigente.primeiro)}`} até ${dateShort(vigente.ultimo)}`
      + ' (último dia): não aceita reservas nesse período.'
    : null;
  const details = h('section', { class: 'panel', 'aria-labelledby': 'sobre' },
    h('h2', { id: 'sobre' }, 'Sobre o espaço'),
    facts([
      endereco ? ['Endereço', `${endereco.logradouro}, ${endereco.numero}${endereco.complemento ? ` ${endereco.complemento}` : ''} — ${endereco.bairro ? `${endereco.bairro}, ` : ''}${endereco.cidade}/${endereco.uf}`] : null,
      espaco.comodidades?.length ? ['Comodidades', espaco.comodidades.join(', ')] : null,
      precos ? ['Por hora', money(precos.porHora)] : ['Preço', 'Ainda sem tabela de preços: reservas em breve.'],
      precos ? ['Meio período', money(precos.meioPeriodo)] : null,
      precos ? ['Diária', money(precos.diaria)] : null,
      ['Duração mínima', duration(minimo)],
      unidade?.politicaDeCancelamento ? ['Cancelamento', politica(unidade.politicaDeCancelamento)] : null,
      locacao ? ['Locação', locacao] : null,
    ]),
    espaco.fotos?.length
      ? h('ul', { class: 'photos' }, espaco.fotos.map((f) => h('li', {}, h('img', { src: f.url, alt: f.legenda || `Foto de ${espaco.nome}`, loading: 'lazy' }))))
      : null);

  if (!espaco.ativo) {
    replace(body, details, h('div', { class: 'alert alert--info' }, h('p', {}, 'Este espaço não está aceitando reservas no momento.')));
    return;
  }

  // ---- day navigation --------------------------------------------------------------------------
  let data = isDate(query.get('data'))
    ? query.get('data')
    : proximoDiaReservavel(espaco, tz, { minimo, antecedenciaMinimaMinutos: regras.antecedenciaMinimaMinutos ?? 0 });
  const dateInputId = uid('data');
  const dateInput = h('input', { type: 'date', id: dateInputId, name: 'data', value: data, min: todayIn(tz) });
  const prev = h('button', { type: 'button', class: 'button button--secondary', onclick: () => go(addDays(data, -1)) }, '← Dia anterior');
  const next = h('button', { type: 'button', class: 'button button--secondary', onclick: () => go(addDays(data, 1)) }, 'Próximo dia →');
  dateInput.addEventListener('change', () => { if (isDate(dateInput.value)) go(dateInput.value); });
  const dayTitle = h('h3', { class: 'day__title', id: 'dia-titulo', 'aria-live': 'polite' });
  const dayBlocks = h('ul', { class: 'day__blocks', 'aria-label': 'Bloqueios neste dia' });
  const dayView = h('div', { class: 'day' });
  const weekLink = link('', 'Ver a semana', { class: 'button button--secondary button--small' });
  const gridLink = unidade ? link('', `Todos os espaços de ${unidade.nome} neste dia`, { class: 'button button--secondary button--small' }) : null;
  const views = h('p', { class: 'actions day__views' }, weekLink, gridLink);
  // The chosen range in words, and what the last click did to it (read aloud as it changes).
  const selectionRange = h('p', { class: 'selection__range' });
  const selectionNote = h('p', { class: 'selection__note' });
  const clearButton = h('button', { type: 'button', class: 'button button--secondary button--small', onclick: () => clearSelection() },
    'Limpar seleção');
  const selectionBox = h('div', { class: 'selection' },
    h('div', { class: 'selection__status', role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' }, selectionRange, selectionNote),
    clearButton);

  // ---- booking form ------------------------------------------------------------------------------
  const inicioSelect = field({ label: 'Início', name: 'inicio', type: 'select', options: [['', 'Escolha um horário livre']] });
  const fimSelect = field({ label: 'Fim', name: 'fim', type: 'select', options: [['', '—']] });
  const cupomField = field({ label: 'Cupom de desconto', name: 'cupom', optional: true, attrs: { autocomplete: 'off', maxlength: '32' } });
  const form = h('form', { class: 'form booking-form', novalidate: true, 'aria-labelledby': 'sua-reserva' },
    h('h3', { id: 'sua-reserva' }, session.isAdmin ? 'A reserva' : 'Sua reserva'),
    h('div', { class: 'form__row' }, inicioSelect, fimSelect),
    cupomField,
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'button' }, 'Ver preço')));
  // The reception books for a member (found by e-mail): the quote, the booking, its price and
  // credits are theirs. Left blank, the operator books for themselves.
  const paraQuem = session.isAdmin
    ? buscaDeMembro({
      form, signal, quem: 'o membro para quem é a reserva',
      busca: {
        name: 'para', label: 'Reservar para (e-mail do membro)', optional: true, oque: 'membro',
        hint: 'Na recepção: a reserva, o preço e os créditos são do membro. Em branco, a reserva é sua.',
      },
      escolha: { name: 'paraUsuarioId', label: 'Membro' },
      onChange: () => { replace(quoteBox); replace(resultBox); },
    })
    : null;
  if (paraQuem) form.insertBefore(h('div', { class: 'booking-form__para' }, paraQuem.node), form.querySelector('.form__row'));
  // A company's manager books for the company's people too: "Para mim" or one of them.
  let colegas = [];
  const paraColega = field({ label: 'Reservar para', name: 'paraColega', type: 'select', options: [['', 'Para mim']] });
  paraColega.hidden = true;
  if (!paraQuem && session.signedIn) {
    form.insertBefore(paraColega, form.querySelector('.form__row'));
    colegasDaEmpresa(signal).then((lista) => {
      colegas = lista;
      if (!colegas.length) return;
      const select = paraColega.querySelector('select');
      replace(select, h('option', { value: '' }, 'Para mim'), colegas.map((c) => h('option', { value: c.id }, c.nome)));
      select.addEventListener('change', () => { replace(quoteBox); replace(resultBox); });
      paraColega.hidden = false;
    });
  }
  const quoteBox = h('section', { class: 'quote', 'aria-live': 'polite', 'aria-labelledby': 'orcamento' });
  const resultBox = h('div', { class: 'result', tabindex: '-1' });

  const booking = h('section', { class: 'panel', 'aria-labelledby': 'escolha' },
    h('h2', { id: 'escolha' }, 'Escolha o horário'),
    h('p', { class: 'small' }, `Horários no ${zoneLabel(tz)}. Clique no horário em que a reserva começa e depois no último horário dela.`),
    h('div', { class: 'day-nav' }, prev, h('div', { class: 'field field--inline' }, h('label', { for: dateInputId }, 'Data'), dateInput), next),
    views, dayTitle, dayBlocks, dayView, selectionBox, form, quoteBox, resultBox);

  replace(body, h('div', { class: 'space-layout' }, booking, details));

  let list = [];
  let selected = { inicio: null, fim: null };
  // A range chosen before signing in: the login's "volta" carries the day, `de`, `ate` and the
  // coupon, and the range is chosen and quoted again once the day has loaded.
  // A start alone (?de=, from the week view or the unit's grid) is picked as a click would.
  const hhmm = (text) => /^\d{2}:\d{2}$/.test(text ?? '');
  let pending = hhmm(query.get('de')) && hhmm(query.get('ate'))
    ? { de: query.get('de'), ate: query.get('ate'), cupom: query.get('cupom') ?? '' }
    : null;
  let pendingStart = hhmm(query.get('de')) && !pending ? query.get('de') : null;

  function go(newDate) {
    if (newDate < todayIn(tz)) return;
    data = newDate;
    dateInput.value = data;
    loadDay();
  }

  function loadDay() {
    setQuery({ data });
    prev.disabled = data <= todayIn(tz);
    dayTitle.textContent = dateLong(data);
    weekLink.href = `/espacos/${espaco.id}/semana?data=${data}`;
    if (gridLink) gridLink.href = `/unidades/${unidade.id}/dia?data=${data}`;
    replace(dayBlocks);
    dayBlocks.hidden = true;
    selected = { inicio: null, fim: null };
    selectionBox.hidden = true;
    replace(quoteBox);
    showLoading(dayView, 'Carregando horários…');
    api(`/api/espacos/${espaco.id}/disponibilidade`, { query: { data }, signal })
      .then((disp) => {
        doneLoading(dayView);
        list = cutSlots(disp, {
          antecedenciaMinimaMinutos: regras.antecedenciaMinimaMinutos ?? 0,
          abertura: faixasDoDia(espaco, data, tz),
          bloqueios: bloqueiosDoDia(espaco, data, tz),
        });
        drawBlocks();
        drawDay();
        fillStarts();
        showSelection();
        if (pending) restore(pending);
        else if (pendingStart) pickStart(pendingStart);
        pending = null;
        pendingStart = null;
        const livres = list.filter((s) => s.estado === 'livre').length;
        announce(livres ? `${dateLong(data)}: ${livres} horários livres` : `${dateLong(data)}: sem horários livres`);
      })
      .catch((error) => {
        if (error?.name === 'AbortError') return;
        doneLoading(dayView);
        replace(dayView, errorBox(error, { retry: loadDay }));
      });
  }

  /**
   * The day's blackouts in words, over the slots they block: "Bloqueado das 14:00 às 16:00 —
   * Manutenção: Pintura", "Bloqueado o dia todo — Feriado", "Locado a um cliente o dia todo".
   */
  function drawBlocks() {
    const porBloqueio = new Map();
    for (const slot of list.filter((s) => s.bloqueio)) {
      const b = porBloqueio.get(slot.bloqueio) ?? { inicio: slot.inicio, fim: slot.fim };
      porBloqueio.set(slot.bloqueio, { inicio: Math.min(b.inicio, slot.inicio), fim: Math.max(b.fim, slot.fim) });
    }
    replace(dayBlocks, [...porBloqueio].map(([bloqueio, { inicio, fim }]) => {
      const quando = list.every((s) => s.bloqueio === bloqueio) ? 'o dia todo' : `das ${time(inicio, tz)} às ${time(fim, tz)}`;
      // A lease says it in its own words; its description (the operator's) follows.
      const locacao = bloqueio.motivo === 'locacao';
      const motivo = locacao ? bloqueio.descricao : motivoDoBloqueio(bloqueio);
      return h('li', {},
        h('strong', {}, `${locacao ? 'Locado a um cliente' : 'Bloqueado'} ${quando}`),
        motivo ? ` — ${motivo}` : '');
    }));
    dayBlocks.hidden = !porBloqueio.size;
  }

  function drawDay() {
    if (!list.length) {
      replace(dayView, h('p', { class: 'empty' }, 'Fechado neste dia. Escolha outra data.'));
      return;
    }
    const shared = espaco.capacidade > 1 && ['estacao_compartilhada', 'mesa_fixa'].includes(espaco.tipo);
    replace(dayView, h('ol', { class: 'slots', 'aria-label': `Horários de ${dateLong(data)}` },
      list.map((slot, i) => {
        const label = `${time(slot.inicio, tz)}`;
        const inRange = selected.inicio !== null && slot.inicio >= selected.inicio && slot.fim <= (selected.fim ?? selected.inicio);
        const estado = {
          livre: shared ? `${slot.vagas} ${slot.vagas === 1 ? 'vaga' : 'vagas'}` : 'Livre',
          ocupado: shared ? 'Lotado' : 'Ocupado',
          bloqueado: 'Bloqueado',
          passado: 'Encerrado',
        }[slot.estado];
        // A blackout's kind in the slot ("Manutenção"), its whole reason in the title and read aloud.
        const bloqueio = slot.estado === 'bloqueado' ? slot.bloqueio : null;
        const content = [h('span', { class: 'slot__time' }, label), h('span', { class: 'slot__state' }, estado),
          bloqueio ? h('span', { class: 'slot__reason' }, MOTIVOS_BLOQUEIO[bloqueio.motivo] ?? bloqueio.motivo) : null];
        const className = `slot slot--${slot.estado}${inRange ? ' slot--selected' : ''}`;
        if (slot.estado !== 'livre') {
          return h('li', {}, h('span', { class: className, title: bloqueio ? `Bloqueado: ${motivoDoBloqueio(bloqueio)}` : null }, content,
            h('span', { class: 'visually-hidden' }, ` (${time(slot.inicio, tz)} às ${time(slot.fim, tz)}${bloqueio ? `: ${motivoDoBloqueio(bloqueio)}` : ''})`)));
        }
        return h('li', {}, h('button', {
          type: 'button', class: className, 'aria-pressed': String(inRange), dataset: { inicio: String(slot.inicio) },
          'aria-label': `${time(slot.inicio, tz)} às ${time(slot.fim, tz)}, ${estado.toLowerCase()}`,
          onclick: () => pick(i),
        }, content));
      })));
  }

  function fillStarts() {
    const select = inicioSelect.querySelector('select');
    const starts = list.map((s, i) => [s, i]).filter(([, i]) => endsFrom(list, i, { minimo, maximo }).length);
    replace(select,
      h('option', { value: '' }, starts.length ? 'Escolha um horário livre' : 'Nenhum horário livre'),
      starts.map(([s]) => h('option', { value: String(s.inicio), selected: s.inicio === selected.inicio }, time(s.inicio, tz))));
    fillEnds();
  }

  function fillEnds() {
    const select = fimSelect.querySelector('select');
    const i = list.findIndex((s) => s.inicio === selected.inicio);
    const ends = i >= 0 ? endsFrom(list, i, { minimo, maximo }) : [];
    replace(select, ends.length ? null : h('option', { value: '' }, '—'),
      ends.map((e) => h('option', { value: String(e), selected: e === selected.fim }, `${time(e, tz)} (${duration((e - selected.inicio) / 60000)})`)));
    if (ends.length && !ends.includes(selected.fim)) selected.fim = ends[0];
    select.value = selected.fim ? String(selected.fim) : '';
  }

  /**
   * A click on a free slot (slots.js `clique`): the first picks the start, the next ones the end,
   * stretched to the minimum or brought back to the maximum; a click before the start, or past
   * something taken or closed, starts a new selection. Whatever it did is said next to the range.
   */
  function pick(i) {
    const slot = list[i];
    const t = (ms) => time(ms, tz);
    const before = { ...selected };
    const result = clique(list, selected, i, { minimo, maximo });
    if (result.como === 'nao_cabe') {
      showSelection(`A partir das ${t(slot.inicio)} não há ${duration(minimo)} livres seguidos (a duração mínima). `
        + (selected.inicio !== null ? `A seleção continua das ${t(selected.inicio)} às ${t(selected.fim)}.` : 'Escolha outro horário.'));
      return;
    }
    selected = { inicio: result.inicio, fim: result.fim };
    const next = 'Clique em outro horário para terminar mais tarde.';
    const notes = {
      inicio: () => `Começa às ${t(selected.inicio)}${minimo > STEP_MINUTES ? `, com a duração mínima de ${duration(minimo)}` : ''}. ${next}`,
      fim: () => `Termina às ${t(selected.fim)}.`,
      minimo: () => `A duração mínima é ${duration(minimo)}: a reserva vai até as ${t(selected.fim)}.`,
      maximo: () => `A duração máxima é ${duration(maximo)}: a reserva termina às ${t(selected.fim)}.`,
      antes: () => `Nova seleção: começa às ${t(selected.inicio)} (antes começava às ${t(before.inicio)}). ${next}`,
      bloqueado: () => `Nova seleção: começa às ${t(selected.inicio)}, porque ${{
        fechado: `o espaço fecha às ${t(result.barreira.em)}`,
        bloqueado: `o horário das ${t(result.barreira.em)} está bloqueado`,
      }[result.barreira.tipo] ?? `o horário das ${t(result.barreira.em)} está ocupado`}. ${next}`,
    };
    changed(notes[result.como]());
    dayView.querySelector(`button[data-inicio="${slot.inicio}"]`)?.focus();
  }

  /** Picks the start "hh:mm" a link chose (the week view, the unit's grid), as a click on it would. */
  function pickStart(de) {
    setQuery({ de: '' });
    const i = list.findIndex((s) => time(s.inicio, tz) === de);
    if (i < 0 || list[i].estado !== 'livre') {
      showSelection(`O horário das ${de} não está mais livre. Escolha outro.`);
      return;
    }
    pick(i);
  }

  /** Chooses again the range picked before signing in ({de, ate, cupom}) and quotes it. */
  function restore({ de, ate, cupom }) {
    setQuery({ de: '', ate: '', cupom: '' });
    const i = list.findIndex((s) => time(s.inicio, tz) === de);
    const fim = i >= 0 ? endsFrom(list, i, { minimo, maximo }).find((e) => time(e, tz) === ate) : undefined;
    if (fim === undefined || list[i].estado !== 'livre') {
      showSelection(`O horário que você escolheu (das ${de} às ${ate}) não está mais livre. Escolha outro.`);
      return;
    }
    selected = { inicio: list[i].inicio, fim };
    if (cupom) cupomField.querySelector('input').value = cupom;
    changed(`Este é o horário que você escolheu antes de entrar.`);
    form.requestSubmit();
  }

  function clearSelection() {
    selected = { inicio: null, fim: null };
    changed('Seleção desfeita. Clique no horário em que a reserva começa.');
    dayView.querySelector('.slots button')?.focus();
  }

  /** The range in words ("Das 14:00 às 15:00 (1 h)") and `note`, what the last change did. */
  function showSelection(note = '') {
    selectionBox.hidden = !list.some((s) => s.estado === 'livre');
    clearButton.hidden = selected.inicio === null;
    if (selected.inicio !== null && selected.fim !== null) {
      replace(selectionRange, h('strong', {}, `Das ${time(selected.inicio, tz)} às ${time(selected.fim, tz)}`),
        ` (${duration((selected.fim - selected.inicio) / 60000)})`);
    } else {
      replace(selectionRange, 'Nenhum horário escolhido.');
      if (!note) note = 'Clique no horário em que a reserva começa.';
    }
    selectionNote.textContent = note;
  }

  function changed(note) {
    replace(quoteBox);
    replace(resultBox);
    fillStarts();
    drawDay();
    showSelection(note);
  }

  inicioSelect.querySelector('select').addEventListener('change', (event) => {
    selected = { inicio: event.target.value ? Number(event.target.value) : null, fim: null };
    changed();
  });
  fimSelect.querySelector('select').addEventListener('change', (event) => {
    selected.fim = event.target.value ? Number(event.target.value) : null;
    replace(quoteBox);
    drawDay();
    showSelection();
  });
  cupomField.querySelector('input').addEventListener('input', () => replace(quoteBox));

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors(form);
    if (!selected.inicio || !selected.fim) {
      showFormError(form, { code: 'dados_invalidos', message: 'escolha o início e o fim da reserva', campo: 'inicio' });
      return;
    }
    const pedido = {
      espacoId: espaco.id,
      inicio: isoWithOffset(selected.inicio, tz),
      fim: isoWithOffset(selected.fim, tz),
    };
    const cupom = val(form, 'cupom');
    if (cupom) pedido.cupom = cupom;
    let membro;
    if (paraQuem) {
      membro = await paraQuem.escolhido({ opcional: true });
      if (membro === null) return;
    } else if (!paraColega.hidden && val(form, 'paraColega')) {
      membro = colegas.find((c) => c.id === val(form, 'paraColega'));
    }
    if (membro) pedido.paraUsuarioId = membro.id;
    const button = form.querySelector('button[type=submit]');
    const restore = busy(button, 'Calculando…');
    showLoading(quoteBox, 'Calculando o preço…');
    try {
      const cotacao = await api('/api/precos/cotacao', { method: 'POST', body: pedido, idempotent: false, signal });
      doneLoading(quoteBox);
      showQuote(cotacao, pedido, undefined, membro);
    } catch (error) {
      if (error?.name === 'AbortError') return;
      doneLoading(quoteBox);
      replace(quoteBox);
      showFormError(form, error);
    } finally {
      restore();
    }
  });

  /**
   * `membro`: who the booking is for, when the reception books for a member ({id, nome, email})
   * or a company's manager for one of its people ({id, nome}).
   */
  function showQuote(cotacao, pedido, aviso, membro) {
    const rows = cotacao.linhas.map((l) => ({ ...l }));
    // The booking carries the total shown here: if the price changes meanwhile, the server
    // refuses it (preco_alterado) instead of charging another amount.
    // Signed out: log in (or sign up) and come back to this space, day and range.
    const volta = () => {
      const back = new URLSearchParams({ data, de: time(selected.inicio, tz), ate: time(selected.fim, tz) });
      if (pedido.cupom) back.set('cupom', pedido.cupom);
      return encodeURIComponent(`${location.pathname}?${back}`);
    };
    const action = session.signedIn
      ? paymentForm({ ...pedido, totalEsperado: cotacao.total }, { comCreditos: usouCreditos(cotacao), membro })
      : h('p', {}, link(`/entrar?volta=${volta()}`, 'Entre para reservar', { class: 'button' }),
        ' ou ', link(`/cadastro?volta=${volta()}`, 'crie uma conta'), '.');
    // Credits are discounts to the API (`descontos` counts them); the member reads them apart.
    const pagoComCreditos = -rows.filter(ehLinhaDeCredito).reduce((sum, l) => sum + l.valor, 0);
    const descontos = cotacao.descontos - pagoComCreditos;
    const comCreditos = usouCreditos(cotacao) || pagoComCreditos > 0;
    replace(quoteBox,
      h('h3', { id: 'orcamento' }, membro ? `Preço para ${membro.nome}` : 'Preço'),
      aviso ? h('p', { class: 'alert alert--erro', role: 'alert' }, aviso) : null,
      membro ? h('p', { class: 'quote__para' }, 'Reserva para ', h('strong', {}, membro.nome),
        `${membro.email ? ` (${membro.email})` : ''}: o preço e os créditos são os desta conta, e a reserva fica nela.`) : null,
      h('p', {}, interval(pedido.inicio, pedido.fim, tz), cotacao.duracaoMinutos ? ` (${duration(cotacao.duracaoMinutos)})` : ''),
      table({
        caption: 'Composição do preço',
        columns: [
          { label: 'Item', cell: (l) => l.descricao },
          { label: 'Valor', cell: (l) => money(l.valor), class: 'num' },
        ],
        rows,
        rowAttrs: (l) => (ehLinhaDeCredito(l) ? { class: 'quote-line--credito', dataset: { codigo: l.codigo } } : { dataset: { codigo: l.codigo } }),
      }),
      facts([
        ['Subtotal', money(cotacao.subtotal)],
        descontos ? ['Descontos', `− ${money(descontos)}`] : null,
        // "(2 h do seu saldo)": hours are not money, so the amount alone would not say what was
        // spent; nor whose, when the company's pool pays some.
        comCreditos ? ['Pago com créditos', `− ${money(pagoComCreditos)}${cotacao.creditos?.minutos > 0 || daEmpresa(cotacao.creditos) ? ` (${creditosComOrigem(cotacao.creditos)})` : ''}`] : null,
        ['Total', h('strong', { class: 'total' }, money(cotacao.total))],
      ]),
      quoteNote(cotacao, comCreditos, membro),
      action);
  }

  /** What the member pays, in words, when credits or discounts took part of it (or all). */
  function quoteNote(cotacao, comCreditos, membro) {
    if (!session.signedIn) {
      return h('p', { class: 'small' }, 'Tem créditos? Depois de entrar, eles aparecem descontados aqui.');
    }
    if (membro) {
      if (cotacao.total === 0) {
        return h('p', { class: 'alert alert--sucesso quote__credits' }, h('strong', {}, 'Nada a pagar. '),
          comCreditos
            ? `Os créditos de ${membro.nome} cobrem esta reserva (${creditosComOrigem(cotacao.creditos)}); ela é confirmada assim que você reservar.`
            : 'Os descontos cobrem esta reserva; ela é confirmada assim que você reservar.');
      }
      return comCreditos
        ? h('p', { class: 'alert alert--info quote__credits' },
          `Os créditos de ${membro.nome} pagam ${creditosComOrigem(cotacao.creditos)} desta reserva; o restante, ${money(cotacao.total)}, é pago abaixo.`)
        : null;
    }
    if (cotacao.total === 0) {
      return h('p', { class: 'alert alert--sucesso quote__credits' }, h('strong', {}, 'Nada a pagar. '),
        comCreditos
          ? `${daEmpresa(cotacao.creditos) ? 'Os créditos' : 'Seus créditos'} cobrem esta reserva (${creditosUsados(cotacao.creditos) ? creditosComOrigem(cotacao.creditos) : `${money(cotacao.subtotal)} do seu saldo`}); ela é confirmada assim que você reservar.`
          : 'Os descontos cobrem esta reserva; ela é confirmada assim que você reservar.');
    }
    if (comCreditos) {
      return h('p', { class: 'alert alert--info quote__credits' },
        daEmpresa(cotacao.creditos)
          ? `Os créditos pagam ${creditosComOrigem(cotacao.creditos)} desta reserva; o restante, ${money(cotacao.total)}, você paga abaixo.`
          : `Seus créditos pagam ${creditosUsados(cotacao.creditos)} desta reserva; o restante, ${money(cotacao.total)}, você paga abaixo.`);
    }
    return null;
  }

  /** The least time before the start for a boleto (the server's `Pagamento.Boleto.antecedenciaMinima`). */
  const BOLETO_ANTECEDENCIA_MS = 2 * 24 * 3600 * 1000;

  /**
   * How to pay (chosen now: the charge is created with the booking), whether to repeat, and the
   * "Reservar" button; with nothing to pay (credits or discounts cover it all) no method is asked
   * for. For `membro` (the reception or a company's manager books for someone) the booking and the
   * series are theirs; the reception may also take the payment at the desk (`manual`, its default).
   */
  function paymentForm(pedido, { comCreditos = false, membro } = {}) {
    const repetir = repeatFields(pedido.inicio);
    const recepcao = Boolean(membro) && session.isAdmin;
    const reservar = membro ? `Reservar para ${membro.nome}` : 'Reservar';
    const reservarSerie = membro ? `Reservar a série para ${membro.nome}` : 'Reservar a série';
    if (pedido.totalEsperado === 0) {
      const label = membro ? reservar : comCreditos ? 'Reservar com créditos' : 'Reservar sem pagar';
      const button = h('button', { type: 'submit', class: 'button button--primary-large' }, label);
      // A series may need a card for the occurrences the credits no longer cover.
      const token = field({
        label: 'Token do cartão', name: 'cartaoToken', optional: true,
        hint: 'Para as ocorrências que os créditos ou descontos não cobrirem; sem cartão, elas não são reservadas.',
        attrs: { autocomplete: 'off', spellcheck: 'false', maxlength: '200' },
      });
      const form = h('form', { class: 'form payment-choice', novalidate: true, 'aria-label': membro ? `Reserva para ${membro.nome}` : 'Reserva sem pagamento' },
        repetir.node, token, h('div', { class: 'actions' }, button));
      const aviso = h('p', { class: 'small', 'aria-live': 'polite' });
      form.insertBefore(aviso, form.querySelector('.actions'));
      const sync = () => {
        token.hidden = !repetir.value();
        button.textContent = repetir.value() ? reservarSerie : label;
        aviso.textContent = repetir.value()
          ? `Cada ocorrência é reservada pelo seu próprio preço: as que os créditos ou descontos não cobrirem inteiras vão para o cartão${pedido.cupom ? '; o cupom vale para cada ocorrência enquanto tiver usos' : ''}.`
          : '';
      };
      form.addEventListener('change', sync);
      sync();
      form.addEventListener('submit', (event) => {
        event.preventDefault();
        clearErrors(form);
        const serie = repetir.value();
        if (serie) {
          const cartaoToken = val(form, 'cartaoToken');
          return bookSeries({ ...serieDe(pedido), ...serie, ...(cartaoToken ? { pagamento: { metodo: 'cartao', cartaoToken } } : {}) }, button, form, membro);
        }
        return book({ ...pedido }, button, form, membro);
      });
      return form;
    }
    const padrao = recepcao ? 'manual' : 'pix';
    // A series is paid per occurrence as each is booked: by card, or at the desk.
    const naSerie = recepcao ? ['manual', 'cartao'] : ['cartao'];
    const metodo = radios({
      legend: 'Forma de pagamento', name: 'metodo', checked: padrao,
      options: Object.entries(recepcao ? METODOS_DA_RECEPCAO : METODOS_DE_RESERVA),
    });
    const token = cartaoField();
    const notes = membro
      ? {
        manual: 'Recebido agora, aqui na recepção: a reserva é confirmada na hora. Se for cancelada com reembolso, o valor é devolvido na recepção.',
        pix: recepcao
          ? `${membro.nome} paga pelo QR code (nesta tela, depois de reservar, ou em Minhas reservas); o horário fica guardado até lá.`
          : `${membro.nome} paga pelo PIX em Minhas reservas; o horário fica guardado por pouco tempo (o prazo aparece lá).`,
        cartao: recepcao ? 'A cobrança no cartão é feita assim que você reservar.' : 'A cobrança é feita no cartão informado (o seu ou o da empresa) assim que você reservar.',
        boleto: `${membro.nome} paga a linha digitável até o vencimento (em Minhas reservas); o horário fica guardado até lá.`,
      }
      : {
        pix: 'Você recebe um QR code e o código PIX copia e cola; a confirmação chega em segundos.',
        cartao: 'A cobrança no cartão é feita assim que você reservar.',
        boleto: 'Você recebe a linha digitável; pague até o vencimento (um dia antes do fim do prazo, para compensar) para não perder o horário.',
      };
    semBoletoEmCimaDaHora(metodo, pedido);
    const note = h('p', { class: 'small', 'aria-live': 'polite' });
    const button = h('button', { type: 'submit', class: 'button button--primary-large' }, reservar);
    const form = h('form', { class: 'form payment-choice', novalidate: true, 'aria-label': membro ? `Pagamento e reserva para ${membro.nome}` : 'Forma de pagamento e reserva' },
      repetir.node, metodo, token, note, h('div', { class: 'actions' }, button));
    const boletoAntes = metodo.querySelector('input[value="boleto"]').disabled;
    const sync = () => {
      const serie = repetir.value();
      for (const input of metodo.querySelectorAll('input')) {
        input.disabled = serie ? !naSerie.includes(input.value) : input.value === 'boleto' && boletoAntes;
      }
      if (serie && !naSerie.includes(form.elements.metodo.value)) metodo.querySelector(`input[value="${naSerie[0]}"]`).checked = true;
      const chosen = form.elements.metodo.value || padrao;
      token.hidden = chosen !== 'cartao';
      const cada = chosen === 'manual'
        ? 'Numa série, cada reserva é registrada como paga aqui na recepção quando é feita, pelo seu próprio preço (receba o total das reservadas)'
        : 'Numa série, cada reserva é cobrada no cartão quando é feita, pelo seu próprio preço (horário de pico e fim de semana podem mudá-lo)';
      note.textContent = serie
        ? `${cada}; PIX e boleto, só numa reserva avulsa.${pedido.cupom ? ' O cupom vale para cada ocorrência enquanto tiver usos (um uso cada); as demais, pelo seu próprio preço.' : ''}`
        : notes[chosen] ?? '';
      button.textContent = serie ? reservarSerie : reservar;
    };
    form.addEventListener('change', sync);
    sync();
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      clearErrors(form);
      const chosen = form.elements.metodo.value || padrao;
      const pagamento = { metodo: chosen };
      if (chosen === 'cartao') {
        pagamento.cartaoToken = val(form, 'cartaoToken');
        if (!pagamento.cartaoToken) return fieldError(form, 'cartaoToken', 'Informe o token do cartão.');
      }
      const serie = repetir.value();
      if (serie) return bookSeries({ ...serieDe(pedido), ...serie, pagamento }, button, form, membro);
      return book({ ...pedido, pagamento }, button, form, membro);
    });
    return form;
  }

  /** The card's token at the provider (the sandbox's words on which tokens it declines). */
  function cartaoField() {
    return field({
      label: 'Token do cartão', name: 'cartaoToken',
      hint: 'O cartão é cadastrado no provedor de pagamento, que devolve um token. No ambiente de testes, qualquer token é aprovado (ex.: tok_visa); tok_sandbox_recusado e tok_sandbox_sem_saldo são recusados.',
      attrs: { autocomplete: 'off', spellcheck: 'false', maxlength: '200' },
    });
  }

  /** A boleto needs a day to be paid and a day to clear (the server refuses it otherwise): disabled, saying why. */
  function semBoletoEmCimaDaHora(metodo, pedido) {
    if (Date.parse(pedido.inicio) - Date.now() >= BOLETO_ANTECEDENCIA_MS) return;
    const boleto = metodo.querySelector('input[value="boleto"]');
    boleto.disabled = true;
    boleto.closest('.checkbox').append(h('span', { class: 'small' }, ' (só para reservas a partir de 2 dias)'));
  }

  /** The body of a series from a booking's: the same space, first slot, person and coupon (no expected total). */
  function serieDe(pedido) {
    const serie = { espacoId: pedido.espacoId, inicio: pedido.inicio, fim: pedido.fim };
    if (pedido.paraUsuarioId) serie.paraUsuarioId = pedido.paraUsuarioId;
    if (pedido.cupom) serie.cupom = pedido.cupom;
    return serie;
  }

  /** The unit's local date ("2026-12-08") of an instant the API gave, or null. */
  function diaDe(iso) {
    const ms = Date.parse(iso ?? '');
    return Number.isFinite(ms) ? localDate(ms, tz) : null;
  }

  /**
   * "Repetir": not at all (the default), every week, every other week, Monday to Friday, the
   * same weekday of every month or the same day of every month (the ones `inicio` gives, named),
   * and how many times. `value()`
   * is null for a single booking, else {frequencia, ocorrencias}.
   */
  function repeatFields(inicio) {
    // "Todo mês" names the weekday of the month the first occurrence gives (the second Tuesday),
    // or its day of the month (the 15th).
    const dia = diaDe(inicio);
    const frequencia = field({
      label: 'Repetir', name: 'frequencia', type: 'select', value: '',
      options: [['', 'Não repetir'], ...Object.keys(FREQUENCIAS).map((f) => [f, frequenciaEmPalavras(f, dia)])],
    });
    const vezes = field({
      label: 'Quantas vezes, contando esta', name: 'ocorrencias', type: 'number', value: 4,
      hint: `De 2 a ${MAXIMO_DE_OCORRENCIAS}. Cada uma é uma reserva; as que não couberem (horário ocupado, fechado) são puladas.`,
      attrs: { min: '2', max: String(MAXIMO_DE_OCORRENCIAS), step: '1', inputmode: 'numeric' },
    });
    const node = h('div', { class: 'repeat' }, frequencia, vezes);
    const select = frequencia.querySelector('select');
    const sync = () => { vezes.hidden = !select.value; };
    select.addEventListener('change', sync);
    sync();
    return {
      node,
      value: () => (select.value ? { frequencia: select.value, ocorrencias: Number(vezes.querySelector('input').value) } : null),
    };
  }

  async function bookSeries(serie, button, form, membro) {
    if (button.disabled) return;
    if (!Number.isInteger(serie.ocorrencias) || serie.ocorrencias < 2 || serie.ocorrencias > MAXIMO_DE_OCORRENCIAS) {
      fieldError(form, 'ocorrencias', `Escolha de 2 a ${MAXIMO_DE_OCORRENCIAS} vezes.`);
      return;
    }
    const restore = busy(button, 'Reservando a série…');
    try {
      const criada = await bookAction.run('/api/reservas/series', { body: serie, signal });
      replace(quoteBox);
      showSeries(criada, membro, serie.pagamento?.metodo);
      loadDay();
    } catch (error) {
      if (error?.name === 'AbortError') return;
      restore();
      showFormError(form, error);
    }
  }

  /** The series made (for `membro`, when someone booked it for them): each occurrence booked (and its price) or skipped (and why). */
  function showSeries(serie, membro, metodo) {
    const pagar = serie.ocorrencias.filter((o) => o.reservaId && !['cancelada', 'expirada'].includes(o.status))
      .reduce((sum, o) => sum + (o.total ?? 0), 0);
    replace(resultBox,
      h('div', { class: 'alert alert--sucesso', role: 'status' },
        h('h3', {}, `${membro ? `Série de ${membro.nome} reservada` : 'Série reservada'}${serie.recusadas ? `: ${serie.reservadas} de ${serie.ocorrencias.length}` : '!'}`),
        facts([
          membro ? ['Para', membro.email ? `${membro.nome} (${membro.email})` : membro.nome] : null,
          ['Espaço', espaco.nome],
          ['Repetição', `${frequenciaEmPalavras(serie.frequencia, diaDe(serie.ocorrencias[0]?.inicio))}, ${serie.ocorrencias.length} vezes`],
          ['Total', pagar
            ? `${money(pagar)} (${metodo === 'manual' ? 'cada reserva registrada como paga aqui na recepção' : 'cada reserva cobrada no cartão'})`
            : `${money(0)} — nada a pagar`],
        ]),
        table({
          caption: 'Ocorrências da série',
          className: 'serie-ocorrencias',
          columns: [
            { label: 'Quando', cell: (o) => interval(o.inicio, o.fim, tz) },
            {
              label: 'Situação',
              cell: (o) => {
                if (!o.reservaId) return h('span', { class: 'serie-recusa' }, `Não reservada: ${o.recusa?.mensagem ?? 'recusada'}`);
                const fim = { cancelada: 'Cancelada', expirada: 'Expirada', concluida: 'Concluída' }[o.status];
                return `${fim ?? 'Reservada'}${o.total ? ` — ${money(o.total)}` : ''}`;
              },
            },
          ],
          rows: serie.ocorrencias,
          rowAttrs: (o) => ({ dataset: { numero: String(o.numero), situacao: o.reservaId ? 'reservada' : 'recusada' } }),
        }),
        membro
          ? h('p', { class: 'actions' }, session.isAdmin
            ? link(`/admin/reservas?unidade=${encodeURIComponent(unidade?.id ?? '')}&data=${data}`, 'Ver as reservas do dia')
            : `${membro.nome} vê as reservas em Minhas reservas e recebe um e-mail com todas elas.`)
          : h('p', { class: 'actions' }, link('/reservas', 'Ver minhas reservas', { class: 'button' }))));
    resultBox.focus();
    announce(`Série reservada: ${serie.reservadas} de ${serie.ocorrencias.length} ocorrências.`);
  }

  async function book(pedido, button, form, membro) {
    if (button.disabled) return;
    const restore = busy(button, 'Reservando…');
    try {
      const reserva = await bookAction.run('/api/reservas', { body: pedido, signal });
      replace(quoteBox);
      if (membro) showBookedFor(reserva, membro, pedido.pagamento?.metodo);
      else showBooked(reserva);
      loadDay();
    } catch (error) {
      if (error?.name === 'AbortError') return;
      restore();
      showFormError(form, error);
      if (error.code === 'horario_indisponivel') loadDay();
      if (error.code === 'preco_alterado') requote(pedido, error.message, membro);
    }
  }

  /** The price changed between the quote and the booking: show the new one, saying so. */
  async function requote(pedido, aviso, membro) {
    const { pagamento, totalEsperado, ...cotar } = pedido;
    try {
      const cotacao = await api('/api/precos/cotacao', { method: 'POST', body: cotar, idempotent: false, signal });
      showQuote(cotacao, cotar, aviso, membro);
    } catch (error) {
      // The error stays on the form.
    }
  }

  function showBooked(reserva) {
    if (reserva.total === 0) {
      showBookedWithoutPayment(reserva);
      return;
    }
    const expira = reserva.expiraEm ? Date.parse(reserva.expiraEm) : null;
    const minutos = expira ? Math.max(0, Math.round((expira - Date.now()) / 60000)) : null;
    replace(resultBox,
      h('div', { class: 'alert alert--sucesso', role: 'status' },
        h('h3', {}, 'Reserva solicitada!'),
        facts([
          ['Espaço', espaco.nome],
          ['Quando', interval(reserva.inicio, reserva.fim, tz)],
          usouCreditos(reserva) ? ['Pago com créditos', creditosComOrigem(reserva.creditos)] : null,
          [usouCreditos(reserva) ? 'A pagar' : 'Total', money(reserva.total)],
          ['Situação', 'Aguardando pagamento'],
        ]),
        expira ? h('p', { class: 'hold' },
          minutos <= 120
            ? `Seu horário está guardado até as ${time(reserva.expiraEm, tz)} (${minutos} min). `
            : `Seu horário está guardado até ${deadline(reserva.expiraEm, tz)}. `,
          'Pague até lá para confirmar a reserva.') : null,
        h('p', { class: 'actions' },
          link(`/reservas/${reserva.id}/pagamento`, 'Pagar agora', { class: 'button' }),
          link('/reservas', 'Ver minhas reservas'))));
    resultBox.focus();
  }

  /**
   * A booking with nothing to pay (credits or discounts cover it): the server confirms it by
   * itself within a moment of its answer (still `solicitada`), so the result says it is being
   * confirmed and follows the booking until it is.
   */
  function showBookedWithoutPayment(reserva) {
    const situacao = h('div', { class: 'loading' }, 'Confirmando…');
    const titulo = h('h3', {}, 'Reserva feita!');
    const next = h('p', { class: 'actions' });
    replace(resultBox,
      h('div', { class: 'alert alert--sucesso', role: 'status' },
        titulo,
        facts([
          ['Espaço', espaco.nome],
          ['Quando', interval(reserva.inicio, reserva.fim, tz)],
          usouCreditos(reserva) ? ['Pago com créditos', creditosComOrigem(reserva.creditos)] : null,
          ['Total', `${money(0)} — nada a pagar`],
          ['Situação', situacao],
        ]),
        next));
    resultBox.focus();
    const done = (r) => {
      if (r.status === 'solicitada') return false;
      if (r.status === 'confirmada') {
        titulo.textContent = 'Reserva confirmada!';
        replace(situacao, 'Confirmada');
        situacao.className = '';
        replace(next,
          link(`/reservas/${r.id}/checkin`, 'Ver código de check-in', { class: 'button' }),
          usouCreditos(r) ? link('/creditos', 'Meus créditos') : null,
          link('/reservas', 'Ver minhas reservas'));
        announce(usouCreditos(r) ? 'Reserva confirmada, paga com seus créditos.' : 'Reserva confirmada.');
      } else {
        situacao.className = '';
        replace(situacao, 'Não confirmada');
        replace(next, link('/reservas', 'Ver minhas reservas'));
      }
      return true;
    };
    acompanhar(reserva, situacao, done);
  }

  /**
   * Follows a booking the server confirms by itself within a moment of its answer (nothing left
   * to pay, or paid at the desk) until `done(reserva)` says it was decided; an error shows in
   * `situacao`.
   */
  function acompanhar(reserva, situacao, done) {
    if (done(reserva)) return;
    poll(async () => {
      try {
        return done(await api(`/api/reservas/${reserva.id}`, { signal }));
      } catch (error) {
        if (error?.name === 'AbortError') return true;
        replace(situacao, errorBox(error));
        situacao.className = '';
        return true;
      }
    }, { signal, interval: 300, max: 3000 });
  }

  /**
   * The booking made for `membro`. The reception's: paid at the desk or by credits, it is being
   * confirmed (followed until it is); by PIX, card or boleto it waits for its payment, whose page
   * shows the QR code to the member at the desk. A company manager's: it is the colleague's to
   * read from now on (the manager cannot follow it), so the result says what happens next.
   */
  function showBookedFor(reserva, membro, metodo) {
    const recepcao = session.isAdmin;
    const aPagar = reserva.total > 0 && metodo !== 'manual';
    const seguir = recepcao && !aPagar;
    const situacao = h('div', { class: seguir ? 'loading' : '' }, seguir ? 'Confirmando…' : situacaoParaColega());
    const titulo = h('h3', {}, `Reserva de ${membro.nome} feita!`);
    const next = recepcao
      ? h('p', { class: 'actions' },
        aPagar ? link(`/reservas/${reserva.id}/pagamento`, 'Mostrar o pagamento', { class: 'button' }) : null,
        link(`/admin/reservas?unidade=${encodeURIComponent(unidade?.id ?? '')}&data=${data}`, 'Ver as reservas do dia'))
      : h('p', {}, proximoPasso());
    replace(resultBox,
      h('div', { class: 'alert alert--sucesso', role: 'status' },
        titulo,
        facts([
          ['Para', membro.email ? `${membro.nome} (${membro.email})` : membro.nome],
          ['Espaço', espaco.nome],
          ['Quando', interval(reserva.inicio, reserva.fim, tz)],
          usouCreditos(reserva) ? ['Pago com créditos', creditosComOrigem(reserva.creditos)] : null,
          ['Total', reserva.total ? money(reserva.total) : `${money(0)} — nada a pagar`],
          reserva.total ? ['Pagamento', METODOS[metodo ?? 'pix'] ?? metodo] : null,
          ['Situação', situacao],
        ]),
        next));
    resultBox.focus();
    if (!seguir) return;
    acompanhar(reserva, situacao, (r) => {
      if (r.status === 'solicitada') return false;
      situacao.className = '';
      if (r.status === 'confirmada') {
        titulo.textContent = `Reserva de ${membro.nome} confirmada!`;
        replace(situacao, 'Confirmada');
        announce(`Reserva de ${membro.nome} confirmada.`);
      } else {
        replace(situacao, 'Não confirmada');
      }
      return true;
    });

    function situacaoParaColega() {
      if (!aPagar) return 'Confirmada em instantes';
      return metodo === 'cartao' ? 'Cobrando no cartão' : `Aguardando o pagamento de ${membro.nome}`;
    }

    function proximoPasso() {
      if (!aPagar) return `${membro.nome} vê a reserva em Minhas reservas, com o código de check-in.`;
      if (metodo === 'cartao') return `A reserva é confirmada quando o cartão for aprovado; ${membro.nome} a vê em Minhas reservas.`;
      const prazo = reserva.expiraEm ? ` até ${deadline(reserva.expiraEm, tz)}` : '';
      return `${membro.nome} vê a reserva e o ${metodo === 'boleto' ? 'boleto' : 'PIX'} em Minhas reservas e paga${prazo}; sem o pagamento, o horário é liberado.`;
    }
  }


  loadDay();
}

/** For a company's manager, the company's other people ({id, nome}) they may book for; else []. */
async function colegasDaEmpresa(signal) {
  if (!session.signedIn || session.isAdmin) return [];
  try {
    const empresa = await api('/api/empresa', { signal });
    if (empresa?.meuPapel !== 'gestor') return [];
    const eu = String(session.usuario?.id ?? '').toLowerCase();
    return (empresa.integrantes ?? [])
      .filter((i) => String(i.usuarioId).toLowerCase() !== eu)
      .map((i) => ({ id: i.usuarioId, nome: i.nome ?? 'Pessoa sem nome' }));
  } catch {
    return []; // without the list, the manager books for themselves, as any member
  }
}

function politica(p) {
  if (!p.multaBP) return 'Cancelamento gratuito a qualquer momento antes do início.';
  return `Grátis até ${p.horasSemMulta} h antes do início; depois, multa de ${(p.multaBP / 100).toLocaleString('pt-BR')} % do total.`;
}

export { politica };
