// Words for the API's enumerations.

export const TIPOS = {
  estacao_compartilhada: 'Estação compartilhada',
  mesa_fixa: 'Mesa fixa',
  sala_privativa: 'Sala privativa',
  sala_reuniao: 'Sala de reunião',
  auditorio: 'Auditório',
};

export const STATUS = {
  solicitada: 'Aguardando pagamento',
  confirmada: 'Confirmada',
  cancelada: 'Cancelada',
  expirada: 'Expirada',
  concluida: 'Concluída',
};

/** The badge kind (ui.badge) of each booking status. */
export const STATUS_KIND = { solicitada: 'aviso', confirmada: 'sucesso', cancelada: 'neutro', expirada: 'neutro', concluida: 'info' };

/** Who cancels a hold whose payment was declined (the reservas service, reacting to pagamentos). */
const RECUSA_DO_PAGAMENTO = 'system:pagamentos';

/**
 * Why a booking was cancelled when its payment was declined (the provider's words, as
 * "cartão recusado pelo emissor"); null for any other booking.
 */
export function recusaDoPagamento(r) {
  if (r.status !== 'cancelada' || r.cancelamento?.por !== RECUSA_DO_PAGAMENTO) return null;
  return (r.cancelamento.motivo ?? '').replace(/^pagamento recusado:\s*/, '') || 'pagamento recusado';
}

/** [words, badge kind] of a booking's status: a hold released because its payment was declined reads "Recusada". */
export function situacaoDaReserva(r) {
  if (recusaDoPagamento(r) !== null) return ['Recusada', 'erro'];
  return [STATUS[r.status] ?? r.status, STATUS_KIND[r.status]];
}

/** Monday first, as Brazilian calendars show it; keys are the API's. */
export const DIAS = [
  ['segunda', 'Segunda-feira'],
  ['terca', 'Terça-feira'],
  ['quarta', 'Quarta-feira'],
  ['quinta', 'Quinta-feira'],
  ['sexta', 'Sexta-feira'],
  ['sabado', 'Sábado'],
  ['domingo', 'Domingo'],
];
export const DIA_CURTO = { segunda: 'seg', terca: 'ter', quarta: 'qua', quinta: 'qui', sexta: 'sex', sabado: 'sáb', domingo: 'dom' };

export const MOTIVOS_BLOQUEIO = {
  manutencao: 'Manutenção',
  feriado: 'Feriado',
  evento: 'Evento',
  outro: 'Outro',
  locacao: 'Locado',
};

export const REGRAS = {
  horario_de_pico: 'Horário de pico',
  fim_de_semana: 'Fim de semana',
  longa_duracao: 'Longa duração',
  plano: 'Desconto de plano',
};

export const PAPEIS = { membro: 'Membro', admin: 'Administrador(a)' };

/** A person's role in a company account. */
export const PAPEIS_NA_EMPRESA = { membro: 'Membro', gestor: 'Gestor(a)' };

/** What each role in a company may do (to follow "Membro: ", or to start a sentence once capitalised). */
export const PAPEIS_NA_EMPRESA_DICA = {
  membro: 'faz parte da empresa e vê os dados dela.',
  gestor: 'faz parte da empresa e também convida pessoas, muda os papéis, tira pessoas dela e atualiza o cadastro.',
};

export const UFS = ['AC', 'AL', 'AP', 'AM', 'BA', 'CE', 'DF', 'ES', 'GO', 'MA', 'MT', 'MS', 'MG', 'PA', 'PB', 'PR', 'PE', 'PI', 'RJ', 'RN', 'RS', 'RO', 'RR', 'SC', 'SP', 'SE', 'TO'];

/** Brazil's IANA zones (any other valid IANA name is accepted too). */
export const FUSOS = [
  'America/Sao_Paulo', 'America/Bahia', 'America/Fortaleza', 'America/Recife', 'America/Belem', 'America/Maceio',
  'America/Araguaina', 'America/Manaus', 'America/Cuiaba', 'America/Campo_Grande', 'America/Porto_Velho',
  'America/Boa_Vista', 'America/Rio_Branco', 'America/Noronha',
];

