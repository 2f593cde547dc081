// Create or edit a unit: name, address, IANA time zone, cancellation policy, and its operation
// (the ISS rate of its invoices, the check-in window).

import { Action } from '../../lib/api.js';
import { todasAsUnidades, forget } from '../../lib/catalog.js';
import { h, replace, link } from '../../lib/dom.js';
import { UFS, FUSOS } from '../../lib/labels.js';
import { bpFromPercent, DEFAULT_TZ } from '../../lib/format.js';
import { pageHeader, field, onSubmit, val, flash, fieldError, loadInto } from '../../lib/ui.js';

function isZone(tz) {
  try {
    new Intl.DateTimeFormat('pt-BR', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export function render({ container, params, signal, navigate }) {
  const editing = Boolean(params.id);
  replace(container,
    h('p', { class: 'back' }, link('/admin/unidades', '← Unidades')),
    pageHeader(editing ? 'Editar unidade' : 'Nova unidade'));
  const body = h('div');
  container.append(body);
  if (!editing) {
    body.append(unitForm(null, { navigate }));
    return;
  }
  loadInto(body, async () => {
    const unidades = await todasAsUnidades({ fresh: true });
    const unidade = unidades.find((u) => u.id.toLowerCase() === params.id.toLowerCase());
    if (!unidade) throw Object.assign(new Error('a unidade não existe'), { code: 'nao_encontrado' });
    return unidade;
  }, (unidade) => {
    container.querySelector('h1').textContent = `Editar ${unidade.nome}`;
    body.append(unitForm(unidade, { navigate }));
  }, { signal });
}

function unitForm(u, { navigate }) {
  const e = u?.endereco ?? {};
  const p = u?.politicaDeCancelamento ?? { horasSemMulta: 24, multaBP: 5000 };
  const op = u?.operacao ?? { aliquotaISSBP: 500, janelaDeCheckin: { antesMinutos: 15, depoisMinutos: 30 } };
  const datalistId = 'fusos-brasil';
  const form = h('form', { class: 'form', novalidate: true },
    field({ label: 'Nome da unidade', name: 'nome', required: true, value: u?.nome ?? '', attrs: { maxlength: '120' } }),
    h('fieldset', { class: 'fieldset' },
      h('legend', {}, 'Endereço'),
      h('div', { class: 'form__row' },
        field({ label: 'Logradouro', name: 'logradouro', required: true, value: e.logradouro ?? '', attrs: { autocomplete: 'address-line1' } }),
        field({ label: 'Número', name: 'numero', required: true, value: e.numero ?? '', attrs: { class: 'input--short' } })),
      h('div', { class: 'form__row' },
        field({ label: 'Complemento', name: 'complemento', optional: true, value: e.complemento ?? '' }),
        field({ label: 'Bairro', name: 'bairro', optional: true, value: e.bairro ?? '' })),
      h('div', { class: 'form__row' },
        field({ label: 'Cidade', name: 'cidade', required: true, value: e.cidade ?? '', attrs: { autocomplete: 'address-level2' } }),
        field({ label: 'UF', name: 'uf', type: 'select', required: true, value: e.uf ?? 'SP', options: UFS.map((uf) => [uf, uf]) }),
        field({ label: 'CEP', name: 'cep', required: true, value: e.cep ?? '', hint: 'Ex.: 01310-100', attrs: { autocomplete: 'postal-code', inputmode: 'numeric', maxlength: '9' } }))),
    field({
      label: 'Fuso horário (IANA)', name: 'fusoHorario', required: true, value: u?.fusoHorario ?? DEFAULT_TZ,
      hint: u
        ? 'Fixo depois do cadastro: as agendas e as reservas já feitas dependem dele.'
        : 'Define "hoje", o horário de funcionamento e os preços por dia; não muda depois do cadastro. Ex.: America/Sao_Paulo, America/Manaus.',
      attrs: { list: datalistId, autocomplete: 'off', spellcheck: 'false', ...(u ? { readonly: 'readonly' } : {}) },
    }),
    h('datalist', { id: datalistId }, FUSOS.map((tz) => h('option', { value: tz }))),
    h('fieldset', { class: 'fieldset', dataset: { field: 'politicaDeCancelamento' } },
      h('legend', {}, 'Política de cancelamento'),
      h('div', { class: 'form__row' },
        field({ label: 'Cancelamento grátis até (horas antes)', name: 'horasSemMulta', type: 'number', required: true, value: p.horasSemMulta, attrs: { min: '0', step: '1', inputmode: 'numeric' } }),
        field({ label: 'Multa depois disso (% do total)', name: 'multa', type: 'number', required: true, value: p.multaBP / 100, attrs: { min: '0', max: '100', step: '0.01', inputmode: 'decimal' } })),
      h('div', { class: 'form__row' },
        field({ label: 'Créditos devolvidos a quem não comparece (%)', name: 'devolucaoNoShow', type: 'number', required: true, value: (p.devolucaoNoShowBP ?? 0) / 100, hint: '0: as horas e os valores de crédito que a reserva usou ficam retidos. Vale a regra do momento da reserva.', attrs: { min: '0', max: '100', step: '0.01', inputmode: 'decimal' } })),
      h('p', { class: 'field__error' })),
    h('fieldset', { class: 'fieldset', dataset: { field: 'operacao' } },
      h('legend', {}, 'Operação'),
      h('div', { class: 'form__row' },
        field({ label: 'ISS (% sobre cada fatura)', name: 'iss', type: 'number', required: true, value: op.aliquotaISSBP / 100, hint: 'A alíquota do município da unidade (2 % a 5 %).', attrs: { min: '0', max: '100', step: '0.01', inputmode: 'decimal' } })),
      h('div', { class: 'form__row' },
        field({ label: 'Check-in abre (minutos antes do início)', name: 'antesMinutos', type: 'number', required: true, value: op.janelaDeCheckin.antesMinutos, attrs: { min: '0', max: '1440', step: '1', inputmode: 'numeric' } }),
        field({ label: 'Check-in fecha (minutos depois do início)', name: 'depoisMinutos', type: 'number', required: true, value: op.janelaDeCheckin.depoisMinutos, hint: 'Sem check-in até lá, a reserva conta como ausência (no-show).', attrs: { min: '0', max: '1440', step: '1', inputmode: 'numeric' } })),
      h('p', { class: 'field__error' })),
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'button' }, u ? 'Salvar alterações' : 'Cadastrar unidade')));

  const action = new Action();
  onSubmit(form, async () => {
    const nome = val(form, 'nome');
    const fusoHorario = val(form, 'fusoHorario');
    const horasSemMulta = Number(val(form, 'horasSemMulta'));
    const multaBP = bpFromPercent(val(form, 'multa'));
    if (!nome) return fieldError(form, 'nome', 'Informe o nome da unidade.');
    for (const campo of ['logradouro', 'numero', 'cidade', 'cep']) {
      if (!val(form, campo)) return fieldError(form, campo, 'Campo obrigatório.');
    }
    if (!isZone(fusoHorario)) return fieldError(form, 'fusoHorario', `"${fusoHorario}" não é um fuso horário IANA. Use, por exemplo, America/Sao_Paulo.`);
    if (!Number.isInteger(horasSemMulta) || horasSemMulta < 0) return fieldError(form, 'horasSemMulta', 'Use um número inteiro de horas, 0 ou mais.');
    if (multaBP === null || multaBP < 0 || multaBP > 10000) return fieldError(form, 'multa', 'Use uma porcentagem de 0 a 100.');
    const devolucaoNoShowBP = bpFromPercent(val(form, 'devolucaoNoShow'));
    if (devolucaoNoShowBP === null || devolucaoNoShowBP < 0 || devolucaoNoShowBP > 10000) return fieldError(form, 'devolucaoNoShow', 'Use uma porcentagem de 0 a 100.');
    const aliquotaISSBP = bpFromPercent(val(form, 'iss'));
    const antesMinutos = Number(val(form, 'antesMinutos'));
    const depoisMinutos = Number(val(form, 'depoisMinutos'));
    if (aliquotaISSBP === null || aliquotaISSBP < 0 || aliquotaISSBP > 10000) return fieldError(form, 'iss', 'Use uma porcentagem de 0 a 100.');
    for (const [campo, valor] of [['antesMinutos', antesMinutos], ['depoisMinutos', depoisMinutos]]) {
      if (!Number.isInteger(valor) || valor < 0 || valor > 1440) return fieldError(form, campo, 'Use um número inteiro de minutos, de 0 a 1440 (24 h).');
    }
    const endereco = {
      logradouro: val(form, 'logradouro'), numero: val(form, 'numero'), cidade: val(form, 'cidade'), uf: val(form, 'uf'), cep: val(form, 'cep'),
    };
    if (val(form, 'complemento')) endereco.complemento = val(form, 'complemento');
    if (val(form, 'bairro')) endereco.bairro = val(form, 'bairro');
    const body = {
      nome, endereco, fusoHorario, politicaDeCancelamento: { horasSemMulta, multaBP, devolucaoNoShowBP },
      operacao: { aliquotaISSBP, janelaDeCheckin: { antesMinutos, depoisMinutos } },
    };
    const saved = u
      ? await action.run(`/api/admin/unidades/${u.id}`, { method: 'PATCH', body })
      : await action.run('/api/admin/unidades', { body });
    forget({ todasUnidades: true });
    flash(u ? `Unidade ${saved.nome} atualizada.` : `Unidade ${saved.nome} cadastrada. Agora cadastre os espaços dela.`, 'sucesso', { next: true });
    navigate(u ? '/admin/unidades' : `/admin/espacos?unidade=${saved.id}`);
  }, { busyText: 'Salvando…' });
  return form;
}
