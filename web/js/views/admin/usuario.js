// One account, for operators: who it is (e-mail, profile, situation, plan, since) and its
// credits — the balance, the lots with something left, the statement (50 a page) — with an
// adjustment: add or take away hours or R$ with a reason (it goes to the audit trail), a
// description the member reads, and for what is added the space types, the unit and the day it
// is good until. The API's error shows next to the field it names; the balance follows a success.

import { api, Action } from '../../lib/api.js';
import { todasAsUnidades } from '../../lib/catalog.js';
import { h, link, replace, append } from '../../lib/dom.js';
import { PAPEIS, TIPOS } from '../../lib/labels.js';
import { dateTime, parseMoney, todayIn, addDays, zonedToMs, isoWithOffset, isDate, DEFAULT_TZ, minutosDeHoras } from '../../lib/format.js';
import { nomesDePessoas } from '../../lib/pessoas.js';
import {
  pageHeader, loadInto, facts, badge, field, checkboxes, radios, onSubmit, fieldError, val, pager, announce,
} from '../../lib/ui.js';
import { saldo, lotes, extrato, reservasDoExtrato, quantidade, comSinal } from '../../lib/creditos.js';

/** The most the API adds or takes in one adjustment: 600000 minutes (10 000 h) or R$ 1 000 000,00. */
const MAXIMO = { minutos: 600_000, centavos: 100_000_000 };


export function render({ container, params, signal }) {
  const id = params.id;
  replace(container, h('p', { class: 'back' }, link('/admin/usuarios', '← Usuários')), pageHeader('Conta'));
  const body = h('div');
  container.append(body);
  loadInto(body, () => Promise.all([
    api(`/api/admin/usuarios/${encodeURIComponent(id)}`, { signal }),
    todasAsUnidades().catch(() => []),
  ]), ([perfil, unidades]) => screen(container, body, perfil, unidades, signal), { signal, text: 'Carregando a conta…' });
}

