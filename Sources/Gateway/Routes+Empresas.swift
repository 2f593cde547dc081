import App
import Domain
import Hummingbird
import Services

extension Routes {
    /// Company accounts: operators register them; their managers invite people, change roles
    /// and remove people; a member sees their company and accepts an invitation by its link.
    static func empresas(_ api: API, _ backend: Backend) {
        let assinaturas = backend.negocio.assinaturas
        api.add(
            Operation(
                method: .post, path: "/api/admin/empresas", summary: "Cadastrar uma empresa (CNPJ validado), com o primeiro gestor",
                tag: "assinaturas", auth: true, admin: true, request: "EmpresaNova", response: "Empresa", success: 201, errors: [409, 422])
        ) { _, context, body in
            let pedido = try JSON.decode(AssinaturasService.PedidoDeEmpresa.self, from: body)
            return try .json(try await assinaturas.cadastrarEmpresa(pedido, caller: context.caller), status: 201)
        }
        api.add(
            Operation(
                method: .get, path: "/api/admin/empresas", summary: "As empresas (por nome)", tag: "assinaturas", auth: true, admin: true,
                response: "PaginaDeEmpresas", errors: [400], query: [.pagina])
        ) { request, _, _ in
            try .json(try await assinaturas.empresas(pagina: try Query.page(request)))
        }
        api.add(
            Operation(
                method: .get, path: "/api/empresa", summary: "Minha empresa (aos gestores, também as pessoas e os convites)", tag: "assinaturas",
                auth: true, response: "Empresa", vazio: "você não faz parte de uma empresa")
        ) { _, context, _ in
            _ = try context.requireUser()
            return try .jsonOrNoContent(try await assinaturas.minhaEmpresa(caller: context.caller))
        }
        api.add(
            Operation(
                method: .get, path: "/api/empresas/{id}", summary: "Uma empresa, para as pessoas dela e os operadores", tag: "assinaturas",
                auth: true, response: "Empresa", errors: [404])
        ) { _, context, _ in
            try .json(try await assinaturas.empresa(try context.parameters.require("id"), caller: context.caller))
        }
        api.add(
            Operation(
                method: .put, path: "/api/empresas/{id}", summary: "Atualizar o cadastro da empresa (gestores e operadores; o CNPJ não muda)",
                tag: "assinaturas", auth: true, request: "EmpresaNova", response: "Empresa", errors: [403, 404, 422])
        ) { _, context, body in
            let pedido = try JSON.decode(AssinaturasService.PedidoDeEmpresa.self, from: body)
            return try .json(try await assinaturas.atualizarEmpresa(try context.parameters.require("id"), pedido, caller: context.caller))
        }
        api.add(
            Operation(
                method: .post, path: "/api/empresas/{id}/convites",
                summary: "Convidar alguém por e-mail (um link que vale \(Empresa.validadeDoConviteEmDias) dias)", tag: "assinaturas", auth: true,
                request: "ConviteNovo", response: "ConviteCriado", success: 201, errors: [403, 404, 409, 422])
        ) { _, context, body in
            let pedido = try JSON.decode(AssinaturasService.PedidoDeConvite.self, from: body)
            return try .json(try await assinaturas.convidar(try context.parameters.require("id"), pedido, caller: context.caller), status: 201)
        }
        api.add(
            Operation(
                method: .delete, path: "/api/empresas/{id}/convites/{conviteId}", summary: "Revogar um convite", tag: "assinaturas", auth: true,
                response: "Empresa", errors: [403, 404])
        ) { _, context, _ in
            try .json(
                try await assinaturas.revogarConvite(
                    try context.parameters.require("id"), conviteId: try context.parameters.require("conviteId"), caller: context.caller))
        }
        api.add(
            Operation(
                method: .put, path: "/api/empresas/{id}/integrantes/{usuarioId}/papel", summary: "Tornar alguém gestor ou membro",
                tag: "assinaturas", auth: true, request: "PapelNaEmpresa", response: "Empresa", errors: [403, 404, 409, 422])
        ) { _, context, body in
            let pedido = try JSON.decode(AssinaturasService.PedidoDePapel.self, from: body)
            return try .json(
                try await assinaturas.definirPapel(
                    try context.parameters.require("id"), usuario: try context.parameters.require("usuarioId"), pedido, caller: context.caller))
        }
        api.add(
            Operation(
                method: .put, path: "/api/empresas/{id}/integrantes/{usuarioId}/limite",
                summary: "O limite mensal de alguém nos créditos compartilhados (minutos e/ou centavos; ausente: sem limite)", tag: "assinaturas",
                auth: true, request: "LimiteMensal", response: "Empresa", errors: [403, 404, 422])
        ) { _, context, body in
            let pedido = try JSON.decode(AssinaturasService.PedidoDeLimite.self, from: body)
            return try .json(
                try await assinaturas.definirLimite(
                    try context.parameters.require("id"), usuario: try context.parameters.require("usuarioId"), pedido, caller: context.caller))
        }
        api.add(
            Operation(
                method: .delete, path: "/api/empresas/{id}/integrantes/{usuarioId}",
                summary: "Tirar alguém da empresa (gestores e operadores), ou sair dela (a própria pessoa)", tag: "assinaturas", auth: true,
                success: 204, errors: [403, 404, 409])
        ) { _, context, _ in
            try await assinaturas.removerIntegrante(
                try context.parameters.require("id"), usuario: try context.parameters.require("usuarioId"), caller: context.caller)
            return Reply(status: 204)
        }
        api.add(
            Operation(
                method: .get, path: "/api/convites/{token}", summary: "Um convite, pelo seu link: a empresa, o papel, a validade",
                tag: "assinaturas", auth: true, response: "ConviteRecebido", errors: [404])
        ) { _, context, _ in
            _ = try context.requireUser()
            return try .json(try await assinaturas.convite(try context.parameters.require("token"), caller: context.caller))
        }
        api.add(
            Operation(
                method: .post, path: "/api/convites/{token}/aceite", summary: "Aceitar um convite: entrar na empresa (uma por pessoa)",
                tag: "assinaturas", auth: true, response: "Empresa", errors: [404, 409])
        ) { _, context, _ in
            _ = try context.requireUser()
            return try .json(try await assinaturas.aceitarConvite(try context.parameters.require("token"), caller: context.caller))
        }
        api.add(
            Operation(
                method: .get, path: "/api/empresas/{id}/assinatura", summary: "A assinatura da empresa (para as pessoas dela e os operadores)",
                tag: "assinaturas", auth: true, response: "Assinatura", vazio: "a empresa nunca assinou um plano", errors: [404])
        ) { _, context, _ in
            try .jsonOrNoContent(try await assinaturas.assinaturaDaEmpresa(try context.parameters.require("id"), caller: context.caller))
        }
        api.add(
            Operation(
                method: .post, path: "/api/empresas/{id}/assinatura",
                summary: "Assinar um plano para a empresa: valor e créditos do plano vezes os assentos, créditos compartilhados",
                tag: "assinaturas", auth: true, request: "NovaAssinatura", response: "Assinatura", success: 201, errors: [403, 404, 409, 422])
        ) { _, context, body in
            let pedido = try JSON.decode(AssinaturasService.PedidoDeAssinatura.self, from: body)
            return try .json(
                try await assinaturas.assinarEmpresa(try context.parameters.require("id"), pedido, caller: context.caller), status: 201)
        }
        api.add(
            Operation(
                method: .post, path: "/api/empresas/{id}/assinatura/troca", summary: "Trocar o plano da empresa", tag: "assinaturas", auth: true,
                request: "TrocaDePlano", response: "Assinatura", errors: [403, 404, 409, 422])
        ) { _, context, body in
            let pedido = try JSON.decode(AssinaturasService.PedidoDeTroca.self, from: body)
            return try .json(try await assinaturas.trocarPlanoDaEmpresa(try context.parameters.require("id"), pedido, caller: context.caller))
        }
        api.add(
            Operation(
                method: .put, path: "/api/empresas/{id}/assinatura/cobranca",
                summary: "Trocar a forma de pagamento da empresa: um ciclo com a cobrança recusada é cobrado de novo na hora", tag: "assinaturas",
                auth: true, request: "FormaDeCobranca", response: "Assinatura", errors: [403, 404, 409, 422])
        ) { _, context, body in
            let pedido = try JSON.decode(AssinaturasService.PedidoDeCobranca.self, from: body)
            return try .json(try await assinaturas.alterarCobrancaDaEmpresa(try context.parameters.require("id"), pedido, caller: context.caller))
        }
        for acao in AssinaturasService.Acao.allCases {
            api.add(
                Operation(
                    method: .post, path: "/api/empresas/{id}/assinatura/\(acao.rawValue)",
                    summary: "Assinatura da empresa: \(acao.rawValue.replacingOccurrences(of: "-", with: " "))", tag: "assinaturas", auth: true,
                    response: "Assinatura", errors: [403, 404, 409])
            ) { _, context, _ in
                try .json(try await assinaturas.agirEmpresa(try context.parameters.require("id"), acao, caller: context.caller))
            }
        }
        api.add(
            Operation(
                method: .post, path: "/api/empresas/{id}/assinatura/ciclos/{numero}/pagamento",
                summary: "Dar baixa manual no pagamento de um ciclo da empresa (transferência, dinheiro)", tag: "assinaturas", auth: true,
                admin: true, response: "Assinatura", errors: [404])
        ) { _, context, _ in
            let texto = try context.parameters.require("numero")
            guard let numero = Int(texto), (1...100_000).contains(numero) else {
                throw ServiceError.naoEncontrado("a assinatura não tem o ciclo \(texto.prefix(20))")
            }
            return try .json(
                try await assinaturas.registrarPagamentoDaEmpresa(try context.parameters.require("id"), ciclo: numero, caller: context.caller))
        }
        api.add(
            Operation(
                method: .get, path: "/api/empresas/{id}/uso",
                summary: "O uso dos créditos compartilhados no mês, por pessoa (os gestores veem todos; um membro, o seu)", tag: "assinaturas",
                auth: true, response: "UsoDaEmpresa", errors: [400, 404],
                query: [
                    QueryParameter(
                        name: "mes", description: "AAAA-MM (padrão: o mês atual)", form: .text(7...7, pattern: "^2[0-9]{3}-(0[1-9]|1[0-2])$"))
                ])
        ) { request, context, _ in
            try .json(
                try await assinaturas.usoDaEmpresa(
                    try context.parameters.require("id"), mes: request.uri.queryParameters.get("mes"), caller: context.caller))
        }
        api.add(
            Operation(
                method: .get, path: "/api/empresas/{id}/creditos", summary: "Os créditos compartilhados da empresa", tag: "assinaturas",
                auth: true, response: "Carteira", errors: [404])
        ) { _, context, _ in
            try .json(try await assinaturas.carteiraDaEmpresa(try context.parameters.require("id"), caller: context.caller))
        }
    }
}
