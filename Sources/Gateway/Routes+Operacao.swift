import App
import Domain
import Foundation
import HTTPTypes
import Hummingbird
import Projections
import Services

struct VisitasDoDia: Encodable {
    let unidadeId: String
    let data: String
    let itens: [VisitaView]
}

struct CheckinBody: Decodable {
    let codigo: String
    let reservaId: String?
}

extension Query {
    /// A required local date parameter (`AAAA-MM-DD`; the service checks its form).
    static func data(_ request: Request, _ name: String) throws -> String {
        guard let value = request.uri.queryParameters.get(name) else {
            throw ServiceError.requisicaoInvalida("informe '\(name)' (AAAA-MM-DD)", detalhes: ["campo": name])
        }
        return value
    }
}

/// checkin (member and front desk), financeiro and analytics (operators).
extension Routes {
    static func checkin(_ api: API, _ backend: Backend) {
        let checkin = backend.negocio.checkin
        api.add(
            Operation(
                method: .get, path: "/api/reservas/{id}/checkin", summary: "O check-in de uma reserva confirmada: código, QR e janela",
                tag: "checkin", auth: true, response: "Checkin", errors: [404])
        ) { _, context, _ in
            let user = try context.requireUser()
            return try .json(
                try await checkin.situacao(reservaId: try context.parameters.require("id"), usuario: user.usuario, admin: user.papel == "admin"))
        }
        api.add(
            Operation(
                method: .post, path: "/api/checkin",
                summary: "Fazer check-in com o código (ou o conteúdo do QR); o membro da reserva ou um admin na recepção", tag: "checkin", auth: true,
                request: "PedidoDeCheckin", response: "Checkin", errors: [400, 404, 409, 422])
        ) { _, context, body in
            let user = try context.requireUser()
            let input = try JSON.decode(CheckinBody.self, from: body)
            return try .json(
                try await checkin.checkin(
                    codigo: input.codigo, reservaId: input.reservaId, usuario: user.usuario, admin: user.papel == "admin", caller: context.caller))
        }
        api.add(
            Operation(
                method: .post, path: "/api/reservas/{id}/checkout", summary: "Fazer checkout (depois do check-in)", tag: "checkin", auth: true,
                response: "Checkin", errors: [404, 409])
        ) { _, context, _ in
            let user = try context.requireUser()
            return try .json(
                try await checkin.checkout(
                    reservaId: try context.parameters.require("id"), usuario: user.usuario, admin: user.papel == "admin", caller: context.caller))
        }
    }

