import Domain
import Foundation

/// Every domain failure as the error a client sees: the status, a stable code and a message
/// that says what to change. Only this edge of the services maps domain errors.
extension ServiceError {
    init(_ failure: Unidade.Failure) {
        switch failure {
        case .jaCadastrada: self = .conflito("unidade_ja_cadastrada", "a unidade já está cadastrada")
        case .naoEncontrada: self = .naoEncontrado("a unidade não existe")
        case .nomeInvalido:
            self = .invalido(
                "nome",
                "o nome deve ter de 1 a \(Unidade.tamanhoMaximoDoNome) caracteres (\(TextoLivre.maximoDeBytes(Unidade.tamanhoMaximoDoNome)) bytes em UTF-8), \(TextoLivre.foraDaFormaSelada)"
            )
        case .fusoInvalido(let fuso): self = .invalido("fusoHorario", "'\(fuso.prefix(60))' não é um fuso horário IANA (ex.: America/Sao_Paulo)")
        case .fusoImutavel(let atual):
            self = .invalido(
                "fusoHorario", "o fuso horário de uma unidade não muda depois do cadastro (é \(atual)): as agendas e as reservas dependem dele")
        case .politicaInvalida:
            self = .invalido(
                "politicaDeCancelamento",
                "horasSemMulta deve ser de 0 a \(Unidade.PoliticaDeCancelamento.horasMaximas); multaBP e devolucaoNoShowBP, de 0 a 10000 (pontos-base)"
            )
        case .enderecoInvalido("uf"): self = .invalido("endereco.uf", "endereco.uf deve ser a sigla de um estado brasileiro ou DF (ex.: SP)")
        case .enderecoInvalido(let campo):
            self = .invalido(
                "endereco.\(campo)",
                "o campo endereco.\(campo) está em branco, é inválido, começa com '\(TextoLivre.prefixoSelado)' ou passa do limite: \(TextoLivre.limite(Unidade.Endereco.tamanhoMaximo))"
            )
        case .operacaoInvalida:
            self = .invalido("operacao", "aliquotaISSBP deve ser de 0 a 10000 (pontos-base) e a janelaDeCheckin de 0 a 1440 minutos")
        }
    }

    init(_ failure: Pagamento.Failure) {
        switch failure {
        case .jaIniciado: self = .conflito("pagamento_ja_iniciado", "o pagamento desta reserva já foi iniciado")
        case .naoEncontrado: self = .naoEncontrado("o pagamento não existe")
        case .cobrancaDiferente: self = .naoEncontrado("cobrança desconhecida para este pagamento")
        case .valorDivergente(let esperado, let recebido):
            self = ServiceError(
                .invalido, codigo: "valor_divergente", mensagem: "o valor pago (\(recebido)) difere do cobrado (\(esperado))",
                detalhes: ["esperado": String(esperado.centavos), "recebido": String(recebido.centavos)])
        case .transicaoInvalida(let status): self = .conflito("transicao_invalida", "o pagamento está \(status.rawValue)")
        case .reembolsoExcedente(let disponivel):
            self = ServiceError(
                .invalido, codigo: "reembolso_excedente", mensagem: "o reembolso passa do valor disponível (\(disponivel))",
                detalhes: ["disponivel": String(disponivel.centavos)])
        case .reembolsoDesconhecido: self = .naoEncontrado("reembolso desconhecido")
        }
    }

