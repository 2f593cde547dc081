// My data (LGPD): the profile, what is known about me in words (the export's `resumo`: who we
// know me as, my bookings, payments, the notices sent, my subscription, bundles and credits, my
// company, and the legal basis), a password change,
// the export of everything held about me as a JSON file, and the erasure of my personal data
// (irreversible, confirmed by typing a word).

import { api, Action } from '../lib/api.js';
import { todasAsUnidades } from '../lib/catalog.js';
import { session } from '../lib/session.js';
import { h, replace } from '../lib/dom.js';
import { PAPEIS, METODOS } from '../lib/labels.js';
import { dateTime, todayIn, zoneLabel, DEFAULT_TZ } from '../lib/format.js';
import {
  pageHeader, loadInto, facts, field, onSubmit, flash, fieldError, confirmDialog, downloadJSON, busy, errorBox, announce, table,
} from '../lib/ui.js';

const capitalised = (text) => String(text ?? '').charAt(0).toLocaleUpperCase('pt-BR') + String(text ?? '').slice(1);

/** "pagamento recebido (cartao)" → "Pagamento recebido (Cartão de crédito)". */
function oQue(text) {
  return capitalised(String(text ?? '').replace(/\((\w+)\)$/, (all, metodo) => (METODOS[metodo] ? `(${METODOS[metodo]})` : all)));
}

/**
 * The export's readable part as a section. Its bookings are already in their units' time; the
 * other instants are shown in the zone of the units the member booked in when they share one,
 * else in the platform's (São Paulo).
 */
