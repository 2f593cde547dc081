import App
import Domain
import Foundation
import Hummingbird
import Projections
import Services

struct MotivoBody: Decodable { let motivo: String? }
struct CancelamentoBody: Decodable {
    let motivo: String?
    let aplicarMulta: Bool?
}
struct ConfirmacaoBody: Decodable { let pagamentoId: String? }
struct RemarcacaoBody: Decodable {
    let inicio: Date
    let fim: Date
}
struct RemarcacaoDeSerieBody: Decodable {
    let aPartirDe: Int
    let inicio: Date
    let fim: Date
}
struct CancelamentoDeSerieBody: Decodable {
    let aPartirDe: Int?
    let motivo: String?
    let aplicarMulta: Bool?
}

/// espacos, precos and reservas. Catalog queries are public; booking needs a member; the
/// operator's commands need an admin.
extension Routes {
    static func espacos(_ api: API, _ backend: Backend) {
        let espacos = backend.espacos
        api.add(
            Operation(
                method: .get, path: "/api/unidades", summary: "Unidades (paginadas, por nome; busca por nome ou endereço)", tag: "espacos",
                response: "PaginaDeUnidades", errors: [400],
                query: [
                    QueryParameter(
                        name: "busca", description: "parte do nome, da rua, do bairro, da cidade ou da UF (sem diferença de maiúsculas e acentos)",
                        form: .text(0...100)), .pagina,
                ])
        ) { request, _, _ in
            let busca = request.uri.queryParameters.get("busca")
            if let busca, busca.unicodeScalars.count > 100 {
                throw ServiceError.requisicaoInvalida("'busca' deve ter até 100 caracteres", detalhes: ["campo": "busca"])
            }
            return try .json(try await espacos.unidadesCadastradas(pagina: try Query.page(request), busca: busca))
        }
        api.add(
            Operation(
                method: .post, path: "/api/admin/unidades", summary: "Cadastrar uma unidade", tag: "espacos", auth: true, admin: true,
                request: "NovaUnidade", response: "Unidade", success: 201, errors: [422])
        ) { _, context, body in
            try .json(
                try await espacos.cadastrarUnidade(try JSON.decode(EspacosService.NovaUnidade.self, from: body), caller: context.caller), status: 201)
        }
        api.add(
            Operation(
                method: .patch, path: "/api/admin/unidades/{id}", summary: "Alterar uma unidade (campos ausentes ficam como estão)", tag: "espacos",
                auth: true, admin: true, request: "AlteracaoDeUnidade", response: "Unidade", errors: [404, 422])
        ) { _, context, body in
            try JSON.onlyKeys(body, ["nome", "endereco", "fusoHorario", "politicaDeCancelamento", "operacao"])
            return try .json(
                try await espacos.atualizarUnidade(
                    try context.parameters.require("id"), try JSON.decode(EspacosService.AlteracaoDeUnidade.self, from: body), caller: context.caller)
            )
        }
        api.add(
            Operation(
                method: .get, path: "/api/espacos", summary: "Catálogo de espaços ativos, com filtros", tag: "espacos",
                response: "PaginaDoCatalogo", errors: [400, 404],
                query: [
                    .id("unidade", "id da unidade"),
                    QueryParameter(name: "tipo", description: "o tipo de espaço", form: .choice(Espaco.Tipo.allCases.map(\.rawValue))),
                    QueryParameter(name: "capacidade", description: "capacidade mínima", form: .integer(1...Int.max)),
                    QueryParameter(
                        name: "comodidade", description: "uma comodidade, ex.: projetor ('+' vale como espaço)",
                        form: .text(1...100, pattern: "[^\\s+]")),
                    .pagina,
                ])
        ) { request, _, _ in
            let query = request.uri.queryParameters
            var filtro = EspacosService.Filtro(unidade: try Query.id(request, "unidade"), comodidade: query.get("comodidade"))
            if let comodidade = filtro.comodidade, EspacosService.comodidadeComparavel(comodidade).isEmpty || comodidade.count > 100 {
                throw ServiceError.requisicaoInvalida("'comodidade' deve ter de 1 a 100 caracteres, ex.: projetor", detalhes: ["campo": "comodidade"])
            }
            if let unidade = filtro.unidade { try await espacos.exigirUnidade(unidade) }
            if let tipo = query.get("tipo") {
                guard let value = Espaco.Tipo(rawValue: tipo) else {
                    throw ServiceError.requisicaoInvalida(
                        "'tipo' deve ser um de: \(Espaco.Tipo.allCases.map(\.rawValue).joined(separator: ", "))", detalhes: ["campo": "tipo"])
                }
                filtro.tipo = value
            }
            if let capacidade = query.get("capacidade") {
                guard let value = Int(capacidade), value >= 1 else {
                    throw ServiceError.requisicaoInvalida("'capacidade' deve ser um inteiro ≥ 1", detalhes: ["campo": "capacidade"])
                }
                filtro.capacidadeMinima = value
            }
            return Reply(status: 200, body: try await espacos.catalogoJSON(filtro, pagina: try Query.page(request)))
        }
        api.add(
            Operation(
                method: .get, path: "/api/espacos/{id}", summary: "Um espaço, com sua unidade e seus preços", tag: "espacos",
                response: "ItemDoCatalogo", errors: [404])
        ) { _, context, _ in
            try .json(try await espacos.detalhe(try context.parameters.require("id")))
        }
        api.add(
            Operation(
                method: .get, path: "/api/espacos/{id}/disponibilidade", summary: "Intervalos livres de um espaço numa data local",
                tag: "espacos", response: "Disponibilidade", errors: [400, 404],
                query: [.date("data", "AAAA-MM-DD, no fuso da unidade", required: true)])
        ) { request, context, _ in
            guard let data = request.uri.queryParameters.get("data") else {
                throw ServiceError.requisicaoInvalida("informe 'data' (AAAA-MM-DD)", detalhes: ["campo": "data"])
            }
            return try .json(try await espacos.disponibilidade(try context.parameters.require("id"), data: data))
        }
        api.add(
            Operation(
                method: .post, path: "/api/admin/espacos", summary: "Cadastrar um espaço numa unidade", tag: "espacos", auth: true, admin: true,
                request: "NovoEspaco", response: "Espaco", success: 201, errors: [422])
        ) { _, context, body in
            try .json(
                try await espacos.cadastrarEspaco(try JSON.decode(EspacosService.NovoEspaco.self, from: body), caller: context.caller), status: 201)
        }
        api.add(
            Operation(
                method: .patch, path: "/api/admin/espacos/{id}", summary: "Alterar um espaço (campos ausentes ficam como estão)", tag: "espacos",
                auth: true, admin: true, request: "AlteracaoDeEspaco", response: "Espaco", errors: [404, 409, 422])
        ) { _, context, body in
            try JSON.onlyKeys(
                body, ["nome", "capacidade", "comodidades", "fotos", "regras"],
                hints: [
                    "tipo": "o tipo de um espaço não muda (as reservas e os preços dependem dele); cadastre outro espaço",
                    "ativo": "use POST /api/admin/espacos/{id}/desativacao ou /reativacao",
                    "horario": "use PUT /api/admin/espacos/{id}/horario",
                    "unidadeId": "um espaço não muda de unidade; cadastre outro espaço",
                ])
            return try .json(
                try await espacos.atualizarEspaco(
                    try context.parameters.require("id"), try JSON.decode(EspacosService.AlteracaoDeEspaco.self, from: body), caller: context.caller))
        }
        api.add(
            Operation(
                method: .put, path: "/api/admin/espacos/{id}/horario", summary: "Definir o horário semanal de funcionamento", tag: "espacos",
                auth: true, admin: true, request: "HorarioSemanal", response: "Espaco", errors: [404, 422])
        ) { _, context, body in
            try .json(
                try await espacos.definirHorario(
                    try context.parameters.require("id"), try JSON.decode(Espaco.HorarioSemanal.self, from: body), caller: context.caller))
        }
        api.add(
            Operation(
                method: .post, path: "/api/admin/espacos/{id}/bloqueios", summary: "Agendar um bloqueio (manutenção, feriado…)", tag: "espacos",
                auth: true, admin: true, request: "NovoBloqueio", response: "Espaco", success: 201, errors: [404, 409, 422])
        ) { _, context, body in
            let id = try context.parameters.require("id")
            let bloqueio = try JSON.decode(EspacosService.NovoBloqueio.self, from: body)
            return try .json(try await espacos.agendarBloqueio(id, bloqueio, caller: context.caller), status: 201)
        }
        api.add(
            Operation(
                method: .delete, path: "/api/admin/espacos/{id}/bloqueios/{bloqueioId}",
                summary: "Remover um bloqueio (uma locação, só antes de começar)", tag: "espacos",
                auth: true, admin: true, response: "Espaco", errors: [404, 409])
        ) { _, context, _ in
            try .json(
                try await espacos.removerBloqueio(
                    try context.parameters.require("id"), bloqueio: try context.parameters.require("bloqueioId"), caller: context.caller))
        }
        api.add(
            Operation(
                method: .get, path: "/api/admin/espacos/{id}/bloqueios",
                summary: "Os bloqueios de um espaço com quem tem cada locação (o catálogo não mostra o locatário)", tag: "espacos",
                auth: true, admin: true, response: "BloqueiosDoEspaco", errors: [404])
        ) { _, context, _ in
            try .json(BloqueiosDoEspaco(bloqueios: try await espacos.bloqueios(try context.parameters.require("id"))))
        }
        api.add(
            Operation(
                method: .get, path: "/api/locacoes", summary: "Minhas locações: as mesas fixas e salas privativas minhas e da minha empresa",
                tag: "espacos", auth: true, response: "MinhasLocacoes")
        ) { _, context, _ in
            try .json(MinhasLocacoes(locacoes: try await espacos.locacoes(de: try context.requireUser().usuario)))
        }
        api.add(
            Operation(
                method: .patch, path: "/api/admin/espacos/{id}/bloqueios/{bloqueioId}",
                summary: "Antecipar o fim de um bloqueio (uma locação encerrada antes do prazo)", tag: "espacos",
                auth: true, admin: true, request: "EncurtamentoDeBloqueio", response: "Espaco", errors: [404, 422])
        ) { _, context, body in
            try .json(
                try await espacos.encurtarBloqueio(
                    try context.parameters.require("id"), bloqueio: try context.parameters.require("bloqueioId"),
                    try JSON.decode(EspacosService.EncurtamentoDeBloqueio.self, from: body), caller: context.caller))
        }
        api.add(
            Operation(
                method: .post, path: "/api/admin/espacos/{id}/desativacao", summary: "Desativar um espaço (não aceita novas reservas)",
                tag: "espacos", auth: true, admin: true, request: "Motivo", response: "Espaco", errors: [404, 409])
        ) { _, context, body in
            let motivo = body.isEmpty ? nil : try JSON.decode(MotivoBody.self, from: body).motivo
            return try .json(try await espacos.desativar(try context.parameters.require("id"), motivo: motivo, caller: context.caller))
        }
        api.add(
            Operation(
                method: .post, path: "/api/admin/espacos/{id}/reativacao", summary: "Reativar um espaço", tag: "espacos", auth: true, admin: true,
                response: "Espaco", errors: [404, 409])
        ) { _, context, _ in
            try .json(try await espacos.reativar(try context.parameters.require("id"), caller: context.caller))
        }
    }

