// My company: the company account the member is part of (its names, CNPJ, billing e-mail and
// address) and their role in it; none yet, how an invitation's link brings them in. A manager
// also manages it here (lib/empresas.js: people and roles, invitations and their links, the
// registration). Anyone may leave it, confirmed in a dialog — but the last manager, who must make
// someone else a manager first. The company's plan (lib/empresa-plano.js): a manager subscribes
// and manages it, sees its pooled credits and the month's use by person, and caps each person's
// monthly use; a member sees the plan, the pool's balance and their own use against their cap.
// A manager also finds the company's invoices, each with its receipt (lib/empresa-faturas.js).

import { api, Action } from '../lib/api.js';
import { session } from '../lib/session.js';
import { h, link, replace, append } from '../lib/dom.js';
import { pageHeader, loadInto, confirmDialog, busy, errorBox } from '../lib/ui.js';
import {
  resumoDaEmpresa, painelDeGestao, avisoDaEmpresa, focarAviso, caminhoDaEmpresa,
} from '../lib/empresas.js';
import { planoDaEmpresa, planoParaIntegrante } from '../lib/empresa-plano.js';
import { faturasDaEmpresa } from '../lib/empresa-faturas.js';

const BASE = '/api/empresa';

/** The member's company, or null when they are in none (the API answers 204). */
function minhaEmpresa(signal) {
  return api(BASE, { signal });
}

export function render({ container, signal }) {
  const body = h('div', { class: 'company-page' });
  replace(container,
    pageHeader('Minha empresa', 'A conta da empresa de que você faz parte.'),
    body);

  loadInto(body, () => minhaEmpresa(signal), (empresa) => mostrar(empresa), { signal, text: 'Carregando sua empresa…' });

  // the company's plan loads once (its subscription, pool and use) and stays across re-renders;
  // after a change to the people, only the month's use is read again
  let plano = null;
  // a manager's list of the company's invoices, loaded once too
  let faturas = null;

  /** `mensagem`: what just happened, said at the top and focused; `convite`: the link just made. */
  function mostrar(empresa, mensagem, { convite } = {}) {
    replace(body, avisoDaEmpresa(mensagem, convite));
    if (!empresa) {
      plano = null;
      faturas = null;
      append(body, semEmpresa());
    } else {
      const gere = empresa.meuPapel === 'gestor';
      const onChange = (nova, texto, extra) => mostrar(nova, texto, extra);
      if (!plano || plano.gere !== gere) {
        plano = gere ? { gere, ...planoDaEmpresa(empresa, { signal }) } : { gere, el: planoParaIntegrante(empresa, { signal }) };
      } else {
        plano.atualizarUso?.();
      }
      if (!gere) faturas = null;
      else faturas ??= faturasDaEmpresa(empresa, { signal });
      append(body,
        resumoDaEmpresa(empresa, { papel: empresa.meuPapel, gere, signal, onChange }),
        plano.el,
        faturas?.el,
        gere ? painelDeGestao(empresa, { eu: session.usuario?.id, signal, onChange }) : null,
        sair(empresa));
    }
    if (mensagem || convite) focarAviso(body);
  }

  function semEmpresa() {
    return h('div', { class: 'alert alert--info company-empty' },
      h('p', {}, h('strong', {}, 'Você não faz parte de uma empresa.')),
      h('p', {}, 'Quando um gestor da sua empresa convidar você, chega por e-mail um link de convite: abra-o com esta conta e aceite para fazer parte dela.'),
      h('p', {}, 'A conta da empresa é cadastrada pela equipe do CoworkFlow. Enquanto isso, você pode ', link('/espacos', 'reservar espaços'), ' com a sua conta.'));
  }

  /** Leaving, confirmed in a dialog; the last manager is told to make someone else one first. */
  function sair(empresa) {
    const gestores = (empresa.integrantes ?? []).filter((i) => i.papel === 'gestor').length;
    const ultimoGestor = empresa.meuPapel === 'gestor' && gestores <= 1;
    const erro = h('div');
    let acao;
    if (ultimoGestor) {
      acao = h('p', { class: 'small' }, 'Você é a única pessoa gestora da empresa: para sair, torne outra pessoa gestora antes.');
    } else {
      const botao = h('button', { type: 'button', class: 'button button--danger' }, 'Sair da empresa');
      botao.addEventListener('click', async () => {
        const ok = await confirmDialog({
          title: `Sair de ${empresa.nome}?`,
          body: [`Você deixa de fazer parte de ${empresa.nome}. Para voltar, vai precisar de um novo convite de um gestor.`],
          confirmText: 'Sair da empresa', danger: true,
        });
        if (!ok) return;
        replace(erro);
        const restore = busy(botao, 'Saindo…');
        try {
          await new Action().run(`${caminhoDaEmpresa(empresa.empresaId)}/integrantes/${encodeURIComponent(session.usuario?.id ?? '')}`, { method: 'DELETE', signal });
          mostrar(null, `Você saiu de ${empresa.nome}.`);
        } catch (error) {
          if (error?.name === 'AbortError') return;
          if (botao.isConnected) restore();
          const box = errorBox(error);
          box.setAttribute('tabindex', '-1');
          replace(erro, box);
          box.focus();
        }
      });
      acao = h('div', { class: 'actions' }, botao);
    }
    return h('section', { class: 'company__leave', 'aria-labelledby': 'empresa-sair' },
      h('h2', { id: 'empresa-sair' }, 'Sair da empresa'),
      ultimoGestor ? null : h('p', {}, 'Sua conta e as suas reservas continuam as mesmas.'),
      acao,
      erro);
  }
}
