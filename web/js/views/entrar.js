import { api } from '../lib/api.js';
import { session } from '../lib/session.js';
import { h, link, append } from '../lib/dom.js';
import { field, onSubmit, pageHeader, val, flash, fieldError } from '../lib/ui.js';

/** Only paths of this app are followed after login (no open redirect). */
function safeBack(value, fallback) {
  return value && value.startsWith('/') && !value.startsWith('//') ? value : fallback;
}

export function render({ container, query, navigate }) {
  const form = h('form', { class: 'form form--narrow', novalidate: true },
    field({ label: 'E-mail', name: 'email', type: 'email', value: query.get('email') ?? '', required: true, attrs: { autocomplete: 'username', inputmode: 'email' } }),
    field({ label: 'Senha', name: 'senha', type: 'password', required: true, attrs: { autocomplete: 'current-password' } }),
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'button' }, 'Entrar')));

  onSubmit(form, async () => {
    const email = val(form, 'email');
    const senha = form.elements.senha.value;
    if (!email) return fieldError(form, 'email', 'Informe seu e-mail.');
    if (!senha) return fieldError(form, 'senha', 'Informe sua senha.');
    const sessao = await api('/api/auth/login', { method: 'POST', body: { email, senha } });
    let usuario = sessao.usuario;
    if (!usuario) {
      session.save({ token: sessao.token, expiraEm: sessao.expiraEm, usuario: null });
      usuario = await api('/api/auth/me');
    }
    session.save({ token: sessao.token, expiraEm: sessao.expiraEm, usuario });
    flash(`Bem-vindo(a), ${usuario.nome.split(' ')[0]}!`, 'sucesso', { next: true });
    navigate(safeBack(query.get('volta'), usuario.papel === 'admin' ? '/admin/reservas' : '/espacos'), { replace: true });
  }, { busyText: 'Entrando…' });

  append(container,
    pageHeader('Entrar', 'Entre para reservar espaços e acompanhar suas reservas.'),
    form,
    h('p', {}, 'Ainda não tem conta? ', link(`/cadastro${query.get('volta') ? `?volta=${encodeURIComponent(query.get('volta'))}` : ''}`, 'Criar conta')),
    h('p', { class: 'small tour-link' }, 'Quer conhecer o espaço antes? ', link('/tour', 'Agende um tour'), ': não precisa ter conta.'));
  if (query.get('email')) form.elements.senha.focus();
}
