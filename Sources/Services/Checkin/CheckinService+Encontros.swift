import Domain
import EventStore
public import Foundation
public import Projections

/// Community events (ADR 0019): the team publishes an event at a unit with a number of places;
/// members sign up, or join the waiting list when it is full; a member who gives up their place
/// hands it to the first who waits. notificacoes tells members of their place (with the
/// calendar invitation) and of a cancelled event.
extension CheckinService {
    public struct PedidoDeEncontro: Decodable, Sendable {
        public let unidadeId: String?
        public let titulo: String?
        public let descricao: String?
        public let local: String?
        public let inicio: Date?
        public let fim: Date?
        public let vagas: Int?
    }

    /// A change: absent fields stay as they are; `descricao` or `local` blank clears it.
    public struct AlteracaoDeEncontro: Decodable, Sendable {
        public let titulo: String?
        public let descricao: String?
        public let local: String?
        public let vagas: Int?
    }

    public struct CancelamentoDeEncontro: Decodable, Sendable {
        public let motivo: String?

        public init(motivo: String?) { self.motivo = motivo }
    }

    /// How many past events a list holds (the latest), 50 a page.
    public static let passadosNaLista = 200
    /// How many events a list reads at most to find the coming ones (the latest start first).
    public static let encontrosLidos = 5_000

    var encontros: AggregateStore<Encontro.Command, Encontro.State, Encontro.Event, Encontro.Failure> {
        AggregateStore(store: store, decider: Encontro.decider) {
            try Encontro.Event.decode(type: $0.type, data: $0.data, using: EventJSON.decoder)
        }
    }

    // MARK: The team's commands

    /// The team publishes an event: 422 naming the field (unit, title, texts, start and end,
    /// places). A retry with the same `Idempotency-Key` answers what was written.
    public func publicarEncontro(_ pedido: PedidoDeEncontro, caller: Caller) async throws -> EncontroView {
        guard let quem = caller.usuario else { throw ServiceError.naoAutenticado }
        guard let texto = pedido.unidadeId, let unidadeId = UUID(text: texto) else {
            throw ServiceError.invalido("unidadeId", "informe a unidade (id) do evento")
        }
        guard let titulo = pedido.titulo else { throw ServiceError.invalido("titulo", "dê um título ao evento") }
        guard let inicio = pedido.inicio else { throw ServiceError.invalido("inicio", "informe o início (ISO 8601, ex.: 2026-12-10T18:00:00-03:00)") }
        guard let fim = pedido.fim else { throw ServiceError.invalido("fim", "informe o fim (ISO 8601)") }
        guard let vagas = pedido.vagas else { throw ServiceError.invalido("vagas", "informe quantas vagas o evento tem") }
        let id = Encontro.ID(caller.idempotencyKey.map { Events.derivedId("encontro", quem, $0) } ?? EventIDs.random())
        let stream = StreamNames.encontro(id)
        let now = clock.now
        let publicado = Encontro.Publicado(
            encontroId: id, unidadeId: unidadeId, titulo: titulo, descricao: pedido.descricao, local: pedido.local, inicio: inicio, fim: fim,
            vagas: vagas, por: quem, em: now)
        // A retry (same admin, same key) answers what was written; the key sent with another
        // event is refused.
        if case .existente(let dados) = try await encontros.load(stream).state {
            // What this request would publish, trimmed as the decider trims it.
            let pedido = try? Encontro.decider.decide(.publicar(publicado), .inexistente).first
            guard case .publicado(let igual)? = pedido, let p = Optional(dados.publicado), p.unidadeId == igual.unidadeId,
                p.inicio == igual.inicio, p.fim == igual.fim, p.titulo == igual.titulo, p.descricao == igual.descricao, p.local == igual.local,
                p.vagas == igual.vagas
            else {
                throw ServiceError(
                    .invalido, codigo: "chave_de_idempotencia_reutilizada", mensagem: "esta Idempotency-Key já foi usada com outro evento")
            }
            return EncontroView(dados)
        }
        // The texts and the places first (the domain's rule), then the unit.
        do throws(Encontro.Failure) {
            _ = try Encontro.decider.decide(.publicar(publicado), .inexistente)
        } catch {
            throw ServiceError(error)
        }
        guard case .existente = try await unidades.load(StreamNames.unidade(Unidade.ID(unidadeId))).state else {
            throw ServiceError.invalido("unidadeId", "a unidade \(unidadeId.lowercasedString) não existe")
        }
        // Members read it next.
        caller.receipt?.markShared()
        let state: Encontro.State
        do {
            state = try await encontros.handle(
                stream, at: now, metadata: metadata(correlacao: id.rawValue, caller), receipt: caller.receipt, failure: { ServiceError($0) }
            ) { _ in
                .publicar(publicado)
            }
        } catch let error as ServiceError where error.codigo == "encontro_ja_publicado" && caller.idempotencyKey != nil {
            // The same key sent twice at once: the other one wrote it; answer as its retry does.
            return try await publicarEncontro(pedido, caller: caller)
        }
        return try Self.encontro(state)
    }

