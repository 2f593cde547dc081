import Domain
import EventStore
public import Foundation
import Projections
import Telemetry

extension UsuariosService {
    // MARK: LGPD

    /// Erases my personal data: the account and its e-mail claim record the erasure, then the
    /// vault key is destroyed, so every sealed field in every event becomes unreadable, and the
    /// kept Idempotency-Key answers that name the account are forgotten. Login
    /// fails afterwards and the address may register again. Safe to retry.
    public func apagar(usuario: String, context: Caller) async throws {
        guard let id = Usuario.ID(usuario) else { throw ServiceError.naoAutenticado }
        let (state, version) = try await usuarios.load(Self.stream(id))
        switch state {
        case .inexistente:
            throw ServiceError.naoEncontrado("conta não encontrada")
        case .apagado:
            _ = try await vault.erase(subject: id.rawValue)
            try await store.forgetRequestKeys(mentioning: id.description)
            return
        case .existente(let conta):
            try await mantemUmAdmin(state, "apagar")
            let now = clock.now
            let meta = metadata(context, actor: usuario)
            var writes: [StreamWrite] = []
            let erased = try Usuario.decider.decide(.apagarDadosPessoais(em: now), state)
            writes.append(StreamWrite(stream: Self.stream(id), expected: .after(version), events: try Events.new(erased, at: now, metadata: meta)))
            if let email = try await vault.open(SealedField(rawValue: conta.email)).value {
                let stream = claimStream(email)
                let claim = try await claims.load(stream)
                if let released = try? EmailClaim.decider.decide(.liberar(usuario: id), claim.state) {
                    writes.append(
                        StreamWrite(stream: stream, expected: .after(claim.version), events: try Events.new(released, at: now, metadata: meta)))
                }
            }
            do {
                try await store.append(writes, receipt: context.receipt)
            } catch is WrongExpectedVersion {
                throw ServiceError.conflito("conflito_de_versao", "a conta mudou durante o pedido; tente de novo")
            }
            _ = try await vault.erase(subject: id.rawValue)
            // Idempotency-Key answers kept for retries (the registration's, an admin's) hold the
            // name and e-mail in clear; every one that names the account goes.
            try await store.forgetRequestKeys(mentioning: id.description)
        }
    }

    /// The checkpoint of ``concluirApagamentos(lote:)`` over the `usuario` streams.
    public static let apagamentos = "usuarios:apagamentos"

    /// Finishes every erasure whose event is stored: destroys the account's vault key and
    /// forgets the kept Idempotency-Key answers that name it. ``apagar(usuario:context:)`` does
    /// both right after its append; this finishes an erasure whose process stopped between the
    /// append and the key (the event says the data is gone; until the key goes, it is not).
    /// Reads the `usuario` streams in global order from its checkpoint, which moves only after
    /// a batch's keys are gone: run by a timer (lease `usuarios:apagamentos`), every second.
    public func concluirApagamentos(lote: Int = 500) async throws {
        var position = try await store.checkpoint(Self.apagamentos)
        while true {
            let events = try await store.readCategory("usuario", after: position, limit: lote)
            guard let last = events.last else { return }
            for event in events where event.type == Usuario.Catalogo.dadosPessoaisApagados.type {
                // An erasure that cannot be read holds the checkpoint (and is logged by the
                // timer every second): skipping it could leave a key alive.
                guard
                    case .dadosPessoaisApagados(let apagados)? = try Usuario.Event.decode(
                        type: event.type, data: event.data, using: EventJSON.decoder)
                else { continue }
                let id = apagados.usuarioId
                _ = try await vault.erase(subject: id.rawValue)
                try await store.forgetRequestKeys(mentioning: id.description)
                Self.metricasDosApagamentos.fired(late: clock.now.timeIntervalSince(event.recordedAt))
            }
            try await store.saveCheckpoint(Self.apagamentos, last.position)
            position = last.position
            guard events.count == lote else { return }
        }
    }

    static let metricasDosApagamentos = TimerMetrics(apagamentos)

