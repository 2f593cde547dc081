// A dedicated desk or a private office let to a member or a company for a term (a lease): its
// leases, a new one, and the early end of one. A lease is a block of the space with its holder
// (motivo "locacao"): nobody books the space while it runs, and the catalog shows it let without
// saying to whom. Leases run whole days in the unit's time zone: from the first day's midnight to
// the midnight after the last day.

import { Action, api, allPages } from '../../lib/api.js';
import { forget } from '../../lib/catalog.js';
import { h, replace } from '../../lib/dom.js';
import { buscaDeMembro } from '../../lib/busca-de-membro.js';
import { diasDoPeriodo } from '../../lib/agenda.js';
import { TIPOS } from '../../lib/labels.js';
import {
  zonedToMs, isoWithOffset, todayIn, addDays, isDate, dateShort,
} from '../../lib/format.js';
import { pageHeader, loadInto, table, field, radios, onSubmit, val, flash, fieldError, confirmDialog, badge } from '../../lib/ui.js';
import { espacoTabs, espacoAdmin, voltarParaEspacos, botaoQueConfirma } from './comum.js';

const LOCAVEIS = ['mesa_fixa', 'sala_privativa'];

export function render({ container, params, signal, navigate }) {
  replace(container, pageHeader('Locação'));
  const body = h('div');
  container.append(body);
  loadInto(body, async () => {
    const { espaco, unidade } = await espacoAdmin(params.id);
    const [bloqueios, empresas] = await Promise.all([
      api(`/api/admin/espacos/${params.id}/bloqueios`, { signal }).then((r) => r.bloqueios),
      allPages('/api/admin/empresas', { signal }),
    ]);
    const locacoes = bloqueios.filter((b) => b.motivo === 'locacao');
    const membros = await Promise.all([...new Set(locacoes.map((b) => b.locatario?.usuarioId).filter(Boolean))]
      .map((id) => api(`/api/admin/usuarios/${id}`, { signal }).catch((error) => {
        if (error?.status === 404) return { id, nome: 'Conta removida' };
        throw error;
      })));
    return { espaco, unidade, locacoes, empresas, membros };
  }, ({ espaco, unidade, locacoes, empresas, membros }) => {
    const tz = unidade?.fusoHorario ?? 'America/Sao_Paulo';
    container.querySelector('h1').textContent = `Locação — ${espaco.nome}`;
    container.prepend(voltarParaEspacos(espaco.unidadeId));
    const again = () => navigate(`/admin/espacos/${espaco.id}/locacao`, { replace: true });
    body.append(espacoTabs(espaco.id, 'locacao'));
    if (!LOCAVEIS.includes(espaco.tipo)) {
      body.append(h('p', { class: 'alert alert--info' },
        `Só mesas fixas e salas privativas são locadas. Este espaço é ${(TIPOS[espaco.tipo] ?? espaco.tipo).toLowerCase()}: `,
        'para fechá-lo por um período, use os bloqueios.'));
      return;
    }
    const nomes = new Map([
      ...empresas.map((e) => [e.empresaId, `${e.nome} (empresa)`]),
      ...membros.map((u) => [u.id, u.email ? `${u.nome} — ${u.email}` : u.nome]),
    ]);
    const quem = (b) => nomes.get(b.locatario?.empresaId ?? b.locatario?.usuarioId) ?? 'Locatário desconhecido';
    const hoje = todayIn(tz);
    const agora = Date.now();
    const ordenadas = [...locacoes].sort((a, b) => Date.parse(b.intervalo.inicio) - Date.parse(a.intervalo.inicio));
    body.append(
      h('p', { class: 'lead' },
        'Uma mesa fixa ou sala privativa locada é só do locatário no período: ninguém a reserva, e o catálogo a mostra como locada, ',
        'sem dizer a quem. A mensalidade se cobra com um plano (Planos) na assinatura do membro ou da empresa.'),
      h('section', { 'aria-labelledby': 'locacoes' },
        h('h2', { id: 'locacoes' }, 'Locações'),
        table({
          caption: 'Locações deste espaço, da mais recente',
          empty: 'Este espaço nunca foi locado.',
          rows: ordenadas,
          columns: [
            { label: 'Locatário', cell: (b) => [quem(b), b.descricao ? h('span', { class: 'small block' }, b.descricao) : null] },
            { label: 'Período', cell: (b) => periodo(b, tz) },
            { label: 'Situação', cell: (b) => situacao(b, agora) },
            { label: 'Ações', cell: (b) => acoes(espaco, b, tz, hoje, agora, quem(b), again) },
          ],
        })),
      novaLocacao(espaco, tz, hoje, empresas, signal, again));
  }, { signal });
}

