// A company's plan in words, for its managers ("Minha empresa"), for operators (the company's
// page) and, read-only, for its members: the company's subscription (a plan for a number of seats:
// the plan's fee and credits times the seats, the setup fee once), shown and acted on as a
// member's (lib/assinaturas.js, through /api/empresas/{id}/assinatura: a change of plan, of the
// means of payment — a new card after a decline charges the cycle again at once); the credits it pools
// (the balance and its lots, as "Meus créditos" shows them); what each person used of them this
// month against their monthly cap; and the form that changes a person's cap, typed in hours and
// R$ and sent in minutes and centavos.

import { api, allPages, Action } from './api.js';
import { todasAsUnidades } from './catalog.js';
import { h, replace, append, uid } from './dom.js';
import { money, duration, moneyInput, todayIn, addDays, minutosDeHoras, plural, DEFAULT_TZ } from './format.js';
import {
  badge, table, field, radios, onSubmit, fieldError, val, announce, loadInto, errorBox,
} from './ui.js';
import { preco, versaoEm, centavosDe } from './planos.js';
import {
  painelDaAssinatura, acompanharCobranca, primeiroCicloEmPalavras, textoDe, cobrancaEInicio, camposDeCobranca,
  STATUS_DA_ASSINATURA, STATUS_DA_ASSINATURA_KIND,
} from './assinaturas.js';
import { saldo, lotes, quantidade } from './creditos.js';

/** The API's path of a company. */
function caminho(id) {
  return `/api/empresas/${encodeURIComponent(id)}`;
}

/** The company's subscription, or null when it never had one (the API answers 204). */
function assinaturaOuNada(empresaId, signal) {
  return api(`${caminho(empresaId)}/assinatura`, { signal });
}

// ---- monthly caps ------------------------------------------------------------------------------

/** Whether a cap limits anything. */
export function temLimite(limite) {
  return Boolean(limite) && (limite.minutosPorMes != null || limite.centavosPorMes != null);
}

/** A person's monthly cap: "5 h/mês", "R$ 50,00/mês", "5 h e R$ 50,00/mês"; "Sem limite". */
export function limiteEmPalavras(limite) {
  if (!temLimite(limite)) return 'Sem limite';
  const partes = [];
  if (limite.minutosPorMes != null) partes.push(quantidade('minutos', limite.minutosPorMes));
  if (limite.centavosPorMes != null) partes.push(money(limite.centavosPorMes));
  return `${partes.join(' e ')}/mês`;
}

/** 600 → "10"; 90 → "1:30" (what minutosDeHoras reads back). */
function horasNoCampo(minutos) {
  if (minutos == null) return '';
  const horas = Math.floor(minutos / 60);
  const resto = minutos % 60;
  return resto ? `${horas}:${String(resto).padStart(2, '0')}` : String(horas);
}

const ERROS_DO_LIMITE = {
  minutosPorMes: 'As horas por mês não podem ser negativas nem passar de 10.000 h.',
  centavosPorMes: 'O valor por mês não pode ser negativo.',
};

/**
 * The form that sets a person's monthly cap on the company's credits (`pessoa`: a row of
 * Empresa.integrantes), in hours and R$; both empty: no cap. `onDone(empresa, mensagem)` after the
 * save; `onCancel()` for "Voltar".
 */
