// Plans, for operators: every plan (archived ones marked) with the version in force and those to
// come, its versions, a form for a new version (its terms from a date on) and the archive button;
// and the form that creates a plan. Amounts are typed as people say them — R$ (converted to
// centavos), hours (to minutes), percentages (to basis points) — and the API's error shows next
// to the field it names.

import { api, allPages, Action } from '../../lib/api.js';
import { todasAsUnidades } from '../../lib/catalog.js';
import { h, replace, append, uid } from '../../lib/dom.js';
import { TIPOS, DIAS } from '../../lib/labels.js';
import { dateShort, todayIn, addDays, isDate, moneyInput, duration, DEFAULT_TZ } from '../../lib/format.js';
import {
  pageHeader, loadInto, field, checkboxes, radios, onSubmit, fieldError, val, badge, facts, table, confirmDialog, busy, errorBox, announce,
} from '../../lib/ui.js';
import {
  PERIODICIDADES, abasDosPlanos, termosEmPares, versaoEm, avisosDeVersoes, resumoDosTermos, minutosDeHoras, centavosDe, bpDe,
} from '../../lib/planos.js';

const TZ = DEFAULT_TZ;

export function render({ container, signal }) {
  const lista = h('div', { class: 'plan-admin' });
  const resultado = h('div', { class: 'plan-admin__result', role: 'status', 'aria-live': 'polite' });
  replace(container,
    pageHeader('Planos', 'Mensalidades com horas e créditos por ciclo, roll-over e desconto nas reservas. Uma mudança de termos é uma nova versão, a partir de uma data.'),
    abasDosPlanos('planos'),
    resultado,
    h('section', { 'aria-labelledby': 'planos-lista' }, h('h2', { id: 'planos-lista' }, 'Todos os planos'), lista),
    h('div', { class: 'plan-admin__new' }));
  let unidades = [];

  function carregar({ foco } = {}) {
    loadInto(lista, () => Promise.all([allPages('/api/admin/planos', { signal }), todasAsUnidades().catch(() => [])]), ([planos, us]) => {
      unidades = us;
      mostrar(planos);
      if (!container.querySelector('.plan-create')) replace(container.querySelector('.plan-admin__new'), formularioNovo());
      if (foco) lista.querySelector(`[data-plano="${CSS.escape(foco)}"] h3`)?.focus();
    }, { signal, text: 'Carregando os planos…' });
  }

  function dizer(texto) {
    replace(resultado, h('p', { class: 'alert alert--sucesso' }, texto));
    announce(texto);
  }

  function mostrar(planos) {
    if (!planos.length) {
      append(lista, h('p', { class: 'empty' }, 'Nenhum plano ainda. Crie o primeiro abaixo.'));
      return;
    }
    const ordem = [...planos].sort((a, b) => Number(a.arquivado) - Number(b.arquivado) || a.nome.localeCompare(b.nome, 'pt-BR'));
    append(lista, h('ul', { class: 'plan-admin__list' }, ordem.map(cartao)));
  }

  function nomeDaUnidade(id) {
    if (!id) return 'Toda a rede';
    return unidades.find((u) => String(u.id).toLowerCase() === String(id).toLowerCase())?.nome ?? 'Uma unidade só';
  }

  function cartao(p) {
    const hoje = todayIn(TZ);
    const versao = versaoEm(p, hoje);
    const tituloId = uid('plano-titulo');
    const versaoBox = h('div', { id: uid('nova-versao') });
    versaoBox.hidden = true;
    const erro = h('div');
    const acoes = [];
    if (!p.arquivado) {
      const nova = h('button', { type: 'button', class: 'button button--secondary', 'aria-expanded': 'false', 'aria-controls': versaoBox.id },
        'Nova versão', h('span', { class: 'visually-hidden' }, ` de ${p.nome}`));
      nova.addEventListener('click', () => {
        const abrir = versaoBox.hidden;
        versaoBox.hidden = !abrir;
        nova.setAttribute('aria-expanded', String(abrir));
        if (abrir) {
          replace(versaoBox, formularioDeVersao(p, () => {
            versaoBox.hidden = true;
            nova.setAttribute('aria-expanded', 'false');
            nova.focus();
          }));
          versaoBox.querySelector('input')?.focus();
        }
      });
      const arquivar = h('button', { type: 'button', class: 'button button--danger' }, 'Arquivar', h('span', { class: 'visually-hidden' }, ` ${p.nome}`));
      arquivar.addEventListener('click', async () => {
        const ok = await confirmDialog({
          title: `Arquivar o plano ${p.nome}?`,
          body: ['Ele sai de venda: ninguém mais o assina nem troca para ele. As assinaturas em vigor continuam como estão.'],
          confirmText: 'Arquivar', danger: true,
        });
        if (!ok) return;
        const restore = busy(arquivar, 'Arquivando…');
        try {
          await new Action().run(`/api/admin/planos/${encodeURIComponent(p.planoId)}/arquivamento`, { signal });
          dizer(`Plano ${p.nome} arquivado: saiu de venda.`);
          carregar({ foco: p.planoId });
        } catch (error) {
          if (error?.name === 'AbortError') return;
          restore();
          replace(erro, errorBox(error));
        }
      });
      acoes.push(nova, arquivar);
    }
    const versoes = [...p.versoes].sort((a, b) => b.numero - a.numero);
    return h('li', { class: `panel plan-admin__item${p.arquivado ? ' plan-admin__item--arquivado' : ''}`, dataset: { plano: p.planoId } },
      h('div', { class: 'plan-admin__head' },
        h('h3', { id: tituloId, tabindex: '-1' }, p.nome),
        p.arquivado ? badge('Arquivado', 'neutro') : badge('À venda', 'sucesso')),
      p.descricao ? h('p', { class: 'small' }, p.descricao) : null,
      versao ? [
        h('p', { class: 'plan-admin__version' }, `Em vigor: versão ${versao.numero}, desde ${dateShort(versao.vigenteDesde)} · ${nomeDaUnidade(p.unidadeId)}`),
        facts(termosEmPares(versao.termos)),
      ] : null,
      avisosDeVersoes(p, hoje),
      versoes.length > 1 ? h('details', { class: 'plan-admin__versions' },
        h('summary', {}, `Todas as versões (${versoes.length})`),
        table({
          className: 'table--palavras',
          rows: versoes,
          columns: [
            { label: 'Versão', cell: (v) => String(v.numero) },
            { label: 'Vigente desde', cell: (v) => dateShort(v.vigenteDesde) },
            { label: 'Termos', cell: (v) => resumoDosTermos(v.termos) },
          ],
        })) : null,
      acoes.length ? h('div', { class: 'actions' }, acoes) : null,
      erro,
      versaoBox);
  }

  function formularioDeVersao(p, fechar) {
    const hoje = todayIn(TZ);
    const ultima = [...p.versoes].sort((a, b) => (a.vigenteDesde < b.vigenteDesde ? 1 : -1))[0];
    const minimo = [addDays(hoje, 1), ultima ? addDays(ultima.vigenteDesde, 1) : hoje].sort().pop();
    const termos = camposDosTermos(ultima?.termos);
    const tituloId = uid('versao-titulo');
    const desde = field({
      label: 'Vale a partir de', name: 'vigenteDesde', type: 'date', required: true, value: minimo,
      hint: `Para os ciclos que começam nesse dia ou depois. A partir de ${dateShort(minimo)}.`, attrs: { min: minimo },
    });
    const form = h('form', { class: 'form plan-version', novalidate: true, 'aria-labelledby': tituloId },
      h('h4', { id: tituloId }, `Nova versão de ${p.nome}`),
      h('p', { class: 'small' }, 'Os campos vêm preenchidos com a versão mais recente; mude o que for mudar.'),
      desde, termos.nodes,
      h('div', { class: 'actions' },
        h('button', { type: 'submit', class: 'button' }, 'Criar versão'),
        h('button', { type: 'button', class: 'button button--secondary', onclick: fechar }, 'Voltar')));
    const action = new Action();
    onSubmit(form, async () => {
      const lidos = termos.ler(form);
      if (lidos.erro) return fieldError(form, lidos.erro.campo, lidos.erro.mensagem);
      const dia = val(form, 'vigenteDesde');
      if (!isDate(dia)) return fieldError(form, 'vigenteDesde', 'Escolha a data em que a versão passa a valer.');
      if (dia < minimo) return fieldError(form, 'vigenteDesde', `Escolha ${dateShort(minimo)} ou depois.`);
      const plano = await action.run(`/api/admin/planos/${encodeURIComponent(p.planoId)}/versoes`, { body: { ...lidos.termos, vigenteDesde: dia }, signal });
      const v = plano.versoes.find((x) => x.vigenteDesde === dia) ?? plano.versoes[plano.versoes.length - 1];
      dizer(`Versão ${v.numero} de ${plano.nome} criada: vale a partir de ${dateShort(v.vigenteDesde)}.`);
      carregar({ foco: p.planoId });
    }, { busyText: 'Criando…' });
    return form;
  }

  function formularioNovo() {
    const hoje = todayIn(TZ);
    const termos = camposDosTermos();
    const form = h('form', { class: 'form panel plan-create', novalidate: true, 'aria-labelledby': 'novo-plano' },
      h('h2', { id: 'novo-plano' }, 'Novo plano'),
      field({ label: 'Nome', name: 'nome', required: true, hint: 'Como os membros o veem. Ex.: Flex 10 h', attrs: { maxlength: '100', autocomplete: 'off' } }),
      field({ label: 'Descrição', name: 'descricao', type: 'textarea', optional: true, attrs: { maxlength: '500' } }),
      h('div', { class: 'form__row' },
        field({
          label: 'Unidade', name: 'unidadeId', type: 'select', value: '',
          hint: 'Onde é vendido e onde os créditos valem.',
          options: [['', 'Toda a rede'], ...unidades.map((u) => [u.id, u.nome])],
        }),
        field({
          label: 'À venda a partir de', name: 'vigenteDesde', type: 'date', optional: true, value: hoje,
          hint: 'Hoje ou depois.', attrs: { min: hoje },
        })),
      termos.nodes,
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'button' }, 'Criar plano')));
    const action = new Action();
    onSubmit(form, async () => {
      const nome = val(form, 'nome');
      if (!nome) return fieldError(form, 'nome', 'Dê um nome ao plano.');
      const lidos = termos.ler(form);
      if (lidos.erro) return fieldError(form, lidos.erro.campo, lidos.erro.mensagem);
      const body = { nome, ...lidos.termos };
      const descricao = val(form, 'descricao');
      if (descricao) body.descricao = descricao;
      const unidadeId = val(form, 'unidadeId');
      if (unidadeId) body.unidadeId = unidadeId;
      const dia = val(form, 'vigenteDesde');
      if (dia) {
        if (!isDate(dia) || dia < hoje) return fieldError(form, 'vigenteDesde', `Escolha ${dateShort(hoje)} ou depois.`);
        body.vigenteDesde = dia;
      }
      const plano = await action.run('/api/admin/planos', { body, signal });
      form.reset();
      dizer(`Plano ${plano.nome} criado${plano.versoes[0]?.vigenteDesde > hoje ? `: à venda a partir de ${dateShort(plano.versoes[0].vigenteDesde)}` : ' e à venda'}.`);
      carregar({ foco: plano.planoId });
    }, { busyText: 'Criando…' });
    return form;
  }

  carregar();
}