    /// The team changes the texts or the places (before the start): 409 `encontro_cancelado`,
    /// `encontro_iniciado`, `vagas_abaixo_dos_inscritos`. More places go to those who wait, in order.
    public func alterarEncontro(_ texto: String, _ alteracao: AlteracaoDeEncontro, caller: Caller) async throws -> EncontroView {
        let (id, dados) = try await existente(texto)
        caller.receipt?.markShared()
        let now = clock.now
        let state = try await encontros.handle(
            StreamNames.encontro(id), at: now, metadata: metadata(correlacao: id.rawValue, caller), receipt: caller.receipt,
            failure: { ServiceError($0) }
        ) { state in
            let atual = state.dados ?? dados
            return .alterar(
                titulo: alteracao.titulo ?? atual.titulo, descricao: alteracao.descricao ?? atual.descricao, local: alteracao.local ?? atual.local,
                vagas: alteracao.vagas ?? atual.vagas, por: caller.usuario ?? "admin", em: now)
        }
        return try Self.encontro(state)
    }

    /// The team cancels the event (before the start; twice changes nothing): everyone signed up
    /// is told.
    public func cancelarEncontro(_ texto: String, _ cancelamento: CancelamentoDeEncontro, caller: Caller) async throws -> EncontroView {
        try ServiceError.texto(cancelamento.motivo, campo: "motivo", maximo: 500)
        let (id, _) = try await existente(texto)
        caller.receipt?.markShared()
        let now = clock.now
        let state = try await encontros.handle(
            StreamNames.encontro(id), at: now, metadata: metadata(correlacao: id.rawValue, caller), receipt: caller.receipt,
            failure: { ServiceError($0) }
        ) { _ in
            .cancelar(motivo: cancelamento.motivo, por: caller.usuario ?? "admin", em: now)
        }
        return try Self.encontro(state)
    }

    // MARK: The member's commands

    /// The caller signs up: a place while there is one, else the waiting list (409
    /// `encontro_lotado` when that is full too); 409 `encontro_cancelado`, `encontro_iniciado`.
    /// Signed up already: answers as it is.
    public func inscrever(_ texto: String, caller: Caller) async throws -> EncontroView {
        guard let quem = caller.usuario else { throw ServiceError.naoAutenticado }
        let (id, _) = try await existente(texto)
        let stream = StreamNames.encontro(id)
        let state = try await turnos.withTurn(of: [stream]) {
            let now = clock.now
            return try await encontros.handle(
                stream, at: now, metadata: metadata(correlacao: id.rawValue, caller), receipt: caller.receipt, failure: { ServiceError($0) }
            ) {
                _ in
                .inscrever(usuarioId: quem, em: now)
            }
        }
        return Self.paraMembro(try Self.encontro(state), quem)
    }

    /// The caller gives up their place or leaves the waiting list (before the start: 409
    /// `encontro_iniciado` after it). A place given up goes to the first who waits.
    public func desistir(_ texto: String, caller: Caller) async throws -> EncontroView {
        guard let quem = caller.usuario else { throw ServiceError.naoAutenticado }
        let (id, _) = try await existente(texto)
        // The one who waited is told, and reads it next.
        caller.receipt?.markShared()
        let stream = StreamNames.encontro(id)
        // The append also hands the place to the first who waits: written by the system on the
        // member's behalf (the payload's `por` names them), as an actor's trail and data export
        // list what they wrote, and who got the place is not the giver's to know.
        var meta = metadata(correlacao: id.rawValue, caller)
        meta.actor = "system:encontros"
        let state = try await turnos.withTurn(of: [stream]) {
            let now = clock.now
            return try await encontros.handle(stream, at: now, metadata: meta, receipt: caller.receipt, failure: { ServiceError($0) }) { _ in
                .desistir(usuarioId: quem, razao: .desistencia, por: quem, em: now)
            }
        }
        return Self.paraMembro(try Self.encontro(state), quem)
    }

