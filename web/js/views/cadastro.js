import { api, Action } from '../lib/api.js';
import { h, link, append } from '../lib/dom.js';
import { field, onSubmit, pageHeader, val, flash, fieldError } from '../lib/ui.js';

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
    flash('Conta criada! Agora entre com seu e-mail e senha.', 'sucesso', { next: true });
    const volta = query.get('volta');
    navigate(`/entrar?email=${encodeURIComponent(email)}${volta ? `&volta=${encodeURIComponent(volta)}` : ''}`);
  }, { busyText: 'Criando conta…' });

  append(container,
    pageHeader('Criar conta', 'Leva menos de um minuto.'),
    form,
    h('p', {}, 'Já tem conta? ', link('/entrar', 'Entrar')));
}
