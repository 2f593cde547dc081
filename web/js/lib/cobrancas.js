// A charge as a member pays it, for the screens that show one (a booking's payment, a plan's
// cycle, a bundle's purchase): the boleto's digitable line grouped as printed, the PIX code (QR
// drawn from the copia e cola, and the code to copy), a copy button that falls back to selecting
// the text, the sandbox's "banco de testes" that pays or declines it as the bank would, and the
// card's field of the forms that charge a card.

import { Action } from './api.js';
import { h, replace, uid } from './dom.js';
import { money, dateTime, DEFAULT_TZ } from './format.js';
import { qrSvg } from './qr.js';
import { facts, busy, errorBox, announce, field, fieldError, val } from './ui.js';

/** 47 digits → "00190.00009 01234.567890 12345.678901 2 12340000006000" (anything else as it is). */
export function linhaDigitavel(digitos) {
  const d = String(digitos).replace(/\D/g, '');
  if (d.length !== 47) return digitos;
  return `${d.slice(0, 5)}.${d.slice(5, 10)} ${d.slice(10, 15)}.${d.slice(15, 21)} ${d.slice(21, 26)}.${d.slice(26, 32)} ${d.slice(32, 33)} ${d.slice(33)}`;
}

/** Copies `texto` (Clipboard API; else selects `el` for Ctrl+C) and says what happened in `status`. */
export async function copiar(texto, el, status, feito) {
  try {
    await navigator.clipboard.writeText(texto);
    replace(status, feito);
    announce(feito);
    return;
  } catch {
    // no permission, or not a secure context: select it so the person can copy it
  }
  if (el instanceof HTMLTextAreaElement) {
    el.focus();
    el.select();
  } else {
    const range = document.createRange();
    range.selectNodeContents(el);
    getSelection().removeAllRanges();
    getSelection().addRange(range);
  }
  const m = 'Não foi possível copiar automaticamente: o código está selecionado, copie com Ctrl+C (ou toque e segure, no celular).';
  replace(status, m);
  announce(m);
}

/** How to pay a PIX of `valor` centavos: the steps, the QR code, the copia e cola and its copy button. */
export function blocoDoPix(pix, valor) {
  const id = uid('pix');
  const status = h('p', { class: 'small', 'aria-live': 'polite' });
  const area = h('textarea', { id, readonly: true, rows: 4, class: 'mono', spellcheck: 'false' }, pix.copiaECola);
  const copy = h('button', { type: 'button', class: 'button' }, 'Copiar código PIX');
  copy.addEventListener('click', () => copiar(pix.copiaECola, area, status, 'Código PIX copiado. Cole no app do seu banco, em "PIX copia e cola".'));
  return h('div', { class: 'pix' },
    h('h3', {}, 'Pague com PIX'),
    h('ol', { class: 'steps' },
      h('li', {}, 'Abra o app do seu banco e escolha pagar com PIX.'),
      h('li', {}, 'Leia o QR code com a câmera ou use "PIX copia e cola" com o código abaixo.'),
      h('li', {}, `Confira o valor, ${money(valor)}, e confirme.`)),
    h('figure', { class: 'qr-figure' },
      qrSvg(pix.copiaECola, { title: `QR code do PIX de ${money(valor)}` }),
      h('figcaption', { class: 'small' }, `PIX de ${money(valor)} para CoworkFlow`)),
    h('div', { class: 'field' }, h('label', { for: id }, 'PIX copia e cola'), area),
    h('div', { class: 'actions' }, copy),
    status);
}

/** How to pay a boleto of `valor` centavos: its digitable line (with a copy button), due date and amount. */
export function blocoDoBoleto(boleto, valor, tz = DEFAULT_TZ) {
  const status = h('p', { class: 'small', 'aria-live': 'polite' });
  const linha = h('p', { class: 'mono linha-digitavel' }, linhaDigitavel(boleto.linhaDigitavel));
  const copy = h('button', { type: 'button', class: 'button' }, 'Copiar linha digitável');
  copy.addEventListener('click', () => copiar(boleto.linhaDigitavel, linha, status, 'Linha digitável copiada. Cole no app do seu banco, em "pagar boleto".'));
  return h('div', { class: 'boleto' },
    h('h3', {}, 'Pague com boleto'),
    h('p', {}, 'No app ou no site do seu banco, escolha pagar boleto e digite ou cole a linha abaixo.'),
    facts([
      ['Linha digitável', linha],
      ['Vencimento', dateTime(boleto.vencimento, tz)],
      ['Valor', money(valor)],
    ]),
    h('div', { class: 'actions' }, copy),
    status);
}

/**
 * The sandbox's test bank for charge `cobrancaId`: "Pagar no sandbox" and "Recusar" tell the
 * backend what a bank would. `onDone()` after the bank took the order (the notice follows within
 * a second: the caller reads its screen again).
 */
export function bancoDeTestes(cobrancaId, { signal, onDone } = {}) {
  const tituloId = uid('sandbox-titulo');
  const resultado = h('div', { 'aria-live': 'polite' });
  const pagar = h('button', { type: 'button', class: 'button' }, 'Pagar no sandbox');
  const recusar = h('button', { type: 'button', class: 'button button--secondary' }, 'Recusar');
  const base = `/api/sandbox/cobrancas/${encodeURIComponent(cobrancaId)}`;
  const agir = async (botao, caminho, body, feito) => {
    const restore = busy(botao, 'Enviando ao banco de testes…');
    replace(resultado);
    try {
      await new Action().run(`${base}/${caminho}`, { body, signal });
      replace(resultado, h('p', { class: 'small' }, feito));
      announce(feito);
      onDone?.();
    } catch (error) {
      if (error?.name === 'AbortError') return;
      restore();
      replace(resultado, errorBox(error));
      if (error?.code === 'cobranca_indisponivel') onDone?.();
    }
  };
  pagar.addEventListener('click', () => agir(pagar, 'pagamento', undefined, 'O banco de testes pagou a cobrança; aguardando a confirmação…'));
  recusar.addEventListener('click', () => agir(recusar, 'recusa', { motivo: 'recusado no banco de testes' }, 'O banco de testes recusou a cobrança; aguardando o aviso…'));
  return h('section', { class: 'panel panel--sandbox', 'aria-labelledby': tituloId },
    h('h3', { id: tituloId }, 'Banco de testes (sandbox)'),
    h('p', {}, 'Ambiente de testes: nenhum dinheiro é movimentado. Estes botões fazem o papel do seu banco, que avisa a CoworkFlow do pagamento como faria de verdade.'),
    h('div', { class: 'actions' }, pagar, recusar),
    resultado);
}

/**
 * The card's field of a form that charges a card: the token the payment provider gives the card
 * (in the sandbox, tok_visa is approved; tok_sandbox_recusado and tok_sandbox_sem_saldo are
 * declined). Named cartaoToken, as the API's field, so that its 422 shows next to it.
 */
export function campoDoCartao({
  label = 'Token do cartão (sandbox: tok_visa)',
  hint = 'O código que o provedor de pagamento dá ao cartão. No ambiente de testes, use tok_visa.',
} = {}) {
  return field({ label, name: 'cartaoToken', hint, attrs: { autocomplete: 'off', maxlength: '200', spellcheck: 'false' } });
}

/** The card's token typed in `form`'s campoDoCartao, or null after marking the field with `mensagem`. */
export function tokenDoCartao(form, mensagem = 'Informe o token do cartão (no ambiente de testes: tok_visa).') {
  const token = val(form, 'cartaoToken');
  if (!token) {
    fieldError(form, 'cartaoToken', mensagem);
    return null;
  }
  return token;
}
