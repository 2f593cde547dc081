// Create a space, or edit its data and booking rules; deactivate and reactivate it.

import { Action } from '../../lib/api.js';
import { forget } from '../../lib/catalog.js';
import { h, replace } from '../../lib/dom.js';
import { TIPOS } from '../../lib/labels.js';
import {
  pageHeader, field, onSubmit, val, flash, fieldError, loadInto, facts, badge, confirmDialog, busy, errorBox,
} from '../../lib/ui.js';
import { unidadeSelect, espacoTabs, espacoAdmin, voltarParaEspacos } from './comum.js';

export async function render({ container, params, query, signal, navigate }) {
  if (!params.id) {
    replace(container, voltarParaEspacos(query.get('unidade')), pageHeader('Novo espaço'));
    let unidade;
    try {
      unidade = await unidadeSelect({ value: query.get('unidade') ?? '', signal });
    } catch (error) {
      if (error?.name !== 'AbortError') container.append(errorBox(error));
      return;
    }
    container.append(spaceForm(null, { unidadeField: unidade.field, navigate }));
    return;
  }
  replace(container, pageHeader('Dados do espaço'));
  const body = h('div');
  container.append(body);
  loadInto(body, () => espacoAdmin(params.id), (item) => {
    const { espaco, unidade } = item;
    container.querySelector('h1').textContent = espaco.nome;
    document.title = `${espaco.nome} · CoworkFlow`;
    container.prepend(voltarParaEspacos(espaco.unidadeId));
    body.append(
      espacoTabs(espaco.id, 'dados'),
      statusPanel(espaco, unidade, { navigate }),
      spaceForm(espaco, { navigate }));
  }, { signal });
}

function list(text) {
  return text.split(/[,\n]/).map((s) => s.trim()).filter(Boolean);
}