/**
 * The fields of a plan's terms (the create and the new-version forms share them), filled from
 * `t` when given. `ler(form)` → {termos} in the API's units, or {erro: {campo, mensagem}}.
 */
function camposDosTermos(t) {
  const periodicidade = radios({
    legend: 'Cobrança', name: 'periodicidade', checked: t?.periodicidade ?? 'mensal',
    options: Object.entries(PERIODICIDADES),
  });
  const valor = field({
    label: 'Valor do ciclo (R$)', name: 'valorCentavos', required: true, value: t ? moneyInput(t.valorCentavos) : '',
    hint: 'A mensalidade (ou anuidade) de um ciclo inteiro. Ex.: 299,00', attrs: { inputmode: 'decimal', autocomplete: 'off' },
  });
  const adesao = field({
    label: 'Adesão (R$)', name: 'adesaoCentavos', optional: true, value: t?.adesaoCentavos ? moneyInput(t.adesaoCentavos) : '',
    hint: 'Cobrada uma vez, com o primeiro ciclo.', attrs: { inputmode: 'decimal', autocomplete: 'off' },
  });
  const horas = field({
    label: 'Horas por ciclo', name: 'horasMinutos', optional: true, value: t?.horasMinutos ? horasInput(t.horasMinutos) : '',
    hint: 'Em horas: 10, 1,5 ou 1:30.', attrs: { inputmode: 'decimal', autocomplete: 'off' },
  });
  const tiposDasHoras = checkboxes({ legend: 'As horas valem em', name: 'tiposDasHoras', options: Object.entries(TIPOS), checked: t?.tiposDasHoras ?? [] });
  tiposDasHoras.querySelector('legend').after(h('p', { class: 'field__hint' }, 'Nenhum marcado: qualquer espaço.'));
  const credito = field({
    label: 'Créditos por ciclo (R$)', name: 'creditoCentavos', optional: true, value: t?.creditoCentavos ? moneyInput(t.creditoCentavos) : '',
    hint: 'Um valor para pagar reservas, concedido a cada ciclo.', attrs: { inputmode: 'decimal', autocomplete: 'off' },
  });
  const rollover = field({
    label: 'Roll-over (%)', name: 'rolloverBP', optional: true, value: t?.rolloverBP ? String(t.rolloverBP / 100).replace('.', ',') : '',
    hint: 'Quanto do que não for usado passa para o ciclo seguinte. Em branco ou 0: nada acumula.', attrs: { inputmode: 'decimal', autocomplete: 'off' },
  });
  const desconto = field({
    label: 'Desconto nas reservas (%)', name: 'descontoBP', optional: true, value: t?.descontoBP ? String(t.descontoBP / 100).replace('.', ',') : '',
    hint: 'Além dos créditos, sobre o preço das reservas.', attrs: { inputmode: 'decimal', autocomplete: 'off' },
  });
  const tiposDeAcesso = checkboxes({ legend: 'Tipos de espaço', name: 'tiposDeAcesso', options: Object.entries(TIPOS), checked: t?.acesso?.tipos ?? [] });
  const diasDeAcesso = checkboxes({ legend: 'Dias da semana', name: 'diasDeAcesso', options: DIAS, checked: t?.acesso?.dias ?? [] });
  const acesso = h('fieldset', { class: 'fieldset plan-form__access' },
    h('legend', {}, 'Acesso e desconto'),
    h('p', { class: 'field__hint' }, 'Onde e quando o desconto do plano vale. Nenhum marcado: todos.'),
    tiposDeAcesso, diasDeAcesso);
  const nodes = [
    periodicidade,
    h('div', { class: 'form__row' }, valor, adesao),
    h('fieldset', { class: 'fieldset' },
      h('legend', {}, 'Créditos de cada ciclo'),
      h('div', { class: 'form__row' }, horas, credito, rollover),
      tiposDasHoras),
    desconto,
    acesso,
  ];

  const marcados = (form, name) => [...form.querySelectorAll(`input[name="${name}"]:checked`)].map((el) => el.value);
  return {
    nodes,
    ler(form) {
      const erro = (campo, mensagem) => ({ erro: { campo, mensagem } });
      const texto = val(form, 'valorCentavos');
      if (!texto) return erro('valorCentavos', 'Informe o valor do ciclo em reais, como 299,00.');
      const v = centavosDe(texto);
      if (v.erro) return erro('valorCentavos', v.erro);
      const a = centavosDe(val(form, 'adesaoCentavos'));
      if (a.erro) return erro('adesaoCentavos', a.erro);
      const c = centavosDe(val(form, 'creditoCentavos'));
      if (c.erro) return erro('creditoCentavos', c.erro);
      const horasTexto = val(form, 'horasMinutos');
      const minutos = horasTexto ? minutosDeHoras(horasTexto) : 0;
      if (minutos === null) return erro('horasMinutos', 'Não entendi as horas: use 10, 1,5 ou 1:30.');
      if (minutos > 600_000) return erro('horasMinutos', `O máximo é ${duration(600_000)} por ciclo.`);
      const r = bpDe(val(form, 'rolloverBP'));
      if (r.erro) return erro('rolloverBP', r.erro);
      const d = bpDe(val(form, 'descontoBP'));
      if (d.erro) return erro('descontoBP', d.erro);
      return {
        termos: {
          periodicidade: form.elements.periodicidade.value || 'mensal',
          valorCentavos: v.valor,
          adesaoCentavos: a.valor,
          horasMinutos: minutos,
          tiposDasHoras: marcados(form, 'tiposDasHoras'),
          creditoCentavos: c.valor,
          rolloverBP: r.valor,
          tiposDeAcesso: marcados(form, 'tiposDeAcesso'),
          diasDeAcesso: marcados(form, 'diasDeAcesso'),
          descontoBP: d.valor,
        },
      };
    },
  };
}

/** 600 → "10"; 90 → "1:30" (what minutosDeHoras reads back). */
function horasInput(minutos) {
  const horas = Math.floor(minutos / 60);
  const resto = minutos % 60;
  return resto ? `${horas}:${String(resto).padStart(2, '0')}` : String(horas);
}
