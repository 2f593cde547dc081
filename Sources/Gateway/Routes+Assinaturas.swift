import App
import Domain
import Hummingbird
import Services

extension Routes {
    /// The credits members hold: theirs to read, an operator's to adjust.
    static func assinaturas(_ api: API, _ backend: Backend) {
        let assinaturas = backend.negocio.assinaturas
        api.add(
            Operation(
                method: .get, path: "/api/creditos", summary: "Meus créditos: o saldo e os lotes (horas ou valor)", tag: "assinaturas", auth: true,
                response: "Carteira")
        ) { _, context, _ in
            try .json(try await assinaturas.carteira(titular: try context.requireUser().usuario))
        }
        api.add(
            Operation(
                method: .get, path: "/api/creditos/extrato", summary: "O extrato dos meus créditos (os mais recentes primeiro)", tag: "assinaturas",
                auth: true, response: "PaginaDeMovimentos", errors: [400], query: [.pagina])
        ) { request, context, _ in
            try .json(try await assinaturas.extrato(titular: try context.requireUser().usuario, pagina: try Query.page(request)))
        }
        api.add(
            Operation(
                method: .get, path: "/api/admin/usuarios/{id}/creditos", summary: "Os créditos de um membro", tag: "assinaturas", auth: true,
                admin: true, response: "Carteira", errors: [404])
        ) { _, context, _ in
            try .json(try await assinaturas.carteira(usuario: try context.parameters.require("id")))
        }
        api.add(
            Operation(
                method: .get, path: "/api/admin/usuarios/{id}/creditos/extrato", summary: "O extrato dos créditos de um membro", tag: "assinaturas",
                auth: true, admin: true, response: "PaginaDeMovimentos", errors: [400, 404], query: [.pagina])
        ) { request, context, _ in
            try .json(try await assinaturas.extrato(usuario: try context.parameters.require("id"), pagina: try Query.page(request)))
        }
        api.add(
            Operation(
                method: .post, path: "/api/admin/usuarios/{id}/creditos/ajustes",
                summary: "Ajustar os créditos de um membro: somar um lote ou retirar, com motivo (auditado)", tag: "assinaturas", auth: true,
                admin: true, request: "AjusteDeCreditos", response: "Carteira", success: 201, errors: [404, 409, 422])
        ) { _, context, body in
            let pedido = try JSON.decode(AssinaturasService.PedidoDeAjuste.self, from: body)
            return try .json(try await assinaturas.ajustarCreditos(try context.parameters.require("id"), pedido, caller: context.caller), status: 201)
        }
    }

