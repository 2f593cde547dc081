// "Agende um tour" (/tour): someone who is not a member yet books a guided visit of a unit,
// without an account. They pick the unit (its address shown), a day among the next two weeks (the
// page opens on the first day with a free time; "Mais dias" goes further, up to 60 days) and one
// of its free times in the unit's zone (a full one is shown "Lotado", not offered), then say who
// they are (name, e-mail, phone, company, what they look for, how many come, a message). The
// answer says when and where, that the confirmation went to their e-mail, and the link to keep
// (/tour/<id>, tour-detalhe.js) to see or cancel it. A time taken meanwhile (409) is said next
// to the times, which are read again; a unit that takes no tours says so. Linked from the login
// page and the catalog (no menu entry: the member's menu must keep to one row).

import { Action } from '../lib/api.js';
import { unidadesPorNome } from '../lib/catalog.js';
import { h, link, replace, uid } from '../lib/dom.js';
import { TOUR_SITUACAO, TOUR_SITUACAO_KIND } from '../lib/labels.js';
import { DEFAULT_TZ, addDays, dateLong, dateShort, duration, isDate, time, todayIn, zoneLabel } from '../lib/format.js';
import {
  pageHeader, field, onSubmit, clearErrors, showFormError, fieldError, errorBox, badge, facts, cargaNova, announce,
} from '../lib/ui.js';
import {
  camposDoVisitante, dadosDoVisitante, horariosDoDia, quandoDoTour, enderecoEmUmaLinha, DIAS_A_FRENTE,
} from '../lib/tours.js';

/** The days shown at once: two weeks. */
const DIAS_POR_VEZ = 14;

const diaDaSemana = new Intl.DateTimeFormat('pt-BR', { timeZone: 'UTC', weekday: 'short' });

/** "Hoje", "Amanhã", "Qua": the first line of a day's button. */
function nomeDoDia(data, hoje) {
  if (data === hoje) return 'Hoje';
  if (data === addDays(hoje, 1)) return 'Amanhã';
  const [y, m, d] = data.split('-').map(Number);
  const curto = diaDaSemana.format(new Date(Date.UTC(y, m - 1, d))).replace('.', '');
  return curto.charAt(0).toLocaleUpperCase('pt-BR') + curto.slice(1);
}