/** What a stream of the log holds, by its category (the part before the first "-"). */
export const REGISTROS = {
  agenda: 'Agenda', boletos: 'Boletos', checkin: 'Check-in', cupom: 'Cupom', emailclaim: 'E-mail',
  espaco: 'Espaço', faturas: 'Faturas', notificacao: 'Notificação', pagamento: 'Pagamento',
  reserva: 'Reserva', tabela: 'Preços', unidade: 'Unidade', usuario: 'Conta',
  empresa: 'Empresa', vinculo: 'Vínculo com empresa', pacote: 'Pacote de créditos', compra: 'Compra de pacote',
  encomenda: 'Correspondência', chamado: 'Chamado', encontro: 'Evento', tour: 'Tour',
};

/** The services that write the log, and the system actors ("system:<nome>"). */
export const SERVICOS = {
  usuarios: 'Contas', espacos: 'Espaços', precos: 'Preços', reservas: 'Reservas', pagamentos: 'Pagamentos',
  checkin: 'Check-in', notificacoes: 'Notificações', financeiro: 'Financeiro', cupons: 'Cupons',
  'seed-demo': 'carga de demonstração',
};

// ---- payments, check-in, notifications, finance --------------------------------------------------

export const METODOS = { pix: 'PIX', cartao: 'Cartão de crédito', boleto: 'Boleto', manual: 'Registrado pela recepção' };

/** What a member may pay a booking with (`manual` is only what an operator records). */
export const METODOS_DE_RESERVA = { pix: METODOS.pix, cartao: METODOS.cartao, boleto: METODOS.boleto };
/** What the reception offers when it books for a member: paid here at the desk first. */
export const METODOS_DA_RECEPCAO = { manual: 'Pago aqui na recepção (dinheiro ou maquininha)', ...METODOS_DE_RESERVA };

/** How a recurring booking repeats (the server's `SerieDeReservas.Frequencia`). */
export const FREQUENCIAS = {
  semanal: 'Toda semana', quinzenal: 'A cada duas semanas', dias_uteis: 'De segunda a sexta', mensal: 'Todo mês, no mesmo dia da semana',
  mensal_no_dia: 'Todo mês, no mesmo dia',
};

/**
 * A series' repetition in words for the date of its first occurrence ("2026-12-08"): a monthly
 * one says which weekday of the month, as the server books it ("Todo mês, na segunda
 * terça-feira"; from the 29th, "na última sexta-feira"), one by the day of the month which day
 * ("Todo mês, no dia 15"; from the 29th, and the last day of shorter months); the others, FREQUENCIAS.
 */
export function frequenciaEmPalavras(frequencia, date) {
  const mensal = frequencia === 'mensal' || frequencia === 'mensal_no_dia';
  if (!mensal || !/^\d{4}-\d{2}-\d{2}$/.test(date ?? '')) return FREQUENCIAS[frequencia] ?? frequencia;
  const [y, m, d] = date.split('-').map(Number);
  if (frequencia === 'mensal_no_dia') return `Todo mês, no dia ${d}${d > 28 ? ' (ou no último dia dos meses mais curtos)' : ''}`;
  const dia = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
  const semana = Math.floor((d - 1) / 7);
  const feminino = dia >= 1 && dia <= 5;
  const qual = semana >= 4
    ? (feminino ? 'última' : 'último')
    : (feminino ? ['primeira', 'segunda', 'terceira', 'quarta'] : ['primeiro', 'segundo', 'terceiro', 'quarto'])[semana];
  return `Todo mês, ${feminino ? 'na' : 'no'} ${qual} ${DIAS[(dia + 6) % 7][1].toLowerCase()}`;
}

/** The most occurrences one series books (the server's `SerieDeReservas.maximoDeOcorrencias`). */
export const MAXIMO_DE_OCORRENCIAS = 26;

/** What an invoice or a revenue line is of: a space type, `plano` (a subscription's cycle) or `pacote` (a bundle of credits). */
export const TIPOS_DE_RECEITA = { ...TIPOS, plano: 'Planos (assinaturas)', pacote: 'Pacotes de créditos' };

/** A payment's status as the member reads it. */
export const PAGAMENTO_STATUS = {
  aguardando_cobranca: 'Gerando a cobrança',
  pendente: 'Aguardando pagamento',
  confirmado: 'Pago',
  recusado: 'Recusado',
  cancelado: 'Cancelado',
};

export const CHECKIN_STATUS = {
  aguardando: 'Aguardando sua chegada',
  presente: 'Check-in feito',
  encerrado: 'Checkout feito',
  noShow: 'Não compareceu',
  revogado: 'Check-in cancelado',
};