    /// Plans (operators define them, anyone reads those on sale) and members' subscriptions.
    static func planos(_ api: API, _ backend: Backend) {
        let assinaturas = backend.negocio.assinaturas
        api.add(
            Operation(
                method: .get, path: "/api/planos", summary: "Os planos à venda (por nome)", tag: "assinaturas", response: "PaginaDePlanos",
                errors: [400], query: [.pagina])
        ) { request, _, _ in
            try .json(try await assinaturas.planos(pagina: try Query.page(request), todos: false))
        }
        api.add(
            Operation(
                method: .get, path: "/api/planos/{id}", summary: "Um plano à venda, com suas versões", tag: "assinaturas", response: "Plano",
                errors: [404])
        ) { _, context, _ in
            try .json(try await assinaturas.plano(try context.parameters.require("id"), todos: false))
        }
        api.add(
            Operation(
                method: .get, path: "/api/admin/planos", summary: "Todos os planos, também os arquivados", tag: "assinaturas", auth: true,
                admin: true, response: "PaginaDePlanos", errors: [400], query: [.pagina])
        ) { request, _, _ in
            try .json(try await assinaturas.planos(pagina: try Query.page(request), todos: true))
        }
        api.add(
            Operation(
                method: .get, path: "/api/admin/planos/{id}", summary: "Um plano, com suas versões", tag: "assinaturas", auth: true, admin: true,
                response: "Plano", errors: [404])
        ) { _, context, _ in
            try .json(try await assinaturas.plano(try context.parameters.require("id"), todos: true))
        }
        api.add(
            Operation(
                method: .post, path: "/api/admin/planos",
                summary: "Criar um plano: mensalidade, adesão, créditos por ciclo, roll-over, acesso e desconto", tag: "assinaturas", auth: true,
                admin: true, request: "NovoPlano", response: "Plano", success: 201, errors: [409, 422])
        ) { _, context, body in
            let pedido = try JSON.decode(AssinaturasService.PedidoDePlano.self, from: body)
            return try .json(try await assinaturas.criarPlano(pedido, caller: context.caller), status: 201)
        }
        api.add(
            Operation(
                method: .post, path: "/api/admin/planos/{id}/versoes",
                summary: "Nova versão dos termos de um plano, a partir de uma data (vale para os ciclos que começam nela ou depois)",
                tag: "assinaturas", auth: true, admin: true, request: "VersaoDePlano", response: "Plano", success: 201, errors: [404, 409, 422])
        ) { _, context, body in
            let pedido = try JSON.decode(AssinaturasService.PedidoDePlano.self, from: body)
            return try .json(
                try await assinaturas.revisarPlano(try context.parameters.require("id"), pedido, caller: context.caller), status: 201)
        }
        api.add(
            Operation(
                method: .post, path: "/api/admin/planos/{id}/arquivamento",
                summary: "Arquivar um plano: sai de venda; as assinaturas em vigor continuam", tag: "assinaturas", auth: true, admin: true,
                response: "Plano", errors: [404])
        ) { _, context, _ in
            try .json(try await assinaturas.arquivarPlano(try context.parameters.require("id"), caller: context.caller))
        }

        // A member's own subscription, and an operator's view of anyone's.
        for (prefixo, admin) in [("/api/assinatura", false), ("/api/admin/usuarios/{id}/assinatura", true)] {
            let quem = admin ? "de um membro" : "minha"
            @Sendable func titular(_ context: GatewayContext) throws -> String {
                admin ? try context.parameters.require("id") : try context.requireUser().usuario
            }
            let naoEncontrado = admin ? [404] : []
            api.add(
                Operation(
                    method: .get, path: prefixo, summary: "A assinatura \(quem): plano, situação, ciclo atual, próxima cobrança e ciclos",
                    tag: "assinaturas", auth: true, admin: admin, response: "Assinatura",
                    vazio: admin ? "o membro nunca assinou um plano" : "você nunca assinou um plano", errors: naoEncontrado)
            ) { _, context, _ in
                try .jsonOrNoContent(try await assinaturas.assinatura(usuario: try titular(context)))
            }
            api.add(
                Operation(
                    method: .post, path: prefixo,
                    summary: "Assinar um plano: início (hoje ou até 90 dias adiante), método de cobrança; o primeiro mês é proporcional",
                    tag: "assinaturas", auth: true, admin: admin, request: "NovaAssinatura", response: "Assinatura", success: 201,
                    errors: naoEncontrado + [409, 422])
            ) { _, context, body in
                let pedido = try JSON.decode(AssinaturasService.PedidoDeAssinatura.self, from: body)
                return try .json(try await assinaturas.assinar(try titular(context), pedido, caller: context.caller), status: 201)
            }
            api.add(
                Operation(
                    method: .post, path: prefixo + "/troca",
                    summary: "Trocar de plano: um plano mais caro vale já (a diferença do resto do ciclo é cobrada); outro, no fim do ciclo",
                    tag: "assinaturas", auth: true, admin: admin, request: "TrocaDePlano", response: "Assinatura", errors: [404, 409, 422])
            ) { _, context, body in
                let pedido = try JSON.decode(AssinaturasService.PedidoDeTroca.self, from: body)
                return try .json(try await assinaturas.trocarPlano(try titular(context), pedido, caller: context.caller))
            }
            api.add(
                Operation(
                    method: .put, path: prefixo + "/cobranca",
                    summary:
                        "Trocar a forma de pagamento (um novo cartão depois de uma recusa, outro método): um ciclo com a cobrança recusada é cobrado de novo na hora",
                    tag: "assinaturas", auth: true, admin: admin, request: "FormaDeCobranca", response: "Assinatura", errors: [404, 409, 422])
            ) { _, context, body in
                let pedido = try JSON.decode(AssinaturasService.PedidoDeCobranca.self, from: body)
                return try .json(try await assinaturas.alterarCobranca(try titular(context), pedido, caller: context.caller))
            }
            for acao in AssinaturasService.Acao.allCases {
                let resumo: String
                switch acao {
                case .cancelar: resumo = "Cancelar a assinatura no fim do ciclo (antes do início: já)"
                case .pausar: resumo = "Pausar a assinatura a partir do fim do ciclo"
                case .retomar: resumo = "Retomar uma assinatura pausada (um novo ciclo proporcional começa hoje) ou desfazer a pausa agendada"
                case .desfazerCancelamento: resumo = "Desfazer o cancelamento agendado"
                case .desfazerTroca: resumo = "Desfazer a troca de plano agendada"
                }
                api.add(
                    Operation(
                        method: .post, path: prefixo + "/" + acao.rawValue, summary: resumo, tag: "assinaturas", auth: true, admin: admin,
                        response: "Assinatura", errors: [404, 409])
                ) { _, context, _ in
                    try .json(try await assinaturas.agir(try titular(context), acao, caller: context.caller))
                }
            }
        }
        api.add(
            Operation(
                method: .post, path: "/api/admin/usuarios/{id}/assinatura/ciclos/{numero}/pagamento",
                summary: "Dar baixa manual no pagamento de um ciclo (transferência, dinheiro): reativa uma assinatura suspensa",
                tag: "assinaturas", auth: true, admin: true, response: "Assinatura", errors: [404])
        ) { _, context, _ in
            let texto = try context.parameters.require("numero")
            guard let numero = Int(texto), (1...100_000).contains(numero) else {
                throw ServiceError.naoEncontrado("a assinatura não tem o ciclo \(texto.prefix(20))")
            }
            return try .json(try await assinaturas.registrarPagamento(try context.parameters.require("id"), ciclo: numero, caller: context.caller))
        }
        api.add(
            Operation(
                method: .get, path: "/api/admin/assinaturas", summary: "As assinaturas (por membro), com situação e próxima cobrança",
                tag: "assinaturas", auth: true, admin: true, response: "PaginaDeAssinaturas", errors: [400],
                query: [
                    .pagina,
                    QueryParameter(
                        name: "status", description: "só as nesta situação",
                        form: .choice(["agendada", "ativa", "pausada", "suspensa", "encerrada"])),
                ])
        ) { request, _, _ in
            let status = try request.uri.queryParameters.get("status").map { texto in
                guard let status = Assinatura.Status(rawValue: texto) else {
                    throw ServiceError.requisicaoInvalida("status deve ser agendada, ativa, pausada, suspensa ou encerrada")
                }
                return status
            }
            return try .json(try await assinaturas.assinaturas(pagina: try Query.page(request), status: status))
        }
    }
}
