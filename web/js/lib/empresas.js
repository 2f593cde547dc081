// Company accounts in words, for the member ("Minha empresa") and for operators alike: the
// registration (names, CNPJ, billing e-mail, address) with its edit form; and, for a company's
// managers and for operators, its management — the people with their roles ("Tornar gestor(a)",
// "Tornar membro", "Remover") and monthly caps on the company's credits ("Alterar limite"), the
// pending invitations ("Revogar"), and the invitation form whose
// answer is the link to copy (it is also e-mailed). Both act through /api/empresas/{id}.
// The registration's fields are shared with the operator's form that registers a company
// (views/admin/empresas.js), and the API's errors show next to the field they name.

import { api, Action } from './api.js';
import { h, replace, uid } from './dom.js';
import { PAPEIS_NA_EMPRESA, PAPEIS_NA_EMPRESA_DICA, UFS } from './labels.js';
import { dateShort, dateTime, localDate } from './format.js';
import {
  badge, facts, table, field, radios, onSubmit, fieldError, val, confirmDialog, busy, errorBox, announce,
} from './ui.js';
import { limiteEmPalavras, temLimite, formularioDeLimite } from './empresa-plano.js';

/** The API's path of a company. */
export function caminhoDaEmpresa(id) {
  return `/api/empresas/${encodeURIComponent(id)}`;
}

/** "Gestor(a)", "Membro". */
export function papelEmPalavras(papel) {
  return PAPEIS_NA_EMPRESA[papel] ?? papel;
}

/** A role as a badge: managers stand out. */
export function badgeDoPapel(papel) {
  return badge(papelEmPalavras(papel), papel === 'gestor' ? 'info' : 'neutro');
}

/** An e-mail that a narrow card may break after its "@" (rather than inside its domain). */
function emailQuebravel(email) {
  const arroba = email.indexOf('@');
  return arroba < 0 ? email : [email.slice(0, arroba + 1), h('wbr'), email.slice(arroba + 1)];
}

/** An instant as the day it fell on in São Paulo: "25/11/2026". */
function dia(iso) {
  return dateShort(localDate(Date.parse(iso)));
}

/** The address in three lines: street and number, district and city, CEP. */
export function enderecoEmLinhas(e = {}) {
  const rua = [e.logradouro, e.numero, e.complemento].filter(Boolean).join(', ');
  const cidade = [e.bairro, [e.cidade, e.uf].filter(Boolean).join('/')].filter(Boolean).join(' — ');
  return h('span', { class: 'company__address' },
    h('span', { class: 'block' }, rua),
    h('span', { class: 'block' }, cidade),
    e.cep ? h('span', { class: 'block' }, `CEP ${e.cep}`) : null);
}

/** The registration as a definition list. */
export function dadosDaEmpresa(e) {
  return facts([
    ['Razão social', e.razaoSocial],
    e.nomeFantasia ? ['Nome fantasia', e.nomeFantasia] : null,
    ['CNPJ', h('span', { class: 'mono company__cnpj' }, e.cnpj)],
    ['E-mail de cobrança', e.emailDeCobranca],
    ['Endereço', enderecoEmLinhas(e.endereco)],
    e.criadaEm ? ['Conta criada em', dia(e.criadaEm)] : null,
  ]);
}

/** The full address of an invitation's link (`/convite/<token>`), to copy. */
export function enderecoDoConvite(link) {
  return `${location.origin}${link}`;
}

// ---- the registration's fields ---------------------------------------------------------------------

const TAMANHO_MAXIMO = 200;