    /// Visitors: the host registers and cancels; the front desk (an admin) lists a unit's day
    /// and records arrivals and departures.
    static func visitas(_ api: API, _ backend: Backend) {
        let checkin = backend.negocio.checkin
        api.add(
            Operation(
                method: .post, path: "/api/visitas",
                summary: "Registrar um visitante: quem, em que unidade e quando chega (com e-mail, ele recebe o convite)", tag: "checkin",
                auth: true, request: "VisitaNova", response: "Visita", success: 201, errors: [403, 422, 429])
        ) { _, context, body in
            _ = try context.requireUser()
            let pedido = try JSON.decode(CheckinService.PedidoDeVisita.self, from: body)
            return try .json(try await checkin.registrarVisita(pedido, caller: context.caller), status: 201)
        }
        api.add(
            Operation(
                method: .get, path: "/api/visitas", summary: "Meus visitantes: os próximos e os anteriores", tag: "checkin", auth: true,
                response: "MinhasVisitas")
        ) { _, context, _ in
            _ = try context.requireUser()
            return try .json(try await checkin.minhasVisitas(caller: context.caller))
        }
        api.add(
            Operation(
                method: .post, path: "/api/visitas/{id}/cancelamento",
                summary: "Cancelar um visitante que ainda não chegou (o anfitrião ou um admin); o nome e o e-mail dele são apagados",
                tag: "checkin", auth: true, response: "Visita", errors: [404, 409])
        ) { _, context, _ in
            _ = try context.requireUser()
            return try .json(try await checkin.cancelarVisita(try context.parameters.require("id"), caller: context.caller))
        }
        api.add(
            Operation(
                method: .get, path: "/api/admin/visitas", summary: "Os visitantes esperados numa unidade num dia local (recepção)", tag: "checkin",
                auth: true, admin: true, response: "VisitasDoDia", errors: [400, 404],
                query: [.id("unidade", "id da unidade", required: true), .date("data", "AAAA-MM-DD, no fuso da unidade", required: true)])
        ) { request, _, _ in
            let query = request.uri.queryParameters
            guard let unidade = query.get("unidade"), let data = query.get("data") else {
                throw ServiceError.requisicaoInvalida("informe 'unidade' e 'data' (AAAA-MM-DD)")
            }
            let itens = try await checkin.visitasDoDia(unidade: unidade, data: data)
            return try .json(VisitasDoDia(unidadeId: unidade.lowercased(), data: data, itens: itens))
        }
        api.add(
            Operation(
                method: .post, path: "/api/admin/visitas/{id}/chegada", summary: "Recepção: o visitante chegou (o anfitrião é avisado)",
                tag: "checkin", auth: true, admin: true, response: "Visita", errors: [404, 409])
        ) { _, context, _ in
            try .json(try await checkin.registrarChegada(try context.parameters.require("id"), caller: context.caller))
        }
        api.add(
            Operation(
                method: .post, path: "/api/admin/visitas/{id}/saida", summary: "Recepção: o visitante saiu", tag: "checkin", auth: true,
                admin: true, response: "Visita", errors: [404, 409])
        ) { _, context, _ in
            try .json(try await checkin.registrarSaida(try context.parameters.require("id"), caller: context.caller))
        }
        api.add(
            Operation(
                method: .delete, path: "/api/admin/visitas/{id}/dados",
                summary: "Apagar agora o nome e o e-mail do visitante (a pedido dele, LGPD); a visita fica, sem eles", tag: "checkin", auth: true,
                admin: true, response: "Visita", errors: [404])
        ) { _, context, _ in
            try .json(try await checkin.apagarVisitante(try context.parameters.require("id"), caller: context.caller))
        }
    }

    /// Mail and parcels at the front desk (ADR 0017): the desk (an admin) registers, hands over
    /// and cancels; the member reads their own.
    static func encomendas(_ api: API, _ backend: Backend) {
        let checkin = backend.negocio.checkin
        api.add(
            Operation(
                method: .post, path: "/api/admin/encomendas",
                summary: "Recepção: registrar uma carta ou um pacote que chegou para um membro (ele é avisado)", tag: "checkin", auth: true,
                admin: true, request: "EncomendaNova", response: "Encomenda", success: 201, errors: [422])
        ) { _, context, body in
            let pedido = try JSON.decode(CheckinService.PedidoDeEncomenda.self, from: body)
            return try .json(try await checkin.registrarEncomenda(pedido, caller: context.caller), status: 201)
        }
        api.add(
            Operation(
                method: .get, path: "/api/admin/encomendas",
                summary: "Recepção: as correspondências de uma unidade (as que aguardam, ou todas)", tag: "checkin", auth: true, admin: true,
                response: "EncomendasDaUnidade", errors: [400, 404],
                query: [
                    .id("unidade", "id da unidade", required: true),
                    QueryParameter(
                        name: "situacao",
                        description: "aguardando (padrão: as que esperam, as mais antigas primeiro) ou todas (as mais recentes primeiro)",
                        form: .choice(["aguardando", "todas"])),
                ])
        ) { request, _, _ in
            let query = request.uri.queryParameters
            guard let unidade = query.get("unidade") else { throw ServiceError.requisicaoInvalida("informe 'unidade'") }
            return try .json(try await checkin.encomendasDaUnidade(unidade: unidade, situacao: query.get("situacao")))
        }
        api.add(
            Operation(
                method: .post, path: "/api/admin/encomendas/{id}/retirada", summary: "Recepção: a correspondência foi entregue ao membro",
                tag: "checkin", auth: true, admin: true, response: "Encomenda", errors: [404, 409])
        ) { _, context, _ in
            try .json(try await checkin.entregarEncomenda(try context.parameters.require("id"), caller: context.caller))
        }
        api.add(
            Operation(
                method: .post, path: "/api/admin/encomendas/{id}/cancelamento",
                summary: "Recepção: cancelar o registro de uma correspondência feito por engano", tag: "checkin", auth: true, admin: true,
                response: "Encomenda", errors: [404, 409])
        ) { _, context, _ in
            try .json(try await checkin.cancelarEncomenda(try context.parameters.require("id"), caller: context.caller))
        }
        api.add(
            Operation(
                method: .get, path: "/api/encomendas", summary: "Minha correspondência: o que aguarda na recepção e o que já foi retirado",
                tag: "checkin", auth: true, response: "MinhasEncomendas")
        ) { _, context, _ in
            _ = try context.requireUser()
            return try .json(try await checkin.minhasEncomendas(caller: context.caller))
        }
    }