function screen(container, body, perfil, unidades, signal) {
  const base = `/api/admin/usuarios/${encodeURIComponent(perfil.id)}/creditos`;
  container.querySelector('h1').textContent = perfil.nome;
  document.title = `${perfil.nome} · CoworkFlow`;
  const nomes = nomesDePessoas(signal);
  const carteiraBox = h('div', { class: 'credit-wallet' });
  const extratoBox = h('div');
  let pagina = 1;

  replace(body,
    h('section', { class: 'panel', 'aria-labelledby': 'conta-titulo' },
      h('h2', { id: 'conta-titulo' }, 'Dados da conta'),
      facts([
        ['E-mail', perfil.email],
        ['Perfil', PAPEIS[perfil.papel] ?? perfil.papel],
        ['Situação', perfil.ativo ? badge('Ativa', 'sucesso') : badge('Desativada', 'neutro')],
        ['Plano', perfil.plano ?? 'Nenhum'],
        ['Desde', dateTime(perfil.registradoEm)],
      ])),
    h('section', { class: 'panel', 'aria-labelledby': 'creditos-titulo' },
      h('h2', { id: 'creditos-titulo' }, 'Créditos'),
      carteiraBox,
      h('h3', { id: 'extrato-titulo' }, 'Extrato'),
      extratoBox),
    ajusteForm());

  function loadCarteira() {
    loadInto(carteiraBox, () => api(base, { signal }), (carteira) => {
      append(carteiraBox, saldo(carteira),
        h('h3', {}, 'Lotes com saldo'),
        lotes(carteira, { unidades, vazio: h('p', { class: 'empty' }, 'Nenhum crédito para usar.') }));
    }, { signal, text: 'Carregando os créditos…' });
  }

  function loadExtrato() {
    loadInto(extratoBox, async () => {
      const page = await api(`${base}/extrato`, { query: { pagina }, signal });
      const [reservas, porQuem] = await Promise.all([
        reservasDoExtrato(page.itens, { fonte: 'admin', signal }),
        nomes.todos(page.itens.map((m) => m.por).filter((p) => p && !p.startsWith('system:'))),
      ]);
      return { page, reservas, porQuem: new Map([...porQuem].filter(([, nome]) => nome)) };
    }, ({ page, reservas, porQuem }) => {
      append(extratoBox,
        extrato(page.itens, { reservas, nomes: porQuem, caption: 'Os movimentos mais recentes primeiro', vazio: 'Nenhum movimento de créditos nesta conta.' }),
        page.total ? pager({
          pagina: page.pagina, total: page.total, noun: ['movimento', 'movimentos'], label: 'Páginas do extrato',
          onPage: (n) => { pagina = n; loadExtrato(); },
        }) : null);
    }, { signal, text: 'Carregando o extrato…' });
  }

  function ajusteForm() {
    const action = new Action();
    const sentido = radios({ legend: 'Operação', name: 'sentido', checked: 'somar', options: [['somar', 'Adicionar'], ['retirar', 'Retirar']] });
    const medida = radios({ legend: 'Em', name: 'medida', checked: 'minutos', options: [['minutos', 'Horas'], ['centavos', 'Valor (R$)']] });
    const quantidadeField = field({ label: 'Quantidade', name: 'quantidade', hint: ' ', attrs: { inputmode: 'decimal', autocomplete: 'off', maxlength: '20' } });
    const dica = quantidadeField.querySelector('.field__hint');
    const motivo = field({
      label: 'Motivo', name: 'motivo', type: 'textarea', required: true,
      hint: 'Obrigatório. Fica na trilha de auditoria, e o membro o vê no extrato.', attrs: { maxlength: '500' },
    });
    const descricao = field({
      label: 'Descrição', name: 'descricao', optional: true,
      hint: 'O nome do lote que o membro lê em "Meus créditos" (ex.: Cortesia de boas-vindas).', attrs: { maxlength: '200', autocomplete: 'off' },
    });
    const tipos = checkboxes({ legend: 'Tipos de espaço', name: 'tipos', options: Object.entries(TIPOS) });
    tipos.querySelector('legend').after(h('p', { class: 'field__hint' }, 'Nenhum marcado: vale em qualquer espaço.'));
    const unidade = field({
      label: 'Unidade', name: 'unidadeId', type: 'select', value: '',
      options: [['', 'Todas as unidades'], ...unidades.map((u) => [u.id, u.nome])],
    });
    const validade = field({
      label: 'Válido até', name: 'validoAte', type: 'date', optional: true,
      hint: 'Vale até o fim deste dia, no horário da unidade. Sem data: não vence.', attrs: { min: addDays(todayIn(), 1) },
    });
    const onde = h('fieldset', { class: 'fieldset credit-adjust__lote' },
      h('legend', {}, 'Onde e até quando vale'),
      tipos, h('div', { class: 'form__row' }, unidade, validade));
    const retirada = h('p', { class: 'small credit-adjust__retirada' },
      'A retirada sai dos lotes que vencem primeiro, até o saldo que pode ser usado.');
    const resultado = h('div', { class: 'credit-adjust__resultado', role: 'status', 'aria-live': 'polite' });
    const form = h('form', { class: 'form credit-adjust', novalidate: true, 'aria-labelledby': 'ajuste-titulo' },
      h('div', { class: 'form__row' }, sentido, medida),
      quantidadeField, motivo, descricao, onde, retirada,
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'button' }, 'Registrar ajuste')));

    const sync = () => {
      const emHoras = form.elements.medida.value !== 'centavos';
      dica.textContent = emHoras ? 'Em horas: 2, 1,5 ou 1:30.' : 'Em reais: 50 ou 50,00.';
      const somar = form.elements.sentido.value !== 'retirar';
      onde.hidden = !somar;
      retirada.hidden = somar;
    };
    form.addEventListener('change', sync);
    sync();

    onSubmit(form, async () => {
      replace(resultado);
      const emHoras = form.elements.medida.value !== 'centavos';
      const medidaEscolhida = emHoras ? 'minutos' : 'centavos';
      const somar = form.elements.sentido.value !== 'retirar';
      const texto = val(form, 'quantidade');
      if (!texto) return fieldError(form, 'quantidade', emHoras ? 'Informe quantas horas (ex.: 2 ou 1:30).' : 'Informe o valor em reais (ex.: 50,00).');
      if (/^[-−]/.test(texto)) return fieldError(form, 'quantidade', 'Informe a quantidade sem sinal e escolha "Retirar" para tirar créditos.');
      const valor = emHoras ? minutosDeHoras(texto) : parseMoney(texto);
      if (valor === null) return fieldError(form, 'quantidade', emHoras ? 'Não entendi as horas: use 2, 1,5 ou 1:30.' : 'Não entendi o valor: use 50 ou 50,00.');
      if (valor <= 0) return fieldError(form, 'quantidade', 'A quantidade precisa ser maior que zero.');
      if (valor > MAXIMO[medidaEscolhida]) return fieldError(form, 'quantidade', `O máximo por ajuste é ${quantidade(medidaEscolhida, MAXIMO[medidaEscolhida])}.`);

      const pedido = { medida: medidaEscolhida, quantidade: somar ? valor : -valor, motivo: val(form, 'motivo') };
      const desc = val(form, 'descricao');
      if (desc) pedido.descricao = desc;
      if (somar) {
        const marcados = [...form.querySelectorAll('input[name="tipos"]:checked')].map((el) => el.value);
        if (marcados.length) pedido.tipos = marcados;
        const unidadeId = val(form, 'unidadeId');
        if (unidadeId) pedido.unidadeId = unidadeId;
        const ate = val(form, 'validoAte');
        if (ate) {
          if (!isDate(ate)) return fieldError(form, 'validoAte', 'Escolha uma data válida.');
          const tz = unidades.find((u) => u.id === unidadeId)?.fusoHorario ?? DEFAULT_TZ;
          pedido.validoAte = isoWithOffset(zonedToMs(addDays(ate, 1), 0, tz) - 1000, tz);
        }
      }
      let carteira;
      try {
        carteira = await action.run(`${base}/ajustes`, { body: pedido, signal });
      } catch (error) {
        // "the usable balance is 195 minutes": in the unit the operator typed.
        if (error?.code === 'creditos_insuficientes' && error.detalhes?.disponivel !== undefined) {
          error.message = `não há tanto a retirar: o saldo que pode ser usado é de ${quantidade(medidaEscolhida, Number(error.detalhes.disponivel))}`;
        }
        throw error;
      }
      const feito = `Ajuste registrado: ${comSinal(medidaEscolhida, pedido.quantidade)}. Saldo agora: ${quantidade('minutos', carteira.minutos)} e ${quantidade('centavos', carteira.centavos)}.`;
      form.reset();
      sync();
      replace(resultado, h('p', { class: 'alert alert--sucesso' }, feito));
      announce(feito);
      pagina = 1;
      loadCarteira();
      loadExtrato();
    }, { busyText: 'Registrando…' });
    return h('section', { class: 'panel', 'aria-labelledby': 'ajuste-titulo' }, h('h2', { id: 'ajuste-titulo' }, 'Ajustar créditos'), form, resultado);
  }

  loadCarteira();
  loadExtrato();
}