/** The API's 422 about a field of the registration, in words a person fixes. */
const ERROS_DO_CADASTRO = {
  razaoSocial: `Informe a razão social, com até ${TAMANHO_MAXIMO} caracteres.`,
  nomeFantasia: `O nome fantasia tem até ${TAMANHO_MAXIMO} caracteres.`,
  emailDeCobranca: 'Informe um e-mail de cobrança válido, como financeiro@empresa.com.br.',
  'endereco.logradouro': `Informe o logradouro, com até ${TAMANHO_MAXIMO} caracteres.`,
  'endereco.numero': 'Informe o número (ou "s/n").',
  'endereco.complemento': `O complemento tem até ${TAMANHO_MAXIMO} caracteres.`,
  'endereco.bairro': `O bairro tem até ${TAMANHO_MAXIMO} caracteres.`,
  'endereco.cidade': `Informe a cidade, com até ${TAMANHO_MAXIMO} caracteres.`,
  'endereco.uf': 'Escolha a UF do endereço.',
  'endereco.cep': 'Confira o CEP, como 01310-100.',
};

/**
 * Rewrites an API error about the registration so the form shows it next to its field in plain
 * words: the field's own message for a 422, the CNPJ for a company already registered, the first
 * manager for a person already in another company. Returns the error.
 */
export function erroDoCadastro(error) {
  if (error?.code === 'dados_invalidos' && ERROS_DO_CADASTRO[error.campo]) {
    error.message = ERROS_DO_CADASTRO[error.campo];
  } else if (error?.code === 'empresa_ja_cadastrada') {
    error.campo = 'cnpj';
    error.message = 'Já há uma empresa cadastrada com este CNPJ.';
  } else if (error?.code === 'outra_empresa') {
    error.campo = 'gestorId';
  }
  return error;
}

/** "11.222.333/0001-81" or "112223330001 81" → "11222333000181" (upper case). */
function cnpjSemPontuacao(texto) {
  return String(texto ?? '').toUpperCase().replace(/[.\-/\s]/g, '');
}

/**
 * The fields of a company's registration, filled from `e` when given (then the CNPJ is read-only:
 * another CNPJ is another company). `ler(form)` → {cadastro} in the API's shape, or
 * {erro: {campo, mensagem}} for the first field a person must fix.
 */
