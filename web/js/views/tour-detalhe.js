// A booked tour, opened from its link (/tour/<id>: on the confirmation and in the e-mail), with
// no account: the unit and its address, when (in the unit's zone) and where it stands. While it is
// booked and its time has not come, "Cancelar tour" (after a confirmation). A cancelled tour says
// who cancelled it (the team's reason went by e-mail), a done or missed one says so, each with the
// way to book another; an unknown link (404) says it was not found. A refusal (409: it began or
// was concluded meanwhile) is said above the tour, drawn again as it now stands.

import { api, Action } from '../lib/api.js';
import { h, link, replace, uid } from '../lib/dom.js';
import { TOUR_SITUACAO, TOUR_SITUACAO_KIND } from '../lib/labels.js';
import { DEFAULT_TZ, zoneLabel } from '../lib/format.js';
import { describeError } from '../lib/errors.js';
import { pageHeader, loadInto, facts, badge, busy, confirmDialog, errorBox, flash, announce } from '../lib/ui.js';
import { quandoDoTour, tourIniciado } from '../lib/tours.js';

export function render({ container, params, signal }) {
  const path = `/api/tours/${encodeURIComponent(params.id)}`;
  const body = h('div', { class: 'tour-page' });
  replace(container, pageHeader('Seu tour', 'A visita guiada que você agendou: quando, onde e como ela está.'), body);
  const action = new Action();

  /** The tour, or null for a link that names none (404). */
  async function ler() {
    try {
      return await api(path, { signal });
    } catch (error) {
      if (error?.status === 404) return null;
      throw error;
    }
  }

  loadInto(body, ler, (t) => mostrar(t), { signal, text: 'Abrindo o tour…' });

  /** `erro`: why cancelling just failed (said above the tour, with the focus). */
  function mostrar(t, erro) {
    const aviso = erro ? h('div', { class: 'alert alert--erro tour__error', role: 'alert', tabindex: '-1' }, h('p', {}, erro)) : null;
    replace(body, aviso, t ? cartao(t) : naoEncontrado());
    aviso?.focus();
  }

  function naoEncontrado() {
    return h('div', { class: 'alert alert--erro tour-missing' },
      h('p', {}, h('strong', {}, 'Tour não encontrado.')),
      h('p', {}, 'Confira se você abriu o link inteiro, como ele chegou no e-mail de confirmação. Se o tour foi agendado há muito tempo, os dados dele podem já ter sido apagados.'),
      h('p', {}, link('/tour', 'Agendar um tour')));
  }

  function cartao(t) {
    const tz = t.fuso ?? DEFAULT_TZ;
    const tituloId = uid('tour-titulo');
    const agendarOutro = link(`/tour?unidade=${encodeURIComponent(t.unidadeId)}`, 'Agendar outro tour');
    return h('section', { class: `panel tour-detail tour-detail--${t.situacao}`, 'aria-labelledby': tituloId, dataset: { situacao: t.situacao } },
      h('h2', { id: tituloId, tabindex: '-1' }, `Tour em ${t.unidade ?? 'unidade'}`),
      facts([
        ['Quando', [h('time', { datetime: t.inicio }, quandoDoTour(t, tz)), h('span', { class: 'small block' }, `No ${zoneLabel(tz)}.`)]],
        ['Onde', [t.unidade ?? '—', t.endereco ? h('span', { class: 'block' }, t.endereco) : null]],
        ['Em nome de', t.nome ?? h('span', { class: 'small' }, 'Dados apagados')],
        ['Situação', badge(TOUR_SITUACAO[t.situacao] ?? t.situacao, TOUR_SITUACAO_KIND[t.situacao] ?? 'neutro')],
      ]),
      situacao(t, agendarOutro));
  }

  /** What the tour's state means, and the one thing to do (cancel it, or book another). */
  function situacao(t, agendarOutro) {
    switch (t.situacao) {
      case 'cancelado':
        return h('p', { class: 'tour-detail__state' }, t.canceladoPorEquipe
          ? 'A equipe da unidade cancelou este tour e enviou o motivo por e-mail. '
          : 'Este tour foi cancelado. ', agendarOutro, '.');
      case 'realizado':
        return h('p', { class: 'tour-detail__state' }, 'Este tour já aconteceu. Obrigado pela visita! Quando quiser começar, ',
          link('/cadastro', 'crie sua conta'), '.');
      case 'ausente':
        return h('p', { class: 'tour-detail__state' }, 'Este tour estava agendado, mas ninguém compareceu. Se ainda quiser conhecer o espaço, ',
          agendarOutro, '.');
      default:
        break;
    }
    if (tourIniciado(t)) {
      return h('p', { class: 'tour-detail__state' }, 'O horário deste tour já começou: não dá mais para cancelá-lo por aqui. Se não puder vir, avise a recepção da unidade.');
    }
    const botao = h('button', { type: 'button', class: 'button button--danger' }, 'Cancelar tour');
    botao.addEventListener('click', () => cancelar(t, botao));
    return [
      h('p', { class: 'tour-detail__state' }, 'Esperamos você! Chegue alguns minutos antes e procure a recepção. Se não puder vir, cancele o tour: o horário fica livre para outra pessoa.'),
      h('div', { class: 'actions' }, botao),
    ];
  }

  async function cancelar(t, botao) {
    const tz = t.fuso ?? DEFAULT_TZ;
    const ok = await confirmDialog({
      title: 'Cancelar este tour?',
      body: [`${t.unidade ?? 'Tour'} — ${quandoDoTour(t, tz)}.`,
        'A equipe deixa de esperar você, e seus dados são apagados uma hora depois. Se quiser, agende outro horário depois.'],
      confirmText: 'Cancelar tour',
      cancelText: 'Manter tour',
      danger: true,
    });
    if (!ok) return;
    const restore = busy(botao, 'Cancelando…');
    try {
      const cancelado = await action.run(`${path}/cancelamento`);
      flash('Tour cancelado. Se quiser, agende outro horário quando puder.', 'sucesso');
      mostrar(cancelado);
      announce('Tour cancelado.');
      body.querySelector('h2')?.focus();
    } catch (error) {
      if (error?.name === 'AbortError') return;
      if (error?.status === 409 || error?.status === 404) {
        // It began, or was concluded, meanwhile: the tour as it now stands, and why.
        const mensagem = describeError(error);
        const atual = await ler().catch(() => t);
        if (signal.aborted) return;
        mostrar(atual, mensagem);
        return;
      }
      restore();
      botao.closest('section')?.querySelector('.tour-detail__error')?.remove();
      const box = errorBox(error);
      box.classList.add('tour-detail__error');
      box.setAttribute('tabindex', '-1');
      botao.closest('.actions').after(box);
      box.focus();
    }
  }
}