export const NOTIFICACAO_TIPOS = {
  boas_vindas: 'Boas-vindas',
  reserva_confirmada: 'Reserva confirmada',
  pagamento_recebido: 'Pagamento recebido',
  lembrete: 'Lembrete',
  remarcacao: 'Reserva remarcada',
  cancelamento: 'Cancelamento',
  reembolso: 'Reembolso',
  no_show: 'Ausência',
  expiracao: 'Prazo expirado',
  visita: 'Visitante',
  correspondencia: 'Correspondência',
  chamado: 'Chamado',
  encontro: 'Evento',
};

export const FATURA_STATUS = {
  emitida: 'Emitida',
  paga: 'Paga',
  parcialmente_reembolsada: 'Parcialmente reembolsada',
  reembolsada: 'Reembolsada',
};

export const CONTAS = {
  caixa: 'Caixa',
  receita_de_servicos: 'Receita de serviços',
  iss_a_recolher: 'ISS a recolher',
  reembolsos: 'Reembolsos (deduções da receita)',
};

// ---- credits ------------------------------------------------------------------------------------------

/** A line of the credits' statement, by its `tipo`. */
export const MOVIMENTOS_DE_CREDITO = {
  concedidos: 'Créditos concedidos',
  consumidos: 'Usados na reserva',
  restituidos: 'Devolvidos',
  retidos: 'Retidos pela política de cancelamento',
  expirados: 'Expirados',
  ajustados: 'Ajuste da operação',
};

/** Where a lot of credits came from. */
export const ORIGENS_DE_CREDITO = { plano: 'Plano', pacote: 'Pacote de créditos', ajuste: 'Ajuste da operação' };

/** A purchase of a bundle, by its status; `expirada` is a pending one whose PIX or boleto can no longer be paid. */
export const COMPRA_STATUS = { pendente: 'Aguardando pagamento', paga: 'Paga', recusada: 'Recusada', expirada: 'Expirada', reembolsada: 'Reembolsada' };

/** The badge kind (ui.badge) of each COMPRA_STATUS key. */
export const COMPRA_STATUS_KIND = { pendente: 'aviso', paga: 'sucesso', recusada: 'erro', expirada: 'neutro', reembolsada: 'neutro' };

// ---- the reception's day board ---------------------------------------------------------------------

/** Where a booking stands for the reception: its key (a CSS modifier too) and its words. */
export const PRESENCA = {
  aguardando: 'Aguardando',
  presente: 'Presente',
  saiu: 'Saiu',
  ausente: 'Ausente',
  pendente: 'Aguardando pagamento',
  concluida: 'Concluída',
  cancelada: 'Cancelada',
  recusada: 'Recusada',
  expirada: 'Expirada',
};

/** The badge kind (ui.badge) of each PRESENCA key. */
export const PRESENCA_KIND = {
  aguardando: 'info', presente: 'sucesso', saiu: 'neutro', ausente: 'erro', pendente: 'aviso',
  concluida: 'neutro', cancelada: 'neutro', recusada: 'neutro', expirada: 'neutro',
};

/** A booking's PRESENCA key: check-in, checkout and no-show first, then its status. */
export function presenca(r) {
  if (r.status === 'cancelada') return recusaDoPagamento(r) !== null ? 'recusada' : 'cancelada';
  if (r.status === 'expirada') return 'expirada';
  if (r.status === 'solicitada') return 'pendente';
  if (r.checkoutEm) return 'saiu';
  if (r.checkinEm) return 'presente';
  if (r.naoCompareceuEm) return 'ausente';
  return r.status === 'concluida' ? 'concluida' : 'aguardando';
}

// ---- visitors ----------------------------------------------------------------------------------------

/** Where a visit stands (the host's list and the reception's), in words. */
export const VISITA_SITUACAO = { esperada: 'Esperado', presente: 'Chegou', saiu: 'Saiu', cancelada: 'Cancelado' };

/** The badge kind (ui.badge) of each VISITA_SITUACAO key. */
export const VISITA_KIND = { esperada: 'info', presente: 'sucesso', saiu: 'neutro', cancelada: 'neutro' };

/** A visit registered by someone other than its host: the front desk, for a visitor who came unannounced. */
export function visitaSemAviso(v) {
  return Boolean(v.registradaPor) && String(v.registradaPor).toLowerCase() !== String(v.usuarioId).toLowerCase();
}

// ---- mail and parcels held at the front desk ---------------------------------------------------------

/** What arrived for a member (an encomenda's `tipo`). */
export const ENCOMENDA_TIPOS = { carta: 'Carta', pacote: 'Pacote', outro: 'Outro' };