    /// The help desk (ADR 0018): a member opens a request to a unit's team; the author and the
    /// team (any admin) write in it and resolve it; the team lists a unit's requests.
    static func chamados(_ api: API, _ backend: Backend) {
        let checkin = backend.negocio.checkin
        api.add(
            Operation(
                method: .post, path: "/api/chamados", summary: "Abrir um chamado para a equipe de uma unidade (ex.: a internet caiu)",
                tag: "checkin", auth: true, request: "ChamadoNovo", response: "Chamado", success: 201, errors: [409, 422])
        ) { _, context, body in
            let pedido = try JSON.decode(CheckinService.PedidoDeChamado.self, from: body)
            return try .json(try await checkin.abrirChamado(pedido, caller: context.caller), status: 201)
        }
        api.add(
            Operation(
                method: .get, path: "/api/chamados", summary: "Meus chamados: os abertos e os resolvidos", tag: "checkin", auth: true,
                response: "MeusChamados")
        ) { _, context, _ in
            _ = try context.requireUser()
            return try .json(try await checkin.meusChamados(caller: context.caller))
        }
        api.add(
            Operation(
                method: .get, path: "/api/chamados/{id}", summary: "Um chamado com suas mensagens (de quem o abriu, ou da equipe)",
                tag: "checkin", auth: true, response: "Chamado", errors: [404])
        ) { _, context, _ in
            try .json(try await checkin.chamado(try context.parameters.require("id"), caller: context.caller))
        }
        api.add(
            Operation(
                method: .post, path: "/api/chamados/{id}/mensagens",
                summary: "Escrever no chamado (quem o abriu, ou a equipe); a mensagem de quem o abriu reabre um chamado resolvido",
                tag: "checkin", auth: true, request: "MensagemDeChamado", response: "Chamado", errors: [404, 409, 422])
        ) { _, context, body in
            let mensagem = try JSON.decode(CheckinService.MensagemDeChamado.self, from: body)
            return try .json(try await checkin.responderChamado(try context.parameters.require("id"), mensagem, caller: context.caller))
        }
        api.add(
            Operation(
                method: .post, path: "/api/chamados/{id}/resolucao", summary: "Marcar o chamado como resolvido (quem o abriu, ou a equipe)",
                tag: "checkin", auth: true, response: "Chamado", errors: [404])
        ) { _, context, _ in
            try .json(try await checkin.resolverChamado(try context.parameters.require("id"), caller: context.caller))
        }
        api.add(
            Operation(
                method: .get, path: "/api/admin/chamados", summary: "Equipe: os chamados de uma unidade (os abertos, ou todos)", tag: "checkin",
                auth: true, admin: true, response: "ChamadosDaUnidade", errors: [400, 404],
                query: [
                    .id("unidade", "id da unidade", required: true),
                    QueryParameter(
                        name: "situacao", description: "abertos (padrão: os mais antigos primeiro) ou todos (os mais recentes primeiro)",
                        form: .choice(["abertos", "todos"])),
                ])
        ) { request, _, _ in
            let query = request.uri.queryParameters
            guard let unidade = query.get("unidade") else { throw ServiceError.requisicaoInvalida("informe 'unidade'") }
            return try .json(try await checkin.chamadosDaUnidade(unidade: unidade, situacao: query.get("situacao")))
        }
    }

