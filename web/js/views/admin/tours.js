// The team's tours ("Tours"), per unit and day (the unit's local day): each tour with its time,
// who comes (name, e-mail to write to, phone to call, company, what they look for, how many, their
// message), how it was booked (the site or the team) and where it stands; what the team records —
// "Realizado" (with an optional note; from 1 h before the start), "Não compareceu" (from the
// start) —, "Cancelar" (with an optional reason, e-mailed to the person) and "Apagar dados" (the
// person's data erased now rather than 90 days after the tour), each after a confirmation. A
// refusal (409) is said in the card, drawn again as the tour now stands. Below the day: "Agendar
// tour" for someone who called (the chosen day's free times) and the unit's "Horário de tours"
// (whether it takes tours, how long each lasts, how many at once, and the weekly hours, with the
// editor of a space's hours). Reached from a line on "Reservas do dia" (the operator's menu has no
// room for one more link).

import { api, Action } from '../../lib/api.js';
import { h, replace, uid } from '../../lib/dom.js';
import { TOUR_SITUACAO, TOUR_SITUACAO_KIND, TOUR_INTERESSES, TOUR_ORIGENS } from '../../lib/labels.js';
import {
  DEFAULT_TZ, todayIn, addDays, isDate, dateLong, dateTime, time, zoneLabel, duration, plural,
} from '../../lib/format.js';
import {
  pageHeader, loadInto, cargaNova, field, onSubmit, val, fieldError, clearErrors, showFormError, confirmDialog, busy,
  flash, errorBox, announce, badge, facts,
} from '../../lib/ui.js';
import { describeError } from '../../lib/errors.js';
import { nomesDePessoas, nomeOuConta } from '../../lib/pessoas.js';
import { diasDoHorario, lerHorario } from '../../lib/horario-semanal.js';
import {
  camposDoVisitante, dadosDoVisitante, limparVisitante, horariosDoDia, quandoDoTour, tourIniciado, DIAS_A_FRENTE, NOTA_MAX, MOTIVO_MAX,
} from '../../lib/tours.js';
import { unidadeSelect } from './comum.js';

const chave = (id) => String(id ?? '').toLowerCase();
const HORA = 60 * 60_000;

/**
 * A unit's day of tours: GET /api/admin/tours. The contract of the tours (session 80) answers a
 * bare list; the server answers a page (`{unidadeId, data, itens, total, pagina}`): either is read.
 */
async function toursDoDia(unidade, data, signal) {
  const r = await api('/api/admin/tours', { query: { unidade, data }, signal });
  return Array.isArray(r) ? r : (r?.itens ?? []);
}

/** The server's limits of a unit's tour settings. */
const DURACAO_MIN = 15;
const DURACAO_MAX = 180;
const SIMULTANEOS_MAX = 20;

/** "(11) 91234-5678" → "tel:+11912345678"-style link target: digits and a leading +. */
function telHref(telefone) {
  return `tel:${String(telefone).replace(/[^\d+]/g, '')}`;
}