function resumoSection(resumo, unidades) {
  const nomes = new Set((resumo.reservas ?? []).map((r) => r.unidade).filter(Boolean));
  const zonas = new Set(unidades.filter((u) => nomes.has(u.nome)).map((u) => u.fusoHorario));
  const tz = zonas.size === 1 ? [...zonas][0] : DEFAULT_TZ;
  const quem = resumo.comoConhecemosVoce ?? {};
  const assinatura = resumo.assinatura ?? null;
  const creditos = resumo.creditos ?? {};
  const empresa = resumo.empresa ?? null;
  const parte = (id, titulo, conteudo) => h('section', { class: 'resumo__parte', 'aria-labelledby': id }, h('h3', { id }, titulo), conteudo);
  return [
    h('p', {}, `O resumo do que a CoworkFlow guarda sobre você. Horários no ${zoneLabel(tz)}.`),
    parte('resumo-quem', 'Como conhecemos você', facts([
      ['Nome', quem.nome ?? '—'],
      ['E-mail', quem.email ?? '—'],
      ['Perfil', PAPEIS[quem.papel] ?? quem.papel ?? '—'],
      // The price rules' plan an operator puts the member in (a subscription is below).
      ['Plano de preços', !quem.plano || quem.plano === 'nenhum' ? 'Nenhum' : quem.plano],
      ['Cadastro', quem.cadastroEm ? dateTime(quem.cadastroEm, tz) : '—'],
    ])),
    parte('resumo-reservas', 'Suas reservas', table({
      empty: 'Nenhuma reserva.',
      rows: resumo.reservas ?? [],
      className: 'table--palavras',
      columns: [
        { label: 'Espaço', cell: (r) => r.espaco },
        { label: 'Unidade', cell: (r) => r.unidade || '—' },
        { label: 'Quando', cell: (r) => r.quando },
        { label: 'Situação', cell: (r) => capitalised(r.situacao) },
        { label: 'Total', cell: (r) => r.total, class: 'num' },
      ],
    })),
    parte('resumo-pagamentos', 'Pagamentos e reembolsos', table({
      empty: 'Nenhum pagamento.',
      rows: resumo.pagamentos ?? [],
      className: 'table--palavras',
      columns: [
        { label: 'Quando', cell: (p) => dateTime(p.em, tz) },
        { label: 'O quê', cell: (p) => oQue(p.o_que) },
        { label: 'Reserva', cell: (p) => p.reserva },
        { label: 'Valor', cell: (p) => p.valor ?? '—', class: 'num' },
      ],
    })),
    parte('resumo-avisos', 'Avisos que enviamos', table({
      empty: 'Nenhum aviso.',
      rows: resumo.avisos ?? [],
      className: 'table--palavras',
      columns: [
        { label: 'Quando', cell: (a) => dateTime(a.em, tz) },
        { label: 'Aviso', cell: (a) => a.titulo },
        { label: 'Como', cell: (a) => (a.por ? capitalised(`por ${a.por}`) : '—') },
      ],
    })),
    parte('resumo-assinatura', 'Sua assinatura', assinatura ? [
      facts([
        ['Plano', assinatura.plano],
        ['Situação', capitalised(assinatura.situacao)],
        ['Desde', assinatura.desde],
        ['Valor por ciclo', assinatura.valorPorCiclo],
        ['Pagamento', capitalised(assinatura.pagamento)],
      ]),
      table({
        empty: 'Nenhum ciclo ainda.',
        rows: assinatura.ciclos ?? [],
        className: 'table--palavras',
        caption: 'Últimos ciclos',
        columns: [
          { label: 'Período', cell: (c) => c.periodo },
          { label: 'Situação', cell: (c) => capitalised(c.situacao) },
          { label: 'Valor', cell: (c) => c.valor, class: 'num' },
        ],
      }),
    ] : h('p', {}, 'Nenhuma assinatura.')),
    parte('resumo-pacotes', 'Pacotes comprados', table({
      empty: 'Nenhum pacote.',
      rows: resumo.pacotes ?? [],
      className: 'table--palavras',
      columns: [
        { label: 'Quando', cell: (p) => dateTime(p.em, tz) },
        { label: 'Pacote', cell: (p) => p.pacote },
        { label: 'Situação', cell: (p) => capitalised(p.situacao) },
        { label: 'Válido até', cell: (p) => (p.validoAte ? dateTime(p.validoAte, tz) : '—') },
        { label: 'Valor', cell: (p) => p.valor, class: 'num' },
      ],
    })),
    parte('resumo-creditos', 'Seus créditos', [
      facts([['Horas', creditos.horas ?? '—'], ['Valor', creditos.valor ?? '—']]),
      table({
        empty: 'Nenhum crédito recebido.',
        rows: creditos.lotes ?? [],
        className: 'table--palavras',
        columns: [
          { label: 'Crédito', cell: (l) => l.descricao },
          { label: 'Recebido em', cell: (l) => dateTime(l.em, tz) },
          { label: 'Último dia', cell: (l) => l.ultimoDia ?? 'Sem validade' },
          { label: 'Recebidos', cell: (l) => l.recebidos, class: 'num' },
          { label: 'Restam', cell: (l) => l.restam, class: 'num' },
        ],
      }),
    ]),
    parte('resumo-empresa', 'Sua empresa', empresa ? facts([
      ['Empresa', empresa.nome === empresa.razaoSocial ? empresa.nome : `${empresa.nome} (${empresa.razaoSocial})`],
      ['Papel', capitalised(empresa.papel)],
      ['Desde', dateTime(empresa.desde, tz)],
      ['Limite mensal', empresa.limiteMensal ? `${empresa.limiteMensal} dos créditos da empresa` : 'Sem limite'],
    ]) : h('p', {}, 'Você não faz parte de uma empresa.')),
    parte('resumo-base', 'Consentimentos e base legal', h('p', {}, resumo.consentimentos ?? '—')),
  ];
}

