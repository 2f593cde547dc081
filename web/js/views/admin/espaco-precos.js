// A space's price table: the values (hour, half day, day, minimum duration) and the rules on
// top of them (peak hours, weekend, long booking, plan discount), added and removed one by one.

import { api, Action } from '../../lib/api.js';
import { forget } from '../../lib/catalog.js';
import { h, replace } from '../../lib/dom.js';
import { REGRAS, DIAS, DIA_CURTO } from '../../lib/labels.js';
import {
  money, moneyInput, parseMoney, percentFromBP, bpFromPercent, minutesFromClock, clockFromMinutes, duration,
} from '../../lib/format.js';
import { pageHeader, loadInto, table, field, checkboxes, onSubmit, val, flash, fieldError, badge } from '../../lib/ui.js';
import { espacoTabs, espacoAdmin, voltarParaEspacos, botaoQueConfirma } from './comum.js';

/** The charging steps the API accepts (fracaoMinutos), in words; 60 is the default. */
const FRACOES = [
  [60, 'Por hora iniciada (60 min)'],
  [30, 'Por meia hora iniciada (30 min)'],
  [20, 'Por fração de 20 min iniciada'],
  [15, 'Por quarto de hora iniciado (15 min)'],
  [10, 'Por fração de 10 min iniciada'],
  [5, 'Por fração de 5 min iniciada'],
  [1, 'Por minuto (1 min)'],
];

export function render({ container, params, signal, navigate }) {
  replace(container, pageHeader('Tabela de preços'));
  const body = h('div');
  container.append(body);
  loadInto(body, async () => {
    const item = await espacoAdmin(params.id);
    // Only ask for the table when there is one (the catalog item says), so a new space costs no 404.
    const tabela = item.precos ? await api(`/api/espacos/${params.id}/precos`, { signal }) : null;
    return { ...item, tabela };
  }, ({ espaco, tabela }) => {
    container.querySelector('h1').textContent = `Preços — ${espaco.nome}`;
    container.prepend(voltarParaEspacos(espaco.unidadeId));
    const again = () => navigate(`/admin/espacos/${espaco.id}/precos`, { replace: true });
    body.append(
      espacoTabs(espaco.id, 'precos'),
      valoresForm(espaco, tabela, again),
      tabela ? rulesSection(espaco, tabela, again) : h('p', { class: 'alert alert--info' }, 'Defina os valores acima para o espaço aceitar reservas; depois, adicione regras.'));
  }, { signal });
}

function valoresForm(espaco, tabela, again) {
  const v = tabela?.valores;
  const form = h('form', { class: 'form panel', novalidate: true, 'aria-labelledby': 'valores', dataset: { field: 'valores' } },
    h('h2', { id: 'valores' }, 'Valores'),
    tabela ? null : h('p', {}, badge('Sem preço', 'aviso'), ' Este espaço ainda não aceita reservas.'),
    h('div', { class: 'form__row' },
      field({ label: 'Por hora (R$)', name: 'porHora', required: true, value: moneyInput(v?.porHora), hint: 'Ex.: 80,00', attrs: { inputmode: 'decimal', autocomplete: 'off' } }),
      field({ label: 'Meio período (R$)', name: 'meioPeriodo', required: true, value: moneyInput(v?.meioPeriodo), hint: 'Até 4 horas.', attrs: { inputmode: 'decimal', autocomplete: 'off' } }),
      field({ label: 'Diária (R$)', name: 'diaria', required: true, value: moneyInput(v?.diaria), attrs: { inputmode: 'decimal', autocomplete: 'off' } })),
    h('div', { class: 'form__row' },
      field({ label: 'Duração mínima cobrada (min)', name: 'duracaoMinimaMinutos', type: 'number', required: true, value: v?.duracaoMinimaMinutos ?? 60, attrs: { min: '1', inputmode: 'numeric' } }),
      field({
        label: 'Cobrança por hora', name: 'fracaoMinutos', type: 'select', options: FRACOES, value: v?.fracaoMinutos ?? 60,
        hint: 'A fração começada é cobrada inteira: 1 h 10 min por hora iniciada cobra 2 h; por meia hora iniciada, 1 h 30 min.',
      })),
    h('p', { class: 'field__error' }),
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'button' }, tabela ? 'Salvar valores' : 'Definir preços')));

  const action = new Action();
  onSubmit(form, async () => {
    const body = {};
    for (const name of ['porHora', 'meioPeriodo', 'diaria']) {
      const centavos = parseMoney(val(form, name));
      if (centavos === null || centavos <= 0) return fieldError(form, name, 'Informe um valor em reais maior que zero, como 80,00.');
      body[name] = centavos;
    }
    const minimo = Number(val(form, 'duracaoMinimaMinutos'));
    if (!Number.isInteger(minimo) || minimo < 1) return fieldError(form, 'duracaoMinimaMinutos', 'Use um número inteiro de minutos, 1 ou mais.');
    body.duracaoMinimaMinutos = minimo;
    body.fracaoMinutos = Number(val(form, 'fracaoMinutos'));
    await action.run(`/api/admin/espacos/${espaco.id}/precos`, { method: 'PUT', body });
    forget({ espacoId: espaco.id });
    flash(`Preços de ${espaco.nome} salvos: ${money(body.porHora)} por hora.`, 'sucesso', { next: true });
    again();
  }, { busyText: 'Salvando…' });
  return form;
}