    /// Community events (ADR 0019): the team publishes, changes and cancels them; members sign
    /// up (or join the waiting list) and give up.
    static func encontros(_ api: API, _ backend: Backend) {
        let checkin = backend.negocio.checkin
        api.add(
            Operation(
                method: .get, path: "/api/encontros",
                summary: "Eventos da comunidade: os próximos (os mais cedo primeiro) ou os passados; a equipe vê também quem se inscreveu",
                tag: "checkin", auth: true, response: "PaginaDeEncontros", errors: [400],
                query: [
                    .id("unidade", "id da unidade (sem ela, toda a rede)"),
                    QueryParameter(
                        name: "periodo",
                        description: "proximos (padrão: os que não terminaram) ou passados (os \(CheckinService.passadosNaLista) últimos)",
                        form: .choice(["proximos", "passados"])),
                    .pagina,
                ])
        ) { request, context, _ in
            let query = request.uri.queryParameters
            return try .json(
                try await checkin.encontros(
                    unidade: query.get("unidade"), periodo: query.get("periodo"), pagina: try Query.page(request), caller: context.caller))
        }
        api.add(
            Operation(
                method: .get, path: "/api/encontros/{id}", summary: "Um evento, com a minha inscrição (a equipe vê quem se inscreveu)",
                tag: "checkin", auth: true, response: "Encontro", errors: [404])
        ) { _, context, _ in
            try .json(try await checkin.encontro(try context.parameters.require("id"), caller: context.caller))
        }
        api.add(
            Operation(
                method: .post, path: "/api/encontros/{id}/inscricao",
                summary: "Inscrever-me: uma vaga enquanto houver, senão a lista de espera", tag: "checkin", auth: true, response: "Encontro",
                errors: [404, 409])
        ) { _, context, _ in
            try .json(try await checkin.inscrever(try context.parameters.require("id"), caller: context.caller))
        }
        api.add(
            Operation(
                method: .delete, path: "/api/encontros/{id}/inscricao",
                summary: "Cancelar a minha inscrição (a vaga vai para o primeiro da lista de espera)", tag: "checkin", auth: true,
                response: "Encontro", errors: [404, 409])
        ) { _, context, _ in
            try .json(try await checkin.desistir(try context.parameters.require("id"), caller: context.caller))
        }
        api.add(
            Operation(
                method: .post, path: "/api/admin/encontros", summary: "Equipe: publicar um evento numa unidade", tag: "checkin", auth: true,
                admin: true, request: "EncontroNovo", response: "Encontro", success: 201, errors: [409, 422])
        ) { _, context, body in
            let pedido = try JSON.decode(CheckinService.PedidoDeEncontro.self, from: body)
            return try .json(try await checkin.publicarEncontro(pedido, caller: context.caller), status: 201)
        }
        api.add(
            Operation(
                method: .patch, path: "/api/admin/encontros/{id}",
                summary: "Equipe: alterar o título, a descrição, o local ou as vagas (campos ausentes ficam como estão)", tag: "checkin",
                auth: true, admin: true, request: "AlteracaoDeEncontro", response: "Encontro", errors: [404, 409, 422])
        ) { _, context, body in
            // The time is not changed (another time is another event): named, not ignored.
            try JSON.onlyKeys(
                body, ["titulo", "descricao", "local", "vagas"],
                hints: [
                    "inicio": "o horário de um evento não muda: cancele-o e publique outro",
                    "fim": "o horário de um evento não muda: cancele-o e publique outro",
                ])
            let alteracao = try JSON.decode(CheckinService.AlteracaoDeEncontro.self, from: body)
            return try .json(try await checkin.alterarEncontro(try context.parameters.require("id"), alteracao, caller: context.caller))
        }
        api.add(
            Operation(
                method: .post, path: "/api/admin/encontros/{id}/cancelamento",
                summary: "Equipe: cancelar o evento (quem se inscreveu é avisado)", tag: "checkin", auth: true, admin: true,
                request: "CancelamentoDeEncontro", response: "Encontro", errors: [404, 409, 422])
        ) { _, context, body in
            let cancelamento =
                body.isEmpty
                ? CheckinService.CancelamentoDeEncontro(motivo: nil) : try JSON.decode(CheckinService.CancelamentoDeEncontro.self, from: body)
            return try .json(try await checkin.cancelarEncontro(try context.parameters.require("id"), cancelamento, caller: context.caller))
        }
    }