export function render({ container, signal, navigate }) {
  const perfil = h('section', { class: 'panel', 'aria-labelledby': 'perfil' }, h('h2', { id: 'perfil' }, 'Sua conta'));
  const perfilBody = h('div');
  perfil.append(perfilBody);

  const resumo = h('section', { class: 'panel resumo', 'aria-labelledby': 'resumo' }, h('h2', { id: 'resumo' }, 'O que sabemos sobre você'));
  const resumoBody = h('div');
  resumo.append(resumoBody);

  // ---- password ----------------------------------------------------------------------------------
  const senhaForm = h('form', { class: 'form form--narrow', novalidate: true, 'aria-labelledby': 'trocar-senha' },
    h('h2', { id: 'trocar-senha' }, 'Trocar a senha'),
    // For password managers: which account this password belongs to.
    h('input', { type: 'email', name: 'username', autocomplete: 'username', value: session.usuario?.email ?? '', hidden: true, tabindex: '-1' }),
    field({ label: 'Senha atual', name: 'senhaAtual', type: 'password', required: true, attrs: { autocomplete: 'current-password' } }),
    field({ label: 'Nova senha', name: 'novaSenha', type: 'password', required: true, hint: 'Pelo menos 8 caracteres.', attrs: { autocomplete: 'new-password', minlength: '8' } }),
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'button' }, 'Trocar senha')));
  const senhaAction = new Action();
  onSubmit(senhaForm, async () => {
    const senhaAtual = senhaForm.elements.senhaAtual.value;
    const novaSenha = senhaForm.elements.novaSenha.value;
    if (!senhaAtual) return fieldError(senhaForm, 'senhaAtual', 'Informe a senha atual.');
    if (novaSenha.length < 8) return fieldError(senhaForm, 'novaSenha', 'A nova senha precisa ter pelo menos 8 caracteres.');
    // The change ends every session, this one too; the answer is a new one for this tab.
    const sessao = await senhaAction.run('/api/auth/me/senha', { body: { senhaAtual, novaSenha } });
    session.save({ token: sessao.token, expiraEm: sessao.expiraEm, usuario: sessao.usuario });
    senhaForm.reset();
    flash('Senha trocada. As outras sessões desta conta foram encerradas.', 'sucesso');
  }, { busyText: 'Trocando…' });

  // ---- export ------------------------------------------------------------------------------------
  const exportStatus = h('div', { 'aria-live': 'polite' });
  const exportButton = h('button', { type: 'button', class: 'button' }, 'Baixar meus dados (JSON)');
  exportButton.addEventListener('click', async () => {
    const restore = busy(exportButton, 'Gerando arquivo…');
    replace(exportStatus);
    try {
      const dados = await api('/api/auth/me/dados', { signal });
      downloadJSON(`coworkflow-meus-dados-${todayIn()}.json`, dados);
      replace(exportStatus, h('p', { class: 'alert alert--sucesso' }, `Arquivo gerado: ${dados.atividade?.length ?? 0} registros de atividade. Confira a pasta de downloads.`));
    } catch (error) {
      if (error?.name !== 'AbortError') replace(exportStatus, errorBox(error));
    } finally {
      restore();
    }
  });
  const exportar = h('section', { class: 'panel', 'aria-labelledby': 'exportar' },
    h('h2', { id: 'exportar' }, 'Exportar meus dados'),
    h('p', {}, 'Um arquivo com seu perfil, sua conta e toda a sua atividade (reservas, acessos), como a LGPD garante.'),
    exportButton, exportStatus);

  // ---- erase -------------------------------------------------------------------------------------
  const eraseStatus = h('div', { 'aria-live': 'polite' });
  const eraseButton = h('button', { type: 'button', class: 'button button--danger' }, 'Apagar meus dados');
  eraseButton.addEventListener('click', async () => {
    const ok = await confirmDialog({
      title: 'Apagar seus dados pessoais?',
      body: [
        'Seu nome, e-mail e demais dados pessoais serão apagados para sempre e você sairá da conta. Isso não pode ser desfeito.',
        'O histórico de reservas continua existindo, sem nada que identifique você.',
      ],
      confirmText: 'Apagar para sempre',
      cancelText: 'Não apagar',
      danger: true,
      requireText: 'APAGAR',
    });
    if (!ok) return;
    const restore = busy(eraseButton, 'Apagando…');
    try {
      await api('/api/auth/me', { method: 'DELETE' });
      session.clear();
      flash('Seus dados pessoais foram apagados e você saiu da conta.', 'sucesso', { next: true });
      navigate('/');
    } catch (error) {
      restore();
      replace(eraseStatus, errorBox(error));
    }
  });
  const apagar = h('section', { class: 'panel panel--danger', 'aria-labelledby': 'apagar' },
    h('h2', { id: 'apagar' }, 'Apagar meus dados'),
    h('p', {}, 'Apaga seus dados pessoais (LGPD, art. 18). Se tiver reservas futuras, cancele-as antes.'),
    eraseButton, eraseStatus);

  replace(container, pageHeader('Meus dados', 'Sua conta e seus direitos sobre os seus dados.'), perfil, senhaForm, resumo, exportar, apagar);

  loadInto(perfilBody, () => api('/api/auth/me', { signal }), (me) => {
    perfilBody.append(facts([
      ['Nome', me.nome],
      ['E-mail', me.email],
      ['Perfil', PAPEIS[me.papel] ?? me.papel],
      ['Cliente desde', dateTime(me.registradoEm)],
    ]));
    if (session.current) session.save({ ...session.current, usuario: me });
    announce('Dados da conta carregados');
  }, { signal });
  loadInto(resumoBody, () => Promise.all([api('/api/auth/me/dados', { signal }), todasAsUnidades().catch(() => [])]),
    ([dados, unidades]) => resumoBody.append(...resumoSection(dados.resumo ?? {}, unidades)),
    { signal, text: 'Carregando o resumo dos seus dados…' });
}