    /// Everything kept about me: the profile, my account's events (sealed fields opened,
    /// password hashes left out) and every event I caused elsewhere.
    public func exportar(usuario: String) async throws -> Data {
        let perfil = try await perfil(usuario: usuario)
        guard let id = Usuario.ID(usuario) else { throw ServiceError.naoAutenticado }
        var conta: [[String: Any]] = []
        for event in try await store.readStream(Self.stream(id)) {
            conta.append(["tipo": event.type, "em": event.occurredAt.formatted(.iso8601), "dados": try await aberto(event, de: id)])
        }
        // What the member did, and what happened about them: any event that names them (a
        // payment, a check-in, an e-mail, an invoice) or belongs to one of their bookings (its
        // correlation id is the booking's), read through the members' index, not the whole log.
        var atividade: [[String: Any]] = []
        var pagamentos: [RecordedEvent] = []
        for (event, _) in try await trilha(id.description) where event.stream != Self.stream(id) {
            if event.stream.category == "pagamento" { pagamentos.append(event) }
            atividade.append([
                "tipo": event.type, "stream": event.stream.rawValue, "em": event.occurredAt.formatted(.iso8601),
                "dados": try await abertos(try JSONSerialization.jsonObject(with: event.data), de: id),
            ])
        }
        let document: [String: Any] = [
            "perfil": [
                "id": perfil.id, "nome": perfil.nome, "email": perfil.email, "papel": perfil.papel, "ativo": perfil.ativo,
                "registradoEm": perfil.registradoEm.formatted(.iso8601),
            ],
            "conta": conta, "atividade": atividade, "geradoEm": clock.now.formatted(.iso8601),
            "resumo": try await resumo(perfil, id: id, pagamentos: pagamentos),
        ]
        return try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])
    }

    /// The export's readable part, in Portuguese and in the units' time zones: who we know the
    /// member as, their bookings (space, when, status, total), payments and refunds, and the
    /// notices sent to them; the raw events beside it are the whole record.
    private func resumo(_ perfil: Perfil, id: Usuario.ID, pagamentos: [RecordedEvent]) async throws -> [String: Any] {
        func todos(_ colecao: String, grupo: String) async throws -> [Data] {
            var docs: [Data] = []
            while true {
                let lote = try await store.documents(colecao, grupo: grupo, limit: 500, offset: docs.count)
                docs += lote
                guard lote.count == 500 else { return docs }
            }
        }
        let decoder = ReadModelJSON.decoder
        var catalogo = LeituraDoCatalogo(store: store)
        func lugar(_ espacoId: String) async throws -> (espaco: String, unidade: UnidadeView?) {
            guard let espaco = try await catalogo.espaco(espacoId) else { return ("espaço", nil) }
            return (espaco.nome, try await catalogo.unidade(espaco.unidadeId))
        }
        let status: [Reserva.Status: String] = [
            .solicitada: "aguardando pagamento", .confirmada: "confirmada", .cancelada: "cancelada", .expirada: "expirada", .concluida: "concluída",
        ]
        var reservas: [[String: Any]] = [], quandoDaReserva: [String: String] = [:]
        for doc in try await todos(ReservasReadModel.reservas, grupo: id.description) {
            let reserva = try decoder.decode(ReservaView.self, from: doc)
            let (espaco, unidade) = try await lugar(reserva.espacoId)
            let quando =
                (try? TimeRange(start: reserva.inicio, end: reserva.fim)).map { NotificacoesService.quando($0, fuso: unidade?.fusoHorario) } ?? ""
            quandoDaReserva[reserva.id] = "\(espaco), \(quando)"
            reservas.append([
                "espaco": espaco, "unidade": unidade?.nome ?? "", "quando": quando, "situacao": status[reserva.status] ?? reserva.status.rawValue,
                "total": reserva.total.description,
            ])
        }
        var movimentos: [[String: Any]] = []
        for event in pagamentos {
            guard let pagamento = try Pagamento.Event.decode(type: event.type, data: event.data, using: EventJSON.decoder) else { continue }
            let (oque, valor, reserva): (String, Money?, UUID) =
                switch pagamento {
                case .confirmado(let e): ("pagamento recebido (\(e.metodo.rawValue))", e.valor, e.reservaId)
                case .recusado(let e): ("pagamento recusado", nil, e.reservaId)
                case .reembolsoConcluido(let e): ("reembolso concluído", e.valor, e.reservaId)
                default: ("", nil, EventIDs.random())
                }
            guard !oque.isEmpty else { continue }
            var linha: [String: Any] = [
                "o_que": oque, "em": event.occurredAt.formatted(.iso8601),
                "reserva": quandoDaReserva[reserva.lowercasedString] ?? "uma reserva",
            ]
            if let valor { linha["valor"] = valor.description }
            movimentos.append(linha)
        }
        var avisos: [[String: Any]] = []
        for doc in try await todos(NotificacoesReadModel.caixa, grupo: id.description) {
            let aviso = try decoder.decode(NotificacaoView.self, from: doc)
            avisos.append([
                "titulo": aviso.titulo, "em": aviso.em.formatted(.iso8601), "por": aviso.canal == "email" ? "e-mail e na sua caixa" : aviso.canal,
            ])
        }
        // The desks and offices let to the member (ADR 0016): their stream names them; the
        // catalog says which spaces to read.
        var locacoes: [[String: Any]] = []
        let espacos = try await store.documents(CatalogoReadModel.espacos, grupo: nil, limit: 1_000_000, offset: 0).map {
            try decoder.decode(EspacoView.self, from: $0)
        }
        for (espaco, bloqueio) in try await EspacosService.locacoes(espacos, store: store) where bloqueio.locatario?.usuarioId == id.rawValue {
            let unidade = try await catalogo.unidade(espaco.unidade.description)
            let fuso = Unidade.fuso(unidade?.fusoHorario)
            let dias = DataLocal.dias(de: bloqueio.intervalo, em: fuso)
            locacoes.append([
                "espaco": espaco.nome, "unidade": unidade?.nome ?? "",
                "periodo": "\(dias.first?.brasileira ?? "") a \(dias.last?.brasileira ?? "") (último dia)",
            ])
        }
        let planos = try await planosEPacotes(titular: id.description)
        return [
            "assinatura": planos.assinatura, "pacotes": planos.pacotes, "creditos": planos.creditos, "empresa": try await empresa(id.description),
            "comoConhecemosVoce": [
                "nome": perfil.nome, "email": perfil.email, "papel": perfil.papel, "cadastroEm": perfil.registradoEm.formatted(.iso8601),
                "plano": perfil.plano ?? "nenhum",
            ],
            "reservas": reservas, "pagamentos": movimentos, "avisos": avisos, "locacoes": locacoes,
            "consentimentos": "A CoworkFlow trata seus dados para executar o contrato das suas reservas (cadastro, pagamento, acesso, notas fiscais) "
                + "e não registra outros consentimentos. Você pode apagar seus dados pessoais em Meus dados.",
        ]
    }

    /// The summary's part about plans, bundles and credits: the member's subscription (the last
    /// one, ended or not; `NSNull` when there was never one) with its latest cycles, the bundles
    /// they bought and their credit lots, in words.
    private func planosEPacotes(titular: String) async throws -> (assinatura: Any, pacotes: [[String: Any]], creditos: [String: Any]) {
        let decoder = ReadModelJSON.decoder
        func reais(_ centavos: Int64) -> String { Money(centavos: centavos).description }
        func quantidade(_ medida: Carteira.Medida, _ n: Int64) -> String {
            medida == .minutos ? (n == 0 ? "0 h" : Cotacao.formatar(duracao: Int(n))) : reais(n)
        }
        let sp = Unidade.fuso(nil)
        var assinatura: Any = NSNull()
        if let doc = try await store.document(AssinaturasReadModel.assinaturas, key: titular) {
            let view = try decoder.decode(AssinaturaView.self, from: doc)
            let situacao: [Assinatura.Status: String] = [
                .agendada: "agendada", .ativa: "ativa", .pausada: "pausada", .suspensa: "suspensa por falta de pagamento", .encerrada: "encerrada",
            ]
            let metodo: [Assinatura.Metodo: String] = [.cartao: "cartão", .pixAutomatico: "PIX automático", .boleto: "boleto"]
            assinatura = [
                "plano": view.plano.nome, "situacao": situacao[view.status] ?? view.status.rawValue, "desde": view.inicio.brasileira,
                "valorPorCiclo": reais(view.termos.valorCentavos), "pagamento": metodo[view.metodo] ?? view.metodo.rawValue,
                "ciclos": view.ciclos.prefix(12).map { ciclo -> [String: Any] in
                    [
                        "periodo": "\(ciclo.inicio.brasileira) a \(ciclo.ate.brasileira)", "valor": reais(ciclo.valorCentavos),
                        "situacao": ciclo.pago ? "pago" : "a pagar",
                    ]
                },
            ]
        }
        let status: [CompraDePacote.Status: String] = [
            .pendente: "aguardando pagamento", .paga: "paga", .recusada: "cartão recusado", .expirada: "expirada sem pagamento",
            .reembolsada: "reembolsada",
        ]
        var pacotes: [[String: Any]] = []
        while true {
            let lote = try await store.documents(PacotesReadModel.compras, grupo: titular, limit: 500, offset: pacotes.count)
            for doc in lote {
                let compra = try decoder.decode(CompraDePacoteView.self, from: doc)
                var linha: [String: Any] = [
                    "pacote": compra.pacote.nome, "em": compra.solicitadaEm.formatted(.iso8601), "valor": reais(compra.valorCentavos),
                    "situacao": status[compra.status] ?? compra.status.rawValue,
                ]
                if let ate = compra.validoAte { linha["validoAte"] = ate.formatted(.iso8601) }
                pacotes.append(linha)
            }
            guard lote.count == 500 else { break }
        }
        var creditos: [String: Any] = ["horas": quantidade(.minutos, 0), "valor": reais(0), "lotes": [[String: Any]]()]
        if let doc = try await store.document(CreditosReadModel.carteiras, key: titular) {
            let carteira = try decoder.decode(CarteiraView.self, from: doc)
            creditos = [
                "horas": quantidade(.minutos, carteira.minutos), "valor": reais(carteira.centavos),
                "lotes": carteira.lotes.map { lote -> [String: Any] in
                    var linha: [String: Any] = [
                        "descricao": lote.descricao, "recebidos": quantidade(lote.medida, lote.quantidade),
                        "restam": quantidade(lote.medida, lote.restante), "em": lote.concedidoEm.formatted(.iso8601),
                    ]
                    // The last day it may be spent (it ends at the instant `validoAte`).
                    if let ate = lote.validoAte { linha["ultimoDia"] = DataLocal(ate.addingTimeInterval(-1), em: sp).brasileira }
                    return linha
                },
            ]
        }
        return (assinatura, pacotes, creditos)
    }

    /// The company the member is part of (`NSNull`: none): its name, their role, since when and
    /// their monthly cap on its credits.
    private func empresa(_ membro: String) async throws -> Any {
        let vinculos = AggregateStore(store: store, decider: Vinculo.decider) {
            try Vinculo.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder)
        }
        let empresas = AggregateStore(store: store, decider: Empresa.decider) {
            try Empresa.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder)
        }
        guard let empresaId = try await vinculos.load(StreamNames.vinculo(membro)).state,
            let empresa = try await empresas.load(StreamNames.empresa(empresaId)).state.dados, let integrante = empresa.integrantes[membro]
        else { return NSNull() }
        var linha: [String: Any] = [
            "nome": empresa.cadastro.nome, "razaoSocial": empresa.cadastro.razaoSocial,
            "papel": integrante.papel == .gestor ? "gestor(a)" : "membro", "desde": integrante.desde.formatted(.iso8601),
        ]
        if let limite = empresa.limites[membro] {
            linha["limiteMensal"] = [
                limite.minutosPorMes.map { Cotacao.formatar(duracao: Int($0)) }, limite.centavosPorMes.map { Money(centavos: $0).description },
            ].compactMap { $0 }.joined(separator: " e ")
        }
        return linha
    }

    /// Every event that is `usuario`'s (``TrilhasReadModel/sujeitos(_:dono:)``), in global order,
    /// each with whether they did it: the index up to its checkpoint, read stream by stream,
    /// then the log's tail after the checkpoint by the same rule (usually a few events; the
    /// whole log only before the index was ever built).
    func trilha(_ usuario: String) async throws -> [(RecordedEvent, ator: Bool)] {
        let membro = usuario.lowercased()
        let checkpoint = try await store.checkpoint(TrilhasReadModel.projection.checkpoint)
        var entradas: [GlobalPosition: Bool] = [:]
        var streams: Set<StreamName> = []
        var lidos = 0
        while true {
            let docs = try await store.documents(TrilhasReadModel.trilhas, grupo: membro, limit: 500, offset: lidos)
            lidos += docs.count
            for doc in docs {
                // Entries past the checkpoint (the projection committed after it was read) are
                // the tail's: read below, once.
                for entrada in try TrilhasReadModel.entradas(doc) where entrada.posicao <= checkpoint {
                    entradas[entrada.posicao] = entrada.ator
                    streams.insert(StreamName(entrada.stream))
                }
            }
            guard docs.count == 500 else { break }
        }
        var eventos: [(RecordedEvent, ator: Bool)] = []
        for (_, lidos) in try await store.readStreams(streams.map { StreamRead($0, from: 1) }) {
            for event in lidos { if let ator = entradas[event.position] { eventos.append((event, ator)) } }
        }
        eventos.sort { $0.0.position < $1.0.position }
        // The tail the index has not reached.
        var donos: [UUID: String] = [:]
        var posicao = checkpoint
        while true {
            let lote = try await store.readAll(after: posicao, limit: 1_000)
            for event in lote {
                if event.type == Reserva.Catalogo.solicitada.type, let reserva = event.metadata.correlationId, let ator = event.metadata.actor {
                    donos[reserva] = ator.lowercased()
                }
                let sujeitos = try await TrilhasReadModel.sujeitos(event) { reserva in
                    if let dono = donos[reserva] { return dono }
                    return try await TrilhasReadModel.dono(reserva) { try await store.document($0, key: $1) }
                }
                if let ator = sujeitos[membro] { eventos.append((event, ator)) }
            }
            guard lote.count == 1_000, let ultimo = lote.last else { break }
            posicao = ultimo.position
        }
        return eventos
    }

    /// An event of `id`'s own account as exported: password hashes dropped, and the sealed
    /// fields opened where the schema puts them (the registration's name and e-mail), only
    /// when sealed for `id`. Nothing else is opened: a string elsewhere that looks sealed is
    /// text, whoever wrote it.
    /// A payload of another service with the texts sealed under the member's own key opened
    /// (a parcel's sender, a help-desk request's texts: ADRs 0017 and 0018). Free text is never
    /// in the sealed form (refused, 422), and a text sealed under someone else's key (a visitor's
    /// name) stays sealed.
    private func abertos(_ valor: Any, de id: Usuario.ID) async throws -> Any {
        switch valor {
        case let texto as String:
            let selado = SealedField(rawValue: texto)
            guard selado.subject == id.rawValue else { return texto }
            return try await vault.open(selado).value ?? "(apagado)"
        case let objeto as [String: Any]:
            var aberto: [String: Any] = [:]
            for (campo, valor) in objeto { aberto[campo] = try await abertos(valor, de: id) }
            return aberto
        case let lista as [Any]:
            var aberta: [Any] = []
            for valor in lista { aberta.append(try await abertos(valor, de: id)) }
            return aberta
        default:
            return valor
        }
    }

    private func aberto(_ event: RecordedEvent, de id: Usuario.ID) async throws -> Any {
        guard var dados = try JSONSerialization.jsonObject(with: event.data) as? [String: Any] else {
            return try JSONSerialization.jsonObject(with: event.data)
        }
        dados["senha"] = nil
        if case .registrado(let registrado)? = try Usuario.Event.decode(type: event.type, data: event.data, using: EventJSON.decoder) {
            for (campo, valor) in [("nome", registrado.nome), ("email", registrado.email)] {
                let selado = SealedField(rawValue: valor)
                guard selado.subject == id.rawValue else { continue }
                dados[campo] = try await vault.open(selado).value ?? "(apagado)"
            }
        }
        return dados
    }
}
