import Domain
import Foundation

/// Schemas of the assinaturas routes: credits, plans and subscriptions.
extension OpenAPI {
    static var assinaturaSchemas: [String: Any] {
        let medida: [String: Any] = [
            "type": "string", "enum": Carteira.Medida.allCases.map(\.rawValue), "description": "minutos (horas de reserva) ou centavos",
        ]
        let tipos: [String: Any] = ["type": "array", "items": ["type": "string", "enum": Espaco.Tipo.allCases.map(\.rawValue)]]
        let maximo = max(Carteira.maximo(.minutos), Carteira.maximo(.centavos))
        return [
            "AjusteDeCreditos": object(
                [
                    "medida": medida,
                    "quantidade": [
                        "type": "integer", "minimum": -maximo, "maximum": maximo, "not": ["const": 0],
                        "description":
                            "positiva soma um lote; negativa retira dos lotes que vencem primeiro (no máximo 600000 minutos ou 100000000 centavos)",
                    ],
                    "motivo": textoLivre(500, obrigatorio: true),
                    "descricao": textoLivre(200, description: "o nome do novo lote; só ao somar (numa retirada, 422 se não estiver em branco)"),
                    "tipos": tipos.merging(["description": "tipos de espaço em que o lote vale (vazio: todos); só ao somar (numa retirada, 422)"]) {
                        $1
                    },
                    "unidadeId": uuid.merging(["description": "a unidade em que o lote vale (ausente: todas); só ao somar (numa retirada, 422)"]) {
                        $1
                    },
                    "validoAte": instant.merging(["description": "depois de agora (422); ausente: não vence; só ao somar (numa retirada, 422)"]) {
                        $1
                    },
                ], required: ["medida", "quantidade", "motivo"]),
            "LoteDeCreditos": object(
                [
                    "loteId": uuid, "medida": medida, "quantidade": ["type": "integer"], "restante": ["type": "integer"], "tipos": tipos,
                    "unidadeId": uuid, "validoAte": instant, "origem": ["type": "string", "enum": Carteira.Origem.allCases.map(\.rawValue)],
                    "descricao": text, "concedidoEm": instant,
                ], required: ["loteId", "medida", "quantidade", "restante", "tipos", "origem", "descricao", "concedidoEm"]),
            "Carteira": object(
                [
                    "titular": text, "minutos": ["type": "integer"], "centavos": money, "lotes": array(ref("LoteDeCreditos")),
                    "atualizadaEm": instant,
                ], required: ["titular", "minutos", "centavos", "lotes"]),
            "MovimentoDeCreditos": object(
                [
                    "id": text, "titular": text,
                    "tipo": ["type": "string", "enum": ["concedidos", "consumidos", "restituidos", "retidos", "expirados", "ajustados"]],
                    "medida": medida, "quantidade": ["type": "integer", "description": "positiva entra, negativa sai"],
                    "retido": ["type": "integer"], "reservaId": uuid, "descricao": text, "motivo": text, "por": text, "em": instant,
                ], required: ["id", "titular", "tipo", "medida", "quantidade", "descricao", "em"]),
            "PaginaDeMovimentos": page("MovimentoDeCreditos"),
        ].merging(planoSchemas) { first, _ in first }.merging(empresaSchemas) { first, _ in first }.merging(pacoteSchemas) { first, _ in first }
    }