    // MARK: Queries

    /// The coming events (`proximos`, the soonest first: those not yet over) or the past ones
    /// (`passados`, the latest first), of the network or of one unit. Members see counts and
    /// their own sign-up; the team also who signed up.
    public func encontros(unidade: String?, periodo: String?, pagina: Int = 1, caller: Caller) async throws -> Pagina<EncontroView> {
        guard let quem = caller.usuario else { throw ServiceError.naoAutenticado }
        let passados: Bool
        switch periodo ?? "proximos" {
        case "proximos": passados = false
        case "passados": passados = true
        default: throw ServiceError.requisicaoInvalida("'periodo' deve ser proximos ou passados", detalhes: ["campo": "periodo"])
        }
        var grupo: String?
        if let unidade {
            guard let unidadeId = UUID(text: unidade) else {
                throw ServiceError.requisicaoInvalida("'unidade' deve ser o id de uma unidade", detalhes: ["campo": "unidade"])
            }
            grupo = unidadeId.lowercasedString
        }
        let now = clock.now
        let todos: [EncontroView]
        if passados {
            var vistos = 0
            let lidos = try await lidos(grupo: grupo) {
                if $0.fim <= now { vistos += 1 }
                return vistos >= Self.passadosNaLista
            }
            todos = Array(lidos.filter { $0.fim <= now }.prefix(Self.passadosNaLista))
        } else {
            todos = try await proximos(grupo: grupo, now: now)
        }
        // 50 a page: the team's page names who signed up to each (one profile read a person).
        let lista = Pagina(de: todos, pagina: pagina)
        let itens = caller.papel == "admin" ? try await nomeados(lista.itens) : lista.itens.map { Self.paraMembro($0, quem) }
        return Pagina(itens: itens, total: lista.total, pagina: lista.pagina)
    }

    /// One event: for a member, with their sign-up; for the team, with the names.
    public func encontro(_ texto: String, caller: Caller) async throws -> EncontroView {
        guard let quem = caller.usuario else { throw ServiceError.naoAutenticado }
        let (_, dados) = try await existente(texto)
        let view = EncontroView(dados)
        if caller.papel == "admin" { return try await nomeados([view])[0] }
        return Self.paraMembro(view, quem)
    }

    // MARK: Reactions

    /// An erased member gives up their places in the events still to come (by `system:lgpd`,
    /// which tells nobody): the first who waits gets each.
    func desistirDosEncontros(de usuario: String, causa: RecordedEvent) async throws -> [StreamWrite] {
        let now = clock.now
        var writes: [StreamWrite] = []
        let inscricoes = try await store.documents(EncontrosReadModel.doMembro, grupo: usuario, limit: 1_000, offset: 0)
            .map { try ReadModelJSON.decoder.decode(EncontrosReadModel.Inscricao.self, from: $0) }
        for inscricao in inscricoes where inscricao.inicio > now {
            guard let id = Encontro.ID(inscricao.encontroId) else { continue }
            let stream = StreamNames.encontro(id)
            let (state, version) = try await encontros.load(stream)
            guard state.dados?.situacao(de: usuario) != nil,
                let events = try? Encontro.decider.decide(.desistir(usuarioId: usuario, razao: .contaApagada, por: "system:lgpd", em: now), state),
                !events.isEmpty
            else { continue }
            writes.append(try escritaDaLGPD(stream, depoisDe: version, events, em: now, causa: causa, correlacao: id.rawValue))
        }
        return writes
    }

    // MARK: Helpers

    /// The events not yet over, the soonest first. The read model lists the latest start first,
    /// so those come first: pages are read until one holds an event that started more than the
    /// longest event's length ago (it, and every one after it, is over).
    private func proximos(grupo: String?, now: Date) async throws -> [EncontroView] {
        let encerrados = now.addingTimeInterval(-Encontro.duracaoMaxima)
        return try await lidos(grupo: grupo, ate: { $0.inicio <= encerrados }).filter { $0.fim > now }.reversed()
    }

