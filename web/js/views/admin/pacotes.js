// Bundles of credits, for operators: every bundle (the archived ones marked) with what it gives,
// where, for how long and its price, "Arquivar" (confirmed in a dialog: off sale, what was bought
// stays), and the form that creates one. Amounts are typed as people say them — hours (to
// minutes) or R$ (to centavos) — and the API's error shows next to the field it names. A bundle
// has no versions: a new price is a new bundle, and the old one is archived.

import { allPages, Action } from '../../lib/api.js';
import { todasAsUnidades } from '../../lib/catalog.js';
import { h, replace, append, uid } from '../../lib/dom.js';
import { TIPOS } from '../../lib/labels.js';
import { money, dateShort, localDate, minutosDeHoras, duration, DEFAULT_TZ } from '../../lib/format.js';
import {
  pageHeader, loadInto, field, checkboxes, radios, onSubmit, fieldError, val, badge, table, confirmDialog, busy, errorBox, announce,
} from '../../lib/ui.js';
import { centavosDe, abasDosPlanos } from '../../lib/planos.js';
import { MEDIDAS, oQueDa, ondeVale, validade } from '../../lib/pacotes.js';

const VALIDADE_MAXIMA = 730;
const MAXIMO = { minutos: 600_000, centavos: 100_000_000 };