    static var pacoteSchemas: [String: Any] {
        let medida: [String: Any] = [
            "type": "string", "enum": Carteira.Medida.allCases.map(\.rawValue), "description": "minutos (horas de reserva) ou centavos (um valor)",
        ]
        let tipos: [String: Any] = ["type": "array", "items": ["type": "string", "enum": Espaco.Tipo.allCases.map(\.rawValue)]]
        let metodo: [String: Any] = ["type": "string", "enum": MetodoDePagamento.doProvedor.map(\.rawValue)]
        let quantidade: [String: Any] = [
            "type": "integer", "minimum": 1, "maximum": max(Carteira.maximo(.minutos), Carteira.maximo(.centavos)),
            "description": "minutos (até 600000) ou centavos (até 100000000) de créditos por compra",
        ]
        let validade: [String: Any] = [
            "type": "integer", "minimum": 1, "maximum": Pacote.Oferta.validadeMaxima,
            "description": "dias de validade a partir do pagamento (1: passe diário)",
        ]
        let preco: [String: Any] = ["type": "integer", "minimum": 1, "maximum": Plano.Termos.maximoCentavos, "description": "centavos"]
        let oferta = object(
            [
                "nome": text, "medida": medida, "quantidade": quantidade, "tipos": tipos, "unidadeId": uuid, "validadeDias": validade,
                "precoCentavos": preco,
            ], required: ["nome", "medida", "quantidade", "tipos", "validadeDias", "precoCentavos"])
        return [
            "NovoPacote": object(
                [
                    "nome": textoLivre(Pacote.tamanhoMaximoDoNome, obrigatorio: true), "descricao": textoLivre(500),
                    "unidadeId": uuid.merging(["description": "a unidade em que é vendido e seus créditos valem (ausente: toda a rede)"]) { $1 },
                    "medida": medida, "quantidade": quantidade,
                    "tipos": tipos.merging(["description": "tipos de espaço em que os créditos valem (vazio: todos)"]) { $1 },
                    "validadeDias": validade, "precoCentavos": preco,
                ], required: ["nome", "medida", "quantidade", "validadeDias", "precoCentavos"]),
            "Pacote": object(
                [
                    "pacoteId": uuid, "nome": text, "descricao": text, "unidadeId": uuid, "medida": medida, "quantidade": ["type": "integer"],
                    "tipos": tipos, "validadeDias": ["type": "integer"], "precoCentavos": money, "arquivado": ["type": "boolean"],
                    "criadoEm": instant,
                ],
                required: ["pacoteId", "nome", "medida", "quantidade", "tipos", "validadeDias", "precoCentavos", "arquivado", "criadoEm"]),
            "PaginaDePacotes": page("Pacote"),
            "NovaCompraDePacote": object(
                [
                    "metodo": metodo,
                    "cartaoToken": ["type": "string", "maxLength": 200, "description": "o token do cartão no provedor (obrigatório para cartao)"],
                ], required: ["metodo"]),
            "CompraDePacote": object(
                [
                    "compraId": uuid, "titular": text, "pacoteId": uuid, "pacote": oferta, "valorCentavos": money, "metodo": metodo,
                    "status": ["type": "string", "enum": CompraDePacote.Status.allCases.map(\.rawValue)],
                    "cobranca": object(
                        ["cobrancaId": text, "metodo": metodo, "pix": pix, "boleto": boleto], required: ["cobrancaId", "metodo"]),
                    "expiraEm": instant.merging(["description": "até quando o PIX ou o boleto pode ser pago"]) { $1 },
                    "loteId": uuid, "validoAte": instant.merging(["description": "até quando os créditos comprados valem"]) { $1 },
                    "motivo": text, "solicitadaEm": instant, "pagaEm": instant,
                    "reembolso": object(
                        [
                            "valorCentavos": money.merging(["description": "devolvido pelo provedor"]) { $1 }, "medida": medida,
                            "retirado": ["type": "integer", "minimum": 0, "description": "créditos restantes retirados da carteira"],
                            "motivo": text, "em": instant,
                            "concluidoEm": instant.merging([
                                "description":
                                    "quando o provedor pagou a devolução (ausente: ainda não; um reembolso sem valor conclui-se ao ser feito)"
                            ]) { $1 },
                        ], required: ["valorCentavos", "medida", "retirado", "motivo", "em"]),
                ], required: ["compraId", "titular", "pacoteId", "pacote", "valorCentavos", "metodo", "status", "solicitadaEm"]),
            "ReembolsoDeCompra": object(
                [
                    "motivo": textoLivre(500, obrigatorio: true),
                    "valorCentavos": [
                        "type": "integer", "minimum": 0, "maximum": Plano.Termos.maximoCentavos,
                        "description": "quanto devolver, até o que foi pago (ausente: a parte do preço dos créditos ainda não usados)",
                    ],
                ], required: ["motivo"]),
            "PaginaDeComprasDePacotes": page("CompraDePacote"),
        ]
    }

