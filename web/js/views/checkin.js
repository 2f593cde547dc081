// Check-in of one confirmed booking: the code and its QR code (what the reception reads), the
// window in which check-in is accepted, the check-in button while it is open, then checkout.
// The state may change elsewhere (the reception checks the member in, the window closes), so
// the screen asks again every few seconds while something can still happen.

import { api, Action } from '../lib/api.js';
import { h, link, replace } from '../lib/dom.js';
import { CHECKIN_STATUS } from '../lib/labels.js';
import { dateTime, time } from '../lib/format.js';
import { qrSvg } from '../lib/qr.js';
import {
  pageHeader, loadInto, facts, errorBox, busy, announce, badge, poll, flash, confirmDialog,
} from '../lib/ui.js';
import { carregarReserva, resumoDaReserva, voltarParaReservas } from './reserva-resumo.js';

const KIND = { aguardando: 'aviso', presente: 'sucesso', encerrado: 'info', noShow: 'neutro', revogado: 'neutro' };

export function render({ container, params, signal }) {
  replace(container, voltarParaReservas(), pageHeader('Check-in'));
  const body = h('div');
  container.append(body);
  loadInto(body, () => carregarReserva(params.id, { signal }), (loaded) => screen(body, loaded, signal),
    { signal, text: 'Carregando sua reserva…' });
}