    init(_ failure: Espaco.Failure) {
        switch failure {
        case .jaCadastrado: self = .conflito("espaco_ja_cadastrado", "o espaço já está cadastrado")
        case .naoEncontrado: self = .naoEncontrado("o espaço não existe")
        case .nomeInvalido:
            self = .invalido(
                "nome",
                "o nome deve ter de 1 a \(Espaco.tamanhoMaximoDoNome) caracteres (\(TextoLivre.maximoDeBytes(Espaco.tamanhoMaximoDoNome)) bytes em UTF-8), \(TextoLivre.foraDaFormaSelada)"
            )
        case .capacidadeInvalida: self = .invalido("capacidade", "a capacidade deve ser de 1 a \(Espaco.capacidadeMaxima)")
        case .regrasInvalidas:
            let maximo = Espaco.RegrasDeReserva.minutosMaximos
            self = .invalido(
                "regras",
                "duração mínima ≥ 1 min e máxima de mínima a \(maximo) min (um ano); antecedência mínima de 0 a \(maximo) min; "
                    + "antecedência máxima de 0 a \(Espaco.RegrasDeReserva.antecedenciaMaximaPermitidaDias) dias")
        case .horarioInvalido: self = .invalido("horario", "cada faixa deve ter 0 ≤ abre < fecha ≤ 1440 e não se sobrepor às outras do dia")
        case .bloqueioSobreposto: self = .conflito("bloqueio_sobreposto", "já existe um bloqueio neste intervalo")
        case .bloqueioEncerrado: self = .invalido("fim", "o bloqueio já terminou: 'fim' deve ser depois de agora")
        case .bloqueioNaoEncontrado: self = .naoEncontrado("o bloqueio não existe")
        case .locatarioInvalido:
            self = .invalido("locatario", "uma locação tem um locatário, 'usuarioId' ou 'empresaId' (um só); os outros motivos não têm")
        case .tipoNaoLocavel: self = .invalido("motivo", "só mesas fixas e salas privativas são locadas; para este espaço use outro motivo")
        case .fimInvalido:
            self = .invalido("fim", "o novo fim deve ficar entre o início e o fim atual do bloqueio; para estender, agende outro a partir do fim")
        case .locacaoIniciada:
            self = .conflito("locacao_iniciada", "a locação já começou: encerre-a antes do fim (PATCH com o novo 'fim') em vez de removê-la")
        case .jaDesativado: self = .conflito("ja_desativado", "o espaço já está desativado")
        case .jaAtivo: self = .conflito("ja_ativo", "o espaço já está ativo")
        case .comodidadeInvalida:
            self = .invalido(
                "comodidades",
                "até \(Espaco.maximoDeComodidades) comodidades, cada uma com de 1 a \(Espaco.tamanhoMaximoDaComodidade) caracteres "
                    + "(\(TextoLivre.maximoDeBytes(Espaco.tamanhoMaximoDaComodidade)) bytes em UTF-8), \(TextoLivre.foraDaFormaSelada)")
        case .fotoInvalida:
            self = .invalido(
                "fotos",
                "até \(Espaco.maximoDeFotos) fotos; a url de cada uma começa com http:// ou https:// e tem até \(Espaco.tamanhoMaximoDaUrl) "
                    + "caracteres, a legenda \(TextoLivre.limite(Espaco.tamanhoMaximoDaLegenda)); nenhuma \(TextoLivre.foraDaFormaSelada)")
        }
    }

    init(_ failure: TabelaDePreco.Failure) {
        switch failure {
        case .valoresInvalidos(let problema): self = .invalido("valores", problema)
        case .regraInvalida(let problema): self = .invalido("regra", problema)
        case .tabelaInexistente: self = .conflito("tabela_inexistente", "defina a tabela de preços do espaço antes das regras")
        case .regraDuplicada: self = .conflito("regra_duplicada", "a regra já está na tabela")
        case .regraNaoEncontrada: self = .naoEncontrado("a regra não existe")
        }
    }

    init(_ failure: Cupom.Failure) {
        switch failure {
        case .naoEncontrado: self = .invalido("cupom", "o cupom não existe")
        case .jaExiste: self = .conflito("cupom_ja_existe", "já existe um cupom com este código")
        case .desativado: self = .invalido("cupom", "o cupom está desativado")
        case .foraDaValidade: self = .invalido("cupom", "o cupom está fora da validade")
        case .esgotado: self = .invalido("cupom", "o cupom já atingiu o número máximo de usos")
        case .invalido(let problema): self = .invalido("cupom", problema)
        }
    }

    init(_ failure: Cotacao.Falha) {
        switch failure {
        case .duracaoMinima(let minutos): self = .invalido("fim", "a duração mínima deste espaço é de \(minutos) minutos")
        case .cupom(let cupom): self.init(cupom)
        }
    }