/** Where a letter or parcel stands (an encomenda's `situacao`), in words. */
export const ENCOMENDA_SITUACAO = { aguardando: 'Aguardando retirada', retirada: 'Retirada', cancelada: 'Cancelada' };

/** The badge kind (ui.badge) of each ENCOMENDA_SITUACAO key. */
export const ENCOMENDA_KIND = { aguardando: 'info', retirada: 'sucesso', cancelada: 'neutro' };

// ---- the help desk: a problem a member reports at a unit ("chamado") --------------------------------

/** What a request is about (a chamado's `categoria`), in the order the form offers them. */
export const CHAMADO_CATEGORIAS = {
  internet: 'Internet e rede',
  limpeza: 'Limpeza',
  manutencao: 'Manutenção',
  climatizacao: 'Ar-condicionado',
  impressao: 'Impressão',
  acesso: 'Acesso e chaves',
  outro: 'Outro',
};

/** [words, badge kind] of where a request stands for the member who opened it. */
export function situacaoDoChamado(c) {
  if (c.situacao === 'resolvido') return ['Resolvido', 'sucesso'];
  // The team answered: the member's turn (to reply, or to mark it resolved).
  if (c.aguardando === 'membro') return ['Respondido pela equipe', 'aviso'];
  return ['Aguardando a equipe', 'info'];
}

/** [words, badge kind] of whose turn it is, for the front desk: its own turn stands out. */
export function vezDoChamado(c) {
  if (c.situacao === 'resolvido') return ['Resolvido', 'sucesso'];
  if (c.aguardando === 'membro') return ['Aguardando o membro', 'neutro'];
  return ['Aguardando a equipe', 'aviso'];
}

// ---- community events ("encontro": a talk, a workshop, a happy hour at a unit) -------------------------
// (The event log's types of `encontro-…` streams, "Evento publicado" and the others, are named by
// the server's catalog, /api/admin/eventos, as every other type.)

/** Whether an event has begun (sign-ups, changes and cancelling closed then). */
export function encontroIniciado(e, now = Date.now()) {
  return Date.parse(e.inicio) <= now;
}

/** Whether every place of an event is taken. */
export function encontroLotado(e) {
  return (e.confirmados ?? 0) >= (e.vagas ?? 0);
}

/** [words, badge kind] of where an event stands: cancelled, over, under way, full, open. */
export function situacaoDoEncontro(e, now = Date.now()) {
  if (e.cancelado) return ['Cancelado', 'erro'];
  if (Date.parse(e.fim) <= now) return ['Encerrado', 'neutro'];
  if (encontroIniciado(e, now)) return ['Acontecendo agora', 'info'];
  if (encontroLotado(e)) return ['Lotado', 'aviso'];
  return ['Inscrições abertas', 'sucesso'];
}

/** "3 de 20 vagas ocupadas", or "Lotado — 2 na lista de espera" (the waiting list said when there is one). */
export function vagasDoEncontro(e) {
  const espera = e.naEspera ?? 0;
  if (encontroLotado(e)) return `Lotado — ${espera ? `${espera} na lista de espera` : 'ninguém na lista de espera'}`;
  const ocupadas = `${e.confirmados ?? 0} de ${e.vagas} ${e.vagas === 1 ? 'vaga ocupada' : 'vagas ocupadas'}`;
  return espera ? `${ocupadas} · ${espera} na lista de espera` : ocupadas;
}

// ---- tours: a prospect's guided visit of a unit ---------------------------------------------------------

/** Where a tour stands (its `situacao`), in words. */
export const TOUR_SITUACAO = { agendado: 'Agendado', realizado: 'Realizado', ausente: 'Não compareceu', cancelado: 'Cancelado' };

/** The badge kind (ui.badge) of each TOUR_SITUACAO key. */
export const TOUR_SITUACAO_KIND = { agendado: 'info', realizado: 'sucesso', ausente: 'erro', cancelado: 'neutro' };

/** What the prospect is looking for (a tour's `interesse`), in the order the form offers them. */
export const TOUR_INTERESSES = {
  posicao_flexivel: 'Posição flexível',
  posicao_fixa: 'Posição fixa',
  sala_privativa: 'Sala privativa',
  sala_de_reuniao: 'Sala de reunião',
  escritorio_virtual: 'Escritório virtual',
  outro: 'Outro',
};

/** Who booked a tour (its `origem`): the prospect on the site, or the team (a phone lead). */
export const TOUR_ORIGENS = { site: 'Pelo site', equipe: 'Pela equipe' };
