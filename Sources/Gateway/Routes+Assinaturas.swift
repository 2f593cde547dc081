import App
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
}