    init(_ failure: Reserva.Failure) {
        switch failure {
        case .jaExiste: self = .conflito("reserva_ja_existe", "a reserva já existe")
        case .naoEncontrada: self = .naoEncontrado("a reserva não existe")
        case .espacoInativo: self = .invalido("espacoId", "o espaço está desativado e não aceita reservas")
        case .fechado: self = .invalido("inicio", "o espaço está fechado (fora do horário ou bloqueado) em parte deste intervalo")
        case .noPassado: self = .invalido("inicio", "o início da reserva já passou")
        case .antecedenciaMinima(let minutos): self = .invalido("inicio", "reservas deste espaço precisam de \(minutos) minutos de antecedência")
        case .antecedenciaMaxima(let dias): self = .invalido("inicio", "reservas deste espaço podem ser feitas até \(dias) dias antes")
        case .duracaoCurta(let minutos): self = .invalido("fim", "a duração mínima deste espaço é de \(minutos) minutos")
        case .duracaoLonga(let minutos): self = .invalido("fim", "a duração máxima deste espaço é de \(minutos) minutos")
        case .transicaoInvalida(let status): self = .conflito("estado_invalido", "a reserva está \(status.rawValue) e não aceita esta operação")
        case .jaIniciada: self = .conflito("ja_iniciada", "a reserva já começou e não pode mais ser cancelada nem mudar de horário")
        case .aindaNaoExpirou: self = .conflito("ainda_nao_expirou", "o prazo de pagamento da reserva ainda não venceu")
        case .aindaNaoTerminou: self = .conflito("ainda_nao_terminou", "a reserva ainda não terminou")
        case .naoConfirmada:
            self = .conflito(
                "reserva_nao_confirmada",
                "só uma reserva confirmada (paga) muda de horário; esta ainda aguarda o pagamento: cancele-a (nada foi cobrado) e reserve o novo horário"
            )
        case .duracaoDiferente(let minutos):
            self = .invalido("fim", "o novo horário deve ter a mesma duração da reserva (\(minutos) minutos): o preço e os créditos são os dela")
        case .foraDoPrazoDeRemarcacao(let ate):
            self = ServiceError(
                .conflito, codigo: "remarcacao_fora_do_prazo",
                mensagem: "o prazo para mudar o horário desta reserva sem custo já passou (é o mesmo do cancelamento sem multa); fale com a recepção",
                detalhes: ["ate": ate.formatted(Date.ISO8601FormatStyle())])
        }
    }

    init(_ failure: Carteira.Failure) {
        switch failure {
        case .insuficiente(let medida, let disponivel):
            self = ServiceError(
                .conflito, codigo: "creditos_insuficientes",
                mensagem: "créditos insuficientes: há \(disponivel) \(medida == .minutos ? "minutos" : "centavos") utilizáveis",
                detalhes: ["disponivel": String(disponivel)])
        case .limiteDoMes(let medida, let disponivel):
            self = ServiceError(
                .conflito, codigo: "limite_do_mes",
                mensagem:
                    "o seu limite mensal nos créditos da empresa deixa só \(disponivel) \(medida == .minutos ? "minutos" : "centavos") este mês",
                detalhes: ["disponivel": String(disponivel)])
        case .quantidadeInvalida(let medida):
            self = .invalido("quantidade", "quantidade deve ser de 1 a \(Carteira.maximo(medida)) \(medida == .minutos ? "minutos" : "centavos")")
        case .validadeNoPassado: self = .invalido("validoAte", "validoAte já passou: créditos assim nunca poderiam ser usados")
        case .loteJaExiste: self = .conflito("lote_ja_existe", "já há um lote de créditos com este id, em outros termos")
        case .motivoObrigatorio: self = .invalido("motivo", "diga o motivo do ajuste (fica na trilha de auditoria)")
        case .descricaoInvalida: self = .invalido("descricao", "a descrição deve ter de 1 a 200 caracteres")
        }
    }
}