export function formularioDeLimite(empresaId, pessoa, { signal, onDone, onCancel } = {}) {
  const nome = pessoa.nome ?? 'Conta apagada';
  const l = pessoa.limite ?? {};
  const tituloId = uid('limite-titulo');
  const form = h('form', { class: 'form panel company__cap-form', novalidate: true, 'aria-labelledby': tituloId, dataset: { usuario: pessoa.usuarioId } },
    h('h3', { id: tituloId }, `Limite mensal de ${nome}`),
    h('p', { class: 'small' }, 'Quanto a pessoa pode usar dos créditos da empresa em cada mês (as reservas dela usam primeiro os créditos dela mesma). ',
      'Deixe os dois em branco para não limitar.'),
    h('div', { class: 'form__row' },
      field({
        label: 'Horas por mês', name: 'minutosPorMes', optional: true, value: horasNoCampo(l.minutosPorMes),
        hint: 'Ex.: 5, 1,5 ou 1:30. Em branco: sem limite de horas.', attrs: { inputmode: 'decimal', autocomplete: 'off' },
      }),
      field({
        label: 'Valor por mês (R$)', name: 'centavosPorMes', optional: true, value: l.centavosPorMes != null ? moneyInput(l.centavosPorMes) : '',
        hint: 'Ex.: 50 ou 49,90. Em branco: sem limite de valor.', attrs: { inputmode: 'decimal', autocomplete: 'off' },
      })),
    h('div', { class: 'actions' },
      h('button', { type: 'submit', class: 'button' }, 'Salvar limite'),
      h('button', { type: 'button', class: 'button button--secondary', onclick: () => onCancel?.() }, 'Voltar')));
  const action = new Action();
  onSubmit(form, async () => {
    const horas = val(form, 'minutosPorMes');
    let minutosPorMes = null;
    if (horas) {
      minutosPorMes = minutosDeHoras(horas);
      if (minutosPorMes === null) return fieldError(form, 'minutosPorMes', 'Não entendi as horas: use 5, 1,5 ou 1:30.');
    }
    const c = centavosDe(val(form, 'centavosPorMes'), null);
    if (c.erro) return fieldError(form, 'centavosPorMes', c.erro);
    try {
      const nova = await action.run(`${caminho(empresaId)}/integrantes/${encodeURIComponent(pessoa.usuarioId)}/limite`, {
        method: 'PUT', body: { minutosPorMes, centavosPorMes: c.valor }, signal,
      });
      const atual = (nova.integrantes ?? []).find((i) => i.usuarioId === pessoa.usuarioId)?.limite;
      onDone?.(nova, temLimite(atual) ? `Limite de ${nome}: ${limiteEmPalavras(atual)}.` : `${nome} está sem limite mensal.`);
    } catch (error) {
      if (error?.code === 'dados_invalidos' && ERROS_DO_LIMITE[error.campo]) error.message = ERROS_DO_LIMITE[error.campo];
      throw error;
    }
    return undefined;
  }, { busyText: 'Salvando…' });
  return form;
}

// ---- use of the pool -----------------------------------------------------------------------------

const NOME_DO_MES = new Intl.DateTimeFormat('pt-BR', { timeZone: 'UTC', month: 'long', year: 'numeric' });

/** "2026-11" → "novembro de 2026". */
export function mesEmPalavras(mes) {
  const [ano, m] = String(mes).split('-').map(Number);
  if (!ano || !m) return mes;
  return NOME_DO_MES.format(Date.UTC(ano, m - 1, 1));
}