function describeRule(r) {
  switch (r.tipo) {
    case 'horario_de_pico':
      return `${(r.dias ?? []).map((d) => DIA_CURTO[d] ?? d).join(', ')}, ${clockFromMinutes(r.inicioMinutos)}–${clockFromMinutes(r.fimMinutos)}: preço × ${percentFromBP(r.multiplicadorBP)}`;
    case 'fim_de_semana':
      return `Sábados e domingos: preço × ${percentFromBP(r.multiplicadorBP)}`;
    case 'longa_duracao':
      return `A partir de ${duration(r.aPartirDeMinutos)}: desconto de ${percentFromBP(r.descontoBP)}`;
    case 'plano':
      return `Plano "${r.plano}": desconto de ${percentFromBP(r.descontoBP)}`;
    default:
      return JSON.stringify(r);
  }
}

function rulesSection(espaco, tabela, again) {
  const rules = tabela.regras ?? [];
  const section = h('section', { class: 'panel', 'aria-labelledby': 'regras' },
    h('h2', { id: 'regras' }, 'Regras de preço'),
    table({
      caption: 'Regras ativas',
      empty: 'Nenhuma regra: vale o preço base.',
      rows: rules,
      columns: [
        { label: 'Regra', cell: (r) => REGRAS[r.tipo] ?? r.tipo },
        { label: 'Como funciona', cell: describeRule },
        { label: 'Ações', cell: (r) => removeRule(espaco, r, again) },
      ],
    }),
    ruleForm(espaco, again));
  return section;
}

function removeRule(espaco, r, again) {
  return botaoQueConfirma({
    texto: 'Remover',
    oculto: `a regra ${REGRAS[r.tipo] ?? r.tipo}`,
    dialogo: {
      title: 'Remover esta regra?',
      body: [`${REGRAS[r.tipo] ?? r.tipo}: ${describeRule(r)}. Cotações e reservas novas deixam de usá-la; as já feitas não mudam.`],
      confirmText: 'Remover regra',
    },
    ocupado: 'Removendo…',
    acao: () => new Action().run(`/api/admin/espacos/${espaco.id}/precos/regras/${r.id}`, { method: 'DELETE' }),
    depois: () => {
      flash('Regra removida.', 'sucesso', { next: true });
      again();
    },
  });
}