    /// Tours (ADR 0020): a prospect books and cancels on the public site; the team (an admin)
    /// lists a unit's day, records how each went, cancels, books for a phone lead, erases a
    /// prospect's contact and sets the unit's tour hours.
    static func tours(_ api: API, _ backend: Backend) {
        let checkin = backend.negocio.checkin
        let dia: [QueryParameter] = [
            .id("unidade", "id da unidade", required: true), .date("data", "AAAA-MM-DD, no fuso da unidade", required: true),
        ]
        @Sendable func unidadeEData(_ request: Request) throws -> (String, String) {
            let query = request.uri.queryParameters
            guard let unidade = query.get("unidade"), let data = query.get("data") else {
                throw ServiceError.requisicaoInvalida("informe 'unidade' e 'data' (AAAA-MM-DD)")
            }
            return (unidade, data)
        }
        api.add(
            Operation(
                method: .get, path: "/api/tours/horarios", summary: "Os horários de tour de uma unidade num dia local, com as vagas de cada um",
                tag: "checkin", response: "HorariosDeTour", errors: [400, 404], query: dia)
        ) { request, _, _ in
            let (unidade, data) = try unidadeEData(request)
            return try .json(try await checkin.horariosDeTour(unidade: unidade, data: data))
        }
        api.add(
            Operation(
                method: .post, path: "/api/tours",
                summary: "Agendar um tour (sem conta): a confirmação, com o link para cancelar, vai para o e-mail informado", tag: "checkin",
                request: "TourNovo", response: "TourPublico", success: 201, errors: [409, 422])
        ) { _, context, body in
            let pedido = try JSON.decode(CheckinService.PedidoDeTour.self, from: body)
            return try .json(try await checkin.agendarTour(pedido, caller: context.caller), status: 201)
        }
        api.add(
            Operation(
                method: .get, path: "/api/tours/{id}", summary: "O tour de quem agendou (o link da confirmação)", tag: "checkin",
                response: "TourPublico", errors: [404])
        ) { _, context, _ in
            try .json(try await checkin.tourPublico(try context.parameters.require("id")))
        }
        api.add(
            Operation(
                method: .post, path: "/api/tours/{id}/cancelamento", summary: "Cancelar o tour (quem agendou, antes do início)", tag: "checkin",
                response: "TourPublico", errors: [404, 409])
        ) { _, context, _ in
            try .json(try await checkin.cancelarTourPublico(try context.parameters.require("id"), caller: context.caller))
        }
        api.add(
            Operation(
                method: .get, path: "/api/admin/tours", summary: "Equipe: os tours de uma unidade num dia local, com os contatos", tag: "checkin",
                auth: true, admin: true, response: "ToursDoDia", errors: [400, 404], query: dia)
        ) { request, _, _ in
            let (unidade, data) = try unidadeEData(request)
            return try .json(try await checkin.toursDoDia(unidade: unidade, data: data))
        }
        api.add(
            Operation(
                method: .get, path: "/api/admin/tours/horarios",
                summary: "Equipe: os horários de tour de uma unidade num dia local que ainda não começaram (sem a antecedência mínima do site)",
                tag: "checkin", auth: true, admin: true, response: "HorariosDeTour", errors: [400, 404], query: dia)
        ) { request, _, _ in
            let (unidade, data) = try unidadeEData(request)
            return try .json(try await checkin.horariosDeTour(unidade: unidade, data: data, equipe: true))
        }
        api.add(
            Operation(
                method: .post, path: "/api/admin/tours",
                summary: "Equipe: agendar um tour para um interessado (por telefone); sem a antecedência mínima do site", tag: "checkin",
                auth: true, admin: true, request: "TourNovo", response: "Tour", success: 201, errors: [409, 422])
        ) { _, context, body in
            let pedido = try JSON.decode(CheckinService.PedidoDeTour.self, from: body)
            return try .json(try await checkin.agendarTourPelaEquipe(pedido, caller: context.caller), status: 201)
        }
        api.add(
            Operation(
                method: .post, path: "/api/admin/tours/{id}/realizacao",
                summary: "Equipe: o tour foi realizado (a partir de 1 hora antes do início), com uma nota", tag: "checkin", auth: true, admin: true,
                request: "ConclusaoDeTour", response: "Tour", errors: [404, 409, 422])
        ) { _, context, body in
            let conclusao =
                body.isEmpty ? CheckinService.ConclusaoDeTour(nota: nil) : try JSON.decode(CheckinService.ConclusaoDeTour.self, from: body)
            return try .json(try await checkin.realizarTour(try context.parameters.require("id"), conclusao, caller: context.caller))
        }
        api.add(
            Operation(
                method: .post, path: "/api/admin/tours/{id}/ausencia", summary: "Equipe: o interessado não veio (a partir do início)",
                tag: "checkin", auth: true, admin: true, response: "Tour", errors: [404, 409])
        ) { _, context, _ in
            try .json(try await checkin.registrarAusenciaNoTour(try context.parameters.require("id"), caller: context.caller))
        }
        api.add(
            Operation(
                method: .post, path: "/api/admin/tours/{id}/cancelamento",
                summary: "Equipe: cancelar o tour (antes do início; quem agendou é avisado, com o motivo)", tag: "checkin", auth: true,
                admin: true, request: "CancelamentoDeTour", response: "Tour", errors: [404, 409, 422])
        ) { _, context, body in
            let cancelamento =
                body.isEmpty ? CheckinService.CancelamentoDeTour(motivo: nil) : try JSON.decode(CheckinService.CancelamentoDeTour.self, from: body)
            return try .json(try await checkin.cancelarTourPelaEquipe(try context.parameters.require("id"), cancelamento, caller: context.caller))
        }
        api.add(
            Operation(
                method: .delete, path: "/api/admin/tours/{id}/dados",
                summary: "Apagar agora o contato do interessado (a pedido dele, LGPD); o tour fica, sem ele", tag: "checkin", auth: true,
                admin: true, response: "Tour", errors: [404])
        ) { _, context, _ in
            try .json(try await checkin.apagarDadosDoTour(try context.parameters.require("id"), caller: context.caller))
        }
        api.add(
            Operation(
                method: .get, path: "/api/admin/unidades/{id}/tours", summary: "Equipe: como a unidade agenda tours (o padrão até ser definido)",
                tag: "checkin", auth: true, admin: true, response: "ConfiguracaoDeTours", errors: [404])
        ) { _, context, _ in
            try .json(try await checkin.configuracaoDeTours(unidade: try context.parameters.require("id")))
        }
        api.add(
            Operation(
                method: .put, path: "/api/admin/unidades/{id}/tours",
                summary: "Equipe: definir se a unidade agenda tours, a duração, quantos ao mesmo tempo e o horário semanal", tag: "checkin",
                auth: true, admin: true, request: "ConfiguracaoDeToursNova", response: "ConfiguracaoDeTours", errors: [404, 422])
        ) { _, context, body in
            let pedido = try JSON.decode(CheckinService.PedidoDeConfiguracaoDeTours.self, from: body)
            return try .json(try await checkin.configurarTours(unidade: try context.parameters.require("id"), pedido, caller: context.caller))
        }
    }