export function render({ container, signal }) {
  const lista = h('div', { class: 'bundle-admin' });
  const resultado = h('div', { class: 'plan-admin__result', role: 'status', 'aria-live': 'polite' });
  const novo = h('div');
  replace(container,
    pageHeader('Pacotes de créditos', 'Horas ou um valor de créditos vendidos sem plano, com validade contada do pagamento. Para mudar o preço ou os termos, crie um pacote novo e arquive o antigo: quem já comprou continua com o que comprou.'),
    abasDosPlanos('pacotes'),
    resultado,
    h('section', { 'aria-labelledby': 'pacotes-lista' }, h('h2', { id: 'pacotes-lista' }, 'Todos os pacotes'), lista),
    novo);
  let unidades = [];

  function carregar({ foco } = {}) {
    loadInto(lista, () => Promise.all([allPages('/api/admin/pacotes', { signal }), todasAsUnidades().catch(() => [])]), ([pacotes, us]) => {
      unidades = us;
      mostrar(pacotes);
      if (!novo.firstChild) replace(novo, formulario());
      if (foco) lista.querySelector(`tr[data-pacote="${CSS.escape(foco)}"] .bundle-admin__name`)?.focus();
    }, { signal, text: 'Carregando os pacotes…' });
  }

  function dizer(texto) {
    replace(resultado, h('p', { class: 'alert alert--sucesso' }, texto));
    announce(texto);
  }

  function mostrar(pacotes) {
    const ordem = [...pacotes].sort((a, b) => Number(a.arquivado) - Number(b.arquivado) || a.nome.localeCompare(b.nome, 'pt-BR'));
    append(lista, table({
      caption: 'À venda primeiro, por nome',
      className: 'table--palavras table--pacotes',
      empty: 'Nenhum pacote ainda. Crie o primeiro abaixo.',
      rows: ordem,
      rowAttrs: (p) => ({ dataset: { pacote: p.pacoteId }, class: p.arquivado ? 'bundle-admin__row--arquivado' : null }),
      columns: [
        {
          label: 'Pacote',
          cell: (p) => [
            h('strong', { class: 'block bundle-admin__name', tabindex: '-1' }, p.nome),
            p.descricao ? h('span', { class: 'small block' }, p.descricao) : null,
          ],
        },
        { label: 'Créditos', cell: (p) => oQueDa(p) },
        { label: 'Onde', cell: (p) => ondeVale(p, unidades) },
        { label: 'Validade', cell: (p) => (p.validadeDias === 1 ? '1 dia (24 h)' : `${p.validadeDias} dias`) },
        { label: 'Preço', cell: (p) => money(p.precoCentavos), class: 'num' },
        {
          label: 'Situação',
          cell: (p) => [p.arquivado ? badge('Arquivado', 'neutro') : badge('À venda', 'sucesso'),
            h('span', { class: 'small block' }, `Criado em ${dateShort(localDate(Date.parse(p.criadoEm), DEFAULT_TZ))}`)],
        },
        { label: 'Ações', cell: (p) => (p.arquivado ? '—' : arquivar(p)) },
      ],
    }));
  }

  function arquivar(p) {
    const botao = h('button', { type: 'button', class: 'button button--small button--danger' }, 'Arquivar', h('span', { class: 'visually-hidden' }, ` ${p.nome}`));
    const erro = h('div');
    botao.addEventListener('click', async () => {
      const ok = await confirmDialog({
        title: `Arquivar o pacote ${p.nome}?`,
        body: ['Ele sai de venda: ninguém mais o compra. Quem já comprou continua com os créditos até o fim da validade, e as compras aguardando pagamento ainda podem ser pagas.'],
        confirmText: 'Arquivar', danger: true,
      });
      if (!ok) return;
      const restore = busy(botao, 'Arquivando…');
      try {
        await new Action().run(`/api/admin/pacotes/${encodeURIComponent(p.pacoteId)}/arquivamento`, { signal });
        dizer(`Pacote ${p.nome} arquivado: saiu de venda.`);
        carregar({ foco: p.pacoteId });
      } catch (error) {
        if (error?.name === 'AbortError') return;
        restore();
        replace(erro, errorBox(error));
      }
    });
    return [h('div', { class: 'row-actions' }, botao), erro];
  }

  function formulario() {
    const tituloId = uid('novo-pacote');
    const medida = radios({ legend: 'Medida', name: 'medida', checked: 'minutos', options: Object.entries(MEDIDAS) });
    const quantidade = field({
      label: 'Quantidade de horas', name: 'quantidade', required: true,
      hint: 'Em horas: 10, 1,5 ou 1:30.', attrs: { inputmode: 'decimal', autocomplete: 'off' },
    });
    const tipos = checkboxes({ legend: 'Os créditos valem em', name: 'tipos', options: Object.entries(TIPOS) });
    tipos.querySelector('legend').after(h('p', { class: 'field__hint' }, 'Nenhum marcado: qualquer espaço.'));
    const preset = h('button', { type: 'button', class: 'button button--secondary' }, 'Preencher como passe diário');
    const previa = h('p', { class: 'bundle-admin__preview', 'aria-live': 'polite' });
    const form = h('form', { class: 'form panel plan-create bundle-create', novalidate: true, 'aria-labelledby': tituloId },
      h('h2', { id: tituloId }, 'Novo pacote'),
      h('div', { class: 'bundle-create__preset' },
        preset,
        h('p', { class: 'small' }, 'Marca horas de estação compartilhada válidas por 1 dia (12 h, se a quantidade estiver em branco); o nome e o preço ficam com você.')),
      field({ label: 'Nome', name: 'nome', required: true, hint: 'Como os membros o veem. Ex.: 10 horas de sala de reunião', attrs: { maxlength: '100', autocomplete: 'off' } }),
      field({ label: 'Descrição', name: 'descricao', type: 'textarea', optional: true, attrs: { maxlength: '500' } }),
      field({
        label: 'Unidade', name: 'unidadeId', type: 'select', value: '',
        hint: 'Onde os créditos podem ser usados.',
        options: [['', 'Toda a rede'], ...unidades.map((u) => [u.id, u.nome])],
      }),
      h('fieldset', { class: 'fieldset' },
        h('legend', {}, 'Créditos de cada compra'),
        medida,
        h('div', { class: 'form__row' },
          quantidade,
          field({
            label: 'Validade (dias)', name: 'validadeDias', type: 'number', required: true, value: '30',
            hint: `Contados do pagamento, de 1 a ${VALIDADE_MAXIMA}.`, attrs: { min: '1', max: String(VALIDADE_MAXIMA), step: '1', inputmode: 'numeric' },
          })),
        tipos),
      field({
        label: 'Preço (R$)', name: 'precoCentavos', required: true,
        hint: 'O que o membro paga, uma vez. Ex.: 450,00', attrs: { inputmode: 'decimal', autocomplete: 'off' },
      }),
      previa,
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'button' }, 'Criar pacote')));

    const porMedida = {
      minutos: { label: 'Quantidade de horas', hint: 'Em horas: 10, 1,5 ou 1:30.' },
      centavos: { label: 'Valor em créditos (R$)', hint: 'Um valor para pagar reservas. Ex.: 50,00' },
    };
    const sync = () => {
      const m = form.elements.medida.value || 'minutos';
      quantidade.querySelector('label').textContent = porMedida[m].label;
      quantidade.querySelector('.field__hint').textContent = porMedida[m].hint;
      const lido = ler(form, { silencioso: true });
      const texto = lido.pacote
        ? `${oQueDa(lido.pacote)} · ${validade(lido.pacote).toLocaleLowerCase('pt-BR')} · ${money(lido.pacote.precoCentavos)}` : '';
      // said again only when it changes (typing the name changes nothing here)
      if (previa.dataset.texto === texto) return;
      previa.dataset.texto = texto;
      replace(previa, texto ? [h('strong', {}, 'Como os membros veem: '), texto] : null);
    };
    form.addEventListener('change', sync);
    form.addEventListener('input', sync);
    sync();

    preset.addEventListener('click', () => {
      form.querySelector('input[name="medida"][value="minutos"]').checked = true;
      for (const el of form.querySelectorAll('input[name="tipos"]')) el.checked = el.value === 'estacao_compartilhada';
      form.elements.validadeDias.value = '1';
      if (!val(form, 'quantidade')) form.elements.quantidade.value = '12';
      sync();
      announce('Preenchido como passe diário: horas de estação compartilhada, válidas por 1 dia.');
      form.elements.nome.focus();
    });

    const action = new Action();
    onSubmit(form, async () => {
      const lido = ler(form);
      if (lido.erro) return fieldError(form, lido.erro.campo, lido.erro.mensagem);
      let pacote;
      try {
        pacote = await action.run('/api/admin/pacotes', { body: lido.pacote, signal });
      } catch (error) {
        throw emPalavras(error, lido.pacote);
      }
      form.reset();
      sync();
      dizer(`Pacote ${pacote.nome} criado e à venda: ${oQueDa(pacote)} por ${money(pacote.precoCentavos)}.`);
      carregar({ foco: pacote.pacoteId });
      return undefined;
    }, { busyText: 'Criando…' });
    return form;
  }

  carregar();
}