export function camposDoCadastro(e) {
  const end = e?.endereco ?? {};
  const editando = Boolean(e);
  const nodes = [
    h('div', { class: 'form__row' },
      field({
        label: 'Razão social', name: 'razaoSocial', required: true, value: e?.razaoSocial ?? '',
        hint: 'Como está no cartão do CNPJ.', attrs: { maxlength: String(TAMANHO_MAXIMO), autocomplete: 'organization' },
      }),
      field({
        label: 'Nome fantasia', name: 'nomeFantasia', optional: true, value: e?.nomeFantasia ?? '',
        hint: 'Sem ele, a empresa aparece pela razão social.', attrs: { maxlength: String(TAMANHO_MAXIMO) },
      })),
    h('div', { class: 'form__row' },
      field({
        label: 'CNPJ', name: 'cnpj', required: true, value: e?.cnpj ?? '',
        hint: editando ? 'Não muda: outro CNPJ é outra empresa.' : 'Ex.: 11.222.333/0001-81 ou 12.ABC.345/01DE-35',
        attrs: {
          autocomplete: 'off', spellcheck: 'false', maxlength: '18', class: 'mono', autocapitalize: 'characters',
          ...(editando ? { readonly: 'readonly' } : {}),
        },
      }),
      field({
        label: 'E-mail de cobrança', name: 'emailDeCobranca', type: 'email', required: true, value: e?.emailDeCobranca ?? '',
        hint: 'Para onde vão as faturas da empresa.', attrs: { autocomplete: 'off', inputmode: 'email' },
      })),
    h('fieldset', { class: 'fieldset' },
      h('legend', {}, 'Endereço'),
      h('div', { class: 'form__row' },
        field({ label: 'Logradouro', name: 'logradouro', required: true, value: end.logradouro ?? '', attrs: { autocomplete: 'address-line1', maxlength: String(TAMANHO_MAXIMO) } }),
        field({ label: 'Número', name: 'numero', required: true, value: end.numero ?? '', attrs: { maxlength: '20' } })),
      h('div', { class: 'form__row' },
        field({ label: 'Complemento', name: 'complemento', optional: true, value: end.complemento ?? '', attrs: { autocomplete: 'address-line2', maxlength: String(TAMANHO_MAXIMO) } }),
        field({ label: 'Bairro', name: 'bairro', optional: true, value: end.bairro ?? '', attrs: { maxlength: String(TAMANHO_MAXIMO) } })),
      h('div', { class: 'form__row' },
        field({ label: 'Cidade', name: 'cidade', required: true, value: end.cidade ?? '', attrs: { autocomplete: 'address-level2', maxlength: String(TAMANHO_MAXIMO) } }),
        field({ label: 'UF', name: 'uf', type: 'select', required: true, value: end.uf ?? 'SP', options: UFS.map((uf) => [uf, uf]) }),
        field({ label: 'CEP', name: 'cep', required: true, value: end.cep ?? '', attrs: { autocomplete: 'postal-code', inputmode: 'numeric', maxlength: '9' } }))),
  ];
  return {
    nodes,
    ler(form) {
      const erro = (campo, mensagem) => ({ erro: { campo, mensagem } });
      const razaoSocial = val(form, 'razaoSocial');
      if (!razaoSocial) return erro('razaoSocial', 'Informe a razão social, como está no cartão do CNPJ.');
      const cnpj = cnpjSemPontuacao(val(form, 'cnpj'));
      if (!cnpj) return erro('cnpj', 'Informe o CNPJ da empresa.');
      if (!/^[0-9A-Z]{12}[0-9]{2}$/.test(cnpj)) {
        return erro('cnpj', 'O CNPJ tem 14 caracteres: 12 letras ou números e 2 dígitos verificadores. Ex.: 11.222.333/0001-81.');
      }
      const emailDeCobranca = val(form, 'emailDeCobranca');
      if (!emailDeCobranca) return erro('emailDeCobranca', 'Informe o e-mail que recebe as faturas da empresa.');
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(emailDeCobranca)) return erro('emailDeCobranca', ERROS_DO_CADASTRO.emailDeCobranca);
      const endereco = {};
      for (const [campo, texto] of [['logradouro', 'Informe o logradouro.'], ['numero', 'Informe o número (ou "s/n").'], ['cidade', 'Informe a cidade.'], ['cep', 'Informe o CEP.']]) {
        endereco[campo] = val(form, campo);
        if (!endereco[campo]) return erro(campo, texto);
      }
      if (!/^\d{5}-?\d{3}$/.test(endereco.cep)) return erro('cep', 'Use os 8 números do CEP, como 01310-100.');
      endereco.uf = val(form, 'uf');
      for (const campo of ['complemento', 'bairro']) {
        if (val(form, campo)) endereco[campo] = val(form, campo);
      }
      const cadastro = { razaoSocial, cnpj: editando ? e.cnpj : cnpj, emailDeCobranca, endereco };
      const nomeFantasia = val(form, 'nomeFantasia');
      if (nomeFantasia) cadastro.nomeFantasia = nomeFantasia;
      return { cadastro };
    },
  };
}

// ---- the company's page: what it is, what was just done ----------------------------------------------

/**
 * A message after an action, at the top of the page: a string (good news) or {texto, tipo}; after
 * an invitation (`convite`), its link to copy. Focused (and read out) so keyboard and
 * screen-reader users hear what happened.
 */
export function avisoDaEmpresa(mensagem, convite) {
  if (convite) return linkDoConvite(convite);
  if (!mensagem) return null;
  const texto = typeof mensagem === 'string' ? mensagem : mensagem.texto;
  return h('p', { class: `alert alert--${mensagem.tipo ?? 'sucesso'} company__message`, tabindex: '-1' }, texto);
}

/** Focuses the message avisoDaEmpresa() put in `root` and says it. */
export function focarAviso(root) {
  const aviso = root.querySelector('.company__message');
  if (!aviso) return;
  announce(aviso.querySelector('.company__said')?.textContent ?? aviso.textContent);
  aviso.focus();
}

