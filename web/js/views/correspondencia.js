// My mail: letters and parcels the front desk received for the member and holds for them (the
// unit, what it is, who sent it, the desk's note, since when), and below them what was picked up
// or whose registration the desk cancelled (latest first). The desk registers and hands them over
// ("Reservas do dia"); the member is told of each arrival in the inbox and by e-mail.

import { api } from '../lib/api.js';
import { todasAsUnidades } from '../lib/catalog.js';
import { h, replace } from '../lib/dom.js';
import { ENCOMENDA_TIPOS, ENCOMENDA_SITUACAO, ENCOMENDA_KIND } from '../lib/labels.js';
import { DEFAULT_TZ, dateTime, haQuantoTempo } from '../lib/format.js';
import { pageHeader, loadInto, table, badge, announce } from '../lib/ui.js';

export function render({ container, signal }) {
  const lists = h('div', { class: 'mail' });
  replace(container,
    pageHeader('Minha correspondência',
      'Cartas e pacotes que chegaram para você: a recepção da unidade guarda até você retirar, e avisamos você de cada chegada.'),
    lists);

  loadInto(lists, async () => {
    // A unit the catalog cannot name (or a catalog that failed) still lets the mail show.
    const [mail, unidades] = await Promise.all([
      api('/api/encomendas', { signal }),
      todasAsUnidades().catch(() => []),
    ]);
    return { mail, unidades };
  }, ({ mail, unidades }) => {
    // The oldest first: what waits longest is what the member should pick up first.
    const aguardando = [...(mail?.aguardando ?? [])].sort((a, b) => Date.parse(a.registradaEm) - Date.parse(b.registradaEm));
    const anteriores = mail?.anteriores ?? [];
    const porId = new Map(unidades.map((u) => [u.id.toLowerCase(), u]));
    const unidadeDe = (e) => porId.get(String(e.unidadeId).toLowerCase());
    const nomeDaUnidade = (e) => unidadeDe(e)?.nome ?? `Unidade ${String(e.unidadeId).slice(0, 8)}`;
    const tzDe = (e) => unidadeDe(e)?.fusoHorario ?? DEFAULT_TZ;
    const line = (text) => h('span', { class: 'small block' }, text);

    const colunas = [
      { label: 'Tipo', cell: (e) => ENCOMENDA_TIPOS[e.tipo] ?? e.tipo },
      { label: 'Remetente', cell: (e) => e.remetente ?? '—' },
      { label: 'Unidade', cell: (e) => nomeDaUnidade(e) },
      { label: 'Observação da recepção', cell: (e) => e.observacao ?? '—' },
    ];
    const tabela = (caption, rows, ultima) => table({
      caption,
      rows,
      className: 'table--palavras table--correspondencia',
      rowAttrs: (e) => ({ dataset: { encomenda: e.id, situacao: e.situacao } }),
      columns: [...colunas, ultima],
    });

    const chegou = {
      label: 'Chegou',
      cell: (e) => [dateTime(e.registradaEm, tzDe(e)), line(haQuantoTempo(e.registradaEm))],
    };
    const situacao = {
      label: 'Situação',
      cell: (e) => {
        const tz = tzDe(e);
        return [
          badge(ENCOMENDA_SITUACAO[e.situacao] ?? e.situacao, ENCOMENDA_KIND[e.situacao]),
          e.retiradaEm ? line(`Retirada em ${dateTime(e.retiradaEm, tz)}`) : null,
          e.canceladaEm ? line(`Registro cancelado pela recepção em ${dateTime(e.canceladaEm, tz)}`) : null,
          line(`Chegou em ${dateTime(e.registradaEm, tz)}`),
        ];
      },
    };

    lists.append(
      h('section', { class: 'mail__section', 'aria-labelledby': 'correspondencia-aguardando' },
        h('h2', { id: 'correspondencia-aguardando' }, 'Esperando por você na recepção'),
        aguardando.length
          ? tabela('Da que chegou primeiro para a mais recente', aguardando, chegou)
          : h('p', { class: 'empty' }, 'Nada esperando por você. Quando chegar uma carta ou um pacote, avisamos aqui e por e-mail.')),
      h('section', { class: 'mail__section', 'aria-labelledby': 'correspondencia-anteriores' },
        h('h2', { id: 'correspondencia-anteriores' }, 'Retiradas e canceladas'),
        anteriores.length
          ? tabela('Das mais recentes para as mais antigas', anteriores, situacao)
          : h('p', { class: 'empty' }, 'Nenhuma correspondência retirada ou cancelada ainda.')));
    announce(`${aguardando.length} ${aguardando.length === 1 ? 'correspondência esperando' : 'correspondências esperando'} por você na recepção`);
  }, { signal, text: 'Carregando sua correspondência…' });
}
