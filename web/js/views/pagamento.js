// Paying one booking. The method was chosen when booking; this screen shows what to do with it —
// PIX (QR code drawn from the copia-e-cola, and the code to copy), boleto (linha digitável and
// due date), card (processing) — and follows the charge until the booking is confirmed: the
// provider tells the backend by webhook, so the screen asks again every few seconds.
// In the sandbox a "banco de testes" panel pays or declines the charge as the bank would.
// A booking with nothing to pay (the member's credits, or discounts, cover it) has a payment of
// R$ 0,00 and no charge: the screen says so, and names no method.

import { api, Action } from '../lib/api.js';
import { h, link, replace, uid } from '../lib/dom.js';
import { METODOS, PAGAMENTO_STATUS } from '../lib/labels.js';
import { money, dateTime } from '../lib/format.js';
import { qrSvg } from '../lib/qr.js';
import { linhaDigitavel, copiar } from '../lib/cobrancas.js';
import {
  pageHeader, loadInto, facts, errorBox, busy, announce, badge, poll, table, flash,
} from '../lib/ui.js';
import { carregarReserva, resumoDaReserva, voltarParaReservas } from './reserva-resumo.js';
import { creditosComOrigem, daEmpresa, usouCreditos } from '../lib/creditos.js';

const STATUS_KIND = { aguardando_cobranca: 'neutro', pendente: 'aviso', confirmado: 'sucesso', recusado: 'neutro', cancelado: 'neutro' };

export function render({ container, params, signal }) {
  replace(container, voltarParaReservas(), pageHeader('Pagamento da reserva'));
  const body = h('div');
  container.append(body);
  loadInto(body, () => carregarReserva(params.id, { signal }), (loaded) => screen(body, loaded, signal),
    { signal, text: 'Carregando sua reserva…' });
}

