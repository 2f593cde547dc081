// The team's community events ("Eventos"; "encontro" in the API), per unit: publish one (title,
// description, where in the unit, the day with its start and end in the unit's zone — sent as
// instants with that zone's offset —, and its places); see the coming ones (the soonest first)
// or the past ones (the latest first), each with how many places are taken, who has one and who
// waits, in order; change the title, the texts and the places before it starts (more places go
// to those who wait, in order; fewer than the people with a place is refused next to "Vagas");
// cancel it with an optional reason, after a confirmation (everyone signed up is told). Reached
// from a line on "Reservas do dia", for the unit shown there.

import { api, allPages, Action } from '../../lib/api.js';
import { h, replace, uid } from '../../lib/dom.js';
import { situacaoDoEncontro, encontroIniciado } from '../../lib/labels.js';
import {
  DEFAULT_TZ, todayIn, addDays, isDate, minutesFromClock, zonedToMs, isoWithOffset, dateTime, zoneLabel, duration,
} from '../../lib/format.js';
import {
  pageHeader, loadInto, cargaNova, field, onSubmit, val, fieldError, clearErrors, confirmDialog, busy, flash, errorBox, announce,
} from '../../lib/ui.js';
import { unidadeSelect } from './comum.js';
import { quandoDoEncontro, ondeEncontro, selosDoEncontro } from '../eventos.js';

const chave = (id) => String(id ?? '').toLowerCase();

/** The server's limits (Encontro.swift): texts, places, and the longest event. */
const TITULO_MAX = 120;
const DESCRICAO_MAX = 2000;
const LOCAL_MAX = 120;
const VAGAS_MAX = 300;
const DURACAO_MAXIMA_MIN = 12 * 60;
const MOTIVO_MAX = 500;

/** `novo` with the names `antigo` knew (who signed up, by id); someone new stays unnamed. */
function comNomes(novo, antigo) {
  const nomes = new Map([...(antigo.inscritos ?? []), ...(antigo.espera ?? [])].map((p) => [chave(p.usuarioId), p.nome]));
  const nomear = (quem) => quem?.map((p) => ({ ...p, nome: p.nome ?? nomes.get(chave(p.usuarioId)) }));
  return { ...novo, inscritos: nomear(novo.inscritos), espera: nomear(novo.espera) };
}

/** "1 pessoa", "3 pessoas". */
const pessoas = (n) => `${n} ${n === 1 ? 'pessoa' : 'pessoas'}`;

