// One company, for operators: what its managers see in "Minha empresa" — the registration (and
// its edit form), the people and their roles, the pending invitations and the form that invites
// someone, its link to copy — acting through the same API (lib/empresas.js); and the company's
// plan, its pooled credits, the month's use and the people's monthly caps (lib/empresa-plano.js),
// and its invoices, each opening its page in Financeiro (lib/empresa-faturas.js).

import { api } from '../../lib/api.js';
import { session } from '../../lib/session.js';
import { h, link, replace, append } from '../../lib/dom.js';
import { pageHeader, loadInto } from '../../lib/ui.js';
import {
  resumoDaEmpresa, painelDeGestao, avisoDaEmpresa, focarAviso, caminhoDaEmpresa,
} from '../../lib/empresas.js';
import { planoDaEmpresa } from '../../lib/empresa-plano.js';
import { faturasDaEmpresa } from '../../lib/empresa-faturas.js';

export function render({ container, params, signal }) {
  const body = h('div', { class: 'company-page' });
  replace(container,
    h('p', { class: 'back' }, link('/admin/empresas', '← Empresas')),
    pageHeader('Empresa'),
    body);

  loadInto(body, () => api(caminhoDaEmpresa(params.id), { signal }), (empresa) => mostrar(empresa),
    { signal, text: 'Carregando a empresa…' });

  let plano = null;
  let faturas = null;

  function mostrar(empresa, mensagem, { convite } = {}) {
    if (!plano) plano = planoDaEmpresa(empresa, { signal, operador: true });
    else plano.atualizarUso();
    faturas ??= faturasDaEmpresa(empresa, { signal, operador: true });
    container.querySelector('h1').textContent = empresa.nome;
    document.title = `${empresa.nome} · CoworkFlow`;
    const onChange = (nova, texto, extra) => mostrar(nova, texto, extra);
    replace(body, avisoDaEmpresa(mensagem, convite));
    append(body,
      resumoDaEmpresa(empresa, { gere: true, signal, onChange, titulo: 'Dados da empresa' }),
      plano.el,
      faturas.el,
      painelDeGestao(empresa, { eu: session.usuario?.id, signal, onChange }));
    if (mensagem || convite) focarAviso(body);
  }
}
