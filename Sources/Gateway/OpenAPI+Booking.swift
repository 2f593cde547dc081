import Domain
import Foundation

/// Schemas of the espacos, precos and reservas routes.
extension OpenAPI {
    static var money: [String: Any] { ["type": "integer", "description": "centavos de real (BRL)"] }
    /// An address field.
    static func linhaDeEndereco(obrigatoria: Bool) -> [String: Any] { textoLivre(Unidade.Endereco.tamanhoMaximo, obrigatorio: obrigatoria) }
    /// A free description or reason.
    static var texto500: [String: Any] { textoLivre(500) }
    /// A unit's or a space's name.
    static var nome: [String: Any] { textoLivre(Espaco.tamanhoMaximoDoNome, obrigatorio: true) }
    /// A space's amenities and photos, with their limits.
    static var comodidades: [String: Any] {
        ["type": "array", "maxItems": Espaco.maximoDeComodidades, "items": textoLivre(Espaco.tamanhoMaximoDaComodidade, obrigatorio: true)]
    }
    static var fotos: [String: Any] {
        [
            "type": "array", "maxItems": Espaco.maximoDeFotos,
            "items": object(
                [
                    "url": [
                        "type": "string", "format": "uri", "maxLength": Espaco.tamanhoMaximoDaUrl,
                        "pattern": "^\\s*[Hh][Tt][Tt][Pp][Ss]?://[\\s\\S]*\\S" + caractere + "*$", "description": "http:// ou https://",
                    ],
                    "legenda": textoLivre(Espaco.tamanhoMaximoDaLegenda),
                ], required: ["url"]),
        ]
    }
    /// An IANA time zone this server knows.
    static var fuso: [String: Any] {
        ["type": "string", "enum": (TimeZone.knownTimeZoneIdentifiers + ["UTC"]).sorted(), "description": "IANA, padrão America/Sao_Paulo"]
    }

    /// A price of a table: positive, at most R$ 1.000.000,00.
    static var preco: [String: Any] {
        ["type": "integer", "minimum": 1, "maximum": TabelaDePreco.Valores.precoMaximo.centavos, "description": "centavos de real (BRL)"]
    }
    static var uuid: [String: Any] { ["type": "string", "format": "uuid"] }
    static var date: [String: Any] { ["type": "string", "format": "date", "description": "AAAA-MM-DD, no fuso da unidade"] }
    static func array(_ items: [String: Any]) -> [String: Any] { ["type": "array", "items": items] }
    static func page(_ item: String) -> [String: Any] {
        object(["itens": array(ref(item)), "total": ["type": "integer"], "pagina": ["type": "integer"]], required: ["itens", "total", "pagina"])
    }

    /// The fields of a price rule, with the ranges ``TabelaDePreco/Regra`` checks.
    static var camposDeRegra: [String: Any] {
        let dias = ["domingo", "segunda", "terca", "quarta", "quinta", "sexta", "sabado"]
        return [
            "dias": ["type": "array", "minItems": 1, "items": ["type": "string", "enum": dias]],
            "inicioMinutos": ["type": "integer", "minimum": 0, "maximum": 1439],
            "fimMinutos": ["type": "integer", "minimum": 1, "maximum": 1440, "description": "depois de inicioMinutos (422)"],
            "multiplicadorBP": [
                "type": "integer", "minimum": TabelaDePreco.Regra.multiplicadores.lowerBound,
                "maximum": TabelaDePreco.Regra.multiplicadores.upperBound,
            ],
            "aPartirDeMinutos": ["type": "integer", "minimum": 1],
            "descontoBP": [
                "type": "integer", "minimum": TabelaDePreco.Regra.descontos.lowerBound, "maximum": TabelaDePreco.Regra.descontos.upperBound,
            ],
            "plano": textoLivre(100, obrigatorio: true),
        ]
    }