    static func financeiro(_ api: API, _ backend: Backend) {
        let financeiro = backend.negocio.financeiro
        let periodo: [QueryParameter] = [
            .date("de", "AAAA-MM-DD, data local; não depois de 'ate', no máximo 366 dias ao todo (400)", required: true),
            .date("ate", "AAAA-MM-DD, inclusive", required: true), .id("unidade", "id da unidade"),
        ]
        let planilha =
            periodo + [
                QueryParameter(
                    name: "dialeto",
                    description:
                        "rfc4180 (padrão: ',', ponto decimal, UTC, ids) ou excel (Excel em português: BOM UTF-8, ';', vírgula decimal, horário local, nomes)",
                    form: .choice(FinanceiroService.DialetoCSV.allCases.map(\.rawValue)))
            ]
        api.add(
            Operation(
                method: .get, path: "/api/faturas", summary: "Minhas faturas, com notas de crédito (as mais recentes primeiro)", tag: "financeiro",
                auth: true, response: "PaginaDeFaturas", errors: [400], query: [.pagina])
        ) { request, context, _ in
            try .json(try await financeiro.faturas(doMembro: try context.requireUser().usuario, pagina: try Query.page(request)))
        }
        api.add(
            Operation(
                method: .get, path: "/api/empresas/{id}/faturas",
                summary: "As faturas da empresa (os ciclos da sua assinatura), para os gestores e os operadores", tag: "financeiro", auth: true,
                response: "PaginaDeFaturas", errors: [400, 404], query: [.pagina])
        ) { request, context, _ in
            let user = try context.requireUser()
            return try .json(
                try await financeiro.faturas(
                    daEmpresa: try context.parameters.require("id"), usuario: user.usuario, admin: user.papel == "admin",
                    pagina: try Query.page(request)))
        }
        api.add(
            Operation(
                method: .get, path: "/api/faturas/{id}/recibo",
                summary:
                    "O recibo de uma fatura para imprimir: unidade, membro, espaço, horário, itens, ISS e total (a do próprio membro; um admin, qualquer uma)",
                tag: "financeiro", auth: true, response: "Recibo", errors: [404])
        ) { _, context, _ in
            let user = try context.requireUser()
            return try .json(try await financeiro.recibo(try context.parameters.require("id"), usuario: user.usuario, admin: user.papel == "admin"))
        }
        api.add(
            Operation(
                method: .get, path: "/api/admin/financeiro/faturas", summary: "Faturas (e notas de crédito) por unidade e período, por número",
                tag: "financeiro", auth: true, admin: true, response: "PaginaDeFaturas", errors: [400, 404],
                query: [
                    .id("unidade", "id da unidade"),
                    .date("de", "AAAA-MM-DD, data local; não depois de 'ate', no máximo 366 dias ao todo (400)", blank: true),
                    .date("ate", "AAAA-MM-DD, inclusive", blank: true), .pagina,
                ])
        ) { request, _, _ in
            let query = request.uri.queryParameters
            return try .json(
                try await financeiro.faturas(
                    unidade: try Query.id(request, "unidade"), de: query.get("de"), ate: query.get("ate"), pagina: try Query.page(request)))
        }
        api.add(
            Operation(
                method: .get, path: "/api/admin/financeiro/faturas/{id}", summary: "Uma fatura", tag: "financeiro", auth: true, admin: true,
                response: "Fatura", errors: [404])
        ) { _, context, _ in
            try .json(try await financeiro.fatura(try context.parameters.require("id")))
        }
        api.add(
            Operation(
                method: .get, path: "/api/financeiro/relatorios/receita", summary: "Receita por dia e por tipo de espaço (admin)", tag: "financeiro",
                auth: true, admin: true, response: "RelatorioDeReceita", errors: [400, 404], query: periodo)
        ) { request, _, _ in
            try .json(
                try await financeiro.receita(
                    de: try Query.data(request, "de"), ate: try Query.data(request, "ate"), unidade: try Query.id(request, "unidade")))
        }
        api.add(
            Operation(
                method: .get, path: "/api/admin/financeiro/razao", summary: "Saldos do razão por conta (débitos = créditos)", tag: "financeiro",
                auth: true, admin: true, response: "Razao", errors: [400, 404], query: [.id("unidade", "id da unidade")])
        ) { request, _, _ in
            try .json(try await financeiro.razao(unidade: try Query.id(request, "unidade")))
        }
        api.add(
            Operation(
                method: .get, path: "/api/admin/financeiro/faturas.csv", summary: "Exportar faturas e notas de crédito (CSV)", tag: "financeiro",
                auth: true, admin: true, errors: [400, 404], query: planilha, contentType: "text/csv")
        ) { request, _, _ in
            let csv = try await financeiro.faturasCSV(
                unidade: try Query.id(request, "unidade"), de: try Query.data(request, "de"), ate: try Query.data(request, "ate"),
                dialeto: try Query.dialeto(request))
            return Reply(
                status: 200, body: Data(csv.utf8),
                headers: ["Content-Type": "text/csv; charset=utf-8", "Content-Disposition": "attachment; filename=\"faturas.csv\""])
        }
        api.add(
            Operation(
                method: .get, path: "/api/admin/financeiro/razao.csv", summary: "Exportar os lançamentos do razão (CSV)", tag: "financeiro",
                auth: true, admin: true, errors: [400, 404], query: planilha, contentType: "text/csv")
        ) { request, _, _ in
            let csv = try await financeiro.razaoCSV(
                unidade: try Query.id(request, "unidade"), de: try Query.data(request, "de"), ate: try Query.data(request, "ate"),
                dialeto: try Query.dialeto(request))
            return Reply(
                status: 200, body: Data(csv.utf8),
                headers: ["Content-Type": "text/csv; charset=utf-8", "Content-Disposition": "attachment; filename=\"razao.csv\""])
        }
    }