/**
 * The company under `titulo` (its name, unless the page's heading already says it), the caller's
 * role (`papel`, when they are in it), the registration and, for those who manage it (`gere`), the
 * button that opens the registration's edit form.
 * `onChange(empresa, mensagem)` after a save.
 */
export function resumoDaEmpresa(e, { papel, gere = false, signal, onChange, titulo = e.nome } = {}) {
  const tituloId = uid('empresa-titulo');
  const editarBox = h('div', { id: uid('editar-empresa') });
  editarBox.hidden = true;
  let editar = null;
  if (gere) {
    editar = h('button', { type: 'button', class: 'button button--secondary', 'aria-expanded': 'false', 'aria-controls': editarBox.id },
      'Editar dados da empresa');
    const fechar = () => {
      editarBox.hidden = true;
      editar.setAttribute('aria-expanded', 'false');
      replace(editarBox);
      editar.focus();
    };
    editar.addEventListener('click', () => {
      const abrir = editarBox.hidden;
      if (!abrir) return fechar();
      editarBox.hidden = false;
      editar.setAttribute('aria-expanded', 'true');
      replace(editarBox, formularioDeEdicao(e, { signal, onChange, fechar }));
      editarBox.querySelector('input:not([readonly])')?.focus();
      return undefined;
    });
  }
  return h('section', { class: 'panel company', 'aria-labelledby': tituloId, dataset: { empresa: e.empresaId } },
    h('div', { class: 'company__head' },
      h('h2', { id: tituloId, class: 'company__name' }, titulo),
      papel ? h('p', { class: 'company__role' }, 'Seu papel: ', badgeDoPapel(papel)) : null),
    dadosDaEmpresa(e),
    editar ? h('div', { class: 'actions' }, editar) : null,
    editarBox);
}

function formularioDeEdicao(e, { signal, onChange, fechar }) {
  const campos = camposDoCadastro(e);
  const tituloId = uid('editar-titulo');
  const form = h('form', { class: 'form company__edit', novalidate: true, 'aria-labelledby': tituloId },
    h('h3', { id: tituloId }, 'Dados da empresa'),
    campos.nodes,
    h('div', { class: 'actions' },
      h('button', { type: 'submit', class: 'button' }, 'Salvar dados'),
      h('button', { type: 'button', class: 'button button--secondary', onclick: fechar }, 'Voltar')));
  const action = new Action();
  onSubmit(form, async () => {
    const lidos = campos.ler(form);
    if (lidos.erro) return fieldError(form, lidos.erro.campo, lidos.erro.mensagem);
    try {
      const nova = await action.run(caminhoDaEmpresa(e.empresaId), { method: 'PUT', body: lidos.cadastro, signal });
      onChange?.(nova, 'Dados da empresa salvos.');
    } catch (error) {
      throw erroDoCadastro(error);
    }
    return undefined;
  }, { busyText: 'Salvando…' });
  return form;
}

// ---- managing it: people, invitations, the invitation form -----------------------------------------------

/**
 * The people and invitations of a company (`e` as its managers and operators read it) and the
 * form that invites someone. `eu`: the caller's account id (their own row offers no action:
 * leaving is elsewhere). `onChange(empresa, mensagem, {convite})` after each action (`convite`:
 * the invitation just made, whose link avisoDaEmpresa() shows).
 */
