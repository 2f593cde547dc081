import App
import Domain
import Foundation
import HTTPTypes
import Hummingbird
import Integrations
import Projections
import Services

struct MotivoDeRecusa: Decodable { let motivo: String? }

/// pagamentos (the booking's payment, the provider's webhook, the sandbox's tester routes)
/// and notificacoes (the in-app inbox).
extension Routes {
    static func pagamentos(_ api: API, _ backend: Backend) {
        let pagamentos = backend.negocio.pagamentos
        api.add(
            Operation(
                method: .get, path: "/api/reservas/{id}/pagamento",
                summary: "O pagamento de uma reserva: PIX copia-e-cola, linha do boleto, situação e reembolsos", tag: "pagamentos", auth: true,
                response: "Pagamento", errors: [404])
        ) { _, context, _ in
            let user = try context.requireUser()
            return try .json(
                try await pagamentos.pagamento(reserva: try context.parameters.require("id"), usuario: user.usuario, admin: user.papel == "admin"))
        }
        api.add(
            Operation(
                method: .post, path: "/api/pagamentos/webhooks/sandbox",
                summary: "Webhook do provedor (sandbox): assinado com HMAC-SHA256 em X-Sandbox-Signature (t=<segundos>,v1=<hex>)",
                tag: "pagamentos", request: "AvisoDoProvedor", response: "RespostaDoWebhook", errors: [400, 401, 404, 409, 422], openBody: true)
        ) { request, context, body in
            let assinatura = HTTPField.Name(AssinaturaDeWebhook.cabecalho).flatMap { request.headers[$0] }
            return try .json(try await pagamentos.receberAviso(body, assinatura: assinatura, caller: context.caller))
        }
        guard let sandbox = backend.negocio.testador else { return }
        api.add(
            Operation(
                method: .get, path: "/api/sandbox/cobrancas/{id}", summary: "Sandbox: uma cobrança como o provedor a vê", tag: "sandbox",
                response: "CobrancaSandbox", errors: [404], forwarded: true)
        ) { _, context, _ in
            guard let cobranca = try await sandbox.consultar(try context.parameters.require("id")) else {
                throw ServiceError.naoEncontrado("cobrança desconhecida")
            }
            return try .json(cobranca)
        }
        api.add(
            Operation(
                method: .post, path: "/api/sandbox/cobrancas/{id}/pagamento",
                summary: "Sandbox: pagar uma cobrança pendente (o provedor avisa pelo webhook)", tag: "sandbox", response: "CobrancaSandbox",
                errors: [404, 409])
        ) { _, context, _ in
            do {
                return try .json(try await sandbox.pagar(try context.parameters.require("id")))
            } catch let falha as SandboxPSP.Falha {
                throw sandboxError(falha)
            }
        }
        api.add(
            Operation(
                method: .post, path: "/api/sandbox/cobrancas/{id}/recusa", summary: "Sandbox: recusar uma cobrança pendente", tag: "sandbox",
                request: "MotivoDeRecusa", response: "CobrancaSandbox", errors: [404, 409, 422])
        ) { _, context, body in
            let motivo = body.isEmpty ? nil : try JSON.decode(MotivoDeRecusa.self, from: body).motivo
            try ServiceError.texto(motivo, campo: "motivo", maximo: 500)
            do {
                return try .json(try await sandbox.recusar(try context.parameters.require("id"), motivo: motivo ?? "recusado no sandbox"))
            } catch let falha as SandboxPSP.Falha {
                throw sandboxError(falha)
            }
        }
    }

    /// A sandbox refusal as the API answers it (the tester routes and the sandbox server).
    static func sandboxError(_ falha: SandboxPSP.Falha) -> ServiceError {
        switch falha {
        case .cobrancaDesconhecida: .naoEncontrado("cobrança desconhecida")
        default: .conflito("cobranca_indisponivel", falha.description)
        }
    }

    static func notificacoes(_ api: API, _ backend: Backend) {
        let notificacoes = backend.negocio.notificacoes
        api.add(
            Operation(
                method: .get, path: "/api/notificacoes", summary: "Minhas notificações (as mais recentes primeiro)", tag: "notificacoes",
                auth: true, response: "PaginaDeNotificacoes", errors: [400], query: [.pagina])
        ) { request, context, _ in
            try .json(try await notificacoes.caixaDeEntrada(usuario: try context.requireUser().usuario, pagina: try Query.page(request)))
        }
        api.add(
            Operation(
                method: .post, path: "/api/notificacoes/leitura", summary: "Marcar como lidas todas as minhas notificações até agora",
                tag: "notificacoes",
                auth: true, success: 204)
        ) { _, context, _ in
            try await notificacoes.marcarComoLidas(usuario: try context.requireUser().usuario, caller: context.caller)
            return Reply(status: 204)
        }
    }
}
