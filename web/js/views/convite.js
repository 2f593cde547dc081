// An invitation to a company, opened from its link (/convite/<token>, e-mailed to the person or
// passed on by a manager): which company, as what, until when, and "Aceitar convite" — which
// brings the person into it and opens "Minha empresa". Or why it cannot be accepted: it expired,
// they are already in this company, they are in another one (which they must leave first), or the
// link is no good (used, revoked or cut short: the API answers 404). Signed-out visitors are sent
// to log in (or sign up) first and come back here (main.js, access 'membro').

import { api, Action } from '../lib/api.js';
import { session } from '../lib/session.js';
import { h, link, replace, append } from '../lib/dom.js';
import { dateTime } from '../lib/format.js';
import { describeError } from '../lib/errors.js';
import { PAPEIS_NA_EMPRESA_DICA } from '../lib/labels.js';
import { pageHeader, loadInto, facts, busy, errorBox, flash } from '../lib/ui.js';
import { papelEmPalavras, badgeDoPapel } from '../lib/empresas.js';

/** "faz parte…" → "Faz parte…". */
function maiuscula(texto) {
  return texto.charAt(0).toLocaleUpperCase('pt-BR') + texto.slice(1);
}

/** "membro", "gestor(a)": the role inside a sentence. */
function papelNaFrase(papel) {
  return papelEmPalavras(papel).toLowerCase();
}

export function render({ container, params, signal, navigate }) {
  const token = params.token;
  const path = `/api/convites/${encodeURIComponent(token)}`;
  const body = h('div', { class: 'invitation-page' });
  replace(container, pageHeader('Convite para uma empresa'), body);

  /** The invitation, or null for a link that names none (404). */
  async function ler() {
    try {
      return await api(path, { signal });
    } catch (error) {
      if (error?.status === 404) return null;
      throw error;
    }
  }

  loadInto(body, ler, (convite) => mostrar(convite), { signal, text: 'Abrindo o convite…' });

  /** `erro`: why accepting just failed (said above the invitation's state, with focus). */
  function mostrar(convite, erro) {
    replace(body);
    const aviso = erro ? h('div', { class: 'alert alert--erro invitation__error', role: 'alert', tabindex: '-1' }, h('p', {}, erro)) : null;
    append(body, aviso, convite ? estado(convite) : invalido());
    aviso?.focus();
  }

  function invalido() {
    return h('div', { class: 'alert alert--erro invitation invitation--invalido' },
      h('p', {}, h('strong', {}, 'Este link de convite não vale.')),
      h('p', {}, 'Ele pode já ter sido usado, ter sido revogado por um gestor da empresa ou ter chegado incompleto. Confira se você abriu o link inteiro; se não der certo, peça um novo convite a quem convidou você.'),
      h('p', {}, link('/empresa', 'Ver minha empresa')));
  }

  function estado(c) {
    const convidou = `${c.empresa} convidou você para fazer parte dela como ${papelNaFrase(c.papel)}.`;
    if (c.jaIntegrante) {
      return h('div', { class: 'alert alert--info invitation invitation--integrante' },
        h('p', {}, h('strong', {}, `Você já faz parte de ${c.empresa}.`)),
        h('p', {}, 'Não há nada a aceitar: este convite é de uma empresa de que você já faz parte.'),
        h('p', {}, link('/empresa', 'Ver minha empresa')));
    }
    if (c.expirado) {
      return h('div', { class: 'alert alert--erro invitation invitation--expirado' },
        h('p', {}, h('strong', {}, `Este convite de ${c.empresa} expirou`), ` em ${dateTime(c.expiraEm)}.`),
        h('p', {}, `Peça um novo convite a um gestor de ${c.empresa}: cada link vale 7 dias.`));
    }
    if (c.outraEmpresa) {
      return h('div', { class: 'alert alert--info invitation invitation--outra' },
        h('p', {}, h('strong', {}, convidou)),
        h('p', {}, `Mas você já faz parte de ${c.outraEmpresa}, e cada pessoa faz parte de uma empresa só. Para aceitar, saia de ${c.outraEmpresa} antes, em Minha empresa, e depois abra este link de novo (ele vale até ${dateTime(c.expiraEm)}).`),
        h('p', {}, link('/empresa', 'Ir para Minha empresa')));
    }
    const erro = h('div');
    const aceitar = h('button', { type: 'button', class: 'button button--primary-large' }, 'Aceitar convite');
    aceitar.addEventListener('click', async () => {
      replace(erro);
      const restore = busy(aceitar, 'Aceitando…');
      try {
        const empresa = await new Action().run(`${path}/aceite`, { signal });
        const texto = `Pronto! Agora você faz parte de ${empresa.nome} como ${papelNaFrase(empresa.meuPapel ?? c.papel)}.`;
        flash(texto, 'sucesso', { next: true });
        navigate('/empresa');
      } catch (error) {
        if (error?.name === 'AbortError') return;
        if (error?.status === 404) {
          mostrar(null);
          return;
        }
        if (error?.status === 409) {
          // expired meanwhile, already in it, or in another company: the invitation says which
          const mensagem = describeError(error);
          try {
            mostrar(await api(path, { signal }), mensagem);
          } catch (again) {
            if (again?.name === 'AbortError') return;
            mostrar(null, mensagem);
          }
          return;
        }
        if (aceitar.isConnected) restore();
        const box = errorBox(error);
        box.setAttribute('tabindex', '-1');
        replace(erro, box);
        box.focus();
      }
    });
    const conta = session.usuario;
    return h('section', { class: 'panel invitation invitation--valido', 'aria-labelledby': 'convite-titulo' },
      h('h2', { id: 'convite-titulo' }, `Convite de ${c.empresa}`),
      h('p', { class: 'invitation__lead' }, convidou),
      facts([
        ['Empresa', c.empresa],
        ['Papel', [badgeDoPapel(c.papel), h('span', { class: 'small block' }, maiuscula(PAPEIS_NA_EMPRESA_DICA[c.papel] ?? ''))]],
        ['Válido até', dateTime(c.expiraEm)],
      ]),
      conta ? h('p', { class: 'small' }, `Você vai aceitar com a conta ${conta.email ?? conta.nome}. Se não for você, saia e entre com a sua.`) : null,
      h('div', { class: 'actions' },
        aceitar,
        link('/espacos', 'Agora não', { class: 'button button--secondary' })),
      erro);
  }
}