/** First and last day: the lease ends at the midnight after its last day. */
function dias(b, tz) {
  return diasDoPeriodo(b.intervalo, tz);
}

function periodo(b, tz) {
  const { primeiro, ultimo } = dias(b, tz);
  return `${dateShort(primeiro)} a ${dateShort(ultimo)}`;
}

function situacao(b, agora) {
  if (Date.parse(b.intervalo.fim) <= agora) return badge('Encerrada');
  if (Date.parse(b.intervalo.inicio) > agora) return badge('Agendada', 'info');
  return badge('Em vigor', 'sucesso');
}

function acoes(espaco, b, tz, hoje, agora, locatario, again) {
  if (Date.parse(b.intervalo.fim) <= agora) return '—';
  if (Date.parse(b.intervalo.inicio) > agora) return cancelar(espaco, b, tz, locatario, again);
  return encerrar(espaco, b, tz, hoje, locatario, again);
}

/** A lease not started yet is cancelled whole. */
function cancelar(espaco, b, tz, locatario, again) {
  return botaoQueConfirma({
    texto: 'Cancelar',
    oculto: `a locação de ${locatario}`,
    dialogo: {
      title: 'Cancelar esta locação?',
      body: [`${locatario}, ${periodo(b, tz)}. O espaço volta a aceitar reservas nesses dias.`],
      confirmText: 'Cancelar locação',
    },
    ocupado: 'Cancelando…',
    acao: () => new Action().run(`/api/admin/espacos/${espaco.id}/bloqueios/${b.id}`, { method: 'DELETE' }),
    depois: () => {
      forget({ espacoId: espaco.id });
      flash('Locação cancelada.', 'sucesso', { next: true });
      again();
    },
  });
}

/** A running lease ends early: its new last day (today or later, before the current last day). */
function encerrar(espaco, b, tz, hoje, locatario, again) {
  const { ultimo } = dias(b, tz);
  const form = h('form', { class: 'inline-form', novalidate: true, 'aria-label': `Encerrar a locação de ${locatario} antes do fim` },
    field({
      label: 'Novo último dia', name: 'ultimoDia', type: 'date', required: true, value: hoje,
      attrs: { min: hoje, max: addDays(ultimo, -1) },
    }),
    h('button', { type: 'submit', class: 'button button--secondary button--small' }, 'Encerrar antes'));
  const action = new Action();
  onSubmit(form, async () => {
    const dia = val(form, 'ultimoDia');
    if (!isDate(dia)) return fieldError(form, 'ultimoDia', 'Informe o novo último dia.');
    if (dia < hoje) return fieldError(form, 'ultimoDia', 'O último dia não pode ser antes de hoje.');
    if (dia >= ultimo) return fieldError(form, 'ultimoDia', `A locação já termina em ${dateShort(ultimo)}; escolha um dia antes.`);
    const ok = await confirmDialog({
      title: 'Encerrar a locação antes do fim?',
      body: [`${locatario}: o último dia passa a ser ${dateShort(dia)}. A partir do dia seguinte, o espaço aceita reservas.`],
      confirmText: 'Encerrar locação',
      danger: true,
    });
    if (!ok) return;
    const fim = isoWithOffset(zonedToMs(addDays(dia, 1), 0, tz), tz);
    await action.run(`/api/admin/espacos/${espaco.id}/bloqueios/${b.id}`, { method: 'PATCH', body: { fim } });
    forget({ espacoId: espaco.id });
    flash(`Locação encerrada: o último dia é ${dateShort(dia)}.`, 'sucesso', { next: true });
    again();
  }, { busyText: 'Encerrando…' });
  return form;
}