/** "2026-01" and −1 → "2025-12". */
export function outroMes(mes, delta) {
  const [ano, m] = String(mes).split('-').map(Number);
  const d = new Date(Date.UTC(ano, m - 1 + delta, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** What someone used: "1 h", "R$ 10,00", "1 h e R$ 10,00"; nothing: "Nada". */
function usadoEmPalavras(p) {
  const partes = [];
  if (p.minutos > 0) partes.push(quantidade('minutos', p.minutos));
  if (p.centavos > 0) partes.push(money(p.centavos));
  return partes.length ? partes.join(' e ') : 'Nada';
}

/** A member's own use against their cap: "Você usou 1 h de 5 h este mês." */
export function meuUsoEmPalavras(p) {
  const l = p?.limite;
  const minutos = p?.minutos ?? 0;
  const centavos = p?.centavos ?? 0;
  if (temLimite(l)) {
    const partes = [];
    if (l.minutosPorMes != null) partes.push(`${quantidade('minutos', minutos)} de ${quantidade('minutos', l.minutosPorMes)}`);
    if (l.centavosPorMes != null) partes.push(`${money(centavos)} de ${money(l.centavosPorMes)}`);
    return `Você usou ${partes.join(' e ')} este mês.`;
  }
  const usado = usadoEmPalavras({ minutos, centavos });
  return usado === 'Nada'
    ? 'Você ainda não usou os créditos da empresa este mês. Seu uso não tem limite mensal.'
    : `Você usou ${usado} dos créditos da empresa este mês. Seu uso não tem limite mensal.`;
}

/** The month's use, one row per person: hours and money used, their cap. */
function tabelaDeUso(uso) {
  return table({
    caption: `Créditos da empresa usados por pessoa em ${mesEmPalavras(uso.mes)}`,
    className: 'table--palavras table--empresa-uso',
    empty: 'Ninguém na empresa ainda.',
    rows: uso.pessoas ?? [],
    rowAttrs: (p) => ({ dataset: { usuario: p.usuarioId } }),
    columns: [
      { label: 'Pessoa', cell: (p) => p.nome ?? 'Conta apagada' },
      { label: 'Horas', cell: (p) => quantidade('minutos', p.minutos) },
      { label: 'Valor', cell: (p) => money(p.centavos) },
      {
        label: 'Limite mensal',
        cell: (p) => [limiteEmPalavras(p.limite), alcancouLimite(p) ? h('span', { class: 'block' }, badge('Limite atingido', 'aviso')) : null],
      },
    ],
  });
}

/** Whether someone used all their cap allows (in hours or in money). */
function alcancouLimite(p) {
  const l = p.limite;
  if (!temLimite(l)) return false;
  return (l.minutosPorMes != null && p.minutos >= l.minutosPorMes) || (l.centavosPorMes != null && p.centavos >= l.centavosPorMes);
}

// ---- the company's subscription, for its managers and operators -------------------------------------

/**
 * The plans on sale as the company pays them: each version's fee and credits times `assentos`
 * (the company's subscription carries its terms so multiplied), so that the next charge and a
 * change of plan read in the company's amounts.
 */
function planosPorAssentos(planos, assentos = 1) {
  if (!assentos || assentos === 1) return planos;
  const vezes = (t) => ({
    ...t,
    valorCentavos: t.valorCentavos * assentos,
    horasMinutos: (t.horasMinutos ?? 0) * assentos,
    creditoCentavos: (t.creditoCentavos ?? 0) * assentos,
  });
  return planos.map((p) => ({ ...p, versoes: (p.versoes ?? []).map((v) => ({ ...v, termos: vezes(v.termos) })) }));
}

/**
 * The company's plan, its pooled credits and the month's use by person, for a manager or an
 * operator (`operador`): with no subscription, the form that subscribes (plan, seats, method,
 * start). Returns {el, atualizarUso()} — the element stays the same across the page's re-renders
 * (it loads once); atualizarUso() reads the month's use again (after a cap changed).
 */
export function planoDaEmpresa(empresa, { signal, operador = false } = {}) {
  const base = `${caminho(empresa.empresaId)}/assinatura`;
  const planoBox = h('div', { class: 'company-plan__subscription' });
  const poolBox = h('section', { class: 'company-plan__pool', 'aria-labelledby': 'empresa-creditos' });
  const usoBox = h('section', { class: 'company-plan__use', 'aria-labelledby': 'empresa-uso' });
  const el = h('div', { class: 'company-plan' }, planoBox, poolBox, usoBox);
  const pessoas = (empresa.integrantes ?? []).length;
  let parar = () => {};
  // The month of the use shown (AAAA-MM): the current one at first (the API's default), then
  // the one the manager went to; the current one is the last there is.
  let mesDoUso = null;
  let mesAtual = null;

  const carregar = (box, load, render, text) => loadInto(box, load, render, { signal, text });

  carregar(planoBox, () => Promise.all([
    assinaturaOuNada(empresa.empresaId, signal),
    allPages('/api/planos', { signal }),
  ]), ([a, planos]) => mostrarPlano(a, planos), 'Carregando o plano da empresa…');
  carregarPool();
  atualizarUso();

  function carregarPool() {
    carregar(poolBox, () => Promise.all([
      api(`${caminho(empresa.empresaId)}/creditos`, { signal }),
      todasAsUnidades().catch(() => []),
    ]), ([carteira, unidades]) => {
      const teve = (carteira.lotes ?? []).length > 0;
      append(poolBox,
        h('h2', { id: 'empresa-creditos' }, 'Créditos da empresa'),
        saldo(carteira),
        h('p', { class: 'small' }, 'As pessoas da empresa usam estes créditos ao reservar, depois dos próprios, até o limite mensal de cada uma.'),
        lotes(carteira, {
          unidades,
          vazio: h('p', { class: 'alert alert--info credit-empty' }, teve
            ? 'Os créditos da empresa acabaram: não há saldo para usar agora.'
            : 'A empresa ainda não tem créditos: eles vêm do plano da empresa, a cada ciclo.'),
        }));
    }, 'Carregando os créditos da empresa…');
  }

  function atualizarUso(mes = mesDoUso, { focar = false } = {}) {
    carregar(usoBox, () => api(`${caminho(empresa.empresaId)}/uso`, { signal, query: mes ? { mes } : undefined }), (uso) => {
      mesDoUso = uso.mes;
      mesAtual ??= uso.mes;
      const titulo = h('h2', { id: 'empresa-uso', tabindex: '-1' }, `Uso em ${mesEmPalavras(uso.mes)}`);
      const ir = (delta) => () => atualizarUso(outroMes(uso.mes, delta), { focar: true });
      append(usoBox,
        titulo,
        h('nav', { class: 'pager pager--meses', 'aria-label': 'Mês do uso' },
          h('button', { type: 'button', class: 'button button--secondary', onclick: ir(-1) }, '← Mês anterior'),
          h('button', { type: 'button', class: 'button button--secondary', disabled: uso.mes >= mesAtual, onclick: ir(1) }, 'Próximo mês →')),
        tabelaDeUso(uso));
      if (focar) titulo.focus();
    }, 'Carregando o uso do mês…');
  }

  /** `mensagem`: what just happened, at the top of the plan and focused unless `focar` is false. */
  function mostrarPlano(a, planos, mensagem, { focar = true } = {}) {
    parar();
    replace(planoBox);
    if (a && a.status !== 'encerrada') {
      const onChange = (nova, texto) => { mostrarPlano(nova, planos, texto); carregarPool(); };
      append(planoBox, painelDaEmpresa(a, planos, { mensagem, onChange }));
      parar = acompanharCobranca(a, {
        base, signal,
        onChange: (nova, texto) => { mostrarPlano(nova, planos, texto ?? mensagem, { focar: Boolean(texto) }); carregarPool(); },
      });
    } else {
      append(planoBox, semAssinatura(a, planos));
    }
    if (mensagem && focar) {
      announce(textoDe(mensagem));
      planoBox.querySelector('.subscription__message')?.focus();
    }
  }

  /** The member's subscription panel, said of the company: its heading, its seats, no link to "Meus créditos". */
  function painelDaEmpresa(a, planos, { mensagem, onChange }) {
    const assentos = a.assentos ?? 1;
    const partes = h('div', {}, painelDaAssinatura(a, {
      base, planos: planosPorAssentos(planos, assentos), signal, mensagem, operador, onChange,
    }));
    const painel = partes.querySelector('.subscription');
    const titulo = painel?.querySelector('h2');
    if (titulo) titulo.textContent = 'Plano da empresa';
    const primeiro = painel?.querySelector('.facts dd');
    if (primeiro) {
      const porAssento = a.termos ? Math.round(a.termos.valorCentavos / assentos) : null;
      primeiro.after(
        h('dt', {}, 'Assentos'),
        h('dd', { class: 'company-plan__seats' }, `${plural(assentos, 'assento', 'assentos')}`,
          porAssento !== null ? h('span', { class: 'small block' }, `${money(porAssento)} por assento`) : null));
    }
    // the credits go to the company's pool, on this page (not to "Meus créditos")
    partes.querySelectorAll('a[href="/creditos"]').forEach((a2) => {
      a2.parentElement.replaceChildren(h('span', { class: 'small' }, 'Entram nos créditos da empresa, abaixo.'));
    });
    // an operator registers a member's payment by hand; a company's is paid by its charge
    if (operador) partes.querySelectorAll('.subscription__pay').forEach((x) => x.remove());
    // what the plan includes and the cycles, one click away
    const terms = partes.querySelector('.subscription__terms');
    const ciclos = partes.querySelector('.table--ciclos')?.closest('section') ?? [...partes.children].at(-1);
    const mais = h('details', { class: 'company-plan__more' },
      h('summary', {}, 'O que o plano inclui e os ciclos'));
    if (terms) mais.append(terms);
    if (ciclos && ciclos !== painel && !ciclos.classList.contains('subscription__cycle')) mais.append(ciclos);
    partes.append(mais);
    return [...partes.childNodes];
  }

  function semAssinatura(a, planos) {
    const encerrada = a ? h('div', { class: 'alert alert--info' },
      h('p', {}, `A assinatura do plano ${a.plano?.nome ?? ''} está ${STATUS_DA_ASSINATURA.encerrada.toLowerCase()}`,
        a.motivoDoEncerramento === 'inadimplencia' ? ' por falta de pagamento.' : '.',
        ' Escolha um plano abaixo para assinar de novo.')) : null;
    return h('section', { class: 'panel company-plan__none', 'aria-labelledby': 'empresa-plano' },
      h('h2', { id: 'empresa-plano' }, 'Plano da empresa'),
      encerrada,
      a ? null : h('p', {}, 'A empresa ainda não assina um plano.'),
      h('p', { class: 'small' }, 'Com um plano, a empresa paga uma mensalidade por assento e recebe as horas e os créditos do plano vezes os assentos, ',
        'que as pessoas dela usam ao reservar, cada uma até o seu limite mensal.'),
      planos.length
        ? formularioDeAssinaturaDaEmpresa(planos)
        : h('p', { class: 'alert alert--info' }, 'Nenhum plano à venda no momento.'));
  }

  /** Plan (per seat), seats (the company's people by default), method, card token, start; the total said as it changes. */
  function formularioDeAssinaturaDaEmpresa(planos) {
    const tz = DEFAULT_TZ;
    const hoje = todayIn(tz);
    const tituloId = uid('assinar-empresa');
    const plano = radios({
      legend: 'Plano',
      name: 'planoId',
      checked: planos.length === 1 ? planos[0].planoId : undefined,
      options: planos.map((p) => {
        const t = versaoEm(p, hoje)?.termos;
        return [p.planoId, t ? `${p.nome} — ${preco(t)} por assento` : p.nome];
      }),
    });
    const assentos = field({
      label: 'Assentos', name: 'assentos', type: 'number', required: true, value: String(Math.max(1, pessoas)),
      hint: `Quantas pessoas o plano cobre: o valor e os créditos do plano são multiplicados por este número. A empresa tem ${plural(pessoas, 'pessoa', 'pessoas')}.`,
      attrs: { min: '1', max: '1000', step: '1', inputmode: 'numeric' },
    });
    const { metodo, cartao } = camposDeCobranca();
    const inicio = field({
      label: 'Início', name: 'inicio', type: 'date', optional: true,
      hint: 'Em branco: hoje. Pode ser até 90 dias adiante.', attrs: { min: hoje, max: addDays(hoje, 90) },
    });
    const total = h('p', { class: 'company-plan__total', 'aria-live': 'polite' });
    const form = h('form', { class: 'form company-plan__form', novalidate: true, 'aria-labelledby': tituloId },
      h('h3', { id: tituloId }, 'Assinar um plano para a empresa'),
      plano, assentos, total, metodo, cartao, inicio,
      h('p', { class: 'small' },
        'Nos planos mensais, o primeiro ciclo vai do início até o fim do mês e é cobrado proporcionalmente aos dias, com a adesão (uma vez só); ',
        'depois, a cobrança é no dia 1º de cada mês, no e-mail de cobrança da empresa.'),
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'button' }, 'Assinar para a empresa')));

    const lerAssentos = () => {
      const texto = val(form, 'assentos');
      return /^\d+$/.test(texto) ? Number(texto) : null;
    };
    const sync = () => {
      const p = planos.find((x) => x.planoId === form.elements.planoId?.value);
      const t = p ? versaoEm(p, hoje)?.termos : null;
      const n = lerAssentos();
      if (!t || !n || n < 1 || n > 1000) { replace(total); return; }
      const creditos = [
        t.horasMinutos ? duration(t.horasMinutos * n) : null,
        t.creditoCentavos ? money(t.creditoCentavos * n) : null,
      ].filter(Boolean).join(' e ');
      replace(total, h('strong', {}, `Total: ${preco({ ...t, valorCentavos: t.valorCentavos * n })}`),
        ` (${plural(n, 'assento', 'assentos')} × ${money(t.valorCentavos)})`,
        creditos ? `, com ${creditos} de créditos por ciclo para a empresa` : '',
        t.adesaoCentavos ? `; adesão de ${money(t.adesaoCentavos)}, uma vez` : '', '.');
    };
    form.addEventListener('change', sync);
    form.addEventListener('input', sync);
    sync();

    const action = new Action();
    onSubmit(form, async () => {
      const planoId = form.elements.planoId?.value;
      if (!planoId) return fieldError(form, 'planoId', 'Escolha um plano.');
      const n = lerAssentos();
      if (!n || n < 1 || n > 1000) return fieldError(form, 'assentos', 'Informe de 1 a 1000 assentos, em números inteiros.');
      const cobranca = cobrancaEInicio(form, hoje);
      if (!cobranca) return;
      const body = { planoId, ...cobranca, assentos: n };
      let a;
      try {
        a = await action.run(base, { body, signal });
      } catch (error) {
        if (error?.code === 'dados_invalidos' && error.campo === 'assentos') error.message = 'Informe de 1 a 1000 assentos.';
        throw error;
      }
      const planosDeAgora = await allPages('/api/planos', { signal }).catch(() => planos);
      mostrarPlano(a, planosDeAgora, `Assinatura feita para ${plural(a.assentos ?? n, 'assento', 'assentos')}! ${primeiroCicloEmPalavras(a)}`);
      carregarPool();
      return undefined;
    }, { busyText: 'Assinando…' });
    return form;
  }

  return { el, atualizarUso };
}