export async function render({ container, query, setQuery, signal }) {
  replace(container, pageHeader('Eventos',
    'Palestras, oficinas e encontros da comunidade numa unidade: publique, acompanhe quem vai e quem está na lista de espera, altere as vagas ou cancele.'));
  const controls = h('div', { class: 'events__controls' });
  const formBox = h('div');
  const lista = h('section', { class: 'events-page', 'aria-labelledby': 'eventos-da-unidade' });
  container.append(controls, formBox, lista);

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
  let periodo = query.get('periodo') === 'passados' ? 'passados' : 'proximos';
  let itens = [];
  let carga = null; // the list's load in flight (the next one aborts it)
  const editando = new Set(); // the events whose change form is open (kept when the list is drawn again)
  const pedidos = new Map(); // one Action per event and act: sent again, the same request
  const acaoDe = (id, ato) => {
    const k = `${chave(id)}|${ato}`;
    if (!pedidos.has(k)) pedidos.set(k, new Action());
    return pedidos.get(k);
  };

  const opcao = (valor, texto) => h('button', {
    type: 'button', class: 'button button--secondary view-toggle__option', dataset: { periodo: valor },
    onclick: () => { if (periodo !== valor) { periodo = valor; carregar(); } },
  }, texto);
  const opcoes = [opcao('proximos', 'Próximos'), opcao('passados', 'Passados')];
  controls.append(unidadeField, h('div', { class: 'view-toggle', role: 'group', 'aria-label': 'Eventos a mostrar' }, opcoes));

  let formulario = novoFormulario();
  formBox.append(formulario);
  select.addEventListener('change', () => {
    editando.clear();
    const novo = novoFormulario();
    formulario.replaceWith(novo);
    formulario = novo;
    carregar();
  });
  carregar();

  // ---- the list ----------------------------------------------------------------------------------------

  function carregar(foco = null) {
    const u = unidadeAtual();
    setQuery({ unidade: u.id, periodo: periodo === 'passados' ? 'passados' : '' });
    opcoes.forEach((b) => b.setAttribute('aria-pressed', String(b.dataset.periodo === periodo)));
    // A quick switch of unit or period: only the last answer is drawn.
    carga = cargaNova(carga, signal);
    const sinal = carga.signal;
    // 50 a page, each naming who signed up: four pages at most.
    loadInto(lista, () => allPages('/api/encontros', { query: { unidade: u.id, periodo }, signal: sinal, maxPages: 4 }), (todos) => {
      itens = todos ?? [];
      desenhar(u);
      const n = itens.length;
      announce(periodo === 'passados'
        ? `${n} ${n === 1 ? 'evento passado' : 'eventos passados'} em ${u.nome}`
        : `${n} ${n === 1 ? 'próximo evento' : 'próximos eventos'} em ${u.nome}`);
      if (foco) lista.querySelector(`[data-encontro="${CSS.escape(chave(foco))}"] .event__title`)?.focus();
    }, { signal: sinal, text: 'Carregando os eventos…' });
  }

  function desenhar(u) {
    replace(lista,
      h('h2', { id: 'eventos-da-unidade' }, `${periodo === 'passados' ? 'Eventos passados' : 'Próximos eventos'} — ${u.nome}`),
      h('p', { class: 'small events__zone' }, `Horários no ${zoneLabel(u.fusoHorario ?? DEFAULT_TZ)}.`),
      itens.length
        ? h('ol', { class: 'events', 'aria-labelledby': 'eventos-da-unidade' }, itens.map((e) => cartao(e, u)))
        : h('p', { class: 'empty' }, periodo === 'passados'
          ? 'Nenhum evento passado nesta unidade.'
          : 'Nenhum evento programado nesta unidade. Publique um acima.'));
  }

  /** An event the API answered (changed, cancelled) takes its card's place; the focus goes to its title. */
  function aplicar(e) {
    const i = itens.findIndex((x) => chave(x.id) === chave(e.id));
    if (i >= 0) itens[i] = e;
    const antigo = lista.querySelector(`[data-encontro="${CSS.escape(chave(e.id))}"]`);
    if (!antigo) return null;
    const novo = cartao(e, unidadeAtual());
    antigo.replaceWith(novo);
    novo.querySelector('.event__title').focus();
    return novo;
  }

  /**
   * A 409 (the event was cancelled or began meanwhile): the card is drawn again as the event now
   * stands, so it offers only what can still be done, and the refusal is said in it.
   */
  async function recusado(e, error, mensagem) {
    let alvo = mensagem;
    if (error?.status === 409 && error?.code !== 'vagas_abaixo_dos_inscritos') {
      const atual = await api(`/api/encontros/${encodeURIComponent(e.id)}`, { signal }).catch(() => null);
      const novo = atual ? aplicar(atual) : null;
      if (novo) alvo = novo.querySelector('.event__msg') ?? mensagem;
    }
    replace(alvo, errorBox(error));
  }

  // ---- publishing one ------------------------------------------------------------------------------------

  function novoFormulario() {
    const u = unidadeAtual();
    const tz = tzAtual();
    const quandoId = uid('evento-quando');
    const resumo = h('p', { class: 'small event-form__summary', id: uid('evento-resumo'), 'aria-live': 'polite' });
    const form = h('form', { class: 'form panel event-form', novalidate: true, 'aria-labelledby': 'novo-evento' },
      h('h2', { id: 'novo-evento' }, `Publicar um evento em ${u.nome}`),
      field({ label: 'Título', name: 'titulo', required: true, hint: 'Por exemplo “Café com investidores” ou “Oficina de fotografia com celular”.', attrs: { autocomplete: 'off', maxlength: String(TITULO_MAX) } }),
      field({ label: 'Descrição', name: 'descricao', type: 'textarea', optional: true, hint: 'O que vai acontecer, para quem é, o que levar.', attrs: { maxlength: String(DESCRICAO_MAX), rows: '3' } }),
      h('div', { class: 'form__row' },
        field({ label: 'Local', name: 'local', optional: true, hint: 'Por exemplo “Auditório, 2º andar”.', attrs: { autocomplete: 'off', maxlength: String(LOCAL_MAX) } }),
        field({
          label: 'Vagas', name: 'vagas', type: 'number', required: true,
          hint: `De 1 a ${VAGAS_MAX}; depois delas, lista de espera.`,
          attrs: { min: '1', max: String(VAGAS_MAX), step: '1', inputmode: 'numeric' },
        })),
      h('fieldset', { class: 'fieldset event-form__when', 'aria-describedby': `${quandoId} ${resumo.id}` },
        h('legend', {}, 'Quando'),
        h('p', { class: 'field__hint', id: quandoId },
          `No ${zoneLabel(tz)}, o da unidade. Um fim antes do início termina no dia seguinte; o evento dura até 12 horas.`),
        h('div', { class: 'form__row' },
          field({ label: 'Data', name: 'data', type: 'date', required: true, value: addDays(todayIn(tz), 1), attrs: { min: todayIn(tz) } }),
          field({ label: 'Início', name: 'inicio', type: 'time', required: true, value: '18:00', attrs: { step: '300' } }),
          field({ label: 'Fim', name: 'fim', type: 'time', required: true, value: '20:00', attrs: { step: '300' } })),
        resumo),
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'button' }, 'Publicar evento')));

    /** The start and the end as instants (an end before the start is the next day's), or what is missing. */
    const periodoDoForm = () => {
      const data = val(form, 'data');
      const inicio = minutesFromClock(val(form, 'inicio'));
      const fim = minutesFromClock(val(form, 'fim'));
      if (!isDate(data)) return { erro: ['data', 'Informe a data do evento.'] };
      if (inicio === null) return { erro: ['inicio', 'Informe a hora de início.'] };
      if (fim === null) return { erro: ['fim', 'Informe a hora de fim.'] };
      const dia = fim > inicio ? data : addDays(data, 1);
      const [ms0, ms1] = [zonedToMs(data, inicio, tz), zonedToMs(dia, fim, tz)];
      // Elapsed minutes, not the clock's: a night across a change of daylight saving time counts its hour.
      return { inicio: ms0, fim: ms1, minutos: Math.round((ms1 - ms0) / 60000) };
    };
    const mostrarResumo = () => {
      const p = periodoDoForm();
      if (p.erro) { resumo.textContent = ''; return; }
      const e = { inicio: new Date(p.inicio).toISOString(), fim: new Date(p.fim).toISOString() };
      resumo.textContent = `${quandoDoEncontro(e, tz)} (${duration(p.minutos)}${p.minutos > DURACAO_MAXIMA_MIN ? ': mais que as 12 horas permitidas' : ''}).`;
    };
    form.addEventListener('input', mostrarResumo);
    form.addEventListener('change', mostrarResumo);
    mostrarResumo();

    const action = new Action();
    onSubmit(form, async () => {
      const titulo = val(form, 'titulo');
      if (!titulo) return fieldError(form, 'titulo', 'Dê um título ao evento.');
      const p = periodoDoForm();
      if (p.erro) return fieldError(form, ...p.erro);
      if (p.minutos > DURACAO_MAXIMA_MIN) {
        return fieldError(form, 'fim', `Um evento dura até 12 horas; este duraria ${duration(p.minutos)}.`);
      }
      const vagas = val(form, 'vagas');
      if (!/^\d+$/.test(vagas) || Number(vagas) < 1 || Number(vagas) > VAGAS_MAX) {
        return fieldError(form, 'vagas', `Informe quantas vagas o evento tem: de 1 a ${VAGAS_MAX}.`);
      }
      const body = {
        unidadeId: u.id, titulo, inicio: isoWithOffset(p.inicio, tz), fim: isoWithOffset(p.fim, tz), vagas: Number(vagas),
      };
      if (val(form, 'descricao')) body.descricao = val(form, 'descricao');
      if (val(form, 'local')) body.local = val(form, 'local');
      const e = await action.run('/api/admin/encontros', { body });
      for (const nome of ['titulo', 'descricao', 'local', 'vagas']) form.elements.namedItem(nome).value = '';
      clearErrors(form);
      flash(`Evento publicado: “${e.titulo ?? titulo}”, ${quandoDoEncontro(e, tz)}. Os membros já podem se inscrever em Eventos.`, 'sucesso');
      if (periodo !== 'proximos') periodo = 'proximos';
      carregar(e.id);
      return undefined;
    }, { busyText: 'Publicando…' });
    return form;
  }

  // ---- an event's card -------------------------------------------------------------------------------------

  function cartao(e, u) {
    const tz = u.fusoHorario ?? DEFAULT_TZ;
    const tituloId = uid('evento');
    const [situacao, kind] = situacaoDoEncontro(e);
    const encerrado = Date.parse(e.fim) <= Date.now();
    const aberto = !e.cancelado && !encontroIniciado(e);
    const mensagem = h('div', { class: 'event__msg' });
    const li = h('li', { class: `event event--admin event--${e.cancelado ? 'cancelado' : encerrado ? 'encerrado' : 'aberto'}`, dataset: { encontro: chave(e.id) } });
    const edicao = aberto ? formularioDeAlteracao(e, li, mensagem) : null;
    li.append(h('article', { 'aria-labelledby': tituloId },
      h('h3', { class: 'event__title', id: tituloId, tabindex: '-1' }, e.titulo ?? '—'),
      h('p', { class: 'event__when' }, h('time', { datetime: e.inicio }, quandoDoEncontro(e, tz))),
      h('p', { class: 'event__where' }, ondeEncontro(e, u.nome)),
      h('p', { class: 'event__meta' }, selosDoEncontro(e, situacao, kind)),
      e.descricao ? h('p', { class: 'event__desc' }, e.descricao) : null,
      e.cancelado
        ? h('p', { class: 'event__cancel' }, 'Cancelado; quem tinha inscrição (se havia alguém) foi avisado.',
          e.motivoDoCancelamento ? [' ', h('strong', {}, 'Motivo:'), ` ${e.motivoDoCancelamento}`] : null)
        : null,
      e.cancelado ? null : quemVai(e, tz),
      h('p', { class: 'small event__published' }, `Publicado em ${dateTime(e.publicadoEm, tz)}.`),
      aberto ? h('div', { class: 'actions event__actions' }, edicao.botao, botaoDeCancelar(e, tz, mensagem)) : null,
      edicao?.form,
      mensagem));
    return li;
  }

  /** Who has a place (in the order they got it) and who waits (in the order they will get one). */
  function quemVai(e, tz) {
    const nomes = (quem, vazio) => (quem?.length
      ? h('ol', { class: 'event-people__list' }, quem.map((p) => h('li', {},
        h('span', { class: 'event-people__name' }, p.nome ?? 'Conta apagada'),
        ' ', h('span', { class: 'small event-people__since' }, `· desde ${dateTime(p.em, tz)}`))))
      : h('p', { class: 'empty small' }, vazio));
    const idCom = uid('com-vaga');
    const idEspera = uid('na-espera');
    return h('div', { class: 'event-people' },
      h('section', { class: 'event-people__group', 'aria-labelledby': idCom, dataset: { grupo: 'inscritos' } },
        h('h4', { id: idCom }, `Com vaga (${e.confirmados ?? 0} de ${e.vagas})`),
        nomes(e.inscritos, 'Ninguém inscrito ainda.')),
      h('section', { class: 'event-people__group', 'aria-labelledby': idEspera, dataset: { grupo: 'espera' } },
        h('h4', { id: idEspera }, `Lista de espera (${e.naEspera ?? 0})`),
        nomes(e.espera, 'Ninguém na lista de espera.')));
  }

  /** "Alterar" opens a small form under the card: title, texts and places. */
  function formularioDeAlteracao(e, li, mensagem) {
    const formId = uid('alterar-evento');
    const aberto = editando.has(chave(e.id));
    const botao = h('button', {
      type: 'button', class: 'button button--secondary button--small', 'aria-expanded': String(aberto), 'aria-controls': formId,
      dataset: { acao: 'alterar' },
    }, 'Alterar', h('span', { class: 'visually-hidden' }, ` o evento “${e.titulo ?? ''}”`));
    const form = h('form', { class: 'form event-edit', id: formId, novalidate: true, hidden: !aberto, 'aria-label': `Alterar “${e.titulo ?? ''}”` },
      field({ label: 'Título', name: 'titulo', required: true, value: e.titulo ?? '', attrs: { autocomplete: 'off', maxlength: String(TITULO_MAX) } }),
      field({ label: 'Descrição', name: 'descricao', type: 'textarea', optional: true, value: e.descricao ?? '', hint: 'Em branco, o evento fica sem descrição.', attrs: { maxlength: String(DESCRICAO_MAX), rows: '3' } }),
      field({ label: 'Local', name: 'local', optional: true, value: e.local ?? '', hint: 'Em branco, fica só a unidade.', attrs: { autocomplete: 'off', maxlength: String(LOCAL_MAX) } }),
      field({
        label: 'Vagas', name: 'vagas', type: 'number', required: true, value: String(e.vagas),
        hint: `${e.confirmados ? `Pelo menos ${e.confirmados}: ${e.confirmados === 1 ? 'já há 1 pessoa' : `já há ${e.confirmados} pessoas`} com vaga. ` : ''}Vagas a mais vão para quem está na lista de espera, na ordem.`,
        attrs: { min: String(Math.max(1, e.confirmados ?? 0)), max: String(VAGAS_MAX), step: '1', inputmode: 'numeric' },
      }),
      h('p', { class: 'small' }, 'A data e o horário não mudam: para outro horário, cancele este evento e publique outro.'),
      h('div', { class: 'actions' },
        h('button', { type: 'submit', class: 'button button--small' }, 'Salvar alterações'),
        h('button', { type: 'button', class: 'button button--secondary button--small', onclick: () => fechar(true) }, 'Fechar')));
    const fechar = (focar) => {
      form.hidden = true;
      botao.setAttribute('aria-expanded', 'false');
      editando.delete(chave(e.id));
      clearErrors(form);
      if (focar) botao.focus();
    };
    botao.addEventListener('click', () => {
      if (!form.hidden) { fechar(false); return; }
      replace(mensagem);
      form.hidden = false;
      botao.setAttribute('aria-expanded', 'true');
      editando.add(chave(e.id));
      form.elements.namedItem('titulo').focus();
    });
    onSubmit(form, async () => {
      const titulo = val(form, 'titulo');
      if (!titulo) return fieldError(form, 'titulo', 'O evento precisa de um título.');
      const vagas = val(form, 'vagas');
      if (!/^\d+$/.test(vagas) || Number(vagas) < 1 || Number(vagas) > VAGAS_MAX) {
        return fieldError(form, 'vagas', `Informe quantas vagas o evento tem: de 1 a ${VAGAS_MAX}.`);
      }
      // Blank texts are sent blank: the API then clears them.
      const body = { titulo, descricao: val(form, 'descricao'), local: val(form, 'local'), vagas: Number(vagas) };
      let atualizado;
      try {
        atualizado = await acaoDe(e.id, 'alteracao').run(`/api/admin/encontros/${encodeURIComponent(e.id)}`, { method: 'PATCH', body });
      } catch (error) {
        // Fewer places than the people who have one: said next to "Vagas".
        if (error?.code === 'vagas_abaixo_dos_inscritos') error.campo = 'vagas';
        // Cancelled or begun meanwhile: the card, drawn again, no longer offers the change.
        if (error?.status === 409 && error?.code !== 'vagas_abaixo_dos_inscritos') {
          editando.delete(chave(e.id));
          await recusado(e, error, mensagem);
          return undefined;
        }
        throw error;
      }
      // The change's answer names nobody: the event read again has the names (else the ones known).
      atualizado = await api(`/api/encontros/${encodeURIComponent(e.id)}`, { signal }).catch(() => comNomes(atualizado, e));
      const ganharam = Math.max(0, (atualizado.confirmados ?? 0) - (e.confirmados ?? 0));
      editando.delete(chave(e.id));
      flash(`Evento alterado: “${atualizado.titulo}”.${ganharam ? ` ${pessoas(ganharam)} da lista de espera ${ganharam === 1 ? 'ganhou' : 'ganharam'} vaga e ${ganharam === 1 ? 'foi avisada' : 'foram avisadas'}.` : ''}`, 'sucesso');
      aplicar(atualizado);
      return undefined;
    }, { busyText: 'Salvando…' });
    return { botao, form };
  }

  /** "Cancelar evento": a confirmation with an optional reason (told to everyone signed up). */
  function botaoDeCancelar(e, tz, mensagem) {
    const button = h('button', { type: 'button', class: 'button button--danger button--small', dataset: { acao: 'cancelar' } },
      'Cancelar evento', h('span', { class: 'visually-hidden' }, ` “${e.titulo ?? ''}”`));
    button.addEventListener('click', async () => {
      replace(mensagem);
      // Who is told is counted on the event as it stands now, read again (busy meanwhile: one dialog).
      const lendo = busy(button, 'Verificando…');
      const atual = await api(`/api/encontros/${encodeURIComponent(e.id)}`, { signal }).catch(() => e);
      if (signal.aborted) return;
      lendo();
      if (atual.cancelado || encontroIniciado(atual)) {
        aplicar(atual);
        return;
      }
      const avisados = (atual.confirmados ?? 0) + (atual.naEspera ?? 0);
      const motivo = field({
        label: 'Motivo', name: 'motivo', type: 'textarea', optional: true,
        hint: 'Vai no aviso a quem se inscreveu, por exemplo “O palestrante adoeceu; remarcaremos em breve.”',
        attrs: { maxlength: String(MOTIVO_MAX), rows: '3' },
      });
      const ok = await confirmDialog({
        title: 'Cancelar este evento?',
        body: [`“${e.titulo ?? '—'}” — ${quandoDoEncontro(e, tz)}.`,
          avisados
            ? `${pessoas(avisados)} (com vaga ou na lista de espera) ${avisados === 1 ? 'é avisada' : 'são avisadas'} por e-mail e nas notificações. Não dá para desfazer.`
            : 'Ninguém se inscreveu ainda. Não dá para desfazer.'],
        extra: motivo,
        confirmText: 'Cancelar evento',
        cancelText: 'Voltar',
        danger: true,
      });
      if (!ok) return;
      const texto = motivo.querySelector('textarea').value.trim();
      const restore = busy(button, 'Cancelando…');
      try {
        const cancelado = await acaoDe(e.id, 'cancelamento')
          .run(`/api/admin/encontros/${encodeURIComponent(e.id)}/cancelamento`, { body: texto ? { motivo: texto } : {} });
        flash(`Evento cancelado: “${cancelado.titulo}”.${avisados ? ` ${pessoas(avisados)} ${avisados === 1 ? 'foi avisada' : 'foram avisadas'}.` : ''}`, 'sucesso');
        editando.delete(chave(e.id));
        aplicar(cancelado);
      } catch (error) {
        if (error?.name === 'AbortError') return;
        restore();
        await recusado(e, error, mensagem);
      }
    });
    return button;
  }
}