extension ServiceError {
    init(_ failure: Pacote.Failure) {
        switch failure {
        case .jaExiste: self = .conflito("pacote_ja_existe", "já há um pacote com este id")
        case .naoEncontrado: self = .naoEncontrado("o pacote não existe")
        case .nomeInvalido: self = .invalido("nome", "o nome do pacote deve ter de 1 a \(Pacote.tamanhoMaximoDoNome) caracteres")
        case .descricaoInvalida: self = .invalido("descricao", "a descrição deve ter até 500 caracteres")
        case .termoInvalido(let campo):
            let limite: String
            switch campo {
            case "validadeDias": limite = "de 1 a \(Pacote.Oferta.validadeMaxima) dias"
            case "precoCentavos": limite = "de 1 a \(Plano.Termos.maximoCentavos) centavos"
            default: limite = "de 1 a \(Carteira.maximo(.minutos)) minutos (ou \(Carteira.maximo(.centavos)) centavos)"
            }
            self = .invalido(campo, "\(campo) deve ser \(limite)")
        case .arquivado: self = .conflito("pacote_arquivado", "o pacote está arquivado: não está mais à venda")
        }
    }

    init(_ failure: CompraDePacote.Failure) {
        switch failure {
        case .naoEncontrada: self = .naoEncontrado("a compra não existe")
        case .jaExiste:
            self = .conflito("compra_ja_existe", "esta Idempotency-Key já foi usada para outra compra; use uma chave nova")
        case .cartaoObrigatorio: self = .invalido("cartaoToken", "para pagar com cartão, envie cartaoToken (o token do cartão no provedor)")
        case .cobrancaDesconhecida: self = .naoEncontrado("cobrança desconhecida para esta compra")
        case .naoPaga(let status):
            self = .conflito("compra_nao_paga", "só uma compra paga pode ser reembolsada; esta está \(status.rawValue)")
        case .valorDoReembolsoInvalido(let maximo):
            self = .invalido("valorCentavos", "valorCentavos deve ser de 0 a \(maximo.centavos) (o que foi pago)")
        case .motivoObrigatorio: self = .invalido("motivo", "informe o motivo do reembolso")
        case .nadaAReembolsar:
            self = .invalido("valorCentavos", "não há créditos restantes nem valor a devolver: informe valorCentavos para devolver algo")
        case .reembolsoDesconhecido: self = .naoEncontrado("reembolso desconhecido para esta compra")
        }
    }

    init(_ failure: Plano.Failure) {
        switch failure {
        case .jaExiste: self = .conflito("plano_ja_existe", "já há um plano com este id")
        case .naoEncontrado: self = .naoEncontrado("o plano não existe")
        case .nomeInvalido: self = .invalido("nome", "o nome do plano deve ter de 1 a \(Plano.tamanhoMaximoDoNome) caracteres")
        case .descricaoInvalida: self = .invalido("descricao", "a descrição deve ter até 500 caracteres")
        case .termoInvalido(let campo):
            let limite: String
            switch campo {
            case "rolloverBP", "descontoBP": limite = "de 0 a 10000 (pontos-base: 10000 = 100 %)"
            case "horasMinutos": limite = "de 0 a \(Carteira.maximo(.minutos)) minutos"
            default: limite = "de 0 a \(Plano.Termos.maximoCentavos) centavos"
            }
            self = .invalido(campo, "\(campo) deve ser \(limite)")
        case .versaoSobreposta(let ultima):
            self = ServiceError(
                .invalido, codigo: "versao_sobreposta",
                mensagem: "a nova versão deve valer a partir de uma data futura e depois de \(ultima.brasileira), quando vale a versão atual",
                detalhes: ["campo": "vigenteDesde", "ultimaVersaoDesde": ultima.description])
        case .arquivado: self = .conflito("plano_arquivado", "o plano está arquivado: não tem novas versões nem novas assinaturas")
        }
    }