export function painelDeGestao(e, { eu, signal, onChange } = {}) {
  const base = caminhoDaEmpresa(e.empresaId);
  const integrantes = e.integrantes ?? [];
  const convites = e.convites ?? [];
  const gestores = integrantes.filter((i) => i.papel === 'gestor').length;
  const nomes = new Map(integrantes.map((i) => [i.usuarioId, i.nome]));
  const nomeDe = (i) => i.nome ?? 'Conta apagada';

  /** Runs `fazer()` from `botao`; the error shows beside the button, with focus. */
  const executar = async (botao, fazer, mensagem, busyText) => {
    const celula = botao.closest('.row-actions') ?? botao.parentElement;
    celula.parentElement.querySelector(':scope > .alert')?.remove();
    const restore = busy(botao, busyText);
    try {
      const nova = await fazer();
      onChange?.(nova, mensagem);
    } catch (error) {
      if (error?.name === 'AbortError') return;
      if (botao.isConnected) restore();
      const box = errorBox(error);
      box.setAttribute('tabindex', '-1');
      celula.after(box);
      box.focus();
    }
  };

  function acoes(i) {
    if (i.usuarioId === eu) return h('span', { class: 'small' }, '—');
    if (i.papel === 'gestor' && gestores === 1) {
      return h('span', { class: 'small' }, 'Única pessoa gestora: torne outra pessoa gestora antes de mudar esta.');
    }
    const nome = nomeDe(i);
    const novo = i.papel === 'gestor' ? 'membro' : 'gestor';
    const papel = h('button', { type: 'button', class: 'button button--small button--secondary' },
      novo === 'gestor' ? 'Tornar gestor(a)' : 'Tornar membro', h('span', { class: 'visually-hidden' }, ` — ${nome}`));
    papel.addEventListener('click', async () => {
      const ok = await confirmDialog({
        title: novo === 'gestor' ? `Tornar ${nome} gestor(a)?` : `Tornar ${nome} membro?`,
        body: [novo === 'gestor'
          ? 'A pessoa passa a convidar pessoas, mudar os papéis, tirar pessoas da empresa e atualizar o cadastro.'
          : 'A pessoa continua na empresa, mas deixa de convidar pessoas, mudar os papéis e atualizar o cadastro.'],
        confirmText: novo === 'gestor' ? 'Tornar gestor(a)' : 'Tornar membro',
      });
      if (!ok) return;
      executar(papel, () => new Action().run(`${base}/integrantes/${encodeURIComponent(i.usuarioId)}/papel`, { method: 'PUT', body: { papel: novo }, signal }),
        novo === 'gestor' ? `${nome} agora é gestor(a) da empresa.` : `${nome} agora é membro da empresa.`, 'Salvando…');
    });
    const remover = h('button', { type: 'button', class: 'button button--small button--danger' },
      'Remover', h('span', { class: 'visually-hidden' }, ` ${nome}`));
    remover.addEventListener('click', async () => {
      const ok = await confirmDialog({
        title: `Tirar ${nome} da empresa?`,
        body: [`A pessoa deixa de fazer parte de ${e.nome}; a conta dela continua. Para voltar, precisa de um novo convite.`],
        confirmText: 'Remover', danger: true,
      });
      if (!ok) return;
      executar(remover, async () => {
        await new Action().run(`${base}/integrantes/${encodeURIComponent(i.usuarioId)}`, { method: 'DELETE', signal });
        return api(base, { signal });
      }, `${nome} não faz mais parte da empresa.`, 'Removendo…');
    });
    return h('div', { class: 'row-actions' }, papel, remover);
  }

  // each person's monthly cap on the company's credits, and the form that changes it (below the table)
  const limiteBox = h('div', { class: 'company__cap', id: uid('limite') });
  limiteBox.hidden = true;
  let abriuLimite = null;
  const fecharLimite = () => {
    limiteBox.hidden = true;
    replace(limiteBox);
    abriuLimite?.setAttribute('aria-expanded', 'false');
    if (abriuLimite?.isConnected) abriuLimite.focus();
    abriuLimite = null;
  };
  function limite(i) {
    const nome = nomeDe(i);
    const botao = h('button', {
      type: 'button', class: 'button button--small button--secondary', 'aria-expanded': 'false', 'aria-controls': limiteBox.id,
    }, 'Alterar limite', h('span', { class: 'visually-hidden' }, ` de ${nome}`));
    botao.addEventListener('click', () => {
      const mesmo = abriuLimite === botao && !limiteBox.hidden;
      abriuLimite?.setAttribute('aria-expanded', 'false');
      if (mesmo) return fecharLimite();
      abriuLimite = botao;
      botao.setAttribute('aria-expanded', 'true');
      limiteBox.hidden = false;
      replace(limiteBox, formularioDeLimite(e.empresaId, i, { signal, onDone: (nova, mensagem) => onChange?.(nova, mensagem), onCancel: fecharLimite }));
      limiteBox.scrollIntoView?.({ block: 'nearest' });
      limiteBox.querySelector('input')?.focus();
      return undefined;
    });
    return [h('span', { class: `block company__cap-text${temLimite(i.limite) ? '' : ' company__cap-text--none'}` }, limiteEmPalavras(i.limite)), botao];
  }

  const pessoas = h('section', { class: 'company__people', 'aria-labelledby': 'empresa-pessoas' },
    h('h2', { id: 'empresa-pessoas' }, `Pessoas (${integrantes.length})`),
    gestores === 0 ? h('p', { class: 'alert alert--info' }, 'A empresa ainda não tem gestor: convide alguém como gestor(a) abaixo, para que a própria empresa convide as pessoas dela.') : null,
    table({
      caption: `Quem faz parte de ${e.nome}`,
      className: 'table--palavras table--empresa-pessoas',
      empty: 'Ninguém ainda. Convide a primeira pessoa abaixo.',
      rows: integrantes,
      rowAttrs: (i) => ({ dataset: { usuario: i.usuarioId, papel: i.papel } }),
      columns: [
        { label: 'Nome', cell: (i) => [nomeDe(i), i.usuarioId === eu ? h('span', { class: 'small' }, ' (você)') : null] },
        { label: 'Papel', cell: (i) => badgeDoPapel(i.papel) },
        { label: 'Desde', cell: (i) => dia(i.desde) },
        { label: 'Limite mensal', cell: limite },
        { label: 'Ações', cell: acoes },
      ],
    }),
    limiteBox);

  function revogar(c) {
    const email = c.email ?? 'e-mail apagado';
    const botao = h('button', { type: 'button', class: 'button button--small button--secondary' },
      'Revogar', h('span', { class: 'visually-hidden' }, ` o convite de ${email}`));
    botao.addEventListener('click', async () => {
      const ok = await confirmDialog({
        title: `Revogar o convite de ${email}?`,
        body: ['O link deixa de valer: quem o abrir verá que o convite não vale mais. Você pode convidar de novo depois.'],
        confirmText: 'Revogar', danger: true,
      });
      if (!ok) return;
      executar(botao, () => new Action().run(`${base}/convites/${encodeURIComponent(c.conviteId)}`, { method: 'DELETE', signal }),
        `Convite de ${email} revogado: o link não vale mais.`, 'Revogando…');
    });
    return h('div', { class: 'row-actions' }, botao);
  }

  const pendentes = h('section', { class: 'company__invitations', 'aria-labelledby': 'empresa-convites' },
    h('h2', { id: 'empresa-convites' }, `Convites pendentes (${convites.length})`),
    table({
      caption: 'Convites ainda não aceitos',
      className: 'table--palavras table--empresa-convites',
      empty: 'Nenhum convite pendente.',
      rows: convites,
      rowAttrs: (c) => ({ dataset: { convite: c.conviteId, expirado: String(c.expirado) } }),
      columns: [
        { label: 'E-mail', cell: (c) => (c.email ? emailQuebravel(c.email) : h('span', { class: 'small' }, 'E-mail apagado')) },
        { label: 'Papel', cell: (c) => badgeDoPapel(c.papel) },
        {
          label: 'Validade',
          cell: (c) => (c.expirado
            ? [badge('Expirado', 'erro'), h('span', { class: 'small block' }, `em ${dateTime(c.expiraEm)}`)]
            : `até ${dateTime(c.expiraEm)}`),
        },
        {
          label: 'Enviado',
          cell: (c) => [h('span', { class: 'block' }, dia(c.em)),
            nomes.get(c.por) ? h('span', { class: 'small block' }, `por ${nomes.get(c.por)}`) : null],
        },
        { label: 'Ações', cell: revogar },
      ],
    }));

  return [pessoas, pendentes, formularioDeConvite(e, { signal, onChange })];
}