function screen(body, { reserva, item, tz }, signal) {
  const resumo = resumoDaReserva({ reserva, item, tz });
  const statusBox = h('div', { class: 'payment-status', role: 'status', 'aria-live': 'polite' });
  const methodBox = h('div');
  const sandboxBox = h('div');
  const refundsBox = h('div');
  replace(body, resumo.node,
    h('section', { class: 'panel', 'aria-labelledby': 'pagamento-titulo' },
      h('h2', { id: 'pagamento-titulo' }, 'Pagamento'),
      statusBox, methodBox),
    sandboxBox, refundsBox);

  let current = reserva;
  let shownKey = null;
  let stop = () => {};
  let flashed = current.status === 'confirmada';

  /** Re-renders what changed; returns true when nothing more will change on its own. */
  function show(pagamento) {
    const key = `${pagamento.status}|${pagamento.cobrancaId ?? ''}|${current.status}`;
    showRefunds(pagamento);
    if (key === shownKey) return settled(pagamento);
    shownKey = key;
    resumo.update(current);
    replace(statusBox, statusMessage(pagamento));
    replace(methodBox, methodDetails(pagamento));
    replace(sandboxBox, sandboxPanel(pagamento));
    return settled(pagamento);
  }

  function settled(p) {
    if (p.status === 'confirmado') return current.status !== 'solicitada' && p.reembolsos.every((r) => r.concluido);
    if (p.status === 'recusado' || p.status === 'cancelado') return current.status !== 'solicitada';
    return ['cancelada', 'expirada'].includes(current.status);
  }

  /** Nothing to charge: the booking's credits (or discounts) cover it. */
  const semCobranca = (p) => p.valor === 0 && current.total === 0;

  function zeroStatus() {
    const line = (kind, ...text) => h('p', { class: `alert alert--${kind}` }, ...text);
    const creditos = usouCreditos(current);
    const pagoCom = creditos
      ? `paga com ${daEmpresa(current.creditos) ? 'créditos' : 'seus créditos'} (${creditosComOrigem(current.creditos)})`
      : 'coberta pelos descontos';
    switch (current.status) {
      case 'solicitada':
        return h('p', { class: 'loading' }, 'Nada a pagar. Confirmando a sua reserva…');
      case 'confirmada':
      case 'concluida':
        return line('sucesso', h('strong', {}, 'Nada a pagar: '), `esta reserva foi ${pagoCom}`,
          current.status === 'confirmada' ? ' e está confirmada. Na chegada, apresente o código de check-in.' : '.');
      default:
        return line('info', h('strong', {}, current.status === 'expirada' ? 'Reserva expirada. ' : 'Reserva cancelada. '),
          creditos
            ? `Nada foi cobrado. Os créditos que ela usou voltaram ${daEmpresa(current.creditos) ? 'aos saldos de onde saíram' : 'ao seu saldo'} conforme a política de cancelamento da unidade; veja o extrato em Meus créditos.`
            : 'Nada foi cobrado.');
    }
  }

  function zeroDetails() {
    const creditos = usouCreditos(current);
    return [
      facts([
        ['Forma de pagamento', creditos ? (daEmpresa(current.creditos) ? 'Créditos' : 'Créditos do seu saldo') : 'Sem cobrança'],
        ['Valor cobrado', money(0)],
      ]),
      h('p', { class: 'actions' },
        current.status === 'confirmada' ? link(`/reservas/${current.id}/checkin`, 'Ver código de check-in', { class: 'button' }) : null,
        creditos ? link('/creditos', 'Meus créditos') : null),
    ];
  }

  function statusMessage(p) {
    if (semCobranca(p)) return zeroStatus();
    const line = (kind, ...text) => h('p', { class: `alert alert--${kind}` }, ...text);
    const expira = p.expiraEm ?? current.expiraEm;
    switch (p.status) {
      case 'aguardando_cobranca':
        return h('p', { class: 'loading' }, 'Gerando a cobrança com o banco…');
      case 'pendente':
        if (p.metodo === 'cartao') return h('p', { class: 'loading' }, 'Processando o pagamento no cartão…');
        return [
          h('p', {}, badge(PAGAMENTO_STATUS.pendente, 'aviso'), ' ', `${METODOS[p.metodo] ?? p.metodo} de ${money(p.valor)}.`),
          expira ? h('p', { class: 'hold' }, `Pague até ${dateTime(expira, tz)}; depois disso o horário é liberado.`) : null,
          h('p', { class: 'small' }, 'Esta página se atualiza sozinha quando o banco confirmar o pagamento.'),
        ];
      case 'confirmado':
        if (current.status === 'solicitada') {
          return h('p', { class: 'loading' }, 'Pagamento recebido. Confirmando a sua reserva…');
        }
        return line('sucesso',
          h('strong', {}, current.status === 'confirmada' ? 'Pagamento confirmado e reserva confirmada!' : 'Pagamento confirmado.'),
          ' ', current.status === 'confirmada' ? 'Na chegada, apresente o código de check-in.' : '');
      case 'recusado':
        return line('erro', h('strong', {}, 'Pagamento recusado. '),
          p.motivo ? `Motivo informado pelo banco: ${p.motivo}. ` : '',
          current.status === 'solicitada' ? 'Liberando o horário…' : 'O horário foi liberado e nada foi cobrado. Você pode reservar de novo com outra forma de pagamento.');
      case 'cancelado':
        return line('info', h('strong', {}, 'Cobrança cancelada. '),
          current.status === 'expirada'
            ? 'O prazo de pagamento terminou e o horário foi liberado.'
            : 'A reserva foi cancelada; nada foi cobrado.');
      default:
        return line('info', PAGAMENTO_STATUS[p.status] ?? p.status);
    }
  }

  function methodDetails(p) {
    if (semCobranca(p)) return current.status === 'solicitada' ? null : zeroDetails();
    if (p.status === 'confirmado' && current.status !== 'solicitada') {
      return [
        facts([
          ['Forma de pagamento', METODOS[p.metodo] ?? p.metodo],
          ['Valor', money(p.valor)],
          p.confirmadoEm ? ['Pago em', dateTime(p.confirmadoEm, tz)] : null,
          p.cobrancaId ? ['Cobrança', h('span', { class: 'mono' }, p.cobrancaId)] : null,
        ]),
        current.status === 'confirmada' ? h('p', {}, link(`/reservas/${current.id}/checkin`, 'Ver código de check-in', { class: 'button' })) : null,
      ];
    }
    if (p.status === 'recusado' || p.status === 'cancelado') {
      return current.status === 'solicitada' ? null
        : h('p', {}, link(`/espacos/${current.espacoId}`, 'Reservar de novo', { class: 'button' }), ' ', link('/reservas', 'Minhas reservas'));
    }
    if (p.status !== 'pendente') return null;
    if (p.pix) return pixDetails(p);
    if (p.boleto) return boletoDetails(p);
    return null;
  }

  function pixDetails(p) {
    const textareaId = uid('pix');
    const copyStatus = h('p', { class: 'small', 'aria-live': 'polite' });
    const textarea = h('textarea', { id: textareaId, readonly: true, rows: 4, class: 'mono', spellcheck: 'false' }, p.pix.copiaECola);
    const copy = h('button', { type: 'button', class: 'button' }, 'Copiar código PIX');
    copy.addEventListener('click', () => copiar(p.pix.copiaECola, textarea, copyStatus, 'Código PIX copiado. Cole no app do seu banco, em "PIX copia e cola".'));
    return h('div', { class: 'pix' },
      h('h3', {}, 'Pague com PIX'),
      h('ol', { class: 'steps' },
        h('li', {}, 'Abra o app do seu banco e escolha pagar com PIX.'),
        h('li', {}, 'Leia o QR code com a câmera ou use "PIX copia e cola" com o código abaixo.'),
        h('li', {}, `Confira o valor, ${money(p.valor)}, e confirme.`)),
      h('figure', { class: 'qr-figure' },
        qrSvg(p.pix.copiaECola, { title: `QR code do PIX de ${money(p.valor)}` }),
        h('figcaption', { class: 'small' }, `PIX de ${money(p.valor)} para CoworkFlow`)),
      h('div', { class: 'field' },
        h('label', { for: textareaId }, 'PIX copia e cola'),
        textarea),
      h('div', { class: 'actions' }, copy),
      copyStatus);
  }

  function boletoDetails(p) {
    const linha = linhaDigitavel(p.boleto.linhaDigitavel);
    const copyStatus = h('p', { class: 'small', 'aria-live': 'polite' });
    const linhaEl = h('p', { class: 'mono linha-digitavel' }, linha);
    const copy = h('button', { type: 'button', class: 'button' }, 'Copiar linha digitável');
    copy.addEventListener('click', () => copiar(p.boleto.linhaDigitavel, linhaEl, copyStatus, 'Linha digitável copiada. Cole no app do seu banco, em "pagar boleto".'));
    return h('div', { class: 'boleto' },
      h('h3', {}, 'Pague com boleto'),
      h('p', {}, 'No app ou no site do seu banco, escolha pagar boleto e digite ou cole a linha abaixo.'),
      facts([
        ['Linha digitável', linhaEl],
        ['Vencimento', dateTime(p.boleto.vencimento, tz)],
        ['Valor', money(p.valor)],
      ]),
      h('div', { class: 'actions' }, copy),
      copyStatus);
  }

  function sandboxPanel(p) {
    if (p.status !== 'pendente' || !p.cobrancaId || p.metodo === 'cartao') return null;
    const result = h('div', { 'aria-live': 'polite' });
    const pay = h('button', { type: 'button', class: 'button' }, 'Pagar no sandbox');
    const decline = h('button', { type: 'button', class: 'button button--secondary' }, 'Recusar');
    const act = async (button, path, body, done) => {
      const restore = busy(button, 'Enviando ao banco de testes…');
      replace(result);
      try {
        await new Action().run(path, { body });
        replace(result, h('p', { class: 'small' }, done));
        announce(done);
        restart(400);
      } catch (error) {
        restore();
        replace(result, errorBox(error));
        if (error?.code === 'cobranca_indisponivel') restart(400);
      }
    };
    const base = `/api/sandbox/cobrancas/${encodeURIComponent(p.cobrancaId)}`;
    pay.addEventListener('click', () => act(pay, `${base}/pagamento`, undefined, 'O banco de testes pagou a cobrança; aguardando a confirmação…'));
    decline.addEventListener('click', () => act(decline, `${base}/recusa`, { motivo: 'recusado no banco de testes' }, 'O banco de testes recusou a cobrança; aguardando o aviso…'));
    return h('section', { class: 'panel panel--sandbox', 'aria-labelledby': 'sandbox-titulo' },
      h('h2', { id: 'sandbox-titulo' }, 'Banco de testes (sandbox)'),
      h('p', {}, 'Ambiente de testes: nenhum dinheiro é movimentado. Estes botões fazem o papel do seu banco, que avisa a CoworkFlow do pagamento como faria de verdade.'),
      facts([['Cobrança', h('span', { class: 'mono' }, p.cobrancaId)]]),
      h('div', { class: 'actions' }, pay, decline),
      result);
  }

  function showRefunds(p) {
    if (!p.reembolsos?.length) {
      replace(refundsBox);
      return;
    }
    replace(refundsBox, h('section', { class: 'panel', 'aria-labelledby': 'reembolsos' },
      h('h2', { id: 'reembolsos' }, 'Reembolsos'),
      table({
        caption: `Reembolsado até agora: ${money(p.reembolsado)}`,
        rows: p.reembolsos,
        columns: [
          { label: 'Valor', cell: (r) => money(r.valor), class: 'num' },
          { label: 'Situação', cell: (r) => (r.concluido ? badge('Concluído', 'sucesso') : badge('Em processamento', 'aviso')) },
        ],
      }),
      h('p', { class: 'small' }, `O valor volta pela mesma forma de pagamento (${METODOS[p.metodo] ?? p.metodo}).`)));
  }

  async function tick() {
    try {
      // Nothing to pay: the booking confirms itself in a moment, and its payment (of R$ 0,00)
      // may not exist yet; ask for it once the booking has moved on.
      if (current.total === 0 && current.status === 'solicitada') {
        current = await api(`/api/reservas/${current.id}`, { signal });
        if (current.status === 'solicitada') {
          resumo.update(current);
          replace(statusBox, zeroStatus());
          return false;
        }
      }
      const pagamento = await api(`/api/reservas/${current.id}/pagamento`, { signal });
      // The booking follows the payment (a webhook, then the booking's own event).
      if (pagamento.status !== 'aguardando_cobranca' && pagamento.status !== 'pendente' && current.status === 'solicitada') {
        current = await api(`/api/reservas/${current.id}`, { signal });
        if (current.status === 'confirmada') announce('Reserva confirmada.');
      } else if (pagamento.status === 'pendente' && current.expiraEm && Date.parse(current.expiraEm) < Date.now()) {
        current = await api(`/api/reservas/${current.id}`, { signal });
      }
      const done = show(pagamento);
      if (pagamento.status === 'confirmado' && current.status === 'confirmada' && !flashed) {
        flashed = true;
        flash(semCobranca(pagamento) ? 'Sua reserva está confirmada!' : 'Pagamento confirmado. Sua reserva está confirmada!', 'sucesso');
      }
      return done;
    } catch (error) {
      if (error?.name === 'AbortError') return true;
      replace(statusBox, errorBox(error, { retry: () => restart(0) }));
      return true;
    }
  }

  function restart(interval) {
    stop();
    stop = poll(tick, { signal, interval: Math.max(interval, 300), max: 5000 });
  }
  restart(0);
}