export async function render({ container, query, setQuery, signal }) {
  replace(container, pageHeader('Tours',
    'As visitas guiadas de quem ainda não é membro, numa unidade: os tours do dia e o que aconteceu em cada um, um tour agendado por telefone e o horário em que a unidade recebe tours.'));
  const controls = h('div', { class: 'day-board__controls tours__controls' });
  const lista = h('section', { class: 'tours-day', 'aria-labelledby': 'tours-do-dia' });
  const agendarBox = h('section', { class: 'tours-book', 'aria-labelledby': 'agendar-tour' });
  const configBox = h('section', { class: 'tours-config', 'aria-labelledby': 'horario-de-tours' });
  container.append(controls, lista, agendarBox, configBox);

  let unidades;
  let select;
  let unidadeField;
  try {
    ({ field: unidadeField, select, unidades } = await unidadeSelect({ value: query.get('unidade') ?? '', signal }));
  } catch (error) {
    if (error?.name !== 'AbortError' && !signal.aborted) replace(controls, errorBox(error));
    return;
  }
  if (!unidades.length) {
    replace(controls, h('p', { class: 'empty' }, 'Nenhuma unidade cadastrada ainda.'));
    return;
  }
  const unidadeAtual = () => unidades.find((u) => u.id === select.value) ?? unidades[0];
  const tzAtual = () => unidadeAtual()?.fusoHorario ?? DEFAULT_TZ;
  let data = isDate(query.get('data')) ? query.get('data') : todayIn(tzAtual());
  let itens = [];
  let carga = null; // the list's load in flight (the next one aborts it)
  const nomes = nomesDePessoas(signal);
  let pessoas = new Map(); // the team's names (who booked, recorded, cancelled)
  const pedidos = new Map(); // one Action per tour and act: sent again, the same request
  const acaoDe = (id, ato) => {
    const k = `${chave(id)}|${ato}`;
    if (!pedidos.has(k)) pedidos.set(k, new Action());
    return pedidos.get(k);
  };

  // ---- the unit and the day ----------------------------------------------------------------------------

  const dateId = uid('tours-data');
  const dateInput = h('input', { type: 'date', id: dateId, name: 'dia', value: data });
  controls.append(unidadeField,
    h('div', { class: 'day-nav' },
      h('button', { type: 'button', class: 'button button--secondary', onclick: () => irPara(addDays(data, -1)) }, '← Dia anterior'),
      h('div', { class: 'field field--inline' }, h('label', { for: dateId }, 'Data'), dateInput),
      h('button', { type: 'button', class: 'button button--secondary', onclick: () => irPara(addDays(data, 1)) }, 'Próximo dia →'),
      h('button', { type: 'button', class: 'button button--secondary', onclick: () => irPara(todayIn(tzAtual())) }, 'Hoje')));
  dateInput.addEventListener('change', () => { if (isDate(dateInput.value)) irPara(dateInput.value); });

  let agendar = formularioDeAgendar();
  agendarBox.append(agendar.form);
  select.addEventListener('change', () => {
    const novo = formularioDeAgendar();
    agendar.form.replaceWith(novo.form);
    agendar = novo;
    carregar();
    carregarConfiguracao();
  });
  carregar();
  carregarConfiguracao();

  function irPara(d) {
    data = d;
    dateInput.value = d;
    carregar();
    agendar.mudarDia(d);
  }

  // ---- the day's tours -------------------------------------------------------------------------------------

  function carregar(foco = null) {
    const u = unidadeAtual();
    setQuery({ unidade: u.id, data });
    carga = cargaNova(carga, signal);
    const sinal = carga.signal;
    loadInto(lista, async () => {
      const tours = await toursDoDia(u.id, data, sinal);
      pessoas = await nomes.todos(equipeDe(tours));
      return tours;
    }, (tours) => {
      itens = tours;
      desenhar(u);
      announce(`${plural(itens.length, 'tour', 'tours')} em ${dateLong(data)}`);
      if (foco) lista.querySelector(`[data-tour="${CSS.escape(chave(foco))}"] .tour__title`)?.focus();
    }, { signal: sinal, text: 'Carregando os tours…' });
  }

  /** The team's accounts a list names (who booked, recorded or cancelled a tour). */
  function equipeDe(tours) {
    return tours.flatMap((t) => [t.agendadoPor, t.concluidoPor, t.canceladoPor === 'visitante' ? null : t.canceladoPor]).filter(Boolean);
  }

  function desenhar(u) {
    const tz = u.fusoHorario ?? DEFAULT_TZ;
    replace(lista,
      h('h2', { id: 'tours-do-dia' }, `Tours de ${dateLong(data)} — ${u.nome}`),
      h('p', { class: 'small tours__zone' }, `Horários no ${zoneLabel(tz)}.`),
      itens.length
        ? h('ol', { class: 'tours', 'aria-labelledby': 'tours-do-dia' }, itens.map((t) => cartao(t, tz)))
        : h('p', { class: 'empty' }, 'Nenhum tour neste dia. Quem agenda pelo site aparece aqui; quem liga, agende abaixo.'));
  }

  /** A tour the API answered takes its card's place; the focus goes to its title. */
  function aplicar(t, { foco = true } = {}) {
    const i = itens.findIndex((x) => chave(x.id) === chave(t.id));
    if (i >= 0) itens[i] = t;
    const antigo = lista.querySelector(`[data-tour="${CSS.escape(chave(t.id))}"]`);
    if (!antigo) return null;
    const novo = cartao(t, tzAtual());
    antigo.replaceWith(novo);
    if (foco) novo.querySelector('.tour__title').focus();
    return novo;
  }

  /**
   * A refusal, said in the card; a 409 (done, cancelled or erased meanwhile, or too early) draws
   * the card again from a fresh read of the day first, so it offers what can still be done.
   */
  async function recusado(t, error, mensagem, texto = describeError(error)) {
    let alvo = mensagem;
    if (error?.status === 409) {
      const dia = await toursDoDia(t.unidadeId, t.dia ?? data, signal).catch(() => null);
      const atual = dia?.find((x) => chave(x.id) === chave(t.id));
      if (atual) {
        pessoas = new Map([...pessoas, ...await nomes.todos(equipeDe([atual]))]);
        const novo = aplicar(atual, { foco: false });
        if (novo) alvo = novo.querySelector('.tour__msg') ?? mensagem;
      }
    }
    const box = h('div', { class: 'alert alert--erro', role: 'alert', tabindex: '-1' }, h('p', {}, texto));
    replace(alvo, box);
    box.focus();
  }

  // ---- a tour's card -------------------------------------------------------------------------------------------

  function quem(id) {
    return nomeOuConta(pessoas.get(chave(id)), id);
  }

  function cartao(t, tz) {
    const tituloId = uid('tour');
    const nome = t.nome ?? null;
    const mensagem = h('div', { class: 'tour__msg' });
    const linhas = [
      t.origem === 'equipe' && t.agendadoPor
        ? `Agendado em ${dateTime(t.agendadoEm, tz)} pela equipe (${quem(t.agendadoPor)}).`
        : `Agendado em ${dateTime(t.agendadoEm, tz)} ${t.origem === 'equipe' ? 'pela equipe' : 'pelo site'}.`,
      t.situacao === 'realizado' && t.concluidoEm ? `Realizado — registrado em ${dateTime(t.concluidoEm, tz)}${t.concluidoPor ? ` por ${quem(t.concluidoPor)}` : ''}.` : null,
      t.situacao === 'ausente' && t.concluidoEm ? `Ausência registrada em ${dateTime(t.concluidoEm, tz)}${t.concluidoPor ? ` por ${quem(t.concluidoPor)}` : ''}.` : null,
      t.situacao === 'cancelado' && t.canceladoEm
        ? `Cancelado em ${dateTime(t.canceladoEm, tz)} ${t.canceladoPor === 'visitante' ? 'pelo próprio visitante' : `pela equipe${t.canceladoPor ? ` (${quem(t.canceladoPor)})` : ''}`}.`
        : null,
      t.dadosApagados ? 'Os dados da pessoa foram apagados.' : null,
    ].filter(Boolean);
    return h('li', { class: `tour tour--${t.situacao}`, dataset: { tour: chave(t.id), situacao: t.situacao } },
      h('article', { 'aria-labelledby': tituloId },
        h('div', { class: 'tour__head' },
          h('p', { class: 'tour__time' }, h('time', { datetime: t.inicio }, `${time(t.inicio, tz)}–${time(t.fim, tz)}`)),
          h('h3', { class: `tour__title${nome ? '' : ' tour__title--apagado'}`, id: tituloId, tabindex: '-1' }, nome ?? 'Dados apagados')),
        h('p', { class: 'tour__meta' },
          badge(TOUR_SITUACAO[t.situacao] ?? t.situacao, TOUR_SITUACAO_KIND[t.situacao] ?? 'neutro'),
          h('span', { class: 'tour__origin' }, TOUR_ORIGENS[t.origem] ?? t.origem ?? ''),
          h('span', { class: 'tour__people' }, plural(t.pessoas ?? 1, 'pessoa', 'pessoas'))),
        dadosDoTour(t),
        h('p', { class: 'small tour__history' }, linhas.map((l, i) => [i ? h('br') : null, l])),
        t.situacao === 'agendado' ? quandoPode(t, tz) : null,
        acoes(t, tz, nome, mensagem),
        mensagem));
  }

  /** Who comes and what they said: only what the tour has (nothing once erased). */
  function dadosDoTour(t) {
    const pares = [
      t.email ? ['E-mail', h('a', { href: `mailto:${t.email}` }, t.email)] : null,
      t.telefone ? ['Telefone', h('a', { href: telHref(t.telefone) }, t.telefone)] : null,
      t.empresa ? ['Empresa', t.empresa] : null,
      t.interesse ? ['Interesse', TOUR_INTERESSES[t.interesse] ?? t.interesse] : null,
      t.mensagem ? ['Mensagem', h('span', { class: 'tour__text' }, t.mensagem)] : null,
      t.nota ? ['Nota', h('span', { class: 'tour__text' }, t.nota)] : null,
      t.motivo ? ['Motivo', h('span', { class: 'tour__text' }, t.motivo)] : null,
    ].filter(Boolean);
    return pares.length ? facts(pares) : null;
  }

  /** Before its time: from when "Realizado" (1 h before the start) and "Não compareceu" (the start) are taken. */
  function quandoPode(t, tz) {
    const inicio = Date.parse(t.inicio);
    const agora = Date.now();
    if (agora >= inicio) return null;
    const realizado = inicio - HORA;
    return h('p', { class: 'small tour__hint' }, agora < realizado
      ? `“Realizado” a partir das ${time(new Date(realizado).toISOString(), tz)}; “Não compareceu” a partir das ${time(t.inicio, tz)}.`
      : `“Não compareceu” a partir das ${time(t.inicio, tz)}, o início do tour.`);
  }

  function acoes(t, tz, nome, mensagem) {
    const oculto = (texto) => h('span', { class: 'visually-hidden' }, ` ${texto}`);
    const de = nome ? `o tour de ${nome}` : `o tour das ${time(t.inicio, tz)}`;
    const botoes = [];
    if (t.situacao === 'agendado') {
      botoes.push(botao(t, mensagem, {
        texto: 'Realizado', oculto: oculto(`— marcar ${de} como realizado`), acao: 'realizado', principal: true,
        dialogo: () => {
          const nota = field({
            label: 'Nota', name: 'nota', type: 'textarea', optional: true,
            hint: 'Fica só para a equipe: o que a pessoa procura, o que ficou combinado…', attrs: { maxlength: String(NOTA_MAX), rows: '3' },
          });
          return {
            title: 'Marcar o tour como realizado?', body: [`${nome ?? 'Tour'} — ${quandoDoTour(t, tz)}.`], extra: nota,
            confirmText: 'Marcar como realizado', cancelText: 'Voltar',
            corpo: () => { const texto = nota.querySelector('textarea').value.trim(); return texto ? { nota: texto } : {}; },
          };
        },
        caminho: 'realizacao', ocupado: 'Registrando…', sucesso: (x) => `Tour marcado como realizado: ${x.nome ?? nome ?? 'visitante'}.`,
        cedo: `Ainda é cedo: dá para marcar como realizado a partir das ${time(new Date(Date.parse(t.inicio) - HORA).toISOString(), tz)}, 1 hora antes do início.`,
      }));
      botoes.push(botao(t, mensagem, {
        texto: 'Não compareceu', oculto: oculto(`— ${de}`), acao: 'ausente',
        dialogo: () => ({
          title: 'Registrar que não compareceu?', body: [`${nome ?? 'Tour'} — ${quandoDoTour(t, tz)}.`, 'O tour fica registrado como ausência. Não dá para desfazer.'],
          confirmText: 'Registrar ausência', cancelText: 'Voltar', danger: true,
        }),
        caminho: 'ausencia', ocupado: 'Registrando…', sucesso: (x) => `Ausência registrada: ${x.nome ?? nome ?? 'visitante'}.`,
        cedo: `Ainda é cedo: a ausência só pode ser registrada a partir do início do tour, às ${time(t.inicio, tz)}.`,
      }));
      // The team cancels before the start only (then it is done, or a no-show).
      if (!tourIniciado(t)) botoes.push(botao(t, mensagem, {
        texto: 'Cancelar', oculto: oculto(de), acao: 'cancelar',
        dialogo: () => {
          const motivo = field({
            label: 'Motivo', name: 'motivo', type: 'textarea', optional: true,
            hint: 'Vai no e-mail para a pessoa, por exemplo “A unidade vai fechar mais cedo neste dia.”', attrs: { maxlength: String(MOTIVO_MAX), rows: '3' },
          });
          return {
            title: 'Cancelar este tour?',
            body: [`${nome ?? 'Tour'} — ${quandoDoTour(t, tz)}.`, t.email ? 'A pessoa é avisada por e-mail, com o motivo. Não dá para desfazer.' : 'Não dá para desfazer.'],
            extra: motivo, confirmText: 'Cancelar tour', cancelText: 'Voltar', danger: true,
            corpo: () => { const texto = motivo.querySelector('textarea').value.trim(); return texto ? { motivo: texto } : {}; },
          };
        },
        caminho: 'cancelamento', ocupado: 'Cancelando…', sucesso: (x) => `Tour cancelado: ${x.nome ?? nome ?? 'visitante'}.${t.email ? ' Avisamos a pessoa por e-mail.' : ''}`,
      }));
    }
    if (!t.dadosApagados) {
      botoes.push(botao(t, mensagem, {
        texto: 'Apagar dados', oculto: oculto(nome ? `do tour de ${nome}` : `do tour das ${time(t.inicio, tz)}`), acao: 'apagar',
        dialogo: () => ({
          title: `Apagar os dados de ${nome ?? 'quem agendou'}?`,
          body: ['O nome, o e-mail, o telefone, a empresa, a mensagem e a nota deste tour são apagados agora. O tour continua na lista, sem eles. Não dá para desfazer.',
            'Sem pedido, eles se apagam sozinhos 90 dias depois do tour.'],
          confirmText: 'Apagar dados', cancelText: 'Voltar', danger: true,
        }),
        caminho: 'dados', metodo: 'DELETE', ocupado: 'Apagando…', sucesso: () => `Dados apagados do tour das ${time(t.inicio, tz)}.`,
      }));
    }
    return botoes.length ? h('div', { class: 'actions tour__actions' }, botoes) : null;
  }

  /** One action of a card: a confirmation (`dialogo()`), then its request; the answer redraws the card. */
  function botao(t, mensagem, { texto, oculto, acao, principal = false, dialogo, caminho, metodo = 'POST', ocupado, sucesso, cedo }) {
    const button = h('button', {
      type: 'button', class: `button button--small${principal ? '' : ' button--secondary'}`, dataset: { acao },
    }, texto, oculto);
    button.addEventListener('click', async () => {
      replace(mensagem);
      const { corpo, ...opcoes } = dialogo();
      if (!await confirmDialog(opcoes)) return;
      const body = corpo ? corpo() : undefined;
      const restore = busy(button, ocupado);
      try {
        const atualizado = await acaoDe(t.id, acao).run(`/api/admin/tours/${encodeURIComponent(t.id)}/${caminho}`, { method: metodo, body });
        pessoas = new Map([...pessoas, ...await nomes.todos(equipeDe([atualizado]))]);
        flash(sucesso(atualizado), 'sucesso');
        aplicar(atualizado);
      } catch (error) {
        if (error?.name === 'AbortError') return;
        if (button.isConnected) restore();
        await recusado(t, error, mensagem, error?.code === 'tour_cedo_demais' && cedo ? cedo : describeError(error));
      }
    });
    return button;
  }

  // ---- a tour for someone who called ------------------------------------------------------------------------------

  function formularioDeAgendar() {
    const u = unidadeAtual();
    const tz = u.fusoHorario ?? DEFAULT_TZ;
    const hoje = todayIn(tz);
    const horarioField = field({
      label: 'Horário', name: 'inicio', type: 'select', required: true, options: [['', 'Carregando os horários…']],
      hint: `No ${zoneLabel(tz)}. Aparecem os horários que ainda não começaram (no site, só a partir de 1 hora de agora).`,
    });
    const horarioSelect = horarioField.querySelector('select');
    const diaField = field({
      label: 'Dia do tour', name: 'data', type: 'date', required: true, value: data < hoje ? hoje : data,
      attrs: { min: hoje, max: addDays(hoje, DIAS_A_FRENTE) },
    });
    const diaInput = diaField.querySelector('input');
    let resposta = null;
    let carga = null;
    const form = h('form', { class: 'form panel tours-book__form', novalidate: true, 'aria-labelledby': 'agendar-tour' },
      h('h2', { id: 'agendar-tour' }, `Agendar tour em ${u.nome}`),
      h('p', { class: 'small' }, 'Para quem ligou ou passou na recepção: o tour entra na lista do dia e a pessoa recebe a confirmação por e-mail, com o link para ver ou cancelar.'),
      h('div', { class: 'form__row' }, diaField, horarioField),
      camposDoVisitante({ equipe: true }),
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'button' }, 'Agendar tour')));

    async function carregarHorarios({ manter = null } = {}) {
      const dia = diaInput.value;
      carga = cargaNova(carga, signal);
      const sinal = carga.signal;
      resposta = null;
      if (!isDate(dia)) {
        replace(horarioSelect, h('option', { value: '' }, 'Escolha o dia primeiro'));
        return;
      }
      horarioSelect.setAttribute('aria-busy', 'true');
      replace(horarioSelect, h('option', { value: '' }, 'Carregando os horários…'));
      try {
        const r = await horariosDoDia(u.id, dia, { signal: sinal, equipe: true });
        if (sinal.aborted) return;
        resposta = r;
        horarioSelect.removeAttribute('aria-busy');
        const lista = r.horarios ?? [];
        const livres = lista.filter((s) => s.livre);
        const fuso = r.fuso ?? tz;
        const vazio = r.ativo === false
          ? 'A unidade não está recebendo tours'
          : !lista.length ? 'Nenhum horário neste dia' : !livres.length ? 'Todos os horários estão lotados' : 'Escolha um horário';
        replace(horarioSelect,
          h('option', { value: '' }, vazio),
          r.ativo === false ? null : lista.map((s) => h('option', {
            value: s.inicio, disabled: !s.livre, selected: s.inicio === manter && s.livre,
          }, `${time(s.inicio, fuso)} às ${time(s.fim, fuso)}${s.livre ? (s.vagas > 1 ? ` (${s.vagas} vagas)` : '') : ' — lotado'}`)));
      } catch (error) {
        if (error?.name === 'AbortError' || sinal.aborted) return;
        horarioSelect.removeAttribute('aria-busy');
        replace(horarioSelect, h('option', { value: '' }, 'Não foi possível carregar os horários'));
        showFormError(form, error);
      }
    }
    diaInput.addEventListener('change', () => carregarHorarios());
    carregarHorarios();

    const action = new Action();
    onSubmit(form, async () => {
      const inicio = val(form, 'inicio');
      if (!isDate(diaInput.value)) return fieldError(form, 'data', 'Escolha o dia do tour.');
      if (resposta?.ativo === false) {
        return fieldError(form, 'inicio', `${u.nome} não está recebendo tours: ative em “Horário de tours”, abaixo.`);
      }
      if (!inicio) return fieldError(form, 'inicio', 'Escolha um dos horários livres.');
      const visitante = dadosDoVisitante(form);
      if (!visitante) return undefined;
      let t;
      try {
        t = await action.run('/api/admin/tours', { body: { unidadeId: u.id, inicio, ...visitante } });
      } catch (error) {
        if (error?.name === 'AbortError') throw error;
        if (error?.code === 'horario_de_tour_lotado' || error?.campo === 'inicio') {
          error.campo = 'inicio';
          await carregarHorarios();
          showFormError(form, error);
          return undefined;
        }
        throw error;
      }
      limparVisitante(form);
      clearErrors(form);
      flash(`Tour agendado: ${t.nome ?? visitante.nome}, ${quandoDoTour(t, tz)}. Enviamos a confirmação para ${t.email ?? visitante.email}.`, 'sucesso');
      carregarHorarios();
      // The day of the new tour is shown, with the focus on it.
      const dia = t.dia ?? diaInput.value;
      data = dia;
      dateInput.value = dia;
      carregar(t.id);
      return undefined;
    }, { busyText: 'Agendando…' });

    return {
      form,
      /** The page moved to another day: the form follows it (today or later). */
      mudarDia(d) {
        const novo = d < hoje ? hoje : d;
        if (diaInput.value === novo) return;
        diaInput.value = novo;
        carregarHorarios();
      },
      recarregar: () => carregarHorarios({ manter: horarioSelect.value }),
    };
  }

  // ---- the unit's tour hours -----------------------------------------------------------------------------------------

  function carregarConfiguracao() {
    const u = unidadeAtual();
    loadInto(configBox, () => api(`/api/admin/unidades/${encodeURIComponent(u.id)}/tours`, { signal }),
      (c) => configBox.append(formularioDeConfiguracao(u, c)), { signal, text: 'Carregando o horário de tours…' });
  }

  function formularioDeConfiguracao(u, c) {
    const tz = u.fusoHorario ?? DEFAULT_TZ;
    const ativoId = uid('tours-ativo');
    const form = h('form', { class: 'form panel tours-config__form', novalidate: true, 'aria-labelledby': 'horario-de-tours' },
      h('h2', { id: 'horario-de-tours' }, `Horário de tours de ${u.nome}`),
      h('p', { class: 'small' }, 'Quando a unidade recebe tours, quanto cada um dura e quantos grupos a equipe recebe no mesmo horário. Os tours já agendados não mudam.'),
      h('div', { class: 'field', dataset: { field: 'ativo' } },
        h('div', { class: 'checkbox' },
          h('input', { type: 'checkbox', id: ativoId, name: 'ativo', checked: c.ativo !== false, 'aria-describedby': `${ativoId}-dica` }),
          h('label', { for: ativoId }, 'Recebe tours')),
        h('p', { class: 'field__hint', id: `${ativoId}-dica` }, 'Desmarcado, a página de tours diz que a unidade não está recebendo tours, e ninguém agenda.'),
        h('p', { class: 'field__error' })),
      h('div', { class: 'form__row' },
        field({
          label: 'Duração de cada tour (minutos)', name: 'duracaoMinutos', type: 'number', required: true, value: String(c.duracaoMinutos ?? 30),
          hint: `De ${DURACAO_MIN} a ${DURACAO_MAX}, de 15 em 15.`, attrs: { min: String(DURACAO_MIN), max: String(DURACAO_MAX), step: '15', inputmode: 'numeric' },
        }),
        field({
          label: 'Tours ao mesmo tempo', name: 'simultaneos', type: 'number', required: true, value: String(c.simultaneos ?? 1),
          hint: `De 1 a ${SIMULTANEOS_MAX}: quantos grupos no mesmo horário.`, attrs: { min: '1', max: String(SIMULTANEOS_MAX), step: '1', inputmode: 'numeric' },
        })),
      field({
        label: 'E-mail da equipe', name: 'emailDaEquipe', type: 'email', value: c.emailDaEquipe ?? '', optional: true,
        hint: 'Recebe um aviso de cada tour agendado pelo site e de cada um que o interessado cancela, com o contato. Em branco, ninguém é avisado.',
        attrs: { autocomplete: 'email', maxlength: '254' },
      }),
      h('div', { class: 'tours-config__week', dataset: { field: 'horario' } },
        h('h3', {}, 'Dias e horários'),
        h('p', { class: 'field__hint' }, `No ${zoneLabel(tz)}. Um tour começa dentro de uma faixa e termina até o fim dela; "Fecha" às 23:59 significa até o fim do dia.`),
        h('div', { class: 'tours-config__days' }, diasDoHorario(c.horario ?? {}, { nova: { abre: 540, fecha: 1080 } })),
        h('p', { class: 'field__error' })),
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'button' }, 'Salvar horário de tours')));

    const action = new Action();
    onSubmit(form, async () => {
      const duracao = val(form, 'duracaoMinutos');
      const simultaneos = val(form, 'simultaneos');
      if (!/^\d+$/.test(duracao) || Number(duracao) < DURACAO_MIN || Number(duracao) > DURACAO_MAX || Number(duracao) % 15) {
        return fieldError(form, 'duracaoMinutos', `Informe a duração em minutos: de ${DURACAO_MIN} a ${DURACAO_MAX}, de 15 em 15 (como 30 ou 45).`);
      }
      if (!/^\d+$/.test(simultaneos) || Number(simultaneos) < 1 || Number(simultaneos) > SIMULTANEOS_MAX) {
        return fieldError(form, 'simultaneos', `Informe quantos tours podem acontecer ao mesmo tempo: de 1 a ${SIMULTANEOS_MAX}.`);
      }
      const { horario, erro } = lerHorario(form);
      if (erro) {
        showFormError(form, { code: 'dados_invalidos', message: erro.mensagem, campo: 'horario' });
        erro.input.setAttribute('aria-invalid', 'true');
        erro.input.focus();
        return undefined;
      }
      const emailDaEquipe = val(form, 'emailDaEquipe').trim();
      const body = {
        ativo: form.elements.namedItem('ativo').checked, duracaoMinutos: Number(duracao), simultaneos: Number(simultaneos), horario,
        ...(emailDaEquipe ? { emailDaEquipe } : {}),
      };
      const salvo = await action.run(`/api/admin/unidades/${encodeURIComponent(u.id)}/tours`, { method: 'PUT', body });
      flash(salvo.ativo === false
        ? `Horário de tours salvo. ${u.nome} não está recebendo tours.`
        : `Horário de tours salvo: tours de ${duration(salvo.duracaoMinutos)}, ${plural(salvo.simultaneos, 'grupo', 'grupos')} por horário.`, 'sucesso');
      const novo = formularioDeConfiguracao(u, salvo);
      form.replaceWith(novo);
      novo.querySelector('h2').setAttribute('tabindex', '-1');
      novo.querySelector('h2').focus();
      agendar.recarregar();
      return undefined;
    }, { busyText: 'Salvando…' });
    return form;
  }
}
