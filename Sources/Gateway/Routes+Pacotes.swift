import App
import Domain
import Hummingbird
import Services

extension Routes {
    /// Bundles of credits sold without a plan (operators define them, members buy them) and
    /// members' purchases.
    static func pacotes(_ api: API, _ backend: Backend) {
        let assinaturas = backend.negocio.assinaturas
        api.add(
            Operation(
                method: .get, path: "/api/pacotes", summary: "Os pacotes de créditos à venda, sem plano (horas, passes diários)", tag: "assinaturas",
                response: "PaginaDePacotes", errors: [400], query: [.pagina])
        ) { request, _, _ in
            try .json(try await assinaturas.pacotes(pagina: try Query.page(request), todos: false))
        }
        api.add(
            Operation(
                method: .get, path: "/api/pacotes/compras", summary: "Minhas compras de pacotes (as mais recentes primeiro)", tag: "assinaturas",
                auth: true, response: "PaginaDeComprasDePacotes", errors: [400], query: [.pagina])
        ) { request, context, _ in
            try .json(try await assinaturas.compras(usuario: try context.requireUser().usuario, pagina: try Query.page(request)))
        }
        api.add(
            Operation(
                method: .get, path: "/api/pacotes/compras/{id}",
                summary: "Uma compra minha: a cobrança (PIX, boleto) enquanto pendente, os créditos depois de paga", tag: "assinaturas", auth: true,
                response: "CompraDePacote", errors: [404])
        ) { _, context, _ in
            try .json(try await assinaturas.compra(usuario: try context.requireUser().usuario, try context.parameters.require("id")))
        }
        api.add(
            Operation(
                method: .get, path: "/api/pacotes/{id}", summary: "Um pacote à venda", tag: "assinaturas", response: "Pacote", errors: [404])
        ) { _, context, _ in
            try .json(try await assinaturas.pacote(try context.parameters.require("id"), todos: false))
        }
        api.add(
            Operation(
                method: .post, path: "/api/pacotes/{id}/compras",
                summary: "Comprar um pacote: a cobrança é feita no provedor; os créditos chegam quando o pagamento é confirmado",
                tag: "assinaturas", auth: true, request: "NovaCompraDePacote", response: "CompraDePacote", success: 201, errors: [404, 409, 422])
        ) { _, context, body in
            let pedido = try JSON.decode(AssinaturasService.PedidoDeCompra.self, from: body)
            return try .json(
                try await assinaturas.comprarPacote(
                    try context.requireUser().usuario, try context.parameters.require("id"), pedido, caller: context.caller), status: 201)
        }
        api.add(
            Operation(
                method: .get, path: "/api/admin/pacotes", summary: "Todos os pacotes, também os arquivados", tag: "assinaturas", auth: true,
                admin: true, response: "PaginaDePacotes", errors: [400], query: [.pagina])
        ) { request, _, _ in
            try .json(try await assinaturas.pacotes(pagina: try Query.page(request), todos: true))
        }
        api.add(
            Operation(
                method: .post, path: "/api/admin/pacotes",
                summary: "Criar um pacote: horas (ou valor) de créditos, tipos de espaço, validade em dias e preço", tag: "assinaturas",
                auth: true, admin: true, request: "NovoPacote", response: "Pacote", success: 201, errors: [409, 422])
        ) { _, context, body in
            let pedido = try JSON.decode(AssinaturasService.PedidoDePacote.self, from: body)
            return try .json(try await assinaturas.criarPacote(pedido, caller: context.caller), status: 201)
        }
        api.add(
            Operation(
                method: .get, path: "/api/admin/usuarios/{id}/pacotes/compras",
                summary: "As compras de pacotes de um membro (as mais recentes primeiro)", tag: "assinaturas", auth: true, admin: true,
                response: "PaginaDeComprasDePacotes", errors: [400, 404], query: [.pagina])
        ) { request, context, _ in
            try .json(try await assinaturas.compras(usuario: try context.parameters.require("id"), pagina: try Query.page(request)))
        }
        api.add(
            Operation(
                method: .post, path: "/api/admin/pacotes/compras/{id}/reembolso",
                summary:
                    "Reembolsar uma compra paga: os créditos restantes saem da carteira, o valor volta pelo provedor e a nota de crédito é emitida",
                tag: "assinaturas", auth: true, admin: true, request: "ReembolsoDeCompra", response: "CompraDePacote", errors: [404, 409, 422])
        ) { _, context, body in
            let pedido = try JSON.decode(AssinaturasService.PedidoDeReembolso.self, from: body)
            return try .json(try await assinaturas.reembolsarCompra(try context.parameters.require("id"), pedido, caller: context.caller))
        }
        api.add(
            Operation(
                method: .post, path: "/api/admin/pacotes/{id}/arquivamento",
                summary: "Arquivar um pacote: sai de venda; os créditos já comprados continuam", tag: "assinaturas", auth: true, admin: true,
                response: "Pacote", errors: [404])
        ) { _, context, _ in
            try .json(try await assinaturas.arquivarPacote(try context.parameters.require("id"), caller: context.caller))
        }
    }
}