export async function render({ container, query, setQuery, signal, navigate }) {
  replace(container, pageHeader('Agende um tour',
    'Conheça o espaço antes de decidir: escolha a unidade, o dia e o horário, e alguém da equipe mostra tudo a você. É gratuito e não precisa ter conta.'));
  const box = h('div', { class: 'tour-page' });
  container.append(box);

  let unidades;
  try {
    unidades = await unidadesPorNome();
  } catch (error) {
    if (error?.name !== 'AbortError' && !signal.aborted) replace(box, errorBox(error));
    return;
  }
  if (signal.aborted) return;
  if (!unidades.length) {
    replace(box, h('p', { class: 'empty' }, 'Nenhuma unidade recebe tours ainda.'));
    return;
  }
  const chave = (id) => String(id ?? '').toLowerCase();
  let unidade = unidades.find((u) => chave(u.id) === chave(query.get('unidade'))) ?? unidades[0];
  const tzDaUnidade = () => unidade.fusoHorario ?? DEFAULT_TZ;
  const hoje = () => todayIn(tzDaUnidade());
  const pedida = query.get('data');
  let data = isDate(pedida) && pedida >= hoje() && pedida <= addDays(hoje(), DIAS_A_FRENTE) ? pedida : null;
  let primeiro = data ? Math.floor(diasDesdeHoje(data) / DIAS_POR_VEZ) * DIAS_POR_VEZ : 0; // the first day shown, counted from today
  let resposta = null; // the day's HorariosDeTour
  let escolhido = null; // the chosen slot's `inicio`
  let carga = null; // the times' load in flight (the next one aborts it)
  const action = new Action();

  function diasDesdeHoje(d) {
    return Math.round((Date.parse(`${d}T00:00:00Z`) - Date.parse(`${hoje()}T00:00:00Z`)) / 86_400_000);
  }

  // ---- the form: unit, day, time, who comes ---------------------------------------------------------

  const unidadeField = field({
    label: 'Unidade', name: 'unidadeId', type: 'select', value: unidade.id, options: unidades.map((u) => [u.id, u.nome]),
  });
  const select = unidadeField.querySelector('select');
  const endereco = h('p', { class: 'small tour-form__address' });
  unidadeField.querySelector('select').after(endereco);

  const diasId = uid('tour-dias');
  const diasLista = h('div', { class: 'tour-days__list' });
  const anteriores = h('button', { type: 'button', class: 'button button--secondary button--small', onclick: () => mudarJanela(-DIAS_POR_VEZ) }, '← Dias anteriores');
  const mais = h('button', { type: 'button', class: 'button button--secondary button--small', onclick: () => mudarJanela(DIAS_POR_VEZ) }, 'Mais dias →');
  const dias = h('fieldset', { class: 'fieldset tour-days', dataset: { field: 'data' }, 'aria-describedby': `${diasId}-erro` },
    h('legend', {}, 'Dia'),
    diasLista,
    h('div', { class: 'tour-days__more' }, anteriores, mais),
    h('p', { class: 'field__error', id: `${diasId}-erro` }));

  const horariosId = uid('tour-horarios');
  const horariosDica = h('p', { class: 'field__hint', id: `${horariosId}-dica` });
  const horariosBox = h('div', { class: 'tour-slots', 'aria-live': 'polite' });
  const horarios = h('fieldset', {
    class: 'fieldset tour-times', dataset: { field: 'inicio' }, 'aria-describedby': `${horariosId}-dica ${horariosId}-erro`,
  },
  h('legend', {}, 'Horário'),
  horariosDica,
  // Above the times (a long day of them on a phone): a time just taken is said where it is seen.
  h('p', { class: 'field__error', id: `${horariosId}-erro` }),
  horariosBox);
  const resumo = h('p', { class: 'tour-form__choice', 'aria-live': 'polite' });
  const semTours = h('div', { class: 'tour-form__closed', hidden: true });

  const dados = h('fieldset', { class: 'fieldset tour-form__who' },
    h('legend', {}, 'Quem vem'),
    camposDoVisitante(),
    h('p', { class: 'small' }, 'Usamos estes dados só para o tour: eles são apagados 90 dias depois dele, ou uma hora depois, se você cancelar.'));
  const enviar = h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'button button--primary-large' }, 'Agendar tour'));
  const form = h('form', { class: 'form tour-form', novalidate: true, 'aria-label': 'Agendar um tour' },
    unidadeField, semTours, dias, horarios, resumo, dados, enviar);
  replace(box, form);

  select.addEventListener('change', () => {
    unidade = unidades.find((u) => u.id === select.value) ?? unidades[0];
    escolhido = null;
    data = null;
    primeiro = 0;
    clearErrors(form);
    mostrarUnidade();
    procurarDia();
  });

  mostrarUnidade();
  if (data) carregarDia(data);
  else procurarDia();

  function mostrarUnidade() {
    endereco.textContent = unidade.endereco ? enderecoEmUmaLinha(unidade.endereco) : '';
    endereco.hidden = !unidade.endereco;
  }

  // ---- the days --------------------------------------------------------------------------------------

  function desenharDias() {
    const h0 = hoje();
    const ultimo = Math.min(primeiro + DIAS_POR_VEZ, DIAS_A_FRENTE + 1);
    const lista = [];
    for (let i = primeiro; i < ultimo; i += 1) lista.push(addDays(h0, i));
    replace(diasLista, lista.map((d) => h('button', {
      type: 'button', class: 'tour-day', 'aria-pressed': String(d === data), dataset: { dia: d },
      onclick: () => escolherDia(d),
    },
    h('span', { class: 'tour-day__week' }, nomeDoDia(d, h0)),
    h('span', { class: 'tour-day__date' }, dateShort(d).slice(0, 5)),
    h('span', { class: 'visually-hidden' }, `, ${dateLong(d)}`))));
    anteriores.hidden = primeiro === 0;
    mais.hidden = ultimo > DIAS_A_FRENTE;
  }

  function mudarJanela(passo) {
    primeiro = Math.max(0, primeiro + passo);
    desenharDias();
    diasLista.querySelector('button')?.focus();
  }

  function escolherDia(d) {
    if (d === data && resposta) return;
    escolhido = null;
    clearErrors(form);
    carregarDia(d);
  }

  /** Shows the day `d` and its times; `foco` puts the focus on the first free time. */
  async function carregarDia(d, { foco = false } = {}) {
    data = d;
    setQuery({ unidade: unidade.id, data: d });
    desenharDias();
    carga = cargaNova(carga, signal);
    const sinal = carga.signal;
    horariosBox.setAttribute('aria-busy', 'true');
    replace(horariosBox, h('p', { class: 'loading' }, 'Carregando os horários…'));
    try {
      const r = await horariosDoDia(unidade.id, d, { signal: sinal });
      if (sinal.aborted) return;
      mostrarHorarios(r);
      if (foco) horariosBox.querySelector('button.slot')?.focus();
    } catch (error) {
      if (error?.name === 'AbortError' || sinal.aborted) return;
      horariosBox.removeAttribute('aria-busy');
      replace(horariosBox, errorBox(error, { retry: () => carregarDia(d) }));
    }
  }

  /**
   * Opens on the first day of the next two weeks with a free time (today's may be over or full),
   * asking one day at a time; a unit that takes no tours stops the search at once.
   */
  async function procurarDia() {
    carga = cargaNova(carga, signal);
    const sinal = carga.signal;
    data = hoje();
    primeiro = 0;
    desenharDias();
    horariosBox.setAttribute('aria-busy', 'true');
    replace(horariosBox, h('p', { class: 'loading' }, 'Procurando o próximo dia com horário livre…'));
    try {
      let achado = null;
      let primeiraResposta = null;
      for (let i = 0; i < DIAS_POR_VEZ; i += 1) {
        const r = await horariosDoDia(unidade.id, addDays(hoje(), i), { signal: sinal });
        if (sinal.aborted) return;
        primeiraResposta ??= r;
        if (!r.ativo) { achado = r; break; }
        if ((r.horarios ?? []).some((s) => s.livre)) { achado = r; break; }
      }
      const r = achado ?? primeiraResposta;
      data = r.data ?? hoje();
      setQuery({ unidade: unidade.id, data });
      desenharDias();
      mostrarHorarios(r, { nadaEmDuasSemanas: !achado });
    } catch (error) {
      if (error?.name === 'AbortError' || sinal.aborted) return;
      horariosBox.removeAttribute('aria-busy');
      replace(horariosBox, errorBox(error, { retry: () => procurarDia() }));
    }
  }

  // ---- the times ----------------------------------------------------------------------------------------

  function mostrarHorarios(r, { nadaEmDuasSemanas = false } = {}) {
    resposta = r;
    horariosBox.removeAttribute('aria-busy');
    const tz = r.fuso ?? tzDaUnidade();
    const ativo = r.ativo !== false;
    // A unit that takes no tours: said once, with nothing to pick or fill in.
    semTours.hidden = ativo;
    for (const parte of [dias, horarios, resumo, dados, enviar]) parte.hidden = !ativo;
    if (!ativo) {
      replace(semTours, h('div', { class: 'alert alert--info', role: 'status' },
        h('p', {}, h('strong', {}, `${unidade.nome} não está recebendo tours no momento.`)),
        h('p', {}, unidades.length > 1 ? 'Escolha outra unidade acima, ou volte a olhar daqui a alguns dias.' : 'Volte a olhar daqui a alguns dias.')));
      announce(`${unidade.nome} não está recebendo tours no momento.`);
      return;
    }
    const lista = r.horarios ?? [];
    if (escolhido && !lista.some((s) => s.inicio === escolhido && s.livre)) escolhido = null;
    horariosDica.textContent = `No ${zoneLabel(tz)}, o da unidade. Cada tour dura ${duration(r.duracaoMinutos ?? 30)}.`;
    const livres = lista.filter((s) => s.livre).length;
    if (!lista.length || !livres) {
      const texto = nadaEmDuasSemanas
        ? 'Nenhum horário livre nas próximas duas semanas. Veja as semanas seguintes em “Mais dias”, ou escolha outra unidade.'
        : !lista.length
          ? `Nenhum horário de tour em ${dateLong(r.data ?? data)}. Escolha outro dia.`
          : `Todos os horários de ${dateLong(r.data ?? data)} estão lotados. Escolha outro dia.`;
      replace(horariosBox, lista.length ? listaDeHorarios(lista, tz) : null, h('p', { class: 'empty' }, texto));
    } else {
      replace(horariosBox, listaDeHorarios(lista, tz));
    }
    mostrarEscolha();
    announce(`${livres} ${livres === 1 ? 'horário livre' : 'horários livres'} em ${dateLong(r.data ?? data)}`);
  }

  function listaDeHorarios(lista, tz) {
    return h('ol', { class: 'slots', 'aria-label': `Horários de ${dateLong(resposta.data ?? data)}` },
      lista.map((s) => {
        const faixa = `${time(s.inicio, tz)} às ${time(s.fim, tz)}`;
        if (!s.livre) {
          return h('li', {}, h('span', { class: 'slot slot--ocupado', dataset: { inicio: s.inicio } },
            h('span', { class: 'slot__time' }, time(s.inicio, tz)),
            h('span', { class: 'slot__state' }, 'Lotado'),
            h('span', { class: 'visually-hidden' }, ` (${faixa})`)));
        }
        const marcado = s.inicio === escolhido;
        return h('li', {}, h('button', {
          type: 'button', class: `slot slot--livre${marcado ? ' slot--selected' : ''}`, 'aria-pressed': String(marcado),
          'aria-label': `${faixa}, livre`, dataset: { inicio: s.inicio },
          onclick: () => escolher(s.inicio),
        }, h('span', { class: 'slot__time' }, time(s.inicio, tz)), h('span', { class: 'slot__state' }, 'Livre')));
      }));
  }

  function escolher(inicio) {
    escolhido = inicio;
    for (const b of horariosBox.querySelectorAll('button.slot')) {
      const marcado = b.dataset.inicio === inicio;
      b.setAttribute('aria-pressed', String(marcado));
      b.classList.toggle('slot--selected', marcado);
    }
    const erro = horarios.querySelector('.field__error');
    if (erro) erro.textContent = '';
    mostrarEscolha();
  }

  function mostrarEscolha() {
    const slot = escolhido && resposta?.horarios?.find((s) => s.inicio === escolhido);
    const tz = resposta?.fuso ?? tzDaUnidade();
    resumo.classList.toggle('tour-form__choice--feita', Boolean(slot));
    replace(resumo, slot
      ? ['Horário escolhido: ', h('strong', {}, `${quandoDoTour(slot, tz)}`), ` (${zoneLabel(tz)}), em ${unidade.nome}.`]
      : 'Escolha um dos horários livres acima.');
  }

  // ---- sending it -------------------------------------------------------------------------------------------

  onSubmit(form, async () => {
    if (!escolhido) {
      fieldError(form, 'inicio', 'Escolha um horário para o tour.');
      horariosBox.querySelector('button.slot')?.focus();
      return;
    }
    const visitante = dadosDoVisitante(form);
    if (!visitante) return;
    const body = { unidadeId: unidade.id, inicio: escolhido, ...visitante };
    let tour;
    try {
      tour = await action.run('/api/tours', { body });
    } catch (error) {
      if (error?.name === 'AbortError') throw error;
      // The time was just taken, or is no longer one (past, too soon): said next to the times,
      // which are read again (the rest of the form keeps what was typed).
      if (error?.code === 'horario_de_tour_lotado' || error?.campo === 'inicio') {
        error.campo = 'inicio';
        escolhido = null;
        await carregarDia(data);
        showFormError(form, error);
        return;
      }
      throw error;
    }
    confirmado(tour, visitante.email);
  }, { busyText: 'Agendando…' });

  /** The answer: when and where, the e-mail the confirmation went to, and the link to keep. */
  function confirmado(t, email) {
    const tz = t.fuso ?? tzDaUnidade();
    const caminho = `/tour/${encodeURIComponent(t.id)}`;
    const tituloId = uid('tour-agendado');
    const [situacao, kind] = [TOUR_SITUACAO[t.situacao] ?? t.situacao, TOUR_SITUACAO_KIND[t.situacao] ?? 'info'];
    const titulo = h('h2', { id: tituloId, tabindex: '-1' }, 'Tour agendado!');
    replace(box, h('section', { class: 'panel tour-done', 'aria-labelledby': tituloId, dataset: { tour: t.id } },
      titulo,
      h('p', { class: 'tour-done__lead' }, t.nome ? `Esperamos você, ${t.nome.split(' ')[0]}!` : 'Esperamos você!'),
      facts([
        ['Quando', [h('time', { datetime: t.inicio }, quandoDoTour(t, tz)), h('span', { class: 'small block' }, `No ${zoneLabel(tz)}.`)]],
        ['Onde', [t.unidade ?? unidade.nome, t.endereco ? h('span', { class: 'block' }, t.endereco) : null]],
        ['Situação', badge(situacao, kind)],
      ]),
      h('p', {}, 'Enviamos a confirmação para ', h('strong', { class: 'tour-done__email' }, email),
        ', com o convite para a sua agenda. Chegue alguns minutos antes e procure a recepção.'),
      h('div', { class: 'tour-done__link' },
        h('p', { class: 'tour-done__keep' }, 'Guarde este link para ver ou cancelar o tour:'),
        h('p', {}, link(caminho, `${location.origin}${caminho}`, { class: 'tour-done__url' }))),
      h('div', { class: 'actions' },
        link(caminho, 'Ver meu tour', { class: 'button' }),
        h('button', {
          type: 'button', class: 'button button--secondary',
          onclick: () => navigate(`/tour?unidade=${encodeURIComponent(unidade.id)}&data=${data}`),
        }, 'Agendar outro tour'))));
    announce('Tour agendado.');
    titulo.focus();
    titulo.scrollIntoView({ block: 'start' });
  }
}