    static func precos(_ api: API, _ backend: Backend) {
        let precos = backend.precos
        api.add(
            Operation(
                method: .get, path: "/api/espacos/{id}/precos", summary: "A tabela de preços de um espaço", tag: "precos",
                response: "TabelaDePreco", errors: [404])
        ) { _, context, _ in
            try .json(try await precos.tabela(try context.parameters.require("id")))
        }
        api.add(
            Operation(
                method: .put, path: "/api/admin/espacos/{id}/precos", summary: "Definir os valores da tabela (as regras continuam)", tag: "precos",
                auth: true, admin: true, request: "ValoresDePreco", response: "TabelaDePreco", errors: [404, 422])
        ) { _, context, body in
            try .json(
                try await precos.definirTabela(
                    try context.parameters.require("id"), try JSON.decode(TabelaDePreco.Valores.self, from: body), caller: context.caller))
        }
        api.add(
            Operation(
                method: .post, path: "/api/admin/espacos/{id}/precos/regras", summary: "Adicionar uma regra de preço", tag: "precos",
                auth: true, admin: true, request: "NovaRegra", response: "RegraDePreco", success: 201, errors: [404, 409, 422])
        ) { _, context, body in
            try .json(try await precos.adicionarRegra(try context.parameters.require("id"), body: body, caller: context.caller), status: 201)
        }
        api.add(
            Operation(
                method: .delete, path: "/api/admin/espacos/{id}/precos/regras/{regraId}", summary: "Remover uma regra de preço", tag: "precos",
                auth: true, admin: true, success: 204, errors: [404, 409])
        ) { _, context, _ in
            try await precos.removerRegra(
                try context.parameters.require("id"), regra: try context.parameters.require("regraId"), caller: context.caller)
            return Reply(status: 204)
        }
        api.add(
            Operation(
                method: .post, path: "/api/admin/cupons", summary: "Criar um cupom (usos máximos garantidos por stream)", tag: "precos",
                auth: true, admin: true, request: "NovoCupom", response: "Cupom", success: 201, errors: [409, 422])
        ) { _, context, body in
            try .json(try await precos.criarCupom(try JSON.decode(PrecosService.NovoCupom.self, from: body), caller: context.caller), status: 201)
        }
        api.add(
            Operation(
                method: .get, path: "/api/admin/cupons/{codigo}", summary: "Um cupom e quantos usos ele tem", tag: "precos", auth: true, admin: true,
                response: "Cupom", errors: [404])
        ) { _, context, _ in
            try .json(try await precos.cupom(try context.parameters.require("codigo")))
        }
        api.add(
            Operation(
                method: .post, path: "/api/admin/cupons/{codigo}/desativacao", summary: "Desativar um cupom", tag: "precos", auth: true, admin: true,
                response: "Cupom", errors: [404])
        ) { _, context, _ in
            try .json(try await precos.desativarCupom(try context.parameters.require("codigo"), caller: context.caller))
        }
        api.add(
            Operation(
                method: .post, path: "/api/admin/cupons/{codigo}/reativacao", summary: "Reativar um cupom desativado", tag: "precos", auth: true,
                admin: true, response: "Cupom", errors: [404])
        ) { _, context, _ in
            try .json(try await precos.reativarCupom(try context.parameters.require("codigo"), caller: context.caller))
        }
        api.add(
            Operation(
                method: .post, path: "/api/precos/cotacao", summary: "Cotar uma reserva: total e linha a linha", tag: "precos",
                request: "PedidoDeCotacao", response: "Cotacao", errors: [401, 403, 422], writes: false)
        ) { _, context, body in
            // With a member's token, the rules of the member's plan apply and their credits pay first.
            let pedido = try JSON.decode(PrecosService.PedidoDeCotacao.self, from: body)
            if let para = pedido.paraUsuarioId, para.lowercased() != context.subject?.usuario.lowercased() {
                // For someone else: theirs, as a booking for them would be (no legacy plan rule).
                let user = try context.requireUser()
                let membro = try await precos.reservaPara(para, por: user.usuario, admin: user.papel == "admin")
                return try .json(try await precos.cotar(pedido, plano: nil, titular: membro))
            }
            return try .json(try await precos.cotar(pedido, plano: context.subject?.plano, titular: context.subject?.usuario))
        }
    }

