// One account, for operators: who it is (e-mail, profile, situation, plan, since) and its
// credits — the balance, the lots with something left, the statement (50 a page) — with an
// adjustment: add or take away hours or R$ with a reason (it goes to the audit trail), a
// description the member reads, and for what is added the space types, the unit and the day it
// is good until. The API's error shows next to the field it names; the balance follows a success.
// Its bundle purchases (newest first, 50 a page), with "Reembolsar" on a paid one: a reason, and
// the amount to give back — by default the price's share of the hours still unspent, shown before
// it is confirmed; what is left of the bundle's credits leaves the wallet.

import { api, Action } from '../../lib/api.js';
import { todasAsUnidades } from '../../lib/catalog.js';
import { h, link, replace, append } from '../../lib/dom.js';
import { PAPEIS, TIPOS } from '../../lib/labels.js';
import {
  dateTime, money, parseMoney, todayIn, addDays, zonedToMs, isoWithOffset, isDate, DEFAULT_TZ, minutosDeHoras,
} from '../../lib/format.js';
import { nomesDePessoas } from '../../lib/pessoas.js';
import {
  pageHeader, loadInto, facts, badge, field, checkboxes, radios, onSubmit, fieldError, val, pager, announce, table, busy, errorBox,
} from '../../lib/ui.js';
import { saldo, lotes, extrato, reservasDoExtrato, quantidade, comSinal } from '../../lib/creditos.js';
import { badgeDaCompra, reembolsoDaCompra, colunasDaCompra } from '../../lib/pacotes.js';

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
  const comprasBox = h('div');
  const reembolsoBox = h('div', { class: 'bundle-refund' });
  let pagina = 1;
  let paginaDasCompras = 1;
  let carteiraAtual = null;

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
    h('section', { class: 'panel', 'aria-labelledby': 'compras-titulo' },
      h('h2', { id: 'compras-titulo' }, 'Compras de pacotes'),
      comprasBox, reembolsoBox),
    ajusteForm());

  function loadCarteira() {
    loadInto(carteiraBox, () => api(base, { signal }), (carteira) => {
      carteiraAtual = carteira;
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
      // A withdrawal has no lot: no name, no place, no validity to give it.
      descricao.hidden = !somar;
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
      if (somar) {
        const desc = val(form, 'descricao');
        if (desc) pedido.descricao = desc;
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

  function loadCompras() {
    loadInto(comprasBox, () => api(`/api/admin/usuarios/${encodeURIComponent(perfil.id)}/pacotes/compras`, { query: { pagina: paginaDasCompras }, signal }), (page) => {
      append(comprasBox,
        table({
          caption: 'As mais recentes primeiro',
          className: 'table--palavras table--compras',
          empty: 'Nenhuma compra de pacote nesta conta.',
          rows: page.itens,
          rowAttrs: (c) => ({ dataset: { compra: c.compraId } }),
          columns: [
            ...colunasDaCompra(),
            {
              label: 'Situação',
              cell: (c) => [badgeDaCompra(c), c.status === 'reembolsada' ? h('span', { class: 'small block' }, reembolsoDaCompra(c)) : null],
            },
            { label: 'Ações', cell: (c) => (c.status === 'paga' ? botaoDeReembolso(c) : '—') },
          ],
        }),
        page.total > 50 ? pager({
          pagina: page.pagina, total: page.total, noun: ['compra', 'compras'], label: 'Páginas das compras',
          onPage: (n) => { paginaDasCompras = n; loadCompras(); },
        }) : null);
    }, { signal, text: 'Carregando as compras…' });
  }

  function botaoDeReembolso(c) {
    const botao = h('button', { type: 'button', class: 'button button--small button--secondary', dataset: { acao: 'reembolsar' } },
      'Reembolsar', h('span', { class: 'visually-hidden' }, ` a compra de ${c.pacote.nome}`));
    const erro = h('div');
    botao.addEventListener('click', async () => {
      replace(erro);
      // The wallet as it is now: what is left of the purchase's lot decides the default amount.
      const restore = busy(botao, 'Abrindo…');
      try {
        carteiraAtual = await api(base, { signal });
        restore();
        reembolsoForm(c, botao);
      } catch (error) {
        if (error?.name === 'AbortError') return;
        restore();
        replace(erro, errorBox(error));
      }
    });
    return [botao, erro];
  }

  /** What a refund gives back by default: the price's share of what is left of the purchase's lot (rounded down, as the API). */
  function sugestao(c) {
    const lote = carteiraAtual?.lotes?.find((l) => l.loteId === c.compraId);
    const restante = Math.min(lote?.restante ?? 0, c.pacote.quantidade);
    return { restante, valor: Math.floor((c.valorCentavos * restante) / c.pacote.quantidade) };
  }

  function reembolsoForm(c, botao) {
    const action = new Action();
    const { restante, valor } = sugestao(c);
    const medida = c.pacote.medida;
    const resumo = restante > 0
      ? `Restam ${quantidade(medida, restante)} de ${quantidade(medida, c.pacote.quantidade)} dos créditos desta compra: eles saem da carteira, e créditos que reservas futuras usam deste pacote não voltam se forem canceladas.`
      : 'Nenhum crédito desta compra resta na carteira.';
    const motivo = field({
      label: 'Motivo', name: 'motivo', type: 'textarea', required: true,
      hint: 'Obrigatório. Fica na trilha de auditoria, e o membro o vê na compra.', attrs: { maxlength: '500' },
    });
    const valorField = field({
      label: 'Valor a devolver', name: 'valorCentavos', optional: true,
      hint: `Em reais, até ${money(c.valorCentavos)}. Em branco: ${money(valor)}, a parte do preço dos créditos que restam.`,
      attrs: { inputmode: 'decimal', autocomplete: 'off', maxlength: '20' },
    });
    const cancelar = h('button', { type: 'button', class: 'button button--secondary' }, 'Voltar');
    const titulo = h('h3', { id: 'reembolso-titulo', tabindex: '-1' }, `Reembolsar ${c.pacote.nome} (${money(c.valorCentavos)}, ${dateTime(c.pagaEm ?? c.solicitadaEm)})`);
    const form = h('form', { class: 'form', novalidate: true, 'aria-labelledby': 'reembolso-titulo' },
      h('p', {}, resumo), motivo, valorField,
      h('div', { class: 'actions' }, cancelar, h('button', { type: 'submit', class: 'button button--danger' }, 'Reembolsar')));
    const fechar = () => {
      replace(reembolsoBox);
      if (botao.isConnected) botao.focus();
    };
    cancelar.addEventListener('click', fechar);
    onSubmit(form, async () => {
      const pedido = { motivo: val(form, 'motivo') };
      if (!pedido.motivo) return fieldError(form, 'motivo', 'Informe o motivo do reembolso.');
      const texto = val(form, 'valorCentavos');
      if (texto) {
        const centavos = parseMoney(texto);
        if (centavos === null || centavos < 0) return fieldError(form, 'valorCentavos', 'Não entendi o valor: use 50 ou 50,00.');
        if (centavos > c.valorCentavos) return fieldError(form, 'valorCentavos', `O máximo é o que foi pago: ${money(c.valorCentavos)}.`);
        pedido.valorCentavos = centavos;
      }
      const feita = await action.run(`/api/admin/pacotes/compras/${encodeURIComponent(c.compraId)}/reembolso`, { body: pedido, signal });
      const feito = `Compra reembolsada: ${reembolsoDaCompra(feita)}`;
      replace(reembolsoBox, h('p', { class: 'alert alert--sucesso', role: 'status' }, feito));
      announce(feito);
      pagina = 1;
      loadCompras();
      loadCarteira();
      loadExtrato();
    }, { busyText: 'Reembolsando…' });
    replace(reembolsoBox, h('div', { class: 'bundle-refund__panel' }, titulo, form));
    titulo.focus();
  }

  loadCarteira();
  loadExtrato();
  loadCompras();
}