function spaceForm(e, { unidadeField, navigate }) {
  const r = e?.regras ?? {};
  const form = h('form', { class: 'form', novalidate: true },
    e ? h('h2', {}, 'Dados e regras de reserva') : null,
    unidadeField ?? null,
    field({ label: 'Nome', name: 'nome', required: true, value: e?.nome ?? '', attrs: { maxlength: '120' } }),
    h('div', { class: 'form__row' },
      e ? field({ label: 'Tipo', name: 'tipo-fixo', value: TIPOS[e.tipo] ?? e.tipo, attrs: { readonly: true }, hint: 'O tipo não muda depois do cadastro.' })
        : field({ label: 'Tipo', name: 'tipo', type: 'select', required: true, options: Object.entries(TIPOS), value: 'sala_reuniao' }),
      field({ label: 'Capacidade (pessoas)', name: 'capacidade', type: 'number', required: true, value: e?.capacidade ?? '', attrs: { min: '1', max: '1000', inputmode: 'numeric' } })),
    field({ label: 'Comodidades', name: 'comodidades', optional: true, value: (e?.comodidades ?? []).join(', '), hint: 'Separadas por vírgula. Ex.: projetor, café, wi-fi' }),
    field({ label: 'Fotos', name: 'fotos', type: 'textarea', optional: true, value: (e?.fotos ?? []).map((f) => f.url).join('\n'), hint: 'Um endereço https:// por linha.' }),
    h('fieldset', { class: 'fieldset', dataset: { field: 'regras' } },
      h('legend', {}, 'Regras de reserva'),
      h('div', { class: 'form__row' },
        field({ label: 'Duração mínima (min)', name: 'duracaoMinimaMinutos', type: 'number', value: r.duracaoMinimaMinutos ?? 30, attrs: { min: '1', inputmode: 'numeric' } }),
        field({ label: 'Duração máxima (min)', name: 'duracaoMaximaMinutos', type: 'number', value: r.duracaoMaximaMinutos ?? 10080, attrs: { min: '1', inputmode: 'numeric' } })),
      h('div', { class: 'form__row' },
        field({ label: 'Antecedência mínima (min)', name: 'antecedenciaMinimaMinutos', type: 'number', value: r.antecedenciaMinimaMinutos ?? 0, attrs: { min: '0', inputmode: 'numeric' } }),
        field({ label: 'Antecedência máxima (dias)', name: 'antecedenciaMaximaDias', type: 'number', value: r.antecedenciaMaximaDias ?? 180, attrs: { min: '0', inputmode: 'numeric' } })),
      h('p', { class: 'field__error' })),
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'button' }, e ? 'Salvar alterações' : 'Cadastrar espaço')));

  const action = new Action();
  onSubmit(form, async () => {
    const nome = val(form, 'nome');
    const capacidade = Number(val(form, 'capacidade'));
    if (!nome) return fieldError(form, 'nome', 'Informe o nome do espaço.');
    if (!Number.isInteger(capacidade) || capacidade < 1 || capacidade > 1000) return fieldError(form, 'capacidade', 'Use um número inteiro de 1 a 1000.');
    const regras = {};
    for (const name of ['duracaoMinimaMinutos', 'duracaoMaximaMinutos', 'antecedenciaMinimaMinutos', 'antecedenciaMaximaDias']) {
      const text = val(form, name);
      if (text === '') continue;
      const n = Number(text);
      if (!Number.isInteger(n) || n < 0) return fieldError(form, name, 'Use um número inteiro, 0 ou mais.');
      regras[name] = n;
    }
    const fotos = list(val(form, 'fotos')).map((url) => ({ url }));
    if (fotos.some((f) => !/^https?:\/\//.test(f.url))) return fieldError(form, 'fotos', 'Cada foto deve ser um endereço que começa com https://');
    const body = { nome, capacidade, comodidades: list(val(form, 'comodidades')), fotos, regras };
    let saved;
    if (e) {
      saved = await action.run(`/api/admin/espacos/${e.id}`, { method: 'PATCH', body });
      forget({ espacoId: e.id });
      flash(`Espaço ${saved.nome} atualizado.`, 'sucesso', { next: true });
      navigate(`/admin/espacos/${e.id}`, { replace: true });
    } else {
      body.unidadeId = val(form, 'unidade');
      body.tipo = val(form, 'tipo');
      saved = await action.run('/api/admin/espacos', { body });
      flash(`Espaço ${saved.nome} cadastrado. Defina a tabela de preços para ele aceitar reservas.`, 'sucesso', { next: true });
      navigate(`/admin/espacos/${saved.id}/precos`);
    }
  }, { busyText: 'Salvando…' });
  return form;
}

function statusPanel(espaco, unidade, { navigate }) {
  const button = espaco.ativo
    ? h('button', { type: 'button', class: 'button button--danger' }, 'Desativar espaço')
    : h('button', { type: 'button', class: 'button' }, 'Reativar espaço');
  const status = h('div', { 'aria-live': 'polite' });
  button.addEventListener('click', async () => {
    let motivo = '';
    if (espaco.ativo) {
      const motivoField = field({ label: 'Motivo', name: 'motivo', optional: true, attrs: { maxlength: '200' } });
      const ok = await confirmDialog({
        title: `Desativar ${espaco.nome}?`,
        body: ['O espaço sai do catálogo e não aceita novas reservas. As reservas já feitas continuam valendo.'],
        extra: motivoField,
        confirmText: 'Desativar',
        danger: true,
      });
      if (!ok) return;
      motivo = motivoField.querySelector('input').value.trim();
    }
    const restore = busy(button, espaco.ativo ? 'Desativando…' : 'Reativando…');
    try {
      await new Action().run(`/api/admin/espacos/${espaco.id}/${espaco.ativo ? 'desativacao' : 'reativacao'}`,
        espaco.ativo ? { body: motivo ? { motivo } : {} } : {});
      forget({ espacoId: espaco.id });
      flash(espaco.ativo ? `${espaco.nome} foi desativado.` : `${espaco.nome} foi reativado.`, 'sucesso', { next: true });
      navigate(`/admin/espacos/${espaco.id}`, { replace: true });
    } catch (error) {
      restore();
      replace(status, errorBox(error));
    }
  });
  return h('section', { class: 'panel', 'aria-labelledby': 'situacao' },
    h('h2', { id: 'situacao' }, 'Situação'),
    facts([
      ['Unidade', unidade?.nome ?? espaco.unidadeId],
      ['Tipo', TIPOS[espaco.tipo] ?? espaco.tipo],
      ['Situação', espaco.ativo ? badge('Ativo', 'sucesso') : badge('Desativado', 'neutro')],
    ]),
    button, status);
}
