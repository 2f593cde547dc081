// Company accounts, for operators (a tab of "Planos"): every company, 50 a page, with its CNPJ and
// how many people, managers and pending invitations it has — a name opens the company
// (views/admin/empresa.js) —, and the form that registers one: razão social, nome fantasia, CNPJ
// (its check digits are the server's to judge), billing e-mail, address and, optionally, its first
// manager, a member found by e-mail. The API's error shows next to the field it names. The list is
// a read model that may lag a moment behind a registration: after one, it is asked again until the
// new company shows.

import { api, Action, pausa } from '../../lib/api.js';
import { h, link, replace, append } from '../../lib/dom.js';
import { dateShort, localDate } from '../../lib/format.js';
import {
  pageHeader, loadInto, field, onSubmit, fieldError, val, table, pager, announce, busy, errorBox,
} from '../../lib/ui.js';
import { abasDosPlanos } from '../../lib/planos.js';
import { camposDoCadastro, erroDoCadastro } from '../../lib/empresas.js';

export function render({ container, query, setQuery, signal }) {
  let pagina = Math.max(1, Number(query.get('pagina')) || 1);
  let total = null;
  const lista = h('div', { 'aria-live': 'polite' });
  const resultado = h('div', { class: 'company-admin__result' });
  replace(container,
    pageHeader('Empresas', 'Contas de empresas: quem faz parte, quem gere e os convites pendentes. Cada CNPJ tem uma conta.'),
    abasDosPlanos('empresas'),
    resultado,
    h('section', { 'aria-labelledby': 'empresas-lista' }, h('h2', { id: 'empresas-lista' }, 'Todas as empresas'), lista),
    formularioNovo());

  /** `esperar`: the id of a company just registered, asked for again until the list has it. */
  function carregar({ esperar } = {}) {
    setQuery({ pagina: pagina > 1 ? pagina : '' });
    loadInto(lista, async () => {
      let page = await api('/api/admin/empresas', { query: { pagina }, signal });
      for (let tentativa = 0; esperar && tentativa < 20; tentativa += 1) {
        if (page.itens.some((e) => e.empresaId === esperar) || (total !== null && page.total > total)) break;
        await pausa(250, signal);
        page = await api('/api/admin/empresas', { query: { pagina }, signal });
      }
      return page;
    }, (page) => {
      total = page.total;
      append(lista,
        table({
          caption: 'Empresas por nome',
          className: 'table--palavras table--empresas',
          empty: 'Nenhuma empresa ainda. Cadastre a primeira abaixo.',
          rows: page.itens,
          rowAttrs: (e) => ({ dataset: { empresa: e.empresaId } }),
          columns: [
            {
              label: 'Empresa',
              cell: (e) => [link(`/admin/empresas/${encodeURIComponent(e.empresaId)}`, e.nome, { class: 'conta-link' }),
                e.razaoSocial !== e.nome ? h('span', { class: 'small block' }, e.razaoSocial) : null],
            },
            { label: 'CNPJ', cell: (e) => h('span', { class: 'mono company__cnpj' }, e.cnpj) },
            { label: 'Pessoas', cell: (e) => String(e.integrantes) },
            {
              label: 'Gestores',
              cell: (e) => (e.gestores ? String(e.gestores) : h('span', { class: 'company-admin__sem-gestor' }, '0 (nenhum)')),
            },
            { label: 'Convites', cell: (e) => String(e.convitesPendentes) },
            { label: 'Desde', cell: (e) => dateShort(localDate(Date.parse(e.criadaEm))) },
          ],
        }),
        page.total ? pager({
          pagina: page.pagina, total: page.total, noun: ['empresa', 'empresas'], label: 'Páginas das empresas',
          onPage: (n) => { pagina = n; carregar(); },
        }) : null);
    }, { signal, text: 'Carregando as empresas…' });
  }

  function dizer(texto, empresa) {
    const aviso = h('div', { class: 'alert alert--sucesso', tabindex: '-1' },
      h('p', {}, texto, ' ', link(`/admin/empresas/${encodeURIComponent(empresa.empresaId)}`, `Abrir ${empresa.nome}`), '.'));
    replace(resultado, aviso);
    announce(texto);
    aviso.focus();
  }

  function formularioNovo() {
    const campos = camposDoCadastro();
    const gestor = escolhaDoGestor();
    const form = h('form', { class: 'form panel company-create', novalidate: true, 'aria-labelledby': 'nova-empresa' },
      h('h2', { id: 'nova-empresa' }, 'Cadastrar empresa'),
      campos.nodes,
      gestor.node,
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'button' }, 'Cadastrar empresa')));
    const action = new Action();
    onSubmit(form, async () => {
      const lidos = campos.ler(form);
      if (lidos.erro) return fieldError(form, lidos.erro.campo, lidos.erro.mensagem);
      const escolhido = gestor.escolhido();
      if (escolhido.erro) return fieldError(form, escolhido.erro.campo, escolhido.erro.mensagem);
      const body = { ...lidos.cadastro };
      if (escolhido.pessoa) body.gestorId = escolhido.pessoa.id;
      let empresa;
      try {
        empresa = await action.run('/api/admin/empresas', { body, signal });
      } catch (error) {
        throw erroDoCadastro(error);
      }
      form.reset();
      gestor.limpar();
      dizer(`Empresa ${empresa.nome} cadastrada${escolhido.pessoa ? `, com ${escolhido.pessoa.nome} como gestor(a)` : ''}.`, empresa);
      carregar({ esperar: empresa.empresaId });
      return undefined;
    }, { busyText: 'Cadastrando…' });
    return form;
  }

  /**
   * The first manager: a member found by part of their e-mail ("Buscar"), chosen in a list.
   * `escolhido()` → {pessoa} (or {} for none), or {erro} when a search was typed and nobody chosen.
   */
  function escolhaDoGestor() {
    let encontrados = [];
    const busca = field({
      label: 'Buscar membro por e-mail', name: 'gestorBusca', type: 'search',
      hint: 'Parte do e-mail de quem já tem conta.', attrs: { autocomplete: 'off', spellcheck: 'false' },
    });
    const input = busca.querySelector('input');
    const buscar = h('button', { type: 'button', class: 'button button--secondary' }, 'Buscar');
    const escolha = field({ label: 'Gestor(a)', name: 'gestorId', type: 'select', options: [['', 'Nenhum por enquanto']] });
    escolha.hidden = true;
    const select = escolha.querySelector('select');
    const status = h('p', { class: 'small company-create__status', 'aria-live': 'polite' });
    const erro = h('div');

    async function procurar() {
      const termo = input.value.trim();
      replace(erro);
      if (!termo) {
        replace(status, 'Digite parte do e-mail de quem vai gerir a empresa.');
        input.focus();
        return;
      }
      const restore = busy(buscar, 'Buscando…');
      try {
        const page = await api('/api/admin/usuarios', { query: { email: termo }, signal });
        encontrados = page.itens.filter((u) => u.ativo && u.papel === 'membro');
        replace(select, h('option', { value: '' }, encontrados.length ? 'Escolha a pessoa…' : 'Nenhum por enquanto'),
          encontrados.map((u) => h('option', { value: u.id }, `${u.nome} — ${u.email}`)));
        if (encontrados.length === 1) select.value = encontrados[0].id;
        escolha.hidden = encontrados.length === 0;
        const texto = encontrados.length
          ? `${encontrados.length} ${encontrados.length === 1 ? 'membro encontrado' : 'membros encontrados'}${page.total > page.itens.length ? ' (os primeiros 50: refine a busca)' : ''}.`
          : 'Nenhum membro ativo com esse e-mail.';
        replace(status, texto);
        if (encontrados.length) select.focus();
      } catch (error) {
        if (error?.name === 'AbortError') return;
        replace(erro, errorBox(error));
      } finally {
        restore();
      }
    }

    buscar.addEventListener('click', procurar);
    // Enter in the search looks people up instead of registering the company.
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') {
        event.preventDefault();
        procurar();
      }
    });

    const node = h('fieldset', { class: 'fieldset company-create__manager' },
      h('legend', {}, 'Primeiro gestor', h('span', { class: 'field__optional' }, ' (opcional)')),
      h('p', { class: 'field__hint' }, 'Um membro que já tem conta: ele gere a empresa e convida os outros. Sem ele, convide o primeiro gestor pela página da empresa.'),
      h('div', { class: 'company-create__search' }, busca, buscar),
      status,
      erro,
      escolha);

    return {
      node,
      escolhido() {
        const id = select.value;
        if (id) return { pessoa: encontrados.find((u) => u.id === id) };
        if (!input.value.trim()) return {};
        if (escolha.hidden) {
          return { erro: { campo: 'gestorBusca', mensagem: 'Clique em "Buscar" e escolha a pessoa, ou apague a busca para cadastrar a empresa sem gestor.' } };
        }
        return { erro: { campo: 'gestorId', mensagem: 'Escolha a pessoa na lista, ou apague a busca para cadastrar a empresa sem gestor.' } };
      },
      limpar() {
        encontrados = [];
        replace(select, h('option', { value: '' }, 'Nenhum por enquanto'));
        escolha.hidden = true;
        replace(status);
        replace(erro);
      },
    };
  }

  carregar();
}