    init(_ failure: Empresa.Failure) {
        switch failure {
        case .jaExiste: self = .conflito("empresa_ja_cadastrada", "já há uma empresa com este CNPJ")
        case .naoEncontrada: self = .naoEncontrado("a empresa não existe")
        case .campoInvalido(let campo):
            let mensagem =
                switch campo {
                case "razaoSocial", "nomeFantasia": "\(campo) deve ter de 1 a \(Empresa.tamanhoMaximoDoNome) caracteres"
                case "emailDeCobranca": "e-mail de cobrança inválido"
                default: "\(campo) inválido: obrigatório, até \(Unidade.Endereco.tamanhoMaximo) caracteres (uf: a sigla de um estado)"
                }
            self = .invalido(campo, mensagem)
        case .outroCNPJ: self = .invalido("cnpj", "o CNPJ não muda: outro CNPJ é outra empresa")
        case .conviteNaoEncontrado: self = .naoEncontrado("convite inválido, já usado ou revogado")
        case .conviteExpirado:
            self = ServiceError(.conflito, codigo: "convite_expirado", mensagem: "o convite expirou: peça um novo a um gestor da empresa")
        case .jaIntegrante: self = .conflito("ja_integrante", "você já faz parte desta empresa")
        case .naoIntegrante: self = .naoEncontrado("esta pessoa não faz parte da empresa")
        case .ultimoGestor:
            self = .conflito("ultimo_gestor", "a empresa precisa de ao menos um gestor: promova outra pessoa antes")
        case .limiteInvalido(let medida):
            let campo = medida == .minutos ? "minutosPorMes" : "centavosPorMes"
            self = .invalido(campo, "\(campo) deve ser de 0 a \(Carteira.maximo(medida)) (ausente: sem limite)")
        case .convitesDemais:
            self = .conflito("convites_demais", "há \(Empresa.convitesPendentesMaximos) convites pendentes: revogue alguns antes de convidar mais")
        }
    }

    init(_ failure: Vinculo.Failure) {
        switch failure {
        case .outraEmpresa:
            self = ServiceError(
                .conflito, codigo: "outra_empresa", mensagem: "esta pessoa já faz parte de outra empresa: ela precisa sair dela antes",
                detalhes: ["campo": "usuario"])
        }
    }

    init(_ failure: Assinatura.Failure) {
        switch failure {
        case .naoEncontrada: self = .naoEncontrado("não há assinatura")
        case .jaAssinante:
            self = .conflito("ja_assinante", "já há uma assinatura em vigor: troque de plano ou cancele a atual")
        case .planoArquivado:
            self = ServiceError(
                .invalido, codigo: "plano_arquivado", mensagem: "o plano está arquivado e não aceita novas assinaturas",
                detalhes: ["campo": "planoId"])
        case .inicioInvalido:
            self = .invalido("inicio", "inicio deve ser hoje ou até \(Assinatura.antecedenciaMaximaEmDias) dias adiante")
        case .cartaoObrigatorio: self = .invalido("cartaoToken", "com o método cartao, informe o token do cartão (cartaoToken)")
        case .assentosInvalidos:
            self = .invalido(
                "assentos", "assentos deve ser de 1 a \(Assinatura.assentosMaximos), sem que o valor ou os créditos do ciclo passem dos limites")
        case .encerrada: self = .conflito("assinatura_encerrada", "a assinatura está encerrada")
        case .statusInvalido(let status):
            let situacao: String
            switch status {
            case .agendada: situacao = "ainda não começou"
            case .ativa: situacao = "está ativa"
            case .pausada: situacao = "está pausada"
            case .suspensa: situacao = "está suspensa por falta de pagamento"
            case .encerrada: situacao = "está encerrada"
            }
            self = ServiceError(
                .conflito, codigo: "status_invalido", mensagem: "não é possível: a assinatura \(situacao)", detalhes: ["status": status.rawValue])
        case .nadaAgendado(let tipo): self = .conflito("nada_agendado", "não há \(Self.nome(tipo)) para desfazer")
        case .jaAgendado(let tipo):
            self = .conflito("ja_agendado", "já há \(Self.nome(tipo)) para o fim do ciclo: desfaça antes")
        case .mesmoPlano: self = .invalido("planoId", "este já é o plano da assinatura")
        case .cicloDesconhecido(let numero): self = .naoEncontrado("a assinatura não tem o ciclo \(numero)")
        case .cobrancaDesconhecida: self = .naoEncontrado("cobrança desconhecida para este ciclo")
        case .devolucaoDesconhecida: self = .naoEncontrado("reembolso desconhecido para esta assinatura")
        }
    }

    static func nome(_ tipo: Assinatura.TipoDeAlteracao) -> String {
        switch tipo {
        case .cancelamento: "cancelamento agendado"
        case .pausa: "pausa agendada"
        case .troca: "troca de plano agendada"
        }
    }
}
