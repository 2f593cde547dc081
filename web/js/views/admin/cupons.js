// Coupons: create one (percent or fixed amount, validity, maximum uses), look one up by its
// code to see its uses, deactivate it. The API has no list of coupons yet, so the screen works by
// code.

import { api, Action } from '../../lib/api.js';
import { h, replace } from '../../lib/dom.js';
import {
  money, parseMoney, bpFromPercent, percentFromBP, zonedToMs, isoWithOffset, todayIn, addDays, isDate, dateTime, DEFAULT_TZ,
} from '../../lib/format.js';
import {
  pageHeader, field, onSubmit, val, flash, fieldError, confirmDialog, busy, errorBox, facts, badge, showLoading, doneLoading,
} from '../../lib/ui.js';

const TZ = DEFAULT_TZ;

export function render({ container, query, setQuery, signal }) {
  const result = h('section', { class: 'panel', 'aria-live': 'polite', 'aria-label': 'Cupom' });
  const lookup = h('form', { class: 'filters', role: 'search', 'aria-label': 'Consultar cupom' },
    field({ label: 'Código do cupom', name: 'codigo', value: query.get('codigo') ?? '', attrs: { autocomplete: 'off', maxlength: '32' } }),
    h('div', { class: 'filters__actions' }, h('button', { type: 'submit', class: 'button' }, 'Consultar')));
  lookup.addEventListener('submit', (event) => {
    event.preventDefault();
    const codigo = val(lookup, 'codigo');
    if (codigo) show(codigo);
  });

  function show(codigo) {
    setQuery({ codigo });
    result.hidden = false;
    showLoading(result, 'Consultando…');
    api(`/api/admin/cupons/${encodeURIComponent(codigo)}`, { signal })
      .then((cupom) => { doneLoading(result); replace(result, couponCard(cupom, show)); })
      .catch((error) => {
        if (error?.name === 'AbortError') return;
        doneLoading(result);
        replace(result, error.status === 404 ? h('p', { class: 'alert alert--info' }, `Não há cupom com o código ${codigo}.`) : errorBox(error));
      });
  }

  result.hidden = true;
  replace(container,
    pageHeader('Cupons', 'Descontos por código, com validade e limite de usos.'),
    h('section', { 'aria-labelledby': 'consultar' }, h('h2', { id: 'consultar' }, 'Consultar'), lookup, result),
    createForm(show));
  if (query.get('codigo')) show(query.get('codigo'));
}

function couponCard(c, reload) {
  const d = c.desconto ?? {};
  const desconto = d.tipo === 'fixo' ? `${money(d.valor)} de desconto` : `${percentFromBP(d.bp)} de desconto`;
  const status = h('div');
  const children = [
    h('h3', {}, `Cupom ${c.codigo}`),
    facts([
      ['Situação', c.ativo ? badge('Ativo', 'sucesso') : badge('Desativado', 'neutro')],
      ['Desconto', desconto],
      // validoAte is exclusive: show the last minute it is still valid.
      ['Válido', `de ${dateTime(c.validoDe, TZ)} até ${dateTime(new Date(Date.parse(c.validoAte) - 60000).toISOString(), TZ)}`],
      ['Usos', `${c.usos} de ${c.maxUsos}`],
    ]),
  ];
  if (c.ativo) {
    const button = h('button', { type: 'button', class: 'button button--danger' }, 'Desativar cupom');
    button.addEventListener('click', async () => {
      const ok = await confirmDialog({
        title: `Desativar o cupom ${c.codigo}?`,
        body: ['Ele deixa de valer para cotações e reservas novas. Reservas já feitas mantêm o desconto.'],
        confirmText: 'Desativar',
        danger: true,
      });
      if (!ok) return;
      const restore = busy(button, 'Desativando…');
      try {
        await new Action().run(`/api/admin/cupons/${encodeURIComponent(c.codigo)}/desativacao`, {});
        flash(`Cupom ${c.codigo} desativado.`, 'sucesso');
        reload(c.codigo);
      } catch (error) {
        restore();
        replace(status, errorBox(error));
      }
    });
    children.push(button, status);
  } else {
    const button = h('button', { type: 'button', class: 'button' }, 'Reativar cupom');
    button.addEventListener('click', async () => {
      const restore = busy(button, 'Reativando…');
      try {
        await new Action().run(`/api/admin/cupons/${encodeURIComponent(c.codigo)}/reativacao`, {});
        flash(`Cupom ${c.codigo} reativado: volta a valer dentro da validade e dos usos.`, 'sucesso');
        reload(c.codigo);
      } catch (error) {
        restore();
        replace(status, errorBox(error));
      }
    });
    children.push(button, status);
  }
  return children;
}

