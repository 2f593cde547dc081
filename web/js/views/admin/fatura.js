// One invoice: what was billed (a booking, a plan's cycle, a bundle of credits), to whom (a
// member, or a company: its page linked), its ISS, its credit notes (one per refund), and the
// printable receipt the member (or the company's manager) gets, for the desk to print.

import { api } from '../../lib/api.js';
import { espaco as loadEspaco, nomeDoEspaco, todasAsUnidades } from '../../lib/catalog.js';
import { h, link, replace } from '../../lib/dom.js';
import { TIPOS, METODOS, FATURA_STATUS } from '../../lib/labels.js';
import { periodo, FATURA_KIND } from '../../lib/faturas.js';
import { quanto, validade } from '../../lib/pacotes.js';
import { money, dateShort, dateTime, percentFromBP, interval, DEFAULT_TZ } from '../../lib/format.js';
import { pageHeader, loadInto, facts, table, badge } from '../../lib/ui.js';
import { caminhoDaEmpresa } from '../../lib/empresas.js';
import { empresaDoTitular } from '../../lib/pessoas.js';
import { usuariosPorId, pessoa } from './comum.js';

export function render({ container, params, signal }) {
  replace(container,
    h('p', { class: 'back' }, link('/admin/financeiro/faturas', '← Faturas')),
    pageHeader('Fatura'));
  const body = h('div');
  container.append(body);
  loadInto(body, async () => {
    const fatura = await api(`/api/admin/financeiro/faturas/${encodeURIComponent(params.id)}`, { signal });
    // A company's invoice (its plan's cycle) is billed to the company, not to a member.
    const empresaId = empresaDoTitular(fatura.usuarioId);
    if (empresaId) {
      const [unidades, empresa] = await Promise.all([
        todasAsUnidades().catch(() => []),
        api(caminhoDaEmpresa(empresaId), { signal }).catch(() => null),
      ]);
      return { fatura, item: null, usuarios: new Map(), unidades, reserva: null, empresa, empresaId };
    }
    const [item, usuarios, unidades, reserva] = await Promise.all([
      fatura.espacoId ? loadEspaco(fatura.espacoId).catch(() => null) : null,
      usuariosPorId(signal),
      todasAsUnidades().catch(() => []),
      fatura.reservaId ? api(`/api/reservas/${encodeURIComponent(fatura.reservaId)}`, { signal }).catch(() => null) : null,
    ]);
    // A member past the first pages of the account list is asked for by id.
    const membro = String(fatura.usuarioId ?? '').toLowerCase();
    if (membro && !usuarios.has(membro)) {
      const perfil = await api(`/api/admin/usuarios/${encodeURIComponent(fatura.usuarioId)}`, { signal }).catch(() => null);
      if (perfil) return { fatura, item, usuarios: new Map(usuarios).set(membro, perfil), unidades, reserva };
    }
    return { fatura, item, usuarios, unidades, reserva };
  }, ({ fatura: f, item, usuarios, unidades, reserva, empresa, empresaId }) => {
    const titulo = `Fatura ${f.codigo ?? f.numero}`;
    container.querySelector('h1').textContent = titulo;
    // back to its unit's invoices (numbers run per unit)
    replace(container.querySelector('.back'), link(`/admin/financeiro/faturas?unidade=${encodeURIComponent(f.unidadeId)}`, '← Faturas'));
    document.title = `${titulo} · CoworkFlow`;
    const unidade = unidades.find((u) => u.id.toLowerCase() === String(f.unidadeId).toLowerCase());
    const tz = unidade?.fusoHorario ?? DEFAULT_TZ;
    body.append(
      h('section', { class: 'panel', 'aria-labelledby': 'fatura-dados' },
        h('h2', { id: 'fatura-dados' }, 'Dados da fatura'),
        facts([
          ['Situação', badge(FATURA_STATUS[f.status] ?? f.status, FATURA_KIND[f.status])],
          ['Número', `${f.numero} (sequencial da unidade)`],
          ['Unidade', unidade?.nome ?? f.unidadeId],
          ['Data', f.data ? dateShort(f.data) : '—'],
          f.emitidaEm ? ['Emitida em', dateTime(f.emitidaEm, tz)] : null,
          f.pagaEm ? ['Paga em', dateTime(f.pagaEm, tz)] : null,
          empresaId
            ? ['Empresa', link(`/admin/empresas/${encodeURIComponent(empresaId)}`, empresa ? `${empresa.nome} (${empresa.razaoSocial})` : 'ver a empresa')]
            : f.usuarioId ? ['Membro', pessoa(usuarios, f.usuarioId)] : null,
          f.assinatura ? ['Plano', `${f.assinatura.plano?.nome ?? '—'} (versão ${f.assinatura.plano?.versao ?? '—'}), ciclo ${f.assinatura.ciclo}`] : null,
          f.assinatura ? ['Período', periodo(f.assinatura)] : null,
          f.pacote ? ['Pacote', f.pacote.nome] : null,
          f.pacote ? ['Créditos', `${quanto(f.pacote)} em créditos, ${validade(f.pacote).toLocaleLowerCase('pt-BR')}`] : null,
          f.espacoId ? ['Espaço', `${nomeDoEspaco(item, f.espacoId)} (${TIPOS[f.tipoDeEspaco] ?? f.tipoDeEspaco ?? '—'})`] : null,
          // The booking by its space and time, not its id.
          f.reservaId ? ['Reserva', reserva ? `${nomeDoEspaco(item, f.espacoId)}, ${interval(reserva.inicio, reserva.fim, tz)}` : nomeDoEspaco(item, f.espacoId)] : null,
          f.metodo ? ['Forma de pagamento', METODOS[f.metodo] ?? f.metodo] : null,
        ])),
      h('section', { class: 'panel', 'aria-labelledby': 'fatura-valores' },
        h('h2', { id: 'fatura-valores' }, 'Valores'),
        facts([
          ['Valor', money(f.valor)],
          ['ISS', `${money(f.iss)}${f.aliquotaISSBP !== undefined ? ` (${percentFromBP(f.aliquotaISSBP)})` : ''}`],
          ['Reembolsado', money(f.reembolsado ?? 0)],
          f.issDevolvido ? ['ISS devolvido', money(f.issDevolvido)] : null,
          f.liquido !== undefined ? ['Líquido', h('strong', {}, money(f.liquido))] : null,
        ])),
      h('section', { 'aria-labelledby': 'notas' },
        h('h2', { id: 'notas' }, 'Notas de crédito'),
        table({
          caption: 'Uma nota por reembolso',
          empty: 'Nenhuma nota de crédito: nada foi reembolsado.',
          rows: f.notasDeCredito ?? [],
          columns: [
            { label: 'Nota', cell: (n) => n.codigo ?? `Nº ${n.numero}` },
            { label: 'Data', cell: (n) => (n.data ? dateShort(n.data) : '—') },
            { label: 'Valor', cell: (n) => money(n.valor), class: 'num' },
            { label: 'ISS devolvido', cell: (n) => money(n.iss), class: 'num' },
          ],
        })),
      h('p', { class: 'actions' },
        link(`/admin/financeiro/faturas/${encodeURIComponent(f.id)}/recibo`, 'Recibo para imprimir', { class: 'button button--secondary' })));
  }, { signal, text: 'Carregando a fatura…' });
}
