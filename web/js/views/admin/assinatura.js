// One member's subscription, for operators: the same panel the member sees (lib/assinaturas.js)
// acting through the operator's API — change plan, pause, cancel, resume, undo a scheduled change,
// change the means of payment (a new card after a decline charges the cycle again at once) —
// plus "Registrar pagamento" of a cycle paid outside the app; without one, the form that
// subscribes the member to a plan.

import { api, allPages } from '../../lib/api.js';
import { h, link, replace, append } from '../../lib/dom.js';
import { pageHeader, loadInto, announce } from '../../lib/ui.js';
import { painelDaAssinatura, formularioDeAssinatura, primeiroCicloEmPalavras, acompanharCobranca, textoDe } from '../../lib/assinaturas.js';

export function render({ container, params, signal }) {
  const id = params.id;
  const base = `/api/admin/usuarios/${encodeURIComponent(id)}/assinatura`;
  const body = h('div');
  replace(container,
    h('p', { class: 'back' }, link('/admin/assinaturas', '← Assinaturas')),
    pageHeader('Assinatura'),
    body);

  loadInto(body, () => Promise.all([
    api(`/api/admin/usuarios/${encodeURIComponent(id)}`, { signal }),
    api(base, { signal }), // null: the member never subscribed (204)
    allPages('/api/admin/planos', { signal }),
  ]), ([perfil, assinatura, planos]) => {
    container.querySelector('h1').textContent = `Assinatura de ${perfil.nome}`;
    document.title = `Assinatura de ${perfil.nome} · CoworkFlow`;
    mostrar(perfil, assinatura, planos);
  }, { signal, text: 'Carregando a assinatura…' });

  let parar = () => {};

  function mostrar(perfil, assinatura, planos, mensagem, { focar = true } = {}) {
    parar();
    replace(body, h('p', {}, `${perfil.email} · `, link(`/admin/usuarios/${encodeURIComponent(perfil.id)}`, 'Abrir a conta e os créditos')));
    const aVenda = planos.filter((p) => !p.arquivado);
    if (assinatura && assinatura.status !== 'encerrada') {
      append(body, painelDaAssinatura(assinatura, {
        base, planos: aVenda, signal, mensagem, operador: true,
        onChange: (nova, texto) => mostrar(perfil, nova, planos, texto),
      }));
      parar = acompanharCobranca(assinatura, {
        base, signal,
        onChange: (nova, texto) => mostrar(perfil, nova, planos, texto ?? mensagem, { focar: Boolean(texto) }),
      });
    } else {
      if (assinatura) {
        append(body, h('p', { class: 'alert alert--info' }, `A assinatura do plano ${assinatura.plano?.nome ?? ''} está encerrada${assinatura.motivoDoEncerramento === 'inadimplencia' ? ' por falta de pagamento' : ''}.`));
      } else {
        append(body, h('p', { class: 'alert alert--info' }, 'Esta conta não tem assinatura.'));
      }
      if (aVenda.length) {
        append(body, formularioDeAssinatura({
          planos: aVenda, base, signal, titulo: `Assinar um plano para ${perfil.nome}`,
          onDone: (nova) => mostrar(perfil, nova, planos, `Assinatura feita. ${primeiroCicloEmPalavras(nova)}`),
        }).form);
      }
    }
    if (mensagem && focar) {
      announce(textoDe(mensagem));
      body.querySelector('.subscription__message')?.focus();
    }
  }
}