    /// The events of `grupo` (nil: the network), the latest start first, read a page at a time
    /// until a page holds one `ate` takes, or holds fewer than a page, or ``encontrosLidos`` were
    /// read.
    private func lidos(grupo: String?, ate: (EncontroView) -> Bool) async throws -> [EncontroView] {
        let pagina = 200
        var lidos: [EncontroView] = []
        while lidos.count < Self.encontrosLidos {
            let documentos = try await store.documents(EncontrosReadModel.encontros, grupo: grupo, limit: pagina, offset: lidos.count)
            let views = try documentos.map { try ReadModelJSON.decoder.decode(EncontroView.self, from: $0) }
            lidos += views
            if views.count < pagina || views.contains(where: ate) { break }
        }
        return lidos
    }

    private func existente(_ texto: String) async throws -> (Encontro.ID, Encontro.Dados) {
        guard let id = Encontro.ID(texto), case .existente(let dados) = try await encontros.load(StreamNames.encontro(id)).state else {
            throw ServiceError.naoEncontrado("o evento não existe")
        }
        return (id, dados)
    }

    /// What a member reads: the counts and their own sign-up, not who else signed up.
    static func paraMembro(_ view: EncontroView, _ usuario: String) -> EncontroView {
        var view = view
        if view.inscritos?.contains(where: { $0.usuarioId == usuario }) == true {
            view.minhaInscricao = .confirmada
        } else if let posicao = view.espera?.firstIndex(where: { $0.usuarioId == usuario }) {
            view.minhaInscricao = .espera
            view.posicaoNaEspera = posicao + 1
        }
        view.inscritos = nil
        view.espera = nil
        return view
    }

    /// The views with the names of who signed up, each read once.
    private func nomeados(_ views: [EncontroView]) async throws -> [EncontroView] {
        let nomes = try await nomes(de: views.flatMap { ($0.inscritos ?? []) + ($0.espera ?? []) }.map(\.usuarioId))
        func nomeadas(_ pessoas: [EncontroView.Pessoa]?) -> [EncontroView.Pessoa]? {
            pessoas?.map { pessoa in
                var pessoa = pessoa
                pessoa.nome = nomes[pessoa.usuarioId] ?? nil
                return pessoa
            }
        }
        return views.map { view in
            var view = view
            view.inscritos = nomeadas(view.inscritos)
            view.espera = nomeadas(view.espera)
            return view
        }
    }

    static func encontro(_ state: Encontro.State) throws -> EncontroView {
        guard let dados = state.dados else { throw ServiceError(Encontro.Failure.inexistente) }
        return EncontroView(dados)
    }
}

extension ServiceError {
    init(_ failure: Encontro.Failure) {
        switch failure {
        case .inexistente: self = .naoEncontrado("o evento não existe")
        case .jaPublicado: self = .conflito("encontro_ja_publicado", "este evento já foi publicado")
        case .tituloInvalido:
            self = .invalido(
                "titulo",
                "o título deve ter \(TextoLivre.limite(Encontro.tamanhoMaximoDoTitulo)), sem ficar em branco, \(TextoLivre.foraDaFormaSelada)")
        case .descricaoInvalida:
            self = .invalido(
                "descricao", "a descrição deve ter \(TextoLivre.limite(Encontro.tamanhoMaximoDaDescricao)), \(TextoLivre.foraDaFormaSelada)")
        case .localInvalido:
            self = .invalido("local", "o local deve ter \(TextoLivre.limite(Encontro.tamanhoMaximoDoLocal)), \(TextoLivre.foraDaFormaSelada)")
        case .vagasInvalidas: self = .invalido("vagas", "as vagas devem ser de 1 a \(Encontro.vagasMaximas)")
        case .periodoInvalido:
            self = .invalido("fim", "o fim deve ser depois do início, e o evento durar no máximo \(Int(Encontro.duracaoMaxima / 3_600)) horas")
        case .noPassado: self = .invalido("inicio", "o início já passou: publique eventos que ainda vão acontecer")
        case .cancelado: self = .conflito("encontro_cancelado", "este evento foi cancelado")
        case .iniciado: self = .conflito("encontro_iniciado", "este evento já começou: as inscrições e as mudanças se encerraram")
        case .vagasAbaixoDosInscritos(let confirmados):
            self = .conflito(
                "vagas_abaixo_dos_inscritos", "\(confirmados) pessoas já têm vaga: o evento não pode ter menos vagas que isso")
        case .lotado:
            self = .conflito("encontro_lotado", "o evento está lotado, e a lista de espera também (\(Encontro.esperaMaxima) pessoas)")
        case .inscricoesDemais:
            self = .conflito(
                "inscricoes_demais",
                "você já se inscreveu \(Encontro.inscricoesPorMembro) vezes neste evento e não pode se inscrever de novo")
        }
    }
}