    /// The branch of a rule of `tipo`, with the fields it needs.
    static func regra(_ tipo: String, _ campos: [String]) -> [String: Any] {
        ["properties": ["tipo": ["const": tipo]], "required": ["tipo"] + campos]
    }

    static var bookingSchemas: [String: Any] {
        let tipo: [String: Any] = ["type": "string", "enum": ["estacao_compartilhada", "mesa_fixa", "sala_privativa", "sala_reuniao", "auditorio"]]
        let faixas = array(
            object(
                ["abre": ["type": "integer", "minimum": 0, "maximum": 1439], "fecha": ["type": "integer", "minimum": 1, "maximum": 1440]],
                required: ["abre", "fecha"]))
        let dias = ["domingo", "segunda", "terca", "quarta", "quinta", "sexta", "sabado"]
        let minutos = Espaco.RegrasDeReserva.minutosMaximos
        let regras = object(
            [
                "duracaoMinimaMinutos": ["type": "integer", "minimum": 1, "maximum": minutos],
                "duracaoMaximaMinutos": [
                    "type": "integer", "minimum": 1, "maximum": minutos, "description": "não menos que duracaoMinimaMinutos (422)",
                ],
                "antecedenciaMinimaMinutos": ["type": "integer", "minimum": 0, "maximum": minutos],
                "antecedenciaMaximaDias": ["type": "integer", "minimum": 0, "maximum": Espaco.RegrasDeReserva.antecedenciaMaximaPermitidaDias],
            ], required: ["duracaoMinimaMinutos", "duracaoMaximaMinutos", "antecedenciaMinimaMinutos", "antecedenciaMaximaDias"])
        let foto = object(["url": ["type": "string", "format": "uri"], "legenda": text], required: ["url"])
        let politica = object(
            [
                "horasSemMulta": ["type": "integer", "minimum": 0, "maximum": Unidade.PoliticaDeCancelamento.horasMaximas],
                "multaBP": ["type": "integer", "minimum": 0, "maximum": 10_000, "description": "pontos-base do total (10000 = 100 %)"],
                "devolucaoNoShowBP": [
                    "type": "integer", "minimum": 0, "maximum": 10_000,
                    "description":
                        "pontos-base dos créditos gastos que voltam ao membro quando ele não comparece (ausente ou 0: ficam retidos); vale a política do momento da reserva",
                ],
            ], required: ["horasSemMulta", "multaBP"])
        let linha = object(["codigo": text, "descricao": text, "valor": money], required: ["codigo", "descricao", "valor"])
        let parte: [String: Any] = ["minutos": ["type": "integer", "minimum": 0], "centavos": ["type": "integer", "minimum": 0]]
        let creditos = object(
            parte.merging([
                "titular": text,
                "empresa": text.merging(["description": "na reserva: o titular (`empresa-<id>`) dos créditos da empresa que ela gastou"]) { $1 },
                "daEmpresa": object(parte, required: ["minutos", "centavos"]).merging([
                    "description": "a parte paga pelos créditos da empresa do membro (os do próprio membro são gastos primeiro)"
                ]) { $1 },
            ]) { $1 }, required: ["minutos", "centavos"])
        return [
            "Endereco": object(
                [
                    "logradouro": linhaDeEndereco(obrigatoria: true), "numero": linhaDeEndereco(obrigatoria: true),
                    "complemento": linhaDeEndereco(obrigatoria: false), "bairro": linhaDeEndereco(obrigatoria: false),
                    "cidade": linhaDeEndereco(obrigatoria: true), "cep": linhaDeEndereco(obrigatoria: true),
                    "uf": ["type": "string", "enum": Unidade.Endereco.ufs.sorted(), "description": "sigla do estado ou DF (ex.: SP)"],
                ], required: ["logradouro", "numero", "cidade", "uf", "cep"]),
            "NovaUnidade": object(
                [
                    "nome": nome, "endereco": ref("Endereco"), "fusoHorario": fuso,
                    "politicaDeCancelamento": politica, "operacao": ref("Operacao"),
                ], required: ["nome", "endereco"]),
            "AlteracaoDeUnidade": object(
                [
                    "nome": nome, "endereco": ref("Endereco"),
                    "fusoHorario": fuso.merging(["description": "só o fuso atual: o fuso de uma unidade não muda depois do cadastro (422)"]) { $1 },
                    "politicaDeCancelamento": politica, "operacao": ref("Operacao"),
                ], required: []),
            "Unidade": object(
                [
                    "id": uuid, "nome": text, "endereco": ref("Endereco"), "fusoHorario": text, "politicaDeCancelamento": politica,
                    "operacao": ref("Operacao"),
                ], required: ["id", "nome", "endereco", "fusoHorario", "politicaDeCancelamento"]),
            "PaginaDeUnidades": page("Unidade"),
            "HorarioSemanal": [
                "type": "object", "description": "faixas por dia da semana, em minutos desde a meia-noite local; dia ausente = fechado",
                "properties": Dictionary(uniqueKeysWithValues: dias.map { ($0, faixas) }),
            ],
            "NovoEspaco": object(
                [
                    "unidadeId": uuid.merging(["description": "uma unidade cadastrada (outra → 422)"]) { $1 }, "nome": nome, "tipo": tipo,
                    "capacidade": ["type": "integer", "minimum": 1, "maximum": Espaco.capacidadeMaxima],
                    "comodidades": comodidades, "fotos": fotos, "regras": regras, "horario": ref("HorarioSemanal"),
                ], required: ["unidadeId", "nome", "tipo", "capacidade"]),
            "AlteracaoDeEspaco": object(
                [
                    "nome": nome, "capacidade": ["type": "integer", "minimum": 1, "maximum": Espaco.capacidadeMaxima], "comodidades": comodidades,
                    "fotos": fotos, "regras": regras,
                ], required: []),
            "Espaco": object(
                [
                    "id": uuid, "unidadeId": uuid, "nome": text, "tipo": tipo, "capacidade": ["type": "integer"], "comodidades": array(text),
                    "fotos": array(foto), "regras": regras, "horario": ref("HorarioSemanal"),
                    "bloqueios": array(
                        object(
                            ["id": uuid, "intervalo": ref("Intervalo"), "motivo": text, "descricao": text], required: ["id", "intervalo", "motivo"])),
                    "ativo": ["type": "boolean"], "cadastradoEm": instant,
                ], required: ["id", "unidadeId", "nome", "tipo", "capacidade", "ativo"]),
            "Intervalo": object(["inicio": instant, "fim": instant], required: ["inicio", "fim"]),
            "ItemDoCatalogo": object(["espaco": ref("Espaco"), "unidade": ref("Unidade"), "precos": ref("ValoresDePreco")], required: ["espaco"]),
            "PaginaDoCatalogo": page("ItemDoCatalogo"),
            "Disponibilidade": object(
                [
                    "espacoId": uuid, "data": date, "fusoHorario": text, "aberto": array(ref("Intervalo")),
                    "livres": array(
                        object(["inicio": instant, "fim": instant, "vagas": ["type": "integer"]], required: ["inicio", "fim", "vagas"])),
                ], required: ["espacoId", "data", "aberto", "livres"]),
            "NovoBloqueio": object(
                [
                    "inicio": instant,
                    "fim": instant.merging(["description": "depois de 'inicio' e de agora (um bloqueio já encerrado é um 422)"]) { $1 },
                    "motivo": [
                        "type": "string", "enum": Espaco.Bloqueio.Motivo.allCases.map(\.rawValue),
                        "description": "locacao: uma mesa fixa ou sala privativa de um membro ou de uma empresa no período, com 'locatario'",
                    ],
                    "descricao": texto500,
                    "locatario": ref("Locatario"),
                ], required: ["inicio", "fim", "motivo"]),
            "Locatario": object(["usuarioId": uuid, "empresaId": uuid], required: []).merging([
                "description": "quem tem a locação: 'usuarioId' (um membro) ou 'empresaId' (uma empresa), um só"
            ]) { $1 },
            "EncurtamentoDeBloqueio": object(
                ["fim": instant.merging(["description": "depois de agora e do início, antes do fim atual"]) { $1 }], required: ["fim"]),
            "MinhasLocacoes": object(
                [
                    "locacoes": array(
                        object(
                            [
                                "bloqueioId": uuid, "espacoId": uuid, "espacoNome": text, "tipo": tipo, "unidadeId": uuid, "unidadeNome": text,
                                "fusoHorario": text, "intervalo": ref("Intervalo"), "descricao": text,
                                "empresaId": uuid.merging(["description": "a empresa locatária, quando a locação é da sua empresa"]) { $1 },
                            ], required: ["bloqueioId", "espacoId", "espacoNome", "tipo", "unidadeId", "intervalo"]))
                ], required: ["locacoes"]),
            "BloqueiosDoEspaco": object(
                [
                    "bloqueios": array(
                        object(
                            ["id": uuid, "intervalo": ref("Intervalo"), "motivo": text, "descricao": text, "locatario": ref("Locatario")],
                            required: ["id", "intervalo", "motivo"]))
                ], required: ["bloqueios"]),
            "Motivo": object(["motivo": texto500], required: []),
            "Cancelamento": object(
                [
                    "motivo": texto500,
                    "aplicarMulta": [
                        "type": "boolean",
                        "description": "só administradores: ao cancelar a reserva de outra pessoa, true aplica a política da unidade "
                            + "(o padrão devolve tudo, pois quem cancela é o operador)",
                    ],
                ], required: []),
            "ValoresDePreco": object(
                [
                    "porHora": preco, "meioPeriodo": preco, "diaria": preco,
                    "duracaoMinimaMinutos": ["type": "integer", "minimum": 1, "maximum": 1_440],
                    "fracaoMinutos": [
                        "type": "integer", "enum": TabelaDePreco.Valores.fracoesPermitidas,
                        "description":
                            "como o tempo é cobrado por hora: em frações de tantos minutos, uma fração iniciada cobrada inteira (60, o padrão: por hora iniciada; 1: por minuto)",
                    ],
                ], required: ["porHora", "meioPeriodo", "diaria", "duracaoMinimaMinutos"]),
            "NovaRegra": [
                "type": "object", "required": ["tipo"],
                "description": "horario_de_pico {dias, inicioMinutos, fimMinutos, multiplicadorBP}; fim_de_semana {multiplicadorBP}; "
                    + "longa_duracao {aPartirDeMinutos, descontoBP}; plano {plano, descontoBP}",
                "properties": [
                    "tipo": ["type": "string", "enum": ["horario_de_pico", "fim_de_semana", "longa_duracao", "plano"]]
                ].merging(camposDeRegra) { $1 },
                // The fields each kind needs (others are ignored).
                "oneOf": [
                    regra("horario_de_pico", ["dias", "inicioMinutos", "fimMinutos", "multiplicadorBP"]),
                    regra("fim_de_semana", ["multiplicadorBP"]), regra("longa_duracao", ["aPartirDeMinutos", "descontoBP"]),
                    regra("plano", ["plano", "descontoBP"]),
                ],
            ],
            "RegraDePreco": object(
                camposDeRegra.merging([
                    "id": uuid, "tipo": ["type": "string", "enum": ["horario_de_pico", "fim_de_semana", "longa_duracao", "plano"]],
                ]) { $1 }, required: ["id", "tipo"]),
            "TabelaDePreco": object(
                ["espacoId": uuid, "valores": ref("ValoresDePreco"), "regras": array(ref("RegraDePreco"))],
                required: ["espacoId", "valores", "regras"]),
            "NovoCupom": object(
                [
                    "codigo": ["type": "string", "pattern": "^[A-Za-z0-9_-]{3,32}$"],
                    "desconto": [
                        "type": "object", "required": ["tipo"],
                        "properties": ["tipo": ["type": "string", "enum": ["percentual", "fixo"]], "bp": ["type": "integer"], "valor": money],
                        "oneOf": [
                            object(
                                [
                                    "tipo": ["const": "percentual"],
                                    "bp": ["type": "integer", "minimum": 1, "maximum": 10_000, "description": "pontos-base"],
                                ], required: ["tipo", "bp"]),
                            object(["tipo": ["const": "fixo"], "valor": preco], required: ["tipo", "valor"]),
                        ],
                    ],
                    "validoDe": instant, "validoAte": instant.merging(["description": "depois de validoDe e de agora (422)"]) { $1 },
                    "maxUsos": ["type": "integer", "minimum": 1],
                ], required: ["codigo", "desconto", "validoDe", "validoAte", "maxUsos"]),
            "Cupom": object(
                [
                    "codigo": text, "desconto": ["type": "object"], "validoDe": instant, "validoAte": instant, "maxUsos": ["type": "integer"],
                    "usos": ["type": "integer"], "ativo": ["type": "boolean"],
                ], required: ["codigo", "desconto", "maxUsos", "usos", "ativo"]),
            "PedidoDeCotacao": object(
                [
                    "espacoId": uuid, "inicio": instant, "fim": instant, "cupom": text,
                    "paraUsuarioId": uuid.merging([
                        "description":
                            "cotar para outra pessoa (os créditos e o plano dela), como uma reserva para ela: com token, alguém da empresa que você gere (ou qualquer membro, para um operador); 401 sem token, 403 fora disso, 422 se a pessoa não existe"
                    ]) { $1 },
                ], required: ["espacoId", "inicio", "fim"]),
            "Cotacao": object(
                [
                    "linhas": array(linha), "subtotal": money, "descontos": money, "total": money, "duracaoMinutos": ["type": "integer"],
                    "creditos": creditos.merging(["description": "os créditos que esta reserva gastaria (ausente: nenhum)"]) { $1 },
                ], required: ["linhas", "subtotal", "descontos", "total"]),
            "PedidoDeReserva": object(
                [
                    "espacoId": uuid, "inicio": instant, "fim": instant, "cupom": text, "pagamento": ref("FormaDePagamento"),
                    "totalEsperado": [
                        "type": "integer", "minimum": 0,
                        "description": "o total (centavos) da cotação mostrada ao membro: se o preço mudou, 409 preco_alterado e nada é reservado",
                    ],
                    "paraUsuarioId": uuid.merging([
                        "description":
                            "reservar para outra pessoa: alguém da empresa que você gere (ou qualquer membro, para um operador); 403 fora disso, 422 se a pessoa não existe"
                    ]) { $1 },
                ], required: ["espacoId", "inicio", "fim"]),
            "Reserva": object(
                [
                    "id": uuid, "espacoId": uuid, "unidadeId": uuid, "usuarioId": text, "inicio": instant, "fim": instant, "dias": array(date),
                    "status": ["type": "string", "enum": ["solicitada", "confirmada", "cancelada", "expirada", "concluida"]],
                    "total": money, "linhas": array(linha), "cupom": text,
                    "creditos": creditos.merging([
                        "description":
                            "os créditos que a reserva gastou (de `titular`, e a parte da empresa em `daEmpresa`); voltam se ela for cancelada a tempo"
                    ]) { $1 },
                    "metodo": [
                        "type": "string", "enum": MetodoDePagamento.allCases.map(\.rawValue),
                        "description": "a forma de pagamento escolhida (ausente: PIX; `manual`: paga na recepção, cancelada lá)",
                    ],
                    "expiraEm": [
                        "type": "string", "format": "date-time", "description": "enquanto solicitada: quando o horário é liberado sem pagamento",
                    ],
                    "solicitadaEm": instant, "confirmadaEm": instant, "pagamentoId": text,
                    "cancelamento": object(
                        ["em": instant, "por": text, "motivo": text, "multa": money, "reembolso": money], required: ["em", "multa", "reembolso"]),
                    "atualizadaEm": instant,
                    "naoCompareceuEm": [
                        "type": "string", "format": "date-time",
                        "description": "o membro não compareceu: o resto do horário foi liberado neste instante",
                    ],
                    "checkinEm": ["type": "string", "format": "date-time", "description": "quando o membro fez check-in (ausente até lá)"],
                    "checkoutEm": ["type": "string", "format": "date-time", "description": "quando o membro fez checkout (ausente até lá)"],
                    "reembolsoSolicitado": money.merging([
                        "description":
                            "centavos de real (BRL): o que o pagamento já pediu ao provedor que devolva desta reserva, ou que a recepção devolve (paga na recepção; a situação de cada reembolso está no pagamento); pode passar do reembolso do cancelamento quando o pagamento chegou depois de a reserva acabar, e então volta inteiro"
                    ]) { $1 },
                    "politicaDeCancelamento": politica.merging([
                        "description": "os termos de cancelamento desta reserva: a política da unidade quando foi feita"
                    ]) { $1 },
                    "serie": object(
                        [
                            "serieId": uuid.merging(["description": "a série de reservas (GET /api/reservas/series/{id})"]) { $1 },
                            "numero": ["type": "integer", "minimum": 1, "description": "a ocorrência (1: a primeira)"],
                        ], required: ["serieId", "numero"]),
                    "remarcacoes": [
                        "type": "integer", "minimum": 1,
                        "description": "quantas vezes a reserva mudou de horário (ausente: nunca); inicio e fim são o horário atual",
                    ],
                    "remarcadaEm": ["type": "string", "format": "date-time", "description": "quando mudou de horário pela última vez"],
                ], required: ["id", "espacoId", "inicio", "fim", "status", "total"]),
            "Remarcacao": object(
                [
                    "inicio": instant.merging(["description": "o novo início, no mesmo espaço"]) { $1 },
                    "fim": instant.merging(["description": "o novo fim: a duração é a da reserva (422 em `fim` se não for)"]) { $1 },
                ], required: ["inicio", "fim"]),
            "PedidoDeSerie": object(
                [
                    "espacoId": uuid, "inicio": instant.merging(["description": "o início da primeira ocorrência"]) { $1 },
                    "fim": instant.merging(["description": "o fim da primeira ocorrência; as outras duram o mesmo"]) { $1 },
                    "frequencia": [
                        "type": "string", "enum": SerieDeReservas.Frequencia.allCases.map(\.rawValue),
                        "description":
                            "toda semana, a cada duas semanas, de segunda a sexta, todo mês no mesmo dia da semana da mesma semana do mês "
                            + "(`mensal`: a segunda terça; a partir do dia 29, o último do mês) ou todo mês no mesmo dia do mês (`mensal_no_dia`: "
                            + "o dia 15; num mês sem esse dia, o último dele); no mesmo horário local da unidade",
                    ],
                    "ocorrencias": [
                        "type": "integer", "minimum": 2, "maximum": SerieDeReservas.maximoDeOcorrencias,
                        "description": "quantas, contando a primeira",
                    ],
                    "pagamento": object(
                        [
                            "metodo": ["type": "string", "enum": ["cartao", "manual"]],
                            "cartaoToken": textoLivre(200, description: "o token do cartão no provedor (com cartao)"),
                        ], required: ["metodo"]
                    ).merging([
                        "description":
                            "um cartão, cobrado por ocorrência ao ser reservada, ou (só um operador) `manual`: pago na recepção; sem ele, só as ocorrências que os créditos ou descontos pagam inteiras são reservadas"
                    ]) { $1 },
                    "paraUsuarioId": uuid.merging([
                        "description":
                            "a série para outra pessoa, como uma reserva para ela: alguém da empresa que você gere (ou qualquer membro, para um operador); 403 fora disso, 422 se a pessoa não existe"
                    ]) { $1 },
                    "cupom": text.merging([
                        "description":
                            "um cupom para cada ocorrência, um uso cada, enquanto tiver usos; depois, as demais pelo seu próprio preço. 422 em `cupom` se a série não pode usá-lo (não existe, desativado, fora da validade, esgotado)"
                    ]) { $1 },
                ], required: ["espacoId", "inicio", "fim", "frequencia", "ocorrencias"]),
            "Serie": object(
                [
                    "id": uuid, "usuarioId": text, "espacoId": uuid, "unidadeId": uuid,
                    "frequencia": ["type": "string", "enum": SerieDeReservas.Frequencia.allCases.map(\.rawValue)],
                    "ocorrencias": array(
                        object(
                            [
                                "numero": ["type": "integer"], "inicio": instant, "fim": instant,
                                "reservaId": uuid.merging(["description": "a reserva desta ocorrência (ausente: recusada)"]) { $1 },
                                "status": ["type": "string", "enum": Reserva.Status.allCases.map(\.rawValue)],
                                "total": money,
                                "recusa": object(
                                    ["codigo": text, "mensagem": text], required: ["codigo", "mensagem"]
                                ).merging(["description": "por que esta ocorrência não foi reservada (o erro que a reserva teria dado)"]) { $1 },
                            ], required: ["numero", "inicio", "fim"])),
                    "reservadas": ["type": "integer"], "recusadas": ["type": "integer"], "criadaEm": instant, "canceladaEm": instant,
                    "ultimoCancelamento": object(
                        ["em": instant, "aPartirDe": ["type": "integer"], "reservas": array(uuid)], required: ["em", "aPartirDe", "reservas"]
                    ).merging(["description": "o último cancelamento da série: a partir de que ocorrência, e as reservas que cancelou"]) { $1 },
                    "ultimaRemarcacao": object(
                        ["em": instant, "aPartirDe": ["type": "integer"], "reservas": array(uuid)], required: ["em", "aPartirDe", "reservas"]
                    ).merging(["description": "a última mudança de horário da série: a partir de que ocorrência, e as reservas que mudou"]) { $1 },
                ], required: ["id", "usuarioId", "espacoId", "frequencia", "ocorrencias", "reservadas", "recusadas", "criadaEm"]),
            "RemarcacaoDeSerie": object(
                [
                    "aPartirDe": [
                        "type": "integer", "minimum": 1,
                        "description": "a ocorrência que vai para inicio–fim; as seguintes vão para o mesmo horário local, com o mesmo "
                            + "deslocamento de dias (0 a 6; a série de segunda a sexta só muda de horário). As já iniciadas, com check-in, "
                            + "encerradas ou canceladas ficam como estão",
                    ],
                    "inicio": instant.merging(["description": "o novo início da ocorrência aPartirDe"]) { $1 },
                    "fim": instant.merging(["description": "o novo fim: a duração é a das reservas (422 em `fim` se não for)"]) { $1 },
                ], required: ["aPartirDe", "inicio", "fim"]),
            "CancelamentoDeSerie": object(
                [
                    "aPartirDe": [
                        "type": "integer", "minimum": 1,
                        "description": "a primeira ocorrência a cancelar (padrão: 1); as já iniciadas, encerradas ou canceladas ficam como estão",
                    ],
                    "motivo": texto500,
                    "aplicarMulta": [
                        "type": "boolean",
                        "description": "só administradores: ao cancelar a série de outra pessoa, true aplica a política da unidade a cada "
                            + "reserva (o padrão devolve tudo, pois quem cancela é o operador)",
                    ],
                ], required: []),
            "PaginaDeReservas": page("Reserva"),
            "Confirmacao": object(["pagamentoId": textoLivre(200, description: "o id da própria reserva (outro → 422)")], required: []),
        ]
    }
}