function novaLocacao(espaco, tz, hoje, empresas, signal, again) {
  const meses = Array.from({ length: 12 }, (_, i) => [String(i + 1), i === 0 ? '1 mês' : `${i + 1} meses`]);
  const form = h('form', { class: 'form panel', novalidate: true, 'aria-labelledby': 'nova-locacao' },
    h('h2', { id: 'nova-locacao' }, 'Nova locação'),
    radios({ legend: 'Locatário', name: 'tipoDeLocatario', options: [['empresa', 'Uma empresa'], ['membro', 'Um membro']], checked: empresas.length ? 'empresa' : 'membro' }));
  const empresa = field({
    label: 'Empresa', name: 'empresaId', type: 'select',
    options: [['', empresas.length ? 'Escolha a empresa…' : 'Nenhuma empresa cadastrada'], ...empresas.map((e) => [e.empresaId, e.nome])],
  });
  const membro = buscaDeMembro({
    form, signal, quem: 'o membro locatário',
    busca: { name: 'emailDoMembro', label: 'E-mail do membro', oque: 'membro', verbo: 'agende' },
    escolha: { name: 'usuarioId', label: 'Membro' },
  });
  const primeiroDia = field({ label: 'Primeiro dia', name: 'primeiroDia', type: 'date', required: true, value: hoje });
  const prazo = field({ label: 'Prazo', name: 'meses', type: 'select', options: meses, value: '12' });
  const resumo = h('p', { class: 'small', 'aria-live': 'polite' });
  form.append(
    empresa, membro.node,
    h('div', { class: 'form__row' }, primeiroDia, prazo),
    resumo,
    field({
      label: 'Observação', name: 'descricao', optional: true, hint: 'Só a equipe e o locatário veem (ex.: o número do contrato).',
      attrs: { maxlength: '200' },
    }),
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'button' }, 'Agendar locação')));

  const tipo = () => form.querySelector('input[name="tipoDeLocatario"]:checked')?.value;
  function mostrar() {
    empresa.hidden = tipo() !== 'empresa';
    membro.node.hidden = tipo() !== 'membro';
  }
  /**
   * The last day of a lease of `n` months from `dia`: the day before the same date `n` months on
   * (15 January + 1 month: 14 February); when that month has no such date, its last day (31
   * January + 1 month: 28 February).
   */
  function ultimoDia(dia, n) {
    const [y, m, d] = dia.split('-').map(Number);
    const fim = new Date(Date.UTC(y, m - 1 + n, d));
    if (fim.getUTCDate() !== d) {
      fim.setUTCDate(0);
      return fim.toISOString().slice(0, 10);
    }
    return addDays(fim.toISOString().slice(0, 10), -1);
  }
  function atualizar() {
    const dia = val(form, 'primeiroDia');
    replace(resumo, isDate(dia) ? `Último dia: ${dateShort(ultimoDia(dia, Number(val(form, 'meses'))))}.` : '');
  }
  form.addEventListener('change', () => { mostrar(); atualizar(); });
  mostrar();
  atualizar();

  const action = new Action();
  onSubmit(form, async () => {
    const dia = val(form, 'primeiroDia');
    let locatario;
    if (tipo() === 'empresa') {
      if (!val(form, 'empresaId')) return fieldError(form, 'empresaId', 'Escolha a empresa locatária.');
      locatario = { empresaId: val(form, 'empresaId') };
    } else {
      const escolhido = await membro.escolhido();
      if (!escolhido) return undefined;
      locatario = { usuarioId: escolhido.id };
    }
    if (!isDate(dia)) return fieldError(form, 'primeiroDia', 'Informe o primeiro dia.');
    if (dia < hoje) return fieldError(form, 'primeiroDia', 'A locação começa hoje ou depois.');
    const ate = ultimoDia(dia, Number(val(form, 'meses')));
    const body = {
      inicio: isoWithOffset(zonedToMs(dia, 0, tz), tz),
      fim: isoWithOffset(zonedToMs(addDays(ate, 1), 0, tz), tz),
      motivo: 'locacao',
      locatario,
    };
    if (val(form, 'descricao')) body.descricao = val(form, 'descricao');
    await action.run(`/api/admin/espacos/${espaco.id}/bloqueios`, { body });
    forget({ espacoId: espaco.id });
    flash(`Locação agendada: ${dateShort(dia)} a ${dateShort(ate)}.`, 'sucesso', { next: true });
    again();
  }, { busyText: 'Agendando…' });
  return form;
}
