import Domain
import Foundation
import Services

/// Schemas of the pagamentos, checkin, notificacoes, financeiro and analytics routes.
extension OpenAPI {
    /// A PIX charge's transaction id and copy-and-paste code.
    static var pix: [String: Any] {
        object(
            [
                "txid": ["type": "string", "pattern": "^[A-Za-z0-9]{26,35}$"],
                "copiaECola": ["type": "string", "description": "BR Code (EMV) para colar no app do banco"],
            ], required: ["txid", "copiaECola"])
    }

    /// A boleto's digitable line and due date.
    static var boleto: [String: Any] {
        object(
            ["linhaDigitavel": ["type": "string", "pattern": "^[0-9]{47}$"], "vencimento": instant], required: ["linhaDigitavel", "vencimento"])
    }

    static var negocioSchemas: [String: Any] {
        let metodo: [String: Any] = ["type": "string", "enum": MetodoDePagamento.allCases.map(\.rawValue)]
        return [
            "FormaDePagamento": object(
                [
                    "metodo": metodo.merging([
                        "description":
                            "`manual`: pago na recepção (dinheiro, maquininha), só quando um operador reserva; confirmada na hora, e um reembolso é devolvido na recepção (outro → 403)"
                    ]) { $1 },
                    "cartaoToken": textoLivre(
                        200, description: "token do cartão no provedor (sandbox: tok_sandbox_recusado e tok_sandbox_sem_saldo são recusados)"),
                ], required: ["metodo"]),
            "Pagamento": object(
                [
                    "id": uuid, "reservaId": uuid,
                    "status": ["type": "string", "enum": ["aguardando_cobranca", "pendente", "confirmado", "recusado", "cancelado"]],
                    "metodo": metodo, "valor": money, "cobrancaId": text, "pix": pix, "boleto": boleto, "expiraEm": instant, "confirmadoEm": instant,
                    "motivo": text,
                    "reembolsos": array(
                        object(["id": uuid, "valor": money, "concluido": ["type": "boolean"]], required: ["id", "valor", "concluido"])),
                    "reembolsado": money,
                ], required: ["id", "reservaId", "status", "valor", "reembolsos", "reembolsado"]),
            "AvisoDoProvedor": object(
                [
                    "id": text, "tipo": ["type": "string", "enum": ["cobranca.paga", "cobranca.recusada", "reembolso.concluido"]],
                    "cobrancaId": text, "referencia": ["type": "string", "description": "o id do pagamento"], "valor": money, "reembolsoId": uuid,
                    "motivo": text, "criadoEm": instant,
                ], required: ["id", "tipo", "cobrancaId", "referencia", "valor", "criadoEm"]),
            "RespostaDoWebhook": object(
                [
                    "recebido": ["type": "boolean"], "duplicado": ["type": "boolean"], "pagamentoId": uuid, "status": text,
                ], required: ["recebido", "duplicado", "pagamentoId", "status"]),
            "CobrancaSandbox": object(
                [
                    "cobrancaId": text, "referencia": text, "valor": money,
                    "metodo": ["type": "string", "enum": MetodoDePagamento.doProvedor.map(\.rawValue)],
                    "situacao": ["type": "string", "enum": ["pendente", "paga", "recusada", "cancelada"]], "pix": pix, "boleto": boleto,
                    "expiraEm": instant, "criadaEm": instant, "reembolsos": ["type": "object", "additionalProperties": money],
                ], required: ["cobrancaId", "referencia", "valor", "metodo", "situacao"]),
            "MotivoDeRecusa": object(["motivo": textoLivre(500)], required: []),
            "Notificacao": object(
                [
                    "id": uuid,
                    "tipo": ["type": "string", "enum": Notificacao.Tipo.allCases.map(\.rawValue)],
                    "titulo": text, "texto": text, "reservaId": uuid, "canal": text,
                    "status": [
                        "type": "string", "enum": ["enviada", "falhou"], "description": "o e-mail; a notificação fica na caixa de qualquer modo",
                    ],
                    "em": instant, "lida": ["type": "boolean", "description": "o membro já leu a caixa depois desta notificação chegar"],
                ], required: ["id", "tipo", "titulo", "texto", "status", "em", "lida"]),
            "PaginaDeNotificacoes": object(
                [
                    "itens": array(ref("Notificacao")), "total": ["type": "integer"], "pagina": ["type": "integer"],
                    "naoLidas": [
                        "type": "integer", "minimum": 0, "maximum": 100, "description": "notificações não lidas em toda a caixa (100: 100 ou mais)",
                    ],
                ], required: ["itens", "total", "pagina", "naoLidas"]),
            "Checkin": object(
                [
                    "id": uuid, "reservaId": uuid, "usuarioId": text, "espacoId": uuid, "unidadeId": uuid, "inicio": instant, "fim": instant,
                    "status": ["type": "string", "enum": ["aguardando", "presente", "encerrado", "noShow", "revogado"]],
                    "codigo": ["type": "string", "description": "6 caracteres; só enquanto aguardando"],
                    "qr": ["type": "string", "description": "coworkflow:checkin:<reservaId>:<codigo>"],
                    "janela": object(["abreEm": instant, "fechaEm": instant], required: ["abreEm", "fechaEm"]),
                    "liberadoEm": instant, "checkinEm": instant, "checkoutEm": instant, "atualizadoEm": instant,
                ], required: ["id", "reservaId", "status", "janela"]),
            "PedidoDeCheckin": object(
                [
                    "codigo": [
                        "type": "string", "description": "o código de 6 caracteres ou o conteúdo do QR",
                        "pattern": "^(coworkflow:checkin:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}:)?[A-HJ-NP-Z2-9]{6}$",
                    ],
                    "reservaId": uuid.merging(["description": "com o conteúdo do QR, a mesma reserva que ele nomeia (outra → 422)"]) { $1 },
                ], required: ["codigo"]),
            "VisitaNova": object(
                [
                    "unidadeId": uuid.merging(["description": "a unidade onde o visitante é esperado"]) { $1 },
                    "chegadaPrevista": instant.merging(
                        ["description": "de uma hora atrás até \(Int(Visita.antecedenciaMaxima / 86_400)) dias à frente"]) { $1 },
                    "nome": textoLivre(CheckinService.tamanhoMaximoDoNomeDoVisitante, description: "o nome do visitante (2 caracteres ou mais)"),
                    "email": ["type": "string", "format": "email", "description": "opcional: o visitante recebe o convite por e-mail"],
                    "paraUsuarioId": text.merging(
                        ["description": "só a recepção (admin): o membro que o visitante veio ver, para quem chegou sem aviso (outro → 403)"]) { $1 },
                ], required: ["unidadeId", "chegadaPrevista", "nome"]),
            "Visita": object(
                [
                    "id": uuid, "usuarioId": text.merging(["description": "o anfitrião"]) { $1 }, "unidadeId": uuid,
                    "dia": ["type": "string", "format": "date", "description": "o dia local da chegada prevista, na unidade"],
                    "chegadaPrevista": instant, "situacao": ["type": "string", "enum": Visita.Situacao.allCases.map(\.rawValue)],
                    "nome": text.merging(["description": "ausente depois de apagado (cancelamento ou fim da guarda)"]) { $1 },
                    "email": text, "registradaEm": instant,
                    "registradaPor": text.merging(["description": "o anfitrião, ou o admin da recepção que registrou quem chegou sem aviso"]) { $1 },
                    "chegouEm": instant, "saiuEm": instant, "canceladaEm": instant,
                    "recebidaPor": text, "dadosApagados": ["type": "boolean"],
                ], required: ["id", "usuarioId", "unidadeId", "dia", "chegadaPrevista", "situacao", "registradaEm", "registradaPor", "dadosApagados"]),
            "MinhasVisitas": object(
                ["proximas": array(ref("Visita")), "anteriores": array(ref("Visita"))], required: ["proximas", "anteriores"]),
            "VisitasDoDia": object(
                ["unidadeId": uuid, "data": ["type": "string", "format": "date"], "itens": array(ref("Visita"))],
                required: ["unidadeId", "data", "itens"]),
            "ChamadoNovo": object(
                [
                    "unidadeId": uuid.merging(["description": "a unidade onde está o problema"]) { $1 },
                    "categoria": ["type": "string", "enum": Chamado.Categoria.allCases.map(\.rawValue)],
                    "assunto": textoLivre(Chamado.tamanhoMaximoDoAssunto, obrigatorio: true),
                    "descricao": textoLivre(Chamado.tamanhoMaximoDaMensagem, obrigatorio: true),
                ], required: ["unidadeId", "categoria", "assunto", "descricao"]),
            "MensagemDeChamado": object(["texto": textoLivre(Chamado.tamanhoMaximoDaMensagem, obrigatorio: true)], required: ["texto"]),
            "Chamado": object(
                [
                    "id": uuid, "usuarioId": text.merging(["description": "quem o abriu"]) { $1 },
                    "autor": text.merging(["description": "o nome de quem o abriu (ausente se a conta foi apagada)"]) { $1 }, "unidadeId": uuid,
                    "categoria": ["type": "string", "enum": Chamado.Categoria.allCases.map(\.rawValue)], "assunto": text, "descricao": text,
                    "situacao": ["type": "string", "enum": Chamado.Situacao.allCases.map(\.rawValue)],
                    "aguardando": [
                        "type": "string", "enum": ["equipe", "membro"],
                        "description":
                            "quem deve agir: a equipe (o membro escreveu por último) ou o membro (a equipe respondeu); ausente se resolvido",
                    ],
                    "abertoEm": instant, "atualizadoEm": instant, "resolvidoEm": instant,
                    "resolvidoPor": text.merging(["description": "quem o marcou como resolvido"]) { $1 },
                    "mensagens": array(
                        object(
                            [
                                "texto": text, "por": text.merging(["description": "quem escreveu"]) { $1 }, "daEquipe": ["type": "boolean"],
                                "em": instant,
                            ], required: ["por", "daEquipe", "em"])),
                ], required: ["id", "usuarioId", "unidadeId", "categoria", "situacao", "abertoEm", "atualizadoEm", "mensagens"]),
            "MeusChamados": object(
                ["abertos": array(ref("Chamado")), "resolvidos": array(ref("Chamado"))], required: ["abertos", "resolvidos"]),
            "ChamadosDaUnidade": object(["unidadeId": uuid, "itens": array(ref("Chamado"))], required: ["unidadeId", "itens"]),
            "EncontroNovo": object(
                [
                    "unidadeId": uuid.merging(["description": "a unidade onde o evento acontece"]) { $1 },
                    "titulo": textoLivre(Encontro.tamanhoMaximoDoTitulo, obrigatorio: true),
                    "descricao": textoLivre(Encontro.tamanhoMaximoDaDescricao),
                    "local": textoLivre(Encontro.tamanhoMaximoDoLocal, description: "onde, na unidade (ex.: Auditório, 2º andar)"),
                    "inicio": instant.merging(["description": "no futuro"]) { $1 },
                    "fim": instant.merging(["description": "depois do início, até \(Int(Encontro.duracaoMaxima / 3_600)) horas depois"]) { $1 },
                    "vagas": ["type": "integer", "minimum": 1, "maximum": Encontro.vagasMaximas],
                ], required: ["unidadeId", "titulo", "inicio", "fim", "vagas"]),
            "AlteracaoDeEncontro": object(
                [
                    "titulo": textoLivre(Encontro.tamanhoMaximoDoTitulo, obrigatorio: true),
                    "descricao": textoLivre(Encontro.tamanhoMaximoDaDescricao, description: "em branco: sem descrição"),
                    "local": textoLivre(Encontro.tamanhoMaximoDoLocal, description: "em branco: sem local"),
                    "vagas": [
                        "type": "integer", "minimum": 1, "maximum": Encontro.vagasMaximas,
                        "description": "não menos que as pessoas com vaga (409); mais vagas vão para a lista de espera, em ordem",
                    ],
                ], required: []),
            "CancelamentoDeEncontro": object(["motivo": textoLivre(500, description: "opcional: dito a quem se inscreveu")], required: []),
            "Encontro": object(
                [
                    "id": uuid, "unidadeId": uuid, "titulo": text, "descricao": text, "local": text, "inicio": instant, "fim": instant,
                    "vagas": ["type": "integer"], "confirmados": ["type": "integer", "description": "quantos têm vaga"],
                    "naEspera": ["type": "integer", "description": "quantos estão na lista de espera"], "cancelado": ["type": "boolean"],
                    "motivoDoCancelamento": text, "publicadoEm": instant,
                    "inscritos": array(ref("PessoaNoEncontro")).merging(["description": "só para a equipe: quem tem vaga, em ordem"]) { $1 },
                    "espera": array(ref("PessoaNoEncontro")).merging(["description": "só para a equipe: a lista de espera, em ordem"]) { $1 },
                    "minhaInscricao": [
                        "type": "string", "enum": Encontro.Situacao.allCases.map(\.rawValue),
                        "description": "a inscrição de quem pergunta: com vaga (confirmada) ou na lista de espera; ausente sem inscrição",
                    ],
                    "posicaoNaEspera": ["type": "integer", "description": "1: o próximo a ganhar uma vaga"],
                ],
                required: ["id", "unidadeId", "titulo", "inicio", "fim", "vagas", "confirmados", "naEspera", "cancelado", "publicadoEm"]),
            "PessoaNoEncontro": object(
                ["usuarioId": text, "nome": text.merging(["description": "ausente se a conta foi apagada"]) { $1 }, "em": instant],
                required: ["usuarioId", "em"]),
            "PaginaDeEncontros": page("Encontro"),
            "TourNovo": object(
                [
                    "unidadeId": uuid.merging(["description": "a unidade a conhecer (uma que agenda tours)"]) { $1 },
                    "inicio": instant.merging([
                        "description":
                            "um dos horários de GET /api/tours/horarios (da equipe: GET /api/admin/tours/horarios); pelo site, com \(Int(Tour.antecedenciaMinima / 60)) minutos de antecedência ou mais, até \(Int(Tour.antecedenciaMaxima / 86_400)) dias"
                    ]) { $1 },
                    "nome": textoLivre(Tour.tamanhoMaximoDoNome, obrigatorio: true, description: "o nome de quem vem (2 caracteres ou mais)")
                        .merging(["minLength": 2]) { $1 },
                    "email": enderecoDeEmail.merging(["description": "a confirmação, com o link para cancelar, vai para ele"]) { $1 },
                    "telefone": [
                        "type": "string", "maxLength": Tour.tamanhoMaximoDoTelefone, "pattern": "^[0-9 +().-]*$",
                        "description": "opcional: de 8 a 15 dígitos, com espaços, +, parênteses, pontos ou hífens",
                    ],
                    "empresa": textoLivre(Tour.tamanhoMaximoDaEmpresa, description: "opcional"),
                    "interesse": ["type": "string", "enum": Tour.Interesse.allCases.map(\.rawValue)],
                    "pessoas": ["type": "integer", "minimum": 1, "maximum": Tour.pessoasMaximas, "description": "quantas pessoas vêm (padrão 1)"],
                    "mensagem": textoLivre(Tour.tamanhoMaximoDaMensagem, description: "opcional: o que procura"),
                ], required: ["unidadeId", "inicio", "nome", "email"]),
            "TourPublico": object(
                [
                    "id": uuid.merging(["description": "o código do link de quem agendou: guarde-o para cancelar"]) { $1 }, "unidadeId": uuid,
                    "unidade": text, "endereco": text, "fuso": text, "inicio": instant, "fim": instant,
                    "situacao": ["type": "string", "enum": Tour.Situacao.allCases.map(\.rawValue)],
                    "nome": text.merging(["description": "ausente depois de apagado"]) { $1 },
                    "canceladoPorEquipe": ["type": "boolean"],
                ], required: ["id", "unidadeId", "unidade", "fuso", "inicio", "fim", "situacao", "canceladoPorEquipe"]),
            "Tour": object(
                [
                    "id": uuid, "unidadeId": uuid, "dia": ["type": "string", "format": "date", "description": "o dia local do tour, na unidade"],
                    "inicio": instant, "fim": instant, "situacao": ["type": "string", "enum": Tour.Situacao.allCases.map(\.rawValue)],
                    "origem": ["type": "string", "enum": Tour.Origem.allCases.map(\.rawValue)],
                    "nome": text.merging(["description": "ausente depois de apagado (cancelamento ou fim da guarda)"]) { $1 }, "email": text,
                    "telefone": text, "empresa": text, "interesse": ["type": "string", "enum": Tour.Interesse.allCases.map(\.rawValue)],
                    "pessoas": ["type": "integer"], "mensagem": text, "agendadoEm": instant,
                    "agendadoPor": text.merging(["description": "o admin que agendou (um contato por telefone); ausente se pelo site"]) { $1 },
                    "nota": text, "concluidoEm": instant, "concluidoPor": text, "canceladoEm": instant,
                    "canceladoPor": text.merging(["description": "visitante (quem agendou) ou o admin que cancelou"]) { $1 },
                    "motivo": text, "dadosApagados": ["type": "boolean"],
                ], required: ["id", "unidadeId", "dia", "inicio", "fim", "situacao", "origem", "pessoas", "agendadoEm", "dadosApagados"]),
            "ToursDoDia": object(
                [
                    "unidadeId": uuid, "data": ["type": "string", "format": "date"], "itens": array(ref("Tour")), "total": ["type": "integer"],
                    "pagina": ["type": "integer"],
                ], required: ["unidadeId", "data", "itens", "total", "pagina"]),
            "HorariosDeTour": object(
                [
                    "unidadeId": uuid, "data": ["type": "string", "format": "date"], "fuso": text, "ativo": ["type": "boolean"],
                    "duracaoMinutos": ["type": "integer"],
                    "horarios": array(
                        object(
                            ["inicio": instant, "fim": instant, "vagas": ["type": "integer"], "livre": ["type": "boolean"]],
                            required: ["inicio", "fim", "vagas", "livre"])),
                ], required: ["unidadeId", "data", "fuso", "ativo", "duracaoMinutos", "horarios"]),
            "ConclusaoDeTour": object(
                ["nota": textoLivre(Tour.tamanhoMaximoDaNota, description: "opcional: como foi, o que a pessoa procura")], required: []),
            "CancelamentoDeTour": object(
                ["motivo": textoLivre(Tour.tamanhoMaximoDoMotivo, description: "opcional: dito a quem agendou")], required: []),
            "ConfiguracaoDeTours": object(
                [
                    "unidadeId": uuid, "ativo": ["type": "boolean"], "duracaoMinutos": ["type": "integer"], "simultaneos": ["type": "integer"],
                    "horario": ref("HorarioSemanal"), "emailDaEquipe": text.merging(["description": "ausente: ninguém é avisado"]) { $1 },
                ], required: ["unidadeId", "ativo", "duracaoMinutos", "simultaneos", "horario"]),
            "ConfiguracaoDeToursNova": object(
                [
                    "ativo": ["type": "boolean", "description": "false: a unidade não agenda tours (os já agendados ficam)"],
                    "duracaoMinutos": [
                        "type": "integer", "minimum": ConfiguracaoDeTours.Configuracao.duracoes.lowerBound,
                        "maximum": ConfiguracaoDeTours.Configuracao.duracoes.upperBound, "multipleOf": 15,
                    ],
                    "simultaneos": [
                        "type": "integer", "minimum": 1, "maximum": ConfiguracaoDeTours.Configuracao.simultaneosMaximos,
                        "description": "quantos tours a unidade recebe ao mesmo tempo",
                    ],
                    "horario": ref("HorarioSemanal").merging(["description": "quando os tours começam, no fuso da unidade"]) { $1 },
                    "emailDaEquipe": enderecoDeEmail.merging([
                        "description":
                            "opcional: a caixa da equipe (a recepção), avisada de cada tour agendado pelo site e de cada um que o interessado cancela"
                    ]) { $1 },
                ], required: ["ativo", "duracaoMinutos", "simultaneos", "horario"]),
            "EncomendaNova": object(
                [
                    "unidadeId": uuid.merging(["description": "a unidade em cuja recepção a correspondência chegou"]) { $1 },
                    "usuarioId": uuid.merging(["description": "o membro destinatário (uma conta ativa)"]) { $1 },
                    "tipo": ["type": "string", "enum": Encomenda.Tipo.allCases.map(\.rawValue)],
                    "remetente": textoLivre(Encomenda.tamanhoMaximoDoRemetente, description: "opcional: quem enviou (ex.: Correios, Amazon)"),
                    "observacao": textoLivre(
                        Encomenda.tamanhoMaximoDaObservacao, description: "opcional: nota da recepção (ex.: onde está guardada); o membro a vê"),
                ], required: ["unidadeId", "usuarioId", "tipo"]),
            "Encomenda": object(
                [
                    "id": uuid, "usuarioId": text.merging(["description": "o destinatário"]) { $1 }, "unidadeId": uuid,
                    "tipo": ["type": "string", "enum": Encomenda.Tipo.allCases.map(\.rawValue)], "remetente": text, "observacao": text,
                    "situacao": ["type": "string", "enum": Encomenda.Situacao.allCases.map(\.rawValue)], "registradaEm": instant,
                    "registradaPor": text.merging(["description": "o admin da recepção que a registrou"]) { $1 }, "retiradaEm": instant,
                    "entreguePor": text.merging(["description": "o admin da recepção que a entregou"]) { $1 }, "canceladaEm": instant,
                ], required: ["id", "usuarioId", "unidadeId", "tipo", "situacao", "registradaEm", "registradaPor"]),
            "MinhasEncomendas": object(
                ["aguardando": array(ref("Encomenda")), "anteriores": array(ref("Encomenda"))], required: ["aguardando", "anteriores"]),
            "EncomendasDaUnidade": object(["unidadeId": uuid, "itens": array(ref("Encomenda"))], required: ["unidadeId", "itens"]),
            "Fatura": object(
                [
                    "id": uuid, "numero": ["type": "integer", "description": "sequencial sem lacunas por unidade"], "codigo": text, "unidadeId": uuid,
                    "reservaId": uuid.merging(["description": "a reserva faturada (ausente na fatura de uma assinatura)"]) { $1 },
                    "pagamentoId": uuid, "usuarioId": text, "espacoId": uuid,
                    "tipoDeEspaco": [
                        "type": "string",
                        "description":
                            "o tipo do espaço reservado, `plano` na fatura de um ciclo de assinatura, `pacote` na de um pacote de créditos",
                    ],
                    "metodo": [
                        "type": "string", "enum": ["pix", "cartao", "boleto", "manual"],
                        "description":
                            "`manual`: registrado por um operador, pago na recepção (dinheiro, maquininha) ou por transferência: uma reserva, ou o pagamento de um ciclo",
                    ],
                    "assinatura": object(
                        [
                            "assinaturaId": uuid, "ciclo": ["type": "integer", "minimum": 1],
                            "plano": object(
                                ["planoId": uuid, "nome": text, "versao": ["type": "integer"]], required: ["planoId", "nome", "versao"]),
                            "inicio": date, "fim": date.merging(["description": "o primeiro dia depois do ciclo"]) { $1 },
                            "itens": array(object(["codigo": text, "descricao": text, "valor": money], required: ["codigo", "descricao", "valor"])),
                        ], required: ["assinaturaId", "ciclo", "plano", "inicio", "fim", "itens"]),
                    "pacote": object(
                        [
                            "compraId": uuid, "pacoteId": uuid, "nome": text,
                            "medida": ["type": "string", "enum": Carteira.Medida.allCases.map(\.rawValue)], "quantidade": ["type": "integer"],
                            "validadeDias": ["type": "integer"],
                        ], required: ["compraId", "pacoteId", "nome", "medida", "quantidade", "validadeDias"]),
                    "valor": money,
                    "aliquotaISSBP": ["type": "integer"], "iss": money, "reembolsado": money, "issDevolvido": money, "liquido": money,
                    "status": ["type": "string", "enum": ["emitida", "paga", "parcialmente_reembolsada", "reembolsada"]], "data": date,
                    "emitidaEm": instant, "pagaEm": instant,
                    "notasDeCredito": array(
                        object(
                            [
                                "id": uuid, "numero": ["type": "integer"], "codigo": text, "reembolsoId": uuid, "valor": money, "iss": money,
                                "data": date,
                                "emitidaEm": instant,
                            ], required: ["id", "numero", "valor", "iss"])),
                ], required: ["id", "numero", "unidadeId", "valor", "iss", "status"]),
            "PaginaDeFaturas": page("Fatura"),
            "Recibo": object(
                [
                    "fatura": ref("Fatura"),
                    "unidade": object(
                        ["nome": text, "endereco": ["type": "object"], "fusoHorario": text], required: ["nome", "endereco", "fusoHorario"]),
                    "membro": ["type": "string", "description": "o nome do membro; (dados apagados) depois de um apagamento LGPD"],
                    "espaco": [
                        "type": "string",
                        "description": "o espaço reservado, `Plano <nome>` na fatura de uma assinatura, `Pacote <nome>` na de um pacote",
                    ],
                    "quando": ["type": "string", "description": "o horário reservado no fuso da unidade, ou o período do ciclo"],
                    "itens": array(object(["codigo": text, "descricao": text, "valor": money], required: ["codigo", "descricao", "valor"])),
                    "uso": array(
                        object(
                            ["usuarioId": text, "nome": text, "minutos": ["type": "integer"], "centavos": ["type": "integer"]],
                            required: ["usuarioId", "minutos", "centavos"])
                    ).merging(["description": "na fatura de uma empresa: o uso dos créditos compartilhados por pessoa nos meses do ciclo"]) { $1 },
                ], required: ["fatura", "membro", "espaco", "itens"]),
            "LinhaDeReceita": object(
                [
                    "data": date, "tipoDeEspaco": text, "bruto": money, "reembolsos": money, "liquido": money, "iss": money, "issFaturado": money,
                    "issDevolvido": money, "faturas": ["type": "integer"], "notasDeCredito": ["type": "integer"],
                ], required: ["bruto", "reembolsos", "liquido", "iss"]),
            "RelatorioDeReceita": object(
                [
                    "de": date, "ate": date, "unidadeId": uuid, "porDia": array(ref("LinhaDeReceita")),
                    "porTipoDeEspaco": array(ref("LinhaDeReceita")),
                    "totais": ref("LinhaDeReceita"),
                ], required: ["de", "ate", "porDia", "porTipoDeEspaco", "totais"]),
            "Razao": object(
                [
                    "unidadeId": uuid,
                    "contas": array(
                        object(
                            [
                                "conta": ["type": "string", "enum": ["caixa", "receita_de_servicos", "iss_a_recolher", "reembolsos"]], "nome": text,
                                "natureza": text, "debitos": money, "creditos": money, "saldo": money,
                            ], required: ["conta", "debitos", "creditos", "saldo"])),
                    "totalDebitos": money, "totalCreditos": money, "equilibrado": ["type": "boolean"], "lancamentos": ["type": "integer"],
                ], required: ["contas", "totalDebitos", "totalCreditos", "equilibrado"]),
            "OcupacaoPorDia": [
                "type": "object",
                "description": "por espaço: horas reservadas, horas locadas, horas abertas, ocupação ((reservadas + locadas) / abertas, 0–1) e dias",
            ],
            "OcupacaoPorHoraDaSemana": ["type": "object", "description": "por espaço: 168 horas da semana (0 = domingo 00h, hora local)"],
            "ReceitaPorTipo": ["type": "object", "description": "pagamentos − reembolsos por tipo de espaço no período"],
            "AnalyticsDeAssinaturas": object(
                [
                    "ativas": ["type": "integer"], "suspensas": ["type": "integer"], "pausadas": ["type": "integer"],
                    "agendadas": ["type": "integer"],
                    "mrr": money.merging(["description": "receita recorrente mensal das ativas (anuidade ÷ 12)"]) { $1 },
                    "porPlano": array(
                        object(
                            ["planoId": uuid, "nome": text, "ativas": ["type": "integer"], "mrr": money],
                            required: ["planoId", "nome", "ativas", "mrr"])),
                    "meses": array(
                        object(
                            [
                                "mes": ["type": "string", "description": "AAAA-MM"], "ativasNoInicio": ["type": "integer"],
                                "ativasNoFim": ["type": "integer"],
                                "novas": ["type": "integer"], "encerradas": ["type": "integer"],
                                "churn": ["type": "number", "description": "encerradas ÷ ativas no início (0–1; ausente sem ativas)"],
                                "mrrNoFim": money, "receita": money,
                                "receitaPorPlano": array(
                                    object(
                                        [
                                            "planoId": uuid, "nome": text,
                                            "tipo": [
                                                "type": "string", "enum": ["plano", "pacote"],
                                                "description": "plano, ou pacote de créditos vendido sem plano (planoId é então o do pacote)",
                                            ],
                                            "receita": money,
                                        ], required: ["planoId", "nome", "tipo", "receita"])),
                                "receitaDePacotes": money,
                                "minutosConcedidos": ["type": "integer"], "minutosConsumidos": ["type": "integer"],
                                "utilizacaoDeCreditos": ["type": "number", "description": "minutos consumidos ÷ concedidos no mês (0–1 ou mais)"],
                            ], required: ["mes", "ativasNoInicio", "ativasNoFim", "novas", "encerradas", "mrrNoFim", "receita", "receitaDePacotes"])),
                ], required: ["ativas", "suspensas", "pausadas", "agendadas", "mrr", "porPlano", "meses"]),
            "Indicadores": object(
                [
                    "reservasSolicitadas": ["type": "integer"], "reservasConfirmadas": ["type": "integer"], "reservasCanceladas": ["type": "integer"],
                    "reservasRecusadas": [
                        "type": "integer", "description": "reservas liberadas por pagamento recusado (não contam como canceladas)",
                    ],
                    "checkins": ["type": "integer"], "noShows": ["type": "integer"], "taxaDeNoShow": ["type": "number"],
                    "taxaDeCancelamento": ["type": "number"], "antecedenciaMediaHoras": ["type": "number"], "pagamentos": money, "reembolsos": money,
                    "receita": money,
                ], required: []),
            "TopMembros": ["type": "object", "description": "os membros com mais horas confirmadas e com mais receita"],
            "Operacao": object(
                [
                    "aliquotaISSBP": ["type": "integer", "minimum": 0, "maximum": 10_000, "description": "ISS em pontos-base (500 = 5 %)"],
                    "janelaDeCheckin": object(
                        [
                            "antesMinutos": ["type": "integer", "minimum": 0, "maximum": 1440],
                            "depoisMinutos": ["type": "integer", "minimum": 0, "maximum": 1440],
                        ], required: ["antesMinutos", "depoisMinutos"]),
                ], required: ["aliquotaISSBP", "janelaDeCheckin"]),
        ]
    }
}