/**
 * The form in the API's units: {pacote} (nome, descricao?, unidadeId?, medida, quantidade in
 * minutes or centavos, tipos, validadeDias, precoCentavos), or {erro: {campo, mensagem}}.
 * `silencioso`: for the preview, only whether it can be read.
 */
function ler(form, { silencioso = false } = {}) {
  const erro = (campo, mensagem) => ({ erro: { campo, mensagem } });
  const nome = val(form, 'nome');
  if (!nome && !silencioso) return erro('nome', 'Dê um nome ao pacote.');
  const medida = form.elements.medida.value || 'minutos';
  const texto = val(form, 'quantidade');
  let quantidade;
  if (medida === 'minutos') {
    if (!texto) return erro('quantidade', 'Informe quantas horas o pacote dá, como 10.');
    quantidade = minutosDeHoras(texto);
    if (quantidade === null) return erro('quantidade', 'Não entendi as horas: use 10, 1,5 ou 1:30.');
    if (quantidade < 1) return erro('quantidade', 'Informe mais que zero horas.');
    if (quantidade > MAXIMO.minutos) return erro('quantidade', `O máximo é ${duration(MAXIMO.minutos)}.`);
  } else {
    if (!texto) return erro('quantidade', 'Informe o valor em créditos, como 50,00.');
    const c = centavosDe(texto);
    if (c.erro) return erro('quantidade', c.erro);
    if (c.valor < 1) return erro('quantidade', 'Informe um valor maior que zero.');
    quantidade = c.valor;
  }
  const dias = val(form, 'validadeDias');
  if (!/^\d+$/.test(dias) || Number(dias) < 1 || Number(dias) > VALIDADE_MAXIMA) {
    return erro('validadeDias', `A validade vai de 1 a ${VALIDADE_MAXIMA} dias (dois anos), em números inteiros.`);
  }
  const precoTexto = val(form, 'precoCentavos');
  if (!precoTexto) return erro('precoCentavos', 'Informe o preço em reais, como 450,00.');
  const preco = centavosDe(precoTexto);
  if (preco.erro) return erro('precoCentavos', preco.erro);
  if (preco.valor < 1) return erro('precoCentavos', 'O preço deve ser maior que zero.');
  const pacote = {
    nome,
    medida,
    quantidade,
    tipos: [...form.querySelectorAll('input[name="tipos"]:checked')].map((el) => el.value),
    validadeDias: Number(dias),
    precoCentavos: preco.valor,
  };
  const descricao = val(form, 'descricao');
  if (descricao) pacote.descricao = descricao;
  const unidadeId = val(form, 'unidadeId');
  if (unidadeId) pacote.unidadeId = unidadeId;
  return { pacote };
}

/** The API's refusal in the operator's words, still naming its field (showFormError puts it there). */
function emPalavras(error, pacote) {
  if (error?.code === 'nome_em_uso') {
    error.message = `Já há um pacote à venda chamado "${pacote.nome}" ${pacote.unidadeId ? 'nesta unidade' : 'na rede'}. Escolha outro nome ou arquive aquele.`;
  } else if (error?.code === 'dados_invalidos') {
    const frases = {
      quantidade: pacote.medida === 'centavos' ? 'O valor em créditos vai de R$ 0,01 a R$ 1.000.000,00.' : `As horas vão de 1 minuto a ${duration(MAXIMO.minutos)}.`,
      validadeDias: `A validade vai de 1 a ${VALIDADE_MAXIMA} dias.`,
      precoCentavos: 'O preço vai de R$ 0,01 a R$ 1.000.000,00.',
      nome: 'O nome deve ter de 1 a 100 caracteres.',
      descricao: 'A descrição deve ter até 500 caracteres.',
    };
    if (frases[error.campo]) error.message = frases[error.campo];
  }
  return error;
}