// ---- for a member: read-only -------------------------------------------------------------------------

/**
 * What a member sees of their company's plan: its name and status, the pool's balance, and their
 * own use this month against their cap.
 */
export function planoParaIntegrante(empresa, { signal } = {}) {
  const el = h('section', { class: 'panel company-plan company-plan--member', 'aria-labelledby': 'empresa-plano' });
  const base = caminho(empresa.empresaId);
  replace(el, h('p', { class: 'loading' }, 'Carregando o plano da empresa…'));
  Promise.all([
    assinaturaOuNada(empresa.empresaId, signal),
    api(`${base}/creditos`, { signal }),
    api(`${base}/uso`, { signal }),
  ]).then(([a, carteira, uso]) => {
    if (signal?.aborted) return;
    const ativa = a && a.status !== 'encerrada';
    const eu = (uso.pessoas ?? [])[0];
    replace(el,
      h('h2', { id: 'empresa-plano' }, 'Plano da empresa'),
      ativa
        ? h('p', { class: 'subscription__plan' },
          h('span', { class: 'subscription__name' }, a.plano?.nome ?? 'Plano'), ' ',
          badge(STATUS_DA_ASSINATURA[a.status] ?? a.status, STATUS_DA_ASSINATURA_KIND[a.status] ?? 'neutro'))
        : h('p', {}, 'A empresa não assina um plano no momento.'),
      ativa && a.assentos ? h('p', { class: 'small' }, `Para ${plural(a.assentos, 'assento', 'assentos')}. Quem gere a empresa cuida do plano.`) : null,
      h('h3', {}, 'Créditos da empresa'),
      saldo(carteira),
      h('p', { class: 'small' }, 'Suas reservas usam estes créditos depois dos seus próprios, até o seu limite mensal.'),
      h('h3', {}, `Seu uso em ${mesEmPalavras(uso.mes)}`),
      h('p', { class: 'company-plan__mine', dataset: { usuario: eu?.usuarioId ?? '' } }, meuUsoEmPalavras(eu)));
  }, (error) => {
    if (error?.name === 'AbortError' || signal?.aborted) return;
    replace(el, h('h2', { id: 'empresa-plano' }, 'Plano da empresa'),
      errorBox(error));
  });
  return el;
}