/** The invitation form. */
function formularioDeConvite(e, { signal, onChange }) {
  const base = caminhoDaEmpresa(e.empresaId);
  const papel = radios({
    legend: 'Papel na empresa', name: 'papel', checked: 'membro',
    options: Object.entries(PAPEIS_NA_EMPRESA).map(([valor, nome]) => [valor, `${nome}: ${PAPEIS_NA_EMPRESA_DICA[valor]}`]),
  });
  const form = h('form', { class: 'form company__invite-form', novalidate: true, 'aria-labelledby': 'empresa-convidar' },
    h('h2', { id: 'empresa-convidar' }, 'Convidar alguém'),
    h('p', {}, 'A pessoa recebe por e-mail um link que vale 7 dias. Ela entra com a conta dela (ou cria uma) e aceita o convite.'),
    field({ label: 'E-mail', name: 'email', type: 'email', required: true, attrs: { autocomplete: 'off', inputmode: 'email' } }),
    papel,
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'button' }, 'Enviar convite')));
  const action = new Action();
  onSubmit(form, async () => {
    const email = val(form, 'email');
    if (!email) return fieldError(form, 'email', 'Informe o e-mail de quem convidar.');
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) return fieldError(form, 'email', 'Confira o e-mail: ele precisa ser como nome@empresa.com.br.');
    const criado = await action.run(`${base}/convites`, { body: { email, papel: form.elements.papel.value || 'membro' }, signal });
    const nova = await api(base, { signal });
    onChange?.(nova, null, { convite: criado });
    return undefined;
  }, { busyText: 'Enviando…' });
  return h('section', { class: 'panel company__invite' }, form);
}