    static var planoSchemas: [String: Any] {
        let tipos: [String: Any] = ["type": "array", "items": ["type": "string", "enum": Espaco.Tipo.allCases.map(\.rawValue)]]
        let dias: [String: Any] = ["type": "array", "items": ["type": "string", "enum": DiaDaSemana.allCases.map(\.rawValue)]]
        let data: [String: Any] = ["type": "string", "format": "date", "description": "AAAA-MM-DD"]
        let centavos: [String: Any] = ["type": "integer", "minimum": 0, "maximum": Plano.Termos.maximoCentavos]
        let bp: [String: Any] = ["type": "integer", "minimum": 0, "maximum": 10_000, "description": "pontos-base: 10000 = 100 %"]
        let periodicidade: [String: Any] = ["type": "string", "enum": Plano.Periodicidade.allCases.map(\.rawValue)]
        var termos: [String: Any] = [
            "periodicidade": periodicidade,
            "valorCentavos": centavos.merging(["description": "a mensalidade (ou anuidade) de um ciclo inteiro"]) { $1 },
            "adesaoCentavos": centavos.merging(["description": "cobrada uma vez, com o primeiro ciclo"]) { $1 },
            "horasMinutos": [
                "type": "integer", "minimum": 0, "maximum": Carteira.maximo(.minutos), "description": "minutos de reserva concedidos por ciclo",
            ],
            "tiposDasHoras": tipos.merging(["description": "tipos de espaço em que as horas valem (vazio: todos)"]) { $1 },
            "creditoCentavos": centavos.merging(["description": "valor concedido por ciclo para pagar reservas"]) { $1 },
            "rolloverBP": bp.merging(["description": "quanto do concedido no ciclo pode passar ao seguinte se não usado (pontos-base)"]) { $1 },
            "descontoBP": bp.merging(["description": "desconto nas reservas além dos créditos (pontos-base)"]) { $1 },
        ]
        let pedido = termos.merging([
            "tiposDeAcesso": tipos.merging(["description": "tipos de espaço a que o desconto se aplica (vazio: todos)"]) { $1 },
            "diasDeAcesso": dias.merging(["description": "dias da semana em que o desconto se aplica (vazio: todos)"]) { $1 },
        ]) { $1 }
        termos["acesso"] = object(["tipos": tipos, "dias": dias], required: ["tipos", "dias"])
        let referencia = object(["planoId": uuid, "nome": text, "versao": ["type": "integer"]], required: ["planoId", "nome", "versao"])
        let status: [String: Any] = ["type": "string", "enum": ["agendada", "ativa", "pausada", "suspensa", "encerrada"]]
        return [
            "TermosDePlano": object(
                termos,
                required: [
                    "periodicidade", "valorCentavos", "adesaoCentavos", "horasMinutos", "tiposDasHoras", "creditoCentavos", "rolloverBP", "acesso",
                    "descontoBP",
                ]),
            "NovoPlano": object(
                pedido.merging([
                    "nome": textoLivre(Plano.tamanhoMaximoDoNome, obrigatorio: true), "descricao": textoLivre(500),
                    "unidadeId": uuid.merging(["description": "a unidade em que é vendido e seus créditos valem (ausente: toda a rede)"]) { $1 },
                    "vigenteDesde": data.merging(["description": "hoje ou depois (ausente: hoje)"]) { $1 },
                ]) { $1 }, required: ["nome", "periodicidade", "valorCentavos"]),
            "VersaoDePlano": object(
                pedido.merging(["vigenteDesde": data.merging(["description": "futura e depois da data da versão atual (422)"]) { $1 }]) { $1 },
                required: ["periodicidade", "valorCentavos", "vigenteDesde"]),
            "Plano": object(
                [
                    "planoId": uuid, "nome": text, "descricao": text, "unidadeId": uuid,
                    "versoes": array(
                        object(
                            ["numero": ["type": "integer"], "vigenteDesde": data, "termos": ref("TermosDePlano")],
                            required: ["numero", "vigenteDesde", "termos"])),
                    "arquivado": ["type": "boolean"], "criadoEm": instant, "atualizadoEm": instant,
                ], required: ["planoId", "nome", "versoes", "arquivado", "criadoEm", "atualizadoEm"]),
            "PaginaDePlanos": page("Plano"),
            "NovaAssinatura": object(
                [
                    "planoId": uuid.merging(["description": "um plano à venda (422 se não existe ou está arquivado)"]) { $1 },
                    "inicio": data.merging(["description": "hoje (ausente) ou até 90 dias adiante (422 fora disso)"]) { $1 },
                    "metodo": ["type": "string", "enum": Assinatura.Metodo.allCases.map(\.rawValue)],
                    "cartaoToken": textoLivre(
                        200, description: "o token do cartão no provedor de pagamento: obrigatório com o método cartao, recusado (422) com os outros"),
                    "assentos": [
                        "type": "integer", "minimum": 1, "maximum": Assinatura.assentosMaximos,
                        "description":
                            "só na assinatura de uma empresa: pessoas cobertas (valor e créditos do plano vezes os assentos); padrão: as pessoas da empresa",
                    ],
                ], required: ["planoId", "metodo"]),
            "FormaDeCobranca": object(
                [
                    "metodo": ["type": "string", "enum": Assinatura.Metodo.allCases.map(\.rawValue)],
                    "cartaoToken": textoLivre(
                        200, description: "o token do novo cartão no provedor: obrigatório com o método cartao, recusado (422) com os outros"),
                ], required: ["metodo"]),
            "TrocaDePlano": object(
                ["planoId": uuid.merging(["description": "um plano à venda, outro que o atual (422 se não existe ou é o mesmo)"]) { $1 }],
                required: ["planoId"]),
            "CicloDeAssinatura": object(
                [
                    "numero": ["type": "integer"], "inicio": data, "ate": data.merging(["description": "o último dia do ciclo"]) { $1 },
                    "plano": referencia, "proporcaoBP": ["type": "integer"], "valorCentavos": money, "adesaoCentavos": money,
                    "trocasCentavos": money.merging(["description": "diferenças de trocas de plano do ciclo anterior, cobradas com este"]) { $1 },
                    "minutos": ["type": "integer"], "centavos": money, "pago": ["type": "boolean"],
                    "devolucoes": array(
                        object(
                            [
                                "reembolsoId": uuid, "cobrancaId": text,
                                "valorCentavos": money.merging(["description": "pago também no provedor e devolvido"]) { $1 },
                                "pedidaEm": instant,
                                "concluidaEm": instant.merging([
                                    "description": "quando o provedor pagou a devolução (ausente: em processamento)"
                                ]) { $1 },
                            ], required: ["reembolsoId", "cobrancaId", "valorCentavos", "pedidaEm"])
                    ).merging([
                        "description":
                            "pagamentos do ciclo no provedor devolvidos porque o ciclo já fora registrado como pago pela recepção (ausente: nenhum)"
                    ]) { $1 },
                ],
                required: [
                    "numero", "inicio", "ate", "plano", "proporcaoBP", "valorCentavos", "adesaoCentavos", "minutos", "centavos", "pago",
                ]),
            "Assinatura": object(
                [
                    "assinaturaId": uuid,
                    "titular": ["type": "string", "description": "o id do membro, ou empresa-<id> na assinatura de uma empresa"],
                    "assentos": ["type": "integer", "minimum": 1], "plano": referencia, "termos": ref("TermosDePlano"), "unidadeId": uuid,
                    "metodo": ["type": "string", "enum": Assinatura.Metodo.allCases.map(\.rawValue)], "fusoHorario": text, "inicio": data,
                    "status": status, "cicloAtual": ref("CicloDeAssinatura"), "ciclos": array(ref("CicloDeAssinatura")),
                    "agendamento": object(
                        [
                            "tipo": ["type": "string", "enum": Assinatura.TipoDeAlteracao.allCases.map(\.rawValue)], "plano": referencia,
                            "efeitoEm": data,
                        ], required: ["tipo", "efeitoEm"]),
                    "inadimplencia": object(
                        ["ciclo": ["type": "integer"], "primeiraFalha": instant, "tentativas": ["type": "integer"], "proximaTentativa": instant],
                        required: ["ciclo", "primeiraFalha", "tentativas"]),
                    "proximaCobranca": data, "motivoDoEncerramento": ["type": "string", "enum": ["cancelamento", "inadimplencia"]],
                    "retentativaPendente": ["type": "boolean", "description": "uma nova tentativa de cobrança está para ser feita"],
                    "cobrancas": array(
                        object(
                            [
                                "ciclo": ["type": "integer"], "tentativa": ["type": "integer"], "cobrancaId": text,
                                "metodo": ["type": "string", "enum": MetodoDePagamento.doProvedor.map(\.rawValue)], "valorCentavos": money,
                                "pix": pix, "boleto": boleto,
                            ], required: ["ciclo", "tentativa", "cobrancaId", "metodo", "valorCentavos"])),
                    "criadaEm": instant, "atualizadaEm": instant,
                ],
                required: [
                    "assinaturaId", "titular", "plano", "termos", "metodo", "fusoHorario", "inicio", "status", "ciclos", "criadaEm", "atualizadaEm",
                ]),
            "PaginaDeAssinaturas": page("Assinatura"),
        ]
    }

