// My data (LGPD): the profile, a password change, the export of everything held about me as a
// JSON file, and the erasure of my personal data (irreversible, confirmed by typing a word).

import { api, Action } from '../lib/api.js';
import { session } from '../lib/session.js';
import { h, replace } from '../lib/dom.js';
import { PAPEIS } from '../lib/labels.js';
import { dateTime, todayIn } from '../lib/format.js';
import {
  pageHeader, loadInto, facts, field, onSubmit, flash, fieldError, confirmDialog, downloadJSON, busy, errorBox, announce,
} from '../lib/ui.js';

export function render({ container, signal, navigate }) {
  const perfil = h('section', { class: 'panel', 'aria-labelledby': 'perfil' }, h('h2', { id: 'perfil' }, 'Sua conta'));
  const perfilBody = h('div');
  perfil.append(perfilBody);

  // ---- password ----------------------------------------------------------------------------------
  const senhaForm = h('form', { class: 'form form--narrow', novalidate: true, 'aria-labelledby': 'trocar-senha' },
    h('h2', { id: 'trocar-senha' }, 'Trocar a senha'),
    // For password managers: which account this password belongs to.
    h('input', { type: 'email', name: 'username', autocomplete: 'username', value: session.usuario?.email ?? '', hidden: true, tabindex: '-1' }),
    field({ label: 'Senha atual', name: 'senhaAtual', type: 'password', required: true, attrs: { autocomplete: 'current-password' } }),
    field({ label: 'Nova senha', name: 'novaSenha', type: 'password', required: true, hint: 'Pelo menos 8 caracteres.', attrs: { autocomplete: 'new-password', minlength: '8' } }),
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'button' }, 'Trocar senha')));
  const senhaAction = new Action();
  onSubmit(senhaForm, async () => {
    const senhaAtual = senhaForm.elements.senhaAtual.value;
    const novaSenha = senhaForm.elements.novaSenha.value;
    if (!senhaAtual) return fieldError(senhaForm, 'senhaAtual', 'Informe a senha atual.');
    if (novaSenha.length < 8) return fieldError(senhaForm, 'novaSenha', 'A nova senha precisa ter pelo menos 8 caracteres.');
    // The change ends every session, this one too; the answer is a new one for this tab.
    const sessao = await senhaAction.run('/api/auth/me/senha', { body: { senhaAtual, novaSenha } });
    session.save({ token: sessao.token, expiraEm: sessao.expiraEm, usuario: sessao.usuario });
    senhaForm.reset();
    flash('Senha trocada. As outras sessões desta conta foram encerradas.', 'sucesso');
  }, { busyText: 'Trocando…' });

  // ---- export ------------------------------------------------------------------------------------
  const exportStatus = h('div', { 'aria-live': 'polite' });
  const exportButton = h('button', { type: 'button', class: 'button' }, 'Baixar meus dados (JSON)');
  exportButton.addEventListener('click', async () => {
    const restore = busy(exportButton, 'Gerando arquivo…');
    replace(exportStatus);
    try {
      const dados = await api('/api/auth/me/dados', { signal });
      downloadJSON(`coworkflow-meus-dados-${todayIn()}.json`, dados);
      replace(exportStatus, h('p', { class: 'alert alert--sucesso' }, `Arquivo gerado: ${dados.atividade?.length ?? 0} registros de atividade. Confira a pasta de downloads.`));
    } catch (error) {
      if (error?.name !== 'AbortError') replace(exportStatus, errorBox(error));
    } finally {
      restore();
    }
  });
  const exportar = h('section', { class: 'panel', 'aria-labelledby': 'exportar' },
    h('h2', { id: 'exportar' }, 'Exportar meus dados'),
    h('p', {}, 'Um arquivo com seu perfil, sua conta e toda a sua atividade (reservas, acessos), como a LGPD garante.'),
    exportButton, exportStatus);

  // ---- erase -------------------------------------------------------------------------------------
  const eraseStatus = h('div', { 'aria-live': 'polite' });
  const eraseButton = h('button', { type: 'button', class: 'button button--danger' }, 'Apagar meus dados');
  eraseButton.addEventListener('click', async () => {
    const ok = await confirmDialog({
      title: 'Apagar seus dados pessoais?',
      body: [
        'Seu nome, e-mail e demais dados pessoais serão apagados para sempre e você sairá da conta. Isso não pode ser desfeito.',
        'O histórico de reservas continua existindo, sem nada que identifique você.',
      ],
      confirmText: 'Apagar para sempre',
      cancelText: 'Não apagar',
      danger: true,
      requireText: 'APAGAR',
    });
    if (!ok) return;
    const restore = busy(eraseButton, 'Apagando…');
    try {
      await api('/api/auth/me', { method: 'DELETE' });
      session.clear();
      flash('Seus dados pessoais foram apagados e você saiu da conta.', 'sucesso', { next: true });
      navigate('/');
    } catch (error) {
      restore();
      replace(eraseStatus, errorBox(error));
    }
  });
  const apagar = h('section', { class: 'panel panel--danger', 'aria-labelledby': 'apagar' },
    h('h2', { id: 'apagar' }, 'Apagar meus dados'),
    h('p', {}, 'Apaga seus dados pessoais (LGPD, art. 18). Se tiver reservas futuras, cancele-as antes.'),
    eraseButton, eraseStatus);

  replace(container, pageHeader('Meus dados', 'Sua conta e seus direitos sobre os seus dados.'), perfil, senhaForm, exportar, apagar);

  loadInto(perfilBody, () => api('/api/auth/me', { signal }), (me) => {
    perfilBody.append(facts([
      ['Nome', me.nome],
      ['E-mail', me.email],
      ['Perfil', PAPEIS[me.papel] ?? me.papel],
      ['Cliente desde', dateTime(me.registradoEm)],
    ]));
    if (session.current) session.save({ ...session.current, usuario: me });
    announce('Dados da conta carregados');
  }, { signal });
}
