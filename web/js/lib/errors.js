// API errors in words a member understands. The API answers {erro, mensagem, detalhes,
// requestId}; `erro` is a stable code (the list below is every code the gateway and the services
// produce today). Codes whose `mensagem` already says exactly what to fix (validation) show it;
// unknown codes fall back to `mensagem`.

import { money } from './format.js';

const friendly = {
  // contas e sessão
  credenciais_invalidas: 'E-mail ou senha incorretos. Confira e tente de novo.',
  conta_bloqueada: 'Por segurança, o acesso a esta conta foi pausado depois de várias tentativas. Aguarde alguns minutos e tente de novo.',
  email_em_uso: 'Já existe uma conta com este e-mail. Entre com ela ou use outro endereço.',
  ja_registrado: 'Já existe uma conta com este e-mail. Entre com ela ou use outro endereço.',
  senha_incorreta: 'A senha atual não confere.',
  nao_autenticado: 'Sua sessão terminou. Entre de novo para continuar.',
  token_invalido: 'Sua sessão expirou. Entre de novo para continuar.',
  proibido: 'Você não tem permissão para fazer isso.',
  ja_eh_admin: 'Esta pessoa já é administradora.',
  ja_desativado: 'Isto já está desativado.',
  ja_ativo: 'Isto já está ativo.',

  // reservas
  horario_indisponivel: 'Esse horário acabou de ser reservado por outra pessoa. Escolha outro horário.',
  ja_iniciada: 'Esta reserva já começou: não pode mais ser cancelada nem mudar de horário.',
  reserva_ja_existe: 'Esta reserva já foi registrada.',
  ainda_nao_expirou: 'O prazo de pagamento desta reserva ainda não venceu.',
  ainda_nao_terminou: 'Esta reserva ainda não terminou.',

  // mudar o horário de uma reserva (reserva_nao_confirmada e checkin_realizado também respondem a
  // um check-in e a um cancelamento: a `mensagem` do servidor diz o caso)
  remarcacao_fora_do_prazo: 'O prazo para mudar o horário desta reserva sem custo já passou: é o mesmo do cancelamento sem multa. Para mudar agora, fale com a recepção da unidade.',
  nada_a_remarcar: 'Nenhuma reserva da série a partir desta pode mudar: as próximas foram canceladas, já começaram ou já estão neste horário.',
  remarcacao_mais_cara: 'O novo horário custa mais que o atual pela tabela de preços, e o valor da reserva não muda. Escolha um horário de mesmo preço, ou cancele esta reserva e reserve o novo horário.',

  // pagamentos e check-in
  pagamento_ja_iniciado: 'O pagamento desta reserva já foi iniciado.',
  transicao_invalida: 'Este pagamento já foi concluído ou cancelado e não pode mais mudar.',
  cobranca_indisponivel: 'Esta cobrança já foi paga, recusada ou cancelada.',
  checkin_nao_liberado: 'O check-in fica disponível quando o pagamento da reserva é confirmado.',
  codigo_invalido: 'O código de check-in não confere. Confira as letras e os números e tente de novo.',
  checkin_ja_realizado: 'O check-in desta reserva já foi feito.',
  checkin_nao_realizado: 'Faça o check-in antes do checkout.',
  checkout_ja_realizado: 'O checkout desta reserva já foi feito.',
  checkin_revogado: 'Esta reserva foi cancelada, e o código de check-in não vale mais.',

  // visitantes
  visita_ja_registrada: 'Este visitante já foi registrado.',
  visita_cancelada: 'Esta visita foi cancelada pelo anfitrião.',
  visitante_ja_chegou: 'A chegada deste visitante já foi registrada.',
  visitante_ja_saiu: 'A saída deste visitante já foi registrada.',
  visitante_nao_chegou: 'Registre a chegada do visitante antes da saída.',

  // correspondência na recepção
  encomenda_ja_registrada: 'Esta correspondência já foi registrada.',
  encomenda_retirada: 'Esta correspondência já foi entregue ao membro.',
  encomenda_cancelada: 'O registro desta correspondência foi cancelado.',

  // chamados (ajuda na unidade)
  chamados_abertos_demais: 'Você já tem 10 chamados abertos. Marque como resolvidos os que já foram atendidos antes de abrir outro.',
  chamado_resolvido: 'Este chamado já foi resolvido e não recebe mais respostas da equipe. Se o membro responder, ele é reaberto.',
  chamado_mensagens_demais: 'Este chamado chegou ao limite de 100 mensagens. Para continuar a conversa, abra um novo chamado.',

  // eventos da comunidade
  encontro_cancelado: 'Este evento foi cancelado pela equipe: as inscrições se encerraram.',
  encontro_iniciado: 'Este evento já começou: as inscrições, os cancelamentos de inscrição e as mudanças se encerraram.',
  encontro_lotado: 'Este evento está lotado, e a lista de espera também. Não há como se inscrever agora.',
  encontro_ja_publicado: 'Este evento já foi publicado.',
  inscricoes_demais: 'Você já se inscreveu três vezes neste evento e não pode se inscrever de novo.',

  // tours (visitas guiadas de quem ainda não é membro)
  horario_de_tour_lotado: 'Esse horário acabou de ser preenchido por outra pessoa. Escolha outro horário.',
  tour_iniciado: 'O horário deste tour já começou: não dá mais para cancelá-lo.',
  tour_concluido: 'Este tour já foi concluído (realizado ou registrado como ausência) e não muda mais.',
  tour_cancelado: 'Este tour foi cancelado.',
  tour_cedo_demais: 'Ainda é cedo: “Realizado” vale a partir de 1 hora antes do início do tour, e “Não compareceu” a partir do início.',

  // espaços, preços, cupons
  unidade_ja_cadastrada: 'Esta unidade já está cadastrada.',
  espaco_ja_cadastrado: 'Este espaço já está cadastrado.',
  bloqueio_sobreposto: 'Já existe um bloqueio nesse intervalo.',
  tabela_inexistente: 'Defina os valores da tabela de preços antes de adicionar regras.',
  regra_duplicada: 'Essa regra já está na tabela.',
  cupom_ja_existe: 'Já existe um cupom com este código.',

  // pacotes de créditos
  pacote_arquivado: 'Este pacote saiu de venda. Escolha outro pacote.',

  // mecânica
  conflito_de_versao: 'Outra pessoa alterou isto ao mesmo tempo. Tente de novo.',
  requisicao_em_andamento: 'Seu pedido anterior ainda está sendo processado. Aguarde um instante.',
  chave_de_idempotencia_reutilizada: 'Este pedido já foi enviado com outros dados. Recarregue a página e tente de novo.',
  corpo_grande_demais: 'Os dados enviados são grandes demais.',
  rota_nao_encontrada: 'Este recurso ainda não está disponível.',
  indisponivel: 'O serviço está temporariamente indisponível. Tente de novo em instantes.',
  erro_interno: 'Algo deu errado do nosso lado. Tente de novo em instantes.',
  rede: 'Não foi possível falar com o servidor. Verifique sua conexão e tente de novo.',
};