/** The invitation just made: who, until when, and its link in a read-only field with a copy button. */
function linkDoConvite(c) {
  const id = uid('link-do-convite');
  const endereco = enderecoDoConvite(c.link);
  const status = h('p', { class: 'small company__copy', 'aria-live': 'polite' });
  const input = h('input', { id, type: 'text', readonly: true, value: endereco, class: 'mono', spellcheck: 'false', 'aria-describedby': `${id}-dica` });
  const copiar = h('button', { type: 'button', class: 'button' }, 'Copiar link');
  copiar.addEventListener('click', () => copiarTexto(endereco, input, status, 'Link copiado. Cole numa mensagem para a pessoa convidada.'));
  return h('div', { class: 'alert alert--sucesso company__message company__link', tabindex: '-1', dataset: { convite: c.conviteId } },
    h('p', { class: 'company__said' }, h('strong', {}, `Convite enviado por e-mail para ${c.email}`),
      ` como ${papelEmPalavras(c.papel).toLowerCase()}. O link vale até ${dateTime(c.expiraEm)}.`),
    h('div', { class: 'field' },
      h('label', { for: id }, 'Link do convite'),
      h('p', { class: 'field__hint', id: `${id}-dica` }, 'Quem abrir este link e aceitar entra na empresa: mande-o só para quem você convidou.'),
      input),
    h('div', { class: 'actions' }, copiar),
    status);
}

/** Copies `text` (Clipboard API; else selects it for Ctrl+C) and says what happened. */
async function copiarTexto(text, input, statusEl, done) {
  try {
    await navigator.clipboard.writeText(text);
    replace(statusEl, done);
    announce(done);
    return;
  } catch {
    // No permission, or not a secure context: select it so the person can copy it.
  }
  input.focus();
  input.select();
  const message = 'Não foi possível copiar automaticamente: o link está selecionado, copie com Ctrl+C (ou toque e segure, no celular).';
  replace(statusEl, message);
  announce(message);
}