function screen(body, { reserva, item, tz }, signal) {
  const resumo = resumoDaReserva({ reserva, item, tz });
  const panel = h('section', { class: 'panel', 'aria-labelledby': 'checkin-titulo' }, h('h2', { id: 'checkin-titulo' }, 'Seu check-in'));
  const content = h('div');
  panel.append(content);
  replace(body, resumo.node, panel);

  if (reserva.status === 'solicitada') {
    replace(content, h('p', { class: 'alert alert--info' }, 'O código de check-in aparece aqui assim que o pagamento for confirmado. ',
      link(`/reservas/${reserva.id}/pagamento`, 'Ir para o pagamento')));
    return;
  }
  if (reserva.status === 'cancelada' || reserva.status === 'expirada') {
    replace(content, h('p', { class: 'alert alert--info' }, 'Esta reserva não está mais ativa, então não há check-in.'));
    return;
  }

  let shownKey = null;
  let openTimer = null;
  signal.addEventListener('abort', () => clearTimeout(openTimer));

  function show(c, { force = false } = {}) {
    const now = Date.now();
    const abre = Date.parse(c.janela.abreEm);
    const fecha = Date.parse(c.janela.fechaEm);
    const fase = now < abre ? 'antes' : (now < fecha ? 'aberta' : 'depois');
    const key = `${c.status}|${fase}`;
    if (key === shownKey && !force) return;
    shownKey = key;
    clearTimeout(openTimer);
    // Re-render when the window opens or closes (timers beyond a day are not worth keeping).
    const next = fase === 'antes' ? abre : (fase === 'aberta' ? fecha : null);
    if (next && next - now < 86_400_000) openTimer = setTimeout(() => show(c), next - now + 50);

    const parts = [
      h('p', {}, badge(CHECKIN_STATUS[c.status] ?? c.status, KIND[c.status])),
    ];
    if (c.status === 'aguardando' && c.codigo) {
      parts.push(
        h('div', { class: 'checkin-code' },
          h('figure', { class: 'qr-figure' },
            c.qr ? qrSvg(c.qr, { title: `QR code do check-in, código ${spell(c.codigo)}` }) : null,
            h('figcaption', {},
              h('span', { class: 'small block' }, 'Código de check-in'),
              h('strong', { class: 'code', 'aria-label': spell(c.codigo) }, c.codigo))),
          h('p', {}, 'Na recepção, mostre o QR code ou diga o código. Você também pode fazer o check-in por aqui quando o prazo abrir.')));
    }
    parts.push(facts([
      ['Check-in aceito', `de ${dateTime(c.janela.abreEm, tz)} até ${dateTime(c.janela.fechaEm, tz)}`],
      c.checkinEm ? ['Entrada', dateTime(c.checkinEm, tz)] : null,
      c.checkoutEm ? ['Saída', dateTime(c.checkoutEm, tz)] : null,
    ]));
    const result = h('div', { 'aria-live': 'polite' });
    if (c.status === 'aguardando') {
      if (fase === 'aberta') {
        const button = h('button', { type: 'button', class: 'button button--primary-large' }, 'Fazer check-in agora');
        button.addEventListener('click', () => act(button, result, '/api/checkin', { codigo: c.codigo, reservaId: reserva.id },
          (novo) => `Check-in feito às ${time(novo.checkinEm ?? new Date().toISOString(), tz)}. Bom trabalho!`));
        parts.push(h('div', { class: 'actions' }, button));
      } else if (fase === 'antes') {
        parts.push(h('p', { class: 'alert alert--info' }, `O check-in abre às ${time(c.janela.abreEm, tz)} de ${dateTime(c.janela.abreEm, tz).split(',')[0]}.`));
      } else {
        parts.push(h('p', { class: 'alert alert--info' }, `O prazo de check-in terminou às ${time(c.janela.fechaEm, tz)}. Se você está na unidade, fale com a recepção.`));
      }
    } else if (c.status === 'presente') {
      const button = h('button', { type: 'button', class: 'button' }, 'Fazer checkout');
      button.addEventListener('click', async () => {
        const ok = await confirmDialog({
          title: 'Fazer checkout?',
          body: ['Registra a sua saída do espaço. Depois disso o check-in não pode ser refeito.'],
          confirmText: 'Fazer checkout',
          cancelText: 'Ainda estou aqui',
        });
        if (!ok) return;
        act(button, result, `/api/reservas/${reserva.id}/checkout`, undefined,
          (novo) => `Checkout registrado às ${time(novo.checkoutEm ?? new Date().toISOString(), tz)}. Até a próxima!`);
      });
      parts.push(h('div', { class: 'actions' }, button));
    } else if (c.status === 'noShow') {
      parts.push(h('p', {}, 'Não registramos sua entrada dentro do prazo. Se houve algum engano, fale com a recepção da unidade.'));
    } else if (c.status === 'encerrado') {
      parts.push(h('p', {}, 'Obrigado pela visita!'));
    }
    parts.push(result);
    replace(content, parts);
  }

  async function act(button, result, path, body, done) {
    const restore = busy(button, 'Enviando…');
    replace(result);
    try {
      const novo = await new Action().run(path, { body });
      const message = done(novo);
      flash(message, 'sucesso');
      announce(message);
      show(novo, { force: true });
      restart();
    } catch (error) {
      if (error?.name === 'AbortError') return;
      restore();
      replace(result, errorBox(error));
    }
  }

  async function tick() {
    try {
      const c = await api(`/api/reservas/${reserva.id}/checkin`, { signal });
      show(c);
      return !['aguardando', 'presente'].includes(c.status);
    } catch (error) {
      if (error?.name === 'AbortError') return true;
      replace(content, errorBox(error, { retry: restart }));
      return true;
    }
  }

  let stop = () => {};
  function restart() {
    stop();
    stop = poll(tick, { signal, interval: 5000, max: 15000 });
  }
  // First answer now, then every few seconds.
  loadInto(content, () => api(`/api/reservas/${reserva.id}/checkin`, { signal }), (c) => {
    show(c);
    if (['aguardando', 'presente'].includes(c.status)) {
      const first = setTimeout(restart, 5000);
      signal.addEventListener('abort', () => clearTimeout(first));
    }
  }, { signal, text: 'Carregando o check-in…' });
}

/** "M9RX9A" → "M 9 R X 9 A" (read one character at a time). */
function spell(code) {
  return String(code).split('').join(' ');
}