/** Codes whose own `mensagem` names the field and the fix. */
const useServerMessage = new Set([
  'dados_invalidos', 'requisicao_invalida', 'estado_invalido', 'nao_encontrado',
  // they say when the check-in window opens or closed, in the unit's time
  'checkin_cedo_demais', 'checkin_encerrado',
  // it says from when the front desk may record the visitor's arrival, in the unit's time
  'visita_cedo_demais',
  // it says how many visitors the member registered in the last 24 hours
  'visitas_demais',
  // it says how many people already have a place (an event cannot offer fewer)
  'vagas_abaixo_dos_inscritos',
]);

function sentence(text) {
  const t = String(text ?? '').trim();
  if (!t) return '';
  const first = t.charAt(0).toLocaleUpperCase('pt-BR') + t.slice(1);
  return /[.!?…]$/.test(first) ? first : `${first}.`;
}

/**
 * Whether sending the same request again may succeed: no answer (the network), a 5xx (503
 * included) or a 429. A 4xx says what is wrong with the request itself, and the same request
 * gets the same answer, so it gets no "Tentar de novo".
 */
export function retryHelps(error) {
  if (!error || error.code === undefined || error.name === 'AbortError') return false;
  return error.status === 0 || error.status === 408 || error.status === 429 || error.status >= 500;
}

/** The text to show for an ApiError (or any Error). */
export function describeError(error) {
  if (!error) return '';
  if (error.code === undefined) {
    // A bug in the app, not an answer of the API: say so plainly, and leave the details in the
    // console (where the browser tests look for errors).
    console.error(error);
    return 'Algo deu errado nesta página. Recarregue e tente de novo.';
  }
  if (error.code === 'muitas_requisicoes') {
    const seconds = error.retryAfter;
    return seconds
      ? `Muitas solicitações em pouco tempo. Aguarde ${seconds} segundo${seconds === 1 ? '' : 's'} e tente de novo.`
      : 'Muitas solicitações em pouco tempo. Aguarde um pouco e tente de novo.';
  }
  if (error.code === 'conta_bloqueada' && error.retryAfter) {
    const minutes = Math.max(1, Math.ceil(error.retryAfter / 60));
    return `Por segurança, o acesso a esta conta foi pausado depois de várias tentativas. Tente de novo em ${minutes} minuto${minutes === 1 ? '' : 's'}.`;
  }
  // One occurrence of a series that refused the move of the whole series: the server's message
  // names it (its number and date) before the reason.
  if (error.detalhes?.ocorrencia && error.message) return sentence(error.message);
  const { novo, atual } = error.detalhes ?? {};
  if (error.code === 'remarcacao_mais_cara' && /^\d+$/.test(String(novo)) && /^\d+$/.test(String(atual))) {
    // The two prices the server compared: the table's for each time, before discounts.
    return `O novo horário custa ${money(Number(novo))} pela tabela de preços, mais que os ${money(Number(atual))} do atual, e o valor da reserva não muda. Escolha um horário de mesmo preço, ou cancele esta reserva e reserve o novo horário.`;
  }
  if (error.code === 'limite_do_mes' && /^\d{4}-\d{2}$/.test(String(error.detalhes?.mes ?? ''))) {
    // A move into another month, where the cap the member's company set leaves no room for it.
    const [ano, mes] = error.detalhes.mes.split('-').map(Number);
    const quando = new Intl.DateTimeFormat('pt-BR', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(ano, mes - 1, 1)));
    return `O limite mensal que a sua empresa definiu para você nos créditos dela não tem espaço em ${quando} para esta reserva. Escolha um horário no mesmo mês, ou cancele esta reserva e reserve o novo horário.`;
  }
  if (error.code === 'erro_interno' && error.requestId) {
    return `${friendly.erro_interno} Se continuar, informe à equipe o código ${error.requestId}.`;
  }
  if (useServerMessage.has(error.code) && error.message) return sentence(error.message);
  if (friendly[error.code]) return friendly[error.code];
  return sentence(error.message) || friendly.erro_interno;
}