function createForm(show) {
  const hoje = todayIn(TZ);
  const tipo = field({ label: 'Tipo de desconto', name: 'tipo', type: 'select', options: [['percentual', 'Porcentagem'], ['fixo', 'Valor fixo (R$)']], value: 'percentual' });
  const percentual = field({ label: 'Desconto (%)', name: 'bp', type: 'number', value: '10', attrs: { min: '0.01', max: '100', step: '0.01', inputmode: 'decimal' } });
  const fixo = field({ label: 'Desconto (R$)', name: 'valor', value: '', hint: 'Ex.: 25,00', attrs: { inputmode: 'decimal', autocomplete: 'off' } });
  const form = h('form', { class: 'form panel', novalidate: true, 'aria-labelledby': 'novo-cupom', dataset: { field: 'desconto' } },
    h('h2', { id: 'novo-cupom' }, 'Novo cupom'),
    field({ label: 'Código', name: 'codigo', required: true, hint: 'De 3 a 32 letras, números, - ou _. Ex.: BEMVINDO10', attrs: { autocomplete: 'off', maxlength: '32', pattern: '[A-Za-z0-9_-]{3,32}' } }),
    h('div', { class: 'form__row' }, tipo, percentual, fixo),
    h('div', { class: 'form__row' },
      field({ label: 'Válido a partir de', name: 'validoDe', type: 'date', required: true, value: hoje }),
      field({ label: 'Válido até (inclusive)', name: 'validoAte', type: 'date', required: true, value: addDays(hoje, 30) }),
      field({ label: 'Usos no máximo', name: 'maxUsos', type: 'number', required: true, value: '100', attrs: { min: '1', inputmode: 'numeric' } })),
    h('p', { class: 'small' }, 'Datas no horário de Brasília.'),
    h('p', { class: 'field__error' }),
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'button' }, 'Criar cupom')));
  const select = tipo.querySelector('select');
  const toggle = () => {
    percentual.hidden = select.value !== 'percentual';
    fixo.hidden = select.value !== 'fixo';
  };
  select.addEventListener('change', toggle);
  toggle();

  const action = new Action();
  onSubmit(form, async () => {
    const codigo = val(form, 'codigo');
    if (!/^[A-Za-z0-9_-]{3,32}$/.test(codigo)) return fieldError(form, 'codigo', 'Use de 3 a 32 letras, números, - ou _ (sem espaços nem acentos).');
    const desconto = { tipo: select.value };
    if (desconto.tipo === 'percentual') {
      desconto.bp = bpFromPercent(val(form, 'bp'));
      if (!desconto.bp || desconto.bp <= 0 || desconto.bp > 10000) return fieldError(form, 'bp', 'Use uma porcentagem de 0,01 a 100.');
    } else {
      desconto.valor = parseMoney(val(form, 'valor'));
      if (!desconto.valor || desconto.valor <= 0) return fieldError(form, 'valor', 'Informe um valor em reais maior que zero, como 25,00.');
    }
    const de = val(form, 'validoDe');
    const ate = val(form, 'validoAte');
    if (!isDate(de)) return fieldError(form, 'validoDe', 'Informe a data de início.');
    if (!isDate(ate) || ate < de) return fieldError(form, 'validoAte', 'A data final deve ser igual ou depois da inicial.');
    const maxUsos = Number(val(form, 'maxUsos'));
    if (!Number.isInteger(maxUsos) || maxUsos < 1) return fieldError(form, 'maxUsos', 'Use um número inteiro, 1 ou mais.');
    const body = {
      codigo, desconto, maxUsos,
      validoDe: isoWithOffset(zonedToMs(de, 0, TZ), TZ),
      validoAte: isoWithOffset(zonedToMs(addDays(ate, 1), 0, TZ), TZ),
    };
    const cupom = await action.run('/api/admin/cupons', { body });
    flash(`Cupom ${cupom.codigo} criado.`, 'sucesso');
    form.reset();
    toggle();
    show(cupom.codigo);
  }, { busyText: 'Criando…' });
  return form;
}