    static var empresaSchemas: [String: Any] {
        let papel: [String: Any] = ["type": "string", "enum": Empresa.Papel.allCases.map(\.rawValue)]
        let cnpj: [String: Any] = [
            "type": "string", "minLength": 14, "maxLength": 18,
            "description": "14 caracteres com dígitos verificadores válidos, com ou sem pontuação; numérico ou alfanumérico (desde julho de 2026)",
        ]
        let email = enderecoDeEmail
        return [
            "EmpresaNova": object(
                [
                    "razaoSocial": textoLivre(Empresa.tamanhoMaximoDoNome, obrigatorio: true),
                    "nomeFantasia": textoLivre(Empresa.tamanhoMaximoDoNome), "cnpj": cnpj, "emailDeCobranca": email, "endereco": ref("Endereco"),
                    "gestorId": uuid.merging(["description": "o primeiro gestor (um membro sem empresa); só no cadastro"]) { $1 },
                ], required: ["razaoSocial", "cnpj", "emailDeCobranca", "endereco"]),
            "Empresa": object(
                [
                    "empresaId": uuid, "nome": text, "razaoSocial": text, "nomeFantasia": text,
                    "cnpj": ["type": "string", "description": "formatado: 12.345.678/0001-95"], "emailDeCobranca": text,
                    "endereco": ["type": "object"], "criadaEm": instant,
                    "meuPapel": papel.merging(["description": "o seu papel (ausente: um operador de fora da empresa)"]) { $1 },
                    "integrantes": array(
                        object(
                            [
                                "usuarioId": text, "nome": text, "papel": papel, "desde": instant,
                                "limite": object(["minutosPorMes": ["type": "integer"], "centavosPorMes": ["type": "integer"]], required: []),
                            ], required: ["usuarioId", "papel", "desde"])
                    ).merging(["description": "só para gestores e operadores"]) { $1 },
                    "convites": array(
                        object(
                            [
                                "conviteId": uuid, "email": text, "papel": papel, "expiraEm": instant, "expirado": ["type": "boolean"], "por": text,
                                "em": instant,
                            ], required: ["conviteId", "papel", "expiraEm", "expirado"])
                    ).merging(["description": "convites pendentes; só para gestores e operadores"]) { $1 },
                ], required: ["empresaId", "nome", "razaoSocial", "cnpj", "emailDeCobranca", "endereco", "criadaEm"]),
            "EmpresaResumo": object(
                [
                    "empresaId": uuid, "nome": text, "razaoSocial": text, "cnpj": text, "emailDeCobranca": text,
                    "integrantes": ["type": "integer"], "gestores": ["type": "integer"], "convitesPendentes": ["type": "integer"],
                    "criadaEm": instant,
                ], required: ["empresaId", "nome", "cnpj", "integrantes"]),
            "PaginaDeEmpresas": page("EmpresaResumo"),
            "ConviteNovo": object(["email": email, "papel": papel], required: ["email"]),
            "ConviteCriado": object(
                [
                    "conviteId": uuid, "email": text, "papel": papel, "expiraEm": instant,
                    "link": ["type": "string", "description": "/convite/<token>: a página do app que aceita o convite (também enviada por e-mail)"],
                ], required: ["conviteId", "email", "papel", "expiraEm", "link"]),
            "ConviteRecebido": object(
                [
                    "empresaId": uuid, "empresa": text, "papel": papel, "expiraEm": instant, "expirado": ["type": "boolean"],
                    "jaIntegrante": ["type": "boolean"], "outraEmpresa": ["type": "string", "description": "a empresa de que você já faz parte"],
                ], required: ["empresaId", "empresa", "papel", "expiraEm", "expirado", "jaIntegrante"]),
            "PapelNaEmpresa": object(["papel": papel], required: ["papel"]),
            "UsoDaEmpresa": object(
                [
                    "mes": ["type": "string", "description": "AAAA-MM"],
                    "pessoas": array(
                        object(
                            [
                                "usuarioId": text, "nome": text, "minutos": ["type": "integer"], "centavos": ["type": "integer"],
                                "limite": object(["minutosPorMes": ["type": "integer"], "centavosPorMes": ["type": "integer"]], required: []),
                            ], required: ["usuarioId", "minutos", "centavos"])),
                ], required: ["mes", "pessoas"]),
            "LimiteMensal": object(
                [
                    "minutosPorMes": ["type": ["integer", "null"], "minimum": 0, "maximum": Carteira.maximo(.minutos)],
                    "centavosPorMes": ["type": ["integer", "null"], "minimum": 0, "maximum": Carteira.maximo(.centavos)],
                ], required: []),
        ]
    }
}