function ruleForm(espaco, again) {
  const tipo = field({ label: 'Tipo de regra', name: 'tipo', type: 'select', options: Object.entries(REGRAS), value: 'horario_de_pico' });
  const groups = {
    horario_de_pico: h('div', { class: 'rule-fields' },
      checkboxes({ legend: 'Dias', name: 'dias', options: DIAS.map(([k, label]) => [k, label]), checked: ['segunda', 'terca', 'quarta', 'quinta', 'sexta'] }),
      h('div', { class: 'form__row' },
        field({ label: 'Das', name: 'inicio', type: 'time', value: '09:00', attrs: { step: '900' } }),
        field({ label: 'Até', name: 'fim', type: 'time', value: '12:00', attrs: { step: '900' } }),
        field({ label: 'Multiplicador (%)', name: 'multiplicadorPico', type: 'number', value: '150', hint: '100 = preço normal; 150 = 50 % mais caro.', attrs: { min: '1', step: '1', inputmode: 'numeric' } }))),
    fim_de_semana: h('div', { class: 'rule-fields' },
      field({ label: 'Multiplicador (%)', name: 'multiplicadorFds', type: 'number', value: '120', hint: '100 = preço normal; 120 = 20 % mais caro.', attrs: { min: '1', step: '1', inputmode: 'numeric' } })),
    longa_duracao: h('div', { class: 'rule-fields form__row' },
      field({ label: 'A partir de (horas)', name: 'aPartirDeHoras', type: 'number', value: '4', attrs: { min: '1', step: '0.5', inputmode: 'decimal' } }),
      field({ label: 'Desconto (%)', name: 'descontoLonga', type: 'number', value: '10', attrs: { min: '0', max: '100', step: '0.01', inputmode: 'decimal' } })),
    plano: h('div', { class: 'rule-fields form__row' },
      field({ label: 'Plano', name: 'plano', value: '', hint: 'O nome do plano de assinatura, ex.: ouro.' }),
      field({ label: 'Desconto (%)', name: 'descontoPlano', type: 'number', value: '10', attrs: { min: '0', max: '100', step: '0.01', inputmode: 'decimal' } })),
  };
  const form = h('form', { class: 'form', novalidate: true, 'aria-labelledby': 'nova-regra', dataset: { field: 'regra' } },
    h('h3', { id: 'nova-regra' }, 'Adicionar regra'),
    tipo, Object.values(groups),
    h('p', { class: 'field__error' }),
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'button' }, 'Adicionar regra')));
  const select = tipo.querySelector('select');
  const show = () => Object.entries(groups).forEach(([key, el]) => { el.hidden = key !== select.value; });
  select.addEventListener('change', show);
  show();

  const action = new Action();
  onSubmit(form, async () => {
    const body = { tipo: select.value };
    if (body.tipo === 'horario_de_pico') {
      body.dias = [...form.querySelectorAll('input[name=dias]:checked')].map((c) => c.value);
      if (!body.dias.length) return fieldError(form, 'dias', 'Escolha pelo menos um dia.');
      body.inicioMinutos = minutesFromClock(val(form, 'inicio'));
      body.fimMinutos = minutesFromClock(val(form, 'fim'));
      if (body.inicioMinutos === null) return fieldError(form, 'inicio', 'Informe o horário de início.');
      if (body.fimMinutos === null || body.fimMinutos <= body.inicioMinutos) return fieldError(form, 'fim', 'O fim deve ser depois do início.');
      body.multiplicadorBP = bpFromPercent(val(form, 'multiplicadorPico'));
      if (!body.multiplicadorBP || body.multiplicadorBP <= 0) return fieldError(form, 'multiplicadorPico', 'Use uma porcentagem maior que zero.');
    } else if (body.tipo === 'fim_de_semana') {
      body.multiplicadorBP = bpFromPercent(val(form, 'multiplicadorFds'));
      if (!body.multiplicadorBP || body.multiplicadorBP <= 0) return fieldError(form, 'multiplicadorFds', 'Use uma porcentagem maior que zero.');
    } else if (body.tipo === 'longa_duracao') {
      const horas = Number(String(val(form, 'aPartirDeHoras')).replace(',', '.'));
      if (!(horas > 0)) return fieldError(form, 'aPartirDeHoras', 'Informe as horas, maior que zero.');
      body.aPartirDeMinutos = Math.round(horas * 60);
      body.descontoBP = bpFromPercent(val(form, 'descontoLonga'));
      if (body.descontoBP === null || body.descontoBP < 0 || body.descontoBP > 10000) return fieldError(form, 'descontoLonga', 'Use uma porcentagem de 0 a 100.');
    } else {
      body.plano = val(form, 'plano');
      if (!body.plano) return fieldError(form, 'plano', 'Informe o nome do plano.');
      body.descontoBP = bpFromPercent(val(form, 'descontoPlano'));
      if (body.descontoBP === null || body.descontoBP < 0 || body.descontoBP > 10000) return fieldError(form, 'descontoPlano', 'Use uma porcentagem de 0 a 100.');
    }
    await action.run(`/api/admin/espacos/${espaco.id}/precos/regras`, { body });
    flash(`Regra "${REGRAS[body.tipo]}" adicionada.`, 'sucesso', { next: true });
    again();
  }, { busyText: 'Adicionando…' });
  return form;
}