    static func analytics(_ api: API, _ backend: Backend) {
        let analytics = backend.negocio.analytics
        let analyticsDe = QueryParameter.date(
            "de", "AAAA-MM-DD, data local; não depois de 'ate', no máximo \(AnalyticsService.diasMaximos) dias ao todo (400)", required: true)
        api.add(
            Operation(
                method: .get, path: "/api/analytics/ocupacao", summary: "Ocupação ((horas reservadas + locadas) / horas abertas) por espaço e dia",
                tag: "analytics",
                auth: true, admin: true, response: "OcupacaoPorDia", errors: [400, 404],
                query: [.id("espaco", "id do espaço"), analyticsDe, .date("ate", "AAAA-MM-DD, inclusive", required: true)])
        ) { request, _, _ in
            try .json(
                try await analytics.ocupacao(
                    espaco: try Query.id(request, "espaco"), de: try Query.data(request, "de"), ate: try Query.data(request, "ate")))
        }
        api.add(
            Operation(
                method: .get, path: "/api/analytics/ocupacao/semana", summary: "Ocupação por hora da semana (0–167, hora local)", tag: "analytics",
                auth: true, admin: true, response: "OcupacaoPorHoraDaSemana", errors: [400, 404], query: [.id("espaco", "id do espaço")])
        ) { request, _, _ in
            try .json(try await analytics.ocupacaoPorHoraDaSemana(espaco: try Query.id(request, "espaco")))
        }
        api.add(
            Operation(
                method: .get, path: "/api/analytics/receita", summary: "Receita (pagamentos − reembolsos) por tipo de espaço", tag: "analytics",
                auth: true, admin: true, response: "ReceitaPorTipo", errors: [400],
                query: [analyticsDe, .date("ate", "AAAA-MM-DD, inclusive", required: true)])
        ) { request, _, _ in
            try .json(try await analytics.receitaPorTipo(de: try Query.data(request, "de"), ate: try Query.data(request, "ate")))
        }
        api.add(
            Operation(
                method: .get, path: "/api/analytics/indicadores", summary: "No-show, cancelamento, antecedência média e contagens", tag: "analytics",
                auth: true, admin: true, response: "Indicadores")
        ) { _, _, _ in
            try .json(try await analytics.indicadores())
        }
        api.add(
            Operation(
                method: .get, path: "/api/analytics/assinaturas",
                summary: "Assinaturas: MRR por plano, ativas e suspensas; mês a mês, churn, receita por plano e uso de créditos", tag: "analytics",
                auth: true, admin: true, response: "AnalyticsDeAssinaturas", errors: [400],
                query: [
                    QueryParameter(
                        name: "meses", description: "quantos meses até o atual (padrão 12)", form: .integer(1...AnalyticsService.mesesMaximos))
                ])
        ) { request, _, _ in
            let meses = try request.uri.queryParameters.get("meses").map { texto in
                guard let meses = Int(texto) else {
                    throw ServiceError.requisicaoInvalida("'meses' deve ser um número", detalhes: ["campo": "meses"])
                }
                return meses
            }
            return try .json(try await analytics.assinaturas(meses: meses ?? 12))
        }
        api.add(
            Operation(
                method: .get, path: "/api/analytics/membros", summary: "Membros que mais reservam (horas e receita)", tag: "analytics",
                auth: true, admin: true, response: "TopMembros", errors: [400],
                query: [
                    QueryParameter(name: "limite", description: "quantos membros (padrão 10)", form: .integer(1...AnalyticsService.limiteMaximo))
                ])
        ) { request, _, _ in
            var limite = 10
            if let texto = request.uri.queryParameters.get("limite") {
                guard let valor = Int(texto), (1...AnalyticsService.limiteMaximo).contains(valor) else {
                    throw ServiceError.requisicaoInvalida(
                        "'limite' deve ser um inteiro de 1 a \(AnalyticsService.limiteMaximo)", detalhes: ["campo": "limite"])
                }
                limite = valor
            }
            return try .json(try await analytics.topMembros(limite: limite))
        }
    }
}