    /// `aplicarMulta` is an operator's choice (a member's cancellation always follows the policy).
    static func somenteOAdministradorAplicaAMulta(_ aplicarMulta: Bool?, admin: Bool) throws {
        if aplicarMulta != nil, !admin {
            throw ServiceError.invalido(
                "aplicarMulta", "só um administrador escolhe se a multa se aplica; a do membro segue a política da unidade")
        }
    }

    static func reservas(_ api: API, _ backend: Backend) {
        let reservas = backend.reservas
        let espacos = backend.espacos
        api.add(
            Operation(
                method: .post, path: "/api/reservas", summary: "Reservar: segura o horário até o pagamento (expiraEm)", tag: "reservas",
                auth: true, request: "PedidoDeReserva", response: "Reserva", success: 201, errors: [403, 409, 422, 503], contaNoComando: true,
                chaveNoComando: true)
        ) { _, context, body in
            let pedido = try JSON.decode(ReservasService.PedidoDeReserva.self, from: body)
            return try .json(try await reservas.solicitar(pedido, usuario: try context.requireUser().usuario, caller: context.caller), status: 201)
        }
        api.add(
            Operation(
                method: .post, path: "/api/reservas/series",
                summary: "Reservar uma série: o mesmo horário toda semana, a cada duas semanas ou de segunda a sexta, uma reserva por ocorrência",
                tag: "reservas", auth: true, request: "PedidoDeSerie", response: "Serie", success: 201, errors: [403, 409, 422, 503])
        ) { _, context, body in
            let pedido = try JSON.decode(ReservasService.PedidoDeSerie.self, from: body)
            return try .json(
                try await reservas.solicitarSerie(pedido, usuario: try context.requireUser().usuario, caller: context.caller), status: 201)
        }
        api.add(
            Operation(
                method: .get, path: "/api/reservas/series/{id}", summary: "Uma série minha e a situação de cada reserva (admin: qualquer uma)",
                tag: "reservas", auth: true, response: "Serie", errors: [404])
        ) { _, context, _ in
            let user = try context.requireUser()
            return try .json(try await reservas.serie(try context.parameters.require("id"), usuario: user.usuario, admin: user.papel == "admin"))
        }
        api.add(
            Operation(
                method: .post, path: "/api/reservas/series/{id}/cancelamento",
                summary: "Cancelar a série a partir de uma ocorrência: cada reserva ainda por começar, com a política da unidade "
                    + "(o operador que cancela a série de outro devolve tudo, ou aplica a política com aplicarMulta)",
                tag: "reservas", auth: true, request: "CancelamentoDeSerie", response: "Serie", errors: [404, 409, 422, 503])
        ) { _, context, body in
            let user = try context.requireUser()
            let input =
                body.isEmpty
                ? CancelamentoDeSerieBody(aPartirDe: nil, motivo: nil, aplicarMulta: nil) : try JSON.decode(CancelamentoDeSerieBody.self, from: body)
            let admin = user.papel == "admin"
            try Self.somenteOAdministradorAplicaAMulta(input.aplicarMulta, admin: admin)
            return try .json(
                try await reservas.cancelarSerie(
                    try context.parameters.require("id"), aPartirDe: input.aPartirDe, motivo: input.motivo, usuario: user.usuario,
                    admin: admin, aplicarMulta: input.aplicarMulta ?? false, caller: context.caller))
        }
        api.add(
            Operation(
                method: .post, path: "/api/reservas/series/{id}/remarcacao",
                summary: "Mudar o horário da série a partir de uma ocorrência: ela para inicio–fim e cada uma das próximas para o mesmo "
                    + "horário (e o mesmo deslocamento de dias, até 6), todas ou nenhuma, com as regras da remarcação de uma reserva",
                tag: "reservas", auth: true, request: "RemarcacaoDeSerie", response: "Serie", errors: [404, 409, 422, 503])
        ) { _, context, body in
            let user = try context.requireUser()
            let input = try JSON.decode(RemarcacaoDeSerieBody.self, from: body)
            return try .json(
                try await reservas.remarcarSerie(
                    try context.parameters.require("id"), aPartirDe: input.aPartirDe, inicio: input.inicio, fim: input.fim,
                    usuario: user.usuario, admin: user.papel == "admin", caller: context.caller))
        }
        api.add(
            Operation(
                method: .get, path: "/api/reservas", summary: "Minhas reservas (por início)", tag: "reservas", auth: true,
                response: "PaginaDeReservas", errors: [400], query: [.pagina])
        ) { request, context, _ in
            try .json(try await reservas.minhas(usuario: try context.requireUser().usuario, pagina: try Query.page(request)))
        }
        api.add(
            Operation(
                method: .get, path: "/api/reservas/{id}", summary: "Uma reserva minha (admin: qualquer uma)", tag: "reservas", auth: true,
                response: "Reserva", errors: [404])
        ) { _, context, _ in
            let user = try context.requireUser()
            return try .json(try await reservas.reserva(try context.parameters.require("id"), usuario: user.usuario, admin: user.papel == "admin"))
        }
        api.add(
            Operation(
                method: .post, path: "/api/reservas/{id}/cancelamento",
                summary: "Cancelar: o membro paga a multa da política da unidade; o operador que cancela a reserva de outro devolve tudo "
                    + "(ou aplica a política com aplicarMulta)",
                tag: "reservas", auth: true, request: "Cancelamento", response: "Reserva", errors: [404, 409, 422])
        ) { _, context, body in
            let user = try context.requireUser()
            let input = body.isEmpty ? CancelamentoBody(motivo: nil, aplicarMulta: nil) : try JSON.decode(CancelamentoBody.self, from: body)
            let admin = user.papel == "admin"
            try Self.somenteOAdministradorAplicaAMulta(input.aplicarMulta, admin: admin)
            return try .json(
                try await reservas.cancelar(
                    try context.parameters.require("id"), motivo: input.motivo, usuario: user.usuario, admin: admin,
                    aplicarMulta: input.aplicarMulta ?? false, caller: context.caller))
        }
        api.add(
            Operation(
                method: .post, path: "/api/reservas/{id}/remarcacao",
                summary: "Mudar o horário de uma reserva confirmada, no mesmo espaço e com a mesma duração, mantendo o valor e o código de "
                    + "check-in: o membro enquanto o cancelamento ainda seria sem multa e para um horário que não custe mais; o operador, "
                    + "qualquer reserva até o início",
                tag: "reservas", auth: true, request: "Remarcacao", response: "Reserva", errors: [404, 409, 422, 503])
        ) { _, context, body in
            let user = try context.requireUser()
            let input = try JSON.decode(RemarcacaoBody.self, from: body)
            return try .json(
                try await reservas.remarcar(
                    try context.parameters.require("id"), inicio: input.inicio, fim: input.fim, usuario: user.usuario,
                    admin: user.papel == "admin", caller: context.caller))
        }
        api.add(
            Operation(
                method: .get, path: "/api/reservas/{id}/remarcacao/horarios",
                summary: "Intervalos livres do espaço de uma reserva minha (admin: qualquer uma) numa data local, com o horário da "
                    + "própria reserva contado como livre: para onde ela pode mudar (as mesmas regras da disponibilidade do espaço)",
                tag: "reservas", auth: true, response: "Disponibilidade", errors: [400, 404],
                query: [.date("data", "AAAA-MM-DD, no fuso da unidade", required: true)])
        ) { request, context, _ in
            let user = try context.requireUser()
            guard let data = request.uri.queryParameters.get("data") else {
                throw ServiceError.requisicaoInvalida("informe 'data' (AAAA-MM-DD)", detalhes: ["campo": "data"])
            }
            let reserva = try await reservas.reserva(try context.parameters.require("id"), usuario: user.usuario, admin: user.papel == "admin")
            return try .json(try await espacos.disponibilidade(reserva.espacoId, data: data, ignorando: reserva.id))
        }
        api.add(
            Operation(
                method: .get, path: "/api/admin/reservas", summary: "Reservas de uma unidade num dia local", tag: "reservas", auth: true, admin: true,
                response: "PaginaDeReservas", errors: [400, 404],
                query: [.id("unidade", "id da unidade", required: true), .date("data", "AAAA-MM-DD, no fuso da unidade", required: true), .pagina])
        ) { request, _, _ in
            let query = request.uri.queryParameters
            guard let unidade = query.get("unidade"), let data = query.get("data") else {
                throw ServiceError.requisicaoInvalida("informe 'unidade' e 'data' (AAAA-MM-DD)")
            }
            return try .json(try await reservas.doDia(unidade: unidade, data: data, pagina: try Query.page(request)))
        }
        api.add(
            Operation(
                method: .post, path: "/api/admin/reservas/{id}/confirmacao",
                summary: "Sandbox: confirmar uma reserva como se o pagamento tivesse sido aprovado", tag: "reservas", auth: true, admin: true,
                request: "Confirmacao", response: "Reserva", errors: [404, 409])
        ) { _, context, body in
            let pagamento = body.isEmpty ? nil : try JSON.decode(ConfirmacaoBody.self, from: body).pagamentoId
            return try .json(try await reservas.confirmar(try context.parameters.require("id"), pagamentoId: pagamento, caller: context.caller))
        }
    }
}

/// `GET /api/admin/espacos/{id}/bloqueios`: every block of a space, leases with their holder.
struct BloqueiosDoEspaco: Encodable, Sendable {
    let bloqueios: [Espaco.Bloqueio]
}

/// `GET /api/locacoes`: the leases, not yet over, of the caller and of the caller's company.
struct MinhasLocacoes: Encodable, Sendable {
    let locacoes: [EspacosService.LocacaoView]
}
