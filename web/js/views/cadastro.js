import { api, Action } from '../lib/api.js';
import { session } from '../lib/session.js';
import { h, link, append } from '../lib/dom.js';
import { field, onSubmit, pageHeader, val, flash, fieldError } from '../lib/ui.js';

/** Only paths of this app are followed after the sign-up (no open redirect). */
function safeBack(value, fallback) {
  return value && value.startsWith('/') && !value.startsWith('//') ? value : fallback;
}

export function render({ container, query, navigate }) {
  const action = new Action();
  const form = h('form', { class: 'form form--narrow', novalidate: true },
    field({ label: 'Nome completo', name: 'nome', required: true, attrs: { autocomplete: 'name', maxlength: '200' } }),
    field({ label: 'E-mail', name: 'email', type: 'email', required: true, attrs: { autocomplete: 'email', inputmode: 'email' } }),
    field({ label: 'Senha', name: 'senha', type: 'password', required: true, hint: 'Pelo menos 8 caracteres.', attrs: { autocomplete: 'new-password', minlength: '8' } }),
    h('p', { class: 'small' }, 'Usamos seus dados só para suas reservas. Você pode exportá-los ou apagá-los quando quiser, em “Meus dados”.'),
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'button' }, 'Criar conta')));

  onSubmit(form, async () => {
    const nome = val(form, 'nome');
    const email = val(form, 'email');
    const senha = form.elements.senha.value;
    if (!nome) return fieldError(form, 'nome', 'Informe seu nome.');
    if (!email || !email.includes('@')) return fieldError(form, 'email', 'Informe um e-mail válido, como nome@exemplo.com.');
    if (senha.length < 8) return fieldError(form, 'senha', 'A senha precisa ter pelo menos 8 caracteres.');
    await action.run('/api/auth/registro', { body: { nome, email, senha } });
    const volta = query.get('volta');
    // The new account signs in with what was just typed, and goes on where it was going.
    let sessao;
    try {
      sessao = await api('/api/auth/login', { method: 'POST', body: { email, senha } });
    } catch (error) {
      if (error?.name === 'AbortError') return;
      flash('Conta criada! Agora entre com seu e-mail e senha.', 'sucesso', { next: true });
      navigate(`/entrar?email=${encodeURIComponent(email)}${volta ? `&volta=${encodeURIComponent(volta)}` : ''}`);
      return;
    }
    session.save({ token: sessao.token, expiraEm: sessao.expiraEm, usuario: sessao.usuario ?? { nome, email, papel: 'membro' } });
    if (!sessao.usuario) {
      try { session.save({ ...session.current, usuario: await api('/api/auth/me') }); } catch { /* the name typed is enough */ }
    }
    flash(`Conta criada! Bem-vindo(a), ${nome.split(' ')[0]}!`, 'sucesso', { next: true });
    navigate(safeBack(volta, '/espacos'), { replace: true });
  }, { busyText: 'Criando conta…' });

  append(container,
    pageHeader('Criar conta', 'Leva menos de um minuto.'),
    form,
    h('p', {}, 'Já tem conta? ', link('/entrar', 'Entrar')));
}
